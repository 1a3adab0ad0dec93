import { describe, expect, it } from 'vitest';
import type { Affine } from './affine.js';
import type { GreyImage } from './image.js';
import { rectify, Scratch } from './sample.js';

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
