import fs from 'node:fs/promises';
import path from 'node:path';

/** Makes a directory entry (a created or renamed file) durable. Windows cannot open folders: nothing to do there. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // EISDIR / EPERM on Windows: NTFS journals the rename itself.
  } finally {
    await handle?.close();
  }
}

/** Flushes a file that someone else wrote (a scanner tool) to the disk. */
export async function fsyncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The disk (or the user's quota) is full: nothing more can be made durable until space is freed. */
export function isNoSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * Writes a file so that after a crash it is either absent or complete: temp file, fsync, rename, fsync folder. A
 * write that fails (a full disk) removes its temp file, so it leaves nothing behind and frees what it took.
 */
export async function writeFileDurable(file: string, data: Uint8Array | string, mode = 0o600): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(tmp, 'w', mode);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  await fsyncDir(path.dirname(file));
}

/**
 * An append-only file whose every line is on the disk before `append` resolves. Appends are serialised. An append
 * that fails (a full disk) is cut off again, so a half-written line never glues itself to the next one.
 */
export class DurableLog {
  private handle: fs.FileHandle | undefined;
  /** Bytes of complete lines in the file. */
  private size = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  append(line: string): Promise<void> {
    const next = this.chain.then(async () => {
      if (!this.handle) {
        this.handle = await fs.open(this.file, 'a', 0o600);
        this.size = (await this.handle.stat()).size;
      }
      const bytes = Buffer.from(`${line}\n`, 'utf8');
      try {
        await this.handle.appendFile(bytes);
        await this.handle.datasync();
      } catch (error) {
        // Truncating needs no free space; the line is as if never written.
        await this.handle.truncate(this.size).catch(() => undefined);
        throw error;
      }
      this.size += bytes.length;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.chain;
    await this.handle?.close();
    this.handle = undefined;
  }
}
