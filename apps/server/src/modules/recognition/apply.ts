import { RECOGNITION_MESSAGES, RECOGNITION_PROBLEM_MESSAGES } from '@zhzy/contracts';
import { isUniqueViolation } from '../../db/dialect.js';
import { RECOGNITION_REASONS, RECOGNITION_TEXT } from '../../i18n/recognition.js';
import type { FrozenCard } from '../homework/service.js';
import type { HomeworkWithPaper } from '../homework/repository.js';
import type { Sheet } from '../results/service.js';
import type { ScanPage } from '../scan/repository.js';
import { keysOf, ruleOf } from './answer-key.js';
import { PAGE_BLOCKERS, newException, type RecognitionServiceDeps } from './context.js';
import type { NewException, RecognitionPage } from './repository.js';
import {
  answerPatches,
  homeworkQuestions,
  isBlankBack,
  parseStoredReading,
  type PageIdentity,
  type PageStudent,
  type StoredReading,
} from './reading.js';

// Applying a read page: card → homework → student → sheet → answers and crops, written through the results spine.
// What cannot be applied is held (status failed) with the exceptions it raised.

/** Two pages of one student may race to open the sheet: the loser tries once more and finds it. */
export async function applyWithRetry(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  row: RecognitionPage,
  studentId: string | null,
): Promise<void> {
  try {
    await apply(deps, scan, row, studentId);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await apply(deps, scan, row, studentId);
  }
}

/**
 * Applies a read page: card → homework → student → sheet → answers and crops. What cannot be applied is held
 * (status failed) with its exceptions; `studentId` is a teacher's assignment.
 */
async function apply(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  input: RecognitionPage,
  studentId: string | null,
): Promise<void> {
  const reading = parseStoredReading(input.result!);
  const row: RecognitionPage = {
    ...input,
    homeworkId: null,
    studentId: null,
    sheetId: null,
    status: 'failed',
  };
  if (isBlankBack(scan, reading)) return setAside(deps, scan, row);
  const raised: NewException[] = [];
  const found = await cardOfReading(deps, scan, row, reading, studentId, raised);
  if (!found) return settlePage(deps, scan, row, raised);
  const { card, identity } = found;
  const homework = (await deps.repo.findHomework(card.homeworkId))!;
  const student = await studentOfPage(deps, scan, row, identity, homework, studentId, raised);
  if (!student) return settlePage(deps, scan, row, raised);
  row.studentId = student.id;
  if (await isDuplicatePage(deps, scan, row, homework, student, identity.page, raised))
    return settlePage(deps, scan, row, raised);
  const sheet = await writeSheet(deps, homework, card, student, reading);
  row.sheetId = sheet.id;
  row.status = 'done';
  for (const p of reading.problems) {
    if (PAGE_BLOCKERS.has(p.code)) continue;
    raised.push(newException(deps, scan, row, p.code, p.message, p.questionIds ?? []));
  }
  await settlePage(deps, scan, row, raised);
  await deps.results.setPagesReceived(sheet.id, await deps.repo.pagesOfSheet(sheet.id));
  // 纸上批阅 takes the page's score boxes, whether the worker applied it or a teacher's fix did.
  await deps.paperScores?.()?.afterPage(scan.id);
  await applyFollower(deps, scan, row);
}

/** Stores the page as it now stands and replaces its open exceptions with what it raised. */
async function settlePage(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  row: RecognitionPage,
  raised: NewException[],
): Promise<void> {
  await deps.repo.transaction(async (repo) => {
    await repo.upsertPage(row);
    await repo.clearOpenExceptions(scan.id);
    await repo.insertExceptions(raised);
  });
}

/** A page expected to be blank (see `isBlankBack`) is set aside without asking the teacher anything. */
async function setAside(deps: RecognitionServiceDeps, scan: ScanPage, row: RecognitionPage): Promise<void> {
  row.status = 'ignored';
  await deps.repo.transaction(async (repo) => {
    await repo.upsertPage(row);
    await repo.clearOpenExceptions(scan.id);
  });
}

/**
 * The card of a reading when the page can be applied (its homework noted on `row`); null, with what to raise,
 * when the card is unknown, another school's or of a deleted homework ("another paper", whatever the recogniser
 * could see), or when a page-level problem blocks the page and no teacher has named its student.
 */
async function cardOfReading(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  row: RecognitionPage,
  reading: StoredReading,
  studentId: string | null,
  raised: NewException[],
): Promise<{ card: FrozenCard; identity: PageIdentity } | null> {
  const id = reading.identity;
  const card = id ? await deps.findCard(id.cardId, id.version) : null;
  if (id && (!card || card.orgId !== scan.orgId || card.homeworkDeletedAt)) {
    const message = !card
      ? RECOGNITION_PROBLEM_MESSAGES.cardUnknown
      : card.orgId !== scan.orgId
        ? RECOGNITION_MESSAGES.otherSchool
        : RECOGNITION_MESSAGES.homeworkDeleted;
    raised.push(newException(deps, scan, row, 'cardUnknown', message));
    return null;
  }
  if (card) row.homeworkId = card.homeworkId;
  const blockers = reading.problems.filter((p) => PAGE_BLOCKERS.has(p.code) && p.level === 'page');
  if (!id || !card || (blockers.length > 0 && !studentId)) {
    for (const p of blockers.length ? blockers : reading.problems.filter((p) => p.level === 'page'))
      raised.push(newException(deps, scan, row, p.code, p.message));
    if (raised.length === 0) raised.push(newException(deps, scan, row, 'anchorsNotFound'));
    return null;
  }
  return { card, identity: id };
}

/** Who the page belongs to: the teacher's choice, the personalised QR, else the number bubbles (or sticker). */
async function studentOfPage(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  row: RecognitionPage,
  id: PageIdentity,
  homework: HomeworkWithPaper,
  studentId: string | null,
  raised: NewException[],
): Promise<PageStudent | undefined> {
  if (studentId) return (await deps.repo.findHomeworkStudent(homework.id, { id: studentId }))[0];
  if (id.studentId) {
    const student = (await deps.repo.findHomeworkStudent(homework.id, { id: id.studentId }))[0];
    if (!student) raised.push(newException(deps, scan, row, 'unknownStudent'));
    return student;
  }
  if (id.studentNumber) {
    const found = await deps.repo.findHomeworkStudent(homework.id, { studentNo: id.studentNumber });
    if (found.length === 1) return found[0];
    raised.push(
      newException(
        deps,
        scan,
        row,
        'unknownStudent',
        RECOGNITION_TEXT.studentNumberNotListed(id.studentNumber),
      ),
    );
    return undefined;
  }
  const student = await studentOfPreviousPage(deps, scan, row, id, homework);
  if (!student)
    raised.push(
      newException(
        deps,
        scan,
        row,
        'studentNumberMissing',
        id.page > 1 ? RECOGNITION_TEXT.pageWithoutStudent(id.page) : undefined,
      ),
    );
  return student;
}

/**
 * A later page of a card without a personalised code carries no student: it follows the page before it in the
 * feeder when that is the previous page of the same card.
 */
async function studentOfPreviousPage(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  row: RecognitionPage,
  id: PageIdentity,
  homework: HomeworkWithPaper,
): Promise<PageStudent | undefined> {
  const before = await deps.repo.neighbour(scan.batchId, scan.seq, 'before');
  if (
    id.page > 1 &&
    before?.status === 'done' &&
    before.cardId === id.cardId &&
    before.pageNo === id.page - 1 &&
    before.studentId
  ) {
    const student = (await deps.repo.findHomeworkStudent(homework.id, { id: before.studentId }))[0];
    row.identitySource = 'sequence';
    return student;
  }
  return undefined;
}

/** True, with a `duplicateSheet` exception, when the student already has another page with this number. */
async function isDuplicatePage(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  row: RecognitionPage,
  homework: HomeworkWithPaper,
  student: PageStudent,
  pageNo: number,
  raised: NewException[],
): Promise<boolean> {
  const twin = await deps.repo.findTwin(homework.id, student.id, pageNo, scan.id);
  if (!twin) return false;
  row.sheetId = twin.sheetId;
  raised.push(
    newException(deps, scan, row, 'duplicateSheet', RECOGNITION_TEXT.duplicatePage(student.name, pageNo)),
  );
  return true;
}

/** Opens the student's sheet and writes the page's answers and crops through the results spine. */
async function writeSheet(
  deps: RecognitionServiceDeps,
  homework: HomeworkWithPaper,
  card: FrozenCard,
  student: PageStudent,
  reading: StoredReading,
): Promise<Sheet> {
  const questions = homeworkQuestions(homework);
  const patches = answerPatches(
    reading,
    questions,
    await keysOf(deps, homework, questions),
    await ruleOf(deps, homework.id),
  );
  // Two transactions one after the other, never nested (SQLite has one connection).
  return deps.results.transaction(async (results) => {
    const opened = await results.openSheet({
      orgId: homework.orgId,
      homeworkId: homework.id,
      studentId: student.id,
      classId: student.classId,
      cardId: card.cardId,
      cardVersion: card.version,
      pagesExpected: card.layout.pages.length,
      questions: questions.map((q) => ({
        questionId: q.questionId,
        kind: q.kind,
        fullScoreTenths: q.fullScoreTenths,
      })),
    });
    await results.writeAnswers(opened.id, patches, { userId: null, reason: RECOGNITION_REASONS.recognised });
    return opened;
  });
}

/** The next page of the feeder may have waited for this one to know its student (workers run in parallel). */
async function applyFollower(
  deps: RecognitionServiceDeps,
  scan: ScanPage,
  row: RecognitionPage,
): Promise<void> {
  if (row.pageNo === null || !row.studentId) return;
  const next = await deps.repo.neighbour(scan.batchId, scan.seq, 'after');
  if (!next || next.status !== 'failed' || next.studentId || !next.result) return;
  if (next.cardId !== row.cardId || next.pageNo !== row.pageNo + 1) return;
  const open = await deps.repo.listPageExceptions(next.pageId);
  if (!open.some((e) => e.status === 'open' && e.code === 'studentNumberMissing')) return;
  const nextScan = await deps.repo.findScanPage(next.pageId);
  if (!nextScan) return;
  const { seq: _seq, ...nextRow } = next;
  await applyWithRetry(deps, nextScan, nextRow, null);
}
