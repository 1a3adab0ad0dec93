import fs from 'node:fs/promises';
import path from 'node:path';

/** Where page images live: `DATA_DIR/pages/<school>/<ab>/<hash>.<ext>`, written so a crash leaves none half-done. */
export class PageStorage {
  constructor(private readonly dataDir: string) {}

  relativePath(orgId: string, hash: string, ext: string): string {
    return path.posix.join('pages', orgId.replace(/[^\w-]/g, '_'), hash.slice(0, 2), `${hash}.${ext}`);
  }

  absolute(relative: string): string {
    const root = path.resolve(this.dataDir, 'pages');
    const file = path.resolve(this.dataDir, relative);
    if (!file.startsWith(`${root}${path.sep}`)) throw new Error('page path outside the page store');
    return file;
  }

  async write(relative: string, data: Uint8Array): Promise<void> {
    const file = this.absolute(relative);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    const handle = await fs.open(tmp, 'w', 0o640);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  }

  read(relative: string): Promise<Buffer> {
    return fs.readFile(this.absolute(relative));
  }
}
