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
   * Fill only the samples a reader of the grid will look at: those on every `stride`-th row and column, and every
   * `every`-th sample in row-major order (what `percentileOf` reads with that step). The others are left as they
   * were (stale scratch contents): only for a caller that reads nothing else. Each sample filled is the one the full
   * grid would hold.
   */
  only?: { stride: number; every: number };
}

/** Whether `only` leaves anything out. */
function sparse(only: RectifyOptions['only']): only is { stride: number; every: number } {
  return only !== undefined && only.stride > 1 && only.every > 1;
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
  if (opt.nearest) {
    nearestRows(img, m, r, q, width, height, out, sparse(opt.only) ? opt.only : undefined);
    return { width, height, data: out, q, originX: r.x, originY: r.y };
  }
  if (sparse(opt.only)) {
    bilinearSparse(img, m, r, q, width, height, out, opt.only);
    return { width, height, data: out, q, originX: r.x, originY: r.y };
  }
  const [a, b, c, d, e, f] = m;
  const step = 1 / q;
  // Image position of the first sample, shifted by half a pixel for bilinear weights on pixel centres.
  const X0 = r.x + step / 2;
  const Y0 = r.y + step / 2;
  const ux = Math.round(a * step * ONE);
  const uy = Math.round(d * step * ONE);
  const W = img.width;
  const src = img.data;
  const maxX = W - 1;
  const maxY = img.height - 1;
  let o = 0;
  for (let v = 0; v < height; v++) {
    const xs = a * X0 + b * (Y0 + v * step) + c - 0.5;
    const ys = d * X0 + e * (Y0 + v * step) + f - 0.5;
    let x = Math.round(xs * ONE);
    let y = Math.round(ys * ONE);
    const xe = (x + ux * (width - 1)) / ONE;
    const ye = (y + uy * (width - 1)) / ONE;
    const inside =
      xs >= 0 && ys >= 0 && xe >= 0 && ye >= 0 && xs < maxX && xe < maxX && ys < maxY && ye < maxY;
    for (let u = 0; u < width; u++, x += ux, y += uy) {
      const xi = x >> FIX;
      const yi = y >> FIX;
      if (!inside && (x < 0 || y < 0 || xi >= maxX || yi >= maxY)) {
        out[o++] = 255;
        continue;
      }
      const fx = (x >> 8) & 255;
      const fy = (y >> 8) & 255;
      const p = yi * W + xi;
      const p00 = src[p]!;
      const p10 = src[p + W]!;
      const top = (p00 << 8) + (src[p + 1]! - p00) * fx;
      const bottom = (p10 << 8) + (src[p + W + 1]! - p10) * fx;
      out[o++] = ((top << 8) + (bottom - top) * fy + 32768) >> 16;
    }
  }
  return { width, height, data: out, q, originX: r.x, originY: r.y };
}

/** `rectify`'s bilinear grid, only the samples `only` names (the same values, computed the same way). */
function bilinearSparse(
  img: GreyImage,
  m: Affine,
  r: Rect,
  q: number,
  width: number,
  height: number,
  out: Uint8Array,
  only: { stride: number; every: number },
): void {
  const [a, b, c, d, e, f] = m;
  const step = 1 / q;
  const X0 = r.x + step / 2;
  const Y0 = r.y + step / 2;
  const ux = Math.round(a * step * ONE);
  const uy = Math.round(d * step * ONE);
  const W = img.width;
  const src = img.data;
  const maxX = W - 1;
  const maxY = img.height - 1;
  const { stride, every } = only;
  for (let v = 0; v < height; v++) {
    const xs = a * X0 + b * (Y0 + v * step) + c - 0.5;
    const ys = d * X0 + e * (Y0 + v * step) + f - 0.5;
    const x0 = Math.round(xs * ONE);
    const y0 = Math.round(ys * ONE);
    const xe = (x0 + ux * (width - 1)) / ONE;
    const ye = (y0 + uy * (width - 1)) / ONE;
    const inside =
      xs >= 0 && ys >= 0 && xe >= 0 && ye >= 0 && xs < maxX && xe < maxX && ys < maxY && ye < maxY;
    const row = v * width;
    const full = v % stride === 0;
    let next = (every - (row % every)) % every;
    for (let u = full ? 0 : next; u < width;) {
      const x = x0 + u * ux;
      const y = y0 + u * uy;
      const xi = x >> FIX;
      const yi = y >> FIX;
      if (!inside && (x < 0 || y < 0 || xi >= maxX || yi >= maxY)) out[row + u] = 255;
      else {
        const fx = (x >> 8) & 255;
        const fy = (y >> 8) & 255;
        const p = yi * W + xi;
        const p00 = src[p]!;
        const p10 = src[p + W]!;
        const top = (p00 << 8) + (src[p + 1]! - p00) * fx;
        const bottom = (p10 << 8) + (src[p + W + 1]! - p10) * fx;
        out[row + u] = ((top << 8) + (bottom - top) * fy + 32768) >> 16;
      }
      if (u === next) next += every;
      u = full ? Math.min(u + stride - (u % stride), next) : next;
    }
  }
}

/** `rectify`'s grid filled from the nearest pixel of each sample. */
function nearestRows(
  img: GreyImage,
  m: Affine,
  r: Rect,
  q: number,
  width: number,
  height: number,
  out: Uint8Array,
  only?: { stride: number; every: number },
): void {
  const [a, b, c, d, e, f] = m;
  const step = 1 / q;
  const X0 = r.x + step / 2;
  const Y0 = r.y + step / 2;
  const ux = Math.round(a * step * ONE);
  const uy = Math.round(d * step * ONE);
  const W = img.width;
  const H = img.height;
  const src = img.data;
  let o = 0;
  for (let v = 0; v < height; v++) {
    // Pixel (i, j) covers [i, i + 1): the sample's position floored.
    const xs = a * X0 + b * (Y0 + v * step) + c;
    const ys = d * X0 + e * (Y0 + v * step) + f;
    let x = Math.round(xs * ONE);
    let y = Math.round(ys * ONE);
    const xe = (x + ux * (width - 1)) / ONE;
    const ye = (y + uy * (width - 1)) / ONE;
    const inside = xs >= 0 && ys >= 0 && xe >= 0 && ye >= 0 && xs < W && xe < W && ys < H && ye < H;
    if (only) {
      const x0 = x;
      const y0 = y;
      const row = v * width;
      const full = v % only.stride === 0;
      // First sample of the row on the `every` grid, then the row's needed samples in order.
      let next = (only.every - (row % only.every)) % only.every;
      for (let u = full ? 0 : next; u < width;) {
        const xx = x0 + u * ux;
        const yy = y0 + u * uy;
        const xi = xx >> FIX;
        const yi = yy >> FIX;
        out[row + u] = inside || !(xx < 0 || yy < 0 || xi >= W || yi >= H) ? src[yi * W + xi]! : 255;
        if (u === next) next += only.every;
        u = full ? Math.min(u + only.stride - (u % only.stride), next) : next;
      }
      o += width;
      continue;
    }
    if (inside) {
      for (let u = 0; u < width; u++, x += ux, y += uy) out[o++] = src[(y >> FIX) * W + (x >> FIX)]!;
      continue;
    }
    for (let u = 0; u < width; u++, x += ux, y += uy) {
      const xi = x >> FIX;
      const yi = y >> FIX;
      out[o++] = x < 0 || y < 0 || xi >= W || yi >= H ? 255 : src[yi * W + xi]!;
    }
  }
}

/** The grey value `p` of the way up the region's histogram (0–1), from every `step`-th sample. */
export function percentileOf(data: Uint8Array, p: number, step = 3): number {
  const hist = new Uint32Array(256);
  let n = 0;
  for (let i = 0; i < data.length; i += step, n++) hist[data[i]!]!++;
  const target = n * p;
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= target) return v;
  }
  return 255;
}
