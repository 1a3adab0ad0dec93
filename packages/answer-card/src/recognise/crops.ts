import sharp from 'sharp';
import type { CardPage, Crop, PageRecognition, Rect } from '@zhzy/contracts';
import { scaleOf, type Affine } from './affine.js';
import { decodePage, type GreyImage } from './image.js';
import { gridPercentileOf, percentileOf, rectify, Scratch, type Rectified } from './sample.js';

export interface CropOptions {
  /**
   * Image format of the crops, or 'none' to detect blanks without encoding images (cut them later from the page
   * with `cropImages`, in `lazyFormat`).
   */
  format: 'jpeg' | 'png' | 'none';
  quality: number;
  /** Crops are cut from the full-resolution page at its own resolution, up to this many pixels per millimetre
   * (8 ≈ 200 dpi, plenty to mark handwriting on screen; 12 keeps a 300 dpi scan whole). */
  maxPxPerMm: number;
}

export const DEFAULT_CROP_OPTIONS: CropOptions = { format: 'jpeg', quality: 80, maxPxPerMm: 8 };

/** The host's crops: none at recognition (the page may be read reduced), cut from the page when first shown. */
export const LAZY_CROP_OPTIONS: Partial<CropOptions> = { format: 'none' };

/** The format `cropImages` gives crops recognised without images. */
export const LAZY_CROP_FORMAT = 'jpeg' as const;

/** Samples per millimetre of a crop's image: the page's own resolution, capped. */
function cropResolution(fullPxPerMm: number, opt: CropOptions): number {
  return Math.min(fullPxPerMm, opt.maxPxPerMm);
}

/** Written-answer box: the frame's stroke and the label band at its top are printed, not written. */
const FRAME_INSET_MM = 1.5;
const LABEL_BAND_MM = 7;
/** Blank line: the printed line sits along the bottom of each writing area. */
const LINE_BAND_MM = 1.2;
/** Windows of this side are "inked" when this share of their samples is ink. */
const WINDOW_MM = 3;
const WINDOW_INK_SHARE = 0.03;
/** Darkness (0 paper, 1 ink) from which a sample counts as ink. */
const INK_LEVEL = 0.35;
/**
 * Every `PAPER_STEP`-th sample gives an area's paper level (`percentileOf`'s step) where every sample is read; on a
 * strided grid the grid's own samples give it.
 */
const PAPER_STEP = 3;

/** Every other sample each way: strokes (≥ 0.25 mm) stay at least a sample wide from 6 samples per millimetre. */
function coverageStride(q: number): number {
  return q >= 6 ? 2 : 1;
}

interface CropTarget {
  elementId: string;
  kind: 'written' | 'blank';
  questionIds: string[];
  rect: Rect;
  /** Where writing is looked for, millimetres on the card. */
  areas: Rect[];
}

/** The written-answer boxes and blank lines of a page, with their writing areas. */
export function cropTargets(page: CardPage): CropTarget[] {
  const out: CropTarget[] = [];
  for (const e of page.elements) {
    if (e.type === 'writtenBox') {
      const r = e.rect;
      out.push({
        elementId: e.id,
        kind: 'written',
        questionIds: e.questionIds,
        rect: r,
        areas: [
          {
            x: r.x + FRAME_INSET_MM,
            y: r.y + LABEL_BAND_MM,
            w: r.w - 2 * FRAME_INSET_MM,
            h: r.h - LABEL_BAND_MM - FRAME_INSET_MM,
          },
        ],
      });
    }
    if (e.type === 'blank') {
      out.push({
        elementId: e.id,
        kind: 'blank',
        questionIds: [e.questionId],
        rect: e.rect,
        areas: e.lines.map((l) => ({ x: l.x + 0.5, y: l.y, w: l.w - 1, h: l.h - LINE_BAND_MM })),
      });
    }
  }
  return out;
}

/**
 * Share of small windows holding ink in an upright region, against its own paper and the page's ink. Two grids of
 * windows, the second shifted by half a window, so a short answer straddling window edges is still seen. One pass
 * over the samples counts both grids (paper, the most of any area, costs one comparison a sample).
 */
function inkCoverage(reg: Rectified, ink: number): number {
  const stride = coverageStride(reg.q);
  const level = stride > 1 ? gridPercentileOf(reg, 0.9, stride) : percentileOf(reg.data, 0.9, PAPER_STEP);
  const paper = Math.max(level, ink + 40);
  const cut = paper - INK_LEVEL * (paper - ink);
  const win = Math.max(2, Math.round(WINDOW_MM * reg.q));
  const { data, width, height } = reg;
  const grids = [0, Math.floor(win / 2)].map((shift) => {
    const cols = Math.max(1, Math.floor((width - shift) / win));
    const rows = Math.max(1, Math.floor((height - shift) / win));
    return { shift, cols, rows, counts: new Uint32Array(cols * rows) };
  });
  const [g0, g1] = grids as [(typeof grids)[0], (typeof grids)[0]];
  // Each sampled column's window in either grid (-1 outside it), worked out once instead of at every ink sample.
  const colOf = (g: typeof g0) => {
    const out = new Int32Array(width);
    for (let x = 0; x < width; x++) {
      const wx = Math.floor((x - g.shift) / win);
      out[x] = wx >= 0 && wx < g.cols ? wx : -1;
    }
    return out;
  };
  const col0 = colOf(g0);
  const col1 = colOf(g1);
  const c0 = g0.counts;
  const c1 = g1.counts;
  for (let y = 0; y < height; y += stride) {
    const row = y * width;
    const wy0 = Math.floor((y - g0.shift) / win);
    const wy1 = Math.floor((y - g1.shift) / win);
    // Where a grid has no window on this row, its column index is taken as outside.
    const base0 = wy0 >= 0 && wy0 < g0.rows ? wy0 * g0.cols : -1;
    const base1 = wy1 >= 0 && wy1 < g1.rows ? wy1 * g1.cols : -1;
    for (let x = 0; x < width; x += stride) {
      if (data[row + x]! >= cut) continue;
      const a = col0[x]!;
      if (base0 >= 0 && a >= 0) c0[base0 + a]!++;
      const b = col1[x]!;
      if (base1 >= 0 && b >= 0) c1[base1 + b]!++;
    }
  }
  let best = 0;
  for (const g of grids) {
    let inked = 0;
    for (let wy = 0; wy < g.rows; wy++) {
      // Sampled rows of this band of windows, times sampled columns of a window.
      const y0 = g.shift + wy * win;
      const y1 = Math.min(height, y0 + win);
      const samples = Math.max(0, Math.ceil(y1 / stride) - Math.ceil(y0 / stride));
      const perWindow = samples * Math.ceil(win / stride);
      for (let wx = 0; wx < g.cols; wx++)
        if (g.counts[wy * g.cols + wx]! >= WINDOW_INK_SHARE * perWindow) inked++;
    }
    best = Math.max(best, inked / (g.cols * g.rows));
  }
  return best;
}

/**
 * Cuts every written box and blank line upright from the full-resolution page and tells whether anything is written
 * in it: dark coverage in small windows of the writing area, the printed frame, label and line left out.
 */
export async function cutCrops(
  img: GreyImage,
  m: Affine,
  pxPerMm: number,
  ink: number,
  page: CardPage,
  opt: CropOptions,
  /** The file's resolution, when `img` is a reduced decode (the crops' images are cut from the file later). */
  fullPxPerMm = pxPerMm,
): Promise<{ crops: Crop[]; images: Map<string, Buffer> }> {
  const crops: Crop[] = [];
  const images = new Map<string, Buffer>();
  const q = Math.min(pxPerMm, opt.maxPxPerMm);
  const imageQ = cropResolution(fullPxPerMm, opt);
  for (const t of cropTargets(page)) {
    // Without an image only the writing areas are sampled (not the frame, the label band or the lines).
    const reg = opt.format === 'none' ? undefined : rectify(img, m, t.rect, q);
    let inkedWindows = 0;
    let windows = 0;
    for (const a of t.areas) {
      const sub = reg ? subRegion(reg, a) : areaRegion(img, m, a, q);
      if (!sub) continue;
      const n = Math.max(1, Math.floor(a.w / WINDOW_MM) * Math.floor(a.h / WINDOW_MM));
      inkedWindows += inkCoverage(sub, ink) * n;
      windows += n;
    }
    const coverage = windows ? inkedWindows / windows : 0;
    const id = `crop:${t.elementId}`;
    const format = opt.format === 'none' ? LAZY_CROP_FORMAT : opt.format;
    if (reg && opt.format !== 'none') images.set(id, await encodeCrop(reg, format, opt));
    crops.push({
      id,
      elementId: t.elementId,
      kind: t.kind,
      questionIds: t.questionIds,
      rect: t.rect,
      // The size of the image `cropImages` cuts later (the same as `reg` unless the page was read reduced).
      width: reg ? reg.width : Math.max(1, Math.round(t.rect.w * imageQ)),
      height: reg ? reg.height : Math.max(1, Math.round(t.rect.h * imageQ)),
      format,
      blank: inkedWindows < 0.5,
      coverage: Math.round(coverage * 10000) / 10000,
    });
  }
  return { crops, images };
}

function encodeCrop(reg: GreyImage, format: 'jpeg' | 'png', opt: CropOptions): Promise<Buffer> {
  const s = sharp(Buffer.from(reg.data.buffer, reg.data.byteOffset, reg.data.length), {
    raw: { width: reg.width, height: reg.height, channels: 1 },
  });
  return (
    format === 'png'
      ? s.png({ compressionLevel: 4 })
      : s.jpeg({ quality: opt.quality, optimiseCoding: false })
  ).toBuffer();
}

/**
 * The images of a recognised page's crops, cut upright from the full decode of the page's file through the
 * recognised transform (for a page recognised with `format: 'none'`): the same rectangles, resolution and size the
 * result's crops give. Empty when the page has no transform or no crops.
 */
export async function cropImages(
  input: Buffer | Uint8Array,
  result: Pick<PageRecognition, 'transform' | 'crops'>,
  options: { page?: number; crops?: Partial<CropOptions> } = {},
): Promise<Map<string, Buffer>> {
  const images = new Map<string, Buffer>();
  const t = result.transform;
  if (!t || !result.crops.length) return images;
  const opt: CropOptions = { ...DEFAULT_CROP_OPTIONS, ...options.crops };
  const { image } = await decodePage(input, options.page ?? 0);
  const m = t.matrix as unknown as Affine;
  const q = cropResolution(scaleOf(m), opt);
  for (const c of result.crops) {
    const reg = rectify(image, m, c.rect, q);
    images.set(c.id, await encodeCrop(reg, c.format, opt));
  }
  return images;
}

/** The samples of the writing area being measured: one buffer for every area of every page. */
const areaScratch = new Scratch();

/**
 * A writing area sampled upright on its own, as `subRegion` would give it (none when under two samples a side), in
 * the shared scratch buffer, for `inkCoverage` alone (the samples it never reads are not filled). Where the grid is as dense as the image (a reduced decode; a scan of ≤ 200 dpi) each
 * sample is the nearest pixel: bilinear weights would only blur it (a reduced decode is already averaged).
 */
function areaRegion(img: GreyImage, m: Affine, r: Rect, q: number): Rectified | undefined {
  if (Math.round(r.w * q) < 2 || Math.round(r.h * q) < 2) return undefined;
  return rectify(img, m, r, q, {
    into: areaScratch,
    nearest: q >= scaleOf(m) * 0.95,
    // Only what `inkCoverage` reads: its strided grid, which gives its paper level too (a quarter of the samples
    // at ≥ 6 samples per millimetre).
    only: { stride: coverageStride(q) },
  });
}

/** The part of an upright region covering `r` (millimetres), copied out of its samples. */
function subRegion(reg: Rectified, r: Rect): Rectified | undefined {
  const x0 = Math.max(0, Math.round((r.x - reg.originX) * reg.q));
  const y0 = Math.max(0, Math.round((r.y - reg.originY) * reg.q));
  const x1 = Math.min(reg.width, Math.round((r.x + r.w - reg.originX) * reg.q));
  const y1 = Math.min(reg.height, Math.round((r.y + r.h - reg.originY) * reg.q));
  if (x1 - x0 < 2 || y1 - y0 < 2) return undefined;
  const w = x1 - x0;
  const h = y1 - y0;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    data.set(reg.data.subarray((y0 + y) * reg.width + x0, (y0 + y) * reg.width + x1), y * w);
  return {
    width: w,
    height: h,
    data,
    q: reg.q,
    originX: reg.originX + x0 / reg.q,
    originY: reg.originY + y0 / reg.q,
  };
}
