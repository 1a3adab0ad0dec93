import type { RecognitionTally } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { newId } from '../../lib/ids.js';
import { RECOGNITION_TEXT } from '../../i18n/recognition.js';
import { batchOf, nowOf, tenthsToPoints, type RecognitionServiceDeps } from './context.js';
import type { NewException } from './repository.js';

// A batch's tally while it is scanned and read, and the check when scanning ends (missing pages).

export async function tally(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  batchId: string,
): Promise<RecognitionTally> {
  const batch = await batchOf(deps, auth, batchId);
  const pages = await deps.repo.listBatchPages(batch.id);
  const open = await deps.repo.listExceptions(batch.orgId, { batchId: batch.id, status: 'open' });
  const openByPage = new Map<string, number>();
  for (const e of open) if (e.pageId) openByPage.set(e.pageId, (openByPage.get(e.pageId) ?? 0) + 1);
  const homeworkIds = [
    ...new Set(pages.flatMap((p) => (p.homeworkId && p.status === 'done' ? [p.homeworkId] : []))),
  ];
  const sheetIds = new Set(pages.flatMap((p) => (p.sheetId && p.status === 'done' ? [p.sheetId] : [])));
  return {
    batchId: batch.id,
    pagesReceived: pages.length,
    pagesRead: pages.filter((p) => p.status !== null && p.status !== 'queued').length,
    pagesQueued: pages.filter((p) => p.status === null || p.status === 'queued').length,
    sheetsRead: sheetIds.size,
    exceptionsOpen: open.length,
    homework: await homeworkTally(deps, homeworkIds),
    pages: pages.slice(0, 200).map((p) => ({
      pageId: p.id,
      seq: p.seq,
      status: p.status ?? 'queued',
      studentName: p.studentName ?? null,
      homeworkTitle: p.homeworkTitle ?? null,
      pageNo: p.pageNo ?? null,
      objectiveScore: p.status === 'done' ? tenthsToPoints(p.objectiveScoreTenths ?? null) : null,
      openExceptions: openByPage.get(p.id) ?? 0,
    })),
  };
}

/** Each live homework of the batch: its students, the sheets read and who is still missing. */
async function homeworkTally(
  deps: RecognitionServiceDeps,
  homeworkIds: string[],
): Promise<RecognitionTally['homework']> {
  const homework: RecognitionTally['homework'] = [];
  for (const hid of homeworkIds) {
    const row = await deps.repo.findHomework(hid);
    if (!row || row.deletedAt) continue;
    const students = await deps.repo.homeworkStudents(hid);
    const sheets = await deps.results.listSheets(hid);
    const have = new Set(sheets.map((s) => s.studentId));
    homework.push({
      id: hid,
      title: row.title,
      students: students.length,
      sheetsRead: sheets.length,
      missing: students
        .filter((s) => !have.has(s.id))
        .map((s) => ({ id: s.id, name: s.name, studentNo: s.studentNo, className: s.className })),
    });
  }
  return homework;
}

/** When scanning ends: every student of the batch's homework with some pages but not all gets a missing page. */
export async function check(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  batchId: string,
): Promise<RecognitionTally> {
  const batch = await batchOf(deps, auth, batchId);
  const pages = await deps.repo.listBatchPages(batch.id);
  const sheetIds = [...new Set(pages.flatMap((p) => (p.sheetId && p.status === 'done' ? [p.sheetId] : [])))];
  const raised: NewException[] = [];
  for (const sid of sheetIds) {
    const sheet = await deps.results.findSheet(sid);
    if (!sheet || sheet.pagesReceived >= sheet.pagesExpected) continue;
    const have = new Set((await deps.repo.sheetPages(sid)).map((p) => p.pageNo));
    for (let n = 1; n <= sheet.pagesExpected; n++) {
      if (have.has(n) || (await deps.repo.openMissingPage(sid, n))) continue;
      const student = (await deps.repo.studentsByIds([sheet.studentId]))[0];
      raised.push({
        id: newId(),
        orgId: batch.orgId,
        batchId: batch.id,
        pageId: null,
        homeworkId: sheet.homeworkId,
        sheetId: sheet.id,
        studentId: sheet.studentId,
        pageNo: n,
        code: 'missingPage',
        message: RECOGNITION_TEXT.missingPage(student?.name, n),
        questionIds: [],
        createdAt: nowOf(deps),
      });
    }
  }
  await deps.repo.insertExceptions(raised);
  return tally(deps, auth, batchId);
}
