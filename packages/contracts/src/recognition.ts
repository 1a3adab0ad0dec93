import { z } from 'zod';
import { IdSchema } from './common.js';
import { RectSchema } from './answer-card.js';
import { MARK_KINDS } from './scoring.js';

/*
 * What the recogniser reads from one scanned answer-card page. Everything here is JSON: the crops' images travel
 * beside the result (keyed by crop id), never inside it. Raw darkness per bubble is kept so the host can re-run
 * `classifyMarks` with other thresholds without rescanning.
 *
 * Coordinates: rects are in millimetres from the card page's top-left (the layout's frame); the transform maps them
 * to image pixels (pixel centres at i + 0.5).
 */

/** Version of this result model; stored beside every result so old results can be told apart. */
export const RECOGNITION_VERSION = 1;

/** How the page lies in the image: clockwise degrees the upright page was turned (180 = upside down). */
export const PageOrientationSchema = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]);
export type PageOrientation = z.infer<typeof PageOrientationSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Problems: every reason a page or an item goes to a person, with the teacher's explanation.

export const RECOGNITION_PROBLEM_CODES = [
  /** The file is not an image the recogniser can decode. */
  'imageUnreadable',
  /** Fewer than three corner anchors. */
  'anchorsNotFound',
  /** The anchors do not fit the card's geometry (folded, curled or stretched sheet); marks were still read. */
  'anchorsDistorted',
  /** No readable page code. */
  'qrUnreadable',
  /** The page code names a card (or page) the host does not know: a sheet of another paper. */
  'cardUnknown',
  /** The student-number bubbles are not one clear digit per column. */
  'studentNumberInvalid',
  /** A card identified by number bubbles whose bubbles are all empty, or by a barcode sticker that is missing. */
  'studentNumberMissing',
  /** Nothing answered on the page (or an empty sheet). */
  'blankPage',
  /** A bubble neither clearly filled nor clearly empty. */
  'uncertainMark',
  /** More than one bubble filled on a single-choice (or true/false) question. */
  'multipleMarks',
  // Batch-level, raised by the host when it assembles sheets (the recogniser sees one page at a time).
  /** The page names a student who is not in the class or exam. */
  'unknownStudent',
  /** Two sheets carry the same student and page. */
  'duplicateSheet',
  /** A student's sheet lacks one of the card's pages. */
  'missingPage',
  /** 纸上批阅 (ADR 0065): a score box the teacher marked cannot be read for sure; a person types the score. */
  'scoreDoubtful',
] as const;
export const RecognitionProblemCodeSchema = z.enum(RECOGNITION_PROBLEM_CODES);
export type RecognitionProblemCode = z.infer<typeof RecognitionProblemCodeSchema>;

/** The teacher's explanation of each problem (items may carry a more specific message naming the question). */
export const RECOGNITION_PROBLEM_MESSAGES: Readonly<Record<RecognitionProblemCode, string>> = {
  imageUnreadable: '无法打开这张扫描图片，文件可能已损坏或格式不受支持，请重新扫描',
  anchorsNotFound: '未找到定位点，请检查答题卡是否完整、扫描是否歪斜',
  anchorsDistorted: '定位点位置异常（答题卡可能折叠、卷曲或被拉伸），识别结果请人工核对',
  qrUnreadable: '无法识别答题卡上的二维码，请检查二维码是否被涂画、污损或遮挡',
  cardUnknown: '这张答题卡不属于本次考试，可能混入了其他试卷的答题卡',
  studentNumberInvalid: '考号填涂有误（某一位未填涂或涂了多个数字），请核对考号',
  studentNumberMissing: '考号未填涂，无法确定是哪位学生的答题卡',
  blankPage: '这一页没有任何作答，请确认是否缺考、空白卷或多扫了一页',
  uncertainMark: '有填涂无法确定（涂得太浅、只涂了一部分、打勾或擦除不干净），请人工核对',
  multipleMarks: '单选题涂了多个选项，请人工核对',
  unknownStudent: '答题卡上的学生不在本次考试名单中',
  duplicateSheet: '同一名学生有两张相同页码的答题卡',
  missingPage: '该学生的答题卡缺少一页，请检查是否漏扫',
  scoreDoubtful: '打分框的得分无法确定，请看图输入得分，或改为网上阅卷',
};

/** 'page': the page cannot be used until a person fixes it; 'item': one question or digit needs a look. */
export const RecognitionProblemLevelSchema = z.enum(['page', 'item']);

export const RecognitionProblemSchema = z.object({
  code: RecognitionProblemCodeSchema,
  level: RecognitionProblemLevelSchema,
  /** For the teacher, in Chinese. */
  message: z.string(),
  /** The questions concerned (item problems). */
  questionIds: z.array(IdSchema).optional(),
});
export type RecognitionProblem = z.infer<typeof RecognitionProblemSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Marks

/**
 * Thresholds of the mark classifier, on each bubble's score: its mean darkness plus its ink share, both above the
 * page's empty level for the same printed label (see `classifyMarks`). Stored with every result so a re-run is
 * reproducible. Measured on the synthetic corpus: empty ≤ 0.06, erased residue ≤ 0.15, ticks and light fills
 * 0.18–0.4, partial fills ≥ 0.34, full pencil fills ≥ 0.55.
 */
export const MarkThresholdsSchema = z.object({
  /** At or below: empty (raised on speckled 1-bit pages, see `noiseFactor`). */
  emptyMax: z.number().min(0).max(2).default(0.1),
  /**
   * On a 1-bit page the empty cut rises to this multiple of the 90th percentile of its faint bubbles, each question's
   * darkest left out (printed letters break up unevenly at the scanner's threshold; erasures and light marks are gone,
   * ticks stay crisp; a student's own faint ticks must not raise the cut over themselves, ADR 0079). Grey
   * pages keep `emptyMax`: there a blurred tick and an erasure look alike, and both must go to a person.
   */
  noiseFactor: z.number().min(0).max(10).default(2),
  /** …but never above this. */
  emptyCap: z.number().min(0).max(2).default(0.15),
  /** At or above: filled (a page whose marks are all lighter lowers it, never below `lightFloor`). */
  filledMin: z.number().min(0).max(2).default(0.35),
  /** The lowest the filled cut adapts to for a student who marks lightly throughout. */
  lightFloor: z.number().min(0).max(2).default(0.22),
  /** The filled cut of a light page is this share of the student's own typical mark. */
  lightShare: z.number().min(0).max(1).default(0.7),
  /** A question's own widest gap (empties below, marks above) decides alone when at least this wide. */
  questionGap: z.number().min(0).max(2).default(0.3),
  /** A mark weaker than this share of the strongest mark of its question is uncertain (a poor erasure)… */
  relativeWeak: z.number().min(0).max(1).default(0.3),
  /** …unless it is at least this dark. */
  strongMin: z.number().min(0).max(2).default(0.6),
  /** A sample is ink when its darkness is at least this (0 paper, 1 the anchors' ink). */
  inkLevel: z.number().min(0).max(1).default(0.5),
  /**
   * Shape rules for a bubble its score leaves between the cuts (grey pages; levels above the label's empty level):
   * a spot at least this much darker than the bubble's even level is a pencil dot or a tick's stroke — a mark, even
   * when it darkens too little of the box to score…
   */
  spotMark: z.number().min(0).max(2).default(0.125),
  /** A spot at least this much darker, short of `spotMark`, is neither a mark nor nothing: a person looks. */
  spotDoubt: z.number().min(0).max(2).default(0.1),
  /**
   * The same two on a 1-bit page, where printed letters break up into specks of their own and an erasure's grain
   * survives the threshold here and there.
   */
  spotMarkBitonal: z.number().min(0).max(2).default(0.45),
  spotDoubtBitonal: z.number().min(0).max(2).default(0.3),
  /** An even (median) darkness at least this: a light but real fill, darker than any residue a rubber leaves. */
  evenMark: z.number().min(0).max(2).default(0.135),
  /** A score at least this above the even darkness: darkness in strokes, not spread — a tick. */
  strokeMark: z.number().min(0).max(2).default(0.1),
  /**
   * An even darkness at most this, with no spot or stroke of a mark, beside the one mark of a single answer: what a
   * rubber leaves of a changed mind (alone it could be a tick blurred by a coarse scan, and stays with a person).
   */
  residueEven: z.number().min(0).max(2).default(0.105),
  /**
   * Per-sheet calibration (ADR 0040): with at least this many clear fills on the sheet (the one strong mark of a
   * single answer or a digit column), every bubble is judged against the student's own pencil instead of the
   * constants above.
   */
  calibrationMin: z.number().int().min(1).max(100).default(4),
  /** A question's one mark counts among the student's fills when the next darkest bubble is at most this share of it. */
  fillGap: z.number().min(0).max(1).default(0.35),
  /**
   * A bubble at least this share as dark (mean darkness above the empty level) as the student's lighter fills (their
   * 20th percentile) is a mark like theirs…
   */
  markShare: z.number().min(0).max(2).default(0.5),
  /** …at most this share of their typical fill (the median), with no stroke or spot, is rubbed out or smudged. */
  erasedShare: z.number().min(0).max(2).default(0.35),
  /**
   * A darkest small window at least this much darker than the bubble's mean: darkness in strokes (a tick, a cross,
   * a circle) rather than spread (a rubbed-out layer); the bitonal value applies to 1-bit pages, whose dither
   * speckles.
   */
  strokeShape: z.number().min(0).max(2).default(0.16),
  /** On a calibrated sheet a bubble this much darker than its empty level is looked at even under the empty cut. */
  faintFloor: z.number().min(0).max(2).default(0.07),
  /** A rubbed-out layer is flat: its median darkness at least this share of its mean (grey pages). */
  flatShare: z.number().min(0).max(2).default(0.5),
  strokeShapeBitonal: z.number().min(0).max(2).default(0.2),
});
export type MarkThresholds = z.infer<typeof MarkThresholdsSchema>;
export type MarkThresholdsInput = z.input<typeof MarkThresholdsSchema>;

export const BubbleStateSchema = z.enum(['filled', 'empty', 'uncertain']);
export type BubbleState = z.infer<typeof BubbleStateSchema>;

/** What was measured in one bubble: the raw values are what a re-classification needs. */
export const BubbleReadingSchema = z.object({
  /** 'A'…'G', 'T'/'F' (✓/✗), a digit '0'…'9', or for an optional group the question's id. */
  option: z.string().min(1),
  /** Raw mean darkness inside 80 % of the box: 0 the page's paper, 1 its ink (the anchors). */
  ratio: z.number(),
  /** Raw share of the inner box darker than `inkLevel`. */
  core: z.number(),
  /**
   * Raw mean darkness of the darkest small window (≈ 0.8 mm square) inside the box: a pencil dot or a tick's stroke
   * raises it, a rubbed-out smudge does not. Absent on results read before it was measured.
   */
  peak: z.number().optional(),
  /** Raw median darkness inside the box: the graphite's own level under a fill, whatever print and edges add. */
  mid: z.number().optional(),
  /**
   * Raw mean darkness of the band around the box (its outer tenth to 0.5 mm beyond it): a circle drawn round the
   * bracket darkens it more than the inside (ADR 0059). Absent on results read before it was measured.
   */
  rim: z.number().optional(),
  /**
   * Raw streak texture inside the box: the larger spread of its row means and of its column means. A rubber's streaks
   * and a single line raise it; an even fill or an even residue does not (ADR 0059). Absent on older results.
   */
  streak: z.number().optional(),
  /**
   * Raw line texture inside the box: the mean darkness of its darkest straight line (a row, a column or a diagonal
   * across it) over the box's mean. A pen or pencil stroke (a tick, a cross) raises it; an even layer a rubber leaves
   * does not (ADR 0084). Absent on older results.
   */
  line: z.number().optional(),
  /** Darkness plus ink share above the page's empty level for this printed label (what the thresholds apply to). */
  score: z.number(),
  state: BubbleStateSchema,
});
export type BubbleReading = z.infer<typeof BubbleReadingSchema>;

export const MarkKindSchema = z.enum(MARK_KINDS);
export type MarkKind = z.infer<typeof MarkKindSchema>;
export const MarkStatusSchema = z.enum(['ok', 'blank', 'multiple', 'uncertain']);
export type MarkStatus = z.infer<typeof MarkStatusSchema>;

export const QuestionMarkSchema = z.object({
  /** The question's id; for an optional group (选做题) the group's id. */
  questionId: IdSchema,
  number: z.string(),
  kind: MarkKindSchema,
  /** Filled options in order: 'B', 'AC', 'T'; '' when none. For an optional group, question ids joined by ','. */
  chosen: z.string(),
  /** 0–1: how far the least clear bubble lies from the threshold. */
  confidence: z.number().min(0).max(1),
  status: MarkStatusSchema,
  bubbles: z.array(BubbleReadingSchema),
});
export type QuestionMark = z.infer<typeof QuestionMarkSchema>;

export const DigitReadingSchema = z.object({
  /** 0-based column. */
  digit: z.number().int().nonnegative(),
  value: z.number().int().min(0).max(9).nullable(),
  status: MarkStatusSchema,
  /** The ten bubbles, values 0–9 in order. */
  bubbles: z.array(BubbleReadingSchema),
});
export type DigitReading = z.infer<typeof DigitReadingSchema>;

export const StudentNumberReadingSchema = z.object({
  /** The number when every column reads one digit, else null. */
  value: z.string().nullable(),
  status: z.enum(['ok', 'blank', 'invalid', 'uncertain']),
  digits: z.array(DigitReadingSchema),
});
export type StudentNumberReading = z.infer<typeof StudentNumberReadingSchema>;

/** One bubble's raw measurements: a reading without what the thresholds made of it. */
const RawBubbleSchema = BubbleReadingSchema.omit({ score: true, state: true });

/** The raw measurements alone: what `classifyMarks` needs to reproduce marks and the student number. */
export const RawMarksSchema = z.object({
  /** The scan was 1-bit (see `MarkThresholds.noiseFactor`). */
  bitonal: z.boolean().optional(),
  questions: z.array(
    z.object({
      questionId: IdSchema,
      number: z.string(),
      kind: MarkKindSchema,
      bubbles: z.array(RawBubbleSchema),
    }),
  ),
  /** Student-number columns, when the page has the bubble grid. */
  digits: z
    .array(
      z.object({
        digit: z.number().int().nonnegative(),
        bubbles: z.array(RawBubbleSchema),
      }),
    )
    .optional(),
});
export type RawMarks = z.infer<typeof RawMarksSchema>;

/** Something a person should look at: the questions and digits the classifier would not decide alone. */
export const UncertainItemSchema = z.object({
  kind: z.enum(['question', 'studentNumber']),
  questionId: IdSchema.optional(),
  /** Student-number column (0-based). */
  digit: z.number().int().nonnegative().optional(),
  reason: z.enum(['uncertain', 'multiple', 'invalid', 'blank']),
  message: z.string(),
});
export type UncertainItem = z.infer<typeof UncertainItemSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The page

export const PageIdentitySchema = z.object({
  cardId: IdSchema,
  version: z.number().int().positive(),
  /** 1-based page of the card. */
  page: z.number().int().positive(),
  studentId: IdSchema.nullable(),
  studentNumber: z.string().nullable(),
  /** Where the student came from: the personalised QR, the number bubbles, the barcode sticker, or nowhere on this page. */
  source: z.enum(['qr', 'bubbles', 'barcode', 'none']),
});
export type PageIdentity = z.infer<typeof PageIdentitySchema>;

export const AnchorFindingSchema = z.object({
  corner: z.enum(['tl', 'tr', 'bl', 'br']),
  /** Where it was found, image pixels; null when not found. */
  x: z.number().nullable(),
  y: z.number().nullable(),
  /** Distance from where the fitted transform puts it, pixels. */
  residualPx: z.number().nullable(),
  used: z.boolean(),
});

export const PageTransformSchema = z.object({
  /** Image pixels from layout millimetres: x = a·X + b·Y + c, y = d·X + e·Y + f, as [a, b, c, d, e, f]. */
  matrix: z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]),
  /** Largest anchor distance from the fit (pixels and millimetres); above ~0.25 mm the sheet is distorted. */
  residualPx: z.number(),
  residualMm: z.number(),
  anchorsUsed: z.number().int().min(3).max(4),
  anchors: z.array(AnchorFindingSchema),
  /** Pixels per millimetre of the printed card (print scale included). */
  pxPerMm: z.number().positive(),
  /** Skew beyond the orientation, degrees (positive: clockwise). */
  skewDeg: z.number(),
  /** Printed size over nominal when the image's dpi is known (0.95 for a 95 % print), else null. */
  printScale: z.number().nullable(),
});
export type PageTransform = z.infer<typeof PageTransformSchema>;

/** How far each bubble block was found from where the page transform put it (local re-registration). */
export const BlockRegistrationSchema = z.object({
  elementId: z.string(),
  dxMm: z.number(),
  dyMm: z.number(),
  /** 0–1: how well the printed brackets matched at that shift. */
  fit: z.number(),
});

export const CropSchema = z.object({
  /** Key of the image returned beside the result. */
  id: z.string(),
  elementId: z.string(),
  kind: z.enum(['written', 'blank']),
  questionIds: z.array(IdSchema),
  /** The crop's rect on the card, millimetres (the crop is upright and deskewed). */
  rect: RectSchema,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  format: z.enum(['jpeg', 'png']),
  /** Nothing written in it. */
  blank: z.boolean(),
  /** Share of small windows of the writing area holding ink (0–1). */
  coverage: z.number().min(0).max(1),
});
export type Crop = z.infer<typeof CropSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Score boxes (打分框, 先阅后扫; ADR 0065)

export const ScoreCellStateSchema = z.enum(['ticked', 'empty', 'faint']);
export const ScoreCellReadingSchema = z.object({
  role: z.enum(['tens', 'units', 'half']),
  value: z.number(),
  /** Raw share of the cell's inside clearly inked: red (R − (G+B)/2) on a colour scan, dark on a grey or 1-bit one. */
  ink: z.number(),
  /** Raw share inked at all (a faint or light mark raises it, paper and the printed digit do not). */
  weak: z.number(),
  /** Colour scans: raw share dark but not red (a pencil or black-pen mark, never taken for a score). */
  other: z.number().optional(),
  state: ScoreCellStateSchema,
});
export const SCORE_DOUBT_REASONS = [
  'faintMark',
  'multipleTicks',
  'unitsMissing',
  'overFullScore',
  'notRed',
  'bitonalScan',
  'answerMarkUnclear',
  'pageSetAside',
] as const;
export const ScoreDoubtReasonSchema = z.enum(SCORE_DOUBT_REASONS);
export type ScoreDoubtReason = z.infer<typeof ScoreDoubtReasonSchema>;
/** What a person is told about a doubtful score box. */
export const SCORE_DOUBT_MESSAGES: Readonly<Record<ScoreDoubtReason, string>> = {
  faintMark: '打分框内有不清楚的笔迹（太浅或越格），请人工核对得分',
  multipleTicks: '打分框同一行勾了多个格（可能有涂改），请人工核对得分',
  unitsMissing: '打分框只勾了十位或0.5，个位没有勾，请人工核对得分',
  overFullScore: '打分框勾出的分数超过该题满分，请人工核对得分',
  notRed: '打分框内有非红色的笔迹，请人工核对得分',
  bitonalScan: '黑白（1位）扫描可能丢失较浅的红笔痕迹，打分框请用彩色或灰度扫描，或人工核对得分',
  answerMarkUnclear: '打分框未打勾，答题区有红笔批改痕迹但不能确定是“√”还是“×”，请人工核对得分',
  pageSetAside: '此页已忽略或标为已重新扫描，打分框的得分不再采用，请看图核对得分',
};
/** A red √ / × written on the answer when no box was ticked (issue #26's secondary signal, ADR 0065). */
export const AnswerMarkReadingSchema = z.object({
  /** tick: √ (full score); cross: × (zero); unclear: red marks that are neither alone (a person decides). */
  kind: z.enum(['tick', 'cross', 'unclear']),
  /** Red strokes found in the written box, specks left out. */
  strokes: z.number().int().nonnegative(),
  /** Share of the largest red stroke's pixels in each third of its bounding box, rows top to bottom. */
  grid: z.array(z.number()).length(9),
});
export type AnswerMarkReading = z.infer<typeof AnswerMarkReadingSchema>;
export const ScoreReadingSchema = z.object({
  questionId: IdSchema,
  number: z.string(),
  fullScore: z.number(),
  /** The ticked cells' sum when the box reads clearly ('ok'), else null. */
  score: z.number().nullable(),
  /** ok: one clear score; blank: nothing ticked (marked on screen); doubtful: a person decides, never guessed. */
  status: z.enum(['ok', 'blank', 'doubtful']),
  reason: ScoreDoubtReasonSchema.nullable(),
  /** Read on the red of a colour scan (true) or the darkness of a grey or 1-bit one. */
  colour: z.boolean(),
  cells: z.array(ScoreCellReadingSchema),
  /**
   * Where the score came from: the box's cells, or (colour scans, box left empty) a red √ / × on the answer. Absent
   * on readings made before it existed, which are the box's.
   */
  source: z.enum(['box', 'mark']).optional(),
  /** The red mark on the answer, when the box was empty and the written box was looked at. */
  answerMark: AnswerMarkReadingSchema.optional(),
});
export type ScoreReading = z.infer<typeof ScoreReadingSchema>;

export const RecognitionStepSchema = z.enum([
  'decode',
  'anchors',
  'qr',
  'registration',
  'marks',
  'crops',
  'total',
]);
export type RecognitionStep = z.infer<typeof RecognitionStepSchema>;

export const PageRecognitionSchema = z.object({
  recognitionVersion: z.literal(RECOGNITION_VERSION),
  /** ok: nothing to check; review: some items go to a person; failed: the page needs a person before use. */
  status: z.enum(['ok', 'review', 'failed']),
  identity: PageIdentitySchema.nullable(),
  orientation: PageOrientationSchema.nullable(),
  image: z.object({
    width: z.number().int().nonnegative(),
    height: z.number().int().nonnegative(),
    format: z.string(),
    /** From the file's metadata, else inferred from the anchors; null when neither. */
    dpi: z.number().positive().nullable(),
    dpiSource: z.enum(['metadata', 'anchors']).nullable(),
    /** Only black and white pixels (a 1-bit scan): light pencil may have been lost by the scanner. */
    bitonal: z.boolean(),
  }),
  transform: PageTransformSchema.nullable(),
  /** The page's own grey levels (0–255): paper from around the anchors, ink from inside them. */
  levels: z.object({ paper: z.number(), ink: z.number() }).nullable(),
  blocks: z.array(BlockRegistrationSchema),
  marks: z.array(QuestionMarkSchema),
  studentNumber: StudentNumberReadingSchema.nullable(),
  uncertain: z.array(UncertainItemSchema),
  crops: z.array(CropSchema),
  /** Score boxes of the page, when it has any (ADR 0065). */
  scores: z.array(ScoreReadingSchema).optional(),
  problems: z.array(RecognitionProblemSchema),
  thresholds: MarkThresholdsSchema,
  /** Milliseconds per step. */
  timings: z.partialRecord(RecognitionStepSchema, z.number().nonnegative()),
});
export type PageRecognition = z.infer<typeof PageRecognitionSchema>;
