/**
 * Verified bearer tokens kept for a few seconds (ADR 0078): the bearer check ran one query on every request of every
 * call, although a teacher's page sends its calls in bursts with the same token. An entry is kept at most `ttlMs`
 * and never past its token's expiry; `clear` drops everything at once (the host calls it on every write of the rows
 * a verified caller depends on: sessions revoked, accounts disabled, memberships and roles changed, tokens deleted —
 * see `AUTH_WATCHED_TABLES`). Callers verifying the same token at the same moment share one read. A read that was
 * under way when `clear` ran is answered but not kept, so a cleared entry cannot come back from before the write.
 */
export class TokenCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  private readonly inflight = new Map<string, Promise<T | undefined>>();
  private generation = 0;

  constructor(
    private readonly options: {
      /** How long a verified token is believed without asking again (0: never kept). */
      ttlMs: number;
      /** At most this many tokens (the oldest go first). */
      max: number;
      clock: () => number;
    },
  ) {}

  /**
   * The value for `key`: kept, or read by `load`, which answers the value and until when (ms since epoch) it holds,
   * or undefined (not kept).
   */
  async get(
    key: string,
    load: () => Promise<{ value: T; until: number } | undefined>,
  ): Promise<T | undefined> {
    const now = this.options.clock();
    const kept = this.entries.get(key);
    if (kept) {
      if (kept.until > now) return kept.value;
      this.entries.delete(key);
    }
    if (this.options.ttlMs <= 0) return (await load())?.value;
    const running = this.inflight.get(key);
    if (running) return running;
    const generation = this.generation;
    const read = (async () => {
      const found = await load();
      if (!found) return undefined;
      if (generation === this.generation) {
        const until = Math.min(found.until, this.options.clock() + this.options.ttlMs);
        if (this.entries.size >= this.options.max) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { value: found.value, until });
      }
      return found.value;
    })();
    this.inflight.set(key, read);
    const settled = () => {
      if (this.inflight.get(key) === read) this.inflight.delete(key);
    };
    read.then(settled, settled);
    return read;
  }

  /** Forgets every token (and lets no read under way keep what it reads). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.inflight.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
