import {
  RECOGNITION_MESSAGES,
  buildPath,
  calls,
  type ExceptionAction,
  type PageRecognition,
  type ReadQuestion,
  type RecognitionException,
  type RecognitionExceptionCode,
  type ResolveException,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { RECOGNITION_REASONS, RECOGNITION_TEXT } from '../../i18n/recognition.js';
import type { ScanPage } from '../scan/repository.js';
import { writeResponses } from './answer-key.js';
import { applyWithRetry } from './apply.js';
import { EXCEPTION_ACTIONS, batchOf, homeworkOf, nowOf, type RecognitionServiceDeps } from './context.js';
import type { ExceptionRecord, RecognitionPage } from './repository.js';
import { homeworkQuestions, parseStoredReading } from './reading.js';

// The exception queue: what a batch or homework raised, as a teacher sees it, and the one-click fix of each.

export async function listExceptions(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  q: { batchId?: string | undefined; homeworkId?: string | undefined; status: 'open' | 'resolved' | 'all' },
): Promise<RecognitionException[]> {
  const orgId = requireSchool(auth);
  if (q.batchId) await batchOf(deps, auth, q.batchId);
  else if (q.homeworkId) await homeworkOf(deps, auth, q.homeworkId);
  else throw new AppError('VALIDATION', RECOGNITION_TEXT.needBatchOrHomework);
  const rows = await deps.repo.listExceptions(orgId, {
    ...(q.batchId ? { batchId: q.batchId } : {}),
    ...(q.homeworkId ? { homeworkId: q.homeworkId } : {}),
    ...(q.status !== 'all' ? { status: q.status } : {}),
  });
  return presentExceptions(deps, rows);
}

interface ExceptionPage {
  seq: number;
  result: PageRecognition | null;
}

/** The questions an exception names, as the page read them. */
function readQuestions(page: ExceptionPage | undefined, questionIds: string[]): ReadQuestion[] {
  const questions: ReadQuestion[] = [];
  for (const qid of questionIds) {
    const m = page?.result?.marks.find((x) => x.questionId === qid);
    if (!m) continue;
    questions.push({
      questionId: qid,
      number: m.number,
      kind: m.kind,
      options: m.bubbles.map((b) => b.option),
      chosen: m.chosen,
      status: m.status,
      confidence: m.confidence,
    });
  }
  return questions;
}

async function exceptionPage(
  deps: RecognitionServiceDeps,
  cache: Map<string, ExceptionPage>,
  pageId: string | null,
): Promise<ExceptionPage | undefined> {
  if (!pageId) return undefined;
  let page = cache.get(pageId);
  if (!page) {
    const scan = await deps.repo.findScanPage(pageId);
    const rec = await deps.repo.findPage(pageId);
    page = { seq: scan?.seq ?? 0, result: rec?.result ? parseStoredReading(rec.result) : null };
    cache.set(pageId, page);
  }
  return page;
}

async function presentExceptions(
  deps: RecognitionServiceDeps,
  rows: ExceptionRecord[],
): Promise<RecognitionException[]> {
  const students = new Map(
    (
      await deps.repo.studentsByIds([...new Set(rows.flatMap((r) => (r.studentId ? [r.studentId] : [])))])
    ).map((s) => [s.id, s]),
  );
  const titles = new Map(
    (
      await deps.repo.homeworkTitles([...new Set(rows.flatMap((r) => (r.homeworkId ? [r.homeworkId] : [])))])
    ).map((h) => [h.id, h.title]),
  );
  const pageCache = new Map<string, ExceptionPage>();
  type Box = Omit<NonNullable<RecognitionException['paperScore']>, 'number'>;
  const boxes: Map<string, Box> =
    (await deps
      .paperScores?.()
      ?.describeExceptions(rows.filter((r) => r.code === 'scoreDoubtful').map((r) => r.id))) ??
    new Map<string, Box>();
  const out: RecognitionException[] = [];
  for (const r of rows) {
    const page = await exceptionPage(deps, pageCache, r.pageId);
    const questionIds = r.questionIds;
    const code = r.code as RecognitionExceptionCode;
    out.push({
      id: r.id,
      batchId: r.batchId,
      pageId: r.pageId,
      pageSeq: page ? page.seq : null,
      pageNo: r.pageNo,
      homeworkId: r.homeworkId,
      homeworkTitle: r.homeworkId ? (titles.get(r.homeworkId) ?? null) : null,
      sheetId: r.sheetId,
      studentId: r.studentId,
      studentName: r.studentId ? (students.get(r.studentId)?.name ?? null) : null,
      code,
      message: r.message,
      questionIds,
      questions: readQuestions(page, questionIds),
      actions: [...EXCEPTION_ACTIONS[code]],
      imageUrl: r.pageId ? buildPath(calls.scanPageImage.path, { id: r.pageId }) : null,
      status: r.status === 'resolved' ? 'resolved' : 'open',
      resolution: (r.resolution as ExceptionAction | null) ?? null,
      createdAt: r.createdAt,
      ...paperScoreOf(boxes.get(r.id), page, questionIds),
    });
  }
  return out;
}

/** A score exception's box, numbered as its page read it. */
function paperScoreOf(
  box: Omit<NonNullable<RecognitionException['paperScore']>, 'number'> | undefined,
  page: ExceptionPage | undefined,
  questionIds: string[],
): Pick<RecognitionException, 'paperScore'> {
  if (!box) return {};
  const number = page?.result?.scores?.find((s) => s.questionId === questionIds[0])?.number ?? '';
  return { paperScore: { ...box, number } };
}

/** What a fix works on: the exception, its page as read and as scanned, who fixes it and when. */
interface Fix {
  auth: AuthContext;
  ex: ExceptionRecord;
  body: ResolveException;
  page: RecognitionPage | undefined;
  scan: ScanPage | undefined;
  now: string;
}

export async function resolve(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  id: string,
  body: ResolveException,
): Promise<RecognitionException> {
  const ex = await deps.repo.findException(id);
  if (!ex || ex.orgId !== auth.orgId || ex.status !== 'open')
    throw notFound(RECOGNITION_MESSAGES.exceptionNotFound);
  await batchOf(deps, auth, ex.batchId);
  const code = ex.code as RecognitionExceptionCode;
  if (!EXCEPTION_ACTIONS[code].includes(body.action))
    throw new AppError('VALIDATION', RECOGNITION_MESSAGES.actionNotAllowed);
  const fix: Fix = {
    auth,
    ex,
    body,
    now: nowOf(deps),
    page: ex.pageId ? await deps.repo.findPage(ex.pageId) : undefined,
    scan: ex.pageId ? await deps.repo.findScanPage(ex.pageId) : undefined,
  };
  switch (body.action) {
    case 'ignore':
    case 'rescanned':
      await setPageAside(deps, fix, body.action);
      break;
    case 'assignStudent':
      await assignStudent(deps, fix);
      break;
    case 'chooseMarks':
    case 'accept':
      await acceptOrChoose(deps, fix, code);
      break;
    case 'enterScore':
    case 'markOnScreen': {
      // 纸上批阅 decides the box and resolves this exception with it (ADR 0065).
      const paper = deps.paperScores?.();
      if (!paper) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.actionNotAllowed);
      await paper.resolveException(auth, ex.id, body);
      break;
    }
  }
  const [done] = await presentExceptions(deps, [(await deps.repo.findException(ex.id))!]);
  return done!;
}

/** Ignore or rescan: the page is set aside with everything it raised. */
async function setPageAside(
  deps: RecognitionServiceDeps,
  { auth, ex, page, now }: Fix,
  action: 'ignore' | 'rescanned',
): Promise<void> {
  if (page) {
    await deps.repo.updatePage(page.pageId, {
      status: action === 'ignore' ? 'ignored' : 'rescanned',
      updatedAt: now,
    });
    await deps.repo.resolvePageExceptions(page.pageId, action, auth.userId, now);
    await deps.paperScores?.()?.pageSetAside(page.pageId);
    if (page.sheetId && page.status === 'done')
      await deps.results.setPagesReceived(page.sheetId, await deps.repo.pagesOfSheet(page.sheetId));
  }
  await deps.repo.resolveException(ex.id, action, auth.userId, now);
}

/** A teacher names the page's student: the page is applied again as that student's. */
async function assignStudent(
  deps: RecognitionServiceDeps,
  { auth, ex, body, page, scan, now }: Fix,
): Promise<void> {
  if (!body.studentId) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.needStudent);
  if (!page || !scan || !page.result) throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
  const result = parseStoredReading(page.result);
  const card = result.identity
    ? await deps.findCard(result.identity.cardId, result.identity.version, ex.orgId)
    : null;
  if (!card) throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
  const student = (await deps.repo.findHomeworkStudent(card.homeworkId, { id: body.studentId }))[0];
  if (!student) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.studentNotInHomework);
  if (
    result.identity &&
    (await deps.repo.findTwin(card.homeworkId, student.id, result.identity.page, page.pageId))
  )
    throw new AppError('CONFLICT', RECOGNITION_MESSAGES.studentAlreadyHasSheet);
  // Resolved first: applying the page again replaces its open exceptions with what it raises now.
  await deps.repo.resolveException(ex.id, body.action, auth.userId, now);
  for (const other of await deps.repo.listPageExceptions(page.pageId))
    if (
      other.status === 'open' &&
      EXCEPTION_ACTIONS[other.code as RecognitionExceptionCode].includes('assignStudent')
    )
      await deps.repo.resolveException(other.id, body.action, auth.userId, now);
  await applyWithRetry(deps, scan, { ...page, identitySource: 'teacher', updatedAt: now }, student.id);
}

/** Accept what was read (or keep a duplicate page in place of the earlier one), or choose the marks. */
async function acceptOrChoose(
  deps: RecognitionServiceDeps,
  fix: Fix,
  code: RecognitionExceptionCode,
): Promise<void> {
  const { auth, ex, body, page, now } = fix;
  if (code === 'duplicateSheet') return keepDuplicate(deps, fix);
  if (code === 'multipleMarks' || code === 'uncertainMark') {
    await chooseMarks(deps, auth, ex, page, body.action === 'chooseMarks' ? (body.answers ?? null) : null);
  }
  await deps.repo.resolveException(ex.id, body.action, auth.userId, now);
}

/** Keep this page: the earlier one is set aside and this one applied in its place. */
async function keepDuplicate(
  deps: RecognitionServiceDeps,
  { auth, ex, body, page, scan, now }: Fix,
): Promise<void> {
  if (!page || !scan || !page.homeworkId || !page.studentId || page.pageNo === null)
    throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
  const twin = await deps.repo.findTwin(page.homeworkId, page.studentId, page.pageNo, page.pageId);
  if (twin) {
    await deps.repo.updatePage(twin.pageId, { status: 'ignored', updatedAt: now });
    await deps.repo.resolvePageExceptions(twin.pageId, 'ignore', auth.userId, now);
    await deps.paperScores?.()?.pageSetAside(twin.pageId);
  }
  await deps.repo.resolveException(ex.id, body.action, auth.userId, now);
  await applyWithRetry(deps, scan, page, page.studentId);
}

/** Writes the teacher's choice (or, accepting, what was read) for the questions of an exception. */
async function chooseMarks(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  ex: ExceptionRecord,
  page: RecognitionPage | undefined,
  answers: Record<string, string> | null,
): Promise<void> {
  if (!ex.sheetId || !page?.result) throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
  const result = parseStoredReading(page.result);
  const ids = ex.questionIds;
  const homework = (await deps.repo.findHomework(ex.homeworkId!))!;
  const questions = new Map(homeworkQuestions(homework).map((q) => [q.questionId, q]));
  const patches: { questionId: string; response: string }[] = [];
  for (const qid of ids) {
    const read = result.marks.find((m) => m.questionId === qid);
    const chosen = answers ? answers[qid] : read?.chosen;
    if (chosen === undefined) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.needAnswers);
    patches.push({ questionId: qid, response: chosen });
    if (!questions.has(qid)) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.questionNotInHomework);
  }
  await writeResponses(
    deps,
    auth,
    ex.sheetId,
    homework,
    patches,
    answers ? RECOGNITION_REASONS.chosen : RECOGNITION_REASONS.accepted,
    answers ? 'override' : 'auto',
  );
}
