import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import {
  ANALYSIS_MESSAGES,
  HOMEWORK_TYPE_NAMES,
  MASTERY_LEVEL_NAMES,
  STUDENT_RESULT_STATUS_NAMES,
  type HomeworkType,
  type MistakeBook,
  type MistakeBookQuery,
  type MistakeBookPdf,
  type MistakeQuestion,
  type PrintGrade,
  type StudentAnalysis,
  type StudentAnalysisQuery,
  type WrongQuestion,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { nowIso } from '../../lib/ids.js';
import { masteryLevel, mean, rate, round2, standardDeviation, tScore, zScore } from './metrics.js';
import { cropUrl, questionsOf } from './model.js';
import type { HomeworkRecord } from './repository.js';
import type { AnalysisService } from './service.js';

// The views of one student (their analysis across homework, the crops of their answers, the 错题本) and the printed
// score sheet of a homework. Scoping and the shared reads come from the analysis service.

/** What the person views need of the analysis service. */
export type PersonCore = Pick<
  AnalysisService,
  'repo' | 'clock' | 'homeworkRow' | 'model' | 'readCrop' | 'settingsOf' | 'similar' | 'students'
>;

type StudentSettings = Awaited<ReturnType<PersonCore['settingsOf']>>;
type SheetTotal = Awaited<ReturnType<PersonCore['repo']['sheetTotals']>>[number];
type StudentAnswer = Awaited<ReturnType<PersonCore['repo']['studentAnswers']>>[number];
/** A knowledge point's sums over a student's scored answers. */
type KnowledgeSums = { name: string; scored: number; full: number; grade: number; count: number };

/** One homework of a student's trend, against the class and the grade; null where neither has a score. */
function trendPoint(
  h: HomeworkRecord,
  sheets: SheetTotal[],
  mine: SheetTotal | undefined,
  classId: string,
  settings: StudentSettings,
): StudentAnalysis['trend'][number] | null {
  const full = h.totalScoreTenths / 10;
  const list = sheets.filter((s) => s.homeworkId === h.id && s.unscoredCount === 0);
  const totals = list.map((s) => s.totalScoreTenths / 10);
  const classTotals = list.filter((s) => s.classId === classId).map((s) => s.totalScoreTenths / 10);
  const status = !mine ? 'absent' : mine.unscoredCount === 0 ? 'scored' : 'pending';
  const total = status === 'scored' ? mine!.totalScoreTenths / 10 : null;
  if (status === 'absent' && totals.length === 0) return null;
  const gMean = mean(totals);
  const z = total === null ? null : zScore(total, gMean, standardDeviation(totals));
  return {
    homeworkId: h.id,
    title: h.title,
    typeName: HOMEWORK_TYPE_NAMES[h.type as HomeworkType] ?? h.type,
    subjectId: h.subjectId,
    subjectName: h.subjectName,
    date: h.startDate,
    fullScore: full,
    status,
    total: total === null ? null : round2(total),
    scoreRate: total === null ? null : rate(full > 0 ? total / full : 0),
    classAverage: round2(mean(classTotals)),
    gradeAverage: round2(gMean),
    classRank: settings.showRank && total !== null ? classTotals.filter((t) => t > total).length + 1 : null,
    gradeRank: settings.showRank && total !== null ? totals.filter((t) => t > total).length + 1 : null,
    classSize: classTotals.length,
    gradeSize: totals.length,
    zScore: z === null ? null : Math.round(z * 100) / 100,
    tScore: z === null ? null : Math.round(tScore(z) * 10) / 10,
  };
}

/** Adds a student's scored answers of one homework to the knowledge-point sums, and the wrong ones to the list. */
function collectAnswers(
  h: HomeworkRecord,
  questions: ReturnType<typeof questionsOf>,
  answers: StudentAnswer[],
  studentId: string,
  gradeRate: (homeworkId: string, questionId: string) => number,
  kp: Map<string, KnowledgeSums>,
  wrongQuestions: WrongQuestion[],
): void {
  const byQuestion = new Map(answers.map((a) => [a.questionId, a]));
  for (const question of questions) {
    const a = byQuestion.get(question.questionId);
    if (!a || a.scoreTenths === null) continue;
    const score = a.scoreTenths / 10;
    const g = gradeRate(h.id, question.questionId);
    for (const k of question.knowledgePoints) {
      const e = kp.get(k.id) ?? { name: k.name, scored: 0, full: 0, grade: 0, count: 0 };
      e.scored += score;
      e.full += question.full;
      e.grade += g * question.full;
      e.count += 1;
      kp.set(k.id, e);
    }
    if (score >= question.full) continue;
    wrongQuestions.push({
      homeworkId: h.id,
      homeworkTitle: h.title,
      date: h.startDate,
      subjectName: h.subjectName,
      questionId: question.questionId,
      no: question.no,
      typeName: question.typeName,
      stem: question.stem,
      options: question.options,
      answer: question.objective ? question.answer : question.answer,
      analysis: question.analysis,
      difficulty: question.difficulty,
      knowledgePoints: question.knowledgePoints,
      response: question.objective ? (a.response ?? '') : null,
      blank: a.blank || (question.objective && !a.response),
      score: round2(score),
      fullScore: question.full,
      gradeScoreRate: rate(g),
      cropUrl: a.cropPath ? cropUrl(h.id, studentId, question.questionId) : null,
    });
  }
}

/** Scored homework whose rate lies within the critical band of the pass, good or excellent line. */
function criticalCountOf(scoredTrend: StudentAnalysis['trend'], settings: StudentSettings): number {
  return scoredTrend.filter((t) => {
    const r = t.scoreRate!;
    const band = settings.criticalScoreBand;
    return [settings.passRate, settings.goodRate, settings.excellentRate].some(
      (l) => Math.abs(r - l) <= band + 1e-9,
    );
  }).length;
}

/** Knowledge points, weakest first, with the student's and the grade's rates. */
function knowledgePointRows(kp: Map<string, KnowledgeSums>): StudentAnalysis['knowledgePoints'] {
  return [...kp.entries()]
    .map(([id, e]) => {
      const r = e.full > 0 ? e.scored / e.full : 0;
      const m = masteryLevel(r);
      return {
        id,
        name: e.name,
        questionCount: e.count,
        scoreRate: rate(r),
        gradeScoreRate: rate(e.full > 0 ? e.grade / e.full : 0),
        mastery: m,
        masteryName: MASTERY_LEVEL_NAMES[m],
      };
    })
    .sort((a, b) => a.scoreRate - b.scoreRate || a.name.localeCompare(b.name));
}

export class PersonAnalysis {
  constructor(private readonly core: PersonCore) {}

  async studentAnalysis(auth: AuthContext, q: StudentAnalysisQuery): Promise<StudentAnalysis> {
    const orgId = requireSchool(auth);
    const student = await this.core.repo.findStudent(orgId, q.studentId);
    if (!student) throw notFound(ANALYSIS_MESSAGES.studentNotFound);
    const settings = await this.core.settingsOf(orgId);
    const all = await this.core.repo.listHomework({
      orgId,
      yearId: student.yearId,
      classId: student.classId,
    });
    const subjects = new Map(all.map((h) => [h.subjectId, h.subjectName]));
    const rows = all
      .filter((h) => !q.subjectId || h.subjectId === q.subjectId)
      .filter((h) => (!q.from || h.dueDate >= q.from) && (!q.to || h.startDate <= q.to));
    const ids = rows.map((r) => r.id);
    const [sheets, answers, sums, snapshotOf] = await Promise.all([
      this.core.repo.sheetTotals(ids),
      this.core.repo.studentAnswers(student.id, ids),
      this.core.repo.questionSums(ids),
      this.core.repo.papersOf(ids),
    ]);
    const sumOf = new Map(sums.map((s) => [`${s.homeworkId}|${s.questionId}`, s]));
    const gradeRate = (hid: string, qid: string) => {
      const s = sumOf.get(`${hid}|${qid}`);
      return s && s.full > 0 ? s.scored / s.full : 0;
    };
    const trend: StudentAnalysis['trend'] = [];
    const wrongQuestions: WrongQuestion[] = [];
    const kp = new Map<string, KnowledgeSums>();
    const ordered = [...rows].sort(
      (a, b) => a.startDate.localeCompare(b.startDate) || a.createdAt.localeCompare(b.createdAt),
    );
    for (const h of ordered) {
      const mine = sheets.find((s) => s.homeworkId === h.id && s.studentId === student.id);
      const point = trendPoint(h, sheets, mine, student.classId, settings);
      if (!point) continue;
      trend.push(point);
      const paper = snapshotOf.get(h.id);
      if (!paper || !mine) continue;
      const mineAnswers = answers.filter((a) => a.homeworkId === h.id);
      collectAnswers(h, questionsOf(paper), mineAnswers, student.id, gradeRate, kp, wrongQuestions);
    }
    wrongQuestions.sort((a, b) => b.date.localeCompare(a.date) || Number(a.no) - Number(b.no));
    const scoredTrend = trend.filter((t) => t.scoreRate !== null);
    const criticalCount = criticalCountOf(scoredTrend, settings);
    return {
      student: {
        id: student.id,
        name: student.name,
        studentNo: student.studentNo,
        classId: student.classId,
        className: student.className,
      },
      subjects: [...subjects.entries()].map(([id, name]) => ({ id, name })),
      subjectId: q.subjectId ?? null,
      showRank: settings.showRank,
      summary: {
        homeworkCount: scoredTrend.length,
        averageScoreRate: rate(mean(scoredTrend.map((t) => t.scoreRate!))),
        gradeAverageScoreRate: rate(
          mean(scoredTrend.map((t) => (t.fullScore > 0 ? t.gradeAverage / t.fullScore : 0))),
        ),
        rateChange:
          scoredTrend.length >= 2
            ? Math.round((scoredTrend.at(-1)!.scoreRate! - scoredTrend[0]!.scoreRate!) * 10000) / 10000
            : null,
        criticalCount,
        wrongCount: wrongQuestions.length,
      },
      trend,
      knowledgePoints: knowledgePointRows(kp),
      wrongQuestions,
      generatedAt: nowIso(this.core.clock),
    };
  }

  // ───────────── crops, score sheets, 错题本 ─────────────

  async crop(auth: AuthContext, homeworkId: string, studentId: string, questionId: string) {
    const orgId = requireSchool(auth);
    await this.core.homeworkRow(orgId, homeworkId);
    const answer = await this.core.repo.findAnswerCrop(orgId, homeworkId, studentId, questionId);
    if (!answer) throw notFound(ANALYSIS_MESSAGES.answerNotFound);
    if (!answer.cropPath) throw notFound(ANALYSIS_MESSAGES.cropNotFound);
    let bytes: Buffer;
    try {
      bytes = await this.core.readCrop(answer.cropPath);
    } catch {
      throw notFound(ANALYSIS_MESSAGES.cropNotFound);
    }
    const png = bytes.length > 4 && bytes[0] === 0x89 && bytes[1] === 0x50;
    return { bytes, mime: png ? 'image/png' : 'image/jpeg' };
  }

  async printGrade(
    auth: AuthContext,
    id: string,
    classId: string | undefined,
    order: 'rank' | 'number',
  ): Promise<PrintGrade> {
    const model = await this.core.model(auth, id, classId);
    const show = model.settings.showRank;
    const classes = model.classes.filter((c) => !classId || c.id === classId);
    return {
      homework: model.homework,
      showRank: show,
      columns: model.questions.map((q) => ({ questionId: q.questionId, no: q.no, fullScore: q.full })),
      classes: classes.map((c) => {
        let rows = model.resultRows(c.id);
        if (order === 'number')
          rows = [...rows].sort((a, b) => a.student.studentNo.localeCompare(b.student.studentNo));
        return {
          classId: c.id,
          className: c.name,
          summary: model.stats(model.rowsOf(c.id)),
          rows: rows.map((r, i) => ({
            index: i + 1,
            studentId: r.student.id,
            name: r.student.name,
            studentNo: r.student.studentNo,
            status: r.status,
            statusName: STUDENT_RESULT_STATUS_NAMES[r.status],
            objective: r.objective === null ? null : round2(r.objective),
            subjective: r.subjective === null ? null : round2(r.subjective),
            total: r.total === null ? null : round2(r.total),
            classRank: show ? r.classRank : null,
            gradeRank: show ? r.gradeRank : null,
            zScore: r.z === null ? null : Math.round(r.z * 100) / 100,
            tScore: r.z === null ? null : Math.round(tScore(r.z) * 10) / 10,
            scores: model.questions.map((_, i) => {
              const score = model.score(r, i);
              return score === null ? null : round2(score);
            }),
          })),
        };
      }),
      printedAt: nowIso(this.core.clock),
    };
  }

  async mistakeBook(auth: AuthContext, q: MistakeBookQuery): Promise<MistakeBook> {
    const analysis = await this.studentAnalysis(auth, {
      studentId: q.studentId,
      subjectId: q.subjectId,
      from: q.from,
      to: q.to,
    });
    const wrong = analysis.wrongQuestions.filter((w) => !q.homeworkId || w.homeworkId === q.homeworkId);
    const seen = new Set(wrong.map((w) => w.questionId));
    const entries = [];
    for (const w of wrong) {
      let similar: MistakeQuestion[] = [];
      if (q.similar > 0) {
        const found = await this.core.similar(auth, w.questionId, q.similar, [...seen]).catch(() => []);
        similar = found.map((s) => ({
          id: s.id,
          typeName: s.typeName,
          difficulty: s.difficulty,
          stem: s.stem,
          options: s.options,
          answer: s.answer,
          analysis: s.analysis,
          knowledgePoints: s.knowledgePoints,
        }));
        for (const s of similar) seen.add(s.id);
      }
      entries.push({ ...w, similar });
    }
    const questionIds = [
      ...new Set([
        ...entries.map((e) => e.questionId),
        ...entries.flatMap((e) => e.similar.map((s) => s.id)),
      ]),
    ];
    const subjectName = q.subjectId
      ? (analysis.subjects.find((s) => s.id === q.subjectId)?.name ?? '')
      : [...new Set(entries.map((e) => e.subjectName))].join('、');
    return {
      student: analysis.student,
      subjectName,
      generatedAt: nowIso(this.core.clock),
      entries,
      questionIds,
    };
  }

  /**
   * The 错题本 of several students (the given ones, else every student of the class), in that order, for the
   * printable PDF. Every student must be of the caller's school (404 otherwise); an empty class is refused.
   */
  async mistakeBooks(
    auth: AuthContext,
    q: MistakeBookPdf,
  ): Promise<{ books: MistakeBook[]; scopeName: string; source: string }> {
    const orgId = requireSchool(auth);
    const source = q.homeworkId
      ? (await this.core.homeworkRow(orgId, q.homeworkId)).title
      : q.from && q.to
        ? ANALYSIS_TEXT.rangeName(q.from, q.to)
        : '';
    let studentIds = [...new Set(q.studentIds ?? [])];
    let scopeName = '';
    if (q.classId !== undefined) {
      const roster = await this.core.students(auth, q.classId);
      scopeName = roster[0]?.className ?? '';
      if (studentIds.length === 0) studentIds = roster.map((s) => s.id);
    }
    if (studentIds.length === 0) throw new AppError('VALIDATION', ANALYSIS_MESSAGES.noStudents);
    const books: MistakeBook[] = [];
    for (const studentId of studentIds) {
      books.push(
        await this.mistakeBook(auth, {
          studentId,
          subjectId: q.subjectId,
          homeworkId: q.homeworkId,
          from: q.from,
          to: q.to,
          similar: q.similar,
        }),
      );
    }
    if (!scopeName)
      scopeName = books.length === 1 ? books[0]!.student.name : ANALYSIS_TEXT.studentCount(books.length);
    return { books, scopeName, source };
  }
}
