// Render → scan → recognise round trips of the compact packing (ADR 0050): the one-page A4 quiz, the balanced A3
// card with side-by-side objective sections, and a layout stored by the old packing, which must still be read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardLayoutSchema, type CardLayout } from '@zhzy/contracts';
import { layoutCard } from '../layout/index.js';
import { quizPaper, samplePaper, students } from '../testing/factories.js';
import legacyQuizA4 from '../testing/legacy/quiz-a4-2026-11.json' with { type: 'json' };
import { requireTools } from '../testing/raster.js';
import { recognisePage } from './index.js';
import { makeSheet, renderFixture, type CardFixture, type Sheet } from './testing/corpus.js';
import { scorePage } from './testing/evaluate.js';

requireTools(['pdftoppm']);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-compact-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const CARDS: { name: string; layout: CardLayout }[] = [
  {
    name: 'quiz-a4',
    layout: layoutCard(quizPaper(), { size: 'A4', identity: 'qr' }, { cardId: 'card-quiz-a4', version: 1 }),
  },
  {
    name: 'sample-a3',
    layout: layoutCard(samplePaper(), { size: 'A3', columns: 2 }, { cardId: 'card-sample-a3', version: 2 }),
  },
  // Stored before the compact packing: two pages, frozen JSON read back as the host reads it.
  { name: 'legacy-quiz-a4', layout: CardLayoutSchema.parse(legacyQuizA4) },
];

const fixtures = new Map<string, CardFixture>();
const sheets: Sheet[] = [];

beforeAll(async () => {
  let seed = 1;
  for (const { name, layout } of CARDS) {
    const fixture = await renderFixture(tmp, name, layout, students(2, 5));
    fixtures.set(layout.cardId, fixture);
    for (const page of layout.pages) {
      sheets.push(
        await makeSheet(tmp, {
          name: `${name}-p${page.index + 1}`,
          fixture,
          copy: 1,
          page: page.index,
          dpi: 200,
          plan: { mix: { fill: 1, dark: 1 }, blankChance: 0.1, writeChance: 0.7 },
          distortion: { rotateDeg: 0.8, scale: 0.98, noise: 6, format: 'jpeg', quality: 85 },
          seed: seed++,
        }),
      );
    }
  }
}, 240_000);

describe('compact cards, scanned', () => {
  it('prints the quiz on one A4 page and the sample on one A3 page, while the stored layout keeps its two', () => {
    expect(CARDS.map((c) => c.layout.pages.length)).toEqual([1, 1, 2]);
    expect(sheets).toHaveLength(4);
  });

  it('reads every page back: its card, page and student, and every bubble', async () => {
    let questions = 0;
    for (const sheet of sheets) {
      const read = await recognisePage(sheet.bytes, {
        resolve: (id) => fixtures.get(id)?.layout,
        crops: { format: 'none' },
      });
      const score = scorePage(sheet.truth, read.result);
      expect(read.result.status, sheet.name).not.toBe('failed');
      expect(score.identityRight, sheet.name).toBe(true);
      expect(score.silentlyWrong, sheet.name).toEqual([]);
      expect(score.clearMissed, sheet.name).toEqual([]);
      expect(score.bubblesWrong, sheet.name).toBe(0);
      expect(score.questions, sheet.name).toBe(sheet.truth.marks.length);
      questions += score.questionsRight;
    }
    // 8 + 17 + 8 objective questions (the 选做 choice counts as one), every one read right.
    expect(questions).toBe(33);
  });

  it('cuts one written area per box of the page, blank or written as the student left it', async () => {
    for (const sheet of sheets) {
      const read = await recognisePage(sheet.bytes, { resolve: (id) => fixtures.get(id)?.layout });
      const score = scorePage(sheet.truth, read.result);
      const page = fixtures.get(sheet.truth.cardId)!.layout.pages[sheet.truth.page - 1]!;
      const areas = page.elements.filter((e) => e.type === 'writtenBox' || e.type === 'blank').length;
      expect(score.crops, sheet.name).toBe(areas);
      expect(score.cropsRight, sheet.name).toBe(score.crops);
    }
  });
});
