import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CardElementOf, CardLayout, CardSettingsInput } from '@zhzy/contracts';
import { renderCardPdf } from '../render/index.js';
import { questions, quizPaper } from '../testing/factories.js';
import { rasterize, requireTools } from '../testing/raster.js';
import { layoutCard } from './index.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-scorebox-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** One section of written questions with the given full scores, ids q1… */
function writtenPaper(scores: number[]) {
  return {
    id: 'paper-score',
    title: '先阅后扫',
    sections: [
      {
        title: '解答题',
        questions: questions(1, scores.length, (n) => ({ kind: 'written', score: scores[n - 1]! })),
      },
    ],
  };
}

function boxes(layout: CardLayout): CardElementOf<'scoreBox'>[] {
  return layout.pages.flatMap((p) => p.elements.filter((e) => e.type === 'scoreBox'));
}

const values = (box: CardElementOf<'scoreBox'>, role: string) =>
  box.rows.find((r) => r.role === role)?.cells.map((c) => c.value);

describe('score boxes in the layout', () => {
  it('sizes tick cells from the full score: tens 0…N/10 over units 0…9, with a 0.5 cell when half points are allowed', () => {
    const settings: CardSettingsInput = {
      scoreBoxes: {
        q1: { kind: 'tick', half: true },
        q2: { kind: 'tick' },
        q3: { kind: 'tally', half: true },
      },
    };
    const layout = layoutCard(writtenPaper([25, 8, 6]), settings);
    const [b1, b2, b3] = boxes(layout);
    expect(layout.warnings).toEqual([]);
    expect(b1).toMatchObject({ questionId: 'q1', kind: 'tick', fullScore: 25 });
    expect(values(b1!, 'tens')).toEqual([0, 10, 20]);
    expect(values(b1!, 'units')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(values(b1!, 'half')).toEqual([0.5]);
    // Below 10 a tick box is one row 0…N; a tally box always is.
    expect(b2!.rows.map((r) => r.role)).toEqual(['units']);
    expect(values(b2!, 'units')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(values(b3!, 'units')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(values(b3!, 'half')).toEqual([0.5]);
  });

  it('puts each box as a strip right above its written box, cells apart, inside the strip', () => {
    const layout = layoutCard(writtenPaper([25]), { scoreBoxes: { q1: { kind: 'tick', half: true } } });
    const els = layout.pages[0]!.elements;
    const box = boxes(layout)[0]!;
    const written = els.find((e) => e.type === 'writtenBox')!;
    expect(written.rect.y).toBeCloseTo(box.rect.y + box.rect.h, 2);
    expect(written.rect.x).toBe(box.rect.x);
    const cells = box.rows.flatMap((r) => r.cells.map((c) => c.rect));
    for (const c of cells) {
      expect(c.x).toBeGreaterThanOrEqual(box.rect.x);
      expect(c.x + c.w).toBeLessThanOrEqual(box.rect.x + box.rect.w);
      expect(c.y).toBeGreaterThanOrEqual(box.rect.y);
      expect(c.y + c.h).toBeLessThanOrEqual(box.rect.y + box.rect.h);
      expect(c.w).toBeGreaterThanOrEqual(5);
      // No two cells touch: a tick in one never reaches into the next within 0.9 mm.
      for (const d of cells) {
        if (d === c) continue;
        const apart = Math.max(d.x - (c.x + c.w), c.x - (d.x + d.w), d.y - (c.y + c.h), c.y - (d.y + d.h));
        expect(apart).toBeGreaterThanOrEqual(0.9);
      }
    }
    // The 0.5 cell stands on the units line, after it.
    const units = box.rows.find((r) => r.role === 'units')!.cells;
    const half = box.rows.find((r) => r.role === 'half')!.cells[0]!;
    expect(half.rect.y).toBe(units[0]!.rect.y);
    expect(half.rect.x).toBeGreaterThan(units.at(-1)!.rect.x);
  });

  it('warns instead of printing a box no cells can hold, and turns a large tally box into tick cells', () => {
    const layout = layoutCard(writtenPaper([120, 20]), {
      scoreBoxes: { q1: { kind: 'tick' }, q2: { kind: 'tally' } },
    });
    expect(boxes(layout).map((b) => [b.questionId, b.kind])).toEqual([['q2', 'tick']]);
    expect(layout.warnings.map((w) => [w.code, w.questionId])).toEqual([
      ['scoreBoxUnavailable', 'q1'],
      ['scoreBoxUnavailable', 'q2'],
    ]);
  });

  it('leaves cards without score boxes as they were', () => {
    expect(layoutCard(quizPaper())).toEqual(layoutCard(quizPaper(), { scoreBoxes: {} }));
    expect(boxes(layoutCard(quizPaper()))).toEqual([]);
  });
});

describe('score boxes on paper', () => {
  it('prints every cell as a light grey frame with a light digit, so a red tick stands out on a grey scan', async () => {
    requireTools(['pdftoppm']);
    const layout = layoutCard(writtenPaper([25]), { scoreBoxes: { q1: { kind: 'tick', half: true } } });
    const file = path.join(tmp, 'score.pdf');
    await renderCardPdf(layout, { output: fs.createWriteStream(file) });
    const dpi = 300;
    const image = (await rasterize(file, { dpi, first: 1, last: 1 }))[0]!.image;
    const at = (xMm: number, yMm: number) =>
      image.data[Math.round((yMm * dpi) / 25.4) * image.width + Math.round((xMm * dpi) / 25.4)]!;
    for (const row of boxes(layout)[0]!.rows) {
      for (const c of row.cells) {
        let darkest = 255;
        let frame = 255;
        for (let y = c.rect.y - 0.3; y <= c.rect.y + c.rect.h + 0.3; y += 0.05)
          for (let x = c.rect.x - 0.3; x <= c.rect.x + c.rect.w + 0.3; x += 0.05)
            darkest = Math.min(darkest, at(x, y));
        for (let x = c.rect.x + 1; x < c.rect.x + c.rect.w - 1; x += 0.05)
          frame = Math.min(frame, at(x, c.rect.y + 0.08));
        // Printed (the frame is there) but never darker than light grey.
        expect(frame).toBeLessThan(225);
        expect(darkest).toBeGreaterThan(150);
      }
    }
  });
});
