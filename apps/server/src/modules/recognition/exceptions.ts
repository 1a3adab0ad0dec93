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
import type { RecognitionExceptionRow, RecognitionPageRow } from './repository.js';
import { homeworkQuestions, parseQuestionIds, parseStoredReading } from './reading.js';

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
  rows: RecognitionExceptionRow[],
): Promise<RecognitionException[]> {
  const students = new Map(
    (
      await deps.repo.studentsByIds([...new Set(rows.flatMap((r) => (r.student_id ? [r.student_id] : [])))])
    ).map((s) => [s.id, s]),
  );
  const titles = new Map(
    (
      await deps.repo.homeworkTitles([
        ...new Set(rows.flatMap((r) => (r.homework_id ? [r.homework_id] : []))),
      ])
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
    const page = await exceptionPage(deps, pageCache, r.page_id);
    const questionIds = parseQuestionIds(r.question_ids);
    const code = r.code as RecognitionExceptionCode;
    out.push({
      id: r.id,
      batchId: r.batch_id,
      pageId: r.page_id,
      pageSeq: page ? page.seq : null,
      pageNo: r.page_no,
      homeworkId: r.homework_id,
      homeworkTitle: r.homework_id ? (titles.get(r.homework_id) ?? null) : null,
      sheetId: r.sheet_id,
      studentId: r.student_id,
      studentName: r.student_id ? (students.get(r.student_id)?.name ?? null) : null,
      code,
      message: r.message,
      questionIds,
      questions: readQuestions(page, questionIds),
      actions: [...EXCEPTION_ACTIONS[code]],
      imageUrl: r.page_id ? buildPath(calls.scanPageImage.path, { id: r.page_id }) : null,
      status: r.status === 'resolved' ? 'resolved' : 'open',
      resolution: (r.resolution as ExceptionAction | null) ?? null,
      createdAt: r.created_at,
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
  ex: RecognitionExceptionRow;
  body: ResolveException;
  page: RecognitionPageRow | undefined;
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
  if (!ex || ex.org_id !== auth.orgId || ex.status !== 'open')
    throw notFound(RECOGNITION_MESSAGES.exceptionNotFound);
  await batchOf(deps, auth, ex.batch_id);
  const code = ex.code as RecognitionExceptionCode;
  if (!EXCEPTION_ACTIONS[code].includes(body.action))
    throw new AppError('VALIDATION', RECOGNITION_MESSAGES.actionNotAllowed);
  const fix: Fix = {
    auth,
    ex,
    body,
    now: nowOf(deps),
    page: ex.page_id ? await deps.repo.findPage(ex.page_id) : undefined,
    scan: ex.page_id ? await deps.repo.findScanPage(ex.page_id) : undefined,
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
    await deps.repo.updatePage(page.page_id, {
      status: action === 'ignore' ? 'ignored' : 'rescanned',
      updated_at: now,
    });
    await deps.repo.resolvePageExceptions(page.page_id, action, auth.userId, now);
    await deps.paperScores?.()?.pageSetAside(page.page_id);
    if (page.sheet_id && page.status === 'done')
      await deps.results.setPagesReceived(page.sheet_id, await deps.repo.pagesOfSheet(page.sheet_id));
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
    ? await deps.findCard(result.identity.cardId, result.identity.version, ex.org_id)
    : null;
  if (!card) throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
  const student = (await deps.repo.findHomeworkStudent(card.homeworkId, { id: body.studentId }))[0];
  if (!student) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.studentNotInHomework);
  if (
    result.identity &&
    (await deps.repo.findTwin(card.homeworkId, student.id, result.identity.page, page.page_id))
  )
    throw new AppError('CONFLICT', RECOGNITION_MESSAGES.studentAlreadyHasSheet);
  // Resolved first: applying the page again replaces its open exceptions with what it raises now.
  await deps.repo.resolveException(ex.id, body.action, auth.userId, now);
  for (const other of await deps.repo.listPageExceptions(page.page_id))
    if (
      other.status === 'open' &&
      EXCEPTION_ACTIONS[other.code as RecognitionExceptionCode].includes('assignStudent')
    )
      await deps.repo.resolveException(other.id, body.action, auth.userId, now);
  await applyWithRetry(deps, scan, { ...page, identity_source: 'teacher', updated_at: now }, student.id);
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
  if (!page || !scan || !page.homework_id || !page.student_id || page.page_no === null)
    throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
  const twin = await deps.repo.findTwin(page.homework_id, page.student_id, page.page_no, page.page_id);
  if (twin) {
    await deps.repo.updatePage(twin.page_id, { status: 'ignored', updated_at: now });
    await deps.repo.resolvePageExceptions(twin.page_id, 'ignore', auth.userId, now);
    await deps.paperScores?.()?.pageSetAside(twin.page_id);
  }
  await deps.repo.resolveException(ex.id, body.action, auth.userId, now);
  await applyWithRetry(deps, scan, page, page.student_id);
}

/** Writes the teacher's choice (or, accepting, what was read) for the questions of an exception. */
async function chooseMarks(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  ex: RecognitionExceptionRow,
  page: RecognitionPageRow | undefined,
  answers: Record<string, string> | null,
): Promise<void> {
  if (!ex.sheet_id || !page?.result) throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
  const result = parseStoredReading(page.result);
  const ids = parseQuestionIds(ex.question_ids);
  const homework = (await deps.repo.findHomework(ex.homework_id!))!;
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
    ex.sheet_id,
    homework,
    patches,
    answers ? RECOGNITION_REASONS.chosen : RECOGNITION_REASONS.accepted,
    answers ? 'override' : 'auto',
  );
}
