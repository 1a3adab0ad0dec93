import { zhCNScan as s } from '../../../i18n/zh-CN';

/** One page ready for the host: JPEG or PNG bytes and the name it is uploaded under. */
export interface SplitPage {
  name: string;
  /** 1-based page of the source file. */
  page: number;
  pages: number;
  blob: Blob;
}

/** A file the browser cannot turn into pages; the message is for the teacher. */
export class FileSplitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileSplitError';
  }
}

export type FileKind = 'jpeg' | 'png' | 'tiff' | 'pdf';

/** What a chosen file is, by its type or (when the browser does not say) its extension. */
export function fileKind(file: Pick<File, 'name' | 'type'>): FileKind | null {
  const type = file.type.toLowerCase();
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  if (type === 'image/jpeg' || ext === 'jpg' || ext === 'jpeg') return 'jpeg';
  if (type === 'image/png' || ext === 'png') return 'png';
  if (type === 'image/tiff' || ext === 'tif' || ext === 'tiff') return 'tiff';
  if (type === 'application/pdf' || ext === 'pdf') return 'pdf';
  return null;
}

/** What the file chooser offers. */
export const ACCEPTED_FILES =
  '.jpg,.jpeg,.png,.tif,.tiff,.pdf,image/jpeg,image/png,image/tiff,application/pdf';

const baseName = (name: string) => name.replace(/\.[^.]*$/, '') || 'page';

/**
 * Splits a chosen file into single pages (the host takes one page per upload): JPEG and PNG as they are, every page
 * of a TIFF (utif) or PDF (pdf.js) as a JPEG. The decoders load only when such a file is chosen.
 */
export async function splitFile(file: File): Promise<SplitPage[]> {
  const kind = fileKind(file);
  if (!kind) throw new FileSplitError(s.upload.unsupported(file.name));
  if (kind === 'jpeg' || kind === 'png') return [{ name: file.name, page: 1, pages: 1, blob: file }];
  let blobs: Blob[];
  try {
    const data = await file.arrayBuffer();
    blobs =
      kind === 'tiff'
        ? await (await import('./split-tiff')).tiffPages(data)
        : await (await import('./split-pdf')).pdfPages(data);
  } catch {
    throw new FileSplitError(s.upload.unreadable(file.name));
  }
  if (blobs.length === 0) throw new FileSplitError(s.upload.unreadable(file.name));
  const base = baseName(file.name);
  return blobs.map((blob, i) => ({
    name: blobs.length === 1 ? `${base}.jpg` : `${base}-${String(i + 1).padStart(3, '0')}.jpg`,
    page: i + 1,
    pages: blobs.length,
    blob,
  }));
}

/** A canvas as a JPEG (quality 0.9, as scanners deliver). */
export function canvasToJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('canvas.toBlob failed'))),
      'image/jpeg',
      0.9,
    );
  });
}

/** SHA-256 of a blob in hex (the host checks it and uses it as the idempotency key); null without WebCrypto. */
export async function sha256Hex(blob: Blob): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  try {
    const digest = await subtle.digest('SHA-256', await blob.arrayBuffer());
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  } catch {
    return null;
  }
}
