import {
  dayInZone,
  dayStartInZone,
  compareClassNames,
  MARKER_INDICATOR_NAMES,
  type AverageScore,
  type BigData,
  type HomeworkState,
  type MarkingReport,
  type SubjectStats,
  type SubjectStatsQuery,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { requireSchool } from '../../lib/scope.js';
import { nowIso } from '../../lib/ids.js';
import { homeworkState } from '../homework/service.js';
import { describe, markerVerdict, mean, rate, round2, scoreBands, standardDeviation } from './metrics.js';
import type { AnalysisRepository, HomeworkRecord } from './repository.js';
import type { AnalysisService } from './service.js';

// The data centre of grade directors (subject statistics, average scores, the marking report) and the large screen.
// Scoping and the shared reads (school year, homework presentation, models) come from the analysis service.

/** What the data centre needs of the analysis service. */
export type AnalysisCore = Pick<
  AnalysisService,
  'repo' | 'progress' | 'clock' | 'model' | 'present' | 'requireDirector' | 'settingsOf' | 'yearOf'
>;

const DAY_MS = 86_400_000;

type SheetTotal = Awaited<ReturnType<AnalysisRepository['sheetTotals']>>[number];
type HomeworkClass = Awaited<ReturnType<AnalysisRepository['classesOfHomework']>>[number];
type RateStats = (list: SheetTotal[]) => {
  count: number;
  scoreRate: number;
  passRate: number;
  goodRate: number;
  excellentRate: number;
};

/** Rates over sheets of papers with different full marks: each sheet counts by its own rate. */
function sheetRateStats(fullOf: Map<string, number>, settings: Parameters<typeof describe>[2]): RateStats {
  return (list) => {
    const rates = list.map((s) => {
      const full = fullOf.get(s.homeworkId)!;
      return full > 0 ? s.totalScoreTenths / 10 / full : 0;
    });
    const d = describe(rates, 1, settings);
    return {
      count: d.count,
      scoreRate: rate(d.average),
      passRate: rate(d.passRate),
      goodRate: rate(d.goodRate),
      excellentRate: rate(d.excellentRate),
    };
  };
}

/** One subject of the subject statistics: its totals, its classes and its homework in date order. */
function subjectEntry(
  subjectId: string,
  list: HomeworkRecord[],
  all: {
    scored: SheetTotal[];
    classes: HomeworkClass[];
    progress: Awaited<ReturnType<AnalysisCore['progress']['progressOf']>>;
    rateStats: RateStats;
  },
): SubjectStats['subjects'][number] {
  const { scored, classes, progress, rateStats } = all;
  const hids = new Set(list.map((h) => h.id));
  const mine = scored.filter((s) => hids.has(s.homeworkId));
  const overall = rateStats(mine);
  const classIds = [...new Set(classes.filter((c) => hids.has(c.homeworkId)).map((c) => c.classId))];
  return {
    subjectId,
    subjectName: list[0]!.subjectName,
    homeworkCount: list.filter((h) => h.type === 'homework').length,
    testCount: list.filter((h) => h.type === 'test').length,
    doneCount: list.filter((h) => homeworkState(progress.get(h.id)) === 'done').length,
    sheetCount: overall.count,
    scoreRate: overall.scoreRate,
    passRate: overall.passRate,
    goodRate: overall.goodRate,
    excellentRate: overall.excellentRate,
    classes: classIds
      .map((classId) => {
        const c = rateStats(mine.filter((s) => s.classId === classId));
        return {
          classId,
          className: classes.find((x) => x.classId === classId)!.name,
          homeworkCount: classes.filter((x) => x.classId === classId && hids.has(x.homeworkId)).length,
          sheetCount: c.count,
          scoreRate: c.scoreRate,
          passRate: c.passRate,
          excellentRate: c.excellentRate,
        };
      })
      .sort((a, b) => compareClassNames(a.className, b.className)),
    homework: [...list]
      .sort((a, b) => a.startDate.localeCompare(b.startDate))
      .map((h) => {
        const s = rateStats(mine.filter((x) => x.homeworkId === h.id));
        return {
          homeworkId: h.id,
          title: h.title,
          date: h.startDate,
          scoredCount: s.count,
          scoreRate: s.scoreRate,
          passRate: s.passRate,
        };
      }),
  };
}

type HomeworkModel = Awaited<ReturnType<AnalysisCore['model']>>;
type WrittenQuestion = { q: HomeworkModel['questions'][number]; i: number };
/** One written answer's current score and the person who gave it. */
type Mark = { userId: string; qi: number; rate: number; at: string };
type Verdicts = (list: Mark[]) => ReturnType<typeof markerVerdict>;

/** Who gave the current score of each written answer: the latest change by a person, where a score stands. */
function standingMarks(
  model: HomeworkModel,
  changes: Awaited<ReturnType<AnalysisRepository['markerChanges']>>,
  sheets: Awaited<ReturnType<AnalysisRepository['sheetStudents']>>,
  written: WrittenQuestion[],
): Mark[] {
  const studentOfSheet = new Map(sheets.map((s) => [s.id, s.studentId]));
  const qIndex = new Map(written.map((x) => [x.q.questionId, x.i]));
  const rowOf = new Map(model.rows.map((r) => [r.student.id, r]));
  // Latest person per answer whose score still stands.
  const markerOf = new Map<string, { userId: string; at: string }>();
  for (const c of changes) {
    if (!qIndex.has(c.questionId) || c.userId === null) continue;
    markerOf.set(`${c.sheetId}|${c.questionId}`, { userId: c.userId, at: c.createdAt });
  }
  const marks: Mark[] = [];
  for (const [key, m] of markerOf) {
    const [sheetId, questionId] = key.split('|') as [string, string];
    const qi = qIndex.get(questionId)!;
    const row = rowOf.get(studentOfSheet.get(sheetId) ?? '');
    const score = row ? model.score(row, qi) : null;
    if (score === null) continue;
    const full = model.questions[qi]!.full;
    marks.push({ userId: m.userId, qi, rate: full > 0 ? score / full : 0, at: m.at });
  }
  return marks;
}

/** A marker's verdict against everybody marking the same questions. */
function peerVerdicts(marks: Mark[]): Verdicts {
  const perQuestion = new Map<number, number[]>();
  for (const m of marks) perQuestion.set(m.qi, [...(perQuestion.get(m.qi) ?? []), m.rate]);
  const qMean = new Map([...perQuestion.entries()].map(([qi, rs]) => [qi, mean(rs)]));
  const qSd = new Map([...perQuestion.entries()].map(([qi, rs]) => [qi, standardDeviation(rs)]));
  return (list) =>
    markerVerdict({
      rates: list.map((m) => m.rate),
      peerMeans: list.map((m) => qMean.get(m.qi)!),
      peerSpread: mean(list.map((m) => qSd.get(m.qi)!)),
    });
}

/** Each marker's indicators, most answers scored first. */
function markerRows(
  model: HomeworkModel,
  marks: Mark[],
  names: Map<string, string>,
  verdictOf: Verdicts,
): MarkingReport['markers'] {
  const byUser = new Map<string, Mark[]>();
  for (const m of marks) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), m]);
  return [...byUser.entries()]
    .map(([userId, list]) => {
      const v = verdictOf(list);
      const ats = list.map((m) => m.at).sort();
      return {
        userId,
        name: names.get(userId) ?? '',
        scoredCount: list.length,
        questionNos: [...new Set(list.map((m) => m.qi))]
          .sort((a, b) => a - b)
          .map((qi) => model.questions[qi]!.no),
        scoreRate: rate(v.scoreRate),
        peerScoreRate: rate(v.peerScoreRate),
        deviation: Math.round(v.deviation * 10000) / 10000,
        spreadRatio: Math.round(v.spreadRatio * 100) / 100,
        middleShare: rate(v.middleShare),
        indicator: v.indicator,
        indicatorName: MARKER_INDICATOR_NAMES[v.indicator],
        firstScoredAt: ats[0] ?? null,
        lastScoredAt: ats.at(-1) ?? null,
      };
    })
    .sort((a, b) => b.scoredCount - a.scoredCount || a.name.localeCompare(b.name));
}

/** One written question's marking progress and the markers who scored it. */
function questionProgress(
  model: HomeworkModel,
  withSheet: HomeworkModel['rows'],
  q: WrittenQuestion['q'],
  i: number,
  marks: Mark[],
  names: Map<string, string>,
  verdictOf: Verdicts,
): MarkingReport['questions'][number] {
  const total = withSheet.length;
  const scores = withSheet.map((r) => model.score(r, i)).filter((s): s is number => s !== null);
  const avg = mean(scores);
  const qMarks = marks.filter((m) => m.qi === i);
  const users = [...new Set(qMarks.map((m) => m.userId))];
  return {
    questionId: q.questionId,
    no: q.no,
    typeName: q.typeName,
    fullScore: q.full,
    total,
    scored: scores.length,
    remaining: total - scores.length,
    progress: rate(total > 0 ? scores.length / total : 0),
    average: round2(avg),
    scoreRate: rate(q.full > 0 ? avg / q.full : 0),
    markers: users.map((userId) => {
      const list = qMarks.filter((m) => m.userId === userId);
      const v = verdictOf(list);
      return {
        userId,
        name: names.get(userId) ?? '',
        count: list.length,
        scoreRate: rate(v.scoreRate),
        indicator: v.indicator,
        indicatorName: MARKER_INDICATOR_NAMES[v.indicator],
      };
    }),
  };
}

/** The large screen's marking board: homework being scanned or marked first, ten at the most. */
function markingBoard(
  presented: Awaited<ReturnType<AnalysisCore['present']>>,
  counts: Awaited<ReturnType<AnalysisRepository['answerCounts']>>,
): BigData['marking'] {
  const activeStates: HomeworkState[] = ['scanning', 'marking'];
  return presented
    .filter((h) => h.state !== 'toScan')
    .sort((a, b) => Number(activeStates.includes(b.state)) - Number(activeStates.includes(a.state)))
    .slice(0, 10)
    .map((h) => {
      const c = counts.get(h.id);
      const students = h.classes.reduce((s, x) => s + x.studentCount, 0);
      const answers = (c?.sheets ?? 0) * h.questionCount;
      return {
        homeworkId: h.id,
        title: h.title,
        subjectName: h.subjectName,
        classNames: h.classes.map((x) => x.name).join('、'),
        state: h.state,
        stateName: h.stateName,
        scanRate: rate(students > 0 ? (c?.sheets ?? 0) / students : 0),
        markingRate: rate(answers > 0 ? (answers - (c?.unscored ?? 0)) / answers : 0),
      };
    });
}

export class DataCenter {
  constructor(private readonly core: AnalysisCore) {}

  async subjectStats(auth: AuthContext, q: SubjectStatsQuery): Promise<SubjectStats> {
    const orgId = this.core.requireDirector(auth);
    const year = await this.core.yearOf(auth, orgId, q.schoolYearId);
    if (!year) return { schoolYearId: null, schoolYearName: '', subjects: [] };
    const settings = await this.core.settingsOf(orgId);
    const rows = await this.core.repo.listHomework({
      orgId,
      yearId: year.id,
      type: q.type,
      from: q.from,
      to: q.to,
    });
    const ids = rows.map((r) => r.id);
    const [sheets, classes, progress] = await Promise.all([
      this.core.repo.sheetTotals(ids),
      this.core.repo.classesOfHomework(ids),
      this.core.progress.progressOf(orgId, ids),
    ]);
    const fullOf = new Map(rows.map((r) => [r.id, r.totalScoreTenths / 10]));
    const scored = sheets.filter((s) => s.unscoredCount === 0);
    const subjects = new Map<string, HomeworkRecord[]>();
    for (const r of rows) subjects.set(r.subjectId, [...(subjects.get(r.subjectId) ?? []), r]);
    const rateStats = sheetRateStats(fullOf, settings);
    return {
      schoolYearId: year.id,
      schoolYearName: year.name,
      subjects: [...subjects.entries()].map(([subjectId, list]) =>
        subjectEntry(subjectId, list, { scored, classes, progress, rateStats }),
      ),
    };
  }

  async averageScore(auth: AuthContext, homeworkId: string): Promise<AverageScore> {
    this.core.requireDirector(auth);
    const model = await this.core.model(auth, homeworkId);
    const questions = model.view('questions:', () => model.questionStats(model.rows));
    return {
      homework: model.homework,
      settings: model.settings,
      gradeSummary: model.stats(model.rows),
      classes: model.classStats(),
      questions: questions.map((q) => ({
        questionId: q.questionId,
        no: q.no,
        typeName: q.typeName,
        fullScore: q.fullScore,
        gradeAverage: q.average,
        gradeScoreRate: q.scoreRate,
        classes: q.classes,
      })),
    };
  }

  /**
   * Marking report: who gave the current score of each written answer (the latest change by a person in the score
   * log), progress per question, and each marker's indicators against everybody marking the same questions.
   */
  async markingReport(auth: AuthContext, homeworkId: string): Promise<MarkingReport> {
    this.core.requireDirector(auth);
    const model = await this.core.model(auth, homeworkId);
    const changes = await this.core.repo.markerChanges(homeworkId);
    const sheets = await this.core.repo.sheetStudents(homeworkId);
    const written = model.questions.map((q, i) => ({ q, i })).filter((x) => !x.q.objective);
    const marks = standingMarks(model, changes, sheets, written);
    const names = new Map(
      (await this.core.repo.userNames([...new Set(marks.map((m) => m.userId))])).map((u) => [
        u.id,
        u.nickname || u.username,
      ]),
    );
    const verdictOf = peerVerdicts(marks);
    const withSheet = model.rows.filter((r) => r.at !== null);
    const questions = written.map(({ q, i }) =>
      questionProgress(model, withSheet, q, i, marks, names, verdictOf),
    );
    const answers = questions.reduce((sum, q) => sum + q.total, 0);
    const scoredAnswers = questions.reduce((sum, q) => sum + q.scored, 0);
    return {
      homework: model.homework,
      progress: {
        sheets: withSheet.length,
        students: model.rows.length,
        answers,
        scored: scoredAnswers,
        remaining: answers - scoredAnswers,
        progress: rate(answers > 0 ? scoredAnswers / answers : 0),
      },
      markers: markerRows(model, marks, names, verdictOf),
      questions,
    };
  }

  // ───────────── the large screen ─────────────

  async bigData(auth: AuthContext): Promise<BigData> {
    const orgId = requireSchool(auth);
    const now = this.core.clock();
    const [org, year, settings] = await Promise.all([
      this.core.repo.org(orgId),
      this.core.yearOf(auth, orgId),
      this.core.settingsOf(orgId),
    ]);
    const today = dayInZone(now, org?.timeZone);
    const rows = year ? await this.core.repo.listHomework({ orgId, yearId: year.id }) : [];
    const ids = rows.map((r) => r.id);
    const [totals, sheets, counts, progress, activity, lastScored] = await Promise.all([
      this.core.repo.schoolTotals(orgId, year?.id ?? null),
      this.core.repo.sheetTotals(ids),
      this.core.repo.answerCounts(ids),
      this.core.progress.progressOf(orgId, ids),
      this.core.repo.activitySince(orgId, dayStartInZone(today, org?.timeZone)),
      this.core.repo.lastScoredAt(ids),
    ]);
    const presented = await this.core.present(orgId, rows.slice(0, 40));
    const fullOf = new Map(rows.map((r) => [r.id, r.totalScoreTenths / 10]));
    const rateOf = (s: (typeof sheets)[number]) => {
      const full = fullOf.get(s.homeworkId)!;
      return full > 0 ? s.totalScoreTenths / 10 / full : 0;
    };
    const scored = sheets.filter((s) => s.unscoredCount === 0);
    const marking = markingBoard(presented, counts);
    const allRates = scored.map(rateOf);
    return {
      school: {
        id: orgId,
        name: org?.name ?? '',
        logoUrl: org?.logoPath ? `/files/${org.logoPath}` : null,
      },
      schoolYearName: year?.name ?? '',
      generatedAt: nowIso(this.core.clock),
      refreshSeconds: 60,
      totals: {
        students: totals.students,
        classes: totals.classes,
        teachers: totals.teachers,
        homework: rows.length,
        sheets: scored.length,
        scoreRate: rate(mean(allRates)),
      },
      today: {
        date: today,
        active: rows.filter((r) => r.startDate <= today && r.dueDate >= today).length,
        published: activity.published,
        sheets: activity.sheets,
        answersScored: activity.scored,
        completed: rows.filter(
          (r) =>
            homeworkState(progress.get(r.id)) === 'done' &&
            lastScored.has(r.id) &&
            dayInZone(lastScored.get(r.id)!, org?.timeZone) === today,
        ).length,
      },
      marking,
      ...(await this.scoreGroups(orgId, year, rows, scored, rateOf, settings.bandStep, now)),
    };
  }

  /** The large screen's score trend (120 days, the last 30 days with scores), subjects, classes and bands. */
  private async scoreGroups(
    orgId: string,
    year: { id: string } | null | undefined,
    rows: HomeworkRecord[],
    scored: SheetTotal[],
    rateOf: (s: SheetTotal) => number,
    bandStep: number,
    now: number,
  ): Promise<Pick<BigData, 'scoreTrend' | 'subjects' | 'classes' | 'bands'>> {
    const byDay = new Map<string, number[]>();
    const startOf = new Map(rows.map((r) => [r.id, r.startDate]));
    for (const s of scored) {
      const day = startOf.get(s.homeworkId)!;
      byDay.set(day, [...(byDay.get(day) ?? []), rateOf(s)]);
    }
    const bySubject = new Map<string, { name: string; homework: Set<string>; rates: number[] }>();
    for (const r of rows) {
      const e = bySubject.get(r.subjectId) ?? { name: r.subjectName, homework: new Set(), rates: [] };
      e.homework.add(r.id);
      bySubject.set(r.subjectId, e);
    }
    const subjectOf = new Map(rows.map((r) => [r.id, r.subjectId]));
    for (const s of scored) bySubject.get(subjectOf.get(s.homeworkId)!)!.rates.push(rateOf(s));
    const byClass = new Map<string, { homework: Set<string>; rates: number[] }>();
    for (const s of scored) {
      const e = byClass.get(s.classId) ?? { homework: new Set(), rates: [] };
      e.homework.add(s.homeworkId);
      e.rates.push(rateOf(s));
      byClass.set(s.classId, e);
    }
    const classNames = new Map(
      (year ? await this.core.repo.classesOfYear(orgId, year.id) : []).map((c) => [c.id, c.name]),
    );
    const allRates = scored.map(rateOf);
    return {
      scoreTrend: [...byDay.entries()]
        .sort((a, b) => a[0].localeCompare(b[0]))
        .filter(([day]) => Date.parse(`${day}T00:00:00Z`) > now - 120 * DAY_MS)
        .slice(-30)
        .map(([date, rates]) => ({ date, scoreRate: rate(mean(rates)), sheets: rates.length })),
      subjects: [...bySubject.entries()]
        .map(([subjectId, e]) => ({
          subjectId,
          subjectName: e.name,
          homeworkCount: e.homework.size,
          scoreRate: rate(mean(e.rates)),
        }))
        .sort((a, b) => b.homeworkCount - a.homeworkCount),
      classes: [...byClass.entries()]
        .map(([classId, e]) => ({
          classId,
          className: classNames.get(classId) ?? '',
          homeworkCount: e.homework.size,
          scoreRate: rate(mean(e.rates)),
        }))
        .sort((a, b) => b.scoreRate - a.scoreRate),
      bands: scoreBands(allRates, 1, bandStep).map((b) => ({
        ...b,
        from: Math.round(b.from * 100),
        to: Math.round(b.to * 100),
        rate: rate(b.rate),
      })),
    };
  }
}
