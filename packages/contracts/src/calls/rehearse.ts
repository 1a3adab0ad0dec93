import { z } from 'zod';
import { IdSchema, envelope } from '../common.js';
import { defineCall } from './define.js';
import { DaySchema } from './homework.js';

/*
 * 错题重练 published as homework (/rehearse/MistakesExercise): a paper made of a class's wrong questions — the whole
 * class's most-missed ones, or the union of picked students' — with their similar questions when asked, published
 * to the class like any homework (its own answer card, printable and scannable).
 */

/** Chinese messages of the 错题重练 call. */
export const REHEARSE_MESSAGES = {
  noMistakes: '所选范围内没有错题，无需发布重练作业',
  studentNotInClass: '所选学生不在这个班级',
  severalSubjects: '所选时间段包含多个学科的作业，请按作业选择',
  scopeMissing: '请选择一次作业或一个时间段',
} as const;

export const PublishRehearsalSchema = z
  .object({
    classId: IdSchema,
    /** Picked students: the union of their wrong questions; none: the whole class's most-missed questions. */
    studentIds: z.array(IdSchema).max(200).default([]),
    homeworkId: IdSchema.optional(),
    from: DaySchema.optional(),
    to: DaySchema.optional(),
    /** 含相似题: one similar question from the bank after each wrong question. */
    similar: z.boolean().default(false),
    /** How many of the whole class's most-missed questions (picked students take all of theirs). */
    count: z.number().int().min(1, '题目数量至少为1').max(50, '题目数量不能超过50').default(10),
  })
  .refine((v) => v.homeworkId !== undefined || (v.from !== undefined && v.to !== undefined), {
    message: REHEARSE_MESSAGES.scopeMissing,
    path: ['homeworkId'],
  });
export type PublishRehearsal = z.infer<typeof PublishRehearsalSchema>;

export const RehearsalQuestionSchema = z.object({
  questionId: IdSchema,
  /** How many students of the scope missed it (0 for a similar question). */
  missedBy: z.number().int().nonnegative(),
  /** The wrong question this one is similar to, or null for a wrong question. */
  similarOf: IdSchema.nullable(),
});
export type RehearsalQuestion = z.infer<typeof RehearsalQuestionSchema>;

export const RehearsalSchema = z.object({
  homeworkId: IdSchema,
  paperId: IdSchema,
  title: z.string(),
  classId: IdSchema,
  className: z.string(),
  /** The paper's questions in order: most missed first, each followed by its similar questions. */
  questions: z.array(RehearsalQuestionSchema),
});
export type Rehearsal = z.infer<typeof RehearsalSchema>;

/** 「发布为作业」 of 错题重练: builds the paper of wrong questions and publishes it to the class. */
export const publishRehearsalCall = defineCall({
  name: 'publishRehearsal',
  method: 'POST',
  path: '/teacher/analysis/rehearse/publish',
  encoding: 'json',
  auth: 'bearer',
  body: PublishRehearsalSchema,
  response: envelope(RehearsalSchema),
});
