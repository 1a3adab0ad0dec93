import { z } from 'zod';
import { IdSchema, PageQuerySchema, TimestampSchema, envelope, page } from '../common.js';
import { AREAS } from '../constants.js';
import { bearerQueryCall, defineCall } from './define.js';

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

/** Who a question belongs to: the shared system bank, a school's bank, or one teacher. */
export const QUESTION_OWNERS = ['system', 'school', 'personal'] as const;
export const QuestionOwnerSchema = z.enum(QUESTION_OWNERS);
export type QuestionOwner = z.infer<typeof QuestionOwnerSchema>;
/** 系统题库 / 校本题库 / 我的题库. */
export const QUESTION_OWNER_NAMES: Record<QuestionOwner, string> = {
  system: '系统题库',
  school: '校本题库',
  personal: '我的题库',
};

/** One of SPEC §3's 36 areas (全国, the 34 provincial-level divisions, 其他). */
export const AreaSchema = z.enum(AREAS, '请选择地区');
export type Area = z.infer<typeof AreaSchema>;

const NamedRefSchema = z.object({ id: IdSchema, name: z.string() });

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
  knowledgePoints: z.array(NamedRefSchema),
  /** Number of blanks of a 填空题; null for other types. */
  blankCount: z.number().int().positive().nullable(),
  /** The area the question comes from, null when unknown. */
  region: AreaSchema.nullable(),
  owner: QuestionOwnerSchema,
  /** The chapters (booknodes) the question is filed under. */
  chapters: z.array(NamedRefSchema),
  /** The question this one was copied from (an edited copy, a shared school question), null for originals. */
  originId: IdSchema.nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Question = z.infer<typeof QuestionSchema>;

/** Which banks a question page draws from: all the caller may see, or one of them. */
export const QUESTION_SCOPES = ['all', 'system', 'school', 'mine'] as const;
export const QuestionScopeSchema = z.enum(QUESTION_SCOPES);
export type QuestionScope = z.infer<typeof QuestionScopeSchema>;

/** default: by type, then id (the order of the first release); newest first; most used first. */
export const QUESTION_SORTS = ['default', 'newest', 'mostUsed'] as const;
export const QuestionSortSchema = z.enum(QUESTION_SORTS);
export type QuestionSort = z.infer<typeof QuestionSortSchema>;

export const YearSchema = z.coerce.number().int().min(1990).max(2100);

export const QuestionPageQuerySchema = PageQuerySchema.extend({
  subjectId: IdSchema,
  typeId: IdSchema.optional(),
  difficulty: DifficultySchema.optional(),
  /** A chapter: the questions of it and of every chapter under it. */
  booknodeId: IdSchema.optional(),
  /** A knowledge point: the questions of it and of every point under it. */
  knowledgePointId: IdSchema.optional(),
  /** Full-text search, segmented like the index (Chinese words, English words, numbers). */
  keyword: z.string().trim().max(50).optional(),
  year: YearSchema.optional(),
  /** Part of the source, e.g. 期中. */
  source: z.string().trim().max(50).optional(),
  region: AreaSchema.optional(),
  scope: QuestionScopeSchema.default('all'),
  sort: QuestionSortSchema.default('default'),
});
export type QuestionPageQuery = z.input<typeof QuestionPageQuerySchema>;

/** Accepts `a,b` or repeated query keys for a list of ids. */
const IdListSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((x) => x.trim() !== '') : v),
  z.array(IdSchema).max(200),
);

export const SimilarQuestionsQuerySchema = z.object({
  size: z.coerce.number().int().min(1).max(50).default(10),
  /** Questions not to offer (already in the paper or the basket). */
  exclude: IdListSchema.optional(),
});

export const QuestionFiltersQuerySchema = z.object({ subjectId: IdSchema });

const CountedSchema = <T extends z.ZodType>(value: T) =>
  z.object({ value, count: z.number().int().nonnegative() });

/** What the filters of the question page can offer for a subject, with how many questions each has. */
export const QuestionFiltersSchema = z.object({
  years: z.array(CountedSchema(z.number().int())),
  sources: z.array(CountedSchema(z.string())),
  /** In the order of AREAS. */
  regions: z.array(CountedSchema(AreaSchema)),
  difficulties: z.array(CountedSchema(z.number().int().min(1).max(5))),
});
export type QuestionFilters = z.infer<typeof QuestionFiltersSchema>;

export const QuestionIdParamsSchema = z.object({ id: IdSchema });

export const stageListCall = defineCall({
  name: 'stageList',
  method: 'GET',
  path: '/system/stage/list',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(z.array(StageSchema)),
});

export const textbookListCall = bearerQueryCall(
  'textbookList',
  '/teacher/textbook/list',
  z.object({ subjectId: IdSchema }),
  envelope(z.array(TextbookSchema)),
);

export const booknodeTreeCall = bearerQueryCall(
  'booknodeTree',
  '/teacher/textbook/booknode',
  z.object({ textbookId: IdSchema }),
  envelope(z.array(TreeNodeSchema)),
);

export const knowledgeTreeCall = bearerQueryCall(
  'knowledgeTree',
  '/teacher/knowledge/tree',
  z.object({ subjectId: IdSchema }),
  envelope(z.array(TreeNodeSchema)),
);

export const questionTypeListCall = bearerQueryCall(
  'questionTypeList',
  '/teacher/question/types',
  z.object({ subjectId: IdSchema }),
  envelope(z.array(QuestionTypeSchema)),
);

export const questionPageCall = bearerQueryCall(
  'questionPage',
  '/teacher/question/page',
  QuestionPageQuerySchema,
  envelope(page(QuestionSchema)),
);

export const questionDetailCall = defineCall({
  name: 'questionDetail',
  method: 'GET',
  path: '/teacher/question/info/:id',
  encoding: 'none',
  auth: 'bearer',
  params: QuestionIdParamsSchema,
  response: envelope(QuestionSchema),
});

/**
 * 举一反三: same type, difficulty within one level, sharing knowledge points, then sections, then chapters, until at
 * least three (or `size`) are found; stable order.
 */
export const similarQuestionsCall = defineCall({
  name: 'similarQuestions',
  method: 'GET',
  path: '/teacher/question/similar/:id',
  encoding: 'query',
  auth: 'bearer',
  params: QuestionIdParamsSchema,
  query: SimilarQuestionsQuerySchema,
  response: envelope(z.array(QuestionSchema)),
});

export const questionFiltersCall = bearerQueryCall(
  'questionFilters',
  '/teacher/question/filters',
  QuestionFiltersQuerySchema,
  envelope(QuestionFiltersSchema),
);
