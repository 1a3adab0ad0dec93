import { createHash } from 'node:crypto';
import type { Sharp } from 'sharp';
import { loadSharp } from './sharp-lazy.js';
import { PAPER_PIXEL_SIZES, PAPER_SIZE_CODES } from '@zhzy/contracts';

/** Pages larger than this are refused (a decompression bomb, not a sheet of paper). */
export const MAX_INPUT_PIXELS = 150_000_000;
/** Width of the preview the skew and blank checks look at. */
const PROBE_WIDTH = 600;
const WHITE = { r: 255, g: 255, b: 255 };

export interface NormaliseOptions {
  /** SPEC §3 paper-size code. */
  paperSize: number;
  /** Adaptive: keep the scanned size; otherwise A4 / 16k / B5 are resized to SPEC §5's pixels. */
  adaptive: boolean;
  autoDeskew: boolean;
  /** Resolution the device reported, used when the file says nothing. */
  dpi?: number;
  quality?: number;
}

export interface NormalisedPage {
  jpeg: Buffer;
  width: number;
  height: number;
  channels: 1 | 3;
  dpi: number;
  blank: boolean;
  skewDeg: number;
  sha256: string;
}

const SIZE_BY_CODE = new Map<number, { width: number; height: number }>([
  [PAPER_SIZE_CODES.A4, PAPER_PIXEL_SIZES.A4],
  [PAPER_SIZE_CODES['16k'], PAPER_PIXEL_SIZES['16k']],
  [PAPER_SIZE_CODES.B5, PAPER_PIXEL_SIZES.B5],
]);

/** The SPEC §5 pixel size of a paper code when adaptive is off (A3 and B4 are not resized: null). */
export function targetSize(paperSize: number, adaptive: boolean): { width: number; height: number } | null {
  return adaptive ? null : (SIZE_BY_CODE.get(paperSize) ?? null);
}

/**
 * Skew of a page in degrees from a projection profile: the rotation that makes dark pixels fall into the fewest,
 * fullest rows. `sharp.rotate(-angle)` straightens the page. Works on a small grey preview.
 */
export function estimateSkew(grey: Uint8Array, width: number, height: number, maxDeg = 5): number {
  let sum = 0;
  for (const v of grey) sum += v;
  const mean = sum / grey.length;
  const threshold = Math.min(128, mean - 40);
  // Skip a border where scanner edges and shadows live.
  const mx = Math.round(width * 0.03);
  const my = Math.round(height * 0.03);
  let n = 0;
  for (let y = my; y < height - my; y++)
    for (let x = mx; x < width - mx; x++) if (grey[y * width + x]! < threshold) n++;
  if (n < 200 || n > grey.length * 0.35) return 0;
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  let k = 0;
  for (let y = my; y < height - my; y++) {
    for (let x = mx; x < width - mx; x++) {
      if (grey[y * width + x]! < threshold) {
        xs[k] = x - width / 2;
        ys[k++] = y - height / 2;
      }
    }
  }
  const rows = new Float64Array(height * 2 + 8);
  const score = (deg: number): number => {
    const a = (deg * Math.PI) / 180;
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    rows.fill(0);
    const offset = height + 4;
    for (let i = 0; i < n; i++) rows[Math.round(ys[i]! * cos - xs[i]! * sin) + offset]! += 1;
    let s = 0;
    for (const r of rows) s += r * r;
    return s;
  };
  let best = 0;
  let bestScore = score(0);
  for (let d = -maxDeg; d <= maxDeg + 1e-9; d += 0.25) {
    const s = score(d);
    if (s > bestScore) [best, bestScore] = [d, s];
  }
  const coarse = best;
  for (let d = coarse - 0.25; d <= coarse + 0.25 + 1e-9; d += 0.025) {
    const s = score(d);
    if (s > bestScore) [best, bestScore] = [d, s];
  }
  return Math.round(best * 100) / 100;
}

/** A page with (almost) nothing on it, judged inside its margins. Flagged, never dropped. */
export function looksBlank(grey: Uint8Array, width: number, height: number): boolean {
  const mx = Math.round(width * 0.06);
  const my = Math.round(height * 0.06);
  const histogram = new Uint32Array(256);
  let total = 0;
  for (let y = my; y < height - my; y++) {
    for (let x = mx; x < width - mx; x++) {
      histogram[grey[y * width + x]!]!++;
      total++;
    }
  }
  if (total === 0) return true;
  // Paper level: the 90th percentile; ink is anything clearly darker than the paper.
  let seen = 0;
  let paper = 255;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= total * 0.9) {
      paper = v;
      break;
    }
  }
  let ink = 0;
  for (let v = 0; v < Math.max(0, paper - 60); v++) ink += histogram[v]!;
  return ink / total < 0.0015;
}

/**
 * SPEC §5 for one scanned page: 1-bit pages become true one-channel grey, the page is straightened (auto deskew),
 * A4 / 16k / B5 are resized to their pixel size unless adaptive, blank pages are flagged, and the result is a JPEG.
 */
export async function normalisePage(
  input: Buffer | string,
  options: NormaliseOptions,
): Promise<NormalisedPage> {
  const sharp = await loadSharp();
  const open = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  const meta = await open().metadata();
  if (!meta.width || !meta.height) throw new Error('page has no size');
  // 1-bit PNG/TIFF (and 2-colour palette PNGs, which report 1 bit per sample).
  const oneBit = meta.bitsPerSample === 1;
  const grey = oneBit || (meta.channels ?? 3) <= 2 || meta.space === 'b-w';
  const dpi = Math.round(meta.density && meta.density > 10 ? meta.density : (options.dpi ?? 300));

  // The page is decoded once; the probe and the output both start from these pixels. A 1-bit or grey page stays
  // one channel all the way (extractChannel is the fast way to decode a 1-bit PNG).
  const decoded = await (grey ? open().extractChannel(0) : open().removeAlpha())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = decoded.info;
  const pixels = () => sharp(decoded.data, { raw: { width, height, channels } });

  // The green channel stands in for grey in the preview (pencil and print are dark in every channel): far cheaper
  // than a colour conversion of the whole page.
  let preview = pixels();
  if (channels > 1) preview = preview.extractChannel(1);
  const probe = await preview
    .resize({ width: Math.min(PROBE_WIDTH, width) })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const blank = looksBlank(probe.data, probe.info.width, probe.info.height);
  const skewDeg =
    options.autoDeskew && !blank ? estimateSkew(probe.data, probe.info.width, probe.info.height) : 0;

  // The output frame: SPEC §5's pixels for the paper (turned with the page), or the scanned size. A frame within 1 %
  // of the scan (an A4 scan of 2480×3508 to 2480×3507) is cropped or padded to, not resampled.
  const target = targetSize(options.paperSize, options.adaptive);
  const landscape = width > height;
  const frame = target
    ? { width: landscape ? target.height : target.width, height: landscape ? target.width : target.height }
    : { width, height };
  const near =
    Math.abs(frame.width - width) <= width * 0.01 && Math.abs(frame.height - height) <= height * 0.01;
  const crop = near ? frame : { width, height };

  // Straighten, crop, resize or pad, and encode in one pipeline (sharp rotates first, then crops, resizes, pads).
  // The rotated canvas is the bounding box of the turned page, to within a pixel.
  let canvas = { width, height };
  let source: Sharp = pixels();
  const turn = Math.abs(skewDeg) >= 0.1;
  if (turn) {
    const rad = (Math.abs(skewDeg) * Math.PI) / 180;
    canvas = {
      width: Math.floor(width * Math.cos(rad) + height * Math.sin(rad)),
      height: Math.floor(width * Math.sin(rad) + height * Math.cos(rad)),
    };
    source = source.rotate(-skewDeg, { background: WHITE });
  }
  const cropWidth = Math.min(crop.width, canvas.width);
  const cropHeight = Math.min(crop.height, canvas.height);
  // A turned canvas is always cropped: its real size may be a pixel more than estimated.
  if (turn || cropWidth !== canvas.width || cropHeight !== canvas.height) {
    source = source.extract({
      left: Math.floor((canvas.width - cropWidth) / 2),
      top: Math.floor((canvas.height - cropHeight) / 2),
      width: cropWidth,
      height: cropHeight,
    });
  }
  if (!near) source = source.resize(frame.width, frame.height, { fit: 'fill' });
  else if (cropWidth < frame.width || cropHeight < frame.height) {
    const padX = frame.width - cropWidth;
    const padY = frame.height - cropHeight;
    source = source.extend({
      left: Math.floor(padX / 2),
      right: Math.ceil(padX / 2),
      top: Math.floor(padY / 2),
      bottom: Math.ceil(padY / 2),
      background: WHITE,
    });
  }
  if (grey) source = source.toColourspace('b-w');
  const out = await source
    .withDensity(dpi)
    .jpeg({ quality: options.quality ?? 85 })
    .toBuffer({ resolveWithObject: true });
  return {
    jpeg: out.data,
    width: out.info.width,
    height: out.info.height,
    channels: out.info.channels === 1 ? 1 : 3,
    dpi,
    blank,
    skewDeg,
    sha256: createHash('sha256').update(out.data).digest('hex'),
  };
}
