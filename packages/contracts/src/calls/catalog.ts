import { z } from 'zod';
import { IdSchema, PageQuerySchema, envelope, page } from '../common.js';
import { defineCall } from './define.js';

export const SubjectSchema = z.object({ id: IdSchema, stageId: IdSchema, name: z.string() });
export type Subject = z.infer<typeof SubjectSchema>;

export const StageSchema = z.object({ id: IdSchema, name: z.string(), subjects: z.array(SubjectSchema) });
export type Stage = z.infer<typeof StageSchema>;

export const TextbookSchema = z.object({
  id: IdSchema,
  subjectId: IdSchema,
  publisher: z.string(),
  name: z.string(),
});
export type Textbook = z.infer<typeof TextbookSchema>;

/** A node of a chapter (booknode) or knowledge-point tree. */
export interface TreeNode {
  id: string;
  name: string;
  children: TreeNode[];
}
export const TreeNodeSchema: z.ZodType<TreeNode> = z.object({
  id: IdSchema,
  name: z.string(),
  get children() {
    return z.array(TreeNodeSchema);
  },
});

export const QuestionTypeSchema = z.object({
  id: IdSchema,
  subjectId: IdSchema,
  name: z.string(),
  /** Objective types are read from bubbles; the others are marked by a person. */
  objective: z.boolean(),
});
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

export const DIFFICULTY_LEVELS = ['容易', '较易', '适中', '较难', '困难'] as const;
export const DifficultySchema = z.coerce.number().int().min(1).max(5);

export const QuestionOptionSchema = z.object({ label: z.string(), content: z.string() });

export const QuestionSchema = z.object({
  id: IdSchema,
  stageId: IdSchema,
  subjectId: IdSchema,
  typeId: IdSchema,
  typeName: z.string(),
  /** 1 容易 … 5 困难. */
  difficulty: z.number().int().min(1).max(5),
  /** Sanitised HTML. */
  stem: z.string(),
  options: z.array(QuestionOptionSchema),
  answer: z.string(),
  analysis: z.string(),
  year: z.number().int().nullable(),
  source: z.string().nullable(),
  usageCount: z.number().int().nonnegative(),
  knowledgePoints: z.array(z.object({ id: IdSchema, name: z.string() })),
});
export type Question = z.infer<typeof QuestionSchema>;

export const QuestionPageQuerySchema = PageQuerySchema.extend({
  subjectId: IdSchema,
  typeId: IdSchema.optional(),
  difficulty: DifficultySchema.optional(),
  booknodeId: IdSchema.optional(),
  knowledgePointId: IdSchema.optional(),
  keyword: z.string().trim().max(50).optional(),
});

export const stageListCall = defineCall({
  name: 'stageList',
  method: 'GET',
  path: '/system/stage/list',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(z.array(StageSchema)),
});

export const textbookListCall = defineCall({
  name: 'textbookList',
  method: 'GET',
  path: '/teacher/textbook/list',
  encoding: 'query',
  auth: 'bearer',
  query: z.object({ subjectId: IdSchema }),
  response: envelope(z.array(TextbookSchema)),
});

export const booknodeTreeCall = defineCall({
  name: 'booknodeTree',
  method: 'GET',
  path: '/teacher/textbook/booknode',
  encoding: 'query',
  auth: 'bearer',
  query: z.object({ textbookId: IdSchema }),
  response: envelope(z.array(TreeNodeSchema)),
});

export const knowledgeTreeCall = defineCall({
  name: 'knowledgeTree',
  method: 'GET',
  path: '/teacher/knowledge/tree',
  encoding: 'query',
  auth: 'bearer',
  query: z.object({ subjectId: IdSchema }),
  response: envelope(z.array(TreeNodeSchema)),
});

export const questionTypeListCall = defineCall({
  name: 'questionTypeList',
  method: 'GET',
  path: '/teacher/question/types',
  encoding: 'query',
  auth: 'bearer',
  query: z.object({ subjectId: IdSchema }),
  response: envelope(z.array(QuestionTypeSchema)),
});

export const questionPageCall = defineCall({
  name: 'questionPage',
  method: 'GET',
  path: '/teacher/question/page',
  encoding: 'query',
  auth: 'bearer',
  query: QuestionPageQuerySchema,
  response: envelope(page(QuestionSchema)),
});
