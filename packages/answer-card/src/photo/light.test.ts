import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../recognise/image.js';
import { backgroundAt, LIGHT_WINDOW_MM, paperLight } from './light.js';

/** 200 dpi: pixels per millimetre of a flattened page. */
const K = 200 / 25.4;

/** A page of paper (230) whose right half lies in a hard-edged shadow (120), with a 6 mm anchor in each half. */
function shadowedPage(): GreyImage {
  const width = 480;
  const height = 320;
  const data = new Uint8Array(width * height);
  const edge = 240;
  const side = Math.round(6 * K);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const shadow = x >= edge;
      const inSquare = (x0: number) => x >= x0 && x < x0 + side && y >= 140 && y < 140 + side;
      data[y * width + x] = inSquare(80) ? 40 : inSquare(340) ? 20 : shadow ? 120 : 230;
    }
  return { width, height, data };
}

describe("the paper's light under a phone photo", () => {
  const page = shadowedPage();
  const bg = paperLight(page, LIGHT_WINDOW_MM * K);
  const level = (x: number, y: number) => backgroundAt(bg, x + 0.5, y + 0.5);

  it('sees through ink as wide as an anchor: the paper around it, not the square', () => {
    expect(level(80 + 23, 140 + 23)).toBeGreaterThan(220);
    expect(level(340 + 23, 140 + 23)).toBeGreaterThan(110);
    expect(level(340 + 23, 140 + 23)).toBeLessThan(130);
  });

  it("keeps a shadow's edge sharp, so paper beside it is not darkened", () => {
    // Within a millimetre of the edge on each side, the level is that side's paper.
    for (const y of [20, 160, 300]) {
      expect(level(240 - 8, y)).toBeGreaterThan(210);
      expect(level(240 + 8, y)).toBeLessThan(140);
      expect(page.data[y * page.width + 248]! / level(248, y)).toBeGreaterThan(0.9);
    }
  });
});
