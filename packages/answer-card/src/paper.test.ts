import { describe, expect, it } from 'vitest';
import { PAPER_PIXEL_SIZES } from '@zhzy/contracts';
import { mmToPt, mmToPx, paperPixels, pxToMm } from './paper.js';

describe('paper geometry', () => {
  it('matches the pixel sizes SPEC fixes for a 300 dpi scan (within 3 px, a quarter millimetre)', () => {
    for (const name of ['A4', '16k', 'B5'] as const) {
      const px = paperPixels(name, 300);
      expect(Math.abs(px.width - PAPER_PIXEL_SIZES[name].width), name).toBeLessThanOrEqual(3);
      expect(Math.abs(px.height - PAPER_PIXEL_SIZES[name].height), name).toBeLessThanOrEqual(3);
    }
  });

  it('converts millimetres to pixels and back without drift', () => {
    expect(mmToPx(25.4, 300)).toBe(300);
    expect(pxToMm(mmToPx(123.4, 200), 200)).toBeCloseTo(123.4, 10);
  });

  it('converts millimetres to PDF points', () => {
    expect(mmToPt(210)).toBeCloseTo(595.28, 2);
  });
});
