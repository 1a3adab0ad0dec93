// The paper's brightness under a phone photo's light (ADR 0060 §3): a morphological closing — the brightest value
// around each point, then the darkest of those — over a window wider than any ink on a card (anchors 6 mm, filled
// bubbles, QR finder patterns). Ink vanishes from it while a shadow's edge stays where it is, so dividing by it
// evens out gradients and hard-edged shadows alike (a blurred estimate darkens a band along every shadow edge).
import type { GreyImage } from '../recognise/image.js';

/** A paper level sampled on a grid of cells. */
export interface Background {
  /** Cell size, pixels. */
  cell: number;
  cols: number;
  rows: number;
  /** Row-major, one value per cell. */
  data: Float32Array;
}

/** The paper level at a point of the image (bilinear between cell centres). */
export function backgroundAt(bg: Background, x: number, y: number): number {
  const fx = Math.min(bg.cols - 1, Math.max(0, x / bg.cell - 0.5));
  const fy = Math.min(bg.rows - 1, Math.max(0, y / bg.cell - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(bg.cols - 1, x0 + 1);
  const y1 = Math.min(bg.rows - 1, y0 + 1);
  const tx = fx - x0;
  const ty = fy - y0;
  const d = bg.data;
  const top = d[y0 * bg.cols + x0]! * (1 - tx) + d[y0 * bg.cols + x1]! * tx;
  const bottom = d[y1 * bg.cols + x0]! * (1 - tx) + d[y1 * bg.cols + x1]! * tx;
  return top * (1 - ty) + bottom * ty;
}

/** Window of the closing, millimetres: wider than the 6 mm anchors and every mark a card holds. */
export const LIGHT_WINDOW_MM = 9;

/** A sliding maximum or minimum of radius `r` along rows (`step` 1) or columns (`step` width), O(n). */
function slide(
  src: Float32Array,
  width: number,
  height: number,
  r: number,
  take: 'max' | 'min',
  alongRows: boolean,
): Float32Array {
  const out = new Float32Array(src.length);
  const lines = alongRows ? height : width;
  const n = alongRows ? width : height;
  const step = alongRows ? 1 : width;
  const queue = new Int32Array(n);
  const better = take === 'max' ? (a: number, b: number) => a >= b : (a: number, b: number) => a <= b;
  for (let line = 0; line < lines; line++) {
    const base = alongRows ? line * width : line;
    let head = 0;
    let tail = 0;
    let next = 0;
    for (let i = 0; i < n; i++) {
      // Admit everything up to i + r, dropping what it outdoes.
      for (; next <= Math.min(n - 1, i + r); next++) {
        const v = src[base + next * step]!;
        while (tail > head && better(v, src[base + queue[tail - 1]! * step]!)) tail--;
        queue[tail++] = next;
      }
      while (queue[head]! < i - r) head++;
      out[base + i * step] = src[base + queue[head]! * step]!;
    }
  }
  return out;
}

/**
 * The paper level of a grey image at half its resolution (`Background` cells of 2 pixels, read with
 * `backgroundAt`): 2×2 means, closed with a window of `windowPx` pixels (on a flattened page, `LIGHT_WINDOW_MM`),
 * then a 3-cell mean to soften the closing's plateaus.
 */
export function paperLight(img: GreyImage, windowPx: number): Background {
  const cell = 2;
  const cols = Math.max(1, Math.floor(img.width / cell));
  const rows = Math.max(1, Math.floor(img.height / cell));
  const half = new Float32Array(cols * rows);
  const { width, data } = img;
  for (let cy = 0; cy < rows; cy++)
    for (let cx = 0; cx < cols; cx++) {
      const i = cy * cell * width + cx * cell;
      half[cy * cols + cx] = (data[i]! + data[i + 1]! + data[i + width]! + data[i + width + 1]!) / 4;
    }
  const r = Math.max(1, Math.round(windowPx / cell / 2));
  let level = slide(half, cols, rows, r, 'max', true);
  level = slide(level, cols, rows, r, 'max', false);
  level = slide(level, cols, rows, r, 'min', true);
  level = slide(level, cols, rows, r, 'min', false);
  const soft = new Float32Array(level.length);
  for (let cy = 0; cy < rows; cy++)
    for (let cx = 0; cx < cols; cx++) {
      let sum = 0;
      let count = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          if (x < 0 || y < 0 || x >= cols || y >= rows) continue;
          sum += level[y * cols + x]!;
          count++;
        }
      soft[cy * cols + cx] = sum / count;
    }
  return { cols, rows, cell, data: soft };
}
