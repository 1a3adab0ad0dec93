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

/** Writes a file so that after a crash it is either absent or complete: temp file, fsync, rename, fsync folder. */
export async function writeFileDurable(file: string, data: Uint8Array | string, mode = 0o600): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(tmp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
  await fsyncDir(path.dirname(file));
}

/** An append-only file whose every line is on the disk before `append` resolves. Appends are serialised. */
export class DurableLog {
  private handle: fs.FileHandle | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  append(line: string): Promise<void> {
    const next = this.chain.then(async () => {
      this.handle ??= await fs.open(this.file, 'a', 0o600);
      await this.handle.appendFile(`${line}\n`);
      await this.handle.datasync();
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
