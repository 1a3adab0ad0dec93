/**
 * Local storage with JSON values (SPEC §9): every value is stored as JSON, and reading a key that
 * is missing (or whose text is not JSON) gives an empty object `{}`.
 */

/** The part of the Web Storage API the client needs (`window.localStorage` fits). */
export interface StorageBacking {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  clear(): void;
  /** Key enumeration (Web Storage has both): needed to keep device settings through `clear()`. */
  readonly length?: number;
  key?(index: number): string | null;
}

/** What a missing or unreadable key reads as. */
export type EmptyObject = Record<string, never>;

export interface JsonStorage {
  /**
   * The stored value parsed from JSON, of no known shape (a caller reads it through its schema); `{}` when the key is
   * missing, unparsable or holds `null`.
   */
  get(key: string): unknown;
  /** Stores `value` as JSON; `undefined` removes the key. */
  set(key: string, value: unknown): void;
  remove(key: string): void;
  /** Removes every key of the backing store, except those `keepOnClear` names (settings of this device). */
  clear(): void;
}

export interface StorageOptions {
  /** Keys that belong to the device, not the session (the scan agent's pairing, scanner settings). */
  keepOnClear?: (key: string) => boolean;
}

/** Wraps a Web-Storage-like backing store so values go in and out as JSON. */
export function createStorage(backing: StorageBacking, options: StorageOptions = {}): JsonStorage {
  return {
    get(key: string): unknown {
      let text: string | null;
      try {
        text = backing.getItem(key);
      } catch {
        return {};
      }
      if (text === null) return {};
      try {
        const value: unknown = JSON.parse(text);
        return value === null ? {} : value;
      } catch {
        return {};
      }
    },
    set(key: string, value: unknown): void {
      if (value === undefined) {
        backing.removeItem(key);
        return;
      }
      backing.setItem(key, JSON.stringify(value));
    },
    remove(key: string): void {
      backing.removeItem(key);
    },
    clear(): void {
      const keep = options.keepOnClear;
      const kept: [string, string][] = [];
      if (keep && backing.key && backing.length !== undefined) {
        for (let i = 0; i < backing.length; i++) {
          const key = backing.key(i);
          const value = key !== null && keep(key) ? backing.getItem(key) : null;
          if (key !== null && value !== null) kept.push([key, value]);
        }
      }
      backing.clear();
      for (const [key, value] of kept) backing.setItem(key, value);
    },
  };
}

/** A Web-Storage-like store kept in memory, for Node and tests. `map` exposes the raw texts. */
export interface MemoryBacking extends StorageBacking {
  readonly map: Map<string, string>;
}

export function createMemoryBacking(initial: Record<string, string> = {}): MemoryBacking {
  const map = new Map<string, string>(Object.entries(initial));
  return {
    map,
    get length() {
      return map.size;
    },
    key: (index) => [...map.keys()][index] ?? null,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      map.set(key, String(value));
    },
    removeItem: (key) => {
      map.delete(key);
    },
    clear: () => {
      map.clear();
    },
  };
}

/** Shorthand: JSON storage over a fresh in-memory backing. */
export function createMemoryStorage(initial: Record<string, string> = {}): JsonStorage {
  return createStorage(createMemoryBacking(initial));
}
