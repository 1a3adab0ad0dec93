import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { readVersions } from '../results/versions.js';

// Computed analysis kept in memory and validated against the database on every read (ADR 0021). Each entry carries
// the versions (migration 0017) it was computed at: the results version of every homework whose sheets it read and
// the context version (homework, classes, students, teachers, settings…). A read first asks the database for the
// current versions of exactly those keys — one small indexed query — and uses the entry only when all are equal;
// anything else is recomputed. Versions are read before the data they cover, so an entry can only be labelled
// older than its data (a needless recompute), never newer (a stale figure). Another instance's write bumps the
// same rows, so nothing an instance remembers can outlive a change made elsewhere.
// The context is two rows (ADR 0030): `context` for what all schools share (subjects, stages, users' names) and
// `context:<org id>` for the school's own tables. An entry whose context is current but whose results changed may
// be brought up to date from the changes alone (`refresh`) instead of computed anew.

export const CONTEXT_KEY = 'context';

/** The context rows a school's figures depend on: the shared one and the school's. */
export const contextKeys = (orgId: string): [string, string] => [CONTEXT_KEY, `context:${orgId}`];

export type Versions = Map<string, number>;

interface Entry<T> {
  orgId: string;
  /** getMany's entries: the context label they were computed at (their versions hold only their own id). */
  context?: string;
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

/**
 * Told of every lookup: served from memory (hit), brought up to date from what changed (update) or computed
 * (miss), and how many values.
 */
export type CacheCounter = (result: 'hit' | 'update' | 'miss', count: number) => void;

/**
 * Brings a kept value up to date when only result versions changed (the context is the same): receives the value,
 * the versions it was computed at and the current ones (read before this call, so covering no later write); returns
 * the new value, or null to compute anew.
 */
export type Refresh<T> = (previous: T, was: Versions, now: Versions) => Promise<T | null>;

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
    return readVersions(this.db, keys);
  }

  /**
   * The value of `key` for a school: from memory when every version it was computed at is still current; else,
   * when only result versions moved and `refresh` is given, brought up to date by it; else from `load`, which
   * receives the versions read so far (context and `keys`) and adds the versions of anything else it reads (through
   * `stamp`) before reading it.
   */
  async get(
    orgId: string,
    key: string,
    keys: readonly string[],
    load: (stamp: (more: readonly string[]) => Promise<void>) => Promise<T>,
    refresh?: Refresh<T>,
  ): Promise<T> {
    const entry = this.entries.get(key);
    const context = contextKeys(orgId);
    const wanted = [...context, ...keys, ...(entry ? entry.versions.keys() : [])];
    const current = await this.versions(wanted);
    if (entry && entry.orgId === orgId) {
      if (same(entry.versions, current)) {
        this.count('hit', 1);
        return entry.value;
      }
      if (refresh && context.every((k) => entry.versions.get(k) === current.get(k))) {
        const now: Versions = new Map([...entry.versions.keys()].map((k) => [k, current.get(k)!]));
        const value = await refresh(entry.value, entry.versions, now);
        if (value !== null) {
          this.count('update', 1);
          this.entries.set(key, { orgId, versions: now, value });
          return value;
        }
      }
    }
    this.count('miss', 1);
    const versions: Versions = new Map(
      [...context, ...keys].map((k) => [k, current.get(k) ?? 0] as [string, number]),
    );
    const value = await load(async (more) => {
      const missing = more.filter((k) => !versions.has(k));
      if (missing.length === 0) return;
      for (const [k, v] of await this.versions(missing)) versions.set(k, v);
    });
    this.entries.set(key, { orgId, versions, value });
    return value;
  }

  /** The school's context versions now, as one label (read it before reading rows a later `getMany` computes from). */
  async contextVersion(orgId: string): Promise<string> {
    const keys = contextKeys(orgId);
    const v = await this.versions(keys);
    return keys.map((k) => v.get(k)!).join(':');
  }

  /**
   * Several values at once, one per id (`key(id)`), each depending on the school's context and its own id's
   * version: one query validates all; `load` computes the missing ones together. `contextBefore` is the context
   * label (`contextVersion`) read before the caller read the rows it hands to `load`; new entries carry it.
   */
  async getMany(
    orgId: string,
    ids: readonly string[],
    key: (id: string) => string,
    contextBefore: string,
    load: (missing: string[]) => Promise<Map<string, T>>,
  ): Promise<Map<string, T>> {
    const context = contextKeys(orgId);
    const current = await this.versions([...context, ...ids]);
    const contextNow = context.map((k) => current.get(k)!).join(':');
    const out = new Map<string, T>();
    const missing: string[] = [];
    for (const id of ids) {
      const entry = this.entries.get(key(id));
      if (
        entry &&
        entry.orgId === orgId &&
        entry.context === contextNow &&
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
        context: contextBefore,
        versions: new Map([[id, current.get(id)!]]),
        value,
      });
    }
    return out;
  }
}
