import type { Rect } from '@zhzy/contracts';
import type { Affine } from './affine.js';
import type { GreyImage } from './image.js';

/** A region of the card resampled upright: `q` samples per millimetre from `origin` (mm). */
export interface Rectified extends GreyImage {
  q: number;
  originX: number;
  originY: number;
}

/** Fixed-point bits of the sample positions and of the bilinear weights. */
const FIX = 16;
const ONE = 1 << FIX;

/** A reusable scratch buffer of at least `n` bytes (grown by half again when too small). */
export class Scratch {
  private buf = new Uint8Array(0);
  take(n: number): Uint8Array {
    if (this.buf.length < n) this.buf = new Uint8Array(Math.ceil(n * 1.5));
    return this.buf.subarray(0, n);
  }
}

export interface RectifyOptions {
  /**
   * Nearest sample instead of bilinear: for an image no denser than the grid (a reduced decode, already averaged),
   * where interpolation only blurs.
   */
  nearest?: boolean;
  /** Where the samples go (the result shares it: valid until the scratch is taken again), else a new array. */
  into?: Scratch;
  /**
   * Fill only the samples a reader of the grid will look at: those on every `stride`-th row and column, and (when
   * given) every `every`-th sample in row-major order (what `percentileOf` reads with that step). The others are
   * left as they were (stale scratch contents): only for a caller that reads nothing else. Each sample filled is the
   * one the full grid would hold.
   */
  only?: { stride: number; every?: number };
}

type Only = NonNullable<RectifyOptions['only']>;

/** Whether `only` leaves anything out. */
function sparse(only: RectifyOptions['only']): only is Only {
  return only !== undefined && only.stride > 1 && (only.every === undefined || only.every > 1);
}

/**
 * How the grid's rows lie in the image: row `v`'s first sample (16.16 fixed point), the step along a row, and whether
 * the whole row falls inside `[0, limX) × [0, limY)` so its samples need no bounds checks. Bilinear reading shifts
 * positions by half a pixel (weights on pixel centres) and keeps a pixel's right and lower neighbour inside; nearest
 * reading takes the pixel a position falls in.
 */
class Rows {
  readonly ux: number;
  readonly uy: number;
  /** Row `v`'s first sample, after `at(v)`. */
  x = 0;
  y = 0;
  inside = false;
  private readonly x0: number;
  private readonly y0: number;
  private readonly step: number;
  /** The map's coefficients, read once (not destructured at every row). */
  private readonly a: number;
  private readonly b: number;
  private readonly c: number;
  private readonly d: number;
  private readonly e: number;
  private readonly f: number;

  constructor(
    m: Affine,
    r: Rect,
    q: number,
    private readonly width: number,
    private readonly shift: number,
    readonly limX: number,
    readonly limY: number,
  ) {
    this.step = 1 / q;
    this.x0 = r.x + this.step / 2;
    this.y0 = r.y + this.step / 2;
    this.ux = Math.round(m[0] * this.step * ONE);
    this.uy = Math.round(m[3] * this.step * ONE);
    [this.a, this.b, this.c, this.d, this.e, this.f] = m;
  }

  at(v: number): void {
    const { a, b, c, d, e, f } = this;
    const yv = this.y0 + v * this.step;
    const xs = a * this.x0 + b * yv + c + this.shift;
    const ys = d * this.x0 + e * yv + f + this.shift;
    this.x = Math.round(xs * ONE);
    this.y = Math.round(ys * ONE);
    const xe = (this.x + this.ux * (this.width - 1)) / ONE;
    const ye = (this.y + this.uy * (this.width - 1)) / ONE;
    const { limX, limY } = this;
    this.inside =
      xs >= 0 && ys >= 0 && xe >= 0 && ye >= 0 && xs < limX && xe < limX && ys < limY && ye < limY;
  }

  /** Whether the sample at (x, y) (fixed point) reads outside the image (white). */
  outside(x: number, y: number): boolean {
    return x < 0 || y < 0 || x >> FIX >= this.limX || y >> FIX >= this.limY;
  }
}

/** Bilinear reading's rows of a grid over `img`. */
const bilinearRows = (img: GreyImage, m: Affine, r: Rect, q: number, width: number) =>
  new Rows(m, r, q, width, -0.5, img.width - 1, img.height - 1);

/** Nearest reading's rows: pixel (i, j) covers [i, i + 1), so a position is floored. */
const nearestRows = (img: GreyImage, m: Affine, r: Rect, q: number, width: number) =>
  new Rows(m, r, q, width, 0, img.width, img.height);

/** The bilinear value at (x, y) (16.16 fixed point; 8-bit weights), inside the image. */
function bilinear(src: Uint8Array, W: number, x: number, y: number): number {
  const fx = (x >> 8) & 255;
  const fy = (y >> 8) & 255;
  const p = (y >> FIX) * W + (x >> FIX);
  const p00 = src[p]!;
  const p10 = src[p + W]!;
  const top = (p00 << 8) + (src[p + 1]! - p00) * fx;
  const bottom = (p10 << 8) + (src[p + W + 1]! - p10) * fx;
  return ((top << 8) + (bottom - top) * fy + 32768) >> 16;
}

/**
 * Resamples the rect `r` (millimetres on the card) of the image through `m` (mm → pixels) into an upright grid of
 * `q` samples per millimetre, bilinearly. Outside the image reads as white. Positions step in 16.16 fixed point and
 * weights have 8 bits (at most one grey level from the exact value); rows wholly inside the image skip the bounds
 * checks.
 */
export function rectify(img: GreyImage, m: Affine, r: Rect, q: number, opt: RectifyOptions = {}): Rectified {
  const width = Math.max(1, Math.round(r.w * q));
  const height = Math.max(1, Math.round(r.h * q));
  const out = opt.into ? opt.into.take(width * height) : new Uint8Array(width * height);
  const rows = opt.nearest ? nearestRows(img, m, r, q, width) : bilinearRows(img, m, r, q, width);
  if (sparse(opt.only)) sparseGrid(img, rows, !!opt.nearest, width, height, out, opt.only);
  else denseGrid(img, rows, !!opt.nearest, width, height, out);
  return { width, height, data: out, q, originX: r.x, originY: r.y };
}

/** `rectify`'s whole grid, bilinearly or from the nearest pixel of each sample. */
function denseGrid(
  img: GreyImage,
  rows: Rows,
  nearest: boolean,
  width: number,
  height: number,
  out: Uint8Array,
): void {
  const { ux, uy } = rows;
  const W = img.width;
  const src = img.data;
  let o = 0;
  for (let v = 0; v < height; v++) {
    rows.at(v);
    const inside = rows.inside;
    let x = rows.x;
    let y = rows.y;
    if (nearest && inside) {
      for (let u = 0; u < width; u++, x += ux, y += uy) out[o++] = src[(y >> FIX) * W + (x >> FIX)]!;
    } else if (nearest) {
      for (let u = 0; u < width; u++, x += ux, y += uy)
        out[o++] = rows.outside(x, y) ? 255 : src[(y >> FIX) * W + (x >> FIX)]!;
    } else {
      for (let u = 0; u < width; u++, x += ux, y += uy)
        out[o++] = !inside && rows.outside(x, y) ? 255 : bilinear(src, W, x, y);
    }
  }
}

/** `rectify`'s grid, only the samples `only` names (the same values, computed the same way). */
function sparseGrid(
  img: GreyImage,
  rows: Rows,
  nearest: boolean,
  width: number,
  height: number,
  out: Uint8Array,
  only: Only,
): void {
  const { ux, uy } = rows;
  const W = img.width;
  const src = img.data;
  const { stride, every } = only;
  for (let v = 0; v < height; v++) {
    const full = v % stride === 0;
    // Without an `every` grid a row off the stride holds nothing to fill.
    if (!full && !every) continue;
    rows.at(v);
    const row = v * width;
    // First sample of the row on the `every` grid (none without one), then the row's needed samples in order.
    let next = every ? (every - (row % every)) % every : Infinity;
    for (let u = full ? 0 : next; u < width;) {
      const x = rows.x + u * ux;
      const y = rows.y + u * uy;
      out[row + u] =
        !rows.inside && rows.outside(x, y)
          ? 255
          : nearest
            ? src[(y >> FIX) * W + (x >> FIX)]!
            : bilinear(src, W, x, y);
      if (u === next) next += every!;
      u = full ? Math.min(u + stride - (u % stride), next) : next;
    }
  }
}

/** The grey value `p` of the way up the region's histogram (0–1), from every `step`-th sample. */
export function percentileOf(data: Uint8Array, p: number, step = 3): number {
  const hist = new Uint32Array(256);
  let n = 0;
  for (let i = 0; i < data.length; i += step, n++) hist[data[i]!]!++;
  return histogramAt(hist, n, p);
}

/** The grey value `p` of the way up the histogram of a grid's samples on every `stride`-th row and column. */
export function gridPercentileOf(reg: GreyImage, p: number, stride: number): number {
  const hist = new Uint32Array(256);
  const { data, width, height } = reg;
  let n = 0;
  for (let y = 0; y < height; y += stride)
    for (let i = y * width, end = i + width; i < end; i += stride, n++) hist[data[i]!]!++;
  return histogramAt(hist, n, p);
}

/** The value `p` of the way up a histogram of `n` samples. */
function histogramAt(hist: Uint32Array, n: number, p: number): number {
  const target = n * p;
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= target) return v;
  }
  return 255;
}
