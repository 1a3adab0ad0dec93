import { describe, expect, it } from 'vitest';
import type { Affine } from './affine.js';
import type { GreyImage } from './image.js';
import { gridPercentileOf, percentileOf, rectify, Scratch } from './sample.js';

/** A grey image of noise (a fixed generator: the same pixels every run). */
function noise(width: number, height: number): GreyImage {
  const data = new Uint8Array(width * height);
  let s = 12345;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = s >>> 24;
  }
  return { width, height, data };
}

describe('rectify with `only`', () => {
  const img = noise(240, 180);
  // 11.8 px/mm, turned 1.5°, shifted: the card partly off the image, so some rows cross its edges.
  const a = 11.8 * Math.cos(0.026);
  const b = -11.8 * Math.sin(0.026);
  const m: Affine = [a, b, -12.3, -b, a, 7.7];
  for (const nearest of [false, true])
    for (const [stride, every] of [
      [2, 3],
      [3, 2],
      [2, 5],
    ] as const)
      it(`fills the named samples as the full grid does (${nearest ? 'nearest' : 'bilinear'}, ${stride}/${every})`, () => {
        const r = { x: -0.4, y: 0.3, w: 21.3, h: 15.9 };
        const q = nearest ? 11.8 : 8;
        const full = rectify(img, m, r, q, { nearest });
        const scratch = new Scratch();
        // Stale contents the sparse grid must leave alone where it does not look.
        scratch.take(full.data.length).fill(77);
        const part = rectify(img, m, r, q, { nearest, into: scratch, only: { stride, every } });
        expect([part.width, part.height]).toEqual([full.width, full.height]);
        let named = 0;
        let differ = 0;
        let untouched = 0;
        for (let v = 0; v < full.height; v++)
          for (let u = 0; u < full.width; u++) {
            const i = v * full.width + u;
            if ((v % stride === 0 && u % stride === 0) || i % every === 0) {
              named++;
              if (part.data[i] !== full.data[i]) differ++;
            } else if (part.data[i] === 77) untouched++;
          }
        expect(differ).toBe(0);
        expect(named).toBeGreaterThan(full.data.length / 4);
        // Most samples outside the named ones are never computed.
        expect(untouched).toBeGreaterThan((full.data.length - named) * 0.9);
      });
});

describe('rectify with a stride alone', () => {
  const img = noise(240, 180);
  const m: Affine = [7.9, 0.2, -3.1, -0.2, 7.9, 2.4];
  for (const nearest of [false, true])
    it(`fills every other row's every other sample as the full grid does, and nothing else (${nearest ? 'nearest' : 'bilinear'})`, () => {
      const r = { x: -0.2, y: 0.1, w: 31.7, h: 22.3 };
      const full = rectify(img, m, r, 7.9, { nearest });
      const scratch = new Scratch();
      scratch.take(full.data.length).fill(77);
      const part = rectify(img, m, r, 7.9, { nearest, into: scratch, only: { stride: 2 } });
      let differ = 0;
      let touched = 0;
      let named = 0;
      for (let v = 0; v < full.height; v++)
        for (let u = 0; u < full.width; u++) {
          const i = v * full.width + u;
          if (v % 2 === 0 && u % 2 === 0) {
            named++;
            if (part.data[i] !== full.data[i]) differ++;
          } else if (part.data[i] !== 77) touched++;
        }
      expect(named).toBe(Math.ceil(full.width / 2) * Math.ceil(full.height / 2));
      expect(differ).toBe(0);
      expect(touched).toBe(0);
    });
});

describe('gridPercentileOf', () => {
  it('reads the level from the strided samples only', () => {
    // Samples on the stride grid are 200; every other sample is 10.
    const width = 9;
    const height = 7;
    const data = new Uint8Array(width * height).fill(10);
    for (let y = 0; y < height; y += 2) for (let x = 0; x < width; x += 2) data[y * width + x] = 200;
    expect(gridPercentileOf({ width, height, data }, 0.1, 2)).toBe(200);
    expect(percentileOf(data, 0.5, 1)).toBe(10);
  });

  it('is the plain percentile with a stride of one', () => {
    const img = noise(50, 40);
    for (const p of [0.1, 0.5, 0.9]) expect(gridPercentileOf(img, p, 1)).toBe(percentileOf(img.data, p, 1));
  });
});
