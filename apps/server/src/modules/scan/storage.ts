import path from 'node:path';
import { StorageArea } from '../../lib/storage/area.js';
import { LocalObjectStorage, type ObjectStorage } from '../../lib/storage/index.js';

/**
 * Where page images live: key `pages/<school>/<ab>/<hash>.<ext>` in the host's object store (DATA_DIR on disk by
 * default, an S3 bucket in production), written so a crash leaves none half-done.
 */
export class PageStorage extends StorageArea {
  /**
   * A DATA_DIR (embedded default) or the host's object store. `cropOnDemand` makes a missing crop of a recognised
   * page exist (recognition cuts crops when first read, ADR 0029): true when it did.
   */
  constructor(
    store: string | ObjectStorage,
    private readonly cropOnDemand?: (relative: string) => Promise<boolean>,
  ) {
    super(store, { key: pageKey });
  }

  relativePath(orgId: string, hash: string, ext: string): string {
    return path.posix.join('pages', orgId.replace(/[^\w-]/g, '_'), hash.slice(0, 2), `${hash}.${ext}`);
  }

  /**
   * The file of a page on the local disk. Only the local store has one: with object storage, read the bytes
   * (`read`/`stream`) instead.
   */
  absolute(relative: string): string {
    if (!relative.startsWith('pages/')) throw new Error('page path outside the page store');
    if (!(this.objects instanceof LocalObjectStorage))
      throw new Error('page images are in object storage: read them with read() or stream()');
    return this.objects.file(relative);
  }

  /** The page image's bytes; throws ENOENT when it is missing. */
  override async read(relative: string): Promise<Buffer> {
    const data = await super.read(relative);
    if (!data) throw Object.assign(new Error(`page image missing: ${relative}`), { code: 'ENOENT' });
    return data;
  }

  /** A crop of a written answer: cut from its page first when it has not been yet. */
  async readCrop(relative: string): Promise<Buffer> {
    const data = await super.read(relative);
    if (data) return data;
    if (this.cropOnDemand && (await this.cropOnDemand(relative))) return this.read(relative);
    throw Object.assign(new Error(`crop missing: ${relative}`), { code: 'ENOENT' });
  }
}

/** A page image's key is its relative path under `pages/`; any other path is refused. */
function pageKey(relative: string): string {
  if (!relative.startsWith('pages/') || relative.split('/').includes('..'))
    throw new Error('page path outside the page store');
  return relative;
}
