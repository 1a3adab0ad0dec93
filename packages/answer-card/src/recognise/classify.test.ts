import { describe, expect, it } from 'vitest';
import type { RawMarks } from '@zhzy/contracts';
import { classifyMarks } from './classify.js';

/** Raw bubbles: empty ones at the printed label's level, the rest given as [ratio, core]. */
function question(
  id: string,
  kind: 'single' | 'multiple' | 'truefalse',
  marks: Record<string, [number, number]>,
  options = 'ABCD',
) {
  const labels = kind === 'truefalse' ? ['T', 'F'] : [...options];
  return {
    questionId: id,
    number: id.slice(1),
    kind,
    bubbles: labels.map((option) => {
      const [ratio, core] = marks[option] ?? [0.06, 0.04];
      return { option, ratio, core };
    }),
  };
}

const DARK: [number, number] = [0.6, 0.9];
const FILL: [number, number] = [0.45, 0.35];
const TICK: [number, number] = [0.19, 0.18];
const LIGHT: [number, number] = [0.27, 0.08];
const ERASED: [number, number] = [0.12, 0.05];

function page(extra: RawMarks['questions'] = []): RawMarks {
  return {
    questions: [
      question('q1', 'single', { A: DARK }),
      question('q2', 'single', { B: FILL }),
      question('q3', 'single', { C: DARK }),
      question('q4', 'single', { D: FILL }),
      question('q5', 'truefalse', { T: DARK }),
      ...extra,
    ],
  };
}

const mark = (raw: RawMarks, id: string) => classifyMarks(raw).marks.find((m) => m.questionId === id)!;

describe('classifyMarks', () => {
  it('reads clear fills and leaves empty bubbles empty, with high confidence', () => {
    const c = classifyMarks(page());
    expect(c.marks.map((m) => m.chosen)).toEqual(['A', 'B', 'C', 'D', 'T']);
    expect(c.marks.every((m) => m.status === 'ok' && m.confidence >= 0.5)).toBe(true);
    expect(c.problems).toEqual([]);
  });

  it('sends ticks and light fills to a person instead of reading them as blank', () => {
    const raw = page([question('q6', 'single', { B: TICK }), question('q7', 'single', { C: LIGHT })]);
    for (const id of ['q6', 'q7']) {
      expect(mark(raw, id).status).toBe('uncertain');
      expect(mark(raw, id).confidence).toBeLessThan(0.5);
    }
    const c = classifyMarks(raw);
    expect(c.problems).toEqual([
      expect.objectContaining({ code: 'uncertainMark', level: 'item', questionIds: ['q6', 'q7'] }),
    ]);
    expect(c.uncertain.map((u) => u.message)).toEqual([
      expect.stringMatching(/^第6题/),
      expect.stringMatching(/^第7题/),
    ]);
  });

  it('treats faint erasure residue as empty, and a weak mark beside a dark one as uncertain', () => {
    expect(mark(page([question('q6', 'single', { A: ERASED, C: DARK })]), 'q6')).toMatchObject({
      status: 'ok',
      chosen: 'C',
    });
    const poorErasure = mark(page([question('q6', 'multiple', { A: [0.2, 0.1], C: [0.7, 0.97] })]), 'q6');
    expect(poorErasure.status).toBe('uncertain');
  });

  it('flags several marks on a single choice or a true/false, never on a multiple choice', () => {
    const raw = page([
      question('q6', 'single', { A: DARK, C: FILL }),
      question('q7', 'truefalse', { T: DARK, F: DARK }),
      question('q8', 'multiple', { A: DARK, B: FILL, D: DARK }),
    ]);
    expect(mark(raw, 'q6')).toMatchObject({ status: 'multiple', chosen: 'AC' });
    expect(mark(raw, 'q7')).toMatchObject({ status: 'multiple', chosen: 'TF' });
    expect(mark(raw, 'q8')).toMatchObject({ status: 'ok', chosen: 'ABD' });
    const c = classifyMarks(raw);
    expect(c.problems.find((p) => p.code === 'multipleMarks')!.questionIds).toEqual(['q6', 'q7']);
  });

  it('reports a blank question as blank, not as a problem', () => {
    expect(mark(page([question('q6', 'single', {})]), 'q6')).toMatchObject({ status: 'blank', chosen: '' });
  });

  it('adapts to a student who marks lightly throughout, keeping ticks uncertain', () => {
    const soft: [number, number] = [0.24, 0.1];
    const raw: RawMarks = {
      questions: [
        question('q1', 'single', { A: soft }),
        question('q2', 'single', { B: soft }),
        question('q3', 'single', { C: soft }),
        question('q4', 'single', { D: soft }),
        question('q5', 'single', { A: [0.08, 0.05] }),
      ],
    };
    const c = classifyMarks(raw);
    expect(c.page.fillLevel).not.toBeNull();
    expect(c.page.filledCut).toBeLessThan(0.35);
    expect(c.marks.slice(0, 4).map((m) => [m.status, m.chosen])).toEqual([
      ['ok', 'A'],
      ['ok', 'B'],
      ['ok', 'C'],
      ['ok', 'D'],
    ]);
    expect(c.marks[4]!.status).toBe('blank');
  });

  it('reads the student number one digit per column, and says which column is wrong', () => {
    const column = (digit: number, values: number[]) => ({
      digit,
      bubbles: Array.from({ length: 10 }, (_, v) => ({
        option: String(v),
        ratio: values.includes(v) ? 0.62 : 0.06,
        core: values.includes(v) ? 0.9 : 0.03,
      })),
    });
    const good = classifyMarks({
      questions: page().questions,
      digits: [column(0, [2]), column(1, [0]), column(2, [7])],
    });
    expect(good.studentNumber).toMatchObject({ value: '207', status: 'ok' });
    const bad = classifyMarks({
      questions: page().questions,
      digits: [column(0, [2]), column(1, [0, 5]), column(2, [])],
    });
    expect(bad.studentNumber).toMatchObject({ value: null, status: 'invalid' });
    expect(bad.studentNumber!.digits.map((d) => d.status)).toEqual(['ok', 'multiple', 'blank']);
    const p = bad.problems.find((x) => x.code === 'studentNumberInvalid')!;
    expect(p.message).toBe('考号填涂有误：第2位涂了多个数字，第3位未填涂，请核对考号');
    const none = classifyMarks({ questions: page().questions, digits: [column(0, []), column(1, [])] });
    expect(none.problems.map((x) => x.code)).toContain('studentNumberMissing');
  });

  it('raises the empty cut on a speckled 1-bit page only, where erasures and light marks cannot exist', () => {
    // 1-bit: ratio and ink share coincide, and printed letters break up unevenly (empties 0.01–0.065).
    const bit = (x: number): [number, number] => [x, x];
    const rows = Array.from({ length: 10 }, (_, i) =>
      question(`q${i + 1}`, 'single', {
        A: bit(0.01 + (i % 4) * 0.017),
        B: bit(0.02 + ((i + 1) % 4) * 0.015),
        C: bit(0.9),
        D: bit(i === 3 ? 0.07 : 0.01 + (i % 3) * 0.02),
      }),
    );
    const grey = classifyMarks({ questions: rows });
    const bitonal = classifyMarks({ bitonal: true, questions: rows });
    expect(grey.page.emptyCut).toBe(0.1);
    expect(bitonal.page.emptyCut).toBeGreaterThan(0.1);
    expect(bitonal.page.emptyCut).toBeLessThanOrEqual(0.15);
    expect(grey.marks[3]!.status).toBe('uncertain');
    expect(bitonal.marks[3]).toMatchObject({ status: 'ok', chosen: 'C' });
  });

  it('is pure: the same raw values and thresholds give the same answer', () => {
    const raw = page([question('q6', 'single', { B: TICK })]);
    expect(classifyMarks(raw, { emptyMax: 0.1 })).toEqual(
      classifyMarks(structuredClone(raw), { emptyMax: 0.1 }),
    );
    // Thresholds can be revised: a looser filled cut accepts the tick.
    expect(classifyMarks(raw, { filledMin: 0.2, lightFloor: 0.2 }).marks[5]).toMatchObject({
      status: 'ok',
      chosen: 'B',
    });
  });
});
