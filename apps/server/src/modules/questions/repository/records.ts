import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';

// A bank question's domain types and the one mapper of `questions` (ADR 0073): rows in, camelCase records out, the
// stored options parsed by their schema; `QuestionsRepository` (../repository.ts) writes and reads through them.

/** The columns a question is presented from (alias `q`, with its type `t` and subject `s`). */
export const QUESTION_COLUMNS = [
  'q.id',
  'q.subject_id',
  's.stage_id',
  'q.type_id',
  't.name as type_name',
  'q.difficulty',
  'q.stem',
  'q.options',
  'q.answer',
  'q.analysis',
  'q.year',
  'q.source',
  'q.usage_count',
  'q.blank_count',
  'q.region',
  'q.owner',
  'q.org_id',
  'q.owner_user_id',
  'q.origin_id',
  'q.review_status',
  'q.reviewed_by',
  'q.reviewed_at',
  'q.review_note',
  'q.created_at',
  'q.updated_at',
  'q.deleted_at',
  'q.purged_at',
] as const;

/** A bank question as the module works with it: camelCase, its options parsed. */
export interface QuestionRecord {
  id: string;
  subjectId: string;
  stageId: string;
  typeId: string;
  typeName: string;
  difficulty: number;
  stem: string;
  options: QuestionOption[];
  answer: string;
  analysis: string;
  year: number | null;
  source: string | null;
  usageCount: number;
  blankCount: number | null;
  region: string | null;
  owner: string;
  orgId: string | null;
  ownerUserId: string | null;
  originId: string | null;
  reviewStatus: string;
  reviewedBy: string | null;
  reviewedAt: string | null;
  reviewNote: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  purgedAt: string | null;
}

export interface QuestionOption {
  label: string;
  content: string;
}

/** A question's content as written (already sanitised). */
export interface QuestionWrite {
  subjectId: string;
  typeId: string;
  difficulty: number;
  stem: string;
  options: QuestionOption[];
  answer: string;
  analysis: string;
  blankCount: number | null;
  year: number | null;
  source: string | null;
  region: string | null;
}

/** A knowledge point or chapter a question is linked to. */
export interface QuestionLink {
  questionId: string;
  id: string;
  name: string;
}

export type QuestionColumns = Omit<Selectable<Database['questions']>, 'search_tokens'> & {
  stage_id: string;
  type_name: string;
};

export function toQuestionRecord(r: QuestionColumns): QuestionRecord {
  return {
    id: r.id,
    subjectId: r.subject_id,
    stageId: r.stage_id,
    typeId: r.type_id,
    typeName: r.type_name,
    difficulty: r.difficulty,
    stem: r.stem,
    options: parseOptions(r.options),
    answer: r.answer,
    analysis: r.analysis,
    year: r.year,
    source: r.source,
    usageCount: r.usage_count,
    blankCount: r.blank_count,
    region: r.region,
    owner: r.owner,
    orgId: r.org_id,
    ownerUserId: r.owner_user_id,
    originId: r.origin_id,
    reviewStatus: r.review_status,
    reviewedBy: r.reviewed_by,
    reviewedAt: r.reviewed_at,
    reviewNote: r.review_note,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
    purgedAt: r.purged_at,
  };
}

export const writeRow = (w: QuestionWrite) => ({
  subject_id: w.subjectId,
  type_id: w.typeId,
  difficulty: w.difficulty,
  stem: w.stem,
  options: JSON.stringify(w.options),
  answer: w.answer,
  analysis: w.analysis,
  blank_count: w.blankCount,
  year: w.year,
  source: w.source,
  region: w.region,
});

export const toLink = (r: { question_id: string; id: string; name: string }): QuestionLink => ({
  questionId: r.question_id,
  id: r.id,
  name: r.name,
});

export interface PageArgs {
  offset: number;
  limit: number;
}

/** One stored option; the stored list is read option by option. */
const StoredOptionSchema = z.object({ label: z.string(), content: z.string() });
const StoredOptionsSchema = z.array(z.unknown());

/** Options as stored (JSON); anything unreadable counts as no options rather than failing a page. */
export function parseOptions(json: string): { label: string; content: string }[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  const list = StoredOptionsSchema.safeParse(value);
  if (!list.success) return [];
  return list.data.flatMap((o) => {
    const option = StoredOptionSchema.safeParse(o);
    return option.success ? [{ label: option.data.label, content: option.data.content }] : [];
  });
}
