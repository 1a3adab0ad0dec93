// Browser-safe (pure JS). The live check of a camera frame in 手机拍照 (issue #26, ADR 0060): the same anchor search and limits the host
// applies to a photo, run on a small copy of the video frame a few times a second, so the teacher is told at once
// what to change and the sheet is captured by itself once its four anchors hold still.
import type { GreyImage as GreyFrame } from '../recognise/image.js';
import { detectAnchorQuad, quadArea, type AnchorQuad } from './detect.js';
import { PHOTO_LIMITS, clippedShare, percentile, sharpnessOf } from './quality.js';

export type { GreyFrame };

/** What the frame needs before it can be taken; `hold` means the four anchors are found and fit. */
export type FrameHint = 'noCard' | 'tooSmall' | 'tooDark' | 'glare' | 'blurred' | 'hold';

export interface FrameCheck {
  hint: FrameHint;
  /** The card's four anchors, in the frame's pixels, when found. */
  quad: AnchorQuad | null;
}

/** Long side of the copy each check runs on (the host looks for anchors at 1200; a phone checks often). */
export const CHECK_LONG_SIDE = 720;

/** Luma of an RGBA canvas frame (ITU-R BT.601 weights, integer arithmetic). */
export function greyOf(rgba: Uint8ClampedArray, width: number, height: number): GreyFrame {
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += 4)
    data[i] = (77 * rgba[j]! + 150 * rgba[j + 1]! + 29 * rgba[j + 2]!) >> 8;
  return { width, height, data };
}

/** Checks one frame as the host would check the photo: light, anchors, size in the frame, glare, focus. */
export function checkFrame(frame: GreyFrame): FrameCheck {
  const paper = percentile(frame.data, 0.9);
  if (paper < PHOTO_LIMITS.minPaper) return { hint: 'tooDark', quad: null };
  const quad = detectAnchorQuad(frame) ?? null;
  if (!quad) {
    if (clippedShare(frame) > PHOTO_LIMITS.maxGlare) return { hint: 'glare', quad: null };
    if (sharpnessOf(frame) < PHOTO_LIMITS.minFrameSharpness) return { hint: 'blurred', quad: null };
    return { hint: 'noCard', quad: null };
  }
  if (quadArea(quad.corners) / (frame.width * frame.height) < PHOTO_LIMITS.minAreaShare)
    return { hint: 'tooSmall', quad };
  // A reflection is judged on the card, as the host judges it on the flat page: the table around does not count.
  if (clippedShare(cardRegion(frame, quad)) > PHOTO_LIMITS.maxGlare) return { hint: 'glare', quad };
  if (sharpnessOf(frame) < PHOTO_LIMITS.minFrameSharpness) return { hint: 'blurred', quad };
  return { hint: 'hold', quad };
}

/** The part of the frame between the anchors' centres (their bounding box). */
function cardRegion(frame: GreyFrame, quad: AnchorQuad): GreyFrame {
  const xs = quad.corners.map((p) => p.x);
  const ys = quad.corners.map((p) => p.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const x1 = Math.min(frame.width, Math.ceil(Math.max(...xs)));
  const y1 = Math.min(frame.height, Math.ceil(Math.max(...ys)));
  const width = Math.max(1, x1 - x0);
  const height = Math.max(1, y1 - y0);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    data.set(
      frame.data.subarray((y0 + y) * frame.width + x0, (y0 + y) * frame.width + x0 + width),
      y * width,
    );
  return { width, height, data };
}

/** Whether two sightings of the anchors are the same sheet held still: every corner within `share` of the frame. */
export function sameQuad(
  a: AnchorQuad,
  b: AnchorQuad,
  frame: { width: number; height: number },
  share = 0.015,
) {
  const limit = Math.hypot(frame.width, frame.height) * share;
  return a.corners.every((p, i) => Math.hypot(p.x - b.corners[i]!.x, p.y - b.corners[i]!.y) <= limit);
}

/** Checks in a row the anchors must hold still before the sheet is taken (about a second). */
export const STEADY_CHECKS = 3;
