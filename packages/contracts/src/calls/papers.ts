import { z } from 'zod';
import { IdSchema, PageQuerySchema, TimestampSchema, envelope, page } from '../common.js';
import { isDay } from '../dates.js';
import { defineCall } from './define.js';

// Papers (试卷): composition from the basket (/edit), paper settings (/paperset), smart composition
// (intellectTestPaper), template papers (GoodsPaper), my / school papers and the recycle bin
// (cloudResources), and Word import / export.

/** Days a deleted paper stays in the recycle bin before it is purged for ever. */
export const RECYCLE_BIN_DAYS = 30;

/**
 * A score in points: non-negative, at most one decimal (2.5 分 happens, 2.25 分 does not), at most 200.
 * Stored as tenths of a point so totals are exact.
 */
export const ScoreSchema = z
  .number('分值必须是数字')
  .min(0, '分值不能为负数')
  .max(200, '分值不能超过200分')
  .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-6, { message: '分值最多保留一位小数' });

export const PAPER_STATUSES = ['draft', 'final'] as const;
export const PaperStatusSchema = z.enum(PAPER_STATUSES);
export type PaperStatus = z.infer<typeof PaperStatusSchema>;
/** 草稿 / 定稿, as the lists show them. */
export const PAPER_STATUS_NAMES: Record<PaperStatus, string> = { draft: '草稿', final: '定稿' };

// ───────────── paper settings (/paperset) ─────────────

/** Paper sizes a paper is laid out on; A3 and B4 are printed in two columns unless `columns` says otherwise. */
export const PAPER_LAYOUT_SIZES = ['A4', 'A3', 'B4', '16K'] as const;
/** Width × height in millimetres, portrait (A3 and B4 are printed landscape with two columns). */
export const PAPER_LAYOUT_MM: Record<(typeof PAPER_LAYOUT_SIZES)[number], { width: number; height: number }> =
  {
    A4: { width: 210, height: 297 },
    A3: { width: 297, height: 420 },
    B4: { width: 257, height: 364 },
    '16K': { width: 195, height: 270 },
  };

/** Font sizes in points with their Chinese names: 小五 9, 五号 10.5, 小四 12, 四号 14. */
export const PAPER_FONT_SIZES = { 小五: 9, 五号: 10.5, 小四: 12, 四号: 14 } as const;

const MarginSchema = z.number().min(5, '页边距不能小于5毫米').max(60, '页边距不能大于60毫米');

export const DEFAULT_NOTICE = [
  '答题前，考生务必将自己的姓名、班级、考号填写清楚。',
  '请将答案写在答题卡或试卷指定位置上，写在其他位置无效。',
  '考试结束后，将本试卷和答题卡一并交回。',
];

/** Every setting of /paperset, each with its default: `PaperSettingsSchema.parse({})` is a complete setting. */
export const PaperSettingsSchema = z.object({
  paperSize: z.enum(PAPER_LAYOUT_SIZES).default('A4'),
  /** null: automatic — two columns on A3 and B4, one on A4 and 16K. */
  columns: z
    .union([z.literal(1), z.literal(2)])
    .nullable()
    .default(null),
  /** Margins in millimetres. */
  margins: z
    .object({
      top: MarginSchema.default(20),
      bottom: MarginSchema.default(20),
      left: MarginSchema.default(20),
      right: MarginSchema.default(20),
    })
    .prefault({}),
  header: z
    .object({
      /** School name line; empty hides it. */
      school: z.string().trim().max(60).default(''),
      showTitle: z.boolean().default(true),
      showSubtitle: z.boolean().default(true),
      /** Exam time in minutes; null hides the line. */
      examMinutes: z.number().int().min(1).max(600).nullable().default(null),
      showFullScore: z.boolean().default(true),
      showNotice: z.boolean().default(false),
      notice: z.array(z.string().trim().max(200)).max(10).default(DEFAULT_NOTICE),
    })
    .prefault({}),
  /** 学校 / 班级 / 姓名 / 考号 line under the title. */
  studentInfo: z
    .object({
      show: z.boolean().default(true),
      fields: z.array(z.string().trim().min(1).max(10)).max(6).default(['学校', '班级', '姓名', '考号']),
    })
    .prefault({}),
  /** 密封线 down the left margin of each page. */
  sealingLine: z.boolean().default(false),
  /** Score box (得分栏) with one cell per section under the header. */
  scoreTable: z.boolean().default(false),
  /** Where answers and analysis go: not at all, at the end of the paper, or in a separate teacher copy. */
  answers: z.enum(['none', 'end', 'separate']).default('separate'),
  /** Question numbers run on across sections (continuous) or restart in every section. */
  numbering: z.enum(['continuous', 'perSection']).default('continuous'),
  /** Body font size in points (see PAPER_FONT_SIZES). */
  fontSize: z.union([z.literal(9), z.literal(10.5), z.literal(12), z.literal(14)]).default(10.5),
});
export type PaperSettings = z.infer<typeof PaperSettingsSchema>;

// ───────────── the paper document ─────────────

/** A question as a paper shows it: the content of the bank row it points to. */
export const PaperQuestionSchema = z.object({
  id: IdSchema,
  typeId: IdSchema,
  typeName: z.string(),
  /** 1 容易 … 5 困难. */
  difficulty: z.number().int().min(1).max(5),
  /** Sanitised HTML; formulas as LaTeX inside \( … \). */
  stem: z.string(),
  options: z.array(z.object({ label: z.string(), content: z.string() })),
  answer: z.string(),
  analysis: z.string(),
  /** 'system' | 'school' | 'personal' — a personal copy is what an inline edit creates. */
  owner: z.string(),
  knowledgePoints: z.array(z.object({ id: IdSchema, name: z.string() })),
});
export type PaperQuestion = z.infer<typeof PaperQuestionSchema>;

export const PaperItemSchema = z.object({
  id: IdSchema,
  /** The number printed before the question (depends on the numbering setting). */
  no: z.number().int().positive(),
  questionId: IdSchema,
  /** The score this question counts for: its own override, else its section's 每小题 score. */
  score: z.number().nonnegative(),
  /** The per-question override, null when the section's score applies. */
  scoreOverride: z.number().nonnegative().nullable(),
  /** null when the question was deleted from the bank since (shown as 试题已删除). */
  question: PaperQuestionSchema.nullable(),
});
export type PaperItem = z.infer<typeof PaperItemSchema>;

export const PaperSectionSchema = z.object({
  id: IdSchema,
  /** 一、二、三… */
  number: z.string(),
  typeId: IdSchema.nullable(),
  title: z.string(),
  /** Instructions printed under the heading, may be empty. */
  note: z.string(),
  /** 每小题 N 分. */
  defaultScore: z.number().nonnegative(),
  /** e.g. 一、单选题（本大题共 5 小题，每小题 3 分，共 15 分） — computed, never stored. */
  heading: z.string(),
  questionCount: z.number().int().nonnegative(),
  totalScore: z.number().nonnegative(),
  items: z.array(PaperItemSchema),
});
export type PaperSection = z.infer<typeof PaperSectionSchema>;

export const PaperSourceSchema = z.enum(['basket', 'smart', 'template', 'copy', 'word', 'blank']);

/** What the caller may do with a paper (the web shows or hides buttons from this). */
export const PaperPermissionsSchema = z.object({
  edit: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
  copy: z.boolean(),
});

export const PaperSummarySchema = z.object({
  id: IdSchema,
  title: z.string(),
  subtitle: z.string(),
  stageId: IdSchema,
  stageName: z.string(),
  subjectId: IdSchema,
  subjectName: z.string(),
  textbookId: IdSchema.nullable(),
  status: PaperStatusSchema,
  source: PaperSourceSchema,
  /** Optimistic-concurrency version: every save must send the version it read. */
  version: z.number().int().positive(),
  questionCount: z.number().int().nonnegative(),
  totalScore: z.number().nonnegative(),
  /** 'system' for shipped templates, else 'personal'. */
  owner: z.enum(['system', 'personal']),
  ownerName: z.string(),
  mine: z.boolean(),
  /** Shared to the school (school papers). */
  shared: z.boolean(),
  /** Offered in the school's template papers (GoodsPaper). */
  isTemplate: z.boolean(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  /** Set while the paper is in the recycle bin. */
  deletedAt: TimestampSchema.nullable(),
  /** Whole days left before a paper in the recycle bin is purged; null outside the bin. */
  purgeInDays: z.number().int().nonnegative().nullable(),
  permissions: PaperPermissionsSchema,
});
export type PaperSummary = z.infer<typeof PaperSummarySchema>;

export const PaperDocumentSchema = PaperSummarySchema.extend({
  /** The basket paper this paper was composed from (reopened by composeFromBasket). */
  basketPaperId: IdSchema.nullable(),
  settings: PaperSettingsSchema,
  sections: z.array(PaperSectionSchema),
});
export type PaperDocument = z.infer<typeof PaperDocumentSchema>;

// ───────────── saving (/edit) ─────────────

export const SaveItemSchema = z.object({
  questionId: IdSchema,
  /** Per-question override; omit or null for the section's score. */
  score: ScoreSchema.nullable().optional(),
});

export const SaveSectionSchema = z.object({
  /** Kept when given (an existing section of this paper); new sections get a new id. */
  id: IdSchema.optional(),
  typeId: IdSchema.nullable(),
  title: z.string().trim().min(1, '请输入大题名称').max(40, '大题名称不能超过40个字'),
  note: z.string().trim().max(200, '大题说明不能超过200个字').default(''),
  defaultScore: ScoreSchema,
  items: z.array(SaveItemSchema).max(200),
});

const TitleSchema = z.string().trim().min(1, '请输入试卷标题').max(80, '试卷标题不能超过80个字');
const SubtitleSchema = z.string().trim().max(120, '副标题不能超过120个字');

/**
 * The whole paper as /edit holds it. Saving is idempotent: the same document saved twice (a retried
 * request) answers the stored paper; a stale `version` with different content answers 409.
 */
export const SavePaperSchema = z.object({
  version: z.number().int().positive(),
  title: TitleSchema,
  subtitle: SubtitleSchema.default(''),
  status: PaperStatusSchema,
  sections: z.array(SaveSectionSchema).max(30, '大题不能超过30个'),
});
export type SavePaper = z.infer<typeof SavePaperSchema>;

export const ComposeFromBasketSchema = z.object({
  basketPaperId: IdSchema,
  /** true: start a new draft even when one composed from this basket paper is open. */
  fresh: z.boolean().default(false),
  /** /edit's textbookId query: the textbook a new paper is composed for. */
  textbookId: IdSchema.nullable().optional(),
});

export const CreatePaperSchema = z.object({
  subjectId: IdSchema,
  textbookId: IdSchema.nullable().optional(),
  title: TitleSchema,
  subtitle: SubtitleSchema.default(''),
});

export const VersionedSchema = z.object({ version: z.number().int().positive() });

export const AddQuestionsSchema = VersionedSchema.extend({
  questionIds: z.array(IdSchema).min(1, '请选择要添加的试题').max(100),
});

export const ReplaceQuestionSchema = VersionedSchema.extend({
  questionId: IdSchema,
  /** Takes the place (section, position, score) of `questionId`, e.g. a similar question. */
  newQuestionId: IdSchema,
});

const RichTextSchema = z.string().max(200_000, '内容过长');
export const QuestionOptionInputSchema = z.object({
  label: z.string().trim().min(1).max(4),
  content: RichTextSchema,
});

export const EditQuestionSchema = VersionedSchema.extend({
  questionId: IdSchema,
  stem: RichTextSchema.min(1, '请输入题干'),
  options: z.array(QuestionOptionInputSchema).max(8).default([]),
  answer: RichTextSchema.default(''),
  analysis: RichTextSchema.default(''),
  difficulty: z.number().int().min(1).max(5).optional(),
});

export const RenamePaperSchema = z.object({ title: TitleSchema });
export const SharePaperSchema = z.object({
  shared: z.boolean(),
  /** Also offer it in the school's template papers (GoodsPaper). */
  asTemplate: z.boolean().default(false),
});

/** A calendar day, YYYY-MM-DD, that exists (2026-02-30 does not). */
export const DaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 年-月-日（如 2026-09-01）')
  .refine(isDay, '日期不存在');

export const PaperListQuerySchema = PageQuerySchema.extend({
  keyword: z.string().trim().max(50).optional(),
  subjectId: IdSchema.optional(),
  status: PaperStatusSchema.optional(),
  /** Updated on or after this day (the school's day, in its time zone). */
  from: DaySchema.optional(),
  /** Updated on or before this day (the school's day, in its time zone). */
  to: DaySchema.optional(),
});
export type PaperListQuery = z.infer<typeof PaperListQuerySchema>;

export const PaperIdParamsSchema = z.object({ id: IdSchema });

// ───────────── smart composition (intellectTestPaper) ─────────────

export const SmartTypeRequestSchema = z.object({
  typeId: IdSchema,
  count: z.number().int().min(1, '题量至少为1').max(50, '每种题型最多50道'),
  score: ScoreSchema,
});

/**
 * difficulty is the 难度系数 (ADR 0045, ../difficulty.ts): a predicted score rate, 0–1, higher is easier — 1 all
 * 容易, 0.5 all 适中, 0 all 困难. A paper's coefficient is that of the score-weighted mean of its questions' levels;
 * the optimiser lands within ±0.05 of the target when the bank allows it.
 */
export const SmartComposeSchema = z
  .object({
    subjectId: IdSchema,
    /** Chapters (booknodes, a chapter includes its sections); or knowledge points; or neither (whole subject). */
    booknodeIds: z.array(IdSchema).max(200).default([]),
    knowledgePointIds: z.array(IdSchema).max(200).default([]),
    types: z.array(SmartTypeRequestSchema).min(1, '请至少选择一种题型').max(10),
    difficulty: z.number().min(0, '难度应在0到1之间').max(1, '难度应在0到1之间'),
    /** Classes the paper is for: questions of their most recent homework are avoided. */
    classIds: z.array(IdSchema).max(50).default([]),
    /** Same seed, same bank → same paper; another seed gives another paper (换一批). */
    seed: z.number().int().min(0).max(2_147_483_647).default(1),
    /** Also save the result as a draft paper (answered in `paper`). */
    createPaper: z.boolean().default(false),
    title: TitleSchema.optional(),
    textbookId: IdSchema.nullable().optional(),
  })
  .refine((v) => new Set(v.types.map((t) => t.typeId)).size === v.types.length, {
    message: '同一题型不能重复选择',
    path: ['types'],
  });
export type SmartCompose = z.infer<typeof SmartComposeSchema>;

export const SmartResultSchema = z.object({
  selections: z.array(
    z.object({
      typeId: IdSchema,
      typeName: z.string(),
      requested: z.number().int().nonnegative(),
      score: z.number().nonnegative(),
      questions: z.array(PaperQuestionSchema),
    }),
  ),
  /** Normalised 0–1, score-weighted. */
  targetDifficulty: z.number(),
  achievedDifficulty: z.number().nullable(),
  withinTolerance: z.boolean(),
  coverage: z.object({
    covered: z.array(z.object({ id: IdSchema, name: z.string() })),
    missing: z.array(z.object({ id: IdSchema, name: z.string() })),
  }),
  /** Plain Chinese sentences about what could not be satisfied (empty when everything was). */
  explanations: z.array(z.string()),
  totalScore: z.number().nonnegative(),
  paper: PaperDocumentSchema.nullable(),
});
export type SmartResult = z.infer<typeof SmartResultSchema>;

// ───────────── Word import / export ─────────────

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export const ExportWordSchema = z.object({
  /** student: questions only (answers at the end if the settings say so); teacher: with answers and analysis. */
  copy: z.enum(['student', 'teacher']).default('student'),
});

/** The export answers the .docx bytes themselves (a blob), not the JSON envelope. */
export const DocxFileSchema = z.custom<Blob>(
  (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
  { message: '应为 Word 文件' },
);

/** The uploaded file: a File in the browser, bytes on the host. */
export const UploadFileSchema = z.custom<Blob | Uint8Array>(
  (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
  { message: '请选择要导入的 Word 文件（.docx）' },
);

export const ImportWordSchema = z.object({
  file: UploadFileSchema,
  subjectId: IdSchema,
});

export const ImportedQuestionSchema = z.object({
  /** The number the document gave it. */
  no: z.number().int().nonnegative(),
  typeId: IdSchema,
  stem: RichTextSchema.min(1, '请输入题干'),
  options: z.array(QuestionOptionInputSchema).max(8).default([]),
  answer: RichTextSchema.default(''),
  analysis: RichTextSchema.default(''),
  difficulty: z.number().int().min(1).max(5).default(3),
  knowledgePointIds: z.array(IdSchema).max(10).default([]),
  score: ScoreSchema.nullable().default(null),
  /** What looked misread (preview only; ignored when saving). */
  warnings: z.array(z.string()).default([]),
});
export type ImportedQuestion = z.infer<typeof ImportedQuestionSchema>;

export const ImportedSectionSchema = z.object({
  title: z.string().trim().min(1).max(40),
  typeId: IdSchema,
  defaultScore: ScoreSchema,
  questions: z.array(ImportedQuestionSchema).max(200),
});

export const ImportPreviewSchema = z.object({
  subjectId: IdSchema,
  title: z.string(),
  subtitle: z.string(),
  sections: z.array(ImportedSectionSchema),
  /** Warnings about the document as a whole (the per-question ones sit on each question). */
  warnings: z.array(z.string()),
  questionCount: z.number().int().nonnegative(),
  /** The document's paragraphs as read (plain text), for the side-by-side fix-up. */
  source: z.array(z.string()).default([]),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const ImportSaveSchema = z.object({
  subjectId: IdSchema,
  textbookId: IdSchema.nullable().optional(),
  title: TitleSchema,
  subtitle: SubtitleSchema.default(''),
  sections: z.array(ImportedSectionSchema).min(1, '没有可保存的试题').max(30),
});

// ───────────── calls ─────────────

const paperDoc = envelope(PaperDocumentSchema);
const paperSummary = envelope(PaperSummarySchema);
const paperPage = envelope(page(PaperSummarySchema));

export const composeFromBasketCall = defineCall({
  name: 'composeFromBasket',
  method: 'POST',
  path: '/teacher/paper/compose',
  encoding: 'json',
  auth: 'bearer',
  body: ComposeFromBasketSchema,
  response: paperDoc,
});

export const createPaperCall = defineCall({
  name: 'createPaper',
  method: 'POST',
  path: '/teacher/paper/create',
  encoding: 'json',
  auth: 'bearer',
  body: CreatePaperSchema,
  response: paperDoc,
});

export const paperDetailCall = defineCall({
  name: 'paperDetail',
  method: 'GET',
  path: '/teacher/paper/detail/:id',
  encoding: 'none',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  response: paperDoc,
});

export const savePaperCall = defineCall({
  name: 'savePaper',
  method: 'PUT',
  path: '/teacher/paper/detail/:id',
  encoding: 'json',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  body: SavePaperSchema,
  response: paperDoc,
});

export const addPaperQuestionsCall = defineCall({
  name: 'addPaperQuestions',
  method: 'POST',
  path: '/teacher/paper/detail/:id/questions',
  encoding: 'json',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  body: AddQuestionsSchema,
  response: paperDoc,
});

export const replacePaperQuestionCall = defineCall({
  name: 'replacePaperQuestion',
  method: 'PUT',
  path: '/teacher/paper/detail/:id/replace',
  encoding: 'json',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  body: ReplaceQuestionSchema,
  response: paperDoc,
});

export const editPaperQuestionCall = defineCall({
  name: 'editPaperQuestion',
  method: 'PUT',
  path: '/teacher/paper/detail/:id/edit-question',
  encoding: 'json',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  body: EditQuestionSchema,
  response: paperDoc,
});

export const paperSettingsCall = defineCall({
  name: 'paperSettings',
  method: 'GET',
  path: '/teacher/paper/settings/:id',
  encoding: 'none',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  response: envelope(PaperSettingsSchema),
});

export const savePaperSettingsCall = defineCall({
  name: 'savePaperSettings',
  method: 'PUT',
  path: '/teacher/paper/settings/:id',
  encoding: 'json',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  body: PaperSettingsSchema,
  response: envelope(PaperSettingsSchema),
});

/** The caller's own default settings: what every paper they make from now on starts with. */
export const PaperSettingDefaultsSchema = z.object({
  settings: PaperSettingsSchema,
  /** Whether the teacher saved defaults (else `settings` are the standard ones). */
  saved: z.boolean(),
});
export type PaperSettingDefaults = z.infer<typeof PaperSettingDefaultsSchema>;

export const paperSettingDefaultsCall = defineCall({
  name: 'paperSettingDefaults',
  method: 'GET',
  path: '/teacher/paper/setting-defaults',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(PaperSettingDefaultsSchema),
});

export const savePaperSettingDefaultsCall = defineCall({
  name: 'savePaperSettingDefaults',
  method: 'PUT',
  path: '/teacher/paper/setting-defaults',
  encoding: 'json',
  auth: 'bearer',
  body: PaperSettingsSchema,
  response: envelope(PaperSettingDefaultsSchema),
});

/** Back to the standard settings. */
export const resetPaperSettingDefaultsCall = defineCall({
  name: 'resetPaperSettingDefaults',
  method: 'DELETE',
  path: '/teacher/paper/setting-defaults',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(PaperSettingDefaultsSchema),
});

export const renamePaperCall = defineCall({
  name: 'renamePaper',
  method: 'PUT',
  path: '/teacher/paper/rename/:id',
  encoding: 'json',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  body: RenamePaperSchema,
  response: paperSummary,
});

export const copyPaperCall = defineCall({
  name: 'copyPaper',
  method: 'POST',
  path: '/teacher/paper/copy/:id',
  encoding: 'none',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  response: paperSummary,
});

export const sharePaperCall = defineCall({
  name: 'sharePaper',
  method: 'PUT',
  path: '/teacher/paper/share/:id',
  encoding: 'json',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  body: SharePaperSchema,
  response: paperSummary,
});

/** Moves a paper to the recycle bin. */
export const deletePaperCall = defineCall({
  name: 'deletePaper',
  method: 'DELETE',
  path: '/teacher/paper/detail/:id',
  encoding: 'none',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  response: envelope(z.null()),
});

export const restorePaperCall = defineCall({
  name: 'restorePaper',
  method: 'PUT',
  path: '/teacher/paper/recycle/:id/restore',
  encoding: 'none',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  response: paperSummary,
});

/** Deletes a paper of the recycle bin for ever. */
export const purgePaperCall = defineCall({
  name: 'purgePaper',
  method: 'DELETE',
  path: '/teacher/paper/recycle/:id',
  encoding: 'none',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  response: envelope(z.null()),
});

export const myPapersCall = defineCall({
  name: 'myPapers',
  method: 'GET',
  path: '/teacher/paper/mine',
  encoding: 'query',
  auth: 'bearer',
  query: PaperListQuerySchema,
  response: paperPage,
});

export const schoolPapersCall = defineCall({
  name: 'schoolPapers',
  method: 'GET',
  path: '/teacher/paper/school',
  encoding: 'query',
  auth: 'bearer',
  query: PaperListQuerySchema,
  response: paperPage,
});

export const recycleBinCall = defineCall({
  name: 'recycleBin',
  method: 'GET',
  path: '/teacher/paper/recycle',
  encoding: 'query',
  auth: 'bearer',
  query: PaperListQuerySchema,
  response: paperPage,
});

export const templatePapersCall = defineCall({
  name: 'templatePapers',
  method: 'GET',
  path: '/teacher/paper/template',
  encoding: 'query',
  auth: 'bearer',
  query: PaperListQuerySchema,
  response: paperPage,
});

export const smartComposeCall = defineCall({
  name: 'smartCompose',
  method: 'POST',
  path: '/teacher/paper/smart',
  encoding: 'json',
  auth: 'bearer',
  body: SmartComposeSchema,
  response: envelope(SmartResultSchema),
});

/** SPEC §7 file download: POST JSON, the answer is the .docx itself. */
export const exportPaperWordCall = defineCall({
  name: 'exportPaperWord',
  method: 'POST',
  path: '/teacher/paper/export/:id',
  encoding: 'json',
  auth: 'bearer',
  params: PaperIdParamsSchema,
  body: ExportWordSchema,
  response: DocxFileSchema,
});

export const importWordPreviewCall = defineCall({
  name: 'importWordPreview',
  method: 'POST',
  path: '/teacher/paper/import/preview',
  encoding: 'multipart',
  auth: 'bearer',
  body: ImportWordSchema,
  response: envelope(ImportPreviewSchema),
});

export const importWordSaveCall = defineCall({
  name: 'importWordSave',
  method: 'POST',
  path: '/teacher/paper/import/save',
  encoding: 'json',
  auth: 'bearer',
  body: ImportSaveSchema,
  response: paperDoc,
});
