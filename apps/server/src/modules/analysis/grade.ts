import {
  HOMEWORK_TYPE_NAMES,
  type AnalysisHomework,
  type ClassAnalysis,
  type ClassTrendPoint,
  type GradeTrend,
  type GradeTrendQuery,
  type HomeworkType,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { requireSchool } from '../../lib/scope.js';
import { describe, overAverageRate, rate, ranks, round2 } from './metrics.js';
import type { HomeworkRecord } from './repository.js';
import type { AnalysisService } from './service.js';

// The class and the grade across homework: the class report (with its trend), and the grade trend. Trend points are
// computed from sheet totals only and kept per homework (ADR 0021).

/** What the class and grade views need of the analysis service. */
export type GradeCore = Pick<AnalysisService, 'repo' | 'model' | 'points' | 'settingsOf' | 'yearOf'>;

export type TrendPoint = GradeTrend['points'][number];

export class GradeAnalysis {
  constructor(private readonly core: GradeCore) {}

  async classAnalysis(auth: AuthContext, homeworkId: string, classId: string): Promise<ClassAnalysis> {
    const model = await this.core.model(auth, homeworkId, classId);
    const a = model.view(`analysis:${classId}`, () => model.analysis(classId));
    const mine = a.classes.find((c) => c.classId === classId)!;
    const gradeQuestions = model.view('questions:', () => model.questionStats(model.rows));
    const trend = await this.classTrend(auth, model.homework, classId);
    return {
      homework: a.homework,
      class: { id: classId, name: mine.className, teacherNames: mine.teacherNames },
      settings: a.settings,
      summary: a.summary,
      gradeSummary: a.gradeSummary,
      averageDiff: mine.averageDiff,
      overAverageRate: mine.overAverageRate,
      classRank: mine.rank,
      classCount: a.classes.length,
      bands: a.bands,
      classes: a.classes,
      questions: a.questions.map((q, i) => ({
        ...q,
        gradeAverage: gradeQuestions[i]!.average,
        gradeScoreRate: gradeQuestions[i]!.scoreRate,
        rateDiff: Math.round((q.scoreRate - gradeQuestions[i]!.scoreRate) * 10000) / 10000,
      })),
      knowledgePoints: a.knowledgePoints,
      cronbachAlpha: a.cronbachAlpha,
      criticalStudents: a.criticalStudents,
      students: a.students,
      trend,
      generatedAt: a.generatedAt,
    };
  }

  /** The class's homework of the subject up to this one: class vs grade per homework (oldest first). */
  private async classTrend(
    auth: AuthContext,
    hw: AnalysisHomework,
    classId: string,
  ): Promise<ClassTrendPoint[]> {
    const orgId = requireSchool(auth);
    const contextBefore = await this.core.points.contextVersion(orgId);
    const rows = (
      await this.core.repo.listHomework(
        { orgId, yearId: hw.schoolYearId, subjectId: hw.subjectId, classId, to: hw.startDate },
        30,
      )
    ).slice(0, 10);
    if (!rows.some((r) => r.id === hw.id))
      rows.unshift((await this.core.repo.listHomework({ orgId, ids: [hw.id] }))[0]!);
    const points = await this.trendPoints(orgId, rows, contextBefore);
    return points
      .filter((p) =>
        p.classes.some((c) => c.classId === classId && (c.scoredCount > 0 || !c.markingComplete)),
      )
      .map((p) => {
        const c = p.classes.find((x) => x.classId === classId)!;
        return {
          homeworkId: p.homeworkId,
          title: p.title,
          date: p.date,
          fullScore: p.fullScore,
          classAverage: c.average,
          gradeAverage: p.average,
          classScoreRate: c.scoreRate,
          gradeScoreRate: p.scoreRate,
          overAverageRate: c.overAverageRate,
          classRank: c.rank,
          classCount: p.classes.length,
          markingComplete: c.markingComplete,
        };
      });
  }

  /**
   * Grade and class figures of several homework from sheet totals only (oldest first). Each homework's point is
   * kept in memory while its results and the context are unchanged (ADR 0021).
   */
  private async trendPoints(
    orgId: string,
    rows: HomeworkRecord[],
    contextBefore: string,
  ): Promise<TrendPoint[]> {
    if (rows.length === 0) return [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const points = await this.core.points.getMany(
      orgId,
      rows.map((r) => r.id),
      (id) => `point:${id}`,
      contextBefore,
      async (missing) =>
        this.computePoints(
          orgId,
          missing.map((id) => byId.get(id)!),
        ),
    );
    return [...rows]
      .sort((a, b) => a.startDate.localeCompare(b.startDate) || a.createdAt.localeCompare(b.createdAt))
      .map((h) => points.get(h.id)!);
  }

  private async computePoints(orgId: string, rows: HomeworkRecord[]): Promise<Map<string, TrendPoint>> {
    const settings = await this.core.settingsOf(orgId);
    const [classes, sheets, pending] = await Promise.all([
      this.core.repo.classesOfHomework(rows.map((r) => r.id)),
      this.core.repo.scoredTotals(rows.map((r) => r.id)),
      this.core.repo.pendingSheets(rows.map((r) => r.id)),
    ]);
    const pendingIn = (homeworkId: string, classId?: string) =>
      pending.some((p) => p.homeworkId === homeworkId && (!classId || p.classId === classId) && p.n > 0);
    const byHomework = new Map<string, typeof sheets>();
    for (const s of sheets) {
      const list = byHomework.get(s.homeworkId);
      if (list) list.push(s);
      else byHomework.set(s.homeworkId, [s]);
    }
    return new Map(
      rows.map((h) => {
        const full = h.totalScoreTenths / 10;
        const list = byHomework.get(h.id) ?? [];
        const totals = list.map((s) => s.totalScoreTenths / 10);
        const d = describe(totals, full, settings);
        const cls = classes
          .filter((c) => c.homeworkId === h.id)
          .map((c) => {
            const t = list.filter((s) => s.classId === c.classId).map((s) => s.totalScoreTenths / 10);
            const cd = describe(t, full, settings);
            return {
              classId: c.classId,
              className: c.name,
              scoredCount: cd.count,
              average: round2(cd.average),
              scoreRate: rate(cd.scoreRate),
              passRate: rate(cd.passRate),
              overAverageRate: Math.round(overAverageRate(cd.average, d.average) * 10000) / 10000,
              rank: 1,
              markingComplete: !pendingIn(h.id, c.classId),
            };
          });
        const r = ranks(cls.map((c) => (c.scoredCount ? c.average : -1)));
        cls.forEach((c, i) => (c.rank = r[i]!));
        const point: TrendPoint = {
          homeworkId: h.id,
          title: h.title,
          typeName: HOMEWORK_TYPE_NAMES[h.type as HomeworkType] ?? h.type,
          date: h.startDate,
          fullScore: full,
          scoredCount: d.count,
          average: round2(d.average),
          scoreRate: rate(d.scoreRate),
          passRate: rate(d.passRate),
          excellentRate: rate(d.excellentRate),
          standardDeviation: round2(d.standardDeviation),
          markingComplete: !pendingIn(h.id),
          classes: cls,
        };
        return [h.id, point] as const;
      }),
    );
  }

  async gradeTrend(auth: AuthContext, q: GradeTrendQuery): Promise<GradeTrend> {
    const orgId = requireSchool(auth);
    const [contextBefore, year] = await Promise.all([
      this.core.points.contextVersion(orgId),
      this.core.yearOf(auth, orgId, q.schoolYearId),
    ]);
    const rows = year
      ? await this.core.repo.listHomework(
          { orgId, yearId: year.id, subjectId: q.subjectId, type: q.type, from: q.from, to: q.to },
          q.limit,
        )
      : [];
    const points = (await this.trendPoints(orgId, rows, contextBefore)).filter(
      (p) => p.scoredCount > 0 || !p.markingComplete,
    );
    const classes = new Map<string, string>();
    for (const p of points) for (const c of p.classes) classes.set(c.classId, c.className);
    return {
      subjectId: q.subjectId,
      subjectName: rows[0]?.subjectName ?? '',
      classes: [...classes.entries()].map(([id, name]) => ({ id, name })),
      points,
    };
  }
}
