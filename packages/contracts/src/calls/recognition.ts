import { z } from 'zod';
import { IdSchema, TimestampSchema, envelope } from '../common.js';
import { RECOGNITION_PROBLEM_CODES } from '../recognition.js';
import { defineCall } from './define.js';
import { HalfPointScoreSchema } from './paper-marking.js';
import { ANSWER_KINDS, MARK_KINDS, ObjectiveKindSchema, PARTIAL_RULES } from '../scoring.js';

/*
 * Recognition on the host: what was read from every scanned page, the exception queue with its one-click fixes,
 * the answer key and its partial-credit rule, the teacher's review of every sheet, and the live tally of a batch.
 */

export const RECOGNITION_MESSAGES = {
  exceptionNotFound: '该异常不存在或已处理',
  sheetNotFound: '答题卡不存在',
  homeworkNotFound: '作业不存在或已删除',
  studentNotInHomework: '该学生不在这份作业的班级中',
  studentAlreadyHasSheet: '该学生已有一张同页码的答题卡，请先处理那一张',
  actionNotAllowed: '这类异常不能这样处理',
  needStudent: '请选择学生',
  needAnswers: '请为每道题选择答案',
  needScore: '请输入得分',
  badOption: '选项不在这道题的范围内',
  singleNeedsOne: '单选题、判断题只能选一个答案',
  notObjective: '只有客观题可以改答案',
  badKey: '答案格式不正确：单选题填一个字母，多选题填多个字母，判断题填“对”或“错”',
  questionNotInHomework: '题目不在这份作业中',
  pageNotRead: '这一页还没有识别结果',
  workerCrashed: '识别这张图片时程序异常退出（已重试一次），请重新扫描这一页',
  workerOutOfMemory:
    '识别这张图片占用的内存超出限制（可能是异常文件），已转为人工处理，请核对或重新扫描这一页',
  wrongHomework: '这张答题卡属于另一份作业，不是本批次正在扫描的作业',
  otherSchool: '这张答题卡不是本校的答题卡',
  homeworkDeleted: '这张答题卡所属的作业已被删除',
} as const;

/** Every kind of exception: the recogniser's problems plus what the host finds when it assembles sheets. */
export const RecognitionExceptionCodeSchema = z.enum(RECOGNITION_PROBLEM_CODES);
export type RecognitionExceptionCode = z.infer<typeof RecognitionExceptionCodeSchema>;

/** The one-click fixes. */
export const ExceptionActionSchema = z.enum([
  'assignStudent',
  'chooseMarks',
  'ignore',
  'rescanned',
  'accept',
  'enterScore',
  'markOnScreen',
]);
export type ExceptionAction = z.infer<typeof ExceptionActionSchema>;

export const ExceptionActionNames: Readonly<Record<ExceptionAction, string>> = {
  assignStudent: '指定学生',
  chooseMarks: '选择答案',
  ignore: '忽略此页',
  rescanned: '已重新扫描',
  accept: '确认无误',
  enterScore: '输入得分',
  markOnScreen: '改为网上阅卷',
};

export const PartialRuleSchema = z.enum(PARTIAL_RULES);
export type PartialRuleName = z.infer<typeof PartialRuleSchema>;

/** A question as read on a page, with what the teacher may choose. */
export const ReadQuestionSchema = z.object({
  questionId: IdSchema,
  number: z.string(),
  kind: z.enum(MARK_KINDS),
  /** Options printed on the card: 'A'…, or 'T','F'. */
  options: z.array(z.string()),
  chosen: z.string(),
  status: z.enum(['ok', 'blank', 'multiple', 'uncertain']),
  confidence: z.number(),
});
export type ReadQuestion = z.infer<typeof ReadQuestionSchema>;

export const RecognitionExceptionSchema = z.object({
  id: IdSchema,
  batchId: IdSchema,
  pageId: IdSchema.nullable(),
  pageSeq: z.number().int().nullable(),
  pageNo: z.number().int().nullable(),
  homeworkId: IdSchema.nullable(),
  homeworkTitle: z.string().nullable(),
  sheetId: IdSchema.nullable(),
  studentId: IdSchema.nullable(),
  studentName: z.string().nullable(),
  code: RecognitionExceptionCodeSchema,
  /** The reason in a teacher's words. */
  message: z.string(),
  questionIds: z.array(IdSchema),
  /** The questions concerned as read (for choosing the marks). */
  questions: z.array(ReadQuestionSchema),
  /** The fixes that apply, the first being the usual one. */
  actions: z.array(ExceptionActionSchema),
  /** The page image, relative to the host. */
  imageUrl: z.string().nullable(),
  status: z.enum(['open', 'resolved']),
  resolution: ExceptionActionSchema.nullable(),
  createdAt: TimestampSchema,
  /** scoreDoubtful (纸上批阅): the score box's question, its full score and the crop as the teacher marked it. */
  paperScore: z
    .object({ id: IdSchema, number: z.string(), fullScore: z.number(), cropUrl: z.string().nullable() })
    .optional(),
});
export type RecognitionException = z.infer<typeof RecognitionExceptionSchema>;

export const ExceptionListQuerySchema = z.object({
  batchId: IdSchema.optional(),
  homeworkId: IdSchema.optional(),
  status: z.enum(['open', 'resolved', 'all']).default('open'),
});

export const ResolveExceptionSchema = z.object({
  action: ExceptionActionSchema,
  /** assignStudent: the student the page belongs to. */
  studentId: IdSchema.optional(),
  /** chooseMarks: question id → the options chosen ('' for none). */
  answers: z
    .record(
      IdSchema,
      z
        .string()
        .max(7)
        .regex(/^[A-GTF]*$/, '答案只能是选项字母'),
    )
    .optional(),
  /** enterScore: the score read by eye from the box (纸上批阅). */
  score: HalfPointScoreSchema.optional(),
});
export type ResolveException = z.input<typeof ResolveExceptionSchema>;

export const MissingStudentSchema = z.object({
  id: IdSchema,
  name: z.string(),
  studentNo: z.string(),
  className: z.string(),
});

export const TallyHomeworkSchema = z.object({
  id: IdSchema,
  title: z.string(),
  students: z.number().int().nonnegative(),
  sheetsRead: z.number().int().nonnegative(),
  missing: z.array(MissingStudentSchema),
});

export const TallyPageSchema = z.object({
  pageId: IdSchema,
  seq: z.number().int(),
  status: z.enum(['queued', 'done', 'failed', 'ignored', 'rescanned']),
  studentName: z.string().nullable(),
  homeworkTitle: z.string().nullable(),
  pageNo: z.number().int().nullable(),
  objectiveScore: z.number().nullable(),
  openExceptions: z.number().int().nonnegative(),
});

/** The live tally of a batch while pages arrive. */
export const RecognitionTallySchema = z.object({
  batchId: IdSchema,
  pagesReceived: z.number().int().nonnegative(),
  pagesRead: z.number().int().nonnegative(),
  pagesQueued: z.number().int().nonnegative(),
  sheetsRead: z.number().int().nonnegative(),
  exceptionsOpen: z.number().int().nonnegative(),
  homework: z.array(TallyHomeworkSchema),
  pages: z.array(TallyPageSchema),
});
export type RecognitionTally = z.infer<typeof RecognitionTallySchema>;

export const ReviewSheetSchema = z.object({
  id: IdSchema,
  homeworkId: IdSchema,
  studentId: IdSchema,
  studentName: z.string(),
  studentNo: z.string(),
  className: z.string(),
  pagesReceived: z.number().int(),
  pagesExpected: z.number().int(),
  reviewStatus: z.enum(['pending', 'confirmed']),
  objectiveScore: z.number(),
  totalScore: z.number(),
  openExceptions: z.number().int().nonnegative(),
});
export type ReviewSheet = z.infer<typeof ReviewSheetSchema>;

export const OverlayShapeSchema = z.object({
  kind: z.enum(['bubble', 'crop', 'anchor']),
  quad: z.array(z.object({ x: z.number(), y: z.number() })).length(4),
  questionId: z.string().optional(),
  option: z.string().optional(),
  digit: z.number().optional(),
  state: z.enum(['filled', 'empty', 'uncertain']).optional(),
  blank: z.boolean().optional(),
});

export const ReviewAnswerSchema = z.object({
  questionId: IdSchema,
  number: z.string(),
  kind: z.enum(ANSWER_KINDS),
  options: z.array(z.string()),
  response: z.string().nullable(),
  responseStatus: z.enum(['ok', 'blank', 'multiple', 'uncertain']).nullable(),
  key: z.string().nullable(),
  score: z.number().nullable(),
  fullScore: z.number(),
  scoreSource: z.string().nullable(),
  blank: z.boolean(),
  hasCrop: z.boolean(),
});

export const SheetReviewSchema = z.object({
  sheet: ReviewSheetSchema,
  answers: z.array(ReviewAnswerSchema),
  pages: z.array(
    z.object({
      pageId: IdSchema,
      pageNo: z.number().int(),
      imageUrl: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      overlay: z.array(OverlayShapeSchema),
    }),
  ),
  /** Previous and next sheet of the homework (paging through every sheet). */
  prevId: IdSchema.nullable(),
  nextId: IdSchema.nullable(),
});
export type SheetReview = z.infer<typeof SheetReviewSchema>;

export const OverrideAnswersSchema = z.object({
  answers: z
    .array(
      z.object({
        questionId: IdSchema,
        response: z
          .string()
          .max(7)
          .regex(/^[A-GTF]*$/, '答案只能是选项字母'),
      }),
    )
    .min(1, '请至少修改一道题'),
});

export const AnswerKeySchema = z.object({
  homeworkId: IdSchema,
  partialRule: PartialRuleSchema,
  questions: z.array(
    z.object({
      questionId: IdSchema,
      number: z.string(),
      kind: ObjectiveKindSchema,
      options: z.array(z.string()),
      key: z.string().nullable(),
      fullScore: z.number(),
    }),
  ),
});
export type AnswerKey = z.infer<typeof AnswerKeySchema>;

export const UpdateAnswerKeySchema = z.object({
  partialRule: PartialRuleSchema.optional(),
  questions: z
    .array(z.object({ questionId: IdSchema, answer: z.string().trim().min(1, '请填写答案').max(20) }))
    .default([]),
});
export type UpdateAnswerKey = z.input<typeof UpdateAnswerKeySchema>;

export const RescoredSchema = z.object({
  /** Answers whose score changed. */
  changed: z.number().int().nonnegative(),
  sheets: z.number().int().nonnegative(),
});

const IdParams = z.object({ id: IdSchema });

export const recognitionTallyCall = defineCall({
  name: 'recognitionTally',
  method: 'GET',
  path: '/teacher/recognition/batch/:id/tally',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(RecognitionTallySchema),
});

/** The batch-level check when scanning ends: every student with some pages but not all gets a missing-page exception. */
export const checkRecognitionBatchCall = defineCall({
  name: 'checkRecognitionBatch',
  method: 'POST',
  path: '/teacher/recognition/batch/:id/check',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(RecognitionTallySchema),
});

export const listRecognitionExceptionsCall = defineCall({
  name: 'listRecognitionExceptions',
  method: 'GET',
  path: '/teacher/recognition/exceptions',
  encoding: 'query',
  auth: 'bearer',
  query: ExceptionListQuerySchema,
  response: envelope(z.array(RecognitionExceptionSchema)),
});

export const resolveRecognitionExceptionCall = defineCall({
  name: 'resolveRecognitionException',
  method: 'POST',
  path: '/teacher/recognition/exception/:id/resolve',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: ResolveExceptionSchema,
  response: envelope(RecognitionExceptionSchema),
});

export const reviewSheetsCall = defineCall({
  name: 'reviewSheets',
  method: 'GET',
  path: '/teacher/recognition/homework/:id/sheets',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(z.array(ReviewSheetSchema)),
});

export const reviewSheetCall = defineCall({
  name: 'reviewSheet',
  method: 'GET',
  path: '/teacher/recognition/sheet/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(SheetReviewSchema),
});

export const overrideSheetAnswersCall = defineCall({
  name: 'overrideSheetAnswers',
  method: 'PUT',
  path: '/teacher/recognition/sheet/:id/answers',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: OverrideAnswersSchema,
  response: envelope(SheetReviewSchema),
});

export const confirmSheetCall = defineCall({
  name: 'confirmSheet',
  method: 'POST',
  path: '/teacher/recognition/sheet/:id/confirm',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(ReviewSheetSchema),
});

export const answerKeyCall = defineCall({
  name: 'answerKey',
  method: 'GET',
  path: '/teacher/recognition/homework/:id/key',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(AnswerKeySchema),
});

export const updateAnswerKeyCall = defineCall({
  name: 'updateAnswerKey',
  method: 'PUT',
  path: '/teacher/recognition/homework/:id/key',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: UpdateAnswerKeySchema,
  response: envelope(RescoredSchema),
});
