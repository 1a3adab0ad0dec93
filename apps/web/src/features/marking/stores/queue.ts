import type { MarkItem, MarkNext } from '@zhzy/contracts';

// The bench's queue: the items handed to me, each with its crops already fetched and decoded, so Enter shows the
// next one at once. It keeps PREFETCH items ahead and refills in the background.

export const PREFETCH = 4;

export interface ReadyItem {
  item: MarkItem;
  /** Object URLs of the crops by question id (null: no crop). */
  crops: Record<string, string | null>;
}

export interface QueueDeps {
  next(count: number, skip: string[]): Promise<MarkNext>;
  loadCrop(url: string): Promise<string>;
  revoke(url: string): void;
}

export interface QueueState {
  current: ReadyItem | null;
  /** Nothing more to hand out (and nothing held). */
  finished: boolean;
  loading: boolean;
  remaining: number;
  myMarks: number;
}

export class MarkQueue {
  private ready: ReadyItem[] = [];
  private current: ReadyItem | null = null;
  private pending = new Set<string>();
  private filling: Promise<void> | null = null;
  private exhausted = false;
  private remaining = 0;
  private myMarks = 0;
  private listeners = new Set<() => void>();
  private snapshot: QueueState;
  private closed = false;

  constructor(private readonly deps: QueueDeps) {
    this.snapshot = this.compute();
  }

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = (): QueueState => this.snapshot;

  private compute(): QueueState {
    return {
      current: this.current,
      finished: this.exhausted && !this.current && this.ready.length === 0,
      loading: !this.current && !(this.exhausted && this.ready.length === 0),
      remaining: this.remaining,
      myMarks: this.myMarks,
    };
  }

  private emit() {
    this.snapshot = this.compute();
    for (const fn of this.listeners) fn();
  }

  /**
   * Starts (or resumes) the queue: the first item shows as soon as it is ready. A queue closed before (the bench
   * left and mounted again, as React's StrictMode does on purpose) starts afresh.
   */
  async start(): Promise<void> {
    this.closed = false;
    await this.fill();
    if (!this.current && !this.closed) this.advance();
  }

  /** Shows the next ready item (the caller submits the one shown before). */
  advance(): ReadyItem | null {
    this.current = this.ready.shift() ?? null;
    this.emit();
    void this.fill().then(() => {
      if (!this.current && this.ready.length > 0) {
        this.current = this.ready.shift()!;
        this.emit();
      }
    });
    return this.current;
  }

  /** Puts an item back in front (its submission failed). */
  putBack(item: ReadyItem): void {
    if (this.current) this.ready.unshift(this.current);
    this.current = item;
    this.emit();
  }

  /** Shows a given item (回评) in front of the queue. */
  show(item: ReadyItem): void {
    if (this.current && this.current.item.sheetId !== item.item.sheetId) this.ready.unshift(this.current);
    this.current = item;
    this.emit();
  }

  /** Marks an item as sent: it is not handed out again while its submission runs. */
  sending(sheetId: string, done: Promise<unknown>): void {
    this.pending.add(sheetId);
    void done.finally(() => this.pending.delete(sheetId));
  }

  /**
   * Lets go of items scored elsewhere (a group): they leave the queue, and when the one shown is among them the next
   * one shows.
   */
  drop(sheetIds: string[]): void {
    const gone = new Set(sheetIds);
    const dropped = this.ready.filter((r) => gone.has(r.item.sheetId));
    this.ready = this.ready.filter((r) => !gone.has(r.item.sheetId));
    for (const r of dropped) this.revokeCrops(r);
    if (this.current && gone.has(this.current.item.sheetId)) {
      this.revokeCrops(this.current);
      this.advance();
    } else this.emit();
  }

  setCounts(remaining: number, myMarks: number): void {
    this.remaining = remaining;
    this.myMarks = myMarks;
    this.emit();
  }

  held(): string[] {
    return [
      ...(this.current ? [this.current.item.sheetId] : []),
      ...this.ready.map((r) => r.item.sheetId),
      ...this.pending,
    ];
  }

  private fill(): Promise<void> {
    if (this.filling) return this.filling;
    if (this.ready.length >= PREFETCH - 1 || this.exhausted) return Promise.resolve();
    this.filling = (async () => {
      try {
        const answer = await this.deps.next(PREFETCH, this.held());
        this.remaining = answer.remaining;
        this.myMarks = answer.myMarks;
        const known = new Set(this.held());
        const fresh = answer.items.filter((i) => !known.has(i.sheetId));
        if (fresh.length === 0) this.exhausted = true;
        const loaded = await Promise.all(fresh.map((i) => this.load(i)));
        if (this.closed) {
          for (const r of loaded) this.revokeCrops(r);
          return;
        }
        this.ready.push(...loaded);
      } finally {
        this.filling = null;
        this.emit();
      }
    })();
    return this.filling;
  }

  /** Fetches and decodes an item's crops. */
  async load(item: MarkItem): Promise<ReadyItem> {
    const crops: Record<string, string | null> = {};
    await Promise.all(
      item.answers.map(async (a) => {
        crops[a.questionId] = a.cropUrl ? await this.deps.loadCrop(a.cropUrl).catch(() => null) : null;
      }),
    );
    return { item, crops };
  }

  /** After a submit: when the queue ran dry, ask again (double marking may have opened items). */
  refresh(): void {
    this.exhausted = false;
    void this.fill().then(() => {
      if (!this.current && this.ready.length > 0) this.advance();
    });
  }

  /**
   * Lets go of everything held (its crops' object URLs too). The items were only handed out, not taken: a later
   * `start()` asks the host again. Subscribers are left to unsubscribe themselves.
   */
  close(): void {
    this.closed = true;
    for (const r of [...this.ready, ...(this.current ? [this.current] : [])]) this.revokeCrops(r);
    this.ready = [];
    this.current = null;
    this.exhausted = false;
    this.snapshot = this.compute();
  }

  private revokeCrops(r: ReadyItem): void {
    for (const url of Object.values(r.crops)) if (url) this.deps.revoke(url);
  }
}
