import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RasterisePdfOptions {
  /** 1-based page. */
  page: number;
  /** Resolution, dots per inch (300 by default: what the recogniser is tuned for). */
  dpi?: number;
  /** Path of pdftoppm (poppler-utils) when it is not on PATH. */
  pdftoppm?: string;
  /** Give up after this many milliseconds. */
  timeoutMs?: number;
}

/**
 * Rasterises one page of a PDF file to an 8-bit grey PNG (with its dpi recorded) for `recognisePage`, with
 * poppler's pdftoppm. Throws when the tool is missing or the page does not exist: the host reports that page as
 * unreadable and goes on with the batch.
 */
export async function rasterisePdfPage(pdfPath: string, options: RasterisePdfOptions): Promise<Buffer> {
  const dpi = options.dpi ?? 300;
  const page = String(options.page);
  const { stdout } = await run(
    options.pdftoppm ?? 'pdftoppm',
    ['-r', String(dpi), '-gray', '-png', '-f', page, '-l', page, '-singlefile', pdfPath],
    { encoding: 'buffer', maxBuffer: 1 << 30, timeout: options.timeoutMs ?? 60_000 },
  );
  if (!stdout.length) throw new Error(`pdftoppm produced no image for page ${page}`);
  return stdout;
}

/** The page count of a PDF (poppler's pdfinfo). */
export async function pdfPageCount(pdfPath: string, pdfinfo = 'pdfinfo'): Promise<number> {
  const { stdout } = await run(pdfinfo, [pdfPath], { timeout: 30_000 });
  const match = /^Pages:\s+(\d+)/m.exec(stdout);
  if (!match) throw new Error('pdfinfo gave no page count');
  return Number(match[1]);
}
