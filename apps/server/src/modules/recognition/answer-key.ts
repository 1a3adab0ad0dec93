import { RECOGNITION_MESSAGES, type AnswerKey, type UpdateAnswerKey } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
import { RECOGNITION_REASONS, RECOGNITION_TEXT } from '../../i18n/recognition.js';
import type { HomeworkWithPaper } from '../homework/repository.js';
import type { AnswerPatch } from '../results/service.js';
import {
  DEFAULT_PARTIAL_RULE,
  isObjective,
  normaliseKey,
  scoreObjective,
  type ObjectiveKind,
  type PartialRule,
} from '../results/scoring.js';
import { homeworkOf, nowOf, type RecognitionServiceDeps } from './context.js';
import { homeworkQuestions, type HomeworkQuestion } from './reading.js';

// The answer key of a homework's objective questions and the scores it gives: the keys (a teacher's change over the
// paper's answer), the partial rule, re-scoring when they change, and scoring the options a teacher writes.

/** The key of each objective question: the teacher's change, else the paper's answer. */
export async function keysOf(
  deps: RecognitionServiceDeps,
  homework: HomeworkWithPaper,
  questions: HomeworkQuestion[],
): Promise<Map<string, string | null>> {
  const overrides = new Map((await deps.repo.answerKeys(homework.id)).map((k) => [k.questionId, k.answer]));
  const out = new Map<string, string | null>();
  for (const q of questions) {
    if (!isObjective(q.kind)) continue;
    out.set(q.questionId, overrides.get(q.questionId) ?? normaliseKey(q.kind, q.answer));
  }
  return out;
}

export async function ruleOf(deps: RecognitionServiceDeps, homeworkId: string): Promise<PartialRule> {
  return (await deps.repo.scoringRule(homeworkId))?.partialRule ?? DEFAULT_PARTIAL_RULE;
}

/** Validates and writes chosen options with their score from the key (every change recorded). */
export async function writeResponses(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  sheetId: string,
  homework: HomeworkWithPaper,
  answers: { questionId: string; response: string }[],
  reason: string,
  source: 'override' | 'auto',
): Promise<void> {
  const questions = homeworkQuestions(homework);
  const byId = new Map(questions.map((q) => [q.questionId, q]));
  const keys = await keysOf(deps, homework, questions);
  const rule = await ruleOf(deps, homework.id);
  const patches: AnswerPatch[] = [];
  for (const a of answers) {
    const q = byId.get(a.questionId);
    if (!q) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.questionNotInHomework);
    if (!isObjective(q.kind)) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.notObjective);
    const picked = [...new Set(a.response.toUpperCase())].sort().join('');
    const order = (o: string) => q.options.indexOf(o);
    const response = [...picked].sort((x, y) => order(x) - order(y)).join('');
    if ([...response].some((o) => !q.options.includes(o)))
      throw new AppError('VALIDATION', RECOGNITION_TEXT.ofQuestion(q.number, RECOGNITION_MESSAGES.badOption));
    // Several options on a single choice or true/false: a teacher choosing picks one; a teacher accepting what was
    // read confirms the student marked them all, which scores nothing.
    const several = q.kind !== 'multiple' && response.length > 1;
    if (several && source === 'override')
      throw new AppError(
        'VALIDATION',
        RECOGNITION_TEXT.ofQuestion(q.number, RECOGNITION_MESSAGES.singleNeedsOne),
      );
    patches.push({
      questionId: q.questionId,
      response,
      responseStatus: response === '' ? 'blank' : several ? 'multiple' : 'ok',
      scoreTenths: several
        ? 0
        : scoreObjective(q.kind, keys.get(q.questionId) ?? null, response, q.fullScoreTenths, rule),
      source,
    });
  }
  await deps.results.transaction((results) =>
    results.writeAnswers(sheetId, patches, { userId: auth.userId, reason }),
  );
}

export async function answerKey(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  homeworkId: string,
): Promise<AnswerKey> {
  const homework = await homeworkOf(deps, auth, homeworkId);
  const questions = homeworkQuestions(homework).filter((q) => isObjective(q.kind));
  const keys = await keysOf(deps, homework, questions);
  return {
    homeworkId: homework.id,
    partialRule: await ruleOf(deps, homework.id),
    questions: questions.map((q) => ({
      questionId: q.questionId,
      number: q.number,
      kind: q.kind as ObjectiveKind,
      options: q.options,
      key: keys.get(q.questionId) ?? null,
      fullScore: q.fullScoreTenths / 10,
    })),
  };
}

/** Changes keys and the partial rule, then re-scores every sheet already scored (each change recorded). */
export async function updateAnswerKey(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  homeworkId: string,
  body: UpdateAnswerKey,
): Promise<{ changed: number; sheets: number }> {
  const homework = await homeworkOf(deps, auth, homeworkId, true);
  const questions = homeworkQuestions(homework);
  const byId = new Map(questions.map((q) => [q.questionId, q]));
  const now = nowOf(deps);
  const updates: { questionId: string; key: string }[] = [];
  for (const q of body.questions ?? []) {
    const hq = byId.get(q.questionId);
    if (!hq) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.questionNotInHomework);
    if (!isObjective(hq.kind)) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.notObjective);
    const key = normaliseKey(hq.kind, q.answer);
    if (!key || [...key].some((o) => !hq.options.includes(o)))
      throw new AppError('VALIDATION', RECOGNITION_TEXT.ofQuestion(hq.number, RECOGNITION_MESSAGES.badKey));
    updates.push({ questionId: q.questionId, key });
  }
  for (const u of updates)
    await deps.repo.setAnswerKey({
      homeworkId: homework.id,
      questionId: u.questionId,
      orgId: homework.orgId,
      answer: u.key,
      updatedBy: auth.userId,
      updatedAt: now,
    });
  if (body.partialRule)
    await deps.repo.setScoringRule({
      homeworkId: homework.id,
      orgId: homework.orgId,
      partialRule: body.partialRule,
      updatedBy: auth.userId,
      updatedAt: now,
    });
  return rescore(deps, auth, homework, questions);
}

/** Scores every scored objective answer of the homework again with the current keys and rule. */
async function rescore(
  deps: RecognitionServiceDeps,
  auth: AuthContext,
  homework: HomeworkWithPaper,
  questions: HomeworkQuestion[],
): Promise<{ changed: number; sheets: number }> {
  const byId = new Map(questions.map((q) => [q.questionId, q]));
  const keys = await keysOf(deps, homework, questions);
  const rule = await ruleOf(deps, homework.id);
  let changed = 0;
  let sheets = 0;
  for (const sheet of await deps.results.listSheets(homework.id)) {
    const patches: AnswerPatch[] = [];
    for (const a of await deps.results.listAnswers(sheet.id)) {
      const q = byId.get(a.questionId);
      if (!q || !isObjective(q.kind) || a.response === null || a.scoreTenths === null) continue;
      const score = scoreObjective(
        q.kind,
        keys.get(q.questionId) ?? null,
        a.response,
        q.fullScoreTenths,
        rule,
      );
      if (score !== a.scoreTenths)
        patches.push({ questionId: q.questionId, scoreTenths: score, source: a.scoreSource ?? 'auto' });
    }
    if (patches.length === 0) continue;
    sheets += 1;
    changed += await deps.results.transaction((r) =>
      r.writeAnswers(sheet.id, patches, { userId: auth.userId, reason: RECOGNITION_REASONS.rekey }),
    );
  }
  return { changed, sheets };
}
