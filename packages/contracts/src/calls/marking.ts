import { z } from 'zod';
import { IdSchema, TimestampSchema, envelope, page } from '../common.js';
import { defineCall } from './define.js';

/*
 * Marking on screen (网上阅卷, /correct and /write).
 *
 * A homework's written answers (填空 and 解答 questions of its frozen paper) are marked by block (题块): one question,
 * or several sub-questions marked together with one score box each. Blocks are made from the paper snapshot the
 * first time anyone opens the homework's marking and the homework's creator may regroup and configure them:
 * markers by question (every class) or by class, single or double marking (双评) with an error threshold, the rule
 * that turns two scores into one, who arbitrates (仲裁), half points, the rubric and a comment bank.
 *
 * An item is one student's answer to one block (a sheet of the homework). Scores are tenths of a point inside the
 * host and points (one decimal) on the wire.
 */

export const MARK_MODES = ['single', 'double'] as const;
export const MarkModeSchema = z.enum(MARK_MODES);
export type MarkMode = z.infer<typeof MarkModeSchema>;
export const MARK_MODE_NAMES: Record<MarkMode, string> = { single: '单评', double: '双评' };

/** How two scores within the threshold become one: their mean (rounded to the block's step), the higher, the lower. */
export const AVERAGE_RULES = ['mean', 'max', 'min'] as const;
export const AverageRuleSchema = z.enum(AVERAGE_RULES);
export type AverageRule = z.infer<typeof AverageRuleSchema>;
export const AVERAGE_RULE_NAMES: Record<AverageRule, string> = {
  mean: '取平均分',
  max: '取高分',
  min: '取低分',
};

export const ASSIGN_BY = ['question', 'class'] as const;
export const AssignBySchema = z.enum(ASSIGN_BY);
export type AssignBy = z.infer<typeof AssignBySchema>;
export const ASSIGN_BY_NAMES: Record<AssignBy, string> = { question: '按题分配', class: '按班级分配' };

/** Most items one "next" call hands out (the bench prefetches a few). */
export const MARK_PREFETCH_MAX = 10;
/** How long an item handed out stays reserved for the marker it went to. */
export const MARK_CLAIM_SECONDS = 600;
/** Most comments in a block's comment bank. */
export const MARK_COMMENTS_MAX = 30;
/** Most vector marks on one item. */
export const MARK_ANNOTATIONS_MAX = 200;

/** Chinese messages of marking calls. */
export const MARK_MESSAGES = {
  homeworkNotFound: '作业不存在或已删除',
  blockNotFound: '题块不存在',
  itemNotFound: '该学生的答卷不在这个题块中',
  notCreator: '只有布置作业的老师可以设置题块和阅卷分工',
  notMarker: '您没有被分配批阅这个题块',
  notArbiter: '该题需要仲裁，只有仲裁老师可以给分',
  emptyScore: (no: string) => `请给第${no}题打分`,
  notNumber: '分数应为数字',
  aboveFull: (no: string, full: number) => `第${no}题的得分不能超过满分 ${full} 分`,
  negative: '分数不能为负数',
  halfNotAllowed: (no: string) => `第${no}题只能给整数分`,
  tenthsNotAllowed: (no: string) => `第${no}题只能给整数分或 0.5 分`,
  wrongQuestions: '提交的小题与题块不一致',
  alreadyFinal: '该题已由其他老师评完，无需再评',
  alreadyMarkedByOther: '该题已有两位老师评过，您不能再评',
  problemNote: '请填写异常说明',
  blocksHaveMarks: '已开始批阅的题块不能重新分组',
  questionTwice: '同一道题不能出现在两个题块中',
  questionNotWritten: '只有填空题和解答题需要网上阅卷',
  missingQuestion: (no: string) => `第${no}题没有放入任何题块`,
  noMarkers: (title: string) => `请为“${title}”指定阅卷老师`,
  markerNotInSchool: '阅卷老师不属于您的学校',
  classNotInHomework: '所选班级不属于这次作业',
  doubleNeedsTwo: (title: string) => `“${title}”设为双评，至少需要两位阅卷老师`,
  groupEmpty: '请选择要一起给分的答卷',
  groupDouble: '双评题块不能整组给分',
  noCrop: '这道题还没有答题图片',
  rubricItemUnknown: (no: string) => `第${no}题的评分项已被修改，请刷新后再评`,
  rubricMismatch: (no: string) => `第${no}题的得分与所选评分项不一致`,
  rubricStep: (label: string) => `评分项“${label}”的分值只能是 0.5 的整数倍`,
  rubricStepWhole: (label: string) => `评分项“${label}”的分值只能是整数`,
  rubricAboveFull: (label: string, full: number) => `评分项“${label}”的分值不能超过该题满分 ${full} 分`,
  rubricQuestion: '评分项只能属于这个题块中的题',
  rubricTooMany: (no: string) => `第${no}题最多设置${RUBRIC_ITEMS_MAX}个评分项`,
} as const;

/** Most rubric items (评分项) of one question. */
export const RUBRIC_ITEMS_MAX = 12;

/**
 * The one-keystroke keys of a block's rubric items, in the block's order (question by question, then the items'
 * order). Digits type scores and c x p t m z h e r are the bench's other keys, so the items take the letters left.
 */
export const RUBRIC_KEYS = [
  'a',
  's',
  'd',
  'f',
  'g',
  'j',
  'k',
  'l',
  'q',
  'w',
  'y',
  'u',
  'i',
  'o',
  'v',
  'b',
  'n',
] as const;

/**
 * A question's score from the rubric items applied to it: their sum, clamped to 0..full. When every item applied is
 * a deduction (「计算错误 −1」) the sum counts down from full marks; with no item applied, null (the score is typed).
 * Tenths in, tenths out, so web and host agree to the tenth.
 */
export function rubricScoreTenths(fullTenths: number, appliedTenths: readonly number[]): number | null {
  if (appliedTenths.length === 0) return null;
  const sum = appliedTenths.reduce((s, v) => s + v, 0);
  const base = appliedTenths.every((v) => v < 0) ? fullTenths : 0;
  return Math.max(0, Math.min(fullTenths, base + sum));
}

/** A score on the wire: points with at most one decimal. */
export const PointsSchema = z.number({ error: MARK_MESSAGES.notNumber }).min(0, MARK_MESSAGES.negative);

// ───────────── blocks and assignment ─────────────

/** A question of a block, from the homework's frozen paper. */
export const MarkQuestionSchema = z.object({
  questionId: IdSchema,
  /** The number printed on the paper. */
  no: z.string(),
  /** 填空题, 解答题 … */
  typeName: z.string(),
  fullScore: z.number().nonnegative(),
  /** Sanitised HTML of the stem, the answer key and the analysis (the rubric beside the crop). */
  stem: z.string(),
  answer: z.string(),
  analysis: z.string(),
});
export type MarkQuestion = z.infer<typeof MarkQuestionSchema>;

/** A rubric item (评分项) of a question: a label and signed points, applied with one key on the bench. */
export const RubricItemSchema = z.object({
  id: IdSchema,
  questionId: IdSchema,
  label: z.string(),
  /** Signed points: 「列方程正确 +2」 is 2, 「计算错误 −1」 is −1. */
  points: z.number(),
});
export type RubricItem = z.infer<typeof RubricItemSchema>;

/** A block's rubric items as the creator or a marker saves them (replaces the block's questions' items). */
export const SaveRubricItemsSchema = z.object({
  items: z
    .array(
      z.object({
        /** Kept when given (an existing item of the block's questions). */
        id: IdSchema.optional(),
        questionId: IdSchema,
        label: z.string().trim().min(1, '请输入评分项名称').max(30, '评分项名称不能超过30个字'),
        points: z
          .number({ error: MARK_MESSAGES.notNumber })
          .min(-100, '评分项分值不能低于 -100')
          .max(100, '评分项分值不能超过 100')
          .refine((v) => v !== 0, '评分项分值不能为 0'),
      }),
    )
    .max(RUBRIC_KEYS.length, `一个题块最多设置${RUBRIC_KEYS.length}个评分项`),
});
export type SaveRubricItems = z.infer<typeof SaveRubricItemsSchema>;

/** Rubric items applied per question id (a mark's 评分项). */
export const RubricAppliedSchema = z.record(z.string(), z.array(IdSchema).max(RUBRIC_ITEMS_MAX));

export const MarkerSchema = z.object({
  userId: IdSchema,
  name: z.string(),
  /** Classes this marker marks when the block is assigned by class; empty when by question (every class). */
  classIds: z.array(IdSchema),
});
export type Marker = z.infer<typeof MarkerSchema>;

export const BlockProgressSchema = z.object({
  /** Items whose sheet has arrived (marking can start with the first). */
  items: z.number().int().nonnegative(),
  /** Items with a final score. */
  done: z.number().int().nonnegative(),
  /** Marks given (double marking counts both). */
  marks: z.number().int().nonnegative(),
  /** Marks needed for every arrived item (items × 1, or × 2 in double marking). */
  marksNeeded: z.number().int().nonnegative(),
  arbitration: z.number().int().nonnegative(),
  problems: z.number().int().nonnegative(),
  /** Students of the homework's classes (items expected when every sheet is in). */
  expected: z.number().int().nonnegative(),
});
export type BlockProgress = z.infer<typeof BlockProgressSchema>;

export const TeacherProgressSchema = z.object({
  userId: IdSchema,
  name: z.string(),
  marks: z.number().int().nonnegative(),
  /** Items still open to this teacher (what their next calls can hand out). */
  remaining: z.number().int().nonnegative(),
});
export type TeacherProgress = z.infer<typeof TeacherProgressSchema>;

export const MarkBlockSchema = z.object({
  id: IdSchema,
  homeworkId: IdSchema,
  title: z.string(),
  sort: z.number().int(),
  questions: z.array(MarkQuestionSchema),
  fullScore: z.number().nonnegative(),
  mode: MarkModeSchema,
  /** Double marking: two totals further apart than this go to arbitration. */
  threshold: z.number().nonnegative(),
  averageRule: AverageRuleSchema,
  halfPoints: z.boolean(),
  assignBy: AssignBySchema,
  markers: z.array(MarkerSchema),
  /** Who arbitrates (the group leader); null: the homework's creator. */
  arbiterId: IdSchema.nullable(),
  arbiterName: z.string(),
  /** The creator's own words next to the answer key. */
  rubric: z.string(),
  /** The rubric items of the block's questions, in key order (RUBRIC_KEYS). */
  rubricItems: z.array(RubricItemSchema),
  comments: z.array(z.string()),
  progress: BlockProgressSchema,
  teachers: z.array(TeacherProgressSchema),
  /** Whether any mark was given (then its questions can no longer be regrouped). */
  started: z.boolean(),
  /** What the caller may do here. */
  permissions: z.object({ mark: z.boolean(), arbitrate: z.boolean(), edit: z.boolean() }),
});
export type MarkBlock = z.infer<typeof MarkBlockSchema>;

export const MarkClassSchema = z.object({ id: IdSchema, name: z.string(), students: z.number().int() });

/** A teacher of the school the creator can assign, with the homework's classes they teach its subject in. */
export const MarkCandidateSchema = z.object({
  userId: IdSchema,
  name: z.string(),
  subjectClassIds: z.array(IdSchema),
});
export type MarkCandidate = z.infer<typeof MarkCandidateSchema>;

export const MarkHomeworkSchema = z.object({
  id: IdSchema,
  title: z.string(),
  subjectName: z.string(),
  subjectTeacher: z.boolean(),
  createdBy: IdSchema,
  createdByName: z.string(),
  classes: z.array(MarkClassSchema),
  sheets: z.number().int().nonnegative(),
  blocks: z.array(MarkBlockSchema),
  /** Filled for the creator and administrators (the assignment screen). */
  candidates: z.array(MarkCandidateSchema),
  /** Written questions of the paper that can go into blocks, in paper order. */
  questions: z.array(MarkQuestionSchema),
  permissions: z.object({ edit: z.boolean() }),
});
export type MarkHomework = z.infer<typeof MarkHomeworkSchema>;

/** One of my tasks on /correct: a block of a homework I mark (or oversee). */
export const MarkTaskSchema = z.object({
  homeworkId: IdSchema,
  homeworkTitle: z.string(),
  subjectName: z.string(),
  createdAt: TimestampSchema,
  /** The caller published the homework (they see the assignment screen). */
  mine: z.boolean(),
  blocks: z.array(
    z.object({
      id: IdSchema,
      title: z.string(),
      mode: MarkModeSchema,
      fullScore: z.number(),
      progress: BlockProgressSchema,
      /** My marks and what is still open to me. */
      myMarks: z.number().int().nonnegative(),
      myRemaining: z.number().int().nonnegative(),
      /** Items waiting for my arbitration. */
      myArbitration: z.number().int().nonnegative(),
      canMark: z.boolean(),
    }),
  ),
});
export type MarkTask = z.infer<typeof MarkTaskSchema>;

const BlockSettingsFields = {
  title: z.string().trim().min(1, '请输入题块名称').max(40, '题块名称不能超过40个字'),
  mode: MarkModeSchema.default('single'),
  threshold: PointsSchema.max(1000).default(0),
  averageRule: AverageRuleSchema.default('mean'),
  halfPoints: z.boolean().default(true),
  assignBy: AssignBySchema.default('question'),
  markers: z
    .array(z.object({ userId: IdSchema, classIds: z.array(IdSchema).max(50).default([]) }))
    .max(50)
    .default([]),
  arbiterId: IdSchema.nullable().default(null),
  rubric: z.string().max(2000, '评分细则不能超过2000个字').default(''),
  comments: z
    .array(z.string().trim().min(1).max(60, '评语不能超过60个字'))
    .max(MARK_COMMENTS_MAX, `评语库最多${MARK_COMMENTS_MAX}条`)
    .default([]),
};

/** The whole block list of a homework as the assignment screen saves it (every written question in one block). */
export const SaveMarkBlocksSchema = z.object({
  blocks: z
    .array(
      z.object({
        /** Kept when given (an existing block of this homework). */
        id: IdSchema.optional(),
        questionIds: z.array(IdSchema).min(1, '题块中至少要有一道题').max(20),
        ...BlockSettingsFields,
      }),
    )
    .min(1, '至少需要一个题块')
    .max(100),
});
export type SaveMarkBlocks = z.infer<typeof SaveMarkBlocksSchema>;

// ───────────── the bench ─────────────

/** A vector mark drawn on the crop, in the crop's own pixel coordinates (0–1 relative, so zoom does not matter). */
const Coord = z.number().min(-0.1).max(1.1);
export const AnnotationSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('check'), x: Coord, y: Coord }),
  z.object({ type: z.literal('cross'), x: Coord, y: Coord }),
  z.object({
    type: z.literal('pen'),
    points: z
      .array(z.tuple([Coord, Coord]))
      .min(2)
      .max(2000),
  }),
  z.object({ type: z.literal('text'), x: Coord, y: Coord, text: z.string().trim().min(1).max(60) }),
]);
export type Annotation = z.infer<typeof AnnotationSchema>;

export const ItemAnswerSchema = z.object({
  questionId: IdSchema,
  /** The crop image (a call of this family), null when the sheet has no crop for it. */
  cropUrl: z.string().nullable(),
  blank: z.boolean(),
  /** The score in results now (null: not final yet). */
  score: z.number().nullable(),
});

export const MarkGivenSchema = z.object({
  markerName: z.string(),
  kind: z.enum(['mark', 'arbitration', 'group']),
  scores: z.record(z.string(), z.number()),
  total: z.number(),
  mine: z.boolean(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});

/** One student's answer to a block, as the bench shows it. */
export const MarkItemSchema = z.object({
  sheetId: IdSchema,
  blockId: IdSchema,
  /** 'mark': give a score; 'arbitration': the two scores differ beyond the threshold; 'review': one of my marks. */
  task: z.enum(['mark', 'arbitration', 'review']),
  /** Hidden unless asked for (`reveal`): marking is anonymous by default. */
  student: z.object({ name: z.string(), studentNo: z.string(), className: z.string() }).nullable(),
  answers: z.array(ItemAnswerSchema),
  /** My own mark (回评, or a double-marking item I already scored). */
  myMark: z
    .object({
      scores: z.record(z.string(), z.number()),
      annotations: z.array(AnnotationSchema),
      comment: z.string(),
      /** The rubric items I applied, per question. */
      rubric: RubricAppliedSchema,
      updatedAt: TimestampSchema,
    })
    .nullable(),
  /** Arbitration and the block's overseers see the marks given. */
  marks: z.array(MarkGivenSchema),
  problem: z.object({ note: z.string(), by: z.string() }).nullable(),
});
export type MarkItem = z.infer<typeof MarkItemSchema>;

export const MarkNextQuerySchema = z.object({
  count: z.coerce.number().int().min(1).max(MARK_PREFETCH_MAX).default(3),
  /** Items the bench already holds (not handed out again). */
  skip: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) =>
      v === undefined ? [] : (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean),
    ),
  reveal: z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).optional(),
});

export const MarkNextSchema = z.object({
  items: z.array(MarkItemSchema),
  /** Items still open to me after these. */
  remaining: z.number().int().nonnegative(),
  myMarks: z.number().int().nonnegative(),
});
export type MarkNext = z.infer<typeof MarkNextSchema>;

export const SubmitMarkSchema = z.object({
  sheetId: IdSchema,
  scores: z
    .array(z.object({ questionId: IdSchema, score: PointsSchema.nullable() }))
    .min(1, MARK_MESSAGES.wrongQuestions)
    .max(20),
  annotations: z.array(AnnotationSchema).max(MARK_ANNOTATIONS_MAX).default([]),
  comment: z.string().trim().max(200, '评语不能超过200个字').default(''),
  /** Rubric items applied per question; a question with items is scored by them (rubricScoreTenths). */
  rubric: RubricAppliedSchema.default({}),
});
export type SubmitMark = z.infer<typeof SubmitMarkSchema>;

export const SubmitMarkResultSchema = z.object({
  sheetId: IdSchema,
  /** What happened: scored into results, waiting for the second marker, sent to arbitration, revised. */
  outcome: z.enum(['final', 'waitingSecond', 'arbitration', 'revised']),
  /** The score now in results per question (null while not final). */
  scores: z.record(z.string(), z.number().nullable()),
  remaining: z.number().int().nonnegative(),
  myMarks: z.number().int().nonnegative(),
});
export type SubmitMarkResult = z.infer<typeof SubmitMarkResultSchema>;

export const FlagProblemSchema = z.object({
  sheetId: IdSchema,
  note: z.string().trim().min(1, MARK_MESSAGES.problemNote).max(200, '异常说明不能超过200个字'),
});

export const MarkHistoryEntrySchema = z.object({
  sheetId: IdSchema,
  /** 1-based order of my marks (the bench shows 第 N 份). */
  seq: z.number().int().positive(),
  kind: z.enum(['mark', 'arbitration', 'group']),
  scores: z.record(z.string(), z.number()),
  total: z.number(),
  /** The final total in results now (may differ in double marking). */
  finalTotal: z.number().nullable(),
  /** The answer crops (thumbnails of 回评), in the block's question order. */
  answers: z.array(z.object({ questionId: IdSchema, cropUrl: z.string().nullable() })),
  /** Rubric items I applied, per question. */
  rubric: RubricAppliedSchema,
  updatedAt: TimestampSchema,
});
export type MarkHistoryEntry = z.infer<typeof MarkHistoryEntrySchema>;

export const MarkGroupSchema = z.object({
  /** 'blank': every answer of the item is blank; 'similar': crops that look the same. */
  kind: z.enum(['blank', 'similar']),
  sheetIds: z.array(IdSchema),
  items: z.array(MarkItemSchema),
});
export type MarkGroup = z.infer<typeof MarkGroupSchema>;

export const GroupScoreSchema = z.object({
  sheetIds: z.array(IdSchema).min(1, MARK_MESSAGES.groupEmpty).max(500),
  scores: z
    .array(z.object({ questionId: IdSchema, score: PointsSchema.nullable() }))
    .min(1)
    .max(20),
  comment: z.string().trim().max(200).default(''),
});

export const GroupScoreResultSchema = z.object({
  /** Per item: scored, or why not (a bulk call answers per item). */
  results: z.array(z.object({ sheetId: IdSchema, ok: z.boolean(), message: z.string().nullable() })),
  remaining: z.number().int().nonnegative(),
  /** My marks of the block after the group (the bench's counter). */
  myMarks: z.number().int().nonnegative(),
});
export type GroupScoreResult = z.infer<typeof GroupScoreResultSchema>;

export const MarkCommentsSchema = z.object({ comments: BlockSettingsFields.comments });

// ───────────── calls ─────────────

const IdParams = z.object({ id: IdSchema });

/** My marking tasks (/correct): every block I mark, and for my own homework every block. */
export const markTasksCall = defineCall({
  name: 'markTasks',
  method: 'GET',
  path: '/teacher/mark/tasks',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(z.array(MarkTaskSchema)),
});

/** A homework's marking: blocks, assignment, progress per block and per teacher. */
export const markHomeworkCall = defineCall({
  name: 'markHomework',
  method: 'GET',
  path: '/teacher/mark/homework/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(MarkHomeworkSchema),
});

/** Saves the blocks and their assignment (the homework's creator). */
export const saveMarkBlocksCall = defineCall({
  name: 'saveMarkBlocks',
  method: 'PUT',
  path: '/teacher/mark/homework/:id',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: SaveMarkBlocksSchema,
  response: envelope(MarkHomeworkSchema),
});

/** One block for the bench: questions, answer key, rubric, comments, progress, what I may do. */
export const markBlockCall = defineCall({
  name: 'markBlock',
  method: 'GET',
  path: '/teacher/mark/block/:id',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(MarkBlockSchema),
});

/** The next items for me (arbitration first, then where I stopped), reserved for me for a while. */
export const markNextCall = defineCall({
  name: 'markNext',
  method: 'GET',
  path: '/teacher/mark/block/:id/next',
  encoding: 'query',
  auth: 'bearer',
  params: IdParams,
  query: MarkNextQuerySchema,
  response: envelope(MarkNextSchema),
});

/** Scores an item (or revises my mark of it); the score reaches results at once when it is final. */
export const submitMarkCall = defineCall({
  name: 'submitMark',
  method: 'POST',
  path: '/teacher/mark/block/:id/mark',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: SubmitMarkSchema,
  response: envelope(SubmitMarkResultSchema),
});

/** One item of a block (回评 opens my earlier marks; overseers open any). */
export const markItemCall = defineCall({
  name: 'markItem',
  method: 'GET',
  path: '/teacher/mark/block/:id/item/:sheetId',
  encoding: 'query',
  auth: 'bearer',
  params: z.object({ id: IdSchema, sheetId: IdSchema }),
  query: z.object({ reveal: z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).optional() }),
  response: envelope(MarkItemSchema),
});

/** 回评: my marks of a block, newest first. */
export const markHistoryCall = defineCall({
  name: 'markHistory',
  method: 'GET',
  path: '/teacher/mark/block/:id/history',
  encoding: 'query',
  auth: 'bearer',
  params: IdParams,
  query: z.object({
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  response: envelope(page(MarkHistoryEntrySchema)),
});

/** Flags an item as a problem (异常) with a note; it leaves the queues until the creator deals with it. */
export const flagProblemCall = defineCall({
  name: 'flagProblem',
  method: 'POST',
  path: '/teacher/mark/block/:id/problem',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: FlagProblemSchema,
  response: envelope(z.null()),
});

/** Items flagged as problems (overseers), to look at and score. */
export const markProblemsCall = defineCall({
  name: 'markProblems',
  method: 'GET',
  path: '/teacher/mark/block/:id/problems',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(z.array(MarkItemSchema)),
});

/** Groups of open items: all-blank answers, and crops that look identical (perceptual hash). */
export const markGroupsCall = defineCall({
  name: 'markGroups',
  method: 'GET',
  path: '/teacher/mark/block/:id/groups',
  encoding: 'none',
  auth: 'bearer',
  params: IdParams,
  response: envelope(z.array(MarkGroupSchema)),
});

/** Gives the same scores to every item of a group the teacher looked at (answers per item). */
export const groupScoreCall = defineCall({
  name: 'groupScore',
  method: 'POST',
  path: '/teacher/mark/block/:id/group',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: GroupScoreSchema,
  response: envelope(GroupScoreResultSchema),
});

/** Replaces a block's comment bank (its markers and the creator). */
export const markCommentsCall = defineCall({
  name: 'markComments',
  method: 'PUT',
  path: '/teacher/mark/block/:id/comments',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: MarkCommentsSchema,
  response: envelope(z.array(z.string())),
});

/** Replaces the rubric items (评分项) of a block's questions (the homework's creator and the block's markers). */
export const saveRubricItemsCall = defineCall({
  name: 'saveRubricItems',
  method: 'PUT',
  path: '/teacher/mark/block/:id/rubric',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: SaveRubricItemsSchema,
  response: envelope(z.array(RubricItemSchema)),
});

/** The crop of one answer, streamed (same permissions as the block). */
export const markCropCall = defineCall({
  name: 'markCrop',
  method: 'GET',
  path: '/teacher/mark/crop/:sheetId/:questionId',
  encoding: 'none',
  auth: 'bearer',
  params: z.object({ sheetId: IdSchema, questionId: IdSchema }),
  response: z.custom<Blob>(
    (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
    { message: '应为图片' },
  ),
});
