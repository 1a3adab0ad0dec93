import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import {
  MATERIAL_MAX_BYTES,
  MATERIAL_MESSAGES,
  MATERIAL_PDF_MAX_PAGES,
  MESSAGES,
  type MaterialKind,
} from '@zhzy/contracts';
import { AppError } from '../../lib/errors.js';
import { ZipGuardError, assertZipWithinLimits } from '../../lib/zip-guard.js';
import { wordToHtml, type WordPreview } from './word.js';

// Content validation of uploaded materials: the type comes from the bytes (magic numbers), and the file must then
// parse as that type — never trusted from the name or the declared content type. Each refusal is a Chinese message
// the teacher can act on.

export interface InspectedFile {
  kind: MaterialKind;
  ext: 'pdf' | 'docx' | 'jpg' | 'png' | 'gif' | 'webp';
  mime: string;
  pageCount: number | null;
  width: number | null;
  height: number | null;
  /** A Word document's preview, converted once here (it proves the document reads). */
  preview?: WordPreview;
}

/** Most pixels in an image (a decompression bomb is refused before it is decoded). */
export const MATERIAL_IMAGE_MAX_PIXELS = 100_000_000;

const startsWith = (data: Uint8Array, bytes: number[], at = 0) =>
  data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);
const ascii = (data: Uint8Array, from: number, to: number) =>
  Buffer.from(data.subarray(from, to)).toString('latin1');

type Sniffed = InspectedFile['ext'] | 'doc' | null;

/** The type the bytes say, by magic number. */
export function sniff(data: Uint8Array): Sniffed {
  // A PDF may carry a little junk before its header (Acrobat accepts 1024 bytes).
  if (ascii(data, 0, 1024).includes('%PDF-')) return 'pdf';
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return 'docx';
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return 'webp';
  return null;
}

const tooLarge = (kind: MaterialKind) =>
  new AppError('PAYLOAD_TOO_LARGE', MATERIAL_MESSAGES.tooLarge(MATERIAL_MAX_BYTES[kind] / 1024 / 1024));

async function inspectPdf(data: Uint8Array): Promise<InspectedFile> {
  if (data.length > MATERIAL_MAX_BYTES.pdf) throw tooLarge('pdf');
  // A file cut short in transfer loses its trailer: the last %%EOF sits at the very end of a whole PDF.
  if (!ascii(data, Math.max(0, data.length - 1024), data.length).includes('%%EOF')) {
    throw new AppError('VALIDATION', MATERIAL_MESSAGES.badPdf, {
      detail: 'pdf: no %%EOF in the last 1024 bytes',
    });
  }
  let pageCount: number;
  try {
    const doc = await PDFDocument.load(data, { updateMetadata: false, throwOnInvalidObject: true });
    if (doc.isEncrypted) throw new AppError('VALIDATION', MATERIAL_MESSAGES.encryptedPdf);
    // A file without a page tree (or with a broken one) fails here.
    pageCount = doc.getPageCount();
    if (pageCount > 0) doc.getPage(pageCount - 1).getSize();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = String((error as Error).message ?? error);
    if (/encrypt/i.test(message)) throw new AppError('VALIDATION', MATERIAL_MESSAGES.encryptedPdf);
    throw new AppError('VALIDATION', MATERIAL_MESSAGES.badPdf, { detail: `pdf: ${message}` });
  }
  if (pageCount === 0) throw new AppError('VALIDATION', MATERIAL_MESSAGES.emptyPdf);
  if (pageCount > MATERIAL_PDF_MAX_PAGES) throw new AppError('VALIDATION', MATERIAL_MESSAGES.pdfTooManyPages);
  return { kind: 'pdf', ext: 'pdf', mime: 'application/pdf', pageCount, width: null, height: null };
}

async function inspectDocx(data: Uint8Array): Promise<InspectedFile> {
  if (data.length > MATERIAL_MAX_BYTES.word) throw tooLarge('word');
  const bad = (detail: string) => new AppError('VALIDATION', MATERIAL_MESSAGES.badWord, { detail });
  try {
    // A decompression bomb is refused before jszip (which inflates every entry to check CRCs) sees it.
    assertZipWithinLimits(data);
  } catch (error) {
    if (!(error instanceof ZipGuardError)) throw error;
    if (error.problem === 'tooLarge')
      throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.archiveTooLarge, { detail: error.message });
    throw bad(`docx zip: ${error.message}`);
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data, { checkCRC32: true });
  } catch (error) {
    throw bad(`docx zip: ${String(error)}`);
  }
  // Any zip (a renamed .xlsx or archive) is not a Word document: it must carry the main document part.
  if (!zip.file('[Content_Types].xml') || !zip.file('word/document.xml')) {
    throw new AppError('UNSUPPORTED_MEDIA', MATERIAL_MESSAGES.unsupported, {
      detail: 'zip without word/document.xml',
    });
  }
  let preview: WordPreview;
  try {
    preview = await wordToHtml(Buffer.from(data));
  } catch (error) {
    throw bad(`docx parse: ${String(error)}`);
  }
  return {
    preview,
    kind: 'word',
    ext: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    pageCount: null,
    width: null,
    height: null,
  };
}

const IMAGE_MIME = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' } as const;

async function inspectImage(data: Uint8Array, ext: keyof typeof IMAGE_MIME): Promise<InspectedFile> {
  if (data.length > MATERIAL_MAX_BYTES.image) throw tooLarge('image');
  const bad = (detail: string) => new AppError('VALIDATION', MATERIAL_MESSAGES.badImage, { detail });
  let width: number | undefined;
  let height: number | undefined;
  try {
    const meta = await sharp(data, { limitInputPixels: false }).metadata();
    width = meta.width;
    height = meta.height;
  } catch (error) {
    throw bad(`image header: ${String(error)}`);
  }
  if (!width || !height) throw bad('image without a size');
  if (width * height > MATERIAL_IMAGE_MAX_PIXELS) {
    throw new AppError('VALIDATION', MATERIAL_MESSAGES.imageTooManyPixels);
  }
  try {
    // Decoding the whole image finds a file cut short (a truncated JPEG or PNG decodes with an error). Decoded
    // into a thumbnail: libvips streams the rows, so a large image never sits whole in memory.
    await sharp(data, { failOn: 'truncated', limitInputPixels: MATERIAL_IMAGE_MAX_PIXELS, animated: false })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch (error) {
    throw bad(`image decode: ${String(error)}`);
  }
  return { kind: 'image', ext, mime: IMAGE_MIME[ext], pageCount: null, width, height };
}

/** The file's real type and facts, or an AppError with the reason in Chinese. */
export async function inspectMaterial(data: Uint8Array): Promise<InspectedFile> {
  if (data.length === 0) throw new AppError('VALIDATION', MATERIAL_MESSAGES.noFile);
  const type = sniff(data);
  switch (type) {
    case 'pdf':
      return inspectPdf(data);
    case 'docx':
      return inspectDocx(data);
    case 'doc':
      throw new AppError('VALIDATION', MATERIAL_MESSAGES.legacyWord);
    case 'jpg':
    case 'png':
    case 'gif':
    case 'webp':
      return inspectImage(data, type);
    default:
      throw new AppError('UNSUPPORTED_MEDIA', MATERIAL_MESSAGES.unsupported);
  }
}
