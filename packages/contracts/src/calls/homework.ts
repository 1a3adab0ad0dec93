import { z } from 'zod';
import {
  CardIdentitySchema,
  CardLayoutSchema,
  CardPaperSchema,
  CardSettingsSchema,
  CardSizeSchema,
} from '../answer-card.js';
import { FlagSchema, IdSchema, PageQuerySchema, TimestampSchema, envelope, page } from '../common.js';
import { DaySchema, PaperSectionSchema, PaperSettingsSchema } from './papers.js';
import { defineCall } from './define.js';

/** Days are one schema, defined beside the paper lists' filters. */
export { DaySchema };

/*
 * Homework and tests (/paperlist) and their answer cards (/answerCard, the card print pages).
 *
 * A paper's card: one card per paper (its id is the paper's id and is what the page QR names), with the settings the
 * designer saves. Publishing freezes a snapshot of the paper and the card layout under (cardId, version): every
 * publication makes the next version, and so does every later edit of a published card, while older versions stay
 * readable so sheets already printed are still recognised.
 */

/** 作业 or 考试. */
export const HOMEWORK_TYPES = ['homework', 'test'] as const;
export const HomeworkTypeSchema = z.enum(HOMEWORK_TYPES);
export type HomeworkType = z.infer<typeof HomeworkTypeSchema>;
export const HOMEWORK_TYPE_NAMES: Record<HomeworkType, string> = { homework: '作业', test: '考试' };

/** Where a homework is in its lifecycle; computed from scanning and marking progress, never stored. */
export const HOMEWORK_STATES = ['toScan', 'scanning', 'marking', 'done'] as const;
export const HomeworkStateSchema = z.enum(HOMEWORK_STATES);
export type HomeworkState = z.infer<typeof HomeworkStateSchema>;
export const HOMEWORK_STATE_NAMES: Record<HomeworkState, string> = {
  toScan: '待扫描',
  scanning: '扫描中',
  marking: '阅卷中',
  done: '已完成',
};

/** Most classes one publication may go to. */
export const HOMEWORK_MAX_CLASSES = 50;

/** Chinese messages of homework and card calls. */
export const HOMEWORK_MESSAGES = {
  notFound: '作业不存在或已删除',
  notYours: '只能修改或删除自己布置的作业',
  templatePaper: '系统模板试卷不能直接布置，请先复制到“我的试卷”',
  colleaguePaper: '只能布置自己的试卷或本校共享的试卷',
  paperInRecycleBin: '试卷在回收站中，请先还原后再布置',
  emptyPaper: '试卷中还没有试题，不能布置',
  deletedQuestion: (no: number) => `第${no}题已从题库中删除，请先在组卷中心替换或删除该题`,
  noSchoolYear: '请先选择默认学年后再布置作业',
  classNotInSchool: '所选班级不属于您的学校',
  classNotInYear: '只能布置给当前默认学年的班级',
  classNotInHomework: '所选班级不属于这次作业',
  noStudents: '所选班级还没有学生，无法打印个性化答题卡',
  qrNeedsStudents:
    '这份答题卡按二维码识别学生，只能打印个性化答题卡；如需通用答题卡，请在答题卡设计中把学生识别方式改为“考号填涂”或“条形码”',
  versionNotFound: '答题卡版本不存在',
  fontMissing: '服务器缺少打印答题卡所需的中文字体，请联系网站管理员',
} as const;

// ───────────── the card of a paper (/answerCard) ─────────────

/** The card of a paper as the designer loads it: the paper as the card sees it, the settings and the layout. */
export const PaperCardSchema = z.object({
  paperId: IdSchema,
  /** What the page QR codes name (the paper's id). */
  cardId: IdSchema,
  /** The saved settings, or the defaults when none were saved. */
  settings: CardSettingsSchema,
  /** Whether settings were ever saved for this paper. */
  saved: z.boolean(),
  updatedAt: TimestampSchema.nullable(),
  /** The newest version frozen by publishing (0: never published); a preview shows the next one. */
  latestVersion: z.number().int().nonnegative(),
  /** Whether the caller may save settings (and publish this paper). */
  editable: z.boolean(),
  /** The paper mapped for the card: the browser runs `layoutCard(paper, settings)` on it for a live preview. */
  paper: CardPaperSchema,
  /** `layoutCard(paper, settings)`, with its warnings (boxes too small, page overflow). */
  layout: CardLayoutSchema,
});
export type PaperCard = z.infer<typeof PaperCardSchema>;

// ───────────── publishing ─────────────

export const PublishHomeworkSchema = z
  .object({
    paperId: IdSchema,
    type: HomeworkTypeSchema.default('homework'),
    title: z.string().trim().min(1, '请输入作业名称').max(80, '作业名称不能超过80个字'),
    /** Classes of the caller's current default school year. */
    classIds: z
      .array(IdSchema)
      .min(1, '请选择班级')
      .max(HOMEWORK_MAX_CLASSES, `一次最多布置给${HOMEWORK_MAX_CLASSES}个班级`),
    startDate: DaySchema,
    dueDate: DaySchema,
    /** 是否分配给学科老师. */
    subjectTeacher: z.boolean().default(false),
  })
  .refine((v) => v.dueDate >= v.startDate, { message: '截止日期不能早于开始日期', path: ['dueDate'] })
  .refine((v) => new Set(v.classIds).size === v.classIds.length, {
    message: '班级不能重复选择',
    path: ['classIds'],
  });
export type PublishHomework = z.infer<typeof PublishHomeworkSchema>;

// ───────────── homework ─────────────

export const HomeworkClassSchema = z.object({
  id: IdSchema,
  name: z.string(),
  studentCount: z.number().int().nonnegative(),
});
export type HomeworkClass = z.infer<typeof HomeworkClassSchema>;

/** The frozen card of a homework: the version printed now. */
export const HomeworkCardInfoSchema = z.object({
  cardId: IdSchema,
  version: z.number().int().positive(),
  identity: CardIdentitySchema,
  size: CardSizeSchema,
  columns: z.number().int().min(1).max(3),
  pageCount: z.number().int().positive(),
});
export type HomeworkCardInfo = z.infer<typeof HomeworkCardInfoSchema>;

/** What every view of a homework names it by: title, kind and state (with their Chinese names). */
export const HomeworkHeadSchema = z.object({
  id: IdSchema,
  title: z.string(),
  type: HomeworkTypeSchema,
  /** 作业 or 考试. */
  typeName: z.string(),
  state: HomeworkStateSchema,
  /** 待扫描, 扫描中, 阅卷中, 已完成. */
  stateName: z.string(),
});

export const HomeworkSummarySchema = HomeworkHeadSchema.extend({
  paperId: IdSchema,
  paperTitle: z.string(),
  stageId: IdSchema,
  stageName: z.string(),
  subjectId: IdSchema,
  subjectName: z.string(),
  schoolYearId: IdSchema,
  classes: z.array(HomeworkClassSchema),
  startDate: DaySchema,
  dueDate: DaySchema,
  /** 是否分配给学科老师. */
  subjectTeacher: z.boolean(),
  questionCount: z.number().int().nonnegative(),
  totalScore: z.number().nonnegative(),
  card: HomeworkCardInfoSchema,
  createdBy: IdSchema,
  createdByName: z.string(),
  /** Published by the caller. */
  mine: z.boolean(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  /** What the caller may do (the list shows or hides buttons from this); printing is open to the school. */
  permissions: z.object({ editCard: z.boolean(), delete: z.boolean() }),
});
export type HomeworkSummary = z.infer<typeof HomeworkSummarySchema>;

/** The paper as it was when published: questions with their answers and scores; later edits do not reach it. */
export const HomeworkPaperSchema = z.object({
  paperId: IdSchema,
  /** The paper's own version at publishing. */
  paperVersion: z.number().int().positive(),
  title: z.string(),
  subtitle: z.string(),
  stageId: IdSchema,
  stageName: z.string(),
  subjectId: IdSchema,
  subjectName: z.string(),
  questionCount: z.number().int().nonnegative(),
  totalScore: z.number().nonnegative(),
  settings: PaperSettingsSchema,
  sections: z.array(PaperSectionSchema),
});
export type HomeworkPaper = z.infer<typeof HomeworkPaperSchema>;

export const HomeworkDetailSchema = HomeworkSummarySchema.extend({ paper: HomeworkPaperSchema });
export type HomeworkDetail = z.infer<typeof HomeworkDetailSchema>;

export const HomeworkListQuerySchema = PageQuerySchema.extend({
  classId: IdSchema.optional(),
  subjectId: IdSchema.optional(),
  type: HomeworkTypeSchema.optional(),
  state: HomeworkStateSchema.optional(),
  /** Homework running on or after this day (its due date is not before it). */
  from: DaySchema.optional(),
  /** Homework running on or before this day (its start date is not after it). */
  to: DaySchema.optional(),
  /** Only what the caller published. */
  mine: FlagSchema.optional(),
  /** A school year of the caller's school; by default the caller's current default school year. */
  schoolYearId: IdSchema.optional(),
});
export type HomeworkListQuery = z.infer<typeof HomeworkListQuerySchema>;

// ───────────── the card of a homework ─────────────

export const CardVersionInfoSchema = z.object({
  version: z.number().int().positive(),
  identity: CardIdentitySchema,
  size: CardSizeSchema,
  columns: z.number().int().min(1).max(3),
  pageCount: z.number().int().positive(),
  createdAt: TimestampSchema,
});
export type CardVersionInfo = z.infer<typeof CardVersionInfoSchema>;

/** One frozen card version of a homework (the current one unless another was asked for). */
export const HomeworkCardSchema = z.object({
  homeworkId: IdSchema,
  cardId: IdSchema,
  version: z.number().int().positive(),
  /** The version printed now (the newest of this homework). */
  currentVersion: z.number().int().positive(),
  settings: CardSettingsSchema,
  paper: CardPaperSchema,
  layout: CardLayoutSchema,
  /** Every version of this homework's card, newest first; all stay readable by the recogniser. */
  versions: z.array(CardVersionInfoSchema),
});
export type HomeworkCard = z.infer<typeof HomeworkCardSchema>;

export const HomeworkCardQuerySchema = z.object({
  version: z.coerce.number().int().positive().optional(),
});

/**
 * What to print: one anonymous generic card (identity 'bubbles' or 'barcode' only), or one personalised card per
 * student of the chosen classes (all classes of the homework when none are given), in one PDF.
 */
export const CardPdfRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('generic') }),
  z.object({
    kind: z.literal('students'),
    classIds: z.array(IdSchema).max(HOMEWORK_MAX_CLASSES).optional(),
    /** Only these students of the chosen classes (a reprint); all of them when absent. */
    studentIds: z.array(IdSchema).max(5000).optional(),
  }),
]);
export type CardPdfRequest = z.infer<typeof CardPdfRequestSchema>;

export const PDF_MIME = 'application/pdf';

/** A download answers the PDF itself (a blob), not the JSON envelope. */
export const PdfFileSchema = z.custom<Blob>(
  (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
  { message: '应为 PDF 文件' },
);

// ───────────── calls ─────────────

const IdParams = z.object({ id: IdSchema });
const paperCard = envelope(PaperCardSchema);
const homeworkCard = envelope(HomeworkCardSchema);

/** The card of a paper for the designer: saved settings (or defaults), the mapped paper and its layout. */
export const paperCardCall = defineCall({
  name: 'paperCard',
  method: 'GET',
  path: '/teacher/homework/paper-card/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: paperCard,
});

/** Lays the paper's card out with unsaved settings (nothing is stored). */
export const previewPaperCardCall = defineCall({
  name: 'previewPaperCard',
  method: 'POST',
  path: '/teacher/homework/paper-card/:id/preview',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: CardSettingsSchema,
  response: envelope(CardLayoutSchema),
});

/** Saves the paper's card settings; the next publication freezes them. */
export const savePaperCardCall = defineCall({
  name: 'savePaperCard',
  method: 'PUT',
  path: '/teacher/homework/paper-card/:id',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: CardSettingsSchema,
  response: paperCard,
});

/** Publishes a paper to classes as homework or a test, freezing the paper and its card. */
export const publishHomeworkCall = defineCall({
  name: 'publishHomework',
  method: 'POST',
  path: '/teacher/homework/publish',
  encoding: 'json',
  auth: 'bearer',
  body: PublishHomeworkSchema,
  response: envelope(HomeworkDetailSchema),
});

/** The school's homework and tests of a school year (/paperlist), newest start first. */
export const homeworkListCall = defineCall({
  name: 'homeworkList',
  method: 'GET',
  path: '/teacher/homework/list',
  encoding: 'query',
  auth: 'bearer',
  query: HomeworkListQuerySchema,
  response: envelope(page(HomeworkSummarySchema)),
});

export const homeworkDetailCall = defineCall({
  name: 'homeworkDetail',
  method: 'GET',
  path: '/teacher/homework/detail/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(HomeworkDetailSchema),
});

/** Deletes a homework (the list asks for confirmation first); its card versions stay readable. */
export const deleteHomeworkCall = defineCall({
  name: 'deleteHomework',
  method: 'DELETE',
  path: '/teacher/homework/detail/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(z.null()),
});

/** A frozen card version of a homework (`?version=` for an older one). */
export const homeworkCardCall = defineCall({
  name: 'homeworkCard',
  method: 'GET',
  path: '/teacher/homework/card/:id',
  encoding: 'query',
  auth: 'bearer',
  params: IdParams,
  query: HomeworkCardQuerySchema,
  response: homeworkCard,
});

/** Edits a published card: the next version becomes current; the same settings again change nothing. */
export const editHomeworkCardCall = defineCall({
  name: 'editHomeworkCard',
  method: 'PUT',
  path: '/teacher/homework/card/:id',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: CardSettingsSchema,
  response: homeworkCard,
});

/** SPEC §7 file download: POST JSON, the answer is the PDF of the current card version, streamed. */
export const downloadHomeworkCardsCall = defineCall({
  name: 'downloadHomeworkCards',
  method: 'POST',
  path: '/teacher/homework/card/:id/pdf',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: CardPdfRequestSchema,
  response: PdfFileSchema,
});
