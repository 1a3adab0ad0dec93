import { describe, expect, it } from 'vitest';
import type { CardLayout, ColorMode, ScoreReading } from '@zhzy/contracts';
import { layoutCard } from '@zhzy/answer-card';
import { recognisePage } from '@zhzy/answer-card/recognise';
import { Random } from '../src/scanners/virtual/random.js';
import { decideSheet, demoStudents, renderSheetPage } from '../src/scanners/virtual/sheet.js';

// 先阅后扫 (ADR 0065): the virtual scanner's teacher marks the score boxes in red, and the recogniser reads back the
// scores the teacher gave, from a colour scan and from a grey one.

function markedCard(): CardLayout {
  const scores = [12, 8, 6, 25, 10];
  return layoutCard(
    {
      id: 'paper-teacher-marks',
      title: '先阅后扫 演示',
      sections: [
        {
          title: '解答题',
          questions: scores.map((score, i) => ({
            id: `q${i + 1}`,
            number: String(i + 1),
            kind: 'written' as const,
            score,
            heightMm: 20,
          })),
        },
      ],
    },
    {
      identity: 'bubbles',
      scoreBoxes: {
        q1: { kind: 'tick', half: true },
        q2: { kind: 'tally' },
        q3: { kind: 'tally', half: true },
        q4: { kind: 'tick' },
        q5: { kind: 'tick' },
      },
    },
    { cardId: 'card-teacher-marks', version: 1 },
  );
}

const layout = markedCard();
const read = async (image: Buffer) =>
  (await recognisePage(image, { resolve: () => Promise.resolve(layout), crops: { format: 'none' } })).result;

/** Every page of a sheet rendered as scanned and read: the score readings by question id. */
async function readAll(truth: ReturnType<typeof decideSheet>, colorMode: ColorMode, seed: number) {
  const out: Record<string, ScoreReading> = {};
  for (let p = 0; p < layout.pages.length; p++) {
    const page = await renderSheetPage(layout, p, truth, {
      dpi: 200,
      colorMode,
      rng: new Random(seed * 10 + p),
    });
    for (const s of (await read(page.image)).scores ?? []) out[s.questionId] = s;
  }
  return out;
}

describe('the virtual scanner marks score boxes as a teacher would', () => {
  it('gives every box a score within its full score, scripted ones as scripted, and ticks its cells', () => {
    const student = demoStudents(1)[0]!;
    const truth = decideSheet(layout, student, new Random(5), {}, null, { q2: 7, q5: 10 });
    expect(truth.teacher.map((m) => m.questionId)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    const byId = Object.fromEntries(truth.teacher.map((m) => [m.questionId, m]));
    expect(byId.q2!.score).toBe(7);
    expect(byId.q2!.cells).toHaveLength(1);
    expect(byId.q5!.score).toBe(10);
    // 10 on a tick box: the tens cell 10 and the units cell 0.
    expect(byId.q5!.cells).toHaveLength(2);
    const full: Record<string, number> = { q1: 12, q2: 8, q3: 6, q4: 25, q5: 10 };
    for (const m of truth.teacher) {
      expect(m.score).toBeGreaterThanOrEqual(0);
      expect(m.score).toBeLessThanOrEqual(full[m.questionId]!);
    }
    // The same class set unmarked answers the same (the teacher's marks have their own generator).
    const plain = decideSheet(layout, student, new Random(5));
    expect(plain.teacher).toEqual([]);
    expect(plain.answers).toEqual(truth.answers);
  });

  it.each<ColorMode>(['color', 'grey'])(
    'a %s scan of marked sheets reads back every score the teacher gave, and an unmarked one reads blank',
    async (colorMode) => {
      const students = demoStudents(3);
      for (let i = 0; i < students.length; i++) {
        const truth = decideSheet(
          layout,
          students[i]!,
          new Random(100 + i),
          {},
          null,
          i === 0 ? { q1: 11.5 } : {},
        );
        const scores = await readAll(truth, colorMode, 200 + i);
        for (const m of truth.teacher) {
          expect(scores[m.questionId]?.status, `${colorMode} sheet ${i} ${m.questionId}`).toBe('ok');
          expect(scores[m.questionId]?.score, `${colorMode} sheet ${i} ${m.questionId}`).toBe(m.score);
          expect(scores[m.questionId]?.colour).toBe(colorMode === 'color');
        }
      }
      const unmarked = decideSheet(layout, students[0]!, new Random(9));
      const blank = await readAll(unmarked, colorMode, 9);
      expect(Object.values(blank).map((s) => s.status)).toEqual([
        'blank',
        'blank',
        'blank',
        'blank',
        'blank',
      ]);
    },
    120_000,
  );
});
