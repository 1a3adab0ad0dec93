import type { Selectable } from 'kysely';
import { type AverageRule, type HomeworkPaper, type MarkMode } from '@zhzy/contracts';
import type { MarkBlocksTable } from '../../../db/schema.js';
import { keptPapers } from '../paper-cache.js';
import { IdsSchema, parseStored } from './stored.js';

// Marking's domain types of homework, blocks, markers and rubric items, and the one mapper of each row (ADR 0073);
// `MarkingRepository` (../repository.ts) reads and writes through them.

/** A homework as marking reads it: its frozen paper parsed, its creator's and subject's names. */
export interface MarkingHomework {
  id: string;
  orgId: string;
  title: string;
  subjectId: string;
  /** 是否分配给学科老师: each class's subject teachers mark it. */
  subjectTeacher: boolean;
  paper: HomeworkPaper;
  createdBy: string;
  createdAt: string;
  deletedAt: string | null;
  creatorName: string;
  subjectName: string;
}

/** What a block's owner sets: its questions, how they are marked and by whom. */
export interface BlockSettings {
  title: string;
  sort: number;
  questionIds: string[];
  mode: MarkMode;
  thresholdTenths: number;
  averageRule: AverageRule;
  halfPoints: boolean;
  assignBy: 'question' | 'class';
  arbiterId: string | null;
  rubric: string;
  comments: string[];
  updatedAt: string;
}

/** A marking block (阅卷块): some questions of a homework marked together. */
export interface Block extends BlockSettings {
  id: string;
  orgId: string;
  homeworkId: string;
  createdAt: string;
}

/** A new block: the settings left out take their defaults (single marking, mean, whole points). */
export type NewBlock = Pick<
  Block,
  'id' | 'orgId' | 'homeworkId' | 'title' | 'sort' | 'questionIds' | 'createdAt' | 'updatedAt'
> &
  Partial<BlockSettings>;

/** A marker of a block: a user and a class ('' = every class). */
export interface Marker {
  userId: string;
  classId: string;
}

/** The one mapper of `mark_blocks`. */
export const toBlock = (r: Selectable<MarkBlocksTable>): Block => ({
  id: r.id,
  orgId: r.org_id,
  homeworkId: r.homework_id,
  title: r.title,
  sort: r.sort,
  questionIds: parseStored(IdsSchema, r.question_ids, []),
  mode: r.mode as MarkMode,
  thresholdTenths: r.threshold_tenths,
  averageRule: r.average_rule as AverageRule,
  halfPoints: r.half_points === 1,
  assignBy: r.assign_by as 'question' | 'class',
  arbiterId: r.arbiter_id,
  rubric: r.rubric,
  comments: parseStored(IdsSchema, r.comments, []),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The columns of the block fields given. */
export function blockRow(b: Partial<Block>) {
  const row: Partial<Selectable<MarkBlocksTable>> = {};
  if (b.id !== undefined) row.id = b.id;
  if (b.orgId !== undefined) row.org_id = b.orgId;
  if (b.homeworkId !== undefined) row.homework_id = b.homeworkId;
  if (b.title !== undefined) row.title = b.title;
  if (b.sort !== undefined) row.sort = b.sort;
  if (b.questionIds !== undefined) row.question_ids = JSON.stringify(b.questionIds);
  if (b.mode !== undefined) row.mode = b.mode;
  if (b.thresholdTenths !== undefined) row.threshold_tenths = b.thresholdTenths;
  if (b.averageRule !== undefined) row.average_rule = b.averageRule;
  if (b.halfPoints !== undefined) row.half_points = b.halfPoints ? 1 : 0;
  if (b.assignBy !== undefined) row.assign_by = b.assignBy;
  if (b.arbiterId !== undefined) row.arbiter_id = b.arbiterId;
  if (b.rubric !== undefined) row.rubric = b.rubric;
  if (b.comments !== undefined) row.comments = JSON.stringify(b.comments);
  if (b.createdAt !== undefined) row.created_at = b.createdAt;
  if (b.updatedAt !== undefined) row.updated_at = b.updatedAt;
  return row;
}

/** A rubric item (评分项) of a question, in tenths (signed: a deduction is negative). */
export interface RubricItemRecord {
  id: string;
  questionId: string;
  label: string;
  pointsTenths: number;
}

export function toHomework(r: {
  id: string;
  org_id: string;
  title: string;
  subject_id: string;
  subject_teacher: number;
  paper_snapshot: string;
  created_by: string;
  created_at: string;
  deleted_at: string | null;
  creator_name: string;
  subject_name: string;
}): MarkingHomework {
  return {
    id: r.id,
    orgId: r.org_id,
    title: r.title,
    subjectId: r.subject_id,
    subjectTeacher: r.subject_teacher === 1,
    paper: keptPapers.paperOf(r.id, r.paper_snapshot),
    createdBy: r.created_by,
    createdAt: r.created_at,
    deletedAt: r.deleted_at,
    creatorName: r.creator_name,
    subjectName: r.subject_name,
  };
}
