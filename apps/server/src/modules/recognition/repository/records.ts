import type { Selectable } from 'kysely';
import type {
  AnswerKeysTable,
  RecognitionExceptionsTable,
  RecognitionPagesTable,
  RecognitionPageStatus,
} from '../../../db/schema.js';
import type { PartialRule } from '../../results/scoring.js';
import { QuestionIdsSchema } from '../reading.js';

// The domain types recognition's repository answers and takes (ADR 0073), with the one mapper of each table.

/** What recognition made of a stored page (`recognition_pages`). */
export interface RecognitionPage {
  pageId: string;
  orgId: string;
  batchId: string;
  status: RecognitionPageStatus;
  outcome: 'ok' | 'review' | 'failed' | null;
  cardId: string | null;
  cardVersion: number | null;
  pageNo: number | null;
  homeworkId: string | null;
  studentId: string | null;
  sheetId: string | null;
  identitySource: string | null;
  residualMm: number | null;
  totalMs: number | null;
  /**
   * The stored reading as JSON text: read through reading.ts's schemas (`parseStoredReading`, or `parseCropPaths`,
   * which also takes a reading of an older shape), never cast.
   */
  result: string | null;
  attempts: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A problem recognition raised about a page or a sheet (`recognition_exceptions`). */
export interface ExceptionRecord {
  id: string;
  orgId: string;
  batchId: string;
  pageId: string | null;
  homeworkId: string | null;
  sheetId: string | null;
  studentId: string | null;
  pageNo: number | null;
  code: string;
  message: string;
  /** The questions it is about (parsed by their schema). */
  questionIds: string[];
  status: 'open' | 'resolved';
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  createdAt: string;
}

export type NewException = Omit<ExceptionRecord, 'status' | 'resolution' | 'resolvedBy' | 'resolvedAt'>;

/** A page of a batch with what recognition made of it (the batch's tally). */
export interface BatchPageLine {
  id: string;
  seq: number;
  status: RecognitionPageStatus | null;
  pageNo: number | null;
  homeworkId: string | null;
  sheetId: string | null;
  studentName: string | null;
  homeworkTitle: string | null;
  objectiveScoreTenths: number | null;
}

/** A student of a homework's classes. */
export interface HomeworkStudent {
  id: string;
  name: string;
  studentNo: string;
  classId: string;
}

export interface StudentWithClass {
  id: string;
  name: string;
  studentNo: string;
  className: string;
}

export interface AnswerKey {
  homeworkId: string;
  questionId: string;
  orgId: string;
  answer: string;
  updatedBy: string | null;
  updatedAt: string;
}

export interface ScoringRule {
  homeworkId: string;
  orgId: string;
  partialRule: PartialRule;
  updatedBy: string | null;
  updatedAt: string;
}

/** A live page of a sheet with its size (the review). */
export interface SheetPage {
  pageId: string;
  pageNo: number | null;
  result: string | null;
  cardId: string | null;
  cardVersion: number | null;
  width: number;
  height: number;
}

export type PageRow = Selectable<RecognitionPagesTable>;

/** The one mapper of `recognition_pages`. */
export function toPage(r: PageRow): RecognitionPage {
  return {
    pageId: r.page_id,
    orgId: r.org_id,
    batchId: r.batch_id,
    status: r.status,
    outcome: r.outcome,
    cardId: r.card_id,
    cardVersion: r.card_version,
    pageNo: r.page_no,
    homeworkId: r.homework_id,
    studentId: r.student_id,
    sheetId: r.sheet_id,
    identitySource: r.identity_source,
    residualMm: r.residual_mm,
    totalMs: r.total_ms,
    result: r.result,
    attempts: r.attempts,
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A page back to its row (writes). */
export function pageRow(p: Partial<RecognitionPage>): Partial<PageRow> {
  const row: Partial<PageRow> = {
    page_id: p.pageId,
    org_id: p.orgId,
    batch_id: p.batchId,
    status: p.status,
    outcome: p.outcome,
    card_id: p.cardId,
    card_version: p.cardVersion,
    page_no: p.pageNo,
    homework_id: p.homeworkId,
    student_id: p.studentId,
    sheet_id: p.sheetId,
    identity_source: p.identitySource,
    residual_mm: p.residualMm,
    total_ms: p.totalMs,
    result: p.result,
    attempts: p.attempts,
    error: p.error,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
  for (const key of Object.keys(row) as (keyof PageRow)[]) if (row[key] === undefined) delete row[key];
  return row;
}

/** The one mapper of `recognition_exceptions`. */
export function toException(r: Selectable<RecognitionExceptionsTable>): ExceptionRecord {
  return {
    id: r.id,
    orgId: r.org_id,
    batchId: r.batch_id,
    pageId: r.page_id,
    homeworkId: r.homework_id,
    sheetId: r.sheet_id,
    studentId: r.student_id,
    pageNo: r.page_no,
    code: r.code,
    message: r.message,
    questionIds: QuestionIdsSchema.parse(JSON.parse(r.question_ids)),
    status: r.status,
    resolution: r.resolution,
    resolvedBy: r.resolved_by,
    resolvedAt: r.resolved_at,
    createdAt: r.created_at,
  };
}

export const toAnswerKey = (r: Selectable<AnswerKeysTable>): AnswerKey => ({
  homeworkId: r.homework_id,
  questionId: r.question_id,
  orgId: r.org_id,
  answer: r.answer,
  updatedBy: r.updated_by,
  updatedAt: r.updated_at,
});
