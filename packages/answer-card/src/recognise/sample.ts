import type { Rect } from '@zhzy/contracts';
import type { Affine } from './affine.js';
import type { GreyImage } from './image.js';

/** A region of the card resampled upright: `q` samples per millimetre from `origin` (mm). */
export interface Rectified extends GreyImage {
  q: number;
  originX: number;
  originY: number;
}

/**
 * Resamples the rect `r` (millimetres on the card) of the image through `m` (mm → pixels) into an upright grid of
 * `q` samples per millimetre, bilinearly. Outside the image reads as white.
 */
export function rectify(img: GreyImage, m: Affine, r: Rect, q: number): Rectified {
  const width = Math.max(1, Math.round(r.w * q));
  const height = Math.max(1, Math.round(r.h * q));
  const out = new Uint8Array(width * height);
  const [a, b, c, d, e, f] = m;
  const step = 1 / q;
  // Image position of the first sample, shifted by half a pixel for bilinear weights on pixel centres.
  const X0 = r.x + step / 2;
  const Y0 = r.y + step / 2;
  const ux = a * step;
  const uy = d * step;
  const W = img.width;
  const H = img.height;
  const src = img.data;
  let o = 0;
  const maxX = W - 1;
  const maxY = H - 1;
  for (let v = 0; v < height; v++) {
    let x = a * X0 + b * (Y0 + v * step) + c - 0.5;
    let y = d * X0 + e * (Y0 + v * step) + f - 0.5;
    for (let u = 0; u < width; u++, x += ux, y += uy) {
      if (x < 0 || y < 0 || x >= maxX || y >= maxY) {
        out[o++] = 255;
        continue;
      }
      const xi = x | 0;
      const yi = y | 0;
      const fx = x - xi;
      const fy = y - yi;
      const p = yi * W + xi;
      const p00 = src[p]!;
      const p01 = src[p + 1]!;
      const p10 = src[p + W]!;
      const p11 = src[p + W + 1]!;
      const top = p00 + (p01 - p00) * fx;
      out[o++] = (top + (p10 + (p11 - p10) * fx - top) * fy + 0.5) | 0;
    }
  }
  return { width, height, data: out, q, originX: r.x, originY: r.y };
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
