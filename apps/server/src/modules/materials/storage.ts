import { randomUUID } from 'node:crypto';
import { StorageArea } from '../../lib/storage/area.js';
import type { ObjectStorage } from '../../lib/storage/index.js';

// A file, or the preview converted from a Word file when it was uploaded (`<uuid>.docx.preview.json`).
const NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(pdf|docx|jpg|png|gif|webp|docx\.preview\.json)$/;

/**
 * Where materials live: key `materials/<school>/<uuid>.<ext>` of the host's object store (`DATA_DIR/materials/…` on
 * disk by default, an S3 bucket in production); the database keeps the key as the file's relative path.
 */
export class MaterialStorage extends StorageArea {
  /** A DATA_DIR (embedded default) or the host's object store. */
  constructor(store: string | ObjectStorage) {
    super(store, { key: materialKey });
  }

  /** A fresh relative path for a new file of the school. */
  newPath(orgId: string, ext: string): string {
    return `materials/${orgId.replace(/[^\w-]/g, '_')}/${randomUUID()}.${ext}`;
  }

  /** Where the HTML preview of a Word material is kept, beside the file. */
  previewPath(relative: string): string {
    return `${relative}.preview.json`;
  }
}

/** A material's key is its relative path, `materials/<school>/<uuid>.<ext>`; any other path is refused. */
function materialKey(relative: string): string {
  const parts = relative.split('/');
  if (
    parts.length !== 3 ||
    parts[0] !== 'materials' ||
    !/^[\w-]+$/.test(parts[1] ?? '') ||
    !NAME.test(parts[2] ?? '')
  ) {
    throw new Error(`not a material path: ${relative}`);
  }
  return relative;
}
