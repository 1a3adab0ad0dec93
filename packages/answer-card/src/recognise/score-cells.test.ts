import { describe, expect, it } from 'vitest';
import type { ScoreReading } from '@zhzy/contracts';
import { requireTools } from '../testing/raster.js';
import { recognisePage } from './recognise.js';
import { decide, EMPTY_MAX, TICK_MIN } from './score-cells.js';
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
            if (outcome !== 'right')
              outcomes.push(
                `${seed} ${truth.questionId} ${truth.score} → ${reading?.status} ${reading?.score}`,
              );
          }
        }
      }
      expect(boxes).toBe(18);
      if (scan === 'bitonal') {
        // A 1-bit scan may drop a light red tick: nothing is taken alone there, nothing is silently wrong.
        expect(outcomes.filter((o) => o.includes('→ ok'))).toEqual([]);
        expect(outcomes.length).toBeGreaterThan(0);
      } else expect(outcomes).toEqual([]);
    },
    240_000,
  );
});
