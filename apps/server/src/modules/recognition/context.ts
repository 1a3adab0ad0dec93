import {
  RECOGNITION_MESSAGES,
  RECOGNITION_PROBLEM_MESSAGES,
  type ExceptionAction,
  type RecognitionException,
  type RecognitionExceptionCode,
  type ResolveException,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { newId, nowIso } from '../../lib/ids.js';
import type { CardLayoutResolver } from '../homework/service.js';
import type { HomeworkWithPaper } from '../homework/repository.js';
import type { ResultsService } from '../results/service.js';
import { assertCanUseBatch } from '../scan/policy.js';
import type { ScanBatch, ScanPage } from '../scan/repository.js';
import type { PageStorage } from '../scan/storage.js';
import type { RecognitionPool } from './pool.js';
import type { NewException, RecognitionPage, RecognitionRepository } from './repository.js';

// What every use case of recognition shares: its dependencies, the fixes offered per exception, access checks and
// the exception a page raises. The use cases are `intake.ts` (queue and read), `apply.ts` (a reading onto a sheet),
// `exceptions.ts`, `answer-key.ts`, `review.ts` and `tally.ts`; `service.ts` is their facade.

/** The job every stored scan page enqueues. */
export const RECOGNISE_PAGE_JOB = 'recognise-page';

/** The fixes offered for each kind of exception, the usual one first. */
export const EXCEPTION_ACTIONS: Readonly<Record<RecognitionExceptionCode, readonly ExceptionAction[]>> = {
  imageUnreadable: ['rescanned', 'ignore'],
  anchorsNotFound: ['rescanned', 'ignore'],
  anchorsDistorted: ['accept', 'rescanned'],
  qrUnreadable: ['rescanned', 'ignore'],
  cardUnknown: ['ignore', 'rescanned'],
  studentNumberInvalid: ['assignStudent', 'ignore'],
  studentNumberMissing: ['assignStudent', 'ignore'],
  unknownStudent: ['assignStudent', 'ignore'],
  duplicateSheet: ['ignore', 'accept'],
  missingPage: ['rescanned', 'accept'],
  blankPage: ['accept', 'ignore'],
  multipleMarks: ['chooseMarks', 'accept'],
  uncertainMark: ['chooseMarks', 'accept'],
  scoreDoubtful: ['enterScore', 'markOnScreen'],
};

/** Problems that keep a page from being applied to a sheet at all. */
export const PAGE_BLOCKERS = new Set<RecognitionExceptionCode>([
  'imageUnreadable',
  'anchorsNotFound',
  'qrUnreadable',
  'cardUnknown',
  'studentNumberInvalid',
  'studentNumberMissing',
]);

export const tenthsToPoints = (t: number | null) => (t === null ? null : t / 10);

/**
 * 纸上批阅 (ADR 0065) as recognition sees it: it takes the score boxes of every page applied to a sheet (read by the
 * worker or applied later by a fix), and decides the `scoreDoubtful` exceptions it raised.
 */
export interface PaperScoresPort {
  afterPage(pageId: string): Promise<unknown>;
  /** A page set aside (ignored, rescanned, or the twin a duplicate replaced): its boxes' readings are not taken. */
  pageSetAside(pageId: string): Promise<unknown>;
  /** `enterScore` (with its score) or `markOnScreen` on a score exception the caller checked. */
  resolveException(auth: AuthContext, exceptionId: string, body: ResolveException): Promise<void>;
  /** The box behind each score exception (without its number, which the page's reading gives). */
  describeExceptions(
    exceptionIds: readonly string[],
  ): Promise<Map<string, Omit<NonNullable<RecognitionException['paperScore']>, 'number'>>>;
}

export interface RecognitionServiceDeps {
  repo: RecognitionRepository;
  results: ResultsService;
  storage: PageStorage;
  pool: RecognitionPool;
  findCard: CardLayoutResolver;
  findBatch: (id: string) => Promise<ScanBatch | undefined>;
  /**
   * Queues a page's recognition; a page of higher `priority` runs before waiting pages of lower priority (a school's
   * n-th waiting page gets -n, so schools take turns).
   */
  enqueue: (pageId: string, priority: number) => Promise<void>;
  clock: () => number;
  /** 纸上批阅, when the host has it (bound after recognition is wired). */
  paperScores?: () => PaperScoresPort | undefined;
}

export const nowOf = (deps: RecognitionServiceDeps): string => nowIso(deps.clock);

/** An exception a page raises (the problem's usual message unless `message` names more). */
export function newException(
  deps: RecognitionServiceDeps,
  scan: Pick<ScanPage, 'id' | 'orgId' | 'batchId'>,
  row: Pick<RecognitionPage, 'homeworkId' | 'sheetId' | 'studentId' | 'pageNo'>,
  code: RecognitionExceptionCode,
  message?: string,
  questionIds: string[] = [],
): NewException {
  return {
    id: newId(),
    orgId: scan.orgId,
    batchId: scan.batchId,
    pageId: scan.id,
    homeworkId: row.homeworkId,
    sheetId: row.sheetId,
    studentId: row.studentId,
    pageNo: row.pageNo,
    code,
    message: message ?? RECOGNITION_PROBLEM_MESSAGES[code],
    questionIds,
    createdAt: nowOf(deps),
  };
}

// ───────────── access ─────────────

export async function batchOf(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  batchId: string,
): Promise<ScanBatch> {
  const batch = await deps.findBatch(batchId);
  assertCanUseBatch(auth, batch);
  return batch;
}

export async function homeworkOf(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  homeworkId: string,
  write = false,
): Promise<HomeworkWithPaper> {
  const row = await deps.repo.findHomework(homeworkId);
  if (!row || row.deletedAt || row.orgId !== auth.orgId)
    throw notFound(RECOGNITION_MESSAGES.homeworkNotFound);
  if (
    write &&
    row.createdBy !== auth.userId &&
    !auth.isAdministrator &&
    !auth.isCreator &&
    !auth.isGradeDirector
  )
    throw forbidden();
  return row;
}

export async function sheetOf(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  sheetId: string,
  write = false,
) {
  const sheet = await deps.results.findSheet(sheetId);
  if (!sheet || sheet.orgId !== auth.orgId) throw notFound(RECOGNITION_MESSAGES.sheetNotFound);
  const homework = await homeworkOf(deps, auth, sheet.homeworkId, write);
  return { sheet, homework };
}
