import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertKey, type ObjectStorage } from './types.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, privateDirSync } from '../private-files.js';

const isMissing = (error: unknown) => (error as { code?: string }).code === 'ENOENT';

/** Objects as files under one folder (DATA_DIR), written to a temporary name, synced, then renamed into place. */
export class LocalObjectStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a key (the embedded default only; S3 has no file). */
  file(key: string): string {
    assertKey(key);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(`${this.root}${path.sep}`)) throw new Error(`key outside the store: ${key}`);
    return file;
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`;
    const handle = await fs.open(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await fs.rm(tmp, { force: true });
      throw error;
    }
    await handle.close();
    await fs.rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async stream(key: string): Promise<Readable | null> {
    const file = this.file(key);
    try {
      const handle = await fs.open(file, 'r');
      return handle.createReadStream({ autoClose: true });
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await fs.stat(this.file(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<string> {
    const start = path.resolve(this.root, prefix);
    if (start !== this.root && !start.startsWith(`${this.root}${path.sep}`)) return;
    let entries;
    try {
      entries = await fs.readdir(start, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      // Half-written temporaries of a crashed write are not objects.
      if (!entry.isFile() || entry.name.endsWith('.tmp')) continue;
      yield path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    }
  }

  async check(): Promise<void> {
    privateDirSync(this.root);
    await fs.access(this.root, fs.constants.R_OK | fs.constants.W_OK);
  }

  async close(): Promise<void> {}
}
