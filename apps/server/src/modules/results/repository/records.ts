import type { Selectable, Updateable } from 'kysely';
import type {
  AnswerKind,
  ResponseStatus,
  ScoreChangesTable,
  ScoreSource,
  SheetAnswersTable,
  SheetReviewStatus,
  SheetsTable,
} from '../../../db/schema.js';

// The results spine's domain types and the one mapping between them and the columns of sheets, sheet_answers and
// score_changes (read by the repository; the service reads and writes only these types).

type SheetRow = Selectable<SheetsTable>;
type SheetAnswerRow = Selectable<SheetAnswersTable>;

/** A student's sheet for a homework (totals in tenths). */
export interface Sheet {
  id: string;
  orgId: string;
  homeworkId: string;
  studentId: string;
  classId: string;
  cardId: string;
  cardVersion: number;
  pagesExpected: number;
  pagesReceived: number;
  reviewStatus: SheetReviewStatus;
  objectiveScoreTenths: number;
  subjectiveScoreTenths: number;
  totalScoreTenths: number;
  unscoredCount: number;
  createdAt: string;
  updatedAt: string;
  /** Its homework's results version at the sheet's last write (ADR 0030). */
  resultsVersion: number;
  /** Every answer packed (`packAnswers`, ADR 0033/0037); null when not packed. */
  answersPacked: string | null;
}

/** The one mapper of `sheets` rows. */
export const toSheet = (r: SheetRow): Sheet => ({
  id: r.id,
  orgId: r.org_id,
  homeworkId: r.homework_id,
  studentId: r.student_id,
  classId: r.class_id,
  cardId: r.card_id,
  cardVersion: r.card_version,
  pagesExpected: r.pages_expected,
  pagesReceived: r.pages_received,
  reviewStatus: r.review_status,
  objectiveScoreTenths: r.objective_score_tenths,
  subjectiveScoreTenths: r.subjective_score_tenths,
  totalScoreTenths: r.total_score_tenths,
  unscoredCount: r.unscored_count,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  resultsVersion: r.results_version,
  answersPacked: r.answers_packed,
});

/** A sheet as analysis reads it: its student, class, totals and pack. */
export type AnalysisSheet = Pick<
  Sheet,
  | 'id'
  | 'studentId'
  | 'classId'
  | 'objectiveScoreTenths'
  | 'subjectiveScoreTenths'
  | 'totalScoreTenths'
  | 'unscoredCount'
  | 'answersPacked'
>;

/** An answer as analysis reads it from its row (`crop`: whether it has a crop). */
export interface AnswerRead {
  sheetId: string;
  questionId: string;
  response: string | null;
  blank: boolean;
  crop: boolean;
  scoreTenths: number | null;
}

/** An answer of a sheet, as the spine's writers read it. */
export interface SheetAnswer {
  sheetId: string;
  orgId: string;
  homeworkId: string;
  questionId: string;
  kind: AnswerKind;
  response: string | null;
  responseStatus: ResponseStatus | null;
  cropPath: string | null;
  blank: boolean;
  fullScoreTenths: number;
  scoreTenths: number | null;
  scoreSource: ScoreSource | null;
  updatedBy: string | null;
  updatedAt: string;
}

/** The one mapper of `sheet_answers` rows. */
export const toSheetAnswer = (r: SheetAnswerRow): SheetAnswer => ({
  sheetId: r.sheet_id,
  orgId: r.org_id,
  homeworkId: r.homework_id,
  questionId: r.question_id,
  kind: r.kind,
  response: r.response,
  responseStatus: r.response_status,
  cropPath: r.crop_path,
  blank: r.blank === 1,
  fullScoreTenths: r.full_score_tenths,
  scoreTenths: r.score_tenths,
  scoreSource: r.score_source,
  updatedBy: r.updated_by,
  updatedAt: r.updated_at,
});

/** A new sheet: whose it is, its card, and its first totals and pack (no page received, nothing scored yet). */
export type NewSheet = Pick<
  Sheet,
  | 'id'
  | 'orgId'
  | 'homeworkId'
  | 'studentId'
  | 'classId'
  | 'cardId'
  | 'cardVersion'
  | 'pagesExpected'
  | 'unscoredCount'
  | 'answersPacked'
  | 'createdAt'
>;

/** A new answer: its question, kind and full score; no response and no score yet. */
export type NewAnswer = Pick<
  SheetAnswer,
  'sheetId' | 'orgId' | 'homeworkId' | 'questionId' | 'kind' | 'fullScoreTenths' | 'updatedAt'
>;

/** What a write changes of a sheet; fields left out stay as they are. */
export type SheetChange = Partial<
  Pick<
    Sheet,
    | 'pagesReceived'
    | 'reviewStatus'
    | 'objectiveScoreTenths'
    | 'subjectiveScoreTenths'
    | 'totalScoreTenths'
    | 'unscoredCount'
    | 'answersPacked'
  >
> &
  Pick<Sheet, 'updatedAt'>;

/** What a write changes of an answer; fields left out stay as they are. */
export type AnswerChange = Partial<
  Pick<SheetAnswer, 'response' | 'responseStatus' | 'cropPath' | 'blank' | 'scoreTenths' | 'scoreSource'>
> &
  Pick<SheetAnswer, 'updatedBy' | 'updatedAt'>;

/** One change of an answer's response or score in the change log: who, why, before and after. */
export interface ScoreChange {
  id: string;
  orgId: string;
  homeworkId: string;
  sheetId: string;
  questionId: string;
  userId: string | null;
  reason: string;
  beforeResponse: string | null;
  afterResponse: string | null;
  beforeScoreTenths: number | null;
  afterScoreTenths: number | null;
  createdAt: string;
}

/** The columns a sheet change sets (only those it names). */
export function sheetColumns(c: SheetChange): Updateable<SheetsTable> {
  const set: Updateable<SheetsTable> = { updated_at: c.updatedAt };
  if (c.pagesReceived !== undefined) set.pages_received = c.pagesReceived;
  if (c.reviewStatus !== undefined) set.review_status = c.reviewStatus;
  if (c.objectiveScoreTenths !== undefined) set.objective_score_tenths = c.objectiveScoreTenths;
  if (c.subjectiveScoreTenths !== undefined) set.subjective_score_tenths = c.subjectiveScoreTenths;
  if (c.totalScoreTenths !== undefined) set.total_score_tenths = c.totalScoreTenths;
  if (c.unscoredCount !== undefined) set.unscored_count = c.unscoredCount;
  if (c.answersPacked !== undefined) set.answers_packed = c.answersPacked;
  return set;
}

/** The columns an answer change sets (only those it names). */
export function answerColumns(c: AnswerChange): Updateable<SheetAnswersTable> {
  const set: Updateable<SheetAnswersTable> = { updated_at: c.updatedAt, updated_by: c.updatedBy };
  if (c.response !== undefined) set.response = c.response;
  if (c.responseStatus !== undefined) set.response_status = c.responseStatus;
  if (c.cropPath !== undefined) set.crop_path = c.cropPath;
  if (c.blank !== undefined) set.blank = c.blank ? 1 : 0;
  if (c.scoreTenths !== undefined) set.score_tenths = c.scoreTenths;
  if (c.scoreSource !== undefined) set.score_source = c.scoreSource;
  return set;
}

/** The one mapper of `score_changes` rows. */
export const toScoreChange = (r: Selectable<ScoreChangesTable>): ScoreChange => ({
  id: r.id,
  orgId: r.org_id,
  homeworkId: r.homework_id,
  sheetId: r.sheet_id,
  questionId: r.question_id,
  userId: r.user_id,
  reason: r.reason,
  beforeResponse: r.before_response,
  afterResponse: r.after_response,
  beforeScoreTenths: r.before_score_tenths,
  afterScoreTenths: r.after_score_tenths,
  createdAt: r.created_at,
});
