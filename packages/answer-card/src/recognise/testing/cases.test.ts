import { describe, expect, it } from 'vitest';
import { layoutCard } from '../../layout/index.js';
import { samplePaper } from '../../testing/factories.js';
import type { GreyImage } from '../image.js';
import { CLASS_RATES, corpusCase, randomCase, realisticCase } from './cases.js';
import { fillPage, seeded, type MarkTruth } from './corpus.js';

describe('the realistic accuracy corpus (a class as it comes)', () => {
  const layout = layoutCard(
    samplePaper(),
    { size: 'A4', identity: 'qr' },
    { cardId: 'card-a4-qr', version: 1 },
  );
  const page = layout.pages[0]!;
  const dpi = 50;
  const white = (): GreyImage => {
    const width = Math.ceil((page.widthMm / 25.4) * dpi);
    const height = Math.ceil((page.heightMm / 25.4) * dpi);
    return { width, height, data: new Uint8Array(width * height).fill(255) };
  };

  it('marks as a class of 2B pencils does: nearly all proper fills, a few odd, erased or blank answers', () => {
    const marks: MarkTruth[] = [];
    for (let seed = 0; seed < 300; seed++) {
      const plan = realisticCase(seed).spec.plan!;
      if (plan.mix !== CLASS_RATES.mix) continue;
      marks.push(...fillPage(white(), dpi, page, plan, seeded(seed)).marks);
    }
    const answered = marks.filter((m) => m.intended);
    const styles = answered.flatMap((m) => [...m.intended].map((o) => m.styles[o]));
    const share = (xs: unknown[], f: (x: never) => boolean) => xs.filter(f as never).length / xs.length;
    expect(answered.length).toBeGreaterThan(3000);
    expect(share(styles, (s) => s === 'fill' || s === 'dark')).toBeGreaterThan(0.97);
    expect(share(styles, (s) => s === 'light')).toBeGreaterThan(0.003);
    expect(share(styles, (s) => s === 'light')).toBeLessThan(0.02);
    expect(share(marks, (m: MarkTruth) => !m.intended)).toBeLessThan(0.04);
    const erased = answered.filter((m) => Object.values(m.styles).includes('erased'));
    expect(erased.length / answered.length).toBeGreaterThan(0.015);
    expect(erased.length / answered.length).toBeLessThan(0.05);
    // An erased earlier choice always sits beside the answer that replaced it, never on it.
    for (const m of erased) {
      const [option] = Object.entries(m.styles).find(([, s]) => s === 'erased')!;
      expect(m.intended).not.toContain(option);
    }
  });

  it('puts stray lines only off the printed elements', () => {
    let strayPages = 0;
    for (let seed = 0; seed < 40; seed++) {
      const img = white();
      const before = white();
      fillPage(before, dpi, page, { ...CLASS_RATES, strayChance: 0 }, seeded(seed));
      fillPage(img, dpi, page, { ...CLASS_RATES, strayChance: 1 }, seeded(seed));
      const k = dpi / 25.4;
      let changed = 0;
      for (let i = 0; i < img.data.length; i++) {
        if (img.data[i] === before.data[i]) continue;
        changed++;
        const x = (i % img.width) / k;
        const y = Math.floor(i / img.width) / k;
        const on = page.elements.some(
          (e) => x >= e.rect.x && x <= e.rect.x + e.rect.w && y >= e.rect.y && y <= e.rect.y + e.rect.h,
        );
        expect(on).toBe(false);
      }
      if (changed) strayPages++;
    }
    expect(strayPages).toBeGreaterThan(30);
  });

  it('shares the stress corpus’s cards and damage, and draws no light marks a 1-bit threshold would erase', () => {
    for (let seed = 0; seed < 200; seed++) {
      const c = realisticCase(seed);
      const twin = randomCase(seed + 500_000);
      expect(c.spec.distortion).toEqual(twin.spec.distortion);
      expect(c.spec.fixture).toBe(twin.spec.fixture);
      if (c.spec.distortion?.threshold !== undefined) expect(c.spec.plan?.mix?.light).toBeUndefined();
      expect(corpusCase(`class-${seed}`)).toEqual(c);
    }
  });
});
