import { describe, expect, it } from 'vitest';
import type { Affine } from './affine.js';
import { measureGroup } from './bubbles.js';
import type { GreyImage } from './image.js';

/** 10 pixels per millimetre, the card's millimetres straight onto the image. */
const PX = 10;
const M: Affine = [PX, 0, 0, 0, PX, 0];
const PAPER = 235;
const INK = 25;
const rects = [
  { x: 10, y: 10, w: 5, h: 3.5 },
  { x: 20, y: 10, w: 5, h: 3.5 },
  { x: 30, y: 10, w: 5, h: 3.5 },
];

/** A page of three printed bubbles; `mark` darkens pixels inside the second one (grey levels, 0 black). */
function page(mark: (x: number, y: number) => number | undefined): GreyImage {
  const width = 500;
  const height = 250;
  const data = new Uint8Array(width * height).fill(PAPER);
  for (const r of rects) {
    // The brackets: two upright strokes 0.2 mm wide at the box's sides.
    for (let y = Math.round(r.y * PX); y < Math.round((r.y + r.h) * PX); y++)
      for (const x0 of [r.x, r.x + r.w - 0.2])
        for (let x = Math.round(x0 * PX); x < Math.round((x0 + 0.2) * PX); x++) data[y * width + x] = INK;
  }
  const r = rects[1]!;
  for (let y = Math.round((r.y + 0.4) * PX); y < Math.round((r.y + r.h - 0.4) * PX); y++)
    for (let x = Math.round((r.x + 0.6) * PX); x < Math.round((r.x + r.w - 0.6) * PX); x++) {
      const v = mark(x / PX - r.x, y / PX - r.y);
      if (v !== undefined) data[y * width + x] = v;
    }
  return { width, height, data };
}

const measure = (img: GreyImage) =>
  measureGroup(
    img,
    M,
    { elementId: 'b', bubbles: rects.map((rect) => ({ rect })) },
    {
      q: PX,
      ink: INK,
      inkLevel: 0.6,
      searchMm: 0.5,
    },
  ).bubbles;

describe('a bubble’s line texture (ADR 0084)', () => {
  it('is high for a pen stroke across the box and low for an even layer as dark on the mean', () => {
    // A fine diagonal stroke (0.4 mm) across the box, as a tick's long arm.
    const stroke = measure(
      page((x, y) => (Math.abs(y - 0.4 - (x - 0.6) * (2.7 / 3.8)) < 0.3 ? 60 : undefined)),
    );
    // An even grey layer (what a rubber leaves of a fill) with the stroke's mean darkness.
    const dark = stroke[1]!.ratio;
    const even = measure(page(() => Math.round(PAPER - (dark / 0.8) * (PAPER - INK))));
    expect(stroke[1]!.line).toBeGreaterThan(0.3);
    expect(even[1]!.ratio).toBeGreaterThanOrEqual(stroke[1]!.ratio * 0.8);
    expect(even[1]!.line).toBeLessThan(0.1);
    // Untouched bubbles keep only their print's texture, alike on both pages.
    expect(Math.abs(stroke[0]!.line - even[0]!.line)).toBeLessThan(0.02);
    expect(stroke[1]!.line).toBeGreaterThan(stroke[0]!.line + 0.2);
  });
});
