import { z } from 'zod';
import { IdSchema, PageQuerySchema, TimestampSchema, envelope, page } from '../common.js';
import {
  AreaSchema,
  DifficultySchema,
  QuestionIdParamsSchema,
  QuestionSchema,
  YearSchema,
} from './catalog.js';
import { defineCall } from './define.js';

// Own and school questions: a teacher's personal questions (create, edit, delete to the recycle bin),
// sharing them to the school for review by its administrators, and the recycle bin of questions.

/** Days a deleted question stays in the recycle bin before it is deleted for ever. */
export const QUESTION_RECYCLE_DAYS = 30;

/** Rich content: the sanitised HTML subset, formulas as LaTeX inside \( \) or \[ \]. Sanitised on the host. */
export const RichContentSchema = z.string().max(200_000, '内容过长');

/** A choice option as written; the host labels options A, B, C … in the order given. */
export const QuestionInputOptionSchema = z.object({
  label: z.string().trim().max(4).optional(),
  content: RichContentSchema,
});

/** A question as a teacher writes it (create, or edit: the whole question each time). */
export const QuestionInputSchema = z.object({
  subjectId: IdSchema,
  typeId: IdSchema,
  difficulty: DifficultySchema,
  stem: RichContentSchema.min(1, '请输入题干'),
  options: z.array(QuestionInputOptionSchema).max(8, '选项最多8个').default([]),
  /** For choice questions the option letters, e.g. 'B' or 'AC'; for 判断题 正确 or 错误. */
  answer: RichContentSchema.default(''),
  analysis: RichContentSchema.default(''),
  /** 填空题 only; when left out it is counted from the blanks (＿＿＿＿) in the stem. */
  blankCount: z.number().int().min(1).max(50).nullable().optional(),
  knowledgePointIds: z.array(IdSchema).max(20, '知识点最多20个').default([]),
  /** Chapters (booknodes) of the subject's textbooks. */
  booknodeIds: z.array(IdSchema).max(20, '章节最多20个').default([]),
  year: YearSchema.nullable().optional(),
  source: z.string().trim().max(100).nullable().optional(),
  region: AreaSchema.nullable().optional(),
});
export type QuestionInput = z.input<typeof QuestionInputSchema>;

/** Review states of a question shared to the school. */
export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const ReviewStatusSchema = z.enum(REVIEW_STATUSES);
export type ReviewStatus = z.infer<typeof ReviewStatusSchema>;
/** 待审核 / 已通过 / 未通过. */
export const REVIEW_STATUS_NAMES: Record<ReviewStatus, string> = {
  pending: '待审核',
  approved: '已通过',
  rejected: '未通过',
};

const PersonRefSchema = z.object({ id: IdSchema, nickname: z.string() });

/** A school question with its sharing and review record. */
export const SchoolQuestionSchema = z.object({
  question: QuestionSchema,
  reviewStatus: ReviewStatusSchema,
  /** The teacher who shared it. */
  sharedBy: PersonRefSchema.nullable(),
  sharedAt: TimestampSchema,
  reviewedBy: PersonRefSchema.nullable(),
  reviewedAt: TimestampSchema.nullable(),
  /** The administrator's note, e.g. why it was not accepted. */
  reviewNote: z.string().nullable(),
});
export type SchoolQuestion = z.infer<typeof SchoolQuestionSchema>;

export const SchoolQuestionsQuerySchema = PageQuerySchema.extend({
  /** approved: the school's bank (every member); pending and rejected: administrators only. */
  status: ReviewStatusSchema.default('approved'),
  subjectId: IdSchema.optional(),
  keyword: z.string().trim().max(50).optional(),
});

export const MySharesQuerySchema = PageQuerySchema.extend({
  status: ReviewStatusSchema.optional(),
});

export const ReviewQuestionSchema = z.object({
  action: z.enum(['approve', 'reject'], '请选择通过或不通过'),
  note: z.string().trim().max(200, '审核意见最多200字').optional(),
});

/** A question in the recycle bin. */
export const RecycledQuestionSchema = z.object({
  question: QuestionSchema,
  deletedAt: TimestampSchema,
  /** When it is deleted for ever unless restored. */
  purgeAt: TimestampSchema,
});
export type RecycledQuestion = z.infer<typeof RecycledQuestionSchema>;

export const QuestionRecycleQuerySchema = PageQuerySchema.extend({ subjectId: IdSchema.optional() });

export const QuestionIdsSchema = z.object({
  ids: z.array(IdSchema).min(1, '请选择试题').max(500, '一次最多处理500道试题'),
});

/** Bulk calls answer per item: one failure does not undo the others. */
export const ItemResultSchema = z.object({
  id: IdSchema,
  ok: z.boolean(),
  /** Why it failed, in Chinese; null on success. */
  message: z.string().nullable(),
});
export const BulkResultSchema = z.object({ results: z.array(ItemResultSchema) });
export type BulkResult = z.infer<typeof BulkResultSchema>;

export const createQuestionCall = defineCall({
  name: 'createQuestion',
  method: 'POST',
  path: '/teacher/question/personal',
  encoding: 'json',
  auth: 'bearer',
  body: QuestionInputSchema,
  response: envelope(QuestionSchema),
});

/**
 * Saves a question. The caller's own question changes in place; a system or school question is left as it
 * is and a personal copy with the changes is answered (its `originId` is the edited question).
 */
export const editQuestionCall = defineCall({
  name: 'editQuestion',
  method: 'PUT',
  path: '/teacher/question/personal/:id',
  encoding: 'json',
  auth: 'bearer',
  params: QuestionIdParamsSchema,
  body: QuestionInputSchema,
  response: envelope(QuestionSchema),
});

/** Moves the caller's own question to the recycle bin. */
export const deleteQuestionCall = defineCall({
  name: 'deleteQuestion',
  method: 'DELETE',
  path: '/teacher/question/personal/:id',
  encoding: 'none',
  auth: 'bearer',
  params: QuestionIdParamsSchema,
  response: envelope(z.null()),
});

/** Offers the caller's own question to the school: a copy waits for an administrator's review. */
export const shareQuestionCall = defineCall({
  name: 'shareQuestion',
  method: 'POST',
  path: '/teacher/question/personal/:id/share',
  encoding: 'none',
  auth: 'bearer',
  params: QuestionIdParamsSchema,
  response: envelope(SchoolQuestionSchema),
});

/** Questions read from a Word paper, saved into 我的题库 together, and optionally shared to the school bank. */
export const ImportQuestionsSchema = z.object({
  questions: z.array(QuestionInputSchema).min(1, '没有可保存的试题').max(300, '一次最多保存300道试题'),
  /** Also share each one to the school bank (pending the administrators' review). */
  share: z.boolean().default(false),
});

export const ImportQuestionsResultSchema = z.object({
  /** The new questions of 我的题库, in the order given. */
  ids: z.array(IdSchema),
  /** How many were shared to the school (0 unless asked). */
  shared: z.number().int().nonnegative(),
});
export type ImportQuestionsResult = z.infer<typeof ImportQuestionsResultSchema>;

export const importQuestionsCall = defineCall({
  name: 'importQuestions',
  method: 'POST',
  path: '/teacher/question/personal/import',
  encoding: 'json',
  auth: 'bearer',
  body: ImportQuestionsSchema,
  response: envelope(ImportQuestionsResultSchema),
});

/** The questions the caller shared to the school, newest first, with their review state. */
export const myQuestionSharesCall = defineCall({
  name: 'myQuestionShares',
  method: 'GET',
  path: '/teacher/question/shares',
  encoding: 'query',
  auth: 'bearer',
  query: MySharesQuerySchema,
  response: envelope(page(SchoolQuestionSchema)),
});

/** The school's questions (approved), or for administrators those waiting for review or turned down. */
export const schoolQuestionsCall = defineCall({
  name: 'schoolQuestions',
  method: 'GET',
  path: '/school/question/page',
  encoding: 'query',
  auth: 'bearer',
  query: SchoolQuestionsQuerySchema,
  response: envelope(page(SchoolQuestionSchema)),
});

/** Administrators approve or turn down a shared question waiting for review. */
export const reviewQuestionCall = defineCall({
  name: 'reviewQuestion',
  method: 'POST',
  path: '/school/question/review/:id',
  encoding: 'json',
  auth: 'bearer',
  params: QuestionIdParamsSchema,
  body: ReviewQuestionSchema,
  response: envelope(SchoolQuestionSchema),
});

/** Administrators take an approved question out of the school's bank. */
export const withdrawSchoolQuestionCall = defineCall({
  name: 'withdrawSchoolQuestion',
  method: 'DELETE',
  path: '/school/question/:id',
  encoding: 'none',
  auth: 'bearer',
  params: QuestionIdParamsSchema,
  response: envelope(z.null()),
});

export const questionRecycleBinCall = defineCall({
  name: 'questionRecycleBin',
  method: 'GET',
  path: '/teacher/question/recycle',
  encoding: 'query',
  auth: 'bearer',
  query: QuestionRecycleQuerySchema,
  response: envelope(page(RecycledQuestionSchema)),
});

export const restoreQuestionsCall = defineCall({
  name: 'restoreQuestions',
  method: 'POST',
  path: '/teacher/question/recycle/restore',
  encoding: 'json',
  auth: 'bearer',
  body: QuestionIdsSchema,
  response: envelope(BulkResultSchema),
});

export const deleteQuestionsForeverCall = defineCall({
  name: 'deleteQuestionsForever',
  method: 'POST',
  path: '/teacher/question/recycle/delete',
  encoding: 'json',
  auth: 'bearer',
  body: QuestionIdsSchema,
  response: envelope(BulkResultSchema),
});
