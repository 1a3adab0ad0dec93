import type { Readable } from 'node:stream';
import { LocalObjectStorage } from './local.js';
import type { ObjectStorage } from './types.js';

/** How one area of the store names its objects. */
export interface AreaRules {
  /** The storage key of a relative path the area may hold; throws for any other path (it never reaches the store). */
  key(relative: string): string;
  /** The content type an object is written with, when the store keeps one (S3). */
  contentType?(relative: string): string | undefined;
}

/**
 * The one wrapper of the host over the object-storage port (ADR 0052): an area of the store (stored files, materials,
 * page images) with its own path rules. Every read, write and removal goes through the area's `key` check, so a path
 * from the database or a request can never reach another area or escape the store. Built on a DATA_DIR (the embedded
 * default) or on the host's object store.
 */
export class StorageArea {
  protected readonly objects: ObjectStorage;

  constructor(
    store: string | ObjectStorage,
    private readonly rules: AreaRules,
  ) {
    this.objects = typeof store === 'string' ? new LocalObjectStorage(store) : store;
  }

  /** Stores an object whole: a crash never leaves half of one under its name. */
  async write(relative: string, data: Uint8Array): Promise<void> {
    const key = this.rules.key(relative);
    const contentType = this.rules.contentType?.(relative);
    await this.objects.put(key, data, contentType ? { contentType } : undefined);
  }

  /** The object's bytes, or null when it does not exist. */
  read(relative: string): Promise<Buffer | null> {
    return this.objects.get(this.rules.key(relative));
  }

  /** The object as a stream, or null when it is missing. */
  stream(relative: string): Promise<Readable | null> {
    return this.objects.stream(this.rules.key(relative));
  }

  exists(relative: string): Promise<boolean> {
    return this.objects.exists(this.rules.key(relative));
  }

  /** Removes an object; a missing one is fine. */
  async remove(relative: string): Promise<void> {
    await this.objects.delete(this.rules.key(relative));
  }
}
