import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { chunked } from './repository.js';

// Computed analysis kept in memory and validated against the database on every read (ADR 0021). Each entry carries
// the versions (migration 0017) it was computed at: the results version of every homework whose sheets it read and
// the context version (homework, classes, students, teachers, settings…). A read first asks the database for the
// current versions of exactly those keys — one small indexed query — and uses the entry only when all are equal;
// anything else is recomputed. Versions are read before the data they cover, so an entry can only be labelled
// older than its data (a needless recompute), never newer (a stale figure). Another instance's write bumps the
// same rows, so nothing an instance remembers can outlive a change made elsewhere.

export const CONTEXT_KEY = 'context';

export type Versions = Map<string, number>;

interface Entry<T> {
  orgId: string;
  versions: Versions;
  value: T;
}

/** A bounded map, least recently used first out. */
class Lru<T> {
  private readonly map = new Map<string, T>();
  constructor(private readonly max: number) {}
  get(key: string): T | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: T): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
  get size(): number {
    return this.map.size;
  }
}

const same = (a: Versions, b: Versions): boolean => {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
};

/** Told of every lookup: served from memory (hit) or computed (miss), and how many values. */
export type CacheCounter = (result: 'hit' | 'miss', count: number) => void;

export class AnalysisCache<T> {
  private readonly entries: Lru<Entry<T>>;

  constructor(
    private readonly db: Kysely<Database>,
    max: number,
    private readonly count: CacheCounter = () => {},
  ) {
    this.entries = new Lru(max);
  }

  /** Current versions of some keys; a key without a row is version 0 (nothing written yet). */
  async versions(keys: readonly string[]): Promise<Versions> {
    const out: Versions = new Map(keys.map((k) => [k, 0]));
    for (const ids of chunked([...new Set(keys)])) {
      const rows = await this.db
        .selectFrom('analysis_versions')
        .select(['key', 'version'])
        .where('key', 'in', ids)
        .execute();
      for (const r of rows) out.set(r.key, Number(r.version));
    }
    return out;
  }

  /**
   * The value of `key` for a school: from memory when every version it was computed at is still current, else
   * from `load`, which receives the versions read so far (context and `keys`) and adds the versions of anything
   * else it reads (through `stamp`) before reading it.
   */
  async get(
    orgId: string,
    key: string,
    keys: readonly string[],
    load: (stamp: (more: readonly string[]) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const entry = this.entries.get(key);
    const wanted = [CONTEXT_KEY, ...keys, ...(entry ? entry.versions.keys() : [])];
    const current = await this.versions(wanted);
    if (entry && entry.orgId === orgId && same(entry.versions, current)) {
      this.count('hit', 1);
      return entry.value;
    }
    this.count('miss', 1);
    const versions: Versions = new Map(
      [CONTEXT_KEY, ...keys].map((k) => [k, current.get(k) ?? 0] as [string, number]),
    );
    const value = await load(async (more) => {
      const missing = more.filter((k) => !versions.has(k));
      if (missing.length === 0) return;
      for (const [k, v] of await this.versions(missing)) versions.set(k, v);
    });
    this.entries.set(key, { orgId, versions, value });
    return value;
  }

  /** The context version now (read it before reading rows that a later `getMany` computes from). */
  async contextVersion(): Promise<number> {
    return (await this.versions([CONTEXT_KEY])).get(CONTEXT_KEY)!;
  }

  /**
   * Several values at once, one per id (`key(id)`), each depending on the context and its own id's version:
   * one query validates all; `load` computes the missing ones together. `contextBefore` is the context version
   * read before the caller read the rows it hands to `load`; new entries are labelled with it.
   */
  async getMany(
    orgId: string,
    ids: readonly string[],
    key: (id: string) => string,
    contextBefore: number,
    load: (missing: string[]) => Promise<Map<string, T>>,
  ): Promise<Map<string, T>> {
    const current = await this.versions([CONTEXT_KEY, ...ids]);
    const out = new Map<string, T>();
    const missing: string[] = [];
    for (const id of ids) {
      const entry = this.entries.get(key(id));
      if (
        entry &&
        entry.orgId === orgId &&
        entry.versions.get(CONTEXT_KEY) === current.get(CONTEXT_KEY) &&
        entry.versions.get(id) === current.get(id)
      ) {
        out.set(id, entry.value);
      } else missing.push(id);
    }
    if (ids.length > missing.length) this.count('hit', ids.length - missing.length);
    if (missing.length === 0) return out;
    this.count('miss', missing.length);
    const loaded = await load(missing);
    for (const [id, value] of loaded) {
      out.set(id, value);
      this.entries.set(key(id), {
        orgId,
        versions: new Map([
          [CONTEXT_KEY, contextBefore],
          [id, current.get(id)!],
        ]),
        value,
      });
    }
    return out;
  }
}
