import { findBlobs, type Blob } from './components.js';
import type { GreyImage } from './image.js';
import { Scratch } from './sample.js';

/** Image corners, clockwise from the top-left. */
export const IMAGE_CORNERS = ['tl', 'tr', 'br', 'bl'] as const;
export type ImageCorner = (typeof IMAGE_CORNERS)[number];

/** An anchor found in a corner of the image, at full resolution. */
export interface AnchorHit {
  corner: ImageCorner;
  /** Centre, image pixels (pixel centres at i + 0.5). */
  x: number;
  y: number;
  /** Side of the square of the same area, pixels. */
  side: number;
  /** Median grey inside the anchor and of the paper around it. */
  ink: number;
  paper: number;
}

export interface AnchorSearch {
  /** Expected anchor side in pixels when the resolution is known; else a range is guessed from the image size. */
  sidePx?: number;
  anchorMm: number;
}

/** Share of the image's width and height searched at each corner. */
const CORNER_SHARE = 0.22;
/** Anchors are within ±20 % of the expected size (print scale and scan blur included). */
const SIZE_TOLERANCE = 0.2;

interface Candidate extends Blob {
  corner: ImageCorner;
  /** Full-resolution side estimate and the distance to the image corner, pixels. */
  sidePx: number;
  distance: number;
  factor: number;
  ox: number;
  oy: number;
}

function percentile(hist: Uint32Array, total: number, p: number): number {
  const target = total * p;
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= target) return v;
  }
  return 255;
}

/** Box-averages a region of the image by `f` in each direction. */
export function downsample(
  img: GreyImage,
  x0: number,
  y0: number,
  w: number,
  h: number,
  f: number,
  into?: Scratch,
): GreyImage {
  const cw = Math.floor(w / f);
  const ch = Math.floor(h / f);
  const out = into ? into.take(cw * ch) : new Uint8Array(cw * ch);
  const sums = new Uint32Array(cw);
  const area = f * f;
  const src = img.data;
  if (f === 1) {
    for (let cy = 0; cy < ch; cy++) {
      const p = (y0 + cy) * img.width + x0;
      out.set(src.subarray(p, p + cw), cy * cw);
    }
    return { width: cw, height: ch, data: out };
  }
  for (let cy = 0; cy < ch; cy++) {
    sums.fill(0);
    for (let dy = 0; dy < f; dy++) {
      let p = (y0 + cy * f + dy) * img.width + x0;
      // The usual factors unrolled (the same sums).
      if (f === 2) for (let cx = 0; cx < cw; cx++, p += 2) sums[cx]! += src[p]! + src[p + 1]!;
      else if (f === 3)
        for (let cx = 0; cx < cw; cx++, p += 3) sums[cx]! += src[p]! + src[p + 1]! + src[p + 2]!;
      else if (f === 4)
        for (let cx = 0; cx < cw; cx++, p += 4)
          sums[cx]! += src[p]! + src[p + 1]! + src[p + 2]! + src[p + 3]!;
      else
        for (let cx = 0; cx < cw; cx++) {
          let s = 0;
          for (let dx = 0; dx < f; dx++) s += src[p++]!;
          sums[cx]! += s;
        }
    }
    const row = cy * cw;
    for (let cx = 0; cx < cw; cx++) out[row + cx] = (sums[cx]! / area + 0.5) | 0;
  }
  return { width: cw, height: ch, data: out };
}

/** The coarse corner region and its mask: one buffer each for every corner of every page. */
const coarseScratch = new Scratch();
const maskScratch = new Scratch();

/** Solid square candidates in one corner region, at a coarse scale. */
function cornerCandidates(
  img: GreyImage,
  corner: ImageCorner,
  f: number,
  sideLo: number,
  sideHi: number,
): Candidate[] {
  const rw = Math.floor(img.width * CORNER_SHARE);
  const rh = Math.floor(img.height * CORNER_SHARE);
  const ox = corner === 'tl' || corner === 'bl' ? 0 : img.width - rw;
  const oy = corner === 'tl' || corner === 'tr' ? 0 : img.height - rh;
  const coarse = downsample(img, ox, oy, rw, rh, f, coarseScratch);
  const hist = new Uint32Array(256);
  const cd = coarse.data;
  for (let i = 0; i < cd.length; i++) hist[cd[i]!]!++;
  const n = coarse.data.length;
  const paper = percentile(hist, n, 0.9);
  const dark = percentile(hist, n, 0.004);
  if (paper - dark < 60) return [];
  const threshold = (paper + dark) / 2;
  const mask = maskScratch.take(n);
  for (let i = 0; i < n; i++) mask[i] = coarse.data[i]! < threshold ? 1 : 0;
  const lo = sideLo / f;
  const hi = sideHi / f;
  const cornerX = corner === 'tl' || corner === 'bl' ? 0 : img.width;
  const cornerY = corner === 'tl' || corner === 'tr' ? 0 : img.height;
  const out: Candidate[] = [];
  for (const b of findBlobs(mask, coarse.width, coarse.height, Math.max(4, Math.floor(lo * lo * 0.5)))) {
    const w = b.maxX - b.minX + 1;
    const h = b.maxY - b.minY + 1;
    const side = Math.sqrt(b.area);
    if (side < lo || side > hi) continue;
    if (w / h < 0.75 || w / h > 1.33) continue;
    if (b.area / (w * h) < 0.72) continue;
    const x = ox + b.cx * f;
    const y = oy + b.cy * f;
    out.push({
      ...b,
      corner,
      sidePx: side * f,
      distance: Math.hypot(x - cornerX, y - cornerY),
      factor: f,
      ox,
      oy,
    });
  }
  return out.sort((a, b) => a.distance - b.distance).slice(0, 3);
}

/** Centre, size and grey levels of an anchor, measured at full resolution around a coarse candidate. */
function refine(img: GreyImage, c: Candidate): AnchorHit | undefined {
  const f = c.factor;
  const margin = Math.max(3, Math.round(c.sidePx * 0.35));
  const x0 = Math.max(0, c.ox + c.minX * f - margin);
  const y0 = Math.max(0, c.oy + c.minY * f - margin);
  const x1 = Math.min(img.width, c.ox + (c.maxX + 1) * f + margin);
  const y1 = Math.min(img.height, c.oy + (c.maxY + 1) * f + margin);
  const hist = new Uint32Array(256);
  const { data, width } = img;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) hist[data[y * width + x]!]!++;
  const total = (x1 - x0) * (y1 - y0);
  const paper = percentile(hist, total, 0.9);
  const ink = percentile(hist, total, 0.1);
  if (paper - ink < 50) return undefined;
  const hiT = paper - 0.25 * (paper - ink);
  const loT = ink + 0.25 * (paper - ink);
  let sw = 0,
    sx = 0,
    sy = 0;
  for (let y = y0; y < y1; y++) {
    const row = y * width;
    for (let x = x0; x < x1; x++) {
      const v = data[row + x]!;
      if (v >= hiT) continue;
      const w = v <= loT ? 1 : (hiT - v) / (hiT - loT);
      sw += w;
      sx += w * (x + 0.5);
      sy += w * (y + 0.5);
    }
  }
  if (sw === 0) return undefined;
  const cx = sx / sw;
  const cy = sy / sw;
  const side = Math.sqrt(sw);
  // Ink from the anchor's middle, paper from the window's rim.
  const inner: number[] = [];
  const q = Math.max(1, Math.floor(side * 0.2));
  for (let y = Math.floor(cy - q); y <= cy + q; y += Math.max(1, q >> 2))
    for (let x = Math.floor(cx - q); x <= cx + q; x += Math.max(1, q >> 2))
      if (x >= 0 && y >= 0 && x < width && y < img.height) inner.push(data[y * width + x]!);
  inner.sort((a, b) => a - b);
  return { corner: c.corner, x: cx, y: cy, side, ink: inner[inner.length >> 1] ?? ink, paper };
}

/**
 * Finds the card's corner anchors: solid squares nearest each image corner, as connected components at a coarse
 * scale (sizes within ±20 % of the expected, or of each other when the resolution is unknown), refined at full
 * resolution. Returns one hit per corner where one was found.
 */
export function findAnchors(img: GreyImage, search: AnchorSearch): AnchorHit[] {
  const shortSide = Math.min(img.width, img.height);
  // Card sizes have short sides of 185–297 mm: without a resolution the side is only known within that range.
  const guessPxPerMm = search.sidePx ? search.sidePx / search.anchorMm : shortSide / 240;
  const [sideLo, sideHi] = search.sidePx
    ? [search.sidePx * 0.93 * (1 - SIZE_TOLERANCE), search.sidePx * 1.01 * (1 + SIZE_TOLERANCE)]
    : [
        (search.anchorMm * shortSide * 0.93 * (1 - SIZE_TOLERANCE)) / 320,
        (search.anchorMm * shortSide * (1 + SIZE_TOLERANCE)) / 170,
      ];
  const f = Math.max(1, Math.round(guessPxPerMm / 3));
  const perCorner = IMAGE_CORNERS.map((corner) => cornerCandidates(img, corner, f, sideLo, sideHi));
  // The four anchors have one size: keep the candidates that agree with the size most corners share.
  let best: Candidate[] = [];
  let bestScore = -Infinity;
  for (const ref of perCorner.flat()) {
    const chosen: Candidate[] = [];
    for (const list of perCorner) {
      const c = list.find((x) => Math.abs(x.sidePx - ref.sidePx) <= ref.sidePx * 0.25);
      if (c) chosen.push(c);
    }
    const score = chosen.length * 1e6 - chosen.reduce((s, c) => s + c.distance, 0);
    if (score > bestScore) {
      bestScore = score;
      best = chosen;
    }
  }
  return best.map((c) => refine(img, c)).filter((h): h is AnchorHit => h !== undefined);
}
