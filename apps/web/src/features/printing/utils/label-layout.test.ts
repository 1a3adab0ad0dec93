import { describe, expect, it } from 'vitest';
import { LABEL_SHEETS, labelSheet, labelsPerSheet, layoutLabels, qrSideMm } from './label-layout';

describe('label sheets', () => {
  it('fits every sheet inside A4', () => {
    for (const s of LABEL_SHEETS) {
      const right = s.marginLeftMm + s.columns * s.labelWidthMm + (s.columns - 1) * s.gapXMm;
      const bottom = s.marginTopMm + s.rows * s.labelHeightMm + (s.rows - 1) * s.gapYMm;
      expect(right).toBeLessThanOrEqual(s.pageWidthMm + 1e-9);
      expect(bottom).toBeLessThanOrEqual(s.pageHeightMm + 1e-9);
      expect(qrSideMm(s)).toBeLessThan(s.labelHeightMm);
    }
  });

  it('puts 24 labels of 70 × 37 mm on an A4 3 × 8 sheet and starts a new sheet for the 25th', () => {
    const sheet = labelSheet('a4-3x8');
    expect(labelsPerSheet(sheet)).toBe(24);
    const pages = layoutLabels(sheet, 50);
    expect(pages.map((p) => p.labels.length)).toEqual([24, 24, 2]);
    expect(pages[0]!.labels[0]).toEqual({ item: 0, x: 0, y: 0.5, w: 70, h: 37 });
    expect(pages[0]!.labels[4]).toMatchObject({ x: 70, y: 37.5 });
    expect(pages[0]!.labels[23]).toMatchObject({ item: 23, x: 140, y: 0.5 + 7 * 37 });
    expect(pages[1]!.labels[0]).toMatchObject({ item: 24, x: 0, y: 0.5 });
  });

  it('lays 2 × 5 sheets out ten to a page', () => {
    const pages = layoutLabels(labelSheet('a4-2x5'), 40);
    expect(pages).toHaveLength(4);
    expect(pages.every((p) => p.labels.length === 10)).toBe(true);
    expect(pages[0]!.labels[9]).toMatchObject({ x: 105, y: 6 + 4 * 57 });
  });

  it('skips the used labels of a partly used first sheet', () => {
    const pages = layoutLabels(labelSheet('a4-3x8'), 40, 5);
    expect(pages.map((p) => p.labels.length)).toEqual([19, 21]);
    expect(pages[0]!.labels[0]).toMatchObject({ item: 0, x: 140, y: 37.5 });
    expect(layoutLabels(labelSheet('a4-3x8'), 3, 24).map((p) => p.labels.length)).toEqual([3]);
  });

  it('has no page for no items', () => {
    expect(layoutLabels(labelSheet('a4-4x10'), 0)).toEqual([]);
  });
});
