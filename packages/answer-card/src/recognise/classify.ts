import {
  MarkThresholdsSchema,
  RECOGNITION_PROBLEM_MESSAGES,
  type BubbleReading,
  type BubbleState,
  type DigitReading,
  type MarkStatus,
  type MarkThresholds,
  type MarkThresholdsInput,
  type QuestionMark,
  type RawMarks,
  type RecognitionProblem,
  type StudentNumberReading,
  type UncertainItem,
} from '@zhzy/contracts';

/** The marks and student number decided from raw measurements, with what goes to a person. */
export interface Classification {
  marks: QuestionMark[];
  studentNumber: StudentNumberReading | null;
  uncertain: UncertainItem[];
  /** Item problems: uncertain marks, several marks on a single choice, an invalid or missing student number. */
  problems: RecognitionProblem[];
  thresholds: MarkThresholds;
  /** The page's empty cut, the student's typical mark (null when too few clear marks) and the filled cut. */
  page: {
    emptyCut: number;
    fillLevel: number | null;
    filledCut: number;
    /** The sheet's own calibration (the student's clear fills' lighter and typical darkness), when it has one. */
    calibration?: { low: number; typical: number };
  };
}

interface RawBubble {
  option: string;
  ratio: number;
  core: number;
  peak?: number;
  mid?: number;
  rim?: number;
  streak?: number;
  line?: number;
}

/** Bubbles with the same printed label have the same empty darkness; families share a fallback. */
function family(kind: string): string {
  return kind === 'single' || kind === 'multiple' ? 'choice' : kind;
}

function quantile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.floor(p * (sorted.length - 1))));
  return sorted[i]!;
}

/** Never let a label's empty level rise more than this above its family's (a label filled on most questions). */
const LABEL_DRIFT = 0.04;
/** …nor sink more than this below it. */
const LABEL_DRIFT_LOW = 0.03;
/**
 * …but a label whose bubbles are print may keep its own darkest spot up to this far above its family's (ADR 0074: a
 * ✗ prints a spot 0.15 darker than a ✓ at 200 dpi; the drift sent every untouched ✗ of a blank page to a person).
 */
const GLYPH_SPOT_DRIFT = 0.25;
/**
 * …while its bubbles' darkest spots lie within this of each other (a dot or a line on any one of them moves its spot)
 * and its lightest mean darkness within `LABEL_DRIFT` of its family's.
 */
const GLYPH_ALIKE = 0.05;
/** A smudge (ADR 0061): a bubble at least this far above its label's empty level… */
const SMUDGE_DARK = 0.1;
/** …whose band round the box is at least this share as dark: the darkness does not stop at the brackets. */
const SMUDGE_RIM = 0.8;
/** A family with fewer bubbles than this on a page keeps its level near its lightest bubble. */
const SMALL_FAMILY = 12;
/** A stroke-shaped darkening (ADR 0054): mean this far above the label's empty level… */
const STROKE_DARK = 0.06;
/** …with its median under this share of it. */
const STROKE_FLAT = 0.5;
/** A circle drawn round the bracket (ADR 0059): the band around the box this far above its label's empty level… */
const RIM_DARK = 0.08;
/** …and this far darker than the inside of the box (an erasure or a smudge darkens both alike). */
const RIM_OVER = 0.04;
/**
 * A pen line on a 1-bit page (ADR 0061): a bubble scoring at least this above its label's empty level…
 */
const LINE_SCORE_BITONAL = 0.07;
/** …at least this many times its question's next bubble (it stands alone on its question)… */
const LINE_ALONE_BITONAL = 2;
/** …whose median stays paper (a rubbed-out layer dithers into dots that reach the median sooner)… */
const LINE_EVEN_BITONAL = 0.02;
/** …and whose darkest spot stands this far above its mean: black strokes, not an even sprinkle. */
const LINE_STROKE_BITONAL = 0.05;
/**
 * A hand's smear or a fold's shadow beside the student's own answer (ADR 0067): at least this far above the label's
 * empty level…
 */
const SMEAR_DARK = 0.15;
/** …its band round the box between `SMUDGE_RIM` and this share of its inside (a circle's ring is darker)… */
const SMEAR_RIM_MAX = 1.15;
/** …its darkest spot no darker than its mean (a line's would be)… */
const SMEAR_SPOT = -0.02;
/** …and at most this share of the student's typical fill. */
const SMEAR_SHARE = 1.2;
/**
 * Beside a single answer's one mark at least as dark as the student's lighter fills, an even mark at most this share
 * of their typical fill and of that mark is what a rubber left (ADR 0067).
 */
const BESIDE_SHARE = 0.5;
/** On a sheet without its own calibration, an even mark scoring under this is not read unattended (ADR 0067). */
const UNCALIBRATED_EVEN = 0.5;
/** A group without its own empty level: a bubble this far above the page's level is not silently empty (ADR 0067). */
const NO_LEVEL_FAINT = 0.03;
/**
 * …when its darkness is a mark's, not print's: a score of at least this, a darkest spot this far above the page's
 * level (a line), or a median this far above it (a layer). Two printed question numbers differ by up to 0.04 in score
 * with the same spot and median (ADR 0074: every blank optional choice went to a person).
 */
const NO_LEVEL_MARK = 0.06;
const NO_LEVEL_SPOT = 0.04;
const NO_LEVEL_EVEN = 0.01;
/**
 * A sheet without fills to calibrate on (a student who ticks, circles or marks lightly) is calibrated on the student's
 * own marks (ADR 0068): a bubble left empty whose darkening is not an even layer and scores at least this share of
 * their typical mark is like their marks, only fainter.
 */
const LINE_HABIT_SHARE = 0.4;
/** …never under this score (the print and paper of an empty bubble). */
const LINE_HABIT_MIN = 0.06;
/**
 * A dot or a pen line a 1-bit scan kept as a few black pixels (ADR 0068): on a bubble whose median stays paper, a
 * darkest spot this far above its label's empty one (untouched bubbles reached 0.14 on the tuning pages).
 */
const SPOT_BITONAL_FAINT = 0.17;
/**
 * …and whose mean is at least this far above its label's empty level (a printed letter a 1-bit threshold broke up into
 * specks moves its darkest spot, not its mean).
 */
const SPECK_DARK = 0.02;
/**
 * …and whose darkest spot stands this far above its label's typical spot on the same page (ADR 0074): a print a 1-bit
 * threshold broke into specks does so on most bubbles of its label, so their spots are alike; a dot stands out.
 */
const SPECK_OVER_PRINT = 0.1;
/** A label's typical spot is known from this many of its bubbles on the page. */
const PRINT_PEAK_MIN = 5;
/** A line on a 1-bit page (ADR 0074): a bubble this far above its label's empty level with its median still paper. */
const RING_DARK_BITONAL = 0.12;
/**
 * A stroke across the box (ADR 0084): its darkest straight band (rows, columns or diagonals, a stroke's width) at
 * least this much darker over the box's mean than its label's bubbles' usually are on the page (their lower quartile)…
 */
const LINE_OVER = 0.04;
/** …on a box at least this much darker than its label's empty level: a faint tick or cross, not print or speckle… */
const LINE_DARK_MIN = 0.03;
/**
 * …and on a 1-bit page this much: an ordered dither lays its dots in rows and diagonals, so a box only slightly
 * darkened (a hand's faint graphite, the scan's unevenness) already shows a band as dark as a faint stroke's.
 */
const LINE_DARK_BITONAL = 0.06;
/**
 * A sheet whose student fills steadily (ADR 0076): at least this many clear fills like the rest, the second lightest of
 * them and of every even mark standing alone on its question at least this share of their typical fill…
 */
const STEADY_FILLS = 6;
const STEADY_HAND = 0.75;
/** …reads an even layer under this share of that second lightest fill as neither a fill nor a residue: a person looks. */
const UNDER_FILLS = 0.8;
/**
 * …unless, on a grey page, its ink share above the empty level is at least this share of its mean darkness (ADR 0079):
 * the student's own lighter fills (one pass of the pencil) stood at 0.96–1.56 on the tuning pages, the rubbed layers
 * the rule is for at 0.22–0.54 (a rubber thins the graphite under the ink level).
 */
const INKED_SHARE = 0.75;
/**
 * A group without its own empty level (a card's optional choice) whose every bubble is darker than printed numbers
 * ever are (ADR 0076: untouched ones reached 0.22 mean darkness under a fold's shadow): there is no empty bubble to
 * measure the others against, so a dark pair is not read as blank.
 */
const NO_LEVEL_ALL_DARK = 0.25;
/**
 * On a sheet whose lighter fills stand within `STEADY_HAND` of the typical one, an even layer under this share of the
 * typical fill is not read as a mark unattended (ADR 0085): rubbed-out fills alone on their question kept 0.42–0.45 of
 * it on the tuning pages, while such hands' own fills stood at half and more, bar one. (An unsteady hand's own fills
 * reach under half; beside a darker mark of a single answer ADR 0067 already reads such a layer as rubbed out.)
 */
const HALF_FILL = 0.5;
/**
 * A sheet whose student answers in strokes (ADR 0088): at least this many choice boxes show a stroke across
 * (`strokeAcross`, ADR 0084). On the tuning pages sheets of fills showed at most 4, sheets of ticks and crosses 5–14.
 */
const STROKE_HABIT_MIN = 5;
/**
 * …where a true/false box left empty whose line texture stands this far over the lowest its label prints on the page
 * is not silently blank (ADR 0088). A student who ticks most "✓" boxes makes their label's usual texture a tick's, so
 * ADR 0084's bar (over the median) loses the ticks; the label's lowest box is one left untouched. On the tuning pages
 * the lost ticks stood 0.11–0.32 over it, untouched boxes on such sheets at most 0.10 (a "✗" on an ordered dither).
 */
const TRUEFALSE_STROKE_OVER = 0.11;
/**
 * A sheet without fills to calibrate on (ADR 0088): a question read as blank whose bubble stands at least this far
 * above its label's empty level is not silently blank. A student who ticks so faintly that fewer than three of their
 * marks clear the empty cut has no typical mark (ADR 0068) either; their ticks stood 0.03–0.08 above the empty level
 * on the tuning pages, untouched bubbles of such sheets under 0.03 (what a rubber leaves there is as dark as their
 * ticks, and goes to a person too).
 */
const UNCALIBRATED_FAINT = 0.03;
/**
 * …on a sheet that shows the student's faint hand: at least this many bubbles that far above their empty level (a
 * sheet of one or two such bubbles says nothing of the hand, ADR 0068).
 */
const FAINT_HAND_MIN = 5;
/** Weight of the ink share beside the mean darkness: a thin dark stroke (a tick) outscores a faint erasure. */
const CORE_WEIGHT = 1;

interface Scored extends RawBubble {
  key: string;
  score: number;
  /** The darkest spot above the label's empty level (null on results measured before spots were, or when the
   * page does not show the label's empty level). */
  spot: number | null;
  /** The median darkness above the label's empty level: how dark an even fill is. */
  even: number | null;
  /** The mean darkness above the label's empty level: what the student's own fills are compared on. */
  dark: number;
  /** The band around the box above the label's empty level (null when not measured or no own level). */
  rimDark: number | null;
  /** The darkest spot and the median above whatever level the page gives (its own or the page's), when measured. */
  pageSpot: number | null;
  pageEven: number | null;
  /** The darkest spot above its label's typical one on the page (null when the label has too few bubbles). */
  overPrint: number | null;
}

/** The measurements an empty level is kept for: mean darkness, ink share, darkest spot, median darkness. */
type Feature = 'ratio' | 'core' | 'peak' | 'mid' | 'rim';
/** A label's empty levels; `own` when the page has enough bubbles of the label (or its family) to know them. */
type Levels = Record<Feature, number> & {
  own: boolean;
  /** The label's typical darkest spot on the page (the median of its bubbles'), when it has enough bubbles. */
  printPeak?: number;
};

/** Empty levels per printed label from the page itself: each label's lowest bubble, held near its family's lower quartile. */
export function emptyLevels(
  groups: { kind: string; bubbles: RawBubble[] }[],
): (kind: string, option: string) => Levels {
  type Values = Record<Feature, number[]>;
  const values = (): Values => ({ ratio: [], core: [], peak: [], mid: [], rim: [] });
  const byLabel = new Map<string, Values>();
  const byFamily = new Map<string, Values>();
  const all = values();
  const push = (v: Values, b: RawBubble) => {
    v.ratio.push(b.ratio);
    v.core.push(b.core);
    v.peak.push(b.peak ?? 0);
    v.mid.push(b.mid ?? 0);
    v.rim.push(b.rim ?? 0);
  };
  const at = (m: Map<string, Values>, k: string) => m.get(k) ?? m.set(k, values()).get(k)!;
  for (const g of groups) {
    for (const b of g.bubbles) {
      const fam = family(g.kind);
      push(at(byLabel, `${fam}:${fam === 'optional' ? '' : b.option}`), b);
      push(at(byFamily, fam), b);
      push(all, b);
    }
  }
  const q = (xs: number[]) =>
    quantile(
      [...xs].sort((a, b) => a - b),
      0.25,
    );
  // The lowest value, unless it stands alone far below a second that still looks empty (one bubble whose printed
  // letter a 1-bit threshold lost): then the second.
  const lowest = (xs: number[], around: number) => {
    const [v0 = 0, v1] = [...xs].sort((a, b) => a - b);
    return xs.length >= 5 && v1 !== undefined && v1 - v0 > LABEL_DRIFT_LOW && v1 <= around + LABEL_DRIFT
      ? v1
      : v0;
  };
  const clamp = (x: number, around: number) =>
    Math.min(around + LABEL_DRIFT, Math.max(around - LABEL_DRIFT_LOW, x));
  const level = (f: (v: number[]) => number, v: Values, own: boolean): Levels => ({
    ratio: f(v.ratio),
    core: f(v.core),
    peak: f(v.peak),
    mid: f(v.mid),
    rim: f(v.rim),
    own,
  });
  // Every bubble of the page together: a fallback for scores, not a level a printed glyph's own spots compare with.
  const allLevel = level(q, all, false);
  const famLevel = new Map<string, Levels>();
  // A small family (a card's few true/false questions) is mostly marked when the student answered and rubbed out
  // on most of them: its lower quartile is then a mark, not paper. Never let it sit more than the drift a label
  // allows above its own lightest bubble.
  const small = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return Math.min(quantile(s, 0.25), s[0]! + LABEL_DRIFT);
  };
  for (const [k, v] of byFamily)
    famLevel.set(
      k,
      v.ratio.length >= 4 ? level(v.ratio.length < SMALL_FAMILY ? small : q, v, true) : allLevel,
    );
  const cache = new Map<string, Levels>();
  return (kind, option) => {
    const fam = family(kind);
    const key = `${fam}:${fam === 'optional' ? '' : option}`;
    let hit = cache.get(key);
    if (!hit) {
      const f = famLevel.get(fam) ?? allLevel;
      const v = byLabel.get(key);
      // The label's lowest bubble is empty unless the student marked every one of them; either way it stays
      // within the small difference printed labels make around the family's level.
      // A printed glyph's darkest spot is its own (a ✗'s crossing strokes print darker than a ✓ by far more than the
      // drift): while the label's bubbles are all print alike (their spots close to each other, their mean darkness
      // near the family's: no dot, line or rubbed layer on any of them), their own spot is the label's level.
      const print =
        v &&
        Math.max(...v.peak) - Math.min(...v.peak) <= GLYPH_ALIKE &&
        lowest(v.ratio, f.ratio) <= f.ratio + LABEL_DRIFT;
      hit =
        v && v.ratio.length >= 3
          ? {
              ratio: clamp(lowest(v.ratio, f.ratio), f.ratio),
              core: clamp(lowest(v.core, f.core), f.core),
              peak: print
                ? Math.max(
                    f.peak - LABEL_DRIFT_LOW,
                    Math.min(f.peak + GLYPH_SPOT_DRIFT, lowest(v.peak, f.peak)),
                  )
                : clamp(lowest(v.peak, f.peak), f.peak),
              mid: clamp(lowest(v.mid, f.mid), f.mid),
              rim: clamp(lowest(v.rim, f.rim), f.rim),
              own: f.own,
              ...(v.peak.length >= PRINT_PEAK_MIN
                ? {
                    printPeak: quantile(
                      [...v.peak].sort((a, b) => a - b),
                      0.5,
                    ),
                  }
                : {}),
            }
          : f;
      cache.set(key, hit);
    }
    return hit;
  };
}

/** The widest gap in sorted values: its midpoint and width. */
function widestGap(
  sorted: readonly number[],
  lo = -Infinity,
  hi = Infinity,
): { mid: number; width: number } | undefined {
  let best: { mid: number; width: number } | undefined;
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i]!;
    const b = sorted[i + 1]!;
    const mid = (a + b) / 2;
    if (mid < lo || mid > hi) continue;
    if (!best || b - a > best.width) best = { mid, width: b - a };
  }
  return best;
}

const median = (xs: readonly number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** A group's bubbles but its darkest one (the first, on a tie). */
function withoutTop<T extends { score: number }>(group: readonly T[]): T[] {
  const top = group.reduce((best, b, i) => (b.score > group[best]!.score ? i : best), 0);
  return group.filter((_, i) => i !== top);
}

/**
 * Decides every bubble, question and student-number digit from the raw measurements alone — a pure function, so
 * the host can re-run it on stored ratios with revised thresholds.
 *
 * A bubble's score is its mean darkness plus its ink share, each above the empty level of the bubbles with the
 * same printed label on the same page (labels print differently: ✗ darker than ✓). Then, with thresholds adapted
 * to the page:
 * - empty at or below the empty cut (`emptyMax`, raised on speckled 1-bit pages up to `emptyCap`) — unless its
 *   darkest spot stands far above its even level: a pencil dot (a lesser spot goes to a person);
 * - filled at or above the filled cut (`filledMin`, lowered for a student whose own clear marks are all light,
 *   never below `lightFloor`) — or above a question's own widest gap when that gap is wide and clean;
 * - in between (or weak beside a much darker mark) the shape of the darkness decides (ADR 0039): an even fill
 *   darker than any erasure residue (a light fill), darkness in strokes (a tick) or a dark spot (a dot) is a mark;
 *   a faint even smudge beside the one mark of a single answer is what a rubber left; anything else goes to a
 *   person. Nothing the measurements cannot tell apart is ever guessed.
 * Several filled bubbles on a single choice or true/false make the question 'multiple'; student-number columns
 * need exactly one filled bubble each.
 */
export function classifyMarks(raw: RawMarks, thresholdsInput: MarkThresholdsInput = {}): Classification {
  const t = MarkThresholdsSchema.parse(thresholdsInput);
  const digitGroups = (raw.digits ?? []).map((d) => ({ kind: 'digit', bubbles: d.bubbles }));
  const level = emptyLevels([...raw.questions, ...digitGroups]);
  const scoreOf = (kind: string, b: RawBubble): Scored => {
    const e = level(kind, b.option);
    const score = Math.max(0, b.ratio - e.ratio + CORE_WEIGHT * (b.core - e.core));
    return {
      ...b,
      key: `${kind}:${b.option}`,
      score,
      dark: b.ratio - e.ratio,
      // A glyph printed on too few bubbles of the page to know its own spots (a card's one true/false: ✓ and ✗)
      // has no shape to read: its score alone speaks.
      spot: b.peak === undefined || !e.own ? null : b.peak - e.peak,
      even: b.mid === undefined || !e.own ? null : b.mid - e.mid,
      rimDark: b.rim === undefined || !e.own ? null : b.rim - e.rim,
      pageSpot: b.peak === undefined ? null : b.peak - e.peak,
      pageEven: b.mid === undefined ? null : b.mid - e.mid,
      overPrint: b.peak === undefined || e.printPeak === undefined || !e.own ? null : b.peak - e.printPeak,
    };
  };
  const questions = raw.questions.map((q) => ({ ...q, scored: q.bubbles.map((b) => scoreOf(q.kind, b)) }));
  /**
   * A straight stroke across the box — a tick's or a cross's line — clearly more than its label prints (ADR 0084).
   * (Only on choice questions: a card has too few true/false boxes and optional numbers to know their print's own
   * texture, and the ✗ prints a diagonal stroke itself.)
   */
  const strokeAcross = (kind: string, b: Scored) => {
    const level = lineLevel.get(labelKey(kind, b.option));
    return (
      family(kind) === 'choice' &&
      b.line !== undefined &&
      b.spot !== null &&
      level !== undefined &&
      b.dark >= (raw.bitonal ? LINE_DARK_BITONAL : LINE_DARK_MIN) &&
      b.line - level >= LINE_OVER
    );
  };
  const digits = (raw.digits ?? []).map((d) => ({ ...d, scored: d.bubbles.map((b) => scoreOf('digit', b)) }));

  // The page's empty cut: speckled 1-bit scans spread empty bubbles wider (grey pages keep emptyMax).
  // (Each question's and digit column's darkest bubble left out: the student's own marks stand one to a question, and
  // a student who answers in faint ticks or strokes would otherwise raise the cut over their own marks (ADR 0079);
  // a scan's speckle spreads over every bubble alike.)
  const low = [...questions.map((q) => q.scored), ...digits.map((d) => d.scored)]
    .flatMap(withoutTop)
    .map((b) => b.score)
    .filter((x) => x < t.lightFloor)
    .sort((a, b) => a - b);
  const emptyCut = raw.bitonal
    ? Math.min(t.emptyCap, Math.max(t.emptyMax, t.noiseFactor * quantile(low, 0.9)))
    : t.emptyMax;

  // Each printed label's usual line texture on the page: the median of its bubbles at or under the empty cut — the
  // letter's own strokes and the brackets, which every untouched bubble of the label prints alike (ADR 0084).
  const labelKey = (kind: string, option: string) =>
    `${family(kind)}:${family(kind) === 'optional' ? '' : option}`;
  const lineValues = new Map<string, number[]>();
  for (const q of questions)
    for (const b of q.scored)
      if (b.line !== undefined && b.score <= emptyCut) {
        const key = labelKey(q.kind, b.option);
        (lineValues.get(key) ?? lineValues.set(key, []).get(key)!).push(b.line);
      }
  const lineLevel = new Map([...lineValues].map(([k, v]) => [k, median(v)]));
  /** Each label's lowest line texture on the page (known from two bubbles or more): a box the student left untouched. */
  const lineFloor = new Map(
    [...lineValues].filter(([, v]) => v.length >= 2).map(([k, v]) => [k, Math.min(...v)]),
  );
  /** The student answers in strokes (ticks, crosses) rather than fills (ADR 0088). */
  const strokeHabit =
    questions.reduce((n, q) => n + q.scored.filter((b) => strokeAcross(q.kind, b)).length, 0) >=
    STROKE_HABIT_MIN;
  /**
   * On a sheet of strokes, a true/false box whose line texture stands clearly over its label's untouched box: a tick or
   * a cross its label's usual texture (the student's own ticks) hid (ADR 0088).
   */
  const trueFalseStroke = (kind: string, b: Scored) => {
    const floor = lineFloor.get(labelKey(kind, b.option));
    return (
      strokeHabit &&
      kind === 'truefalse' &&
      b.line !== undefined &&
      floor !== undefined &&
      b.line - floor >= TRUEFALSE_STROKE_OVER
    );
  };
  /** An even layer (a fill, or what a rubber leaves of one), not strokes: its median as dark as most of its mean. */
  const evenLayer = (b: Scored) =>
    b.spot !== null &&
    b.dark >= t.faintFloor &&
    b.even !== null &&
    (raw.bitonal ? b.spot - b.dark < t.strokeShapeBitonal : b.even >= t.flatShare * b.dark);
  // The student's own typical mark: the clear winners of single-answer questions and digit columns. A student who
  // marks lightly throughout lowers the filled cut (never below lightFloor); ticks and erasures stay in between.
  const winners: number[] = [];
  /** The winners' mean darkness above their empty level: the student's own pencil, for the calibration. */
  const fills: number[] = [];
  /** Every even mark standing alone on its question (light ones too): the spread of the student's hand. */
  const lone: number[] = [];
  /** The scores of the student's own marks that stand alone on their question, whatever their shape. */
  const ownScores: number[] = [];
  /** The student's own clear marks (one per question, well clear of the rest), and how many are even layers. */
  let ownMarks = 0;
  let evenMarks = 0;
  for (const g of [...questions.filter((q) => q.kind !== 'multiple'), ...digits]) {
    const sorted = [...g.scored].sort((a, b) => b.score - a.score);
    const [first, second] = sorted;
    const s1 = first?.score ?? 0;
    const s2 = second?.score ?? 0;
    if (s1 > emptyCut && s2 <= emptyCut && s1 - s2 >= t.lightFloor) winners.push(s1);
    // Whatever its shape, a question's one mark standing above the empty cut with the rest at most half as dark.
    if (s1 > emptyCut && s2 <= emptyCut && s2 <= 0.5 * s1) ownScores.push(s1);
    // The student's own pencil: a question's one mark standing well clear of the rest, however light the student's
    // hand (a light hand's fills never reach the filled cut, yet they are what this sheet's marks look like).
    const byDark = [...g.scored].sort((a, b) => b.dark - a.dark);
    const d1 = byDark[0]?.dark ?? 0;
    const d2 = Math.max(0, byDark[1]?.dark ?? 0);
    // (On grey pages only flat marks count: a student who ticks has no fills to compare an erasure with.)
    // (A fill covers the box: its median at least as dark as nearly its mean, unlike a half-filled box.)
    const flat = raw.bitonal || (byDark[0]?.even ?? 0) >= 0.9 * d1;
    // Only proper fills (at the filled cut) calibrate: a sheet of light marks alone keeps the rules of ADR 0039.
    const proper = (byDark[0]?.score ?? 0) >= t.filledMin;
    if (d1 >= 2 * t.faintFloor && d2 <= t.fillGap * d1 && flat && proper) fills.push(d1);
    // (Every even mark standing alone, proper or not: how steady the hand is.)
    if (d1 >= 2 * t.faintFloor && d2 <= t.fillGap * d1 && flat && (byDark[0]?.score ?? 0) >= t.lightFloor)
      lone.push(d1);
    const top = byDark[0];
    if (top && top.spot !== null && top.even !== null && d1 >= 2 * t.faintFloor && d2 <= t.fillGap * d1) {
      ownMarks++;
      if (evenLayer(top)) evenMarks++;
    }
  }
  fills.sort((a, b) => a - b);
  /**
   * The sheet's own calibration (ADR 0040): how dark this student's clear fills are — their lighter ones (20th
   * percentile) and their typical one (median). Null when the sheet holds too few to know.
   */
  const typicalFill = quantile(fills, 0.5);
  // The lighter fills among those like the rest (a fill under 60 % of the typical one is itself in doubt).
  const likeTheRest = fills.filter((f) => f >= 0.6 * typicalFill);
  const calibration =
    fills.length >= t.calibrationMin ? { low: quantile(likeTheRest, 0.2), typical: typicalFill } : null;
  // The student's lighter fills, when the sheet holds enough of them and the hand is steady (ADR 0076): an even
  // layer well under them is not one of their fills. (The second lightest, of the fills and of every even mark
  // standing alone: the lightest one may itself be the half-rubbed mark to judge.)
  const lighterFill = likeTheRest[1] ?? 0;
  const secondLone = [...lone].sort((a, b) => a - b)[1] ?? Infinity;
  const fillFloor =
    calibration &&
    likeTheRest.length >= STEADY_FILLS &&
    Math.min(lighterFill, secondLone) >= STEADY_HAND * typicalFill
      ? UNDER_FILLS * lighterFill
      : 0;
  /**
   * An even layer under this is not read as a mark unattended: a steady hand's floor (ADR 0076), and on a sheet whose
   * lighter fills are near the typical one, half the typical fill (ADR 0085).
   */
  const evenFloor =
    calibration && calibration.low >= STEADY_HAND * calibration.typical
      ? Math.max(fillFloor, HALF_FILL * calibration.typical)
      : fillFloor;
  /** A sheet without fills whose student's faint hand shows on many bubbles (ADR 0088). */
  const faintHand =
    calibration === null &&
    questions.reduce(
      (n, q) => n + q.scored.filter((b) => b.spot !== null && b.dark >= UNCALIBRATED_FAINT).length,
      0,
    ) >= FAINT_HAND_MIN;
  const fillLevel = winners.length >= 3 ? median(winners) : null;
  /** A sheet without calibration whose student marks mostly in lines, not fills, or a 1-bit sheet, where a ring and a fill dither alike (ADR 0067). */
  const lineHabit = calibration === null && (raw.bitonal || ownMarks < 3 || evenMarks < ownMarks / 2);
  /**
   * A sheet without the calibration of fills (ADR 0068): the student's typical mark (ticks, circles, light fills —
   * whatever they answer with, at least three standing alone on their question) calibrates it instead.
   */
  const typicalOwn = calibration === null && ownScores.length >= 3 ? median(ownScores) : null;
  const filledCut =
    fillLevel !== null && fillLevel < t.filledMin / t.lightShare
      ? Math.max(t.lightFloor, Math.min(t.filledMin, t.lightShare * fillLevel))
      : t.filledMin;

  const strokeShape = raw.bitonal ? t.strokeShapeBitonal : t.strokeShape;
  const spotMark = raw.bitonal ? t.spotMarkBitonal : t.spotMark;
  const spotDoubt = raw.bitonal ? t.spotDoubtBitonal : t.spotDoubt;
  /**
   * A pencil dot or a tick's stroke: a small place much darker than the bubble's own even level ('mark'); a spot
   * only somewhat darker than print and paper ever are ('doubt') is for a person to see.
   */
  const spotOf = (b: Scored): 'mark' | 'doubt' | 'none' => {
    if (b.spot === null || b.even === null) return 'none';
    const x = b.spot - b.even;
    return x >= spotMark ? 'mark' : x >= spotDoubt ? 'doubt' : 'none';
  };
  /**
   * What the shape of the darkness says of a bubble its score alone cannot place (between the cuts, or weak beside a
   * strong mark): a mark, a rubbed-out residue, or still a question for a person. Results measured before spots and
   * even levels were have no shape: they stay uncertain.
   */
  const shape = (b: Scored): BubbleState => {
    if (b.spot === null || b.even === null) return 'uncertain';
    if (spotOf(b) === 'mark') return 'filled';
    // 1-bit pages keep no grey: erasures and light fills are gone or solid, so only the score and spots speak.
    if (raw.bitonal) return 'uncertain';
    // An even fill darker than any residue a rubber leaves (light pencil), or darkness not spread evenly (a tick).
    if (b.even >= t.evenMark || b.score - b.even >= t.strokeMark) return 'filled';
    return 'uncertain';
  };
  /**
   * A faint even smudge: no darker than what a rubber leaves, with no spot or stroke of a mark. Alone it may also
   * be a tick blurred by a coarse scan, so it is rubbed out only beside the one mark of a single answer.
   */
  const residue = (b: Scored) =>
    !raw.bitonal &&
    b.spot !== null &&
    b.even !== null &&
    b.even <= t.residueEven &&
    b.score - b.even < t.strokeMark &&
    spotOf(b) === 'none';

  /**
   * A bubble above the empty cut judged against the student's own fills on this sheet: as dark as their lighter
   * fills is a mark; darkness in strokes (a tick, a cross, a circle) or a spot is a mark; an even layer clearly
   * lighter than their typical fill is what a rubber (or a resting hand) left; anything between goes to a person.
   */
  /** Bubbles left to a person because their even grey lies between the student's erasures and fills. */
  const halfway = new Set<Scored>();
  /** Bubbles left to a person because their darkening is shaped like a line (a tick, a cross, a circle). */
  const lineLike = new Set<Scored>();
  /** Bubbles left to a person because their even mark is light and the sheet has no clear fills to compare with. */
  const unmatched = new Set<Scored>();
  /** Bubbles left to a person because they are like the student's own marks, only fainter (ADR 0068). */
  const faintLines = new Set<Scored>();
  /** Bubbles left to a person because every bubble of their group is dark and none shows the empty level. */
  const allDark = new Set<Scored>();
  /** Bubbles left to a person because the darkness runs out past the brackets (a smudge or a shadow). */
  const smudges = new Set<Scored>();
  const calibrated = (b: Scored, cal: { low: number; typical: number }): BubbleState => {
    // (Never below half the light floor on the score: the absolute least a mark read without its shape shows.)
    if (b.dark >= t.markShare * cal.low && b.score >= t.lightFloor / 2) return 'filled';
    const stroke = b.spot! - b.dark;
    if (stroke >= strokeShape || spotOf(b) === 'mark') return 'filled';
    // A rubber leaves a layer: its median as dark as its mean (on grey pages, where the median survives); a faint
    // tick or circle darkens its mean, not its median.
    // (A 1-bit page keeps no median: there only the lack of a stroke says flat.)
    const flat = raw.bitonal ? stroke < strokeShape * 0.25 : b.even! >= t.flatShare * b.dark;
    if (flat && b.dark <= t.erasedShare * cal.typical && stroke < strokeShape * 0.6 && spotOf(b) === 'none')
      return 'empty';
    if (flat) halfway.add(b);
    return 'uncertain';
  };

  const faintStroke = (b: Scored) =>
    !raw.bitonal && b.even !== null && b.dark >= t.faintFloor && b.even < t.flatShare * b.dark;
  /**
   * A darkening shaped like a pen or pencil line (ADR 0054): on a grey page its mean clearly above the label's empty
   * level while its median stays near paper — a fine tick, cross or circle. Such a bubble is never read as empty
   * unattended, whatever its score or the sheet's calibration said. (Not on glyphs without their own empty level:
   * measured against the page's level, their own print looks like a stroke; nor on 1-bit pages, where a faint
   * rubbed-out layer is sparse dots whose median is paper too.)
   */
  const strokeLike = (b: Scored) =>
    !raw.bitonal && b.even !== null && b.dark >= STROKE_DARK && b.even < STROKE_FLAT * b.dark;

  /**
   * A line drawn round the bracket (ADR 0059): the band around the box clearly darker than its label's empty band
   * and than the inside of the box — a circle drawn round the letter, which the inner box barely sees. An erasure,
   * a smudge or a fold's shadow darkens the band and the inside alike; a fill darkens the inside most.
   */
  const bitonalLine = (b: Scored, others: number) =>
    raw.bitonal &&
    b.spot !== null &&
    b.even !== null &&
    b.score >= LINE_SCORE_BITONAL &&
    b.score >= LINE_ALONE_BITONAL * others &&
    b.even < LINE_EVEN_BITONAL &&
    b.spot - b.dark >= LINE_STROKE_BITONAL;

  /** A dot or a fine line on a 1-bit page, kept as a few black pixels on a box otherwise paper (ADR 0068). */
  const bitonalSpeck = (b: Scored) =>
    raw.bitonal &&
    b.spot !== null &&
    b.even !== null &&
    b.even < LINE_EVEN_BITONAL &&
    b.spot >= SPOT_BITONAL_FAINT &&
    b.dark >= SPECK_DARK &&
    (b.overPrint === null || b.overPrint >= SPECK_OVER_PRINT);

  /**
   * A circle or a tick on a 1-bit page that its score or the sheet's calibration left empty (ADR 0074): clearly darker
   * than print, yet its median stays paper — a line's black pixels, not the dots a rubbed-out layer dithers into.
   */
  const bitonalRing = (b: Scored) =>
    raw.bitonal &&
    b.spot !== null &&
    b.even !== null &&
    b.even < LINE_EVEN_BITONAL &&
    b.dark >= RING_DARK_BITONAL;

  /**
   * A smudge or a shadow rather than a fill (ADR 0061): an even layer as dark round the box as inside it. A student's
   * fill (and what a rubber leaves of one) stays inside the brackets; a hand's graphite or a fold's shadow does not
   * stop at them. Never read as a mark unattended.
   */
  const smudged = (b: Scored) =>
    b.rimDark !== null &&
    b.even !== null &&
    b.spot !== null &&
    b.dark >= SMUDGE_DARK &&
    b.rimDark >= SMUDGE_RIM * b.dark &&
    b.even >= t.flatShare * b.dark;

  /** A hand's smear (or a fold's shadow) rather than a fill, clearly lighter than the student's typical fill. */
  const smear = (b: Scored, cal: { low: number; typical: number }) =>
    b.rimDark !== null &&
    b.even !== null &&
    b.spot !== null &&
    b.dark >= SMEAR_DARK &&
    b.rimDark >= SMUDGE_RIM * b.dark &&
    b.rimDark <= SMEAR_RIM_MAX * b.dark &&
    (raw.bitonal || b.even >= t.flatShare * b.dark) &&
    b.dark <= SMEAR_SHARE * cal.typical &&
    b.spot - b.dark <= SMEAR_SPOT &&
    spotOf(b) === 'none';

  const ringed = (b: Scored) =>
    b.rimDark !== null && b.rimDark >= RIM_DARK && b.rimDark >= Math.max(0, b.dark) + RIM_OVER;

  const decide = (
    scored: Scored[],
    oneAnswer: boolean,
    kind: string,
  ): { states: BubbleState[]; confidence: number[] } => {
    const values = scored.map((b) => b.score);
    const sorted = [...values].sort((a, b) => a - b);
    const max = sorted[sorted.length - 1] ?? 0;
    // A question's own gap decides when wide and clean: everything below it empty-looking, its marks at least light.
    const own = widestGap(sorted);
    let cut = filledCut;
    if (own && own.width >= t.questionGap) {
      const below = sorted.filter((x) => x < own.mid);
      const above = sorted.filter((x) => x > own.mid);
      if (Math.max(...below) <= emptyCut && Math.min(...above) >= t.lightFloor)
        cut = Math.min(cut, Math.min(...above));
    }
    const states: BubbleState[] = [];
    const confidence: number[] = [];
    for (const b of scored) {
      const s = b.score;
      let state: BubbleState;
      let byShape = false;
      const faint = calibration !== null && b.spot !== null && b.dark >= t.faintFloor;
      if (s <= emptyCut && !faint) {
        // A dot darkens too little of the box to score, yet it is a mark.
        const spot = spotOf(b);
        state = spot === 'mark' ? 'filled' : spot === 'doubt' ? 'uncertain' : 'empty';
        // A faint darkening that is not a flat layer (its median stays paper): a fine tick or circle, maybe.
        if (state === 'empty' && faintStroke(b)) state = 'uncertain';
        byShape = state === 'filled';
      } else if (calibration && b.spot === null && s < t.strongMin * 2) {
        // A glyph without its own empty level (a card's one true/false): no shape, so only a mark as dark as the
        // student's fills is read; a lighter one (an erasure, a tick) goes to a person.
        state = b.dark >= t.markShare * calibration.low ? 'filled' : 'uncertain';
        byShape = state !== 'filled';
      } else if (calibration && b.spot !== null) {
        // (Also a faint bubble under the empty cut: a fine tick or circle darkens a box little, and only its shape
        // tells it from a rubbed-out layer.)
        state = calibrated(b, calibration);
        byShape = s < cut || state !== 'filled';
      } else if (s < cut || (s < t.strongMin && s < t.relativeWeak * max)) {
        state = shape(b);
        byShape = true;
      } else state = 'filled';
      // Confidence: how far inside its class the score lies, 0.5 at the class edge, 1 a band's width beyond; a
      // bubble placed by its shape sits just inside its class.
      const band = Math.max(0.05, cut - emptyCut);
      let conf: number;
      if (byShape && state !== 'uncertain') conf = 0.6;
      else if (state === 'empty') conf = 0.5 + (emptyCut - s) / (2 * Math.max(0.05, emptyCut));
      else if (state === 'filled') conf = 0.5 + (s - cut) / (2 * band);
      else conf = 0.49 * (1 - Math.abs((s - (emptyCut + cut) / 2) / (band / 2)));
      states.push(state);
      confidence.push(Math.min(1, Math.max(0, conf)));
    }
    // A single answer with one mark: faint even smudges beside it are what the rubber left of a changed mind.
    if (oneAnswer && states.filter((x) => x === 'filled').length === 1)
      scored.forEach((b, i) => {
        if (states[i] === 'uncertain' && residue(b)) {
          states[i] = 'empty';
          confidence[i] = 0.6;
        }
      });
    // A student who marks in lines (ticks, crosses, circles) has no fills to compare with: an even layer that is
    // not dark on their sheet is as likely what a rubber left as a fill, and is not read unattended.
    if (lineHabit)
      scored.forEach((b, i) => {
        if (states[i] === 'filled' && b.score < UNCALIBRATED_EVEN && evenLayer(b)) {
          {
            states[i] = 'uncertain';
            unmatched.add(b);
            confidence[i] = 0.4;
          }
        }
      });
    // On a sheet calibrated on the student's own ticks or circles, a faint darkening that is not an even layer (a
    // line) where the score left nothing is like their marks, only fainter: not silently blank (ADR 0068).
    if (typicalOwn !== null && kind !== 'digit')
      scored.forEach((b, i) => {
        if (
          states[i] === 'empty' &&
          b.spot !== null &&
          b.even !== null &&
          b.dark > 0 &&
          b.score >= Math.max(LINE_HABIT_MIN, LINE_HABIT_SHARE * typicalOwn) &&
          !evenLayer(b)
        ) {
          states[i] = 'uncertain';
          faintLines.add(b);
          confidence[i] = 0.4;
        }
      });
    // A group without its own empty level whose every bubble is darker than print (ADR 0076): its lighter bubble is
    // no empty level to read the other against, so neither is silently nothing.
    if (
      kind === 'optional' &&
      !states.includes('filled') &&
      scored.every((b) => b.spot === null && b.ratio >= NO_LEVEL_ALL_DARK)
    )
      scored.forEach((b, i) => {
        if (states[i] !== 'empty') return;
        states[i] = 'uncertain';
        allDark.add(b);
        confidence[i] = 0.4;
      });
    // A group without its own empty level (a card's one optional choice): a darkening over the page's level is
    // not silently nothing.
    if (!states.includes('filled'))
      scored.forEach((b, i) => {
        if (
          kind === 'optional' &&
          states[i] === 'empty' &&
          b.spot === null &&
          b.pageSpot !== null &&
          b.pageEven !== null &&
          b.score >= NO_LEVEL_FAINT &&
          (b.score >= NO_LEVEL_MARK || b.pageSpot >= NO_LEVEL_SPOT || b.pageEven >= NO_LEVEL_EVEN)
        ) {
          states[i] = 'uncertain';
          confidence[i] = 0.4;
        }
      });
    // Nothing shaped like a line, nor ringed by one, is left silently empty (ADR 0054, ADR 0059).
    scored.forEach((b, i) => {
      const others = Math.max(0, ...scored.filter((o) => o !== b).map((o) => o.score));
      if (
        kind !== 'digit' &&
        states[i] === 'empty' &&
        (strokeLike(b) ||
          ringed(b) ||
          bitonalLine(b, others) ||
          bitonalSpeck(b) ||
          bitonalRing(b) ||
          strokeAcross(kind, b) ||
          trueFalseStroke(kind, b))
      ) {
        states[i] = 'uncertain';
        lineLike.add(b);
        confidence[i] = 0.4;
      }
    });
    // On a sheet with no fills to calibrate on, a blank question with a bubble clearly above its empty level may be
    // the student's own faint tick: not silently blank (ADR 0088).
    if (faintHand && kind !== 'digit' && !states.some((s) => s !== 'empty'))
      scored.forEach((b, i) => {
        if (b.spot !== null && b.dark >= UNCALIBRATED_FAINT) {
          states[i] = 'uncertain';
          confidence[i] = 0.4;
        }
      });
    // A smudge or a shadow across the box is not read as a mark unattended (ADR 0061).
    scored.forEach((b, i) => {
      if (kind !== 'digit' && states[i] === 'filled' && smudged(b)) {
        states[i] = 'uncertain';
        smudges.add(b);
        confidence[i] = 0.4;
      }
    });
    // A single answer with one mark like the student's fills and others clearly lighter and even: those are what a
    // rubber left of a changed mind, not a second answer (ADR 0067).
    if (calibration && oneAnswer && kind !== 'digit') {
      const filledNow = scored.filter((_, i) => states[i] === 'filled');
      const top = filledNow.reduce<Scored | null>((a, b) => (!a || b.dark > a.dark ? b : a), null);
      if (top && filledNow.length >= 2 && top.dark >= calibration.low)
        scored.forEach((b, i) => {
          if (
            b !== top &&
            states[i] === 'filled' &&
            b.spot !== null &&
            b.even !== null &&
            b.dark <= BESIDE_SHARE * calibration.typical &&
            b.dark <= BESIDE_SHARE * top.dark &&
            (raw.bitonal ? b.spot - b.dark < strokeShape * 0.25 : b.even >= t.flatShare * b.dark) &&
            b.spot - b.dark < strokeShape * 0.6 &&
            spotOf(b) === 'none'
          ) {
            states[i] = 'empty';
            confidence[i] = 0.6;
          }
        });
    }
    // An even layer read as a mark, yet clearly lighter than the student's own fills on a sheet whose fills are
    // steady: a half-rubbed mark or a darker residue as likely as a fill, so a person looks (ADR 0076); and on a sheet
    // whose lighter fills are near the typical one, an even layer under half of it (ADR 0085). (Not on a
    // true/false: its boxes fill lighter than a letter's, and a card has too few of them to know their own fills.)
    if (evenFloor > 0 && kind !== 'digit' && kind !== 'truefalse')
      scored.forEach((b, i) => {
        if (states[i] !== 'filled' || b.spot === null || b.even === null) return;
        const stroke = b.spot - b.dark;
        const evenish = raw.bitonal ? stroke < strokeShape * 0.25 : b.even >= t.flatShare * b.dark;
        // (On a grey page a layer whose ink share is like a fill's is one of the student's fills laid in one pass,
        // not a rubbed one: a rubber thins every stroke under the ink level (ADR 0079).)
        const inked = !raw.bitonal && b.score - b.dark >= INKED_SHARE * b.dark;
        if (evenish && !inked && b.dark < evenFloor && stroke < strokeShape * 0.6 && spotOf(b) === 'none') {
          states[i] = 'uncertain';
          halfway.add(b);
          confidence[i] = 0.4;
        }
      });
    // A hand's smear or a fold's shadow beside the student's own answer (ADR 0067): an even layer as dark round the
    // box as inside it, its darkest spot no darker than its mean (a circle's line is), is not a second mark.
    const marked = scored.filter((b, i) => states[i] === 'filled');
    if (calibration && marked.length && (!oneAnswer || marked.length === 1))
      scored.forEach((b, i) => {
        if (states[i] === 'uncertain' && smear(b, calibration)) {
          states[i] = 'empty';
          smudges.delete(b);
          confidence[i] = 0.6;
        }
      });
    return { states, confidence };
  };

  const readings = (scored: Scored[], states: BubbleState[]): BubbleReading[] =>
    scored.map((b, i) => ({
      option: b.option,
      ratio: round(b.ratio),
      core: round(b.core),
      ...(b.peak === undefined ? {} : { peak: round(b.peak) }),
      ...(b.mid === undefined ? {} : { mid: round(b.mid) }),
      ...(b.rim === undefined ? {} : { rim: round(b.rim) }),
      ...(b.streak === undefined ? {} : { streak: round(b.streak) }),
      ...(b.line === undefined ? {} : { line: round(b.line) }),
      score: round(b.score),
      state: states[i]!,
    }));

  const uncertain: UncertainItem[] = [];
  const problems: RecognitionProblem[] = [];
  const uncertainIds: string[] = [];
  const multipleIds: string[] = [];
  const marks: QuestionMark[] = questions.map((q) => {
    const { states, confidence } = decide(q.scored, q.kind !== 'multiple', q.kind);
    const filled = q.scored.filter((_, i) => states[i] === 'filled').map((b) => b.option);
    const anyUncertain = states.includes('uncertain');
    const single = q.kind !== 'multiple';
    let status: MarkStatus = filled.length ? 'ok' : 'blank';
    if (anyUncertain) status = 'uncertain';
    else if (single && filled.length > 1) status = 'multiple';
    if (status === 'uncertain') {
      uncertainIds.push(q.questionId);
      const between = q.scored.filter((b, i) => states[i] === 'uncertain' && halfway.has(b));
      const lines = q.scored.filter((b, i) => states[i] === 'uncertain' && lineLike.has(b));
      const smudgy = q.scored.filter((b, i) => states[i] === 'uncertain' && smudges.has(b));
      const alone = q.scored.filter((b, i) => states[i] === 'uncertain' && unmatched.has(b));
      const faint = q.scored.filter((b, i) => states[i] === 'uncertain' && faintLines.has(b));
      const dark = q.scored.some((b, i) => states[i] === 'uncertain' && allDark.has(b));
      uncertain.push({
        kind: 'question',
        questionId: q.questionId,
        reason: 'uncertain',
        message: dark
          ? `第${q.number}题的各个题号都有较深的痕迹，没有空白的可以比较，无法确定选做了哪一题、还是都擦掉了，请人工核对`
          : between.length
            ? `第${q.number}题的${between.map((b) => optionName(q.kind, b.option)).join('、')}涂得比该生其他答案浅、又比擦掉的痕迹深，无法确定是作答还是没擦干净，请人工核对`
            : alone.length
              ? `第${q.number}题的${alone.map((b) => optionName(q.kind, b.option)).join('、')}是一片均匀的浅色，本页没有该生清楚的填涂可比，无法确定是作答还是擦除的痕迹，请人工核对`
              : smudgy.length
                ? `第${q.number}题的${smudgy.map((b) => optionName(q.kind, b.option)).join('、')}一带有蹭脏或阴影（框外和框内一样深），不像该生的填涂，无法确定是否作答，请人工核对`
                : lines.length
                  ? `第${q.number}题的${lines.map((b) => optionName(q.kind, b.option)).join('、')}上只有细线笔迹（像打勾、画叉或画圈），不是涂满的填涂，无法确定是否作答，请人工核对`
                  : faint.length
                    ? `第${q.number}题的${faint.map((b) => optionName(q.kind, b.option)).join('、')}有一道较淡的笔迹，像该生自己打勾、画圈或浅涂的答法，但比该生其他答案浅，无法确定是否作答，请人工核对`
                    : `第${q.number}题有填涂无法确定（涂得太浅、只涂了一部分、打勾或擦除不干净），请人工核对`,
      });
    } else if (status === 'multiple') {
      multipleIds.push(q.questionId);
      uncertain.push({
        kind: 'question',
        questionId: q.questionId,
        reason: 'multiple',
        message: `第${q.number}题是单选题，却涂了${filled.length}个选项（${filled.join('、')}），请人工核对`,
      });
    }
    return {
      questionId: q.questionId,
      number: q.number,
      kind: q.kind,
      chosen: filled.join(q.kind === 'optional' ? ',' : ''),
      confidence: round(Math.min(1, ...confidence)),
      status,
      bubbles: readings(q.scored, states),
    };
  });
  if (uncertainIds.length) {
    problems.push({
      code: 'uncertainMark',
      level: 'item',
      message: `${RECOGNITION_PROBLEM_MESSAGES.uncertainMark}（第${numbersOf(marks, uncertainIds)}题）`,
      questionIds: uncertainIds,
    });
  }
  if (multipleIds.length) {
    problems.push({
      code: 'multipleMarks',
      level: 'item',
      message: `${RECOGNITION_PROBLEM_MESSAGES.multipleMarks}（第${numbersOf(marks, multipleIds)}题）`,
      questionIds: multipleIds,
    });
  }

  let studentNumber: StudentNumberReading | null = null;
  if (digits.length) {
    const read: DigitReading[] = digits.map((d) => {
      const { states } = decide(d.scored, true, 'digit');
      const filled = d.scored.filter((_, i) => states[i] === 'filled');
      let status: MarkStatus = filled.length === 1 ? 'ok' : filled.length ? 'multiple' : 'blank';
      if (states.includes('uncertain')) status = 'uncertain';
      return {
        digit: d.digit,
        value: status === 'ok' ? Number(filled[0]!.option) : null,
        status,
        bubbles: readings(d.scored, states),
      };
    });
    const ok = read.every((d) => d.status === 'ok');
    const allBlank = read.every((d) => d.status === 'blank');
    const anyUncertain = read.some((d) => d.status === 'uncertain');
    studentNumber = {
      value: ok ? read.map((d) => String(d.value)).join('') : null,
      status: ok
        ? 'ok'
        : allBlank
          ? 'blank'
          : anyUncertain && !read.some((d) => d.status === 'multiple' || d.status === 'blank')
            ? 'uncertain'
            : 'invalid',
      digits: read,
    };
    if (allBlank) {
      problems.push({
        code: 'studentNumberMissing',
        level: 'page',
        message: RECOGNITION_PROBLEM_MESSAGES.studentNumberMissing,
      });
    } else if (!ok) {
      const bad = read.filter((d) => d.status !== 'ok');
      for (const d of bad) {
        const reason = d.status === 'multiple' ? 'invalid' : d.status === 'blank' ? 'blank' : 'uncertain';
        uncertain.push({
          kind: 'studentNumber',
          digit: d.digit,
          reason,
          message:
            reason === 'invalid'
              ? `考号第${d.digit + 1}位涂了多个数字`
              : reason === 'blank'
                ? `考号第${d.digit + 1}位未填涂`
                : `考号第${d.digit + 1}位填涂无法确定`,
        });
      }
      problems.push({
        code: 'studentNumberInvalid',
        level: 'page',
        message: `考号填涂有误：${bad.map((d) => `第${d.digit + 1}位${d.status === 'multiple' ? '涂了多个数字' : d.status === 'blank' ? '未填涂' : '无法确定'}`).join('，')}，请核对考号`,
      });
    }
  }

  return {
    marks,
    studentNumber,
    uncertain,
    problems,
    thresholds: t,
    page: {
      emptyCut: round(emptyCut),
      fillLevel: fillLevel === null ? null : round(fillLevel),
      filledCut: round(filledCut),
      ...(calibration
        ? { calibration: { low: round(calibration.low), typical: round(calibration.typical) } }
        : {}),
    },
  };
}

/** How a teacher names a bubble: its letter, ✓/✗ for a true/false, the question for an optional choice. */
function optionName(kind: string, option: string): string {
  if (kind === 'truefalse') return option === 'T' ? '“✓”' : '“✗”';
  if (kind === 'optional') return '所选题号';
  return `选项${option}`;
}

function numbersOf(marks: QuestionMark[], ids: string[]): string {
  return ids.map((id) => marks.find((m) => m.questionId === id)?.number ?? id).join('、');
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/** The raw measurements of a stored result: what `classifyMarks` re-runs on. */
export function rawMarksOf(result: {
  marks: QuestionMark[];
  studentNumber: StudentNumberReading | null;
  image?: { bitonal: boolean };
}): RawMarks {
  const strip = (b: BubbleReading) => ({
    option: b.option,
    ratio: b.ratio,
    core: b.core,
    ...(b.peak === undefined ? {} : { peak: b.peak }),
    ...(b.mid === undefined ? {} : { mid: b.mid }),
    ...(b.rim === undefined ? {} : { rim: b.rim }),
    ...(b.streak === undefined ? {} : { streak: b.streak }),
    ...(b.line === undefined ? {} : { line: b.line }),
  });
  return {
    ...(result.image?.bitonal ? { bitonal: true } : {}),
    questions: result.marks.map((m) => ({
      questionId: m.questionId,
      number: m.number,
      kind: m.kind,
      bubbles: m.bubbles.map(strip),
    })),
    ...(result.studentNumber
      ? {
          digits: result.studentNumber.digits.map((d) => ({ digit: d.digit, bubbles: d.bubbles.map(strip) })),
        }
      : {}),
  };
}
