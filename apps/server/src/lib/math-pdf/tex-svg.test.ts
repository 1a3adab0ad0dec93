import { describe, expect, it } from 'vitest';
import { loadFormulaTypesetter, sizedSvg, texBox } from './tex-svg.js';

describe('formulas typeset for PDFs', () => {
  it('loads MathJax only when a PDF asks for it; until then a formula is left to its linear text', async () => {
    expect(texBox('\\frac{1}{2}')).toBeNull();
    await loadFormulaTypesetter();
    const half = texBox('\\frac{1}{2}')!;
    const x = texBox('x')!;
    // A fraction stands above and below the baseline, higher and deeper than a letter.
    expect(half.height).toBeGreaterThan(x.height);
    expect(half.depth).toBeGreaterThan(x.depth);
    expect(half.width).toBeGreaterThan(0);
  });

  it('reports a formula it cannot read, and sizes and colours one it can', async () => {
    await loadFormulaTypesetter();
    expect(texBox('\\frac{1}{')).toBeNull();
    expect(texBox('\\notacommand{x}')).toBeNull();
    const box = texBox('\\sqrt{16}')!;
    const svg = sizedSvg(box, 11, '#1f4e9a');
    expect(svg).toContain(`width="${box.width * 11}"`);
    expect(svg).toContain('#1f4e9a');
    expect(svg).not.toContain('currentColor');
    expect(svg).not.toMatch(/ex"/);
  });
});
