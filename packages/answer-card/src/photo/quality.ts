// Phone capture's refusal limits and frame measurements (ADR 0060), pure JS and kept apart from the sharp-based
// flattening, so the browser's live frame check (the /scan 手机拍照 mode) uses the same figures as the host.
import type { GreyImage } from '../recognise/image.js';

/** Refusal limits, measured on the photo corpus (`photo.test.ts`, `bench/photo.bench.ts`). */
export const PHOTO_LIMITS = {
  /** Angle between the sheet and the phone, degrees (the corpus is shot up to 20°). */
  maxTiltDeg: 30,
  /** The card's anchors must span this share of the frame's area… */
  minAreaShare: 0.12,
  /** …and this many photo pixels per millimetre (a QR module of 0.6 mm then spans ~3.6 pixels). */
  minPxPerMm: 6,
  /** Paper at least this bright (median of the local background, 0–255). */
  minPaper: 60,
  /** A quadrilateral no camera pose gives (see `poseOf`): not the card's four anchors. */
  maxStretch: 1.25,
  maxShear: 0.2,
  /**
   * Each anchor's size by the homography, relative to the four's median (which blur and thresholding make a little
   * larger than the printed 6 mm).
   */
  anchorSizeTolerance: 0.25,
  /** Sharpness of the whole reduced frame, when its anchors cannot be told apart (see `sharpnessOf`). */
  minFrameSharpness: 0.12,
  /** Sharpness: the 99.5th percentile of the neighbour differences on the flat page, over the ink's contrast. */
  minSharpness: 0.2,
  /** Share of the page clipped white by a reflection. */
  maxGlare: 0.015,
} as const;

/** Share of a frame clipped white in patches (2 × 2 means at 250 or more): a reflection. */
export function clippedShare(img: GreyImage): number {
  let n = 0;
  let clipped = 0;
  const { width, height, data } = img;
  for (let y = 0; y + 1 < height; y += 2)
    for (let x = 0; x + 1 < width; x += 2) {
      const i = y * width + x;
      n++;
      if (data[i]! + data[i + 1]! + data[i + width]! + data[i + width + 1]! >= 1000) clipped++;
    }
  return clipped / Math.max(1, n);
}

/** The value below which a share `p` of the pixels lies (every 7th pixel sampled). */
export function percentile(data: Uint8Array, p: number): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i += 7) hist[data[i]!]!++;
  const total = hist.reduce((s, v) => s + v, 0);
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= total * p) return v;
  }
  return 255;
}

/**
 * How sharp the flat page is: the 99.5th percentile of the differences between horizontal and vertical neighbours
 * (printed edges), over the contrast between paper and the darkest ink. A sharp 200 dpi page has edges that change
 * by most of the contrast from one pixel to the next; a blurred one spreads them over several.
 */
export function sharpnessOf(img: GreyImage): number {
  const hist = new Uint32Array(256);
  const { width, height, data } = img;
  for (let y = 1; y < height; y += 2)
    for (let x = 1; x < width; x++) {
      const i = y * width + x;
      const d = Math.max(Math.abs(data[i]! - data[i - 1]!), Math.abs(data[i]! - data[i - width]!));
      hist[d]!++;
    }
  const total = hist.reduce((s, v) => s + v, 0);
  let acc = 0;
  let p995 = 255;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= total * 0.995) {
      p995 = v;
      break;
    }
  }
  const contrast = Math.max(1, 245 - percentile(data, 0.002));
  return p995 / contrast;
}
