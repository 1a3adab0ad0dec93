import { z } from 'zod';
import { IdSchema } from './common.js';
import { ObjectiveKindSchema } from './scoring.js';

/*
 * Answer cards: the paper a card is laid out from, the teacher's card settings, and the laid-out card itself.
 * The layout is the single geometry model shared by the designer's preview, the PDF renderer and the recogniser:
 * every rectangle is in millimetres from the page's top-left corner, and every bubble and anchor is explicit so the
 * recogniser never recomputes geometry.
 */

/** Version of the layout model; a recogniser refuses layouts of a version it does not know. */
export const CARD_LAYOUT_VERSION = 1;

/** Card sizes, with the page size of the card in millimetres (A3 and B4 cards are landscape). */
export const CARD_SIZES = ['A4', 'A3', 'B4', '16k'] as const;
export const CardSizeSchema = z.enum(CARD_SIZES);
export type CardSize = z.infer<typeof CardSizeSchema>;

export const CARD_PAGE_MM: Readonly<Record<CardSize, { width: number; height: number }>> = {
  A4: { width: 210, height: 297 },
  A3: { width: 420, height: 297 },
  B4: { width: 353, height: 250 },
  '16k': { width: 185, height: 260 },
};

/** The column counts each size allows; the first is the default. */
export const CARD_COLUMNS: Readonly<Record<CardSize, readonly (1 | 2 | 3)[]>> = {
  A4: [1],
  A3: [2, 3],
  B4: [2],
  '16k': [1],
};

/** The printer cannot print closer to the edge than this; the layout keeps everything inside. */
export const PRINTER_MARGIN_MM = 5;
/** Written-answer boxes lower than this get a warning (too small to write in). */
export const MIN_WRITTEN_BOX_MM = 20;
/** Option letters of choice questions. */
export const CHOICE_OPTIONS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Input: the paper as the card sees it

const questionBase = {
  id: IdSchema,
  /** Display number, e.g. '13' or '21(2)'. */
  number: z.string().trim().min(1).max(12),
  score: z.number().nonnegative().max(1000),
};

/** A written answer's height hints: explicit millimetres win over a number of lines, which wins over the score. */
const writtenHints = {
  lines: z.number().int().min(1).max(60).optional(),
  heightMm: z.number().min(10).max(400).optional(),
};

export const CardQuestionSchema = z.discriminatedUnion('kind', [
  z.object({
    ...questionBase,
    kind: z.enum(['single', 'multiple']),
    options: z.number().int().min(2).max(CHOICE_OPTIONS.length).default(4),
  }),
  z.object({ ...questionBase, kind: z.literal('truefalse') }),
  z.object({ ...questionBase, kind: z.literal('blank'), blanks: z.number().int().min(1).max(20).default(1) }),
  z.object({ ...questionBase, kind: z.literal('written'), ...writtenHints }),
  /** 选做题: the questions of one group share one answer box and the student marks which one was answered. */
  z.object({ ...questionBase, kind: z.literal('optional'), optionalGroup: IdSchema, ...writtenHints }),
]);
export type CardQuestion = z.infer<typeof CardQuestionSchema>;
export type CardQuestionKind = CardQuestion['kind'];

export const CardSectionSchema = z.object({
  /** e.g. '一、单选题（每小题3分，共30分）'. */
  title: z.string().trim().min(1).max(80),
  questions: z.array(CardQuestionSchema).min(1).max(200),
});
export type CardSection = z.infer<typeof CardSectionSchema>;

export const CardPaperSchema = z
  .object({
    id: IdSchema,
    title: z.string().trim().min(1).max(60),
    subtitle: z.string().trim().max(80).optional(),
    sections: z.array(CardSectionSchema).min(1).max(40),
  })
  .superRefine((paper, ctx) => {
    const seen = new Set<string>();
    for (const section of paper.sections) {
      for (const q of section.questions) {
        if (seen.has(q.id))
          ctx.addIssue({ code: 'custom', message: `题目编号重复：${q.id}`, path: ['sections'] });
        seen.add(q.id);
      }
    }
  });
export type CardPaper = z.infer<typeof CardPaperSchema>;
export type CardPaperInput = z.input<typeof CardPaperSchema>;

/** How a sheet names its student: personalised QR, number bubbles filled by the student, or a barcode sticker. */
export const CardIdentitySchema = z.enum(['qr', 'bubbles', 'barcode']);
export type CardIdentity = z.infer<typeof CardIdentitySchema>;

/**
 * 打分框 (score box) beside a written question, for marking on paper before scanning (先阅后扫, ADR 0065): 'tick'
 * cells are a tens row and a units row sized from the question's full score, 'tally' cells one cell per score 0…N
 * (small full scores only); `half` adds a 0.5 cell.
 */
export const SCORE_BOX_KINDS = ['tick', 'tally'] as const;
export const ScoreBoxKindSchema = z.enum(SCORE_BOX_KINDS);
export type ScoreBoxKind = z.infer<typeof ScoreBoxKindSchema>;
export const ScoreBoxSettingSchema = z.object({
  kind: ScoreBoxKindSchema,
  half: z.boolean().default(false),
});
export type ScoreBoxSetting = z.infer<typeof ScoreBoxSettingSchema>;
/** The largest full score a tick box holds (tens row 0…90), and a tally box (one cell per score). */
export const SCORE_BOX_MAX = { tick: 99, tally: 15 } as const;

export const CardSettingsSchema = z
  .object({
    size: CardSizeSchema.default('A4'),
    /** Defaults to the first column count the size allows. */
    columns: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
    identity: CardIdentitySchema.default('qr'),
    studentNumberDigits: z.number().int().min(4).max(12).default(8),
    /** Written-box heights in millimetres by question id (or optional-group id), set by dragging in the designer. */
    writtenHeights: z.record(IdSchema, z.number().min(10).max(400)).default({}),
    /** Objective questions per bubble block. */
    objectiveGroupSize: z.number().int().min(1).max(10).default(5),
    /** More pages than this is reported as an overflow (the layout still holds every page). */
    maxPages: z.number().int().min(1).max(8).default(2),
    sealingLine: z.boolean().default(true),
    /** Score boxes by written question id (not optional groups): absent, the question is marked on screen. */
    scoreBoxes: z.record(IdSchema, ScoreBoxSettingSchema).default({}),
  })
  .superRefine((s, ctx) => {
    if (s.columns !== undefined && !CARD_COLUMNS[s.size].includes(s.columns)) {
      ctx.addIssue({
        code: 'custom',
        path: ['columns'],
        message: `${s.size} 答题卡只能分 ${CARD_COLUMNS[s.size].join('或')} 栏`,
      });
    }
  });
export type CardSettings = z.infer<typeof CardSettingsSchema>;
export type CardSettingsInput = z.input<typeof CardSettingsSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Output: the laid-out card

/** A rectangle in millimetres from the page's top-left corner. */
export const RectSchema = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number().nonnegative(),
  h: z.number().nonnegative(),
});
export type Rect = z.infer<typeof RectSchema>;

/** What a page's QR code carries. The layout holds it without a student; personalised cards add one at print. */
export const CardQrPayloadSchema = z.object({
  cardId: IdSchema,
  version: z.number().int().positive(),
  /** 1-based page number. */
  page: z.number().int().positive(),
  studentId: IdSchema.optional(),
});
export type CardQrPayload = z.infer<typeof CardQrPayloadSchema>;

const el = { id: z.string().min(1), rect: RectSchema };

export const AnchorElementSchema = z.object({
  ...el,
  type: z.literal('anchor'),
  corner: z.enum(['tl', 'tr', 'bl', 'br']),
});
export const QrElementSchema = z.object({
  ...el,
  type: z.literal('qr'),
  payload: CardQrPayloadSchema,
  /** Blank margin kept around the code on every side. */
  quietZoneMm: z.number().positive(),
});
export const TitleElementSchema = z.object({
  ...el,
  type: z.literal('title'),
  text: z.string(),
  subtitle: z.string().optional(),
});
export const StudentFieldKeySchema = z.enum(['name', 'className', 'number']);
export type StudentFieldKey = z.infer<typeof StudentFieldKeySchema>;
export const StudentInfoElementSchema = z.object({
  ...el,
  type: z.literal('studentInfo'),
  /** Each field: its label, where the label sits, and the line a student writes on (or a name is printed on). */
  fields: z.array(
    z.object({ key: StudentFieldKeySchema, label: z.string(), labelRect: RectSchema, valueRect: RectSchema }),
  ),
});
export const StudentNumberGridElementSchema = z.object({
  ...el,
  type: z.literal('studentNumberGrid'),
  label: z.string(),
  digits: z.number().int().positive(),
  /** One write-in box per digit above its bubble column. */
  boxes: z.array(RectSchema),
  bubbles: z.array(
    z.object({
      digit: z.number().int().nonnegative(),
      value: z.number().int().min(0).max(9),
      rect: RectSchema,
    }),
  ),
});
export const BarcodeZoneElementSchema = z.object({
  ...el,
  type: z.literal('barcodeZone'),
  label: z.string(),
});
export const FillExampleKindSchema = z.enum(['correct', 'tick', 'cross', 'dot', 'line']);
export const InstructionsElementSchema = z.object({
  ...el,
  type: z.literal('instructions'),
  heading: z.string(),
  /** Lines already wrapped to the width, drawn at `fontSizePt` with `lineHeightMm` spacing from `textRect`. */
  lines: z.array(z.string()),
  textRect: RectSchema,
  fontSizePt: z.number().positive(),
  lineHeightMm: z.number().positive(),
  correctLabel: z.string(),
  correctLabelRect: RectSchema,
  wrongLabel: z.string(),
  wrongLabelRect: RectSchema,
  /** Example bubbles: the correct full fill and the wrong marks; the recogniser must ignore them. */
  examples: z.array(z.object({ kind: FillExampleKindSchema, rect: RectSchema })),
});
export const SectionHeaderElementSchema = z.object({
  ...el,
  type: z.literal('sectionHeader'),
  text: z.string(),
});
export const ObjectiveOptionSchema = z.enum([...CHOICE_OPTIONS, 'T', 'F']);
export type ObjectiveOption = z.infer<typeof ObjectiveOptionSchema>;
export const ObjectiveBlockElementSchema = z.object({
  ...el,
  type: z.literal('objectiveBlock'),
  rows: z.array(
    z.object({
      questionId: IdSchema,
      number: z.string(),
      kind: ObjectiveKindSchema,
      numberRect: RectSchema,
      /** T and F are the ✓ and ✗ of true/false questions. */
      bubbles: z.array(z.object({ option: ObjectiveOptionSchema, rect: RectSchema })),
    }),
  ),
});
export const BlankElementSchema = z.object({
  ...el,
  type: z.literal('blank'),
  questionId: IdSchema,
  number: z.string(),
  score: z.number(),
  numberRect: RectSchema,
  /** One writing area per blank; the line is drawn along its bottom edge. */
  lines: z.array(RectSchema),
});
export const WrittenBoxElementSchema = z.object({
  ...el,
  type: z.literal('writtenBox'),
  /** One question, or every question of an optional group (the choice bubbles tell which was answered). */
  questionIds: z.array(IdSchema).min(1),
  optionalGroup: IdSchema.optional(),
  label: z.string(),
  score: z.number(),
});
export const OptionalChoiceElementSchema = z.object({
  ...el,
  type: z.literal('optionalChoice'),
  optionalGroup: IdSchema,
  text: z.string(),
  textRect: RectSchema,
  bubbles: z.array(z.object({ questionId: IdSchema, number: z.string(), rect: RectSchema })),
});
export const ScoreCellRoleSchema = z.enum(['tens', 'units', 'half']);
export type ScoreCellRole = z.infer<typeof ScoreCellRoleSchema>;
export const ScoreBoxElementSchema = z.object({
  ...el,
  type: z.literal('scoreBox'),
  questionId: IdSchema,
  number: z.string(),
  kind: ScoreBoxKindSchema,
  /** The question's full score: a reading above it is doubtful. */
  fullScore: z.number(),
  /** The caption left of the cells, and where it sits. */
  label: z.string(),
  labelRect: RectSchema,
  /**
   * Rows of cells; a question's score is the sum of the ticked cells' values. 'tens' (0, 10, 20…) takes one tick or
   * none, 'units' (0…9, or 0…N for a tally box) exactly one, 'half' (one 0.5 cell) one or none.
   */
  rows: z.array(
    z.object({
      role: ScoreCellRoleSchema,
      label: z.string(),
      labelRect: RectSchema,
      cells: z
        .array(z.object({ value: z.number().nonnegative(), label: z.string(), rect: RectSchema }))
        .min(1),
    }),
  ),
});
export const SealingLineElementSchema = z.object({ ...el, type: z.literal('sealingLine'), text: z.string() });
export const FooterElementSchema = z.object({
  ...el,
  type: z.literal('footer'),
  page: z.number().int().positive(),
  pageCount: z.number().int().positive(),
  text: z.string(),
});

export const CardElementSchema = z.discriminatedUnion('type', [
  AnchorElementSchema,
  QrElementSchema,
  TitleElementSchema,
  StudentInfoElementSchema,
  StudentNumberGridElementSchema,
  BarcodeZoneElementSchema,
  InstructionsElementSchema,
  SectionHeaderElementSchema,
  ObjectiveBlockElementSchema,
  BlankElementSchema,
  WrittenBoxElementSchema,
  OptionalChoiceElementSchema,
  ScoreBoxElementSchema,
  SealingLineElementSchema,
  FooterElementSchema,
]);
export type CardElement = z.infer<typeof CardElementSchema>;
export type CardElementType = CardElement['type'];
/** The element of a given type, e.g. `CardElementOf<'anchor'>`. */
export type CardElementOf<T extends CardElementType> = Extract<CardElement, { type: T }>;

export const CardPageSchema = z.object({
  /** 0-based page index; the QR carries index + 1. */
  index: z.number().int().nonnegative(),
  widthMm: z.number().positive(),
  heightMm: z.number().positive(),
  elements: z.array(CardElementSchema),
});
export type CardPage = z.infer<typeof CardPageSchema>;

export const CardLayoutWarningSchema = z.object({
  code: z.enum(['writtenBoxTooSmall', 'writtenBoxTooTall', 'pageOverflow', 'scoreBoxUnavailable']),
  questionId: IdSchema.optional(),
  /** For the teacher, in Chinese. */
  message: z.string(),
});
export type CardLayoutWarning = z.infer<typeof CardLayoutWarningSchema>;

export const CardLayoutSchema = z.object({
  layoutVersion: z.literal(CARD_LAYOUT_VERSION),
  cardId: IdSchema,
  /** The card's own version: publishing freezes one, a later edit makes the next. */
  version: z.number().int().positive(),
  title: z.string(),
  size: CardSizeSchema,
  columns: z.number().int().min(1).max(3),
  identity: CardIdentitySchema,
  pages: z.array(CardPageSchema).min(1),
  warnings: z.array(CardLayoutWarningSchema),
});
export type CardLayout = z.infer<typeof CardLayoutSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The QR payload codec: `ZY1|cardId|version|page|studentId|check`, check = CRC-32 of everything before it.

export const CARD_QR_PREFIX = 'ZY1';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of a string's UTF-8 bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// Ids are opaque: escape the separator (and the escape character) so any id survives the round trip.
const escapeField = (s: string) => s.replaceAll('%', '%25').replaceAll('|', '%7C');
const unescapeField = (s: string) => s.replaceAll('%7C', '|').replaceAll('%25', '%');

/** The compact text of a page's QR code. */
export function encodeCardQr(payload: CardQrPayload): string {
  const body = [
    CARD_QR_PREFIX,
    escapeField(payload.cardId),
    String(payload.version),
    String(payload.page),
    escapeField(payload.studentId ?? ''),
  ].join('|');
  return `${body}|${crc32(body).toString(16).toUpperCase().padStart(8, '0')}`;
}

export type CardQrDecodeResult =
  { ok: true; payload: CardQrPayload } | { ok: false; reason: 'notOurs' | 'malformed' | 'checkFailed' };

/** Reads a QR text back; anything not ours, damaged or with a wrong check is refused with a reason. */
export function decodeCardQr(text: string): CardQrDecodeResult {
  const parts = text.trim().split('|');
  if (parts[0] !== CARD_QR_PREFIX) return { ok: false, reason: 'notOurs' };
  if (parts.length !== 6) return { ok: false, reason: 'malformed' };
  const [, cardId, version, page, studentId, check] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const body = parts.slice(0, 5).join('|');
  if (!/^[0-9A-F]{8}$/i.test(check)) return { ok: false, reason: 'malformed' };
  if (parseInt(check, 16) !== crc32(body)) return { ok: false, reason: 'checkFailed' };
  if (!/^[1-9]\d{0,8}$/.test(version) || !/^[1-9]\d{0,3}$/.test(page))
    return { ok: false, reason: 'malformed' };
  const parsed = CardQrPayloadSchema.safeParse({
    cardId: unescapeField(cardId),
    version: Number(version),
    page: Number(page),
    ...(studentId ? { studentId: unescapeField(studentId) } : {}),
  });
  return parsed.success ? { ok: true, payload: parsed.data } : { ok: false, reason: 'malformed' };
}
