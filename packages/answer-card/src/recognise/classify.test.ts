import { describe, expect, it } from 'vitest';
import type { RawMarks } from '@zhzy/contracts';
import { classifyMarks, rawMarksOf } from './classify.js';

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

/** A page of the independent model as measured: [ratio, core, peak, mid, rim, line] per bubble. */
type MeasuredRow = [string, 'single' | 'multiple' | 'truefalse', Record<string, number[]>];

/** The raw marks of a measured page; `change` may alter one bubble's measurements. */
function measuredPage(
  rows: MeasuredRow[],
  change: (questionId: string, option: string, m: number[]) => number[] = (_q, _o, m) => m,
): RawMarks {
  return {
    questions: rows.map(([questionId, kind, bubbles]) => ({
      questionId,
      number: questionId.slice(1),
      kind,
      bubbles: Object.entries(bubbles).map(([option, measured]) => {
        const [ratio, core, peak, mid, rim, line] = change(questionId, option, measured);
        return { option, ratio: ratio!, core: core!, peak: peak!, mid: mid!, rim: rim!, line: line! };
      }),
    })),
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

/** Raw bubbles with their shape: [ratio, core, peak, mid] (grey 300 dpi values measured on the corpus, label B). */
type Shaped = [number, number, number, number];
const S_EMPTY: Shaped = [0.077, 0.064, 0.335, 0.011];
const S_DARK: Shaped = [0.631, 0.951, 0.743, 0.63];
const S_FILL: Shaped = [0.509, 0.593, 0.666, 0.517];
const S_LIGHT: Shaped = [0.281, 0.106, 0.501, 0.248];
const S_TICK: Shaped = [0.196, 0.215, 0.533, 0.022];
/** A pencil dot: too small to darken the box, much darker than anything printed in it. */
const S_DOT: Shaped = [0.1, 0.09, 0.6, 0.012];
/** What a rubber leaves of a fill, a little darker than most (it scores above the empty cut). */
const S_RESIDUE: Shaped = [0.17, 0.09, 0.42, 0.1];
/** A mark rubbed out only half-way: about half as dark as the student's own fills on the page. */
const S_HALF_RUBBED: Shaped = [0.28, 0.1, 0.5, 0.21];

function shaped(id: string, kind: 'single' | 'multiple' | 'truefalse', marks: Record<string, Shaped>) {
  const labels = kind === 'truefalse' ? ['T', 'F'] : [...'ABCD'];
  return {
    questionId: id,
    number: id.slice(1),
    kind,
    bubbles: labels.map((option) => {
      const [ratio, core, peak, mid] = marks[option] ?? S_EMPTY;
      return { option, ratio, core, peak, mid };
    }),
  };
}

/** A card's optional choice between questions 26 and 27: one bubble per question number. */
function optionalChoice(q26: Shaped, q27: Shaped, number: string) {
  return {
    questionId: 'g26',
    number,
    kind: 'optional' as const,
    bubbles: [
      { option: 'q26', ratio: q26[0], core: q26[1], peak: q26[2], mid: q26[3] },
      { option: 'q27', ratio: q27[0], core: q27[1], peak: q27[2], mid: q27[3] },
    ],
  };
}

function shapedPage(extra: RawMarks['questions'], bitonal = false): RawMarks {
  return {
    ...(bitonal ? { bitonal: true } : {}),
    questions: [
      shaped('q1', 'single', { A: S_DARK }),
      shaped('q2', 'single', { B: S_FILL }),
      shaped('q3', 'single', { C: S_DARK }),
      shaped('q4', 'single', { D: S_FILL }),
      shaped('q5', 'truefalse', { T: S_DARK }),
      ...extra,
    ],
  };
}

describe('classifyMarks with the shape of the darkness (darkest spot and median measured)', () => {
  it('reads a light fill, a tick and a pencil dot as the marks they are, the dot though it scores as empty', () => {
    const raw = shapedPage([
      shaped('q6', 'single', { B: S_LIGHT }),
      shaped('q7', 'single', { C: S_TICK }),
      shaped('q8', 'single', { A: S_DOT }),
      shaped('q9', 'truefalse', { F: S_TICK }),
      shaped('q10', 'multiple', { A: S_DARK, B: S_LIGHT, D: S_TICK }),
    ]);
    // Too few clear fills on this page to know the student's pencil: the shape rules of ADR 0039 decide.
    const c = classifyMarks(raw, { calibrationMin: 100 });
    expect(c.marks.slice(5).map((m) => [m.chosen, m.status])).toEqual([
      ['B', 'ok'],
      ['C', 'ok'],
      ['A', 'ok'],
      ['F', 'ok'],
      ['ABD', 'ok'],
    ]);
    expect(c.marks[7]!.bubbles[0]!.score).toBeLessThan(c.page.emptyCut);
    expect(c.problems).toEqual([]);
    // Without the shape (a result read before it was measured) the same light fill and tick go to a person.
    const bare = structuredClone(raw);
    for (const q of bare.questions) for (const b of q.bubbles) delete (b as { peak?: number }).peak;
    expect(
      classifyMarks(bare)
        .marks.slice(5, 7)
        .map((m) => m.status),
    ).toEqual(['uncertain', 'uncertain']);
    // Judged against this student's own fills (ADR 0040) the tick and the dot stay marks; a light fill a third as
    // dark as their fills is neither like them nor what a rubber leaves: a person looks.
    const own = classifyMarks(raw);
    expect(own.marks.slice(5).map((m) => [m.chosen, m.status])).toEqual([
      ['', 'uncertain'],
      ['C', 'ok'],
      ['A', 'ok'],
      ['F', 'ok'],
      ['AD', 'uncertain'],
    ]);
  });

  it('reads the same light grey as a mark on the sheet of a student whose fills are all that light', () => {
    const light = shapedPage([]);
    light.questions = [1, 2, 3, 4, 5].map((n) =>
      shaped(`q${n}`, 'single', { [[...'ABCD'][n % 4]!]: S_LIGHT }),
    );
    light.questions.push(
      shaped('q6', 'single', { B: S_LIGHT }),
      shaped('q7', 'multiple', { A: S_LIGHT, C: S_LIGHT }),
    );
    const c = classifyMarks(light);
    expect(c.marks.map((m) => [m.chosen, m.status])).toEqual([
      ['B', 'ok'],
      ['C', 'ok'],
      ['D', 'ok'],
      ['A', 'ok'],
      ['B', 'ok'],
      ['B', 'ok'],
      ['AC', 'ok'],
    ]);
  });

  it('rubs out a faint even smudge beside the one mark of a single answer, and asks a person anywhere else when the sheet cannot be calibrated', () => {
    const raw = shapedPage([
      shaped('q6', 'single', { A: S_RESIDUE, C: S_DARK }),
      shaped('q7', 'truefalse', { T: S_RESIDUE, F: S_FILL }),
      // Alone it may be a tick a coarse scan blurred; beside the marks of a multiple choice, a fourth answer.
      shaped('q8', 'single', { A: S_RESIDUE }),
      shaped('q9', 'multiple', { A: S_DARK, B: S_RESIDUE, C: S_DARK }),
    ]);
    const c = classifyMarks(raw, { calibrationMin: 100 });
    expect(c.marks[5]).toMatchObject({ chosen: 'C', status: 'ok' });
    expect(c.marks[6]).toMatchObject({ chosen: 'F', status: 'ok' });
    expect(c.marks[7]!.status).toBe('uncertain');
    expect(c.marks[8]!.status).toBe('uncertain');
    expect(c.problems.find((p) => p.code === 'uncertainMark')!.questionIds).toEqual(['q8', 'q9']);
    // Against the student's own fills (ADR 0040) an even grey a sixth as dark as theirs is rubbed out everywhere:
    // alone, beside a mark, among the marks of a multiple choice.
    const own = classifyMarks(raw);
    expect(own.marks.slice(5).map((m) => [m.chosen, m.status])).toEqual([
      ['C', 'ok'],
      ['F', 'ok'],
      ['', 'blank'],
      ['AC', 'ok'],
    ]);
    expect(own.problems).toEqual([]);
  });

  it('reads an even grey a fifth as dark as the student fills as rubbed out, and half as dark as a question for a person', () => {
    const fifth: Shaped = [0.077 + 0.11, 0.064, 0.335 + 0.11, 0.011 + 0.11];
    const raw = shapedPage([
      shaped('q6', 'single', { B: fifth }),
      shaped('q7', 'single', { B: fifth, D: S_FILL }),
      shaped('q8', 'multiple', { A: S_DARK, B: fifth }),
      shaped('q9', 'single', { C: S_HALF_RUBBED }),
    ]);
    const c = classifyMarks(raw);
    expect(c.marks.slice(5).map((m) => [m.chosen, m.status])).toEqual([
      ['', 'blank'],
      ['D', 'ok'],
      ['A', 'ok'],
      ['', 'uncertain'],
    ]);
    expect(c.uncertain).toEqual([
      expect.objectContaining({
        questionId: 'q9',
        message: expect.stringMatching(/^第9题的选项C涂得比该生其他答案浅/),
      }),
    ]);
  });

  it('never decides a mark rubbed out only half-way, even beside a proper fill', () => {
    const raw = shapedPage([
      shaped('q6', 'single', { A: S_HALF_RUBBED }),
      shaped('q7', 'single', { A: S_HALF_RUBBED, C: S_DARK }),
    ]);
    const c = classifyMarks(raw);
    expect(c.marks.slice(5).map((m) => m.status)).toEqual(['uncertain', 'uncertain']);
    expect(c.uncertain.map((u) => u.message)).toEqual([
      expect.stringMatching(/^第6题.*没擦干净/),
      expect.stringMatching(/^第7题/),
    ]);
  });

  it('neither reads nor drops a spot only somewhat darker than print: a person looks', () => {
    // Peak 0.11 above the label's empty level: darker than print and paper ever measured, fainter than any dot.
    const faintDot: Shaped = [0.08, 0.066, 0.456, 0.011];
    const c = classifyMarks(shapedPage([shaped('q6', 'single', { B: faintDot })]));
    expect(c.marks[5]!.bubbles[1]!.score).toBeLessThan(c.page.emptyCut);
    expect(c.marks[5]).toMatchObject({ status: 'uncertain', chosen: '' });
  });

  it('on a 1-bit page takes a letter broken into specks for print, and a solid dot for a mark', () => {
    // 1-bit: ratio and ink share coincide, the median is paper, printed letters break up differently bubble by bubble.
    const bit = (ratio: number, peak: number): Shaped => [ratio, ratio, peak, 0];
    const rows = Array.from({ length: 8 }, (_, i) =>
      shaped(`q${i + 6}`, 'single', {
        A: bit(0.05, 0.4 + (i % 3) * 0.02),
        B: bit(0.06, i === 2 ? 0.66 : 0.42),
        C: bit(0.9, 1),
        D: bit(0.05, i === 5 ? 1 : 0.41),
      }),
    );
    const c = classifyMarks({ bitonal: true, questions: rows });
    expect(c.marks[2]).toMatchObject({ chosen: 'C', status: 'ok' });
    expect(c.marks[5]).toMatchObject({ chosen: 'CD', status: 'multiple' });
    // On a grey page the same broken letter would already count as a spot: the 1-bit cut is what keeps it print.
    expect(classifyMarks({ questions: rows }).marks[2]!.chosen).toBe('BC');
  });
});

describe('classifyMarks with the band around the box measured (ADR 0059)', () => {
  /** Every bubble's rim: print and paper around an empty bubble. */
  const RIM_EMPTY = 0.12;
  const withRim = (raw: RawMarks, rims: Record<string, Record<string, number>>): RawMarks => ({
    ...raw,
    questions: raw.questions.map((q) => ({
      ...q,
      bubbles: q.bubbles.map((b) => ({ ...b, rim: rims[q.questionId]?.[b.option] ?? RIM_EMPTY })),
    })),
  });

  it('sends a circle drawn round the bracket to a person instead of reading the question as blank', () => {
    // q6: the inside of B stays paper, the band around it carries the pen line.
    const raw = withRim(shapedPage([shaped('q6', 'single', {}), shaped('q7', 'single', {})]), {
      q6: { B: RIM_EMPTY + 0.15 },
    });
    const c = classifyMarks(raw);
    expect(c.marks.find((m) => m.questionId === 'q6')).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q6')?.message).toContain(
      '细线笔迹',
    );
    // The untouched question beside it stays blank, and the stored measurements keep the rim.
    expect(c.marks.find((m) => m.questionId === 'q7')).toMatchObject({ status: 'blank' });
    expect(c.marks.find((m) => m.questionId === 'q6')!.bubbles[1]!.rim).toBeCloseTo(RIM_EMPTY + 0.15, 4);
  });

  it('keeps a rubbed-out residue that darkens the band and the inside alike rubbed out', () => {
    const raw = withRim(shapedPage([shaped('q6', 'single', { A: S_DARK, C: S_RESIDUE })]), {
      q6: { A: RIM_EMPTY + 0.3, C: RIM_EMPTY + 0.09 },
    });
    const c = classifyMarks(raw);
    expect(c.marks.find((m) => m.questionId === 'q6')).toMatchObject({ status: 'ok', chosen: 'A' });
  });
});

describe('classifyMarks on a 1-bit page and on a card whose true/false questions are all marked (ADR 0061)', () => {
  /** Raw bubbles given as [ratio, core, peak, mid] in the order the card prints them. */
  const rows = (qs: [string, 'single' | 'multiple' | 'truefalse', number[][]][]): RawMarks['questions'] =>
    qs.map(([id, kind, bubbles]) => {
      const labels = kind === 'truefalse' ? ['T', 'F'] : [...'ABCDE'].slice(0, bubbles.length);
      return {
        questionId: id,
        number: id.slice(1),
        kind,
        bubbles: bubbles.map(([ratio = 0, core = 0, peak = 0, mid = 0, rim], i) => ({
          option: labels[i]!,
          ratio,
          core,
          peak,
          mid,
          ...(rim === undefined ? {} : { rim }),
        })),
      };
    });

  it('sends a lone pen tick on a dithered page to a person, and keeps an evenly sprinkled rubbed-out layer blank', () => {
    // Measured on a 300 dpi error-diffused page of the independent model: a student who ticks (no fills to
    // calibrate with). q2's C carries a fine pen tick: black strokes (its darkest spot far above its mean), its
    // median still paper. q3's B is a pencil fill rubbed out (measured on another page of the same scan kind): dots spread evenly, its median
    // reached, its spot no darker than its mean.
    const empty = (i: number) =>
      [
        [0.1032, 0.0823, 0.3909, 0.0113],
        [0.1193, 0.0917, 0.3662, 0.0121],
        [0.0981, 0.0729, 0.2986, 0.011],
        [0.1138, 0.0854, 0.3091, 0.0118],
      ][i]!;
    const raw: RawMarks = {
      bitonal: true,
      questions: rows([
        ['q1', 'single', [0, 1, 2, 3].map(empty)],
        ['q2', 'single', [empty(0), empty(1), [0.1697, 0.15, 0.4746, 0.0131], empty(3)]],
        ['q3', 'single', [empty(0), [0.2036, 0.1521, 0.4368, 0.0847], empty(2), empty(3)]],
        ['q4', 'single', [0, 1, 2, 3].map(empty)],
        ['q5', 'single', [0, 1, 2, 3].map(empty)],
      ]),
    };
    // The page's own empty cut as measured there (its speckle raised it to the 1-bit cap): the tick scores under it.
    const c = classifyMarks(raw, { emptyMax: 0.15 });
    expect(c.marks.find((m) => m.questionId === 'q2')!.bubbles[2]!.score).toBeLessThan(c.page.emptyCut);
    expect(c.marks.find((m) => m.questionId === 'q2')).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q2')?.message).toContain(
      '细线笔迹',
    );
    expect(c.marks.find((m) => m.questionId === 'q3')).toMatchObject({ status: 'blank', chosen: '' });
    expect(c.marks.filter((m) => m.status === 'blank')).toHaveLength(4);
  });

  it('reads a true/false fill on a sheet whose every true/false question carries a mark or a rubbed-out one', () => {
    // A 300 dpi ordered-dither page of the independent model, as measured: q12–q16 all marked, three beside an
    // erasure (and q14's ✗ smudged). The true/false family's lower quartile is then itself a mark; judged against
    // it q12's ✓ looked a third as dark as the student's fills and was read as rubbed out — a blank question.
    const raw: RawMarks = {
      bitonal: true,
      questions: rows([
        [
          'q1',
          'single',
          [
            [0.7095, 0.7604, 0.8694, 0.7969],
            [0.0821, 0.0719, 0.3517, 0.0097],
            [0.0559, 0.0448, 0.2448, 0.0093],
            [0.075, 0.0625, 0.286, 0.0098],
          ],
        ],
        [
          'q2',
          'single',
          [
            [0.0679, 0.0521, 0.3773, 0.0096],
            [0.0801, 0.0656, 0.3464, 0.0098],
            [0.5813, 0.6073, 0.7406, 0.551],
            [0.0752, 0.0583, 0.2756, 0.0097],
          ],
        ],
        [
          'q3',
          'single',
          [
            [0.5929, 0.6292, 0.7711, 0.5767],
            [0.0781, 0.0646, 0.3094, 0.0099],
            [0.0519, 0.0396, 0.2579, 0.0091],
            [0.0754, 0.0656, 0.2885, 0.0095],
          ],
        ],
        [
          'q4',
          'single',
          [
            [0.0616, 0.049, 0.425, 0.0093],
            [0.0792, 0.0667, 0.3298, 0.0098],
            [0.0571, 0.0479, 0.2507, 0.0093],
            [0.6467, 0.6969, 0.8271, 0.6938],
          ],
        ],
        [
          'q5',
          'single',
          [
            [0.0632, 0.0563, 0.3799, 0.0094],
            [0.0777, 0.0708, 0.3778, 0.0096],
            [0.0905, 0.0823, 0.5879, 0.0096],
            [0.0701, 0.0604, 0.2861, 0.0095],
          ],
        ],
        [
          'q6',
          'single',
          [
            [0.6505, 0.6979, 0.8755, 0.7507],
            [0.0773, 0.0698, 0.3327, 0.0096],
            [0.0524, 0.0417, 0.2636, 0.0092],
            [0.0743, 0.0656, 0.2808, 0.0097],
          ],
        ],
        [
          'q7',
          'single',
          [
            [0.0664, 0.051, 0.3777, 0.0095],
            [0.0809, 0.0708, 0.3301, 0.01],
            [0.1585, 0.15, 0.9287, 0.0106],
            [0.0749, 0.0656, 0.2971, 0.0096],
          ],
        ],
        [
          'q8',
          'single',
          [
            [0.0624, 0.0552, 0.389, 0.0092],
            [0.0776, 0.0698, 0.3372, 0.0097],
            [0.0518, 0.0417, 0.2605, 0.0091],
            [0.5597, 0.5708, 0.6948, 0.5268],
          ],
        ],
        [
          'q9',
          'multiple',
          [
            [0.065, 0.0521, 0.3943, 0.0096],
            [0.0763, 0.0656, 0.3632, 0.0097],
            [0.468, 0.4688, 0.6848, 0.487],
            [0.5143, 0.5208, 0.7222, 0.5066],
          ],
        ],
        [
          'q10',
          'multiple',
          [
            [0.8105, 0.876, 0.9106, 0.9088],
            [0.0992, 0.0865, 0.3776, 0.0108],
            [0.057, 0.0469, 0.2642, 0.0093],
            [0.0691, 0.0615, 0.2618, 0.0094],
          ],
        ],
        [
          'q11',
          'multiple',
          [
            [0.066, 0.05, 0.412, 0.0094],
            [0.1054, 0.0885, 0.35, 0.0107],
            [0.1255, 0.0979, 0.3327, 0.0125],
            [0.4537, 0.4604, 0.7274, 0.4831],
            [0.7637, 0.8229, 0.8914, 0.8652],
          ],
        ],
        [
          'q12',
          'truefalse',
          [
            [0.4662, 0.4604, 0.6999, 0.4862],
            [0.185, 0.1344, 0.5359, 0.0479],
          ],
        ],
        [
          'q13',
          'truefalse',
          [
            [0.6287, 0.6667, 0.7785, 0.6191],
            [0.3178, 0.2583, 0.5863, 0.2573],
          ],
        ],
        [
          'q14',
          'truefalse',
          [
            [0.8317, 0.8729, 0.9225, 0.9759],
            [0.3079, 0.2271, 0.5389, 0.3133],
          ],
        ],
        [
          'q15',
          'truefalse',
          [
            [0.2862, 0.1969, 0.4411, 0.2835],
            [0.6882, 0.7385, 0.8215, 0.7197],
          ],
        ],
        [
          'q16',
          'truefalse',
          [
            [0.1233, 0.0844, 0.3694, 0.0129],
            [0.5406, 0.5469, 0.7699, 0.5156],
          ],
        ],
      ]),
    };
    const c = classifyMarks(raw);
    expect(c.marks.find((m) => m.questionId === 'q12')).toMatchObject({ chosen: 'T', status: 'ok' });
    expect(c.marks.find((m) => m.questionId === 'q16')).toMatchObject({ chosen: 'F', status: 'ok' });
    // Nothing read silently other than the student meant: the rest are right or go to a person.
    const meant: Record<string, string> = {
      q1: 'A',
      q2: 'C',
      q3: 'A',
      q4: 'D',
      q6: 'A',
      q8: 'D',
      q9: 'CD',
      q10: 'A',
      q11: 'DE',
      q13: 'T',
      q14: 'T',
      q15: 'F',
    };
    for (const m of c.marks)
      if (m.status === 'ok' && meant[m.questionId] !== undefined) expect(m.chosen).toBe(meant[m.questionId]);
  });

  it('does not read a smudge across the box as a mark: the darkness runs out past the brackets, so a person looks', () => {
    // A 150 dpi grey page of the independent model, as measured ([ratio, core, peak, mid, rim]): a hand's graphite
    // lies across option A of q10 and q11 (nothing was marked there), an even grey inside the box and as dark round
    // it. The student's own fills (q1–q9) stay inside their brackets; q9's A is a fill and is read.
    const raw: RawMarks = {
      questions: rows([
        [
          'q1',
          'single',
          [
            [0.0616, 0.006, 0.3383, 0.0129, 0.1271],
            [0.5217, 0.6845, 0.7043, 0.5708, 0.1409],
            [0.0524, 0, 0.2145, 0.0115, 0.1216],
            [0.1207, 0.0089, 0.2988, 0.0709, 0.1002],
          ],
        ],
        [
          'q2',
          'single',
          [
            [0.0616, 0.003, 0.3361, 0.0123, 0.1257],
            [0.0781, 0.006, 0.3289, 0.0134, 0.0962],
            [0.0534, 0, 0.2191, 0.012, 0.1192],
            [0.0713, 0, 0.2585, 0.0132, 0.09],
          ],
        ],
        [
          'q3',
          'single',
          [
            [0.0625, 0.0268, 0.3564, 0.0131, 0.1271],
            [0.0785, 0.0357, 0.3415, 0.0133, 0.1034],
            [0.6301, 0.9643, 0.6983, 0.6296, 0.337],
            [0.0735, 0.0387, 0.2638, 0.0152, 0.0944],
          ],
        ],
        [
          'q4',
          'single',
          [
            [0.0609, 0.003, 0.3347, 0.0118, 0.1072],
            [0.3134, 0.1458, 0.5414, 0.3268, 0.1046],
            [0.0527, 0, 0.2144, 0.0119, 0.1024],
            [0.0719, 0.003, 0.2506, 0.0133, 0.0777],
          ],
        ],
        [
          'q5',
          'single',
          [
            [0.0607, 0.003, 0.3388, 0.012, 0.1125],
            [0.0782, 0.006, 0.3332, 0.0133, 0.0862],
            [0.332, 0.0952, 0.5137, 0.348, 0.135],
            [0.0713, 0, 0.255, 0.0129, 0.0809],
          ],
        ],
        [
          'q6',
          'single',
          [
            [0.0619, 0.0119, 0.3515, 0.0132, 0.099],
            [0.0778, 0, 0.3162, 0.0142, 0.0933],
            [0.3267, 0.0952, 0.5039, 0.3412, 0.1177],
            [0.0734, 0, 0.2477, 0.0137, 0.1207],
          ],
        ],
        [
          'q7',
          'single',
          [
            [0.0612, 0.0119, 0.3503, 0.0126, 0.0944],
            [0.0791, 0, 0.313, 0.0148, 0.0905],
            [0.053, 0, 0.2217, 0.0127, 0.0902],
            [0.5275, 0.7381, 0.6831, 0.5725, 0.1539],
          ],
        ],
        [
          'q8',
          'single',
          [
            [0.0611, 0.0119, 0.3552, 0.0117, 0.0977],
            [0.0785, 0, 0.3168, 0.0134, 0.093],
            [0.0516, 0.003, 0.221, 0.0116, 0.094],
            [0.3731, 0.1399, 0.5308, 0.375, 0.1776],
          ],
        ],
        [
          'q9',
          'multiple',
          [
            [0.4782, 0.3244, 0.6562, 0.4727, 0.2902],
            [0.0804, 0.0149, 0.3311, 0.015, 0.0949],
            [0.3351, 0.0952, 0.5337, 0.3672, 0.1129],
            [0.0733, 0.003, 0.2458, 0.0147, 0.0934],
          ],
        ],
        [
          'q10',
          'multiple',
          [
            [0.2033, 0.0387, 0.4617, 0.2034, 0.2339],
            [0.5497, 0.7381, 0.7407, 0.5951, 0.1175],
            [0.0539, 0.003, 0.2241, 0.0133, 0.0905],
            [0.0731, 0, 0.2409, 0.0148, 0.0889],
          ],
        ],
        [
          'q11',
          'multiple',
          [
            [0.2038, 0.0476, 0.4638, 0.2047, 0.2372],
            [0.0787, 0.006, 0.3272, 0.0132, 0.0947],
            [0.053, 0, 0.225, 0.0117, 0.094],
            [0.1294, 0.0119, 0.2935, 0.0775, 0.099],
            [0.0617, 0.0298, 0.3185, 0.0119, 0.1233],
          ],
        ],
        [
          'q12',
          'truefalse',
          [
            [0.0594, 0.0208, 0.3062, 0.0119, 0.0981],
            [0.5733, 0.8214, 0.7639, 0.5999, 0.1618],
          ],
        ],
        [
          'q13',
          'truefalse',
          [
            [0.5514, 0.7976, 0.7053, 0.5693, 0.1387],
            [0.1329, 0.0714, 0.4474, 0.076, 0.0945],
          ],
        ],
        [
          'q14',
          'truefalse',
          [
            [0.0597, 0.003, 0.3051, 0.0127, 0.0973],
            [0.4075, 0.1637, 0.6142, 0.3969, 0.1449],
          ],
        ],
        [
          'q15',
          'truefalse',
          [
            [0.0605, 0.0238, 0.306, 0.0121, 0.0811],
            [0.414, 0.2054, 0.6908, 0.4159, 0.1223],
          ],
        ],
        [
          'q16',
          'truefalse',
          [
            [0.0604, 0.0149, 0.3085, 0.0131, 0.0849],
            [0.1056, 0.0833, 0.613, 0.0163, 0.0819],
          ],
        ],
      ]),
    };
    const c = classifyMarks(raw);
    const q = (id: string) => c.marks.find((m) => m.questionId === id)!;
    expect(q('q10')).toMatchObject({ status: 'uncertain', chosen: 'B' });
    expect(q('q11')).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q10')?.message).toBe(
      '第10题的选项A一带有蹭脏或阴影（框外和框内一样深），不像该生的填涂，无法确定是否作答，请人工核对',
    );
    expect(q('q9')).toMatchObject({ status: 'ok', chosen: 'AC' });
    expect(q('q1')).toMatchObject({ status: 'ok', chosen: 'B' });
    expect(q('q13')).toMatchObject({ status: 'ok', chosen: 'T' });
  });
});

describe('classifyMarks judging smears, rubbed marks and line-habit sheets against the sheet (ADR 0067)', () => {
  /** Every bubble's rim at the empty level, some given. */
  const RIM_EMPTY = 0.12;
  const withRim = (raw: RawMarks, rims: Record<string, Record<string, number>> = {}): RawMarks => ({
    ...raw,
    questions: raw.questions.map((q) => ({
      ...q,
      bubbles: q.bubbles.map((b) => ({ ...b, rim: rims[q.questionId]?.[b.option] ?? RIM_EMPTY })),
    })),
  });
  /** A hand's smear over an unmarked bubble: an even grey inside, as dark round the box, no darker spot. */
  const SMEAR: Shaped = [0.077 + 0.25, 0.064 + 0.05, 0.335 + 0.22, 0.011 + 0.28];
  /** A pen circle inside the brackets: its line darker than its mean, its ring darker than the inside. */
  const RING: Shaped = [0.077 + 0.2, 0.064 + 0.1, 0.335 + 0.26, 0.011 + 0.1];

  it('reads a smear beside the student’s answer as no mark, and asks a person when it stands alone', () => {
    const raw = withRim(
      shapedPage([
        shaped('q6', 'single', { A: S_DARK, C: SMEAR }),
        shaped('q7', 'single', { C: SMEAR }),
        shaped('q8', 'single', { A: S_DARK, C: RING }),
      ]),
      { q6: { C: RIM_EMPTY + 0.24 }, q7: { C: RIM_EMPTY + 0.24 }, q8: { C: RIM_EMPTY + 0.3 } },
    );
    const c = classifyMarks(raw);
    const q = (id: string) => c.marks.find((m) => m.questionId === id)!;
    expect(q('q6')).toMatchObject({ status: 'ok', chosen: 'A' });
    expect(q('q7')).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q7')?.message).toContain(
      '蹭脏',
    );
    // A ring darker round the box than inside is a line, not a smear: never dropped unattended.
    expect(q('q8').status).not.toBe('ok');
  });

  it('reads an even mark half as dark as the student’s answer beside it on a single choice as rubbed out', () => {
    const rubbed: Shaped = [0.077 + 0.22, 0.064 + 0.05, 0.335 + 0.22, 0.011 + 0.22];
    // The student's fills: typically as dark as S_DARK, the lighter ones as S_FILL.
    const sheet = (q: RawMarks['questions'][number]) =>
      shapedPage([shaped('q6', 'single', { B: S_DARK }), shaped('q7', 'single', { C: S_DARK }), q]);
    const c = classifyMarks(sheet(shaped('q8', 'single', { B: S_DARK, D: rubbed })));
    expect(c.page.calibration!.low).toBeLessThan(c.page.calibration!.typical);
    expect(c.marks[7]).toMatchObject({ status: 'ok', chosen: 'B' });
    // The same beside a mark no darker than it is no changed mind: two marks on a single choice.
    const twice = classifyMarks(sheet(shaped('q8', 'single', { B: rubbed, D: rubbed })));
    expect(twice.marks[7]!.status).not.toBe('ok');
  });

  it('does not read an even light grey unattended on the sheet of a student who answers with ticks', () => {
    const rows = [1, 2, 3, 4, 5].map((n) => shaped(`q${n}`, 'single', { [[...'ABCD'][n % 4]!]: S_TICK }));
    const c = classifyMarks({ questions: [...rows, shaped('q6', 'single', { C: S_LIGHT })] });
    expect(c.page.calibration).toBeUndefined();
    expect(c.marks[5]).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q6')?.message).toMatch(
      /^第6题的选项C是一片均匀的浅色/,
    );
    // On a sheet of light fills the same grey is the student's own mark (ADR 0040).
    const fills = [1, 2, 3, 4, 5].map((n) => shaped(`q${n}`, 'single', { [[...'ABCD'][n % 4]!]: S_LIGHT }));
    expect(
      classifyMarks({ questions: [...fills, shaped('q6', 'single', { C: S_LIGHT })] }).marks[5],
    ).toMatchObject({ status: 'ok', chosen: 'C' });
  });

  it('does not leave a faint darkening silently blank on an optional choice, which has no empty level of its own', () => {
    const optional = (q26: Shaped, q27: Shaped) => optionalChoice(q26, q27, '26');
    const faintTick: Shaped = [0.077 + 0.03, 0.064 + 0.01, 0.335 + 0.08, 0.011];
    const c = classifyMarks({ questions: [optional(S_EMPTY, faintTick)] });
    expect(c.marks[0]).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(classifyMarks({ questions: [optional(S_EMPTY, S_EMPTY)] }).marks[0]!.status).toBe('blank');
    // A blank printed card at 300 dpi (ADR 0074): "26" prints darker than "27" (0.036 in score), with the same spot
    // and median — print, not a mark.
    const blank = classifyMarks({
      questions: [optional([0.0955, 0.0952, 0.311, 0.0105], [0.0768, 0.0784, 0.3014, 0.0098])],
    });
    expect(blank.marks[0]).toMatchObject({ status: 'blank', chosen: '' });
    expect(blank.problems).toEqual([]);
  });

  it('reads the untouched ✗ of a blank card as empty: its printed strokes are darker than a ✓ (ADR 0074)', () => {
    // Measured on the product's A4 card rendered blank and scanned at 200 dpi grey: five true/false questions.
    const T: Shaped = [0.051, 0.0543, 0.3343, 0.0092];
    const F: Shaped = [0.0762, 0.0849, 0.4813, 0.01];
    const tf = (n: number, f: Shaped = F) => ({
      questionId: `q${n}`,
      number: String(n),
      kind: 'truefalse' as const,
      bubbles: [
        { option: 'T', ratio: T[0], core: T[1], peak: T[2], mid: T[3] },
        { option: 'F', ratio: f[0], core: f[1], peak: f[2], mid: f[3] },
      ],
    });
    const blank = classifyMarks({ questions: [1, 2, 3, 4, 5].map((n) => tf(n)) });
    expect(blank.marks.map((m) => m.status)).toEqual(['blank', 'blank', 'blank', 'blank', 'blank']);
    expect(blank.problems).toEqual([]);
    // A pencil dot on one ✗ still stands far above the ✗'s own print: not silently blank.
    const dotted = classifyMarks({
      questions: [...[1, 2, 3, 4].map((n) => tf(n)), tf(5, [0.1, 0.1, 0.85, 0.011])],
    });
    expect(dotted.marks[4]!.status).not.toBe('blank');
  });
});

describe('classifyMarks on 1-bit pages of a blank card and of circled answers (ADR 0074)', () => {
  it('sends a circle a dithered scan keeps as a ring of black pixels to a person instead of reading it as blank', () => {
    // Measured on a 150 dpi error-diffused page of the independent model: a student who fills, and circled C on one
    // question — well above print, its median still paper (a rubbed-out layer dithers into dots that reach it).
    const empty: Record<string, [number, number, number, number]> = {
      A: [0.06, 0.0417, 0.3682, 0.0094],
      B: [0.0781, 0.0506, 0.3624, 0.0099],
      C: [0.0661, 0.0476, 0.3, 0.0097],
      D: [0.0689, 0.0476, 0.282, 0.0097],
    };
    const fill: [number, number, number, number] = [0.52, 0.55, 0.72, 0.55];
    const row = (id: string, marks: Record<string, [number, number, number, number]> = {}) => ({
      questionId: id,
      number: id.slice(1),
      kind: 'single' as const,
      bubbles: [...'ABCD'].map((option) => {
        const [ratio, core, peak, mid] = marks[option] ?? empty[option]!;
        return { option, ratio, core, peak, mid };
      }),
    });
    const circle: [number, number, number, number] = [0.1958, 0.1577, 0.3967, 0.0143];
    const fills = [1, 2, 3, 4, 5].map((n) => row(`q${n}`, { [[...'ABCD'][n % 4]!]: fill }));
    const c = classifyMarks({ bitonal: true, questions: [...fills, row('q6', { C: circle }), row('q7')] });
    expect(c.page.calibration).toBeDefined();
    expect(c.marks.slice(0, 5).every((m) => m.status === 'ok')).toBe(true);
    expect(c.marks[5]).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q6')?.message).toMatch(
      /^第6题的选项C上只有细线笔迹/,
    );
    expect(c.marks[6]).toMatchObject({ status: 'blank', chosen: '' });
    // A rubbed-out layer as dark dithers into dots that reach its median: still read as what a rubber left.
    const rubbed: [number, number, number, number] = [0.1958, 0.1577, 0.3967, 0.13];
    const r = classifyMarks({ bitonal: true, questions: [...fills, row('q6', { C: rubbed })] });
    expect(r.marks[5]).toMatchObject({ status: 'blank', chosen: '' });
  });
});

describe('classifyMarks telling a 1-bit page’s broken print from a dot (ADR 0074)', () => {
  const empty: Record<string, [number, number, number, number]> = {
    A: [0.1328, 0.0968, 0.3657, 0.0129],
    B: [0.1328, 0.0968, 0.3657, 0.0129],
    D: [0.1274, 0.0883, 0.3398, 0.0126],
  };
  /** Label C as a 1-bit threshold left it: its print broken into specks on most bubbles, lost on one. */
  const specks: [number, number, number, number] = [0.14, 0.095, 0.55, 0.0128];
  const lost: [number, number, number, number] = [0.115, 0.0904, 0.35, 0.0128];
  const row = (id: string, c: [number, number, number, number]) => ({
    questionId: id,
    number: id.slice(1),
    kind: 'multiple' as const,
    bubbles: [...'ABCD'].map((option) => {
      const [ratio, core, peak, mid] = option === 'C' ? c : empty[option]!;
      return { option, ratio, core, peak, mid };
    }),
  });
  const rows = [lost, specks, specks, specks, specks, specks, specks].map((c, i) => row(`q${i + 1}`, c));

  it('reads untouched bubbles whose printed letter specks alike on the whole page as blank', () => {
    const c = classifyMarks({ bitonal: true, questions: rows });
    expect(c.marks.map((m) => m.status)).toEqual(rows.map(() => 'blank'));
    expect(c.problems).toEqual([]);
  });

  it('still sends a dot standing out from the same letter’s specks to a person', () => {
    const c = classifyMarks({ bitonal: true, questions: [...rows, row('q8', [0.145, 0.1, 0.68, 0.0128])] });
    expect(c.marks[7]).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.marks.slice(0, 7).every((m) => m.status === 'blank')).toBe(true);
  });
});

describe('classifyMarks calibrating a sheet on the student’s own ticks (ADR 0068)', () => {
  /** The student's own pen ticks: a line across the box, its median still paper. */
  const OWN_TICK: Shaped = [0.077 + 0.09, 0.064 + 0.11, 0.335 + 0.2, 0.011 + 0.01];
  /** The same hand's fainter tick: it scores under the empty cut, and it is no even layer. */
  const FAINT_TICK: Shaped = [0.077 + 0.04, 0.064 + 0.05, 0.335 + 0.1, 0.011 + 0.004];

  it('sends a tick fainter than the student’s own ticks to a person instead of reading the question as blank', () => {
    const ticks = [1, 2, 3, 4, 5].map((n) => shaped(`q${n}`, 'single', { [[...'ABCD'][n % 4]!]: OWN_TICK }));
    const c = classifyMarks({
      questions: [...ticks, shaped('q6', 'single', { C: FAINT_TICK }), shaped('q7', 'single', {})],
    });
    expect(c.page.calibration).toBeUndefined();
    expect(c.marks.slice(0, 5).every((m) => m.status === 'ok')).toBe(true);
    expect(c.marks[5]).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q6')?.message).toMatch(
      /^第6题的选项C有一道较淡的笔迹，像该生自己打勾/,
    );
    // An untouched question on the same sheet stays blank.
    expect(c.marks[6]).toMatchObject({ status: 'blank', chosen: '' });
    // Without the student's own ticks to compare with (a sheet of one question) the same darkening is read as before.
    expect(classifyMarks({ questions: [shaped('q6', 'single', { C: FAINT_TICK })] }).marks[0]!.status).toBe(
      'blank',
    );
  });

  it('sends a pencil dot a dithered scan kept as a few black pixels to a person instead of reading it as blank', () => {
    // Measured on a 200 dpi error-diffused page of the independent model: the empty bubbles of a multiple choice, and
    // C's dot — its median paper, its score under the empty cut, its darkest spot far above any empty bubble's.
    const empty: Record<string, [number, number, number, number]> = {
      A: [0.1328, 0.0968, 0.3657, 0.0129],
      B: [0.1328, 0.0968, 0.3657, 0.0129],
      C: [0.11, 0.0904, 0.35, 0.0128],
      D: [0.1274, 0.0883, 0.3398, 0.0126],
    };
    const row = (id: string, marks: Record<string, [number, number, number, number]> = {}) => ({
      questionId: id,
      number: id.slice(1),
      kind: 'multiple' as const,
      bubbles: [...'ABCD'].map((option) => {
        const [ratio, core, peak, mid] = marks[option] ?? empty[option]!;
        return { option, ratio, core, peak, mid };
      }),
    });
    const dot: [number, number, number, number] = [0.1366, 0.1104, 0.5378, 0.0128];
    const c = classifyMarks({
      bitonal: true,
      questions: [row('q1'), row('q2'), row('q3'), row('q4', { C: dot })],
    });
    expect(c.marks[3]!.bubbles[2]!.score).toBeLessThan(c.page.emptyCut);
    expect(c.marks[3]).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.marks.slice(0, 3).every((m) => m.status === 'blank')).toBe(true);
  });
});

describe('classifyMarks judging an even layer against a steady hand’s own fills (ADR 0076)', () => {
  /** A half-rubbed mark on the tuning pages (300 dpi grey): an even layer about 0.6 as dark as the student's fills. */
  const HALF: Shaped = [0.077 + 0.33, 0.064 + 0.09, 0.335 + 0.245, 0.011 + 0.33];
  /** A fill a little lighter than the student's others (0.9 of them): still one of theirs. */
  const LIGHTER: Shaped = [0.077 + 0.5, 0.064 + 0.8, 0.335 + 0.37, 0.011 + 0.5];
  /** Six questions filled alike, the first two as `first` (the student's lighter fills). */
  const steady = (extra: RawMarks['questions'], first: Shaped = S_DARK): RawMarks => ({
    questions: [
      ...[1, 2, 3, 4, 5, 6].map((n) =>
        shaped(`q${n}`, 'single', { [[...'ABCD'][n % 4]!]: n <= 2 ? first : S_DARK }),
      ),
      ...extra,
    ],
  });

  it('sends an even layer clearly lighter than every fill of a steady hand to a person, beside the student’s marks', () => {
    const c = classifyMarks(steady([shaped('q7', 'multiple', { A: S_DARK, B: S_DARK, D: HALF })]));
    expect(c.marks[6]).toMatchObject({ status: 'uncertain' });
    expect(c.marks[6]!.bubbles.map((b) => b.state)).toEqual(['filled', 'filled', 'empty', 'uncertain']);
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q7')?.message).toBe(
      '第7题的选项D涂得比该生其他答案浅、又比擦掉的痕迹深，无法确定是作答还是没擦干净，请人工核对',
    );
    // Alone on a single choice it is no more a fill.
    expect(classifyMarks(steady([shaped('q7', 'single', { C: HALF })])).marks[6]!.status).toBe('uncertain');
    // A fill a little lighter than the rest is still read unattended.
    const lighter = classifyMarks(steady([shaped('q7', 'multiple', { A: S_DARK, B: LIGHTER })]));
    expect(lighter.marks[6]).toMatchObject({ status: 'ok', chosen: 'AB' });
  });

  it('keeps reading such a layer as a mark when the student’s own fills are not steady', () => {
    // Two of the student's fills are no darker than the layer: the hand varies that much, so the layer is like a fill.
    const c = classifyMarks(
      steady(
        [shaped('q7', 'multiple', { A: S_DARK, B: S_DARK, D: HALF })],
        [0.077 + 0.35, 0.064 + 0.3, 0.6, 0.35],
      ),
    );
    expect(c.marks[6]).toMatchObject({ status: 'ok', chosen: 'ABD' });
  });
});

describe('classifyMarks on an optional choice whose both bubbles are dark (ADR 0076)', () => {
  const optional = (q26: Shaped, q27: Shaped) => optionalChoice(q26, q27, '26/27');

  it('does not read a rubbed-out number beside a chosen one as blank when no empty bubble shows the level', () => {
    // Measured on the tuning pages (300 dpi grey, a light hand): a rubbed-out "26" beside a filled "27", alike.
    const c = classifyMarks({
      questions: [optional([0.2856, 0.1181, 0.4527, 0.2319], [0.2857, 0.1121, 0.483, 0.2772])],
    });
    expect(c.marks[0]).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain[0]?.message).toBe(
      '第26/27题的各个题号都有较深的痕迹，没有空白的可以比较，无法确定选做了哪一题、还是都擦掉了，请人工核对',
    );
    // Untouched numbers under a fold's shadow (0.22, the darkest on the tuning pages) stay blank.
    const shadow = classifyMarks({
      questions: [optional([0.2015, 0.1886, 0.4238, 0.0324], [0.2015, 0.1886, 0.4238, 0.0324])],
    });
    expect(shadow.marks[0]!.status).toBe('blank');
  });
});

describe('classifyMarks on a 1-bit page whose student answers in faint ticks (ADR 0079)', () => {
  /** Untouched bubbles of a 200 dpi ordered-dither page of the independent model, as measured ([ratio, core, peak, mid]). */
  const EMPTY: Record<string, number[][]> = {
    A: [
      [0.1375, 0.0985, 0.4435, 0.014],
      [0.1498, 0.1154, 0.4358, 0.0147],
      [0.1345, 0.1171, 0.4187, 0.0132],
    ],
    B: [
      [0.1523, 0.1002, 0.3839, 0.0156],
      [0.1507, 0.1036, 0.4149, 0.0147],
      [0.1569, 0.0798, 0.3723, 0.0277],
    ],
    C: [
      [0.1359, 0.0849, 0.3452, 0.0148],
      [0.1293, 0.0781, 0.3258, 0.014],
      [0.141, 0.0696, 0.3187, 0.0152],
    ],
    D: [
      [0.1478, 0.0526, 0.3469, 0.0156],
      [0.1438, 0.0815, 0.3225, 0.015],
      [0.1433, 0.0679, 0.3151, 0.0148],
    ],
  };
  /** A faint pen tick on that page, above its box's untouched darkness: a line, its median barely off paper. */
  const TICK = [0.05, 0.07, 0.16, 0.035];
  const row = (n: number, ticked: string | null) => ({
    questionId: `q${n}`,
    number: String(n),
    kind: 'single' as const,
    bubbles: [...'ABCD'].map((option) => {
      const [ratio, core, peak, mid] = EMPTY[option]![n % 3]!;
      const d = option === ticked ? TICK : [0, 0, 0, 0];
      return { option, ratio: ratio! + d[0]!, core: core! + d[1]!, peak: peak! + d[2]!, mid: mid! + d[3]! };
    }),
  });

  it('does not let the student’s own faint ticks raise the page’s empty cut over themselves', () => {
    // Twelve questions answered with a faint tick each, three left untouched. The ticks are the page's only faint
    // darkening above print (scores 0.12–0.15): counted among the "empty" bubbles whose spread sets a 1-bit page's
    // empty cut, they raised it to the cap (0.15) over their own scores and eleven of them were read blank, silently.
    const ticks = Array.from({ length: 12 }, (_, i) => row(i + 1, [...'ABCD'][i % 4]!));
    const c = classifyMarks({
      bitonal: true,
      questions: [...ticks, row(13, null), row(14, null), row(15, null)],
    });
    for (const m of c.marks.slice(0, 12)) {
      expect(
        m.bubbles.find((b) => b.option === [...'ABCD'][(Number(m.number) - 1) % 4])!.score,
      ).toBeGreaterThan(c.page.emptyCut);
      expect(m).toMatchObject({ status: 'uncertain', chosen: '' });
    }
    expect(c.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q1')?.message).toBe(
      '第1题有填涂无法确定（涂得太浅、只涂了一部分、打勾或擦除不干净），请人工核对',
    );
    // The untouched questions stay blank.
    expect(c.marks.slice(12).map((m) => m.status)).toEqual(['blank', 'blank', 'blank']);
  });
});

describe('classifyMarks telling a steady hand’s lighter fill from a rubbed layer by its ink (ADR 0079)', () => {
  /**
   * A fill laid in one pass beside the same student's darker two-pass fills (300 dpi grey, as on the tuning pages):
   * about 0.65 as dark as they are, yet most of its box is graphite darker than the ink level.
   */
  const ONE_PASS: Shaped = [0.077 + 0.36, 0.064 + 0.38, 0.335 + 0.3, 0.011 + 0.37];
  /** A half-rubbed mark as dark: the rubber left an even layer lighter than the ink level nearly everywhere. */
  const HALF: Shaped = [0.077 + 0.36, 0.064 + 0.09, 0.335 + 0.3, 0.011 + 0.36];
  const steady = (extra: RawMarks['questions']): RawMarks => ({
    questions: [
      ...[1, 2, 3, 4, 5, 6].map((n) => shaped(`q${n}`, 'single', { [[...'ABCD'][n % 4]!]: S_DARK })),
      ...extra,
    ],
  });

  it('reads a lighter fill whose ink is like a fill’s beside the student’s marks, and still asks about a rubbed layer', () => {
    const c = classifyMarks(steady([shaped('q7', 'multiple', { A: S_DARK, B: ONE_PASS })]));
    expect(c.marks[6]).toMatchObject({ status: 'ok', chosen: 'AB' });
    const rubbed = classifyMarks(steady([shaped('q7', 'multiple', { A: S_DARK, B: HALF })]));
    expect(rubbed.marks[6]).toMatchObject({ status: 'uncertain' });
    expect(rubbed.uncertain.find((u) => u.kind === 'question' && u.questionId === 'q7')?.message).toBe(
      '第7题的选项B涂得比该生其他答案浅、又比擦掉的痕迹深，无法确定是作答还是没擦干净，请人工核对',
    );
  });
});

describe('the line texture kept with the raw measurements (ADR 0084)', () => {
  it('is reported with each bubble and read back from a stored result', () => {
    const raw = page();
    raw.questions[0]!.bubbles = raw.questions[0]!.bubbles.map((b, i) => ({ ...b, line: 0.05 + i / 100 }));
    const cls = classifyMarks(raw);
    expect(cls.marks[0]!.bubbles.map((b) => b.line)).toEqual([0.05, 0.06, 0.07, 0.08]);
    // A bubble stored before the texture was measured has none, and none is made up for it.
    expect(cls.marks[1]!.bubbles.every((b) => b.line === undefined)).toBe(true);
    const again = rawMarksOf({ marks: cls.marks, studentNumber: null });
    expect(again.questions[0]!.bubbles.map((b) => b.line)).toEqual([0.05, 0.06, 0.07, 0.08]);
    expect('line' in again.questions[1]!.bubbles[0]!).toBe(false);
  });
});

describe('classifyMarks reading a stroke across the box by its line texture (ADR 0084)', () => {
  /**
   * A 200 dpi grey page of the independent model (tuning page wild-4889) as measured: [ratio, core, peak, mid, rim,
   * line] per bubble. The student fills; on q11 they crossed A, ticked B and filled C.
   */
  const PAGE: MeasuredRow[] = [
    [
      'q1',
      'single',
      {
        A: [0.0629, 0.0017, 0.3469, 0.0121, 0.1071, 0.1294],
        B: [0.081, 0.0068, 0.3096, 0.013, 0.1082, 0.2046],
        C: [0.054, 0, 0.2255, 0.0116, 0.1263, 0.1549],
        D: [0.576, 0.8115, 0.7305, 0.596, 0.1849, 0.1346],
      },
    ],
    [
      'q2',
      'single',
      {
        A: [0.0633, 0.0017, 0.3499, 0.0118, 0.1069, 0.1297],
        B: [0.6058, 0.854, 0.7533, 0.6172, 0.2275, 0.1018],
        C: [0.0542, 0, 0.2258, 0.012, 0.126, 0.1536],
        D: [0.0738, 0, 0.2559, 0.0134, 0.0893, 0.1899],
      },
    ],
    [
      'q3',
      'single',
      {
        A: [0.5613, 0.7674, 0.7525, 0.6061, 0.1738, 0.1463],
        B: [0.0811, 0.0051, 0.3043, 0.0139, 0.1024, 0.2003],
        C: [0.0547, 0, 0.2275, 0.0119, 0.1196, 0.1527],
        D: [0.0734, 0, 0.2571, 0.0134, 0.0848, 0.1933],
      },
    ],
    [
      'q4',
      'single',
      {
        A: [0.0623, 0, 0.3464, 0.0117, 0.1012, 0.1281],
        B: [0.0821, 0.0051, 0.306, 0.0142, 0.1029, 0.2003],
        C: [0.5436, 0.7385, 0.7014, 0.5496, 0.2122, 0.1406],
        D: [0.0734, 0, 0.2562, 0.0134, 0.0852, 0.1881],
      },
    ],
    [
      'q5',
      'single',
      {
        A: [0.0636, 0.0017, 0.3491, 0.0121, 0.1022, 0.1304],
        B: [0.081, 0.0017, 0.3043, 0.0136, 0.1025, 0.2009],
        C: [0.0541, 0, 0.2282, 0.0117, 0.1201, 0.1546],
        D: [0.6561, 0.9372, 0.7701, 0.6641, 0.2039, 0.0981],
      },
    ],
    [
      'q6',
      'single',
      {
        A: [0.0642, 0.0085, 0.3612, 0.0118, 0.1067, 0.1285],
        B: [0.0807, 0.0034, 0.3052, 0.0134, 0.1093, 0.2018],
        C: [0.6098, 0.8964, 0.7099, 0.6394, 0.2053, 0.096],
        D: [0.0743, 0.0017, 0.2575, 0.0135, 0.089, 0.1892],
      },
    ],
    [
      'q7',
      'single',
      {
        A: [0.0635, 0.0068, 0.3537, 0.0118, 0.107, 0.1276],
        B: [0.0807, 0.0017, 0.3036, 0.0137, 0.1084, 0.1993],
        C: [0.0542, 0, 0.227, 0.012, 0.1254, 0.1525],
        D: [0.6068, 0.82, 0.7725, 0.6306, 0.1635, 0.1186],
      },
    ],
    [
      'q8',
      'single',
      {
        A: [0.0637, 0.0068, 0.3573, 0.012, 0.1008, 0.1271],
        B: [0.0809, 0.0034, 0.3065, 0.0137, 0.1031, 0.2014],
        C: [0.0549, 0, 0.228, 0.0124, 0.12, 0.1523],
        D: [0.5522, 0.7623, 0.7238, 0.5869, 0.1616, 0.115],
      },
    ],
    [
      'q9',
      'multiple',
      {
        A: [0.0632, 0, 0.3443, 0.0122, 0.1268, 0.1298],
        B: [0.8193, 0.9694, 0.9125, 0.8434, 0.2527, 0.0757],
        C: [0.0538, 0, 0.2227, 0.0117, 0.126, 0.1484],
        D: [0.6773, 0.9966, 0.7817, 0.6771, 0.3519, 0.0825],
      },
    ],
    [
      'q10',
      'multiple',
      {
        A: [0.6218, 0.9711, 0.7524, 0.6176, 0.3019, 0.0657],
        B: [0.7393, 0.9151, 0.8618, 0.7891, 0.1816, 0.0924],
        C: [0.5317, 0.7555, 0.7056, 0.5858, 0.1809, 0.1261],
        D: [0.8449, 0.9847, 0.9136, 0.866, 0.3303, 0.061],
      },
    ],
    [
      'q11',
      'multiple',
      {
        A: [0.2415, 0.1121, 0.6713, 0.2231, 0.1972, 0.2434],
        B: [0.178, 0.0458, 0.4608, 0.0959, 0.1569, 0.2784],
        C: [0.5606, 0.7725, 0.7456, 0.6308, 0.1682, 0.131],
        D: [0.0738, 0, 0.2578, 0.0134, 0.0843, 0.1785],
        E: [0.0638, 0.0017, 0.2992, 0.0124, 0.12, 0.2186],
      },
    ],
    [
      'q12',
      'truefalse',
      {
        T: [0.0571, 0.0034, 0.314, 0.0116, 0.1018, 0.1649],
        F: [0.5818, 0.7555, 0.811, 0.6247, 0.1305, 0.13],
      },
    ],
    [
      'q13',
      'truefalse',
      {
        T: [0.7811, 0.9643, 0.8989, 0.8019, 0.2492, 0.0746],
        F: [0.0797, 0.0238, 0.4309, 0.0133, 0.0846, 0.2241],
      },
    ],
    [
      'q14',
      'truefalse',
      {
        T: [0.0568, 0.0051, 0.3169, 0.0113, 0.1104, 0.1658],
        F: [0.6218, 0.9576, 0.7873, 0.6095, 0.3275, 0.1244],
      },
    ],
  ];
  const pageOf = (rows: typeof PAGE, tickLine: number | null): RawMarks =>
    measuredPage(rows, (q, option, m) =>
      tickLine !== null && q === 'q11' && option === 'B' ? [...m.slice(0, 5), tickLine] : m,
    );
  const raw = (tickLine: number) => pageOf(PAGE, tickLine);

  it('sends a faint tick whose darkness alone reads as nothing to a person: its stroke crosses the box', () => {
    // The tick's band is 0.08 above the B boxes' untouched texture (0.20); its darkness is what a rubber leaves, so
    // the other rules read it as blank and the question silently as "AC".
    const c = classifyMarks(raw(0.2784));
    const q11 = c.marks.find((m) => m.questionId === 'q11')!;
    expect(q11).toMatchObject({ status: 'uncertain' });
    expect(q11.bubbles.find((b) => b.option === 'B')!.state).toBe('uncertain');
    expect(c.uncertain.find((u) => u.questionId === 'q11')?.message).toBe(
      '第11题的选项B上只有细线笔迹（像打勾、画叉或画圈），不是涂满的填涂，无法确定是否作答，请人工核对',
    );
    // Every other question reads as before.
    for (const m of c.marks.filter((x) => x.questionId !== 'q11')) expect(m.status).toBe('ok');
  });

  it('reads the same darkness as nothing, as before, when its band is like the untouched boxes’ (no stroke)', () => {
    const c = classifyMarks(raw(0.2));
    expect(c.marks.find((m) => m.questionId === 'q11')).toMatchObject({ status: 'ok', chosen: 'AC' });
  });

  it('does not take an ordered dither’s rows of dots on a barely darker box for a stroke on a 1-bit page', () => {
    // A 200 dpi ordered-dither page of the independent model (tuning page wild-5385), as measured: the student filled
    // one answer a question. Untouched boxes a little darker than their label's lightest (0.03–0.05) show dither
    // bands 0.10–0.13 above their label's usual texture; at the grey page's bar three clear questions (q2, q3, q11)
    // went to a person. A stroke on a 1-bit page must darken its box as a faint tick does (0.06).
    const ORDERED: typeof PAGE = [
      [
        'q1',
        'single',
        {
          A: [0.1045, 0.0526, 0.4093, 0.0118, 0.1428, 0.1441],
          B: [0.1154, 0.0798, 0.3552, 0.0121, 0.1481, 0.2015],
          C: [0.0807, 0.0594, 0.276, 0.0106, 0.1673, 0.1204],
          D: [0.875, 0.9236, 0.9736, 0.987, 0.217, 0.1064],
        },
      ],
      [
        'q2',
        'single',
        {
          A: [0.105, 0.0594, 0.446, 0.0115, 0.1326, 0.1504],
          B: [0.1402, 0.1036, 0.4333, 0.0131, 0.1277, 0.2839],
          C: [0.0874, 0.0662, 0.2892, 0.0106, 0.1622, 0.1467],
          D: [0.7634, 0.837, 0.9723, 0.8246, 0.2347, 0.1585],
        },
      ],
      [
        'q3',
        'single',
        {
          A: [0.0972, 0.0594, 0.4017, 0.0111, 0.1472, 0.1432],
          B: [0.098, 0.0662, 0.3317, 0.0113, 0.1452, 0.1792],
          C: [0.9029, 0.9406, 1, 0.9883, 0.4551, 0.0782],
          D: [0.1305, 0.0934, 0.4216, 0.012, 0.1067, 0.3223],
        },
      ],
      [
        'q4',
        'single',
        {
          A: [0.7286, 0.8608, 0.8901, 0.7432, 0.2782, 0.1232],
          B: [0.1168, 0.0798, 0.4164, 0.0119, 0.1399, 0.2695],
          C: [0.0955, 0.0662, 0.2777, 0.0111, 0.1584, 0.1585],
          D: [0.0955, 0.0458, 0.2973, 0.0113, 0.1306, 0.1378],
        },
      ],
      [
        'q5',
        'single',
        {
          A: [0.1258, 0.0594, 0.4047, 0.0133, 0.1498, 0.1563],
          B: [0.1018, 0.0611, 0.3284, 0.0116, 0.1462, 0.1645],
          C: [0.7399, 0.8285, 0.8486, 0.757, 0.3783, 0.0842],
          D: [0.1219, 0.0764, 0.3744, 0.0122, 0.1065, 0.2556],
        },
      ],
      [
        'q6',
        'single',
        {
          A: [0.1016, 0.0781, 0.374, 0.0113, 0.1466, 0.1309],
          B: [0.1008, 0.0492, 0.3483, 0.0117, 0.1391, 0.1553],
          C: [0.7962, 0.9236, 0.9361, 0.8212, 0.326, 0.0713],
          D: [0.1233, 0.1019, 0.3776, 0.0117, 0.1147, 0.3199],
        },
      ],
      [
        'q7',
        'single',
        {
          A: [0.0909, 0.0594, 0.4373, 0.0108, 0.1384, 0.1633],
          B: [0.7621, 0.893, 0.8959, 0.7764, 0.4653, 0.067],
          C: [0.1056, 0.0526, 0.3326, 0.0119, 0.1636, 0.1958],
          D: [0.1007, 0.0645, 0.3475, 0.0114, 0.1425, 0.1908],
        },
      ],
      [
        'q8',
        'single',
        {
          A: [0.7148, 0.7844, 0.8742, 0.7154, 0.2635, 0.1244],
          B: [0.1061, 0.0475, 0.2851, 0.012, 0.1444, 0.1574],
          C: [0.0944, 0.0407, 0.3084, 0.0114, 0.1435, 0.154],
          D: [0.1158, 0.0849, 0.3694, 0.0118, 0.1091, 0.2417],
        },
      ],
      [
        'q9',
        'multiple',
        {
          A: [0.1035, 0.0815, 0.4589, 0.0114, 0.1455, 0.1716],
          B: [0.1244, 0.1121, 0.4092, 0.0117, 0.1106, 0.2581],
          C: [0.6767, 0.7555, 0.8056, 0.707, 0.2793, 0.1393],
          D: [0.098, 0.0458, 0.3058, 0.0116, 0.135, 0.1734],
        },
      ],
      [
        'q10',
        'multiple',
        {
          A: [0.0946, 0.0696, 0.3922, 0.0111, 0.1799, 0.1406],
          B: [0.1131, 0.0917, 0.3721, 0.0119, 0.1282, 0.1824],
          C: [0.7328, 0.8251, 0.8286, 0.7698, 0.2927, 0.1131],
          D: [0.9379, 0.9762, 1, 0.9898, 0.4904, 0.0621],
        },
      ],
      [
        'q11',
        'multiple',
        {
          A: [0.724, 0.8115, 0.8792, 0.7551, 0.3053, 0.0977],
          B: [0.1296, 0.1036, 0.4048, 0.0123, 0.1071, 0.2805],
          C: [0.8482, 0.8964, 0.9733, 0.9863, 0.2563, 0.1128],
          D: [0.096, 0.0424, 0.3061, 0.0114, 0.1351, 0.159],
          E: [0.0758, 0.0357, 0.2801, 0.0106, 0.1407, 0.1726],
        },
      ],
      [
        'q12',
        'truefalse',
        {
          T: [0.8085, 0.9287, 0.9443, 0.8394, 0.4936, 0.1019],
          F: [0.2697, 0.1511, 0.6112, 0.2319, 0.1282, 0.2306],
        },
      ],
      [
        'q13',
        'truefalse',
        {
          T: [0.7453, 0.8744, 0.8903, 0.7642, 0.2594, 0.0984],
          F: [0.1167, 0.0781, 0.5137, 0.0115, 0.1391, 0.3019],
        },
      ],
      [
        'q14',
        'truefalse',
        { T: [0.0984, 0.0509, 0.3563, 0.0113, 0.1258, 0.1639], F: [0.2102, 0.18, 1, 0.0129, 0.1242, 0.3427] },
      ],
      [
        'q15',
        'truefalse',
        { T: [0.8972, 0.9711, 1, 0.9872, 0.4459, 0.0594], F: [0.1236, 0.0883, 0.5222, 0.012, 0.1421, 0.302] },
      ],
      [
        'q16',
        'truefalse',
        {
          T: [0.9335, 0.9813, 1, 0.9894, 0.5102, 0.0417],
          F: [0.1206, 0.0934, 0.5277, 0.0118, 0.1327, 0.3063],
        },
      ],
    ];
    const c = classifyMarks({ ...pageOf(ORDERED, null), bitonal: true });
    expect(c.marks.map((m) => `${m.questionId}:${m.status}:${m.chosen}`)).toEqual([
      'q1:ok:D',
      'q2:ok:D',
      'q3:ok:C',
      'q4:ok:A',
      'q5:ok:C',
      'q6:ok:C',
      'q7:ok:B',
      'q8:ok:A',
      'q9:ok:C',
      'q10:ok:CD',
      'q11:ok:AC',
      'q12:ok:T',
      'q13:ok:T',
      'q14:ok:F',
      'q15:ok:T',
      'q16:ok:T',
    ]);
  });
});

describe('classifyMarks judging an even layer against half the student’s typical fill (ADR 0085)', () => {
  /**
   * A 300 dpi error-diffused 1-bit page of the independent model (tuning page wild-5826) as measured. The student
   * fills dark (typical fill 0.64 above the empty level); on q7 they rubbed out D, which kept 0.28 of darkness — 0.43
   * of their typical fill, more than half their lighter fills — and main's rules read q7 silently as "D".
   */
  const RUBBED: MeasuredRow[] = [
    [
      'q1',
      'single',
      {
        A: [0.0963, 0.0792, 0.3956, 0.0108, 0.1221, 0.1493],
        B: [0.1121, 0.0865, 0.3563, 0.0115, 0.1414, 0.2584],
        C: [0.0892, 0.0677, 0.2736, 0.0107, 0.1199, 0.1962],
        D: [0.7495, 0.7865, 0.9325, 0.9233, 0.1637, 0.1346],
      },
    ],
    [
      'q2',
      'single',
      {
        A: [0.0991, 0.0844, 0.3934, 0.0111, 0.1299, 0.1439],
        B: [0.1152, 0.0875, 0.3553, 0.0116, 0.1508, 0.2518],
        C: [0.089, 0.0646, 0.2888, 0.0107, 0.1302, 0.2017],
        D: [0.7819, 0.8365, 0.9184, 0.8906, 0.2978, 0.0902],
      },
    ],
    [
      'q3',
      'single',
      {
        A: [0.0962, 0.0781, 0.3882, 0.0107, 0.123, 0.1478],
        B: [0.112, 0.0844, 0.3559, 0.0116, 0.1456, 0.2592],
        C: [0.8451, 0.8979, 0.9411, 0.9746, 0.3169, 0.0812],
        D: [0.1069, 0.0771, 0.3114, 0.0112, 0.1226, 0.2522],
      },
    ],
    [
      'q4',
      'single',
      {
        A: [0.6862, 0.7323, 0.8676, 0.7428, 0.3874, 0.1775],
        B: [0.1138, 0.0938, 0.3703, 0.0116, 0.1531, 0.2372],
        C: [0.0906, 0.0677, 0.2741, 0.0107, 0.1347, 0.1961],
        D: [0.1088, 0.0885, 0.3023, 0.0113, 0.1348, 0.2339],
      },
    ],
    [
      'q5',
      'single',
      {
        A: [0.0976, 0.0802, 0.3971, 0.0109, 0.1227, 0.1493],
        B: [0.1126, 0.0927, 0.3735, 0.0114, 0.141, 0.2218],
        C: [0.7956, 0.8396, 0.9154, 0.9315, 0.2008, 0.089],
        D: [0.1069, 0.075, 0.3057, 0.0114, 0.1196, 0.2514],
      },
    ],
    [
      'q6',
      'single',
      {
        A: [0.0961, 0.074, 0.3987, 0.0109, 0.12, 0.1471],
        B: [0.1125, 0.0969, 0.3537, 0.0114, 0.1293, 0.2419],
        C: [0.0884, 0.0646, 0.2757, 0.0107, 0.1236, 0.1765],
        D: [0.1062, 0.0833, 0.2957, 0.0113, 0.1234, 0.2411],
      },
    ],
    [
      'q7',
      'single',
      {
        A: [0.0979, 0.0729, 0.4012, 0.0109, 0.1301, 0.1386],
        B: [0.1124, 0.0938, 0.3616, 0.0118, 0.1402, 0.2567],
        C: [0.0897, 0.074, 0.289, 0.0107, 0.1306, 0.1855],
        D: [0.3844, 0.324, 0.5409, 0.3737, 0.201, 0.15],
      },
    ],
    [
      'q8',
      'single',
      {
        A: [0.0963, 0.0813, 0.3935, 0.0106, 0.1243, 0.151],
        B: [0.7598, 0.8188, 0.9219, 0.8844, 0.1992, 0.1243],
        C: [0.09, 0.0719, 0.286, 0.0108, 0.123, 0.1953],
        D: [0.1069, 0.0875, 0.3138, 0.0112, 0.1217, 0.2462],
      },
    ],
    [
      'q9',
      'multiple',
      {
        A: [0.0972, 0.0729, 0.4051, 0.0108, 0.1192, 0.1466],
        B: [0.8255, 0.8781, 0.9067, 0.9248, 0.3432, 0.0688],
        C: [0.0886, 0.075, 0.2757, 0.0106, 0.1333, 0.1966],
        D: [0.8914, 0.9292, 0.9684, 0.9869, 0.4955, 0.0547],
      },
    ],
    [
      'q10',
      'multiple',
      {
        A: [0.7415, 0.7833, 0.9236, 0.8732, 0.2141, 0.1531],
        B: [0.1128, 0.0917, 0.3578, 0.0116, 0.1421, 0.2675],
        C: [0.089, 0.0677, 0.2822, 0.0106, 0.1434, 0.1967],
        D: [0.1071, 0.0844, 0.3102, 0.0115, 0.1325, 0.2422],
      },
    ],
    [
      'q11',
      'multiple',
      {
        A: [0.6502, 0.6813, 0.8329, 0.7064, 0.2362, 0.1565],
        B: [0.2401, 0.1698, 0.452, 0.1526, 0.1602, 0.2281],
        C: [0.0893, 0.0667, 0.2744, 0.0107, 0.1347, 0.1924],
        D: [0.1085, 0.0906, 0.3128, 0.011, 0.122, 0.2677],
        E: [0.0944, 0.0656, 0.3542, 0.011, 0.1322, 0.2767],
      },
    ],
    [
      'q12',
      'truefalse',
      {
        T: [0.8883, 0.9292, 0.9679, 0.9874, 0.3857, 0.0551],
        F: [0.1131, 0.0917, 0.4583, 0.0115, 0.1272, 0.2874],
      },
    ],
    [
      'q13',
      'truefalse',
      {
        T: [0.0916, 0.0781, 0.3393, 0.0107, 0.1457, 0.1671],
        F: [0.6252, 0.6615, 0.8896, 0.6892, 0.1885, 0.1799],
      },
    ],
    [
      'q14',
      'truefalse',
      {
        T: [0.5509, 0.5844, 0.7796, 0.5677, 0.1726, 0.1745],
        F: [0.1115, 0.0865, 0.4471, 0.0117, 0.1264, 0.2688],
      },
    ],
    [
      'q15',
      'truefalse',
      {
        T: [0.5938, 0.6198, 0.7323, 0.5889, 0.2227, 0.1339],
        F: [0.3792, 0.3427, 0.6384, 0.363, 0.1504, 0.2034],
      },
    ],
    [
      'q16',
      'truefalse',
      {
        T: [0.0896, 0.0667, 0.3423, 0.0108, 0.13, 0.1882],
        F: [0.1866, 0.1552, 0.5021, 0.0469, 0.1337, 0.2549],
      },
    ],
  ];
  const raw = (q7d: number[]): RawMarks => ({
    ...measuredPage(RUBBED, (q, option, m) => (q === 'q7' && option === 'D' ? q7d : m)),
    bitonal: true,
  });
  const q7d = RUBBED.find(([q]) => q === 'q7')![2].D!;

  it('sends a rubbed-out layer alone on its question to a person instead of reading it as the answer', () => {
    const c = classifyMarks(raw(q7d));
    expect(c.marks.find((m) => m.questionId === 'q7')).toMatchObject({ status: 'uncertain', chosen: '' });
    expect(c.uncertain.find((u) => u.questionId === 'q7')?.message).toBe(
      '第7题的选项D涂得比该生其他答案浅、又比擦掉的痕迹深，无法确定是作答还是没擦干净，请人工核对',
    );
    // Every other question reads as before (q15 holds a half-rubbed ✗ beside the ✓: several marks, a person looks).
    expect(c.marks.map((m) => `${m.questionId}:${m.status}:${m.chosen}`)).toEqual([
      'q1:ok:D',
      'q2:ok:D',
      'q3:ok:C',
      'q4:ok:A',
      'q5:ok:C',
      'q6:blank:',
      'q7:uncertain:',
      'q8:ok:B',
      'q9:ok:BD',
      'q10:ok:A',
      'q11:ok:A',
      'q12:ok:T',
      'q13:ok:F',
      'q14:ok:T',
      'q15:multiple:TF',
      'q16:blank:',
    ]);
  });

  it('still reads an even layer as dark as half the student’s typical fill as their answer', () => {
    // 0.36 above the empty level (0.56 of the typical fill), ink share alike.
    const c = classifyMarks(raw([0.47, 0.41, 0.6, 0.47, 0.2, 0.15]));
    expect(c.marks.find((m) => m.questionId === 'q7')).toMatchObject({ status: 'ok', chosen: 'D' });
  });

  it('keeps reading a light fill under half the typical one when the student’s own fills are unsteady', () => {
    // A 150 dpi grey page (tuning page wild-6104) as measured: the student's lighter fills stand at 0.74 of their
    // typical one (0.38), and their fills on q8 D and q9 C at 0.19 and 0.16 — still their answers, read as before.
    const UNSTEADY: MeasuredRow[] = [
      [
        'q1',
        'single',
        {
          A: [0.1348, 0, 0.3726, 0.0975, 0.1392, 0.1151],
          B: [0.0799, 0, 0.3024, 0.0165, 0.0985, 0.1615],
          C: [0.0569, 0, 0.197, 0.0151, 0.1177, 0.1247],
          D: [0.0747, 0, 0.2291, 0.0197, 0.0903, 0.14],
        },
      ],
      [
        'q2',
        'single',
        {
          A: [0.063, 0, 0.3198, 0.0153, 0.1221, 0.1262],
          B: [0.4574, 0.2946, 0.5981, 0.4561, 0.1742, 0.1114],
          C: [0.0551, 0, 0.2005, 0.0154, 0.1161, 0.1323],
          D: [0.0734, 0, 0.2333, 0.0193, 0.0863, 0.1453],
        },
      ],
      [
        'q3',
        'single',
        {
          A: [0.2598, 0.0863, 0.5288, 0.279, 0.1462, 0.1219],
          B: [0.0802, 0.003, 0.3176, 0.0163, 0.0995, 0.1752],
          C: [0.0566, 0, 0.205, 0.0154, 0.1184, 0.1353],
          D: [0.0751, 0, 0.2362, 0.0193, 0.0912, 0.151],
        },
      ],
      [
        'q4',
        'single',
        {
          A: [0.0634, 0, 0.3126, 0.0147, 0.1038, 0.1245],
          B: [0.0805, 0, 0.3062, 0.018, 0.0806, 0.164],
          C: [0.0568, 0, 0.1962, 0.015, 0.0978, 0.1264],
          D: [0.4991, 0.3929, 0.6006, 0.4772, 0.2278, 0.0801],
        },
      ],
      [
        'q5',
        'single',
        {
          A: [0.3003, 0.0655, 0.4981, 0.3013, 0.1883, 0.1191],
          B: [0.0772, 0, 0.3058, 0.0141, 0.0844, 0.1631],
          C: [0.0545, 0, 0.1984, 0.0147, 0.1047, 0.1279],
          D: [0.0731, 0, 0.2322, 0.0193, 0.0781, 0.1413],
        },
      ],
      [
        'q6',
        'single',
        {
          A: [0.0635, 0, 0.325, 0.0153, 0.0954, 0.1287],
          B: [0.3568, 0.1131, 0.5259, 0.3461, 0.1683, 0.1245],
          C: [0.0549, 0, 0.2056, 0.0143, 0.0918, 0.1353],
          D: [0.0743, 0, 0.2309, 0.0202, 0.1187, 0.144],
        },
      ],
      [
        'q7',
        'single',
        {
          A: [0.0617, 0, 0.32, 0.0139, 0.0928, 0.1265],
          B: [0.0791, 0, 0.3032, 0.0167, 0.0883, 0.1586],
          C: [0.0537, 0, 0.2011, 0.014, 0.0869, 0.133],
          D: [0.3029, 0.0833, 0.4621, 0.2941, 0.17, 0.1612],
        },
      ],
      [
        'q8',
        'single',
        {
          A: [0.0638, 0, 0.3278, 0.0153, 0.0953, 0.1291],
          B: [0.0788, 0, 0.3056, 0.0145, 0.0907, 0.1626],
          C: [0.0551, 0, 0.2022, 0.0138, 0.091, 0.1326],
          D: [0.259, 0.0536, 0.4218, 0.25, 0.1547, 0.14],
        },
      ],
      [
        'q9',
        'multiple',
        {
          A: [0.0622, 0, 0.3182, 0.0147, 0.1223, 0.1256],
          B: [0.3749, 0.119, 0.5065, 0.3666, 0.1842, 0.114],
          C: [0.2222, 0.0089, 0.3984, 0.2221, 0.134, 0.1399],
          D: [0.0709, 0, 0.2312, 0.0147, 0.0898, 0.15],
        },
      ],
      [
        'q10',
        'multiple',
        {
          A: [0.1233, 0, 0.3714, 0.088, 0.1509, 0.1262],
          B: [0.1442, 0, 0.3515, 0.0874, 0.1492, 0.1514],
          C: [0.0843, 0, 0.2333, 0.0526, 0.1139, 0.1308],
          D: [0.07, 0, 0.2304, 0.0138, 0.0846, 0.1485],
        },
      ],
      [
        'q11',
        'multiple',
        {
          A: [0.2841, 0.0893, 0.5497, 0.3021, 0.158, 0.1359],
          B: [0.3443, 0.1339, 0.5309, 0.3286, 0.1936, 0.1432],
          C: [0.0756, 0, 0.2265, 0.0431, 0.1107, 0.1323],
          D: [0.0711, 0, 0.2339, 0.0146, 0.0888, 0.1479],
          E: [0.0635, 0, 0.2806, 0.0136, 0.118, 0.1869],
        },
      ],
      [
        'q12',
        'truefalse',
        {
          T: [0.0612, 0.003, 0.2862, 0.0142, 0.0952, 0.1521],
          F: [0.3351, 0.1042, 0.5672, 0.3103, 0.1965, 0.1354],
        },
      ],
      [
        'q13',
        'truefalse',
        {
          T: [0.3018, 0.0804, 0.5163, 0.2927, 0.1976, 0.1121],
          F: [0.0827, 0.0119, 0.3866, 0.0192, 0.0872, 0.1778],
        },
      ],
      [
        'q14',
        'truefalse',
        {
          T: [0.0619, 0, 0.2934, 0.0147, 0.0947, 0.156],
          F: [0.2968, 0.0952, 0.5482, 0.2843, 0.1346, 0.1512],
        },
      ],
      [
        'q15',
        'truefalse',
        {
          T: [0.2497, 0.0417, 0.4299, 0.2207, 0.1382, 0.1256],
          F: [0.2752, 0.1131, 0.5637, 0.2626, 0.1254, 0.1528],
        },
      ],
      [
        'q16',
        'truefalse',
        {
          T: [0.0601, 0.003, 0.2853, 0.0148, 0.0823, 0.1507],
          F: [0.4772, 0.3661, 0.6786, 0.4693, 0.163, 0.0964],
        },
      ],
    ];
    const c = classifyMarks(measuredPage(UNSTEADY));
    expect(c.page.calibration!.low).toBeLessThan(0.75 * c.page.calibration!.typical);
    expect(c.marks.map((m) => `${m.questionId}:${m.status}:${m.chosen}`)).toEqual([
      'q1:blank:',
      'q2:ok:B',
      'q3:ok:A',
      'q4:ok:D',
      'q5:ok:A',
      'q6:ok:B',
      'q7:ok:D',
      'q8:ok:D',
      'q9:ok:BC',
      'q10:blank:',
      'q11:ok:AB',
      'q12:ok:F',
      'q13:ok:T',
      'q14:ok:F',
      'q15:multiple:TF',
      'q16:ok:F',
    ]);
  });
});

describe('classifyMarks reading a true/false tick on a sheet of strokes against its label’s untouched box (ADR 0088)', () => {
  /**
   * A 200 dpi error-diffused 1-bit page of the independent model (tuning page wild-6033) as measured. The student
   * answers in ticks (their choice boxes show strokes across) and ticks "✓" on q12, q13, q14 and q16, so the ✓ label's
   * usual line texture is a tick's, and main's rules read q12 and q13 silently as blank.
   */
  const TICKS: MeasuredRow[] = [
    [
      'q1',
      'single',
      {
        A: [0.0956, 0.056, 0.4059, 0.0111, 0.1419, 0.1459],
        B: [0.1141, 0.0798, 0.3664, 0.0114, 0.145, 0.2301],
        C: [0.1677, 0.1443, 0.4765, 0.013, 0.2191, 0.434],
        D: [0.1063, 0.0696, 0.312, 0.0113, 0.1273, 0.2269],
      },
    ],
    [
      'q2',
      'single',
      {
        A: [0.0951, 0.0832, 0.4142, 0.0108, 0.1433, 0.1443],
        B: [0.2231, 0.2173, 0.5368, 0.0151, 0.162, 0.4687],
        C: [0.0861, 0.0764, 0.2796, 0.0103, 0.1602, 0.1786],
        D: [0.1049, 0.0951, 0.354, 0.0108, 0.1268, 0.2596],
      },
    ],
    [
      'q3',
      'single',
      {
        A: [0.0975, 0.09, 0.4249, 0.0107, 0.1361, 0.1394],
        B: [0.1117, 0.107, 0.3562, 0.011, 0.1375, 0.2317],
        C: [0.1724, 0.1664, 0.465, 0.0127, 0.1558, 0.304],
        D: [0.1053, 0.1036, 0.3309, 0.0106, 0.1205, 0.2211],
      },
    ],
    [
      'q4',
      'single',
      {
        A: [0.091, 0.056, 0.4076, 0.0109, 0.1394, 0.1342],
        B: [0.1112, 0.0866, 0.3449, 0.0113, 0.1395, 0.2272],
        C: [0.0865, 0.0662, 0.2833, 0.0107, 0.1547, 0.1598],
        D: [0.1072, 0.0883, 0.3235, 0.0114, 0.1195, 0.2084],
      },
    ],
    [
      'q5',
      'single',
      {
        A: [0.0954, 0.0628, 0.4093, 0.011, 0.1373, 0.1405],
        B: [0.2033, 0.1952, 0.6514, 0.0136, 0.2086, 0.402],
        C: [0.0865, 0.0594, 0.3049, 0.0106, 0.1568, 0.1772],
        D: [0.1054, 0.0781, 0.3054, 0.0111, 0.1209, 0.226],
      },
    ],
    [
      'q6',
      'single',
      {
        A: [0.1525, 0.1307, 0.4511, 0.0124, 0.1915, 0.4291],
        B: [0.1129, 0.0849, 0.3882, 0.0113, 0.1431, 0.2187],
        C: [0.0864, 0.0645, 0.2918, 0.0106, 0.1596, 0.1695],
        D: [0.1043, 0.0815, 0.34, 0.0111, 0.1272, 0.2382],
      },
    ],
    [
      'q7',
      'single',
      {
        A: [0.093, 0.0866, 0.4183, 0.0106, 0.1457, 0.1441],
        B: [0.1971, 0.1952, 0.4716, 0.0137, 0.1776, 0.3031],
        C: [0.0872, 0.0815, 0.2791, 0.0105, 0.1608, 0.1868],
        D: [0.1063, 0.1019, 0.3282, 0.0109, 0.1257, 0.2383],
      },
    ],
    [
      'q8',
      'single',
      {
        A: [0.1739, 0.1732, 0.4974, 0.0127, 0.1676, 0.1921],
        B: [0.1126, 0.1121, 0.3792, 0.0109, 0.1396, 0.2228],
        C: [0.0888, 0.0883, 0.3032, 0.0103, 0.1537, 0.1558],
        D: [0.1053, 0.1053, 0.3541, 0.0106, 0.1237, 0.2071],
      },
    ],
    [
      'q9',
      'multiple',
      {
        A: [0.1627, 0.1426, 0.4838, 0.0131, 0.202, 0.4217],
        B: [0.1134, 0.0798, 0.3645, 0.0114, 0.127, 0.2207],
        C: [0.1604, 0.1409, 0.519, 0.0123, 0.2185, 0.4229],
        D: [0.1062, 0.0747, 0.3221, 0.0112, 0.1268, 0.2262],
      },
    ],
    [
      'q10',
      'multiple',
      {
        A: [0.0954, 0.0917, 0.4527, 0.0102, 0.1581, 0.1669],
        B: [0.2088, 0.2037, 0.5516, 0.0135, 0.1305, 0.4961],
        C: [0.1951, 0.1868, 0.5752, 0.0124, 0.221, 0.5662],
        D: [0.1038, 0.0968, 0.3471, 0.0106, 0.127, 0.2598],
      },
    ],
    [
      'q11',
      'multiple',
      {
        A: [0.0949, 0.0849, 0.4036, 0.0107, 0.1532, 0.1318],
        B: [0.2116, 0.202, 0.5052, 0.0144, 0.1507, 0.4216],
        C: [0.2057, 0.1902, 0.5655, 0.0139, 0.2072, 0.4408],
        D: [0.1079, 0.0815, 0.3502, 0.0112, 0.1188, 0.2125],
        E: [0.1739, 0.1494, 0.5642, 0.013, 0.2033, 0.3105],
      },
    ],
    [
      'q12',
      'truefalse',
      {
        T: [0.1722, 0.1545, 0.5398, 0.0129, 0.1693, 0.4086],
        F: [0.1137, 0.1002, 0.5042, 0.0112, 0.1221, 0.2946],
      },
    ],
    [
      'q13',
      'truefalse',
      {
        T: [0.1774, 0.1579, 0.578, 0.0127, 0.1638, 0.4825],
        F: [0.11, 0.0628, 0.4846, 0.0112, 0.1249, 0.2669],
      },
    ],
    [
      'q14',
      'truefalse',
      {
        T: [0.1856, 0.1562, 0.4614, 0.0145, 0.1738, 0.3907],
        F: [0.2889, 0.2003, 0.5851, 0.2388, 0.2154, 0.215],
      },
    ],
    [
      'q15',
      'truefalse',
      {
        T: [0.0943, 0.0832, 0.378, 0.0104, 0.1557, 0.1595],
        F: [0.1899, 0.1817, 0.488, 0.0138, 0.1766, 0.4234],
      },
    ],
    [
      'q16',
      'truefalse',
      {
        T: [0.1457, 0.1341, 0.5119, 0.0116, 0.1966, 0.2903],
        F: [0.4866, 0.4924, 0.7303, 0.4965, 0.2444, 0.1416],
      },
    ],
  ];
  const raw = (change?: (q: string, option: string, m: number[]) => number[]): RawMarks => ({
    ...measuredPage(TICKS, change),
    bitonal: true,
  });
  const read = (c: ReturnType<typeof classifyMarks>, q: string) => c.marks.find((m) => m.questionId === q);

  it('sends a ✓ whose stroke stands over the label’s untouched box to a person instead of reading it as blank', () => {
    const c = classifyMarks(raw());
    for (const q of ['q12', 'q13']) {
      expect(read(c, q)).toMatchObject({ status: 'uncertain', chosen: '' });
      expect(c.uncertain.find((u) => u.questionId === q)?.message).toBe(
        `第${q.slice(1)}题的“✓”上只有细线笔迹（像打勾、画叉或画圈），不是涂满的填涂，无法确定是否作答，请人工核对`,
      );
    }
    // The question the student left blank is still read as blank.
    expect(read(c, 'q4')).toMatchObject({ status: 'blank', chosen: '' });
  });

  it('still reads a box only a little over its label’s untouched one as blank', () => {
    // 0.10 over the ✓ label's lowest texture (q15's untouched box, 0.1595): a dither's noise, not a stroke.
    const c = classifyMarks(raw((q, o, m) => (q === 'q12' && o === 'T' ? [...m.slice(0, 5), 0.2595] : m)));
    expect(read(c, 'q12')).toMatchObject({ status: 'blank', chosen: '' });
  });

  it('keeps the bar of ADR 0084 on a sheet without strokes across its choice boxes', () => {
    // The same page with every choice box's line texture at print level: no stroke habit to lower the bar.
    const c = classifyMarks(raw((q, _o, m) => (Number(q.slice(1)) <= 11 ? [...m.slice(0, 5), 0.2] : m)));
    // (q12's ✓ stands 0.026 above its empty level, under the faint mark below; q13's, at 0.032, is that too.)
    expect(read(c, 'q12')).toMatchObject({ status: 'blank', chosen: '' });
  });
});

describe('classifyMarks reading a faint mark on a sheet without fills to calibrate on (ADR 0088)', () => {
  /**
   * A 200 dpi grey page of the independent model (fresh tuning page wild-6460) as measured. The student ticks so
   * faintly that their ticks stand 0.04–0.08 above the empty level, only one of them above the empty cut: the sheet has
   * neither fills nor a typical mark to calibrate on, and main's rules read q1, q2, q4, q6 and q8 silently as blank.
   * On q3 the student rubbed out C (0.06, as dark as their ticks); on q13 they rubbed out ✗ (0.02).
   */
  const FAINT: MeasuredRow[] = [
    [
      'q1',
      'single',
      {
        A: [0.0615, 0.0085, 0.3589, 0.0122, 0.1045, 0.1312],
        B: [0.0784, 0.0034, 0.306, 0.0129, 0.106, 0.21],
        C: [0.0531, 0, 0.2268, 0.0116, 0.1235, 0.1554],
        D: [0.1145, 0.0119, 0.3427, 0.0278, 0.128, 0.1925],
      },
    ],
    [
      'q2',
      'single',
      {
        A: [0.0613, 0.0051, 0.3577, 0.0118, 0.1035, 0.1298],
        B: [0.1428, 0.0153, 0.3484, 0.0907, 0.1201, 0.1804],
        C: [0.0529, 0, 0.2256, 0.012, 0.1237, 0.1552],
        D: [0.072, 0.0034, 0.2604, 0.0136, 0.0879, 0.1978],
      },
    ],
    [
      'q3',
      'single',
      {
        A: [0.0603, 0.0034, 0.3484, 0.0119, 0.0992, 0.1287],
        B: [0.0786, 0.0034, 0.3002, 0.0133, 0.0998, 0.2044],
        C: [0.1155, 0, 0.2832, 0.0772, 0.1328, 0.151],
        D: [0.0712, 0.0017, 0.257, 0.0136, 0.0834, 0.195],
      },
    ],
    [
      'q4',
      'single',
      {
        A: [0.0602, 0.0051, 0.3543, 0.0114, 0.0995, 0.1281],
        B: [0.1402, 0.0136, 0.3541, 0.0732, 0.1425, 0.205],
        C: [0.0511, 0, 0.2243, 0.0113, 0.1161, 0.1531],
        D: [0.0703, 0.0017, 0.2562, 0.0125, 0.0835, 0.1911],
      },
    ],
    [
      'q5',
      'single',
      {
        A: [0.0602, 0.0068, 0.3523, 0.0118, 0.0987, 0.1316],
        B: [0.0782, 0.0034, 0.3047, 0.013, 0.0997, 0.2027],
        C: [0.0514, 0, 0.2237, 0.0112, 0.1164, 0.1553],
        D: [0.1553, 0.0458, 0.4354, 0.0498, 0.0976, 0.2097],
      },
    ],
    [
      'q6',
      'single',
      {
        A: [0.065, 0.0068, 0.3518, 0.0137, 0.1074, 0.133],
        B: [0.0816, 0.0051, 0.3096, 0.0144, 0.1093, 0.2089],
        C: [0.0553, 0.0085, 0.2359, 0.0138, 0.1274, 0.1581],
        D: [0.1328, 0.0017, 0.2789, 0.0611, 0.1362, 0.1563],
      },
    ],
    [
      'q7',
      'single',
      {
        A: [0.1289, 0.0238, 0.4321, 0.0387, 0.1444, 0.1851],
        B: [0.0818, 0.0068, 0.3091, 0.0151, 0.1097, 0.2092],
        C: [0.0624, 0.0085, 0.2428, 0.0221, 0.1286, 0.1611],
        D: [0.0739, 0, 0.2612, 0.0141, 0.0901, 0.1971],
      },
    ],
    [
      'q8',
      'single',
      {
        A: [0.0649, 0.0051, 0.3513, 0.0134, 0.1015, 0.1272],
        B: [0.0812, 0.0068, 0.3049, 0.0148, 0.1036, 0.2048],
        C: [0.0553, 0, 0.2349, 0.0138, 0.1214, 0.1577],
        D: [0.1469, 0.0119, 0.3654, 0.0854, 0.1232, 0.1695],
      },
    ],
    [
      'q9',
      'multiple',
      {
        A: [0.1304, 0.0221, 0.3839, 0.0581, 0.1416, 0.1921],
        B: [0.1928, 0.0832, 0.552, 0.1494, 0.1004, 0.202],
        C: [0.1308, 0.0119, 0.4006, 0.0443, 0.1333, 0.2258],
        D: [0.1439, 0.0509, 0.4153, 0.0503, 0.0998, 0.2211],
      },
    ],
    [
      'q10',
      'multiple',
      {
        A: [0.1474, 0.0221, 0.4093, 0.0814, 0.1363, 0.183],
        B: [0.1606, 0.0509, 0.4776, 0.0575, 0.1106, 0.2782],
        C: [0.1366, 0.0136, 0.3863, 0.0501, 0.1774, 0.212],
        D: [0.0719, 0, 0.2582, 0.0135, 0.0869, 0.1827],
      },
    ],
    [
      'q11',
      'multiple',
      {
        A: [0.1405, 0.0221, 0.4256, 0.0845, 0.1413, 0.196],
        B: [0.079, 0, 0.3034, 0.0133, 0.0819, 0.1935],
        C: [0.052, 0, 0.2209, 0.0117, 0.1169, 0.1445],
        D: [0.0716, 0, 0.2577, 0.0129, 0.0832, 0.1811],
        E: [0.1564, 0.0136, 0.3589, 0.0968, 0.1696, 0.2002],
      },
    ],
    [
      'q12',
      'truefalse',
      {
        T: [0.1151, 0.0051, 0.326, 0.0273, 0.1414, 0.1585],
        F: [0.0803, 0.0187, 0.4417, 0.013, 0.0824, 0.2259],
      },
    ],
    [
      'q13',
      'truefalse',
      {
        T: [0.0544, 0.0102, 0.319, 0.0111, 0.0998, 0.1702],
        F: [0.0954, 0.0204, 0.4406, 0.0308, 0.0898, 0.2175],
      },
    ],
    [
      'q14',
      'truefalse',
      {
        T: [0.1219, 0.0255, 0.3438, 0.0447, 0.1273, 0.163],
        F: [0.0762, 0.0136, 0.4174, 0.0136, 0.093, 0.2253],
      },
    ],
    [
      'q15',
      'truefalse',
      {
        T: [0.1301, 0.0374, 0.35, 0.0419, 0.1615, 0.1824],
        F: [0.0896, 0.0323, 0.4397, 0.0235, 0.1094, 0.2333],
      },
    ],
    [
      'q16',
      'truefalse',
      {
        T: [0.1559, 0.0611, 0.4416, 0.0609, 0.1671, 0.2792],
        F: [0.117, 0.0357, 0.4511, 0.0549, 0.1344, 0.2149],
      },
    ],
  ];
  const read = (c: ReturnType<typeof classifyMarks>, q: string) => c.marks.find((m) => m.questionId === q);

  it('sends a blank-looking question with a bubble clearly above the empty level to a person', () => {
    const c = classifyMarks(measuredPage(FAINT));
    for (const q of ['q1', 'q2', 'q3', 'q4', 'q6', 'q8']) {
      expect(read(c, q)).toMatchObject({ status: 'uncertain', chosen: '' });
      expect(c.uncertain.find((u) => u.questionId === q)?.message).toBe(
        `第${q.slice(1)}题有填涂无法确定（涂得太浅、只涂了一部分、打勾或擦除不干净），请人工核对`,
      );
    }
    // The tick clear of the empty cut is still read; a rubbed trace lighter than 0.03 is still blank.
    expect(read(c, 'q5')).toMatchObject({ status: 'ok', chosen: 'D' });
    expect(read(c, 'q13')).toMatchObject({ status: 'blank', chosen: '' });
  });

  it('still reads a question as blank when its darkest bubble stays under 0.03 above the empty level', () => {
    // q1's tick on D made 0.02 lighter: 0.024 above its label's empty level, as untouched bubbles reach.
    const c = classifyMarks(
      measuredPage(FAINT, (q, o, m) => (q === 'q1' && o === 'D' ? [m[0]! - 0.02, ...m.slice(1)] : m)),
    );
    expect(read(c, 'q1')).toMatchObject({ status: 'blank', chosen: '' });
  });
});
