import type { Readable } from 'node:stream';

/**
 * Where the host keeps its stored objects (page images, avatars, logos, screenshots): the local disk in the embedded
 * default, an S3-compatible bucket in production. Keys are relative POSIX paths (`pages/<school>/ab/<hash>.png`,
 * `files/avatars/<uuid>.webp`); every instance of a deployment sees the same objects under the same keys.
 */
export interface ObjectStorage {
  /** `local` or `s3` (logs, metrics, backup manifest). */
  readonly kind: 'local' | 's3';
  /** Stores an object whole: a reader never sees a half-written one, and a crash leaves none under its key. */
  put(key: string, data: Uint8Array, options?: { contentType?: string }): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The object as a stream (large objects, backups), or null when there is none. */
  stream(key: string): Promise<Readable | null>;
  /** Removes an object; a missing one is fine. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every key under a prefix (`pages/`), in no particular order. */
  list(prefix: string): AsyncIterable<string>;
  /** Throws when the store cannot be reached (readiness). */
  check(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

const KEY = /^[\w.-]+(\/[\w.-]+)*$/;

/** Rejects keys that could escape the store (`..`, absolute paths, odd characters). */
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..'))
    throw new Error(`invalid storage key: ${key}`);
}
