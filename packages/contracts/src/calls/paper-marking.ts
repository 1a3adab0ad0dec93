import { z } from 'zod';
import { ScoreBoxKindSchema } from '../answer-card.js';
import { IdSchema, envelope } from '../common.js';
import { ScoreDoubtReasonSchema } from '../recognition.js';
import { CropImageSchema } from './analysis.js';
import { defineCall } from './define.js';

/*
 * 纸上批阅 (先阅后扫, ADR 0065): a homework whose card prints score boxes (打分框) may be marked on paper in red pen.
 * With the setting on, a question whose box reads clearly takes that score straight into the results (no marking task
 * for it), a doubtful box goes to a person, and a blank box is marked on screen as before.
 */

export const PAPER_MARKING_MESSAGES = {
  noScoreBoxes: '这份作业的答题卡没有打分框，不能设置纸上批阅。请先在答题卡设计中为主观题添加打分框',
  paperScoreNotFound: '该打分记录不存在或已处理',
  scoreOverFull: '得分不能超过该题满分',
  scoreNotHalf: '得分只能是整数或0.5分',
} as const;

/** A written question printed with a score box on the homework's card. */
export const PaperMarkingQuestionSchema = z.object({
  questionId: IdSchema,
  /** Its number as printed (题号). */
  number: z.string(),
  fullScore: z.number().positive(),
  kind: ScoreBoxKindSchema,
  half: z.boolean(),
});
export type PaperMarkingQuestion = z.infer<typeof PaperMarkingQuestionSchema>;

/** The homework's 纸上批阅 setting. */
export const PaperMarkingSchema = z.object({
  homeworkId: IdSchema,
  enabled: z.boolean(),
  /** The questions with score boxes on the card now printed; empty: the setting cannot be turned on. */
  questions: z.array(PaperMarkingQuestionSchema),
});
export type PaperMarking = z.infer<typeof PaperMarkingSchema>;

export const SetPaperMarkingSchema = z.object({ enabled: z.boolean({ message: '请选择是否纸上批阅' }) });
export type SetPaperMarking = z.infer<typeof SetPaperMarkingSchema>;

/** What became of a score box read on a scanned sheet. */
export const PAPER_SCORE_STATES = ['scored', 'doubtful', 'resolved', 'onScreen'] as const;
export const PaperScoreStateSchema = z.enum(PAPER_SCORE_STATES);
export type PaperScoreState = z.infer<typeof PaperScoreStateSchema>;
export const PAPER_SCORE_STATE_NAMES: Readonly<Record<PaperScoreState, string>> = {
  scored: '已读取',
  doubtful: '待人工核对',
  resolved: '已人工录入',
  onScreen: '网上阅卷',
};

/** One student's score box of one question, with the crop of the answer and the box as the teacher marked them. */
export const PaperScoreSchema = z.object({
  id: IdSchema,
  questionId: IdSchema,
  number: z.string(),
  fullScore: z.number(),
  studentId: IdSchema,
  studentName: z.string(),
  className: z.string(),
  state: PaperScoreStateSchema,
  /** The score in the results: read from the box, or typed by a person; null while doubtful or marked on screen. */
  score: z.number().nullable(),
  reason: ScoreDoubtReasonSchema.nullable(),
  /** Why the box went to a person, in a teacher's words. */
  reasonText: z.string().nullable(),
  /** The crop (answer and score box, with the teacher's marks), relative to the host. */
  cropUrl: z.string().nullable(),
});
export type PaperScore = z.infer<typeof PaperScoreSchema>;

export const PaperScoreListQuerySchema = z.object({
  questionId: IdSchema.optional(),
  state: z.enum(['doubtful', 'all']).default('all'),
});

/** A score a person reads from a box: whole points or a half. */
export const HalfPointScoreSchema = z
  .number({ message: '请输入得分' })
  .min(0, '得分不能为负数')
  .max(100, '得分不能超过100分')
  .refine((v) => Number.isInteger(v * 2), '得分只能是整数或0.5分');

/** A person decides a doubtful box: the score read by eye, or back to on-screen marking. */
export const ResolvePaperScoreSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('enterScore'), score: HalfPointScoreSchema }),
  z.object({ action: z.literal('markOnScreen') }),
]);
export type ResolvePaperScore = z.infer<typeof ResolvePaperScoreSchema>;

const HomeworkParams = z.object({ id: IdSchema });

export const homeworkPaperMarkingCall = defineCall({
  name: 'homeworkPaperMarking',
  method: 'GET',
  path: '/teacher/homework/:id/paper-marking',
  encoding: 'none',
  auth: 'bearer',
  params: HomeworkParams,
  response: envelope(PaperMarkingSchema),
});

export const setHomeworkPaperMarkingCall = defineCall({
  name: 'setHomeworkPaperMarking',
  method: 'PUT',
  path: '/teacher/homework/:id/paper-marking',
  encoding: 'json',
  auth: 'bearer',
  params: HomeworkParams,
  body: SetPaperMarkingSchema,
  response: envelope(PaperMarkingSchema),
});

/** The score boxes read on a homework's sheets (讲评 crops; the doubtful ones first). */
export const paperScoresCall = defineCall({
  name: 'paperScores',
  method: 'GET',
  path: '/teacher/homework/:id/paper-scores',
  encoding: 'none',
  auth: 'bearer',
  params: HomeworkParams,
  query: PaperScoreListQuerySchema,
  response: envelope(z.array(PaperScoreSchema)),
});

export const resolvePaperScoreCall = defineCall({
  name: 'resolvePaperScore',
  method: 'POST',
  path: '/teacher/paper-scores/:id/resolve',
  encoding: 'json',
  auth: 'bearer',
  params: z.object({ id: IdSchema }),
  body: ResolvePaperScoreSchema,
  response: envelope(PaperScoreSchema),
});

/** The crop image of a read score box (the `cropUrl` of a paper score), scoped to the caller's school. */
export const paperScoreCropCall = defineCall({
  name: 'paperScoreCrop',
  method: 'GET',
  path: '/teacher/paper-scores/:id/crop',
  encoding: 'none',
  auth: 'bearer',
  params: z.object({ id: IdSchema }),
  response: CropImageSchema,
});
