// Pure-JS parts of phone capture (no sharp): the card's four anchors in a small grey frame, and the paper's local
// brightness. The browser runs the same code on a downscaled video frame to capture when the anchors hold still.
import { findBlobs, type Blob } from '../recognise/components.js';
import type { GreyImage } from '../recognise/image.js';
import type { Pt } from './homography.js';
import { backgroundAt, paperLight, type Background } from './light.js';

export { PHOTO_LIMITS, clippedShare, percentile, sharpnessOf } from './quality.js';
export {
  CHECK_LONG_SIDE,
  STEADY_CHECKS,
  checkFrame,
  greyOf,
  sameQuad,
  type FrameCheck,
  type FrameHint,
  type GreyFrame,
} from './frame.js';

/** The paper's brightness on a coarse grid: each cell the brightest of its block and its neighbours, smoothed. */
/** The four anchors found in a frame: centres clockwise from the one nearest the frame's top-left. */
export interface AnchorQuad {
  corners: [Pt, Pt, Pt, Pt];
  /** Mean anchor side, pixels. */
  side: number;
  /** Each anchor's side (square root of its area), pixels, in the order of `corners`. */
  sides: [number, number, number, number];
}

/** Anchors are solid squares: 6 mm against 159–394 mm between anchor centres on every card size. */
const SIDE_TO_SPAN: readonly [number, number] = [6 / 420, 6 / 140];

interface Square extends Blob {
  side: number;
}

/**
 * Finds the four corner anchors of a card in a grey frame: solid, square-ish blobs darker than half their local
 * paper, of one size, the outermost in each diagonal direction, forming a convex quadrilateral whose size agrees with
 * theirs. `minSide` is the smallest anchor side in pixels worth looking for.
 */
export function detectAnchorQuad(img: GreyImage, minSide = 4): AnchorQuad | undefined {
  const cell = Math.max(8, Math.round(Math.min(img.width, img.height) / 40));
  const bg = paperLight(img, 3 * cell);
  const mask = new Uint8Array(img.width * img.height);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const i = y * img.width + x;
      const b = backgroundAt(bg, x, y);
      // Darker than half the paper, on paper bright enough to tell (not a dark table).
      mask[i] = b > 40 && img.data[i]! < b * 0.5 ? 1 : 0;
    }
  const squares: Square[] = [];
  for (const b of findBlobs(mask, img.width, img.height, minSide * minSide * 0.6)) {
    const bw = b.maxX - b.minX + 1;
    const bh = b.maxY - b.minY + 1;
    const aspect = bw / bh;
    const fill = b.area / (bw * bh);
    if (aspect < 0.6 || aspect > 1.67 || fill < 0.5) continue;
    // A square turned by θ fills 1 / (|cos θ| + |sin θ|)² of its box: solid squares turned up to 45° fill ≥ 0.5,
    // and their box is then as wide as tall. A bubble's ellipse fills π/4 of an unturned box.
    const side = Math.sqrt(b.area);
    if (side < minSide) continue;
    if (b.minX === 0 || b.minY === 0 || b.maxX === img.width - 1 || b.maxY === img.height - 1) continue;
    if (!solidCore(mask, img.width, b)) continue;
    if (!onPaper(img, bg, b, side)) continue;
    squares.push({ ...b, side });
  }
  if (squares.length < 4) return undefined;
  const dirs: [number, number][] = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ];
  let best: AnchorQuad | undefined;
  let bestArea = 0;
  const refs = [...squares].sort((a, b) => b.side - a.side).slice(0, 60);
  for (const ref of refs) {
    // One size, within perspective: a steep shot makes the near anchors up to ~3 times the far ones.
    const alike = squares.filter((s) => s.side >= ref.side * 0.3 && s.side <= ref.side * 1.15);
    if (alike.length < 4) continue;
    const picks = dirs.map(([dx, dy]) => {
      let top: Square | undefined;
      let score = -Infinity;
      for (const s of alike) {
        const v = dx * s.cx + dy * s.cy;
        if (v > score) {
          score = v;
          top = s;
        }
      }
      return top!;
    });
    if (new Set(picks).size < 4) continue;
    const corners = picks.map((s) => ({ x: s.cx, y: s.cy })) as AnchorQuad['corners'];
    if (!convex(corners)) continue;
    const area = quadArea(corners);
    const span = Math.sqrt(area);
    const side = picks.reduce((s, p) => s + p.side, 0) / 4;
    const spanLo = Math.min(dist(corners[0], corners[1]), dist(corners[1], corners[2]));
    const spanHi = Math.max(dist(corners[0], corners[1]), dist(corners[1], corners[2]));
    if (side / spanHi < SIDE_TO_SPAN[0] * 0.6 || side / spanLo > SIDE_TO_SPAN[1] * 1.5 || span <= 0) continue;
    if (area > bestArea) {
      bestArea = area;
      best = { corners, side, sides: picks.map((p) => p.side) as AnchorQuad['sides'] };
    }
  }
  return best;
}

/**
 * Whether the middle of a blob's box (40 % of each side, around the centroid) is all ink, as in a solid square
 * turned any way; glyphs and rings have strokes and holes there.
 */
function solidCore(mask: Uint8Array, width: number, b: Blob): boolean {
  const hw = ((b.maxX - b.minX + 1) * 0.2) | 0;
  const hh = ((b.maxY - b.minY + 1) * 0.2) | 0;
  const cx = Math.round(b.cx - 0.5);
  const cy = Math.round(b.cy - 0.5);
  let set = 0;
  let n = 0;
  for (let y = cy - hh; y <= cy + hh; y++)
    for (let x = cx - hw; x <= cx + hw; x++) {
      n++;
      set += mask[y * width + x]!;
    }
  return set >= n * 0.97;
}

/**
 * Whether a blob lies on paper: the ring around its box (half a side out) is nearly all brighter than 70 % of the
 * local paper, as around an anchor printed 10 mm inside the sheet; bits of a patterned table or of the sheet's edge
 * are not.
 */
function onPaper(img: GreyImage, bg: Background, b: Blob, side: number): boolean {
  const m = Math.max(2, Math.round(side * 0.5));
  const x0 = b.minX - m;
  const x1 = b.maxX + m;
  const y0 = b.minY - m;
  const y1 = b.maxY + m;
  if (x0 < 0 || y0 < 0 || x1 >= img.width || y1 >= img.height) return false;
  let n = 0;
  let paper = 0;
  const at = (x: number, y: number) => {
    n++;
    if (img.data[y * img.width + x]! > 0.7 * backgroundAt(bg, x, y)) paper++;
  };
  for (let x = x0; x <= x1; x++) {
    at(x, y0);
    at(x, y1);
  }
  for (let y = y0 + 1; y < y1; y++) {
    at(x0, y);
    at(x1, y);
  }
  return paper >= n * 0.9;
}

export const dist = (a: Pt, b: Pt): number => Math.hypot(a.x - b.x, a.y - b.y);

export function quadArea(q: readonly Pt[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % q.length]!;
    s += a.x * b.y - b.x * a.y;
  }
  return Math.abs(s) / 2;
}

function convex(q: readonly Pt[]): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % 4]!;
    const c = q[(i + 2) % 4]!;
    const z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (z === 0) return false;
    if (sign === 0) sign = Math.sign(z);
    else if (Math.sign(z) !== sign) return false;
  }
  return true;
}
