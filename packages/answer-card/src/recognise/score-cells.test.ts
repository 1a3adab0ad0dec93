import { describe, expect, it } from 'vitest';
import type { ScoreReading } from '@zhzy/contracts';
import sharp from 'sharp';
import type { Affine } from './affine.js';
import { requireTools } from '../testing/raster.js';
import { decodePage } from './image.js';
import { recognisePage } from './recognise.js';
import {
  boxGrid,
  cellStates,
  decide,
  readScoreBoxes,
  GREY_CONTRAST,
  GREY_MARGIN,
  greyCuts,
  RESIDUAL_CONTRAST,
  RESIDUAL_MARGIN,
  residualCuts,
  TICK_MIN,
  type BoxCell,
} from './score-cells.js';
import { SCORE_SCANS, scoreCardLayout, scoreOutcome, scoreSheet } from './testing/score-corpus.js';

type Cell = ScoreReading['cells'][number];
const cell = (role: Cell['role'], value: number, state: Cell['state'] = 'ticked', other?: number): Cell => ({
  role,
  value,
  ink: state === 'ticked' ? TICK_MIN * 2 : 0,
  weak: state === 'empty' ? 0 : 0.04,
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

describe('a stroke belongs to the one cell it centres on', () => {
  // A tens row 0, 10, 20 over a units row 0–3: 5.4 × 4.6 mm cells at a 6.4 mm pitch, rows 6 mm apart.
  const cells: BoxCell[] = [
    ...[0, 10, 20].map((value, i) => ({
      role: 'tens' as const,
      value,
      rect: { x: i * 6.4, y: 0, w: 5.4, h: 4.6 },
    })),
    ...[0, 1, 2, 3].map((value, i) => ({
      role: 'units' as const,
      value,
      rect: { x: i * 6.4, y: 6, w: 5.4, h: 4.6 },
    })),
  ];
  const centre = (role: string, value: number) => {
    const r = cells.find((c) => c.role === role && c.value === value)!.rect;
    return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
  };
  type P = { x: number; y: number };
  /**
   * Pen strokes 0.5 mm wide along polylines, read as the box's cell states; `light` ones are marks at all but not
   * clear ink (a lighter pen's strokes under the ink cut).
   */
  const read = (...strokes: (P[] | { light: P[] })[]) => {
    const near = (p: P, a: P, b: P) => {
      const [dx, dy] = [b.x - a.x, b.y - a.y];
      const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)));
      return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy) <= 0.25;
    };
    const { raw, ...grid } = boxGrid(cells, (p) => {
      const on = (l: P[]) => l.slice(1).some((b, i) => near(p, l[i]!, b));
      const v = Math.max(0, ...strokes.map((l) => ('light' in l ? (on(l.light) ? 0.3 : 0) : on(l) ? 1 : 0)));
      return { raw: v, dark: v };
    });
    const cut = { ink: 0.5, weak: 0.2 };
    const states = cellStates({ ...grid, v: raw }, { inside: cut, frame: cut });
    return cells.flatMap((c, i) => (states[i] === 'empty' ? [] : [`${c.role} ${c.value} ${states[i]}`]));
  };
  const tick = (c: P, s = 1.2): P[] => [
    { x: c.x - 1.8 * s, y: c.y },
    { x: c.x - 0.5 * s, y: c.y + 1.5 * s },
    { x: c.x + 2.2 * s, y: c.y - 1.9 * s },
  ];
  /** An ellipse round `c`, or its arc from angle `from` to `to` (turns, 0 to the right, clockwise on the page). */
  const ring = (c: P, rx: number, ry: number, from = 0, to = 1): P[] =>
    Array.from({ length: 41 }, (_, i) => {
      const a = (from + ((to - from) * i) / 40) * 2 * Math.PI;
      return { x: c.x + rx * Math.cos(a), y: c.y + ry * Math.sin(a) };
    });

  it('ticks the cell an over-mark centres on, not the neighbour its arm reaches into', () => {
    const u1 = centre('units', 1);
    expect(read(tick({ x: u1.x + 1.8, y: u1.y + 0.4 }))).toEqual(['units 1 ticked']);
  });

  it('ticks the cell a circle is drawn round, though its ring lies on the frame and past it', () => {
    expect(read(ring(centre('units', 2), 3.2, 2.7))).toEqual(['units 2 ticked']);
  });

  it('reads a tens tick and a units tick that touch across the rows as the two ticks they are', () => {
    const t10 = centre('tens', 10);
    const u3 = centre('units', 3);
    expect(
      read(
        tick(t10),
        [
          { x: t10.x + 2.6, y: t10.y - 2.2 },
          { x: u3.x - 3, y: u3.y - 1 },
        ],
        tick(u3),
      ),
    ).toEqual(expect.arrayContaining(['tens 10 faint']));
    // Touching (the tens tick's end on the units tick's arm), each part whole inside its own cell.
    expect(
      read([...tick(t10).slice(0, 2), { x: t10.x + 1, y: t10.y + 4.6 }], tick(centre('units', 1))),
    ).toEqual(['tens 10 ticked', 'units 1 ticked']);
  });

  it('never reads a crossed-out tick joined to the meant one in the next cell as one mark', () => {
    const u1 = centre('units', 1);
    const u2 = centre('units', 2);
    const wrong = [
      tick(u1, 1.4),
      [
        { x: u1.x - 2, y: u1.y - 2 },
        { x: u1.x + 2, y: u1.y + 2 },
      ],
      [
        { x: u1.x + 2, y: u1.y - 2 },
        { x: u1.x - 2, y: u1.y + 2 },
      ],
    ];
    // The meant tick's arm reaches back into the crossed-out cell.
    // Joined, neither cell is clearly the mark's: a person looks (never the crossed-out 1 read alone).
    expect(read(...wrong, [{ x: u2.x - 4.2, y: u2.y }, ...tick(u2).slice(1)])).toEqual([
      'units 1 faint',
      'units 2 faint',
    ]);
  });

  it('never reads a crossed-out mark as the score when the meant mark joined to it lies on the next cell’s frame', () => {
    // ADR 0065, session 18's held-out: the crossed-out 0 touching the meant 1, slashed at its cell's left edge,
    // mostly in the paper gap and on the frame — one mark centred on the crossed-out cell, hardly any of it inside
    // the meant one. It must never read as 0: a person looks.
    const u0 = centre('units', 0);
    const u1 = centre('units', 1);
    const crossedOut = [
      tick({ x: u0.x + 1.2, y: u0.y }, 1.2),
      [
        { x: u0.x - 1.5, y: u0.y - 1.5 },
        { x: u0.x + 1.5, y: u0.y + 1.5 },
      ],
      [
        { x: u0.x + 1.5, y: u0.y - 1.5 },
        { x: u0.x - 1.5, y: u0.y + 1.5 },
      ],
    ];
    const slash = [
      { x: u1.x - 3.9, y: u1.y + 1.9 },
      { x: u1.x - 2.1, y: u1.y - 2.3 },
    ];
    const states = read(...crossedOut, slash);
    expect(states).not.toEqual(['units 0 ticked']);
    expect(states).toEqual(expect.arrayContaining(['units 0 faint', 'units 1 faint']));
  });

  it('never reads a crossed-out mark as the score when the meant circle joined to it lies round the next cell', () => {
    // The meant 1 circled round its frame in a lighter pen, only its side touching the crossed-out 2 clear ink: one
    // mark centred on the crossed-out cell, none of it inside the meant one. Not the 2 alone either.
    const u1 = centre('units', 1);
    const u2 = centre('units', 2);
    const circled = read(
      tick({ x: u2.x - 0.6, y: u2.y }, 1.3),
      [
        { x: u2.x - 1.5, y: u2.y - 1.5 },
        { x: u2.x + 1.5, y: u2.y + 1.5 },
      ],
      [
        { x: u2.x + 1.5, y: u2.y - 1.5 },
        { x: u2.x - 1.5, y: u2.y + 1.5 },
      ],
      ring(u1, 3.1, 2.7, -0.17, 0.17),
      { light: ring(u1, 3.1, 2.7, 0.17, 0.83) },
    );
    expect(circled).toEqual(['units 1 faint', 'units 2 faint']);
  });

  it('leaves a stroke that could belong to two cells faint: a person looks', () => {
    const u1 = centre('units', 1);
    // A slash in the paper gap between units 1 and 2.
    expect(
      read([
        { x: u1.x + 3.2, y: u1.y + 2 },
        { x: u1.x + 3.2, y: u1.y - 2 },
      ]),
    ).toEqual(['units 1 faint', 'units 2 faint']);
    // A stroke along the gap between the rows, under tens 10 and over units 1.
    expect(
      read([
        { x: u1.x - 2, y: u1.y - 3 },
        { x: u1.x + 2, y: u1.y - 3 },
      ]),
    ).toEqual(['tens 10 faint', 'units 1 faint']);
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

describe('a light red pen on a grey scan, read against the print its cells are known to carry', () => {
  it('cuts the darkness beyond the print: a mark at all a margin above it, ink halfway to the pen', () => {
    expect(residualCuts(0.4)).toEqual({ ink: 0.2, weak: RESIDUAL_MARGIN, clear: true });
    expect(residualCuts(RESIDUAL_CONTRAST).ink).toBe(RESIDUAL_MARGIN);
    // A pen no clearer than what the print leaves (JPEG ringing, registration): every mark faint, a person looks.
    expect(residualCuts(RESIDUAL_CONTRAST - 0.01)).toMatchObject({ ink: Infinity, clear: false });
  });

  /**
   * The readings of one grey corpus sheet, as `question truth → status score reason`; `edit` may change the scanned
   * page (grey pixels, 200 dpi: card millimetres × 200 / 25.4) before it is read (then stored as a lossless PNG).
   */
  const readGrey = async (
    seed: number,
    ids: string[],
    edit?: (px: { data: Buffer; width: number; height: number }) => void,
  ) => {
    requireTools(['pdftoppm']);
    const layout = scoreCardLayout();
    const [sheet] = await scoreSheet(layout, seed, 'grey');
    let image = sheet!.image;
    if (edit) {
      const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
      edit({ data, width: info.width, height: info.height });
      image = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
        .png()
        .toBuffer();
    }
    const { result } = await recognisePage(image, {
      resolve: () => layout,
      crops: { format: 'none' },
    });
    return ids.map((id) => {
      const r = result.scores!.find((s) => s.questionId === id)!;
      return `${id} ${sheet!.truths.find((t) => t.questionId === id)!.score} → ${r.status} ${r.score} ${r.reason}`;
    });
  };

  it('reads a light pen as light as the printed frame, which the page’s print levels leave to a person', async () => {
    // Seed 7's q4: a light orange-red tick in the "1" cell (read against the page's print levels: faintMark).
    expect(await readGrey(7, ['q4'])).toEqual(['q4 1 → ok 1 null']);
  }, 60_000);

  it('reads a light pen on a value printed fewer than twice against the print composed from its digits', async () => {
    // Seed 63's q1: a light pen on "20" (one twin, in q6) and "0.5". Session 18 left it to a person (faintMark); the
    // print of "20" is now the "2" and "0" cells' print, each shifted by half the digits' advance fitted on "10".
    expect(await readGrey(63, ['q1'])).toEqual(['q1 20.5 → ok 20.5 null']);
  }, 60_000);

  it('leaves such a box to a person when the composed print does not match the page', async () => {
    // The same sheet with the digits of every "10" cell wiped off the scan: the composition of "1" and "0" no longer
    // matches what the page prints as "10", so the print of "20" cannot be trusted either.
    const layout = scoreCardLayout();
    const tens = layout.pages[0]!.elements.flatMap((e) =>
      e.type === 'scoreBox' ? e.rows.flatMap((r) => r.cells.filter((c) => c.value === 10)) : [],
    );
    expect(tens.length).toBeGreaterThan(2);
    const px = 200 / 25.4;
    const wipe = ({ data, width }: { data: Buffer; width: number }) => {
      for (const { rect } of tens)
        for (let y = Math.round((rect.y + 1.1) * px); y < (rect.y + rect.h - 1.1) * px; y++)
          for (let x = Math.round((rect.x + 1.1) * px); x < (rect.x + rect.w - 1.1) * px; x++)
            data[y * width + x] = 255;
    };
    expect(await readGrey(63, ['q1'], wipe)).toEqual(['q1 20.5 → doubtful null faintMark']);
  }, 60_000);
});

describe('a page whose only ink is the teacher’s red (先阅后扫)', () => {
  it.each(['colour', 'grey'] as const)(
    'is read with its scores and raises no blank page (%s)',
    async (scan) => {
      requireTools(['pdftoppm']);
      const layout = scoreCardLayout();
      // Seed 15: every box ticked (no √ / × on an answer, nothing faint or corrected); the student wrote nothing.
      const [sheet] = await scoreSheet(layout, 15, scan, { studentAnswers: false });
      expect(sheet!.truths.every((t) => !t.answerMark && t.score !== null)).toBe(true);
      const { result } = await recognisePage(sheet!.image, {
        resolve: () => layout,
        crops: { format: 'none' },
      });
      expect(result.crops.length).toBeGreaterThan(0);
      expect(result.crops.every((c) => c.blank)).toBe(true);
      expect(result.problems.map((p) => p.code)).not.toContain('blankPage');
      const read = sheet!.truths.map((t) =>
        scoreOutcome(
          t,
          result.scores?.find((s) => s.questionId === t.questionId),
        ),
      );
      expect(read).toEqual(sheet!.truths.map(() => 'right'));
    },
    60_000,
  );
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

describe('score boxes of a grey file decoded in full', () => {
  it.each(['grey', 'bitonal'] as const)(
    'are read from the page already decoded, not from the file again, with the same readings (%s)',
    async (scan) => {
      requireTools(['pdftoppm']);
      const layout = scoreCardLayout();
      const [sheet] = await scoreSheet(layout, 21, scan);
      // One grey band, as a scanner's grey JPEG holds it; a 1-bit scan as a black-and-white palette PNG.
      const file =
        scan === 'grey'
          ? await sharp(sheet!.image).toColourspace('b-w').jpeg({ quality: 90 }).toBuffer()
          : sheet!.image;
      const meta = await sharp(file).metadata();
      expect(scan === 'grey' ? meta.channels : meta.bitsPerSample).toBe(1);
      const { result } = await recognisePage(file, { resolve: () => layout, crops: { format: 'none' } });
      expect(result.scores?.length).toBeGreaterThan(0);
      const decoded = await decodePage(file);
      expect(decoded.greyFile).toBe(true);
      const page = layout.pages[result.identity!.page - 1]!;
      const m = result.transform!.matrix as unknown as Affine;
      const fromFile = await readScoreBoxes(file, 0, m, page, result.levels!, decoded.bitonal);
      expect(fromFile?.length).toBe(result.scores!.length);
      // No file at all: only the decoded page can give the boxes.
      const fromPage = await readScoreBoxes(
        Buffer.alloc(0),
        0,
        m,
        page,
        result.levels!,
        decoded.bitonal,
        decoded.image,
      );
      expect(fromPage).toEqual(fromFile);
    },
    120_000,
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
        const { result } = await recognisePage(sheet!.image, {
          resolve: () => layout,
          crops: { format: 'none' },
        });
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
