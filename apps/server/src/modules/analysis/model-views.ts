import {
  FOLLOW_UP_REASON_NAMES,
  STUDENT_RESULT_STATUS_NAMES,
  type AnswerSample,
  type Commentary,
  type CommentaryQuestion,
  type DetailRow,
  type FollowUpReason,
  type FollowUpStudent,
  type HomeworkDetails,
} from '@zhzy/contracts';
import { normaliseChoice, rate, round2 } from './metrics.js';
import type { HomeworkModel } from './model.js';
import { BLANK, cropUrl, type Row } from './model-input.js';

// The teaching views of a homework model: 讲评 (commentary), students to follow up, and the per-answer details.

function sampleOf(model: HomeworkModel, r: Row, i: number): AnswerSample {
  const cell = model.cell(r, i)!;
  const q = model.questions[i]!;
  return {
    studentId: r.student.id,
    name: r.student.name,
    className: r.student.className,
    score: round2(cell.score ?? 0),
    fullScore: q.full,
    response: q.objective ? (cell.response ?? '') : null,
    cropUrl: cell.crop ? cropUrl(model.homework.id, r.student.id, q.questionId) : null,
  };
}

/** 讲评: questions by points lost per student, samples, and students to follow up. */
export function commentaryOf(model: HomeworkModel, classId: string | null): Commentary {
  const rows = model.rowsOf(classId);
  const stats = model.questionStats(rows);
  const withSheet = rows.filter((r) => r.at !== null);
  const passLine = model.settings.passRate;
  const questions: CommentaryQuestion[] = stats.map((s, i) => {
    const q = model.questions[i]!;
    // The scored answers to the question, each with its row.
    const answered = withSheet
      .map((r) => ({ r, ...model.cell(r, i)! }))
      .filter((a): a is typeof a & { score: number } => a.score !== null);
    const wrong = answered.filter((a) => a.score < q.full);
    const groups = new Map<string, string[]>();
    if (q.objective)
      for (const a of wrong) {
        const key = normaliseChoice(a.response);
        groups.set(key, [...(groups.get(key) ?? []), a.r.student.name]);
      }
    const distribution = new Map<number, number>();
    if (!q.objective)
      for (const a of answered) distribution.set(a.score, (distribution.get(a.score) ?? 0) + 1);
    // Typical wrong answers: the lowest scores among answers actually written (blank ones teach nothing),
    // those with a crop first; exemplary: full or highest marks, with a crop first.
    const byCrop = (a: { crop: boolean }, b: { crop: boolean }) => Number(b.crop) - Number(a.crop);
    const typical = wrong
      .filter((a) => !a.blank && (!q.objective || a.response))
      .sort((a, b) => a.score - b.score || byCrop(a, b))
      .slice(0, 3)
      .map((a) => sampleOf(model, a.r, i));
    const best = Math.max(0, ...answered.map((a) => a.score));
    const exemplary = answered
      .filter((a) => a.score === best && best > 0)
      .sort(byCrop)
      .slice(0, 3)
      .map((a) => sampleOf(model, a.r, i));
    return {
      ...s,
      lostScore: round2(q.full - s.average),
      priority: 1,
      needsDiscussion: s.answerCount > 0 && s.scoreRate < passLine,
      stem: q.stem,
      options: q.options,
      analysis: q.analysis,
      wrongResponses: [...groups.entries()]
        .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
        .map(([response, names]) => ({
          response,
          count: names.length,
          rate: rate(answered.length ? names.length / answered.length : 0),
          students: names.slice(0, 30),
        })),
      scoreDistribution: [...distribution.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([score, count]) => ({ score, count })),
      typicalAnswers: typical,
      exemplaryAnswers: exemplary,
      wrongStudents: wrong.map((a) => a.r.student.name),
    };
  });
  questions.sort(
    (a, b) => b.lostScore - a.lostScore || a.scoreRate - b.scoreRate || Number(a.no) - Number(b.no),
  );
  questions.forEach((q, i) => (q.priority = i + 1));
  return {
    homework: model.homework,
    scope: { classId, name: model.scopeName(classId) },
    summary: model.stats(rows),
    questions,
    followUp: followUpOf(model, rows),
    generatedAt: model.now,
  };
}

/** Students below the pass line, 临界生 below a line, a drop of 15 points of rate or more, or 3+ blanks. */
export function followUpOf(model: HomeworkModel, rows: readonly Row[]): FollowUpStudent[] {
  const critical = new Map(model.critical(rows).map((c) => [c.studentId, c]));
  const out: FollowUpStudent[] = [];
  for (const r of model.ordered(rows)) {
    if (r.total === null) continue;
    const scoreRate = model.full > 0 ? r.total / model.full : 0;
    const reasons: FollowUpReason[] = [];
    if (scoreRate < model.settings.passRate - 1e-9) reasons.push('low');
    const c = critical.get(r.student.id);
    if (c && c.gap < 0) reasons.push('critical');
    const prev = model.previousRates.get(r.student.id);
    if (prev !== undefined && scoreRate - prev <= -0.15) reasons.push('declined');
    let blanks = 0;
    for (let i = 0; i < model.questions.length; i += 1)
      if (model.flags[r.at! + i]! & BLANK || (model.questions[i]!.objective && !model.responses[r.at! + i]))
        blanks += 1;
    if (blanks >= 3) reasons.push('blank');
    if (reasons.length === 0) continue;
    out.push({
      studentId: r.student.id,
      name: r.student.name,
      studentNo: r.student.studentNo,
      className: r.student.className,
      total: round2(r.total),
      scoreRate: rate(scoreRate),
      reasons,
      reasonText: reasons.map((x) => FOLLOW_UP_REASON_NAMES[x]).join('；'),
    });
  }
  return out.sort((a, b) => a.scoreRate - b.scoreRate);
}

export function detailsOf(model: HomeworkModel, classId: string | null): HomeworkDetails {
  const rows = model.rowsOf(classId);
  const qs = model.questionStats(rows);
  const show = model.settings.showRank;
  const out: DetailRow[] = model.ordered(rows).map((r) => ({
    studentId: r.student.id,
    name: r.student.name,
    studentNo: r.student.studentNo,
    classId: r.student.classId,
    className: r.student.className,
    status: r.status,
    statusName: STUDENT_RESULT_STATUS_NAMES[r.status],
    total: r.total === null ? null : round2(r.total),
    objective: r.objective === null ? null : round2(r.objective),
    subjective: r.subjective === null ? null : round2(r.subjective),
    classRank: show ? r.classRank : null,
    gradeRank: show ? r.gradeRank : null,
    cells: model.questions.map((q, i) => {
      const cell = model.cell(r, i);
      if (!cell) return { score: null, response: null, blank: false, correct: null, cropUrl: null };
      return {
        score: cell.score === null ? null : round2(cell.score),
        response: q.objective ? (cell.response ?? '') : null,
        blank: cell.blank || (q.objective && !cell.response),
        correct: cell.score === null ? null : cell.score >= q.full,
        cropUrl: cell.crop ? cropUrl(model.homework.id, r.student.id, q.questionId) : null,
      };
    }),
  }));
  return {
    homework: model.homework,
    scope: { classId, name: model.scopeName(classId) },
    showRank: show,
    columns: model.questions.map((q, i) => ({
      questionId: q.questionId,
      no: q.no,
      typeName: q.typeName,
      kind: q.kind,
      objective: q.objective,
      fullScore: q.full,
      answer: q.objective ? q.answer : '',
      scoreRate: qs[i]!.scoreRate,
    })),
    rows: out,
  };
}
