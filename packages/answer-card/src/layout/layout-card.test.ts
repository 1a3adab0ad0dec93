import { describe, expect, it } from 'vitest';
import {
  CARD_PAGE_MM,
  CardLayoutSchema,
  CardSettingsSchema,
  PRINTER_MARGIN_MM,
  type CardElement,
  type CardLayout,
  type CardPaperInput,
  type CardSettingsInput,
} from '@zhzy/contracts';
import { claimedRect, contains, innerRects, overlaps } from '../testing/geometry.js';
import { questions, quizPaper, samplePaper, twoPageA3Paper } from '../testing/factories.js';
import legacyQuizA4 from '../testing/legacy/quiz-a4-2026-11.json' with { type: 'json' };
import { layoutCard } from './layout-card.js';
import { CARD_METRICS } from './index.js';
import { writtenLines } from './items.js';

const CONFIGS: { name: string; settings: CardSettingsInput }[] = [
  { name: 'A4 one column', settings: { size: 'A4' } },
  { name: 'A3 two columns', settings: { size: 'A3', columns: 2 } },
  { name: 'A3 three columns', settings: { size: 'A3', columns: 3 } },
  { name: 'B4 two columns', settings: { size: 'B4', columns: 2 } },
  { name: '16k one column', settings: { size: '16k' } },
];
const IDENTITIES = ['qr', 'bubbles', 'barcode'] as const;
const PAPERS: [string, () => CardPaperInput][] = [
  ['the sample paper', samplePaper],
  ['the long A3 paper', twoPageA3Paper],
  ['the 12-question quiz', quizPaper],
];

const cases = CONFIGS.flatMap((c) =>
  IDENTITIES.flatMap((identity) =>
    PAPERS.map(([paperName, paper]) => ({
      label: `${c.name}, ${identity}, ${paperName}`,
      paper: paper(),
      settings: { ...c.settings, identity, studentNumberDigits: 12 },
    })),
  ),
);

/** Question ids of every answer area, in the order a reader meets them (page, column, top to bottom). */
function answerOrder(layout: CardLayout): string[] {
  const placed: { page: number; x: number; y: number; ids: string[] }[] = [];
  for (const page of layout.pages) {
    for (const e of page.elements) {
      const ids = answerIds(e);
      if (ids.length) placed.push({ page: page.index, x: e.rect.x, y: e.rect.y, ids });
    }
  }
  const { contentInsetX: inset, columnGap: gap } = CARD_METRICS;
  const columnW = (layout.pages[0]!.widthMm - 2 * inset - gap * (layout.columns - 1)) / layout.columns;
  const columnOf = (x: number) => Math.floor((x - inset + gap / 2) / (columnW + gap));
  placed.sort((a, b) => a.page - b.page || columnOf(a.x) - columnOf(b.x) || a.y - b.y || a.x - b.x);
  return placed.flatMap((p) => p.ids);
}

function answerIds(e: CardElement): string[] {
  if (e.type === 'objectiveBlock') return e.rows.map((r) => r.questionId);
  if (e.type === 'blank') return [e.questionId];
  if (e.type === 'writtenBox' && !e.optionalGroup) return e.questionIds;
  if (e.type === 'optionalChoice') return e.bubbles.map((b) => b.questionId);
  return [];
}

describe.each(cases)('layoutCard: $label', ({ paper, settings }) => {
  const layout = layoutCard(paper, settings);

  it('keeps elements apart: no two overlap, QR quiet zones included, and every part lies inside its element', () => {
    for (const page of layout.pages) {
      const els = page.elements;
      for (let i = 0; i < els.length; i++) {
        for (let j = i + 1; j < els.length; j++) {
          expect(overlaps(claimedRect(els[i]!), claimedRect(els[j]!)), `${els[i]!.id} × ${els[j]!.id}`).toBe(
            false,
          );
        }
        const parts = innerRects(els[i]!);
        for (const r of parts) expect(contains(els[i]!.rect, r), `${els[i]!.id} part`).toBe(true);
        for (let a = 0; a < parts.length; a++) {
          for (let b = a + 1; b < parts.length; b++) {
            expect(overlaps(parts[a]!, parts[b]!), `${els[i]!.id} parts ${a} × ${b}`).toBe(false);
          }
        }
      }
    }
  });

  it('keeps everything inside the printable area and inside the anchors', () => {
    for (const page of layout.pages) {
      const printable = {
        x: PRINTER_MARGIN_MM,
        y: PRINTER_MARGIN_MM,
        w: page.widthMm - 2 * PRINTER_MARGIN_MM,
        h: page.heightMm - 2 * PRINTER_MARGIN_MM,
      };
      const anchors = page.elements.filter((e) => e.type === 'anchor');
      const hull = {
        x: Math.min(...anchors.map((a) => a.rect.x)),
        y: Math.min(...anchors.map((a) => a.rect.y)),
        w: 0,
        h: 0,
      };
      hull.w = Math.max(...anchors.map((a) => a.rect.x + a.rect.w)) - hull.x;
      hull.h = Math.max(...anchors.map((a) => a.rect.y + a.rect.h)) - hull.y;
      for (const e of page.elements) {
        expect(contains(printable, claimedRect(e)), e.id).toBe(true);
        expect(contains(hull, claimedRect(e)), `${e.id} within the anchors`).toBe(true);
      }
    }
  });

  it('puts a solid anchor in each corner, at least 5 mm inside the printable area', () => {
    for (const page of layout.pages) {
      const anchors = page.elements.filter((e) => e.type === 'anchor');
      expect(anchors.map((a) => a.corner).sort()).toEqual(['bl', 'br', 'tl', 'tr']);
      for (const a of anchors) {
        const r = a.rect;
        expect(r.w).toBe(r.h);
        expect(
          Math.min(r.x, r.y, page.widthMm - r.x - r.w, page.heightMm - r.y - r.h),
        ).toBeGreaterThanOrEqual(PRINTER_MARGIN_MM + 5);
        const right = a.corner.endsWith('r');
        const bottom = a.corner.startsWith('b');
        expect(right ? r.x > page.widthMm / 2 : r.x < page.widthMm / 2).toBe(true);
        expect(bottom ? r.y > page.heightMm / 2 : r.y < page.heightMm / 2).toBe(true);
      }
      expect(page.widthMm).toBe(CARD_PAGE_MM[layout.size].width);
    }
  });

  it('places every question exactly once, in reading order', () => {
    const expected = paper.sections.flatMap((s) => s.questions.map((q) => q.id));
    const order = answerOrder(layout);
    expect([...order].sort()).toEqual([...expected].sort());
    expect(order).toEqual(expected);
  });

  it('gives every page one QR code naming the card, version and page', () => {
    for (const page of layout.pages) {
      const qrs = page.elements.filter((e) => e.type === 'qr');
      expect(qrs).toHaveLength(1);
      expect(qrs[0]!.payload).toEqual({
        cardId: layout.cardId,
        version: layout.version,
        page: page.index + 1,
      });
    }
  });

  it('is deterministic and survives a JSON round trip through the schema', () => {
    const again = layoutCard(paper, settings);
    expect(JSON.stringify(again)).toBe(JSON.stringify(layout));
    const parsed = CardLayoutSchema.parse(JSON.parse(JSON.stringify(layout)));
    expect(parsed).toEqual(layout);
  });
});

describe('layoutCard', () => {
  it('groups objective questions five to a block by default, and by the chosen size otherwise', () => {
    const paper = samplePaper();
    const blocks = (size: number) =>
      layoutCard(paper, { objectiveGroupSize: size })
        .pages.flatMap((p) => p.elements)
        .filter((e) => e.type === 'objectiveBlock')
        .map((b) => b.rows.length);
    expect(blocks(5)).toEqual([5, 3, 3, 5]);
    expect(blocks(4)).toEqual([4, 4, 3, 4, 1]);
  });

  it('offers A to G for a seven-option question and ✓ ✗ for true/false', () => {
    const paper = samplePaper({
      sections: [
        {
          title: '一、选择题',
          questions: [
            { id: 'a', number: '1', kind: 'single', options: 7, score: 3 },
            { id: 'b', number: '2', kind: 'truefalse', score: 2 },
            { id: 'c', number: '3', kind: 'multiple', score: 4 },
          ],
        },
      ],
    });
    const rows = layoutCard(paper)
      .pages[0]!.elements.filter((e) => e.type === 'objectiveBlock')
      .flatMap((b) => b.rows);
    expect(rows.map((r) => r.bubbles.map((b) => b.option).join(''))).toEqual(['ABCDEFG', 'TF', 'ABCD']);
    expect(rows.map((r) => r.kind)).toEqual(['single', 'truefalse', 'multiple']);
  });

  it('sizes written boxes from the score, the lines hint and the explicit height, and lets the designer override', () => {
    const paper = samplePaper({
      sections: [
        {
          title: '一、解答题',
          questions: [
            { id: 'w1', number: '1', kind: 'written', score: 10 },
            { id: 'w2', number: '2', kind: 'written', score: 10, lines: 5 },
            { id: 'w3', number: '3', kind: 'written', score: 10, heightMm: 44 },
            { id: 'w4', number: '4', kind: 'written', score: 10 },
          ],
        },
      ],
    });
    const heights = layoutCard(paper, { writtenHeights: { w4: 33 } })
      .pages.flatMap((p) => p.elements)
      .filter((e) => e.type === 'writtenBox')
      .map((e) => e.rect.h);
    expect(heights).toEqual([55, 47, 44, 33]);
  });

  it('labels written boxes with the number and score', () => {
    const box = layoutCard(samplePaper())
      .pages.flatMap((p) => p.elements)
      .find((e) => e.type === 'writtenBox');
    expect(box && 'label' in box ? box.label : '').toBe('21. (10分)');
  });

  it('gives an optional group one shared box under its choice bubbles', () => {
    const els = layoutCard(samplePaper()).pages.flatMap((p) => p.elements);
    const choice = els.find((e) => e.type === 'optionalChoice');
    const box = els.find((e) => e.type === 'writtenBox' && e.optionalGroup === 'g26');
    expect(choice?.type === 'optionalChoice' && choice.bubbles.map((b) => b.number)).toEqual(['26', '27']);
    expect(box?.type === 'writtenBox' && box.questionIds).toEqual(['q26', 'q27']);
    expect(box!.rect.y).toBeGreaterThan(choice!.rect.y + choice!.rect.h - 1e-9);
  });

  it('warns about a written box lower than the minimum', () => {
    const layout = layoutCard(samplePaper(), { writtenHeights: { q21: 12 } });
    expect(layout.warnings).toContainEqual(
      expect.objectContaining({ code: 'writtenBoxTooSmall', questionId: 'q21' }),
    );
    expect(layout.warnings.find((w) => w.code === 'writtenBoxTooSmall')!.message).toContain('第21题');
  });

  it('shrinks a box taller than a column to the column and warns', () => {
    const layout = layoutCard(samplePaper(), { size: 'A3', columns: 2, writtenHeights: { q22: 400 } });
    const box = layout.pages.flatMap((p) => p.elements).find((e) => e.id === 'written:q22')!;
    expect(box.rect.h).toBeLessThan(297 - 20);
    expect(layout.warnings).toContainEqual(
      expect.objectContaining({ code: 'writtenBoxTooTall', questionId: 'q22' }),
    );
  });

  it('warns when the card needs more pages than allowed, and keeps every page', () => {
    const layout = layoutCard(samplePaper(), { size: 'A4', maxPages: 1 });
    expect(layout.pages.length).toBeGreaterThan(1);
    expect(layout.warnings).toContainEqual(expect.objectContaining({ code: 'pageOverflow' }));
    expect(layoutCard(samplePaper(), { size: 'A3', columns: 3 }).warnings).toEqual([]);
  });

  it('draws a student-number grid of the chosen digits only for bubble identity, a sticker zone only for barcode', () => {
    const types = (identity: 'qr' | 'bubbles' | 'barcode') =>
      new Set(
        layoutCard(samplePaper(), { identity, studentNumberDigits: 10 }).pages[0]!.elements.map(
          (e) => e.type,
        ),
      );
    const grid = layoutCard(samplePaper(), {
      identity: 'bubbles',
      studentNumberDigits: 10,
    }).pages[0]!.elements.find((e) => e.type === 'studentNumberGrid');
    expect(
      grid?.type === 'studentNumberGrid' && [grid.digits, grid.bubbles.length, grid.boxes.length],
    ).toEqual([10, 100, 10]);
    expect(types('bubbles').has('barcodeZone')).toBe(false);
    expect(types('barcode').has('barcodeZone')).toBe(true);
    expect(types('barcode').has('studentNumberGrid')).toBe(false);
    expect(types('qr').has('studentNumberGrid')).toBe(false);
  });

  it('prints the erase rule and the fill examples on the card', () => {
    const ins = layoutCard(samplePaper()).pages[0]!.elements.find((e) => e.type === 'instructions');
    expect(ins?.type === 'instructions' && ins.lines.join('')).toContain('修改时用橡皮擦干净后重新填涂');
    expect(ins?.type === 'instructions' && ins.examples.map((e) => e.kind)).toEqual([
      'correct',
      'tick',
      'cross',
      'dot',
      'line',
    ]);
  });

  it('puts the sealing line on the binding side of every page and the page count in every footer', () => {
    const layout = layoutCard(twoPageA3Paper(), { size: 'A3', columns: 2 });
    const [p1, p2] = layout.pages;
    const seal = (p: typeof p1) => p!.elements.find((e) => e.type === 'sealingLine')!;
    expect(seal(p1).rect.x).toBeLessThan(20);
    expect(seal(p2).rect.x).toBeGreaterThan(400);
    const footer = p2!.elements.find((e) => e.type === 'footer');
    expect(footer?.type === 'footer' && footer.text).toContain('第2页（共2页）');
    expect(
      layoutCard(samplePaper(), { sealingLine: false }).pages[0]!.elements.some(
        (e) => e.type === 'sealingLine',
      ),
    ).toBe(false);
  });

  it('takes the card id and version from the options', () => {
    const layout = layoutCard(samplePaper(), {}, { cardId: 'card-9', version: 4 });
    expect([layout.cardId, layout.version]).toEqual(['card-9', 4]);
    expect(layout.pages[0]!.elements.find((e) => e.type === 'qr')).toMatchObject({
      payload: { cardId: 'card-9', version: 4, page: 1 },
    });
  });

  it('refuses column counts a size does not allow, in Chinese', () => {
    expect(CardSettingsSchema.safeParse({ size: 'A4', columns: 2 }).error?.issues[0]?.message).toBe(
      'A4 答题卡只能分 1 栏',
    );
    expect(CardSettingsSchema.safeParse({ size: 'A3', columns: 1 }).success).toBe(false);
    expect(CardSettingsSchema.safeParse({ size: 'B4', columns: 3 }).success).toBe(false);
    expect(() => layoutCard(samplePaper(), { size: 'A4', columns: 3 })).toThrow();
  });

  it('refuses a paper with the same question id twice', () => {
    const paper = samplePaper({
      sections: [
        {
          title: '一',
          questions: [
            ...questions(1, 2, () => ({ kind: 'single' })),
            ...questions(1, 1, () => ({ kind: 'single' })),
          ],
        },
      ],
    });
    expect(() => layoutCard(paper)).toThrow(/题目编号重复/);
  });

  it('flows a long paper over columns and pages, column by column', () => {
    const paper = samplePaper({
      sections: [
        { title: '一、解答题', questions: questions(1, 12, () => ({ kind: 'written', heightMm: 80 })) },
      ],
    });
    const layout = layoutCard(paper, { size: 'A3', columns: 3 });
    const boxes = layout.pages.map((p) => p.elements.filter((e) => e.type === 'writtenBox').length);
    expect(boxes.reduce((a, b) => a + b, 0)).toBe(12);
    expect(layout.pages.length).toBe(2);
    // Column one of page one holds the header, so fewer boxes; the others are full.
    const perColumn = layout.pages[0]!.elements.filter((e) => e.type === 'writtenBox').reduce<
      Record<number, number>
    >((acc, e) => ({ ...acc, [Math.round(e.rect.x)]: (acc[Math.round(e.rect.x)] ?? 0) + 1 }), {});
    expect(Object.values(perColumn)).toEqual([2, 3, 3]);
  });
});

describe('layoutCard: compact packing', () => {
  const { writtenHeaderH: head, writtenLinePitch: pitch } = CARD_METRICS;
  const all = (layout: CardLayout) => layout.pages.flatMap((p) => p.elements);
  const boxes = (layout: CardLayout) => all(layout).filter((e) => e.type === 'writtenBox');
  const linesOf = (h: number) => (h - head) / pitch;

  it('fits the 12-question quiz on one A4 page, which the old packing spread over two', () => {
    const layout = layoutCard(quizPaper(), { size: 'A4', identity: 'qr' });
    expect(layout.pages).toHaveLength(1);
    expect(layout.warnings).toEqual([]);
    const footer = layout.pages[0]!.elements.find((e) => e.type === 'footer');
    expect(footer?.type === 'footer' && footer.text).toContain('第1页（共1页）');
    // The same quiz as stored by the old packing: two pages, the second holding one 95 mm box and nothing else.
    const old = CardLayoutSchema.parse(legacyQuizA4);
    expect(old.pages).toHaveLength(2);
    expect(old.pages[1]!.elements.filter((e) => e.type === 'writtenBox').map((e) => e.rect.h)).toEqual([95]);
  });

  it('shrinks score-sized boxes only as far as it takes to save the page, never below their least lines', () => {
    const layout = layoutCard(quizPaper(), { size: 'A4', identity: 'qr' });
    const { preferred, least } = writtenLines(20);
    for (const box of boxes(layout)) {
      expect(Number.isInteger(linesOf(box.rect.h)), box.id).toBe(true);
      expect(linesOf(box.rect.h)).toBeGreaterThanOrEqual(least);
      expect(linesOf(box.rect.h)).toBeLessThan(preferred);
    }
    // With room to spare (A3) the same boxes keep their preferred lines.
    const a3 = layoutCard(quizPaper(), { size: 'A3', identity: 'qr' });
    expect(boxes(a3).map((b) => linesOf(b.rect.h))).toEqual([preferred, preferred]);
    // A quiz that cannot fit on one page even at the least keeps its preferred boxes.
    const bubbles = layoutCard(quizPaper(), { size: 'A4', identity: 'bubbles' });
    expect(bubbles.pages).toHaveLength(2);
    expect(boxes(bubbles).map((b) => linesOf(b.rect.h))).toEqual([preferred, preferred]);
  });

  it('sizes written boxes by the score in whole lines: a small question a small box, a big one a big box', () => {
    const paper = samplePaper({
      sections: [
        {
          title: '一、解答题',
          questions: [
            { id: 'w1', number: '1', kind: 'written', score: 4 },
            { id: 'w2', number: '2', kind: 'written', score: 10 },
            { id: 'w3', number: '3', kind: 'written', score: 20 },
          ],
        },
      ],
    });
    const heights = boxes(layoutCard(paper, { size: 'A3' })).map((b) => b.rect.h);
    expect(heights).toEqual([head + 3 * pitch, head + 6 * pitch, head + 11 * pitch]);
    expect(heights).toEqual([...heights].sort((a, b) => a - b));
    expect([writtenLines(4), writtenLines(10), writtenLines(20), writtenLines(60)]).toEqual([
      { preferred: 3, least: 3 },
      { preferred: 6, least: 4 },
      { preferred: 11, least: 6 },
      { preferred: 14, least: 8 },
    ]);
  });

  it('never shrinks a box whose height the paper or the teacher set', () => {
    const paper = quizPaper();
    paper.sections[2] = {
      title: '三、解答题',
      questions: [
        { id: 'q11', number: '11', kind: 'written', score: 20, lines: 12 },
        { id: 'q12', number: '12', kind: 'written', score: 20 },
      ],
    };
    const fixed = boxes(layoutCard(paper, { size: 'A4' }));
    expect(fixed[0]!.rect.h).toBe(head + 12 * pitch);
    const dragged = boxes(layoutCard(quizPaper(), { size: 'A4', writtenHeights: { q12: 90 } }));
    expect(dragged[1]!.rect.h).toBe(90);
  });

  it('uses both columns of an A3 card for the quiz, their bottoms level within one box', () => {
    const layout = layoutCard(quizPaper(), { size: 'A3', identity: 'qr' });
    expect(layout.pages).toHaveLength(1);
    const answers = layout.pages[0]!.elements.filter((e) =>
      ['objectiveBlock', 'blank', 'writtenBox', 'sectionHeader'].includes(e.type),
    );
    const mid = layout.pages[0]!.widthMm / 2;
    const left = answers.filter((e) => e.rect.x < mid);
    const right = answers.filter((e) => e.rect.x >= mid);
    expect(left.length).toBeGreaterThan(0);
    expect(right.some((e) => e.type === 'writtenBox')).toBe(true);
    const bottom = (els: CardElement[]) => Math.max(...els.map((e) => e.rect.y + e.rect.h));
    const tallest = Math.max(...answers.map((e) => e.rect.h));
    expect(Math.abs(bottom(left) - bottom(right))).toBeLessThan(tallest + CARD_METRICS.itemGap);
  });

  it('sets the blocks of short objective sections side by side, each under its own header', () => {
    const layout = layoutCard(samplePaper(), { size: 'A4' });
    const els = all(layout);
    const blockOf = (id: string) =>
      els.find((e) => e.type === 'objectiveBlock' && e.rows.some((r) => r.questionId === id))!;
    // 单选 (1–8) and 多选 (9–11) share a row; each header sits over its own blocks.
    expect(blockOf('q9').rect.y).toBe(blockOf('q1').rect.y);
    expect(blockOf('q9').rect.x).toBeGreaterThan(blockOf('q6').rect.x + blockOf('q6').rect.w);
    const headers = els.filter((e) => e.type === 'sectionHeader');
    expect(headers[1]!.rect.y).toBe(headers[0]!.rect.y);
    expect(headers[1]!.rect.x).toBeLessThanOrEqual(blockOf('q9').rect.x);
    // A section of blanks or written answers still spans the column.
    expect(headers[3]!.rect.w).toBeCloseTo(210 - 2 * CARD_METRICS.contentInsetX, 1);
  });

  it('leaves a stored layout of the old packing valid: it parses unchanged', () => {
    const stored = JSON.parse(JSON.stringify(legacyQuizA4)) as unknown;
    expect(CardLayoutSchema.parse(stored)).toEqual(legacyQuizA4);
  });
});
