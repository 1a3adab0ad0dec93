import { describe, expect, it } from 'vitest';
import type { ScoreReading } from '@zhzy/contracts';
import { requireTools } from '../testing/raster.js';
import { recognisePage } from './recognise.js';
import { decide, EMPTY_MAX, GREY_CONTRAST, GREY_MARGIN, greyCuts, TICK_MIN } from './score-cells.js';
import { SCORE_SCANS, scoreCardLayout, scoreOutcome, scoreSheet } from './testing/score-corpus.js';

type Cell = ScoreReading['cells'][number];
const cell = (role: Cell['role'], value: number, state: Cell['state'] = 'ticked', other?: number): Cell => ({
  role,
  value,
  ink: state === 'ticked' ? TICK_MIN * 2 : 0,
  weak: state === 'empty' ? 0 : EMPTY_MAX * 2,
  ...(other !== undefined ? { other } : {}),
  state,
});
const empty = (role: Cell['role'], values: number[]) => values.map((v) => cell(role, v, 'empty'));
const box = { fullScore: 25 };

describe('reading rules of a score box', () => {
  it('adds the one tick of each row: tens, units and the 0.5 cell', () => {
    expect(
      decide(box, [cell('tens', 20), ...empty('units', [0, 1]), cell('units', 4), cell('half', 0.5)]),
    ).toEqual({
      score: 24.5,
      status: 'ok',
      reason: null,
    });
    // An empty tens row is 0 tens.
    expect(decide(box, [...empty('tens', [0, 10, 20]), cell('units', 7)])).toMatchObject({
      score: 7,
      status: 'ok',
    });
    expect(decide(box, [cell('tens', 0), cell('units', 0)])).toMatchObject({ score: 0, status: 'ok' });
  });

  it('never guesses: two ticks in a row, a faint mark, units left out or a score above full go to a person', () => {
    expect(decide(box, [cell('units', 3), cell('units', 4)])).toMatchObject({
      score: null,
      status: 'doubtful',
      reason: 'multipleTicks',
    });
    expect(decide(box, [cell('tens', 10), cell('tens', 20), cell('units', 1)]).reason).toBe('multipleTicks');
    expect(decide(box, [cell('units', 3), cell('units', 8, 'faint')]).reason).toBe('faintMark');
    expect(decide(box, [cell('tens', 10), ...empty('units', [0, 1])]).reason).toBe('unitsMissing');
    expect(decide(box, [cell('half', 0.5)]).reason).toBe('unitsMissing');
    expect(decide(box, [cell('tens', 20), cell('units', 6)]).reason).toBe('overFullScore');
  });

  it('reads an untouched box as blank (marked on screen), and a dark but not red mark on a colour scan as doubtful', () => {
    expect(decide(box, empty('units', [0, 1, 2]))).toEqual({ score: null, status: 'blank', reason: null });
    expect(decide(box, [...empty('units', [0, 1]), cell('units', 2, 'empty', TICK_MIN * 3)]).reason).toBe(
      'notRed',
    );
  });
});

describe('grey cuts from the sheet’s own evidence', () => {
  it('puts ink halfway between the printed level and the teacher’s pen, and a mark just above the print', () => {
    expect(greyCuts(0.2, 0.8)).toEqual({ ink: 0.5, weak: 0.2 + GREY_MARGIN, clear: true });
    // A light pen is still told apart from the print, its ink cut follows it down.
    const light = greyCuts(0.2, 0.2 + GREY_CONTRAST + 0.05);
    expect(light.clear).toBe(true);
    expect(light.ink).toBeLessThan(0.5);
    expect(light.ink).toBeGreaterThanOrEqual(light.weak);
  });

  it('leaves every mark faint (a person looks) when the pen is as light as the print', () => {
    const cuts = greyCuts(0.2, 0.2 + GREY_CONTRAST / 2);
    expect(cuts.clear).toBe(false);
    expect(cuts.ink).toBe(Infinity);
  });
});

describe('score boxes on marked and scanned sheets', () => {
  it.each(SCORE_SCANS)(
    'reads the teacher’s red marks on a %s scan: right, or to a person, never silently wrong',
    async (scan) => {
      requireTools(['pdftoppm']);
      const layout = scoreCardLayout();
      const outcomes: string[] = [];
      let boxes = 0;
      for (const seed of [11, 12, 13]) {
        for (const sheet of await scoreSheet(layout, seed, scan)) {
          const { result } = await recognisePage(sheet.image, {
            resolve: () => layout,
            crops: { format: 'none' },
          });
          expect(result.scores?.every((s) => s.colour === (scan === 'colour'))).toBe(true);
          for (const truth of sheet.truths) {
            boxes++;
            const reading = result.scores?.find((s) => s.questionId === truth.questionId);
            const outcome = scoreOutcome(truth, reading);
            // A √ / × on the answer is read on colour scans only; on grey it goes to a person.
            if (outcome !== 'right' && !(truth.answerMark && scan !== 'colour' && outcome === 'person'))
              outcomes.push(
                `${outcome} ${seed} ${truth.questionId} ${truth.score} → ${reading?.status} ${reading?.score}`,
              );
          }
        }
      }
      expect(boxes).toBe(18);
      expect(outcomes.filter((o) => o.startsWith('silent'))).toEqual([]);
      if (scan === 'bitonal') {
        // A 1-bit scan may drop a light red tick: nothing is taken alone there, nothing is silently wrong.
        expect(outcomes.filter((o) => o.includes('→ ok'))).toEqual([]);
        expect(outcomes.length).toBeGreaterThan(0);
      } else expect(outcomes).toEqual([]);
    },
    240_000,
  );
});

describe('a red √ / × on the answer when no box was ticked', () => {
  it('reads a clear √ as full score and × as zero on a colour scan, with its source; a half-right √ and grey scans go to a person', async () => {
    requireTools(['pdftoppm']);
    const layout = scoreCardLayout();
    const seen: string[] = [];
    for (const scan of ['colour', 'grey'] as const)
      for (const seed of [29, 32]) {
        const [sheet] = await scoreSheet(layout, seed, scan);
        const { result } = await recognisePage(sheet!.image, { resolve: () => layout, crops: { format: 'none' } });
        for (const truth of sheet!.truths.filter((t) => t.answerMark)) {
          const r = result.scores!.find((s) => s.questionId === truth.questionId)!;
          seen.push(`${scan} ${truth.answerMark} → ${r.status} ${r.score} ${r.source} ${r.reason}`);
        }
      }
    expect(seen.sort()).toEqual([
      'colour cross → ok 0 mark null',
      'colour halfTick → doubtful null mark answerMarkUnclear',
      'colour halfTick → doubtful null mark answerMarkUnclear',
      'colour tick → ok 25 mark null',
      'colour tick → ok 30 mark null',
      'grey cross → blank null box null',
      'grey halfTick → blank null box null',
      'grey halfTick → blank null box null',
      'grey tick → blank null box null',
      'grey tick → blank null box null',
    ]);
  }, 240_000);
});
