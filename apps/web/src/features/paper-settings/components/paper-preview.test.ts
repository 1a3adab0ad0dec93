import { describe, expect, it } from 'vitest';
import { PaperSettingsSchema } from '@zhzy/contracts';
import { packColumns, pageGeometry } from './paper-preview';

describe('paper preview layout', () => {
  it('packs blocks into columns in order, a tall block alone', () => {
    expect(packColumns([40, 50, 20, 90, 300, 10], 100)).toEqual([[0, 1], [2], [3], [4], [5]]);
    expect(packColumns([], 100)).toEqual([]);
  });

  it('prints A3 and B4 landscape in two columns, A4 portrait in one, unless told otherwise', () => {
    const a4 = pageGeometry(PaperSettingsSchema.parse({}));
    const a3 = pageGeometry(PaperSettingsSchema.parse({ paperSize: 'A3' }));
    const a3one = pageGeometry(PaperSettingsSchema.parse({ paperSize: 'A3', columns: 1 }));
    expect(a4.columns).toBe(1);
    expect(a4.height).toBeGreaterThan(a4.width);
    expect(a3.columns).toBe(2);
    expect(a3.width).toBeGreaterThan(a3.height);
    expect(a3one.columns).toBe(1);
    expect(a3one.height).toBeGreaterThan(a3one.width);
    // Wider margins leave less room.
    const wide = pageGeometry(PaperSettingsSchema.parse({ margins: { left: 40 } }));
    expect(wide.columnWidth).toBeLessThan(a4.columnWidth);
  });
});
