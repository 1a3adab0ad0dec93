import { buildPath, calls, compareClassNames, type ReviewSheet, type SheetReview } from '@zhzy/contracts';
import { overlayOf } from '@zhzy/answer-card/recognise';
import type { AuthContext } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
import { RECOGNITION_REASONS, RECOGNITION_TEXT } from '../../i18n/recognition.js';
import type { Sheet } from '../results/service.js';
import { toPoints } from '../results/scoring.js';
import { keysOf, writeResponses } from './answer-key.js';
import { homeworkOf, nowOf, sheetOf, tenthsToPoints, type RecognitionServiceDeps } from './context.js';
import type { RecognitionRepository } from './repository.js';
import { homeworkQuestions, parseStoredReading } from './reading.js';

type SheetPageRow = Awaited<ReturnType<RecognitionRepository['sheetPages']>>[number];

// Reviewing read sheets: the list of a homework's sheets, one sheet with its pages and what was read on them, a
// teacher's override and the confirmation.

async function presentSheets(deps: RecognitionServiceDeps, sheets: Sheet[]): Promise<ReviewSheet[]> {
  const students = new Map(
    (await deps.repo.studentsByIds(sheets.map((s) => s.studentId))).map((s) => [s.id, s]),
  );
  const open = await deps.repo.countOpen({ sheetIds: sheets.map((s) => s.id) });
  return sheets.map((s) => {
    const st = students.get(s.studentId);
    return {
      id: s.id,
      homeworkId: s.homeworkId,
      studentId: s.studentId,
      studentName: st?.name ?? '',
      studentNo: st?.studentNo ?? '',
      className: st?.className ?? '',
      pagesReceived: s.pagesReceived,
      pagesExpected: s.pagesExpected,
      reviewStatus: s.reviewStatus === 'confirmed' ? 'confirmed' : 'pending',
      objectiveScore: toPoints(s.objectiveScoreTenths),
      totalScore: toPoints(s.totalScoreTenths),
      openExceptions: open.get(s.id) ?? 0,
    };
  });
}

export async function reviewSheets(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  homeworkId: string,
): Promise<ReviewSheet[]> {
  const homework = await homeworkOf(deps, auth, homeworkId);
  const sheets = await deps.results.listSheets(homework.id);
  const list = await presentSheets(deps, sheets);
  return list.sort(
    (a, b) => compareClassNames(a.className, b.className) || a.studentNo.localeCompare(b.studentNo),
  );
}

/** A page of a sheet with the shapes read on it (anchors aside), rounded to a tenth of a pixel. */
async function reviewPage(
  deps: RecognitionServiceDeps,
  sheet: Sheet,
  p: SheetPageRow,
): Promise<SheetReview['pages'][number]> {
  const result = p.result ? parseStoredReading(p.result) : null;
  const card = p.cardId && p.cardVersion ? await deps.findCard(p.cardId, p.cardVersion, sheet.orgId) : null;
  return {
    pageId: p.pageId,
    pageNo: p.pageNo ?? 1,
    imageUrl: buildPath(calls.scanPageImage.path, { id: p.pageId }),
    width: p.width,
    height: p.height,
    overlay:
      result && card
        ? overlayOf(result, card.layout)
            .filter((s) => s.kind !== 'anchor')
            .map((s) => ({
              kind: s.kind,
              quad: s.quad.map((pt) => ({
                x: Math.round(pt.x * 10) / 10,
                y: Math.round(pt.y * 10) / 10,
              })),
              ...(s.questionId !== undefined ? { questionId: s.questionId } : {}),
              ...(s.option !== undefined ? { option: s.option } : {}),
              ...(s.digit !== undefined ? { digit: s.digit } : {}),
              ...(s.state !== undefined ? { state: s.state } : {}),
              ...(s.blank !== undefined ? { blank: s.blank } : {}),
            }))
        : [],
  };
}

export async function reviewSheet(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  sheetId: string,
): Promise<SheetReview> {
  const { sheet, homework } = await sheetOf(deps, auth, sheetId);
  const questions = homeworkQuestions(homework);
  const keys = await keysOf(deps, homework, questions);
  const answers = new Map((await deps.results.listAnswers(sheet.id)).map((a) => [a.questionId, a]));
  const pages: SheetReview['pages'] = [];
  for (const p of await deps.repo.sheetPages(sheet.id)) pages.push(await reviewPage(deps, sheet, p));
  const ordered = await reviewSheets(deps, auth, homework.id);
  const at = ordered.findIndex((s) => s.id === sheet.id);
  const [present] = await presentSheets(deps, [sheet]);
  return {
    sheet: present!,
    answers: questions.map((q) => {
      const a = answers.get(q.questionId);
      return {
        questionId: q.questionId,
        number: q.number,
        kind: q.kind,
        options: q.options,
        response: a?.response ?? null,
        responseStatus: a?.responseStatus ?? null,
        key: keys.get(q.questionId) ?? null,
        score: tenthsToPoints(a?.scoreTenths ?? null),
        fullScore: q.fullScoreTenths / 10,
        scoreSource: a?.scoreSource ?? null,
        blank: a?.blank === true,
        hasCrop: Boolean(a?.cropPath),
      };
    }),
    pages,
    prevId: at > 0 ? ordered[at - 1]!.id : null,
    nextId: at >= 0 && at < ordered.length - 1 ? ordered[at + 1]!.id : null,
  };
}

export async function override(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  sheetId: string,
  answers: { questionId: string; response: string }[],
): Promise<SheetReview> {
  const { sheet, homework } = await sheetOf(deps, auth, sheetId, true);
  await writeResponses(deps, auth, sheet.id, homework, answers, RECOGNITION_REASONS.override, 'override');
  // An override answers the exceptions on those questions.
  const now = nowOf(deps);
  const changed = new Set(answers.map((a) => a.questionId));
  for (const ex of await deps.repo.listExceptions(sheet.orgId, {
    homeworkId: homework.id,
    status: 'open',
  })) {
    if (ex.sheetId !== sheet.id) continue;
    const ids = ex.questionIds;
    if (ids.length > 0 && ids.every((q) => changed.has(q)))
      await deps.repo.resolveException(ex.id, 'chooseMarks', auth.userId, now);
  }
  if (sheet.reviewStatus === 'confirmed') await deps.results.setReviewStatus(sheet.id, 'pending');
  return reviewSheet(deps, auth, sheet.id);
}

export async function confirm(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  sheetId: string,
): Promise<ReviewSheet> {
  const { sheet } = await sheetOf(deps, auth, sheetId, true);
  const open = await deps.repo.countOpen({ sheetIds: [sheet.id] });
  if ((open.get(sheet.id) ?? 0) > 0) throw new AppError('CONFLICT', RECOGNITION_TEXT.confirmBlocked);
  await deps.results.setReviewStatus(sheet.id, 'confirmed');
  const [present] = await presentSheets(deps, [(await deps.results.findSheet(sheet.id))!]);
  return present!;
}
