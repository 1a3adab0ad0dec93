import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualScanSchema, type CardLayout } from '@zhzy/contracts';
import { ClassModel } from '../src/scanners/virtual/class-model.js';
import { demoLayout } from '../src/scanners/virtual/demo-card.js';
import { Random } from '../src/scanners/virtual/random.js';
import { decideSheet, demoStudents, type SheetTruth } from '../src/scanners/virtual/sheet.js';
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { tempDir } from './helpers.js';

const work = tempDir('zhzy-virtual-class-');
afterAll(() => work.remove());

const layout = demoLayout();
const rows = layout.pages.flatMap((p) =>
  p.elements.flatMap((e) => (e.type === 'objectiveBlock' ? e.rows : [])),
);
const POINTS = { single: 3, multiple: 4, truefalse: 2 } as const;

/** A key for the demo card: one option per single choice, T or F, two or three options per multiple choice. */
function demoKey(): Record<string, string> {
  const rng = new Random(2026);
  const key: Record<string, string> = {};
  for (const r of rows) {
    const options = r.bubbles.map((b) => b.option);
    if (r.kind === 'multiple') {
      const k = rng.int(2, 3);
      key[r.questionId] = [...options]
        .sort(() => rng.next() - 0.5)
        .slice(0, k)
        .sort()
        .join('');
    } else key[r.questionId] = rng.pick(options);
  }
  return key;
}
const KEY = demoKey();

/** A class set as the virtual driver decides it: sheet rng from the seed and feeder place, the model from the key. */
function classSet(
  seed: number,
  size = 40,
  extra: { key?: Record<string, string>; difficulty?: Record<string, number> } = {},
  card: CardLayout = layout,
): SheetTruth[] {
  const options = VirtualScanSchema.parse({ seed, key: extra.key ?? KEY, difficulty: extra.difficulty });
  const model = ClassModel.of(options);
  return demoStudents(size).map((student, sheet) =>
    decideSheet(card, student, new Random(seed * 100_003 + sheet).fork(1), {}, model),
  );
}

/** A sheet's objective score rate against the key: full points when exact, half for 少选 (the default rule). */
function scoreRate(truth: SheetTruth, key = KEY): number {
  let got = 0;
  let full = 0;
  for (const r of rows) {
    const points = POINTS[r.kind];
    const k = key[r.questionId]!;
    const a = truth.answers[r.questionId]!;
    full += points;
    if (a === k) got += points;
    else if (r.kind === 'multiple' && a !== '' && [...a].every((o) => k.includes(o))) got += points / 2;
  }
  return got / full;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));

describe('a virtual class with the answer key', () => {
  it('scores about 70 % on objective questions, every class between 60 and 80 %, with a real spread of students', () => {
    const classRates: number[] = [];
    for (let seed = 1; seed <= 12; seed++) {
      const rates = classSet(seed).map((t) => scoreRate(t));
      classRates.push(mean(rates));
      expect(mean(rates), `seed ${seed}`).toBeGreaterThan(0.6);
      expect(mean(rates), `seed ${seed}`).toBeLessThan(0.8);
      // Students differ as in a real class: weak ones below half, strong ones near full marks.
      expect(sd(rates), `seed ${seed}`).toBeGreaterThan(0.1);
      expect(sd(rates), `seed ${seed}`).toBeLessThan(0.26);
      expect(Math.min(...rates), `seed ${seed}`).toBeLessThan(0.5);
      expect(Math.max(...rates), `seed ${seed}`).toBeGreaterThan(0.9);
    }
    expect(mean(classRates)).toBeGreaterThan(0.66);
    expect(mean(classRates)).toBeLessThan(0.74);
  });

  it('gets easy questions right more often than hard ones, and able students more than weak ones', () => {
    // Within a paper: the single choices marked 容易 against those marked 困难.
    const singles = rows.filter((r) => r.kind === 'single').map((r) => r.questionId);
    const easyIds = singles.slice(0, singles.length / 2);
    const hardIds = singles.slice(singles.length / 2);
    const difficulty = Object.fromEntries([...easyIds.map((id) => [id, 0]), ...hardIds.map((id) => [id, 1])]);
    const mixed = [1, 2, 3].flatMap((seed) => classSet(seed, 40, { difficulty }));
    const rightOn = (ids: string[]) =>
      mean(mixed.flatMap((t) => ids.map((id) => (t.answers[id] === KEY[id] ? 1 : 0))));
    expect(rightOn(easyIds) - rightOn(hardIds)).toBeGreaterThan(0.3);

    // Across papers: a paper of 容易 questions scores higher than one of 困难 ones, both within reason.
    const ids = rows.map((r) => r.questionId);
    const easy = classSet(3, 40, { difficulty: Object.fromEntries(ids.map((id) => [id, 0])) });
    const hard = classSet(3, 40, { difficulty: Object.fromEntries(ids.map((id) => [id, 1])) });
    const easyRate = mean(easy.map((t) => scoreRate(t)));
    const hardRate = mean(hard.map((t) => scoreRate(t)));
    expect(easyRate - hardRate).toBeGreaterThan(0.1);
    expect(easyRate).toBeLessThan(0.9);
    expect(hardRate).toBeGreaterThan(0.5);

    const set = classSet(4, 60);
    const byAbility = [...set].sort((a, b) => a.ability! - b.ability!);
    const third = Math.floor(set.length / 3);
    const weak = mean(byAbility.slice(0, third).map((t) => scoreRate(t)));
    const strong = mean(byAbility.slice(-third).map((t) => scoreRate(t)));
    expect(strong - weak).toBeGreaterThan(0.25);
  });

  it('is the same class for the same seed (each student the same ability wherever in the feeder), another for another seed', () => {
    expect(classSet(7).map((t) => t.answers)).toEqual(classSet(7).map((t) => t.answers));
    expect(classSet(8).map((t) => t.answers)).not.toEqual(classSet(7).map((t) => t.answers));
    const model = ClassModel.of(VirtualScanSchema.parse({ seed: 7, key: KEY }))!;
    const students = demoStudents(5);
    const forward = students.map((s) => model.ability(s));
    const backward = [...students].reverse().map((s) => model.ability(s));
    expect(backward.reverse()).toEqual(forward);
    expect(classSet(7, 5).map((t) => t.ability)).toEqual(forward);
  });

  it('chooses plausible wrong options: a favourite distractor per single choice, and 少选 on multiple choice', () => {
    const sets = [1, 2, 3].flatMap((seed) => classSet(seed, 40).map((t) => ({ seed, t })));
    let wrongSingles = 0;
    let favourite = 0;
    for (const seed of [1, 2, 3]) {
      const truths = sets.filter((s) => s.seed === seed).map((s) => s.t);
      for (const r of rows.filter((x) => x.kind === 'single')) {
        const wrong = truths
          .map((t) => t.answers[r.questionId]!)
          .filter((a) => a.length === 1 && a !== KEY[r.questionId]);
        const counts = new Map<string, number>();
        for (const a of wrong) counts.set(a, (counts.get(a) ?? 0) + 1);
        wrongSingles += wrong.length;
        favourite += Math.max(0, ...counts.values());
      }
    }
    // Three wrong options chosen evenly would give the most chosen about 40 % of them; a class's misconception more.
    expect(wrongSingles).toBeGreaterThan(50);
    expect(favourite / wrongSingles).toBeGreaterThan(0.5);

    const multiple = rows.filter((r) => r.kind === 'multiple');
    const wrongMultiple = sets.flatMap(({ t }) =>
      multiple
        .map((r) => [t.answers[r.questionId]!, KEY[r.questionId]!] as const)
        .filter(([a, k]) => a !== k),
    );
    const partial = wrongMultiple.filter(([a, k]) => a !== '' && [...a].every((o) => k.includes(o)));
    expect(wrongMultiple.length).toBeGreaterThan(20);
    expect(partial.length / wrongMultiple.length).toBeGreaterThan(0.4);
    expect(partial.length).toBeLessThan(wrongMultiple.length);
  });

  it('marks as 2B pencils do: the same blanks, double marks and mark styles as a class answering at random', () => {
    const truths = [1, 2, 3, 4, 5].flatMap((seed) => classSet(seed, 40));
    const singles = truths.flatMap((t) =>
      rows.filter((r) => r.kind !== 'multiple').map((r) => t.answers[r.questionId]!),
    );
    const blank = singles.filter((a) => a === '').length / singles.length;
    expect(blank).toBeGreaterThan(0.005);
    expect(blank).toBeLessThan(0.04);
    const marks = truths.flatMap((t) => t.marks.filter((m) => !m.target.includes(':')));
    const proper = marks.filter((m) => m.style === 'heavy' || m.style === 'normal').length;
    expect(proper / marks.length).toBeGreaterThan(0.98);
  });

  it('lets scripted answers win over the key, and answers at random where the key is silent or absent', () => {
    const model = ClassModel.of(VirtualScanSchema.parse({ seed: 1, key: { q1: 'B', q11: 'ACD' } }))!;
    const scripted = { q1: 'C', q11: 'A' };
    const truth = decideSheet(layout, demoStudents(1)[0]!, new Random(1), scripted, model);
    expect(truth.answers).toMatchObject(scripted);
    expect(truth.marks.filter((m) => m.target === 'q1').map((m) => [m.option, m.style])).toEqual([
      ['C', 'heavy'],
    ]);

    // q2 has no key: random, so a class gets it right about as often as one option in four.
    const random = classSet(1, 200, { key: { q1: 'B' } });
    const q1 = random.filter((t) => t.answers.q1 === 'B').length / random.length;
    const q2 = random.filter((t) => t.answers.q2 === 'B').length / random.length;
    expect(q1).toBeGreaterThan(0.55);
    expect(q2).toBeLessThan(0.4);

    expect(ClassModel.of(VirtualScanSchema.parse({ seed: 1 }))).toBeNull();
    const withoutKey = demoStudents(200).map((s, i) => decideSheet(layout, s, new Random(i + 1)));
    expect(withoutKey.every((t) => t.ability === null)).toBe(true);
    expect(mean(withoutKey.map((t) => scoreRate(t)))).toBeLessThan(0.4);
  });

  it('fills the feeder from the key it is sent', async () => {
    const scanner = new VirtualScanner();
    const dir = path.join(work.dir, 'keyed');
    fs.mkdirSync(dir);
    const virtual = VirtualScanSchema.parse({ sheets: 2, seed: 9, key: KEY });
    for await (const e of scanner.scan(
      'virtual',
      { source: 'feeder', colorMode: 'grey', resolution: 100, paper: null, workDir: dir, virtual },
      new AbortController().signal,
    ))
      void e;
    const truths = scanner.truths.get(dir)!;
    expect(truths.map((t) => t.answers)).toEqual(classSet(9, 2).map((t) => t.answers));
    expect(truths.every((t) => t.ability !== null)).toBe(true);
  });
});
