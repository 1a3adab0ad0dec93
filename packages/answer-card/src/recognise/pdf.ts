import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RasterisePdfOptions {
  /** 1-based page. */
  page: number;
  /** Resolution, dots per inch (300 by default: what the recogniser is tuned for). */
  dpi?: number;
  /** Image format: 8-bit grey PNG (lossless, the default) or grey JPEG (quality 92: smaller, faster to read). */
  format?: 'png' | 'jpeg';
  /** Path of pdftoppm (poppler-utils) when it is not on PATH. */
  pdftoppm?: string;
  /** Give up after this many milliseconds. */
  timeoutMs?: number;
}

/** Most bytes one rasterised page may take on pdftoppm's stdout (an A3 page at 600 dpi as grey PNG fits). */
const MAX_PAGE_BYTES = 256 * 1024 * 1024;

/**
 * Rasterises one page of a PDF file to an 8-bit grey image (with its dpi recorded) for `recognisePage`, with
 * poppler's pdftoppm in its own process (its memory ends with it). Throws when the tool is missing or the page does
 * not exist: the host refuses or reports that page and goes on with the batch.
 */
export async function rasterisePdfPage(pdfPath: string, options: RasterisePdfOptions): Promise<Buffer> {
  const dpi = options.dpi ?? 300;
  const page = String(options.page);
  const format = options.format === 'jpeg' ? ['-jpeg', '-jpegopt', 'quality=92'] : ['-png'];
  const { stdout } = await run(
    options.pdftoppm ?? 'pdftoppm',
    ['-r', String(dpi), '-gray', ...format, '-f', page, '-l', page, '-singlefile', pdfPath],
    { encoding: 'buffer', maxBuffer: MAX_PAGE_BYTES, timeout: options.timeoutMs ?? 60_000 },
  );
  if (!stdout.length) throw new Error(`pdftoppm produced no image for page ${page}`);
  return stdout;
}

/** A PDF page's size in millimetres (as displayed: its rotation applied). */
export interface PdfPageSize {
  page: number;
  widthMm: number;
  heightMm: number;
}

const PT_TO_MM = 25.4 / 72;

/**
 * Every page's size of a PDF (poppler's pdfinfo), without rendering anything: what the host checks against its
 * limits before it rasterises. Throws when the file cannot be opened (damaged, encrypted, not a PDF).
 */
export async function pdfPageSizes(pdfPath: string, pdfinfo = 'pdfinfo'): Promise<PdfPageSize[]> {
  const count = await pdfPageCount(pdfPath, pdfinfo);
  if (count === 0) return [];
  const { stdout } = await run(pdfinfo, ['-f', '1', '-l', String(count), pdfPath], {
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const rotations = new Map<number, number>();
  for (const m of stdout.matchAll(/^Page\s+(\d+)\s+rot:\s+(\d+)/gm))
    rotations.set(Number(m[1]), Number(m[2]));
  const out: PdfPageSize[] = [];
  for (const m of stdout.matchAll(/^Page\s+(\d+)\s+size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/gm)) {
    const page = Number(m[1]);
    const w = Number(m[2]) * PT_TO_MM;
    const h = Number(m[3]) * PT_TO_MM;
    const turned = (rotations.get(page) ?? 0) % 180 === 90;
    out.push({ page, widthMm: turned ? h : w, heightMm: turned ? w : h });
  }
  if (out.length !== count) throw new Error('pdfinfo gave no size for some pages');
  return out;
}

/** The page count of a PDF (poppler's pdfinfo). */
export async function pdfPageCount(pdfPath: string, pdfinfo = 'pdfinfo'): Promise<number> {
  const { stdout } = await run(pdfinfo, [pdfPath], { timeout: 30_000 });
  const match = /^Pages:\s+(\d+)/m.exec(stdout);
  if (!match) throw new Error('pdfinfo gave no page count');
  return Number(match[1]);
}

/** Whether bytes are a PDF file (by its header, never by a name or a declared type). */
export function isPdf(bytes: Uint8Array): boolean {
  return (
    Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 5)).toString('latin1') === '%PDF-'
  );
}
