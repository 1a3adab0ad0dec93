import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import {
  ANALYSIS_MESSAGES,
  AnalysisSettingsSchema,
  HOMEWORK_STATE_NAMES,
  HOMEWORK_TYPE_NAMES,
  HomeworkPaperSchema,
  type AnalysisFilters,
  type AnalysisHomework,
  type AnalysisHomeworkItem,
  type AnalysisHomeworksQuery,
  type AnalysisSettings,
  type AnalysisSettingsView,
  type AnalysisStudent,
  type AverageScore,
  type BigData,
  type ClassAnalysis,
  type ClassTrendPoint,
  type Commentary,
  type GradeTrend,
  type GradeTrendQuery,
  type HomeworkAnalysis,
  type HomeworkDetails,
  type HomeworkState,
  type HomeworkType,
  type MarkingReport,
  type MistakeBook,
  type MistakeBookQuery,
  type MistakeBookPdf,
  type PrintGrade,
  type Question,
  type StudentAnalysis,
  type StudentAnalysisQuery,
  type SubjectStats,
  type SubjectStatsQuery,
} from '@zhzy/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ok, type AuthContext } from '../../lib/call.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { nowIso } from '../../lib/ids.js';
import { homeworkState, type HomeworkProgressSource } from '../homework/service.js';
import { packLayout } from '../results/packing.js';
import { ResultsService } from '../results/service.js';
import { describe, mean, overAverageRate, rate, ranks, round2 } from './metrics.js';
import { AnalysisCache, contextKeys, type CacheCounter, type Versions } from './cache.js';
import { HomeworkModel, questionsOf, type ModelClass, type ModelStudent } from './model.js';
import type { AnalysisRepository } from './repository.js';
import { DataCenter } from './data-center.js';
import { PersonAnalysis } from './person.js';

// The rules of analysis: who may read what (every call scoped to the caller's school; the data centre to grade
// directors; settings to administrators), which rows make a view, and the views across homework (trends, the
// student, the data centre, the large screen). Per-homework computing is model.ts's.

/** Similar questions from the bank (the catalog's 举一反三); [] when the question is gone. */
export type SimilarLookup = (
  auth: AuthContext,
  questionId: string,
  size: number,
  exclude: string[],
) => Promise<Question[]>;

/** Reads a crop image from the page store. */
export type CropReader = (relativePath: string) => Promise<Buffer>;

type HomeworkRow = Awaited<ReturnType<AnalysisRepository['listHomework']>>[number];

/** Models kept (one of 2,000 students × 30 questions is a few megabytes with its views). */
const MODEL_CACHE_SIZE = 12;
/** Trend points kept (one per homework, a few kilobytes). */
const POINT_CACHE_SIZE = 5000;

type TrendPoint = GradeTrend['points'][number];

export class AnalysisService {
  /** The results spine: sheets, answers and their versions are read through it. */
  private readonly results: ResultsService;

  constructor(
    readonly repo: AnalysisRepository,
    readonly progress: HomeworkProgressSource,
    readonly clock: () => number,
    readonly similar: SimilarLookup,
    readonly readCrop: CropReader,
    db: Kysely<Database>,
    counter?: (cache: 'model' | 'point') => CacheCounter,
  ) {
    this.results = new ResultsService(db, clock);
    this.models = new AnalysisCache(db, MODEL_CACHE_SIZE, counter?.('model'));
    this.points = new AnalysisCache(db, POINT_CACHE_SIZE, counter?.('point'));
  }

  /** Computed models of homework, and trend points of homework, validated on every read (ADR 0021). */
  readonly models: AnalysisCache<HomeworkModel>;
  readonly points: AnalysisCache<TrendPoint>;

  // ───────────── settings ─────────────

  async settingsOf(orgId: string): Promise<AnalysisSettings> {
    const row = await this.repo.settingsOf(orgId);
    if (!row) return AnalysisSettingsSchema.parse({});
    const parsed = AnalysisSettingsSchema.safeParse(JSON.parse(row.settings));
    return parsed.success ? parsed.data : AnalysisSettingsSchema.parse({});
  }

  async settings(auth: AuthContext): Promise<AnalysisSettingsView> {
    const orgId = requireSchool(auth);
    const row = await this.repo.settingsOf(orgId);
    return {
      settings: await this.settingsOf(orgId),
      saved: row !== undefined,
      editable: auth.isCreator || auth.isAdministrator,
      updatedAt: row?.updated_at ?? null,
    };
  }

  async saveSettings(auth: AuthContext, settings: AnalysisSettings): Promise<AnalysisSettingsView> {
    const orgId = requireSchool(auth);
    if (!auth.isCreator && !auth.isAdministrator) throw forbidden(ANALYSIS_MESSAGES.settingsAdminsOnly);
    await this.repo.saveSettings(orgId, JSON.stringify(settings), auth.userId, nowIso(this.clock));
    return this.settings(auth);
  }

  /** @internal shared with the use-case files */
  requireDirector(auth: AuthContext): string {
    const orgId = requireSchool(auth);
    if (!auth.isGradeDirector) throw forbidden(ANALYSIS_MESSAGES.directorsOnly);
    return orgId;
  }

  // ───────────── school years, pickers ─────────────

  /** The asked school year of the school, or the caller's default one (null when the school has none). */
  /** @internal shared with the use-case files */
  async yearOf(auth: AuthContext, orgId: string, yearId?: string) {
    const years = await this.repo.schoolYears(orgId);
    if (yearId) {
      const year = years.find((y) => y.id === yearId);
      if (!year) throw notFound(ANALYSIS_TEXT.yearNotFound);
      return year;
    }
    const membership = await this.repo.membership(orgId, auth.userId);
    return (
      years.find((y) => y.id === membership?.default_year_id) ??
      years.find((y) => y.is_default === 1) ??
      years[0] ??
      null
    );
  }

  async filters(auth: AuthContext, yearId?: string): Promise<AnalysisFilters> {
    const orgId = requireSchool(auth);
    const year = await this.yearOf(auth, orgId, yearId);
    const homework = year ? await this.repo.listHomework({ orgId, yearId: year.id }) : [];
    const subjects = new Map<string, AnalysisFilters['subjects'][number]>();
    for (const h of homework) {
      const s = subjects.get(h.subject_id) ?? {
        id: h.subject_id,
        name: h.subject_name,
        stageName: h.stage_name,
        homeworkCount: 0,
      };
      s.homeworkCount += 1;
      subjects.set(h.subject_id, s);
    }
    const classes = year ? await this.repo.classesOfYear(orgId, year.id) : [];
    const counts = await this.repo.studentCounts(classes.map((c) => c.id));
    return {
      schoolYearId: year?.id ?? null,
      schoolYearName: year?.name ?? '',
      subjects: [...subjects.values()].sort(
        (a, b) => b.homeworkCount - a.homeworkCount || a.name.localeCompare(b.name),
      ),
      classes: classes.map((c) => ({ id: c.id, name: c.name, studentCount: counts.get(c.id) ?? 0 })),
      gradeDirector: auth.isGradeDirector,
      settings: await this.settingsOf(orgId),
    };
  }

  async students(auth: AuthContext, classId: string, keyword?: string): Promise<AnalysisStudent[]> {
    const orgId = requireSchool(auth);
    const cls = await this.repo.findClass(orgId, classId);
    if (!cls) throw notFound(ANALYSIS_MESSAGES.classNotFound);
    const k = keyword?.toLowerCase();
    return (await this.repo.studentsOfClasses([classId]))
      .filter((s) => !k || s.name.toLowerCase().includes(k) || s.student_no.toLowerCase().includes(k))
      .map((s) => ({
        id: s.id,
        name: s.name,
        studentNo: s.student_no,
        classId: s.class_id,
        className: s.class_name,
      }));
  }

  /** Homework rows with their classes and states, as analysis headers. */
  /** @internal shared with the use-case files */
  async present(orgId: string, rows: HomeworkRow[]): Promise<AnalysisHomework[]> {
    const ids = rows.map((r) => r.id);
    const [classes, progress] = await Promise.all([
      this.repo.classesOfHomework(ids),
      this.progress.progressOf(orgId, ids),
    ]);
    const counts = await this.repo.studentCounts([...new Set(classes.map((c) => c.class_id))]);
    return rows.map((h) => {
      const state: HomeworkState = homeworkState(progress.get(h.id));
      return {
        id: h.id,
        title: h.title,
        type: h.type as HomeworkType,
        typeName: HOMEWORK_TYPE_NAMES[h.type as HomeworkType] ?? h.type,
        state,
        stateName: HOMEWORK_STATE_NAMES[state],
        stageName: h.stage_name,
        subjectId: h.subject_id,
        subjectName: h.subject_name,
        schoolYearId: h.year_id,
        startDate: h.start_date,
        dueDate: h.due_date,
        fullScore: h.total_score_tenths / 10,
        questionCount: h.question_count,
        classes: classes
          .filter((c) => c.homework_id === h.id)
          .map((c) => ({ id: c.class_id, name: c.name, studentCount: counts.get(c.class_id) ?? 0 })),
        createdByName: h.creator_nickname || h.creator_username || '',
      };
    });
  }

  async homeworks(auth: AuthContext, q: AnalysisHomeworksQuery) {
    const orgId = requireSchool(auth);
    const year = await this.yearOf(auth, orgId, q.schoolYearId);
    if (!year) return { records: [], total: 0, page: q.page, size: q.size };
    const rows = await this.repo.listHomework({
      orgId,
      yearId: year.id,
      subjectId: q.subjectId,
      classId: q.classId,
      type: q.type,
      from: q.from,
      to: q.to,
    });
    const counts = await this.repo.answerCounts(rows.map((r) => r.id));
    const withResults = q.withResults ?? true;
    const kept = withResults ? rows.filter((r) => (counts.get(r.id)?.scoredSheets ?? 0) > 0) : rows;
    const slice = kept.slice((q.page - 1) * q.size, q.page * q.size);
    const presented = await this.present(orgId, slice);
    const totals = await this.repo.sheetTotals(slice.map((r) => r.id));
    const records: AnalysisHomeworkItem[] = presented.map((h, i) => {
      const c = counts.get(h.id);
      const scored = totals.filter((t) => t.homework_id === h.id && t.unscored_count === 0);
      const avg = mean(scored.map((t) => t.total_score_tenths / 10));
      const answers = (c?.sheets ?? 0) * slice[i]!.question_count;
      return {
        ...h,
        studentCount: h.classes.reduce((s, x) => s + x.studentCount, 0),
        scoredCount: c?.scoredSheets ?? 0,
        pendingCount: (c?.sheets ?? 0) - (c?.scoredSheets ?? 0),
        markingRate: rate(answers > 0 ? (answers - (c?.unscored ?? 0)) / answers : 0),
        average: scored.length ? round2(avg) : null,
        scoreRate: scored.length ? rate(h.fullScore > 0 ? avg / h.fullScore : 0) : null,
      };
    });
    return { records, total: kept.length, page: q.page, size: q.size };
  }

  // ───────────── one homework ─────────────

  /** @internal shared with the use-case files */
  async homeworkRow(orgId: string, id: string) {
    const row = await this.repo.findHomework(orgId, id);
    if (!row) throw notFound(ANALYSIS_MESSAGES.homeworkNotFound);
    return row;
  }

  /**
   * One homework's results as a model: kept in memory while the homework's results, the earlier homework the
   * model compares with and the context are unchanged in the database (ADR 0021), else loaded anew.
   */
  async model(auth: AuthContext, homeworkId: string, classId?: string): Promise<HomeworkModel> {
    const orgId = requireSchool(auth);
    const model = await this.models.get(
      orgId,
      homeworkId,
      [homeworkId],
      (stamp) => this.loadModel(orgId, homeworkId, stamp),
      (previous, was, now) => this.refreshModel(orgId, homeworkId, previous, was, now),
    );
    if (classId !== undefined && !model.classes.some((c) => c.id === classId))
      throw notFound(ANALYSIS_MESSAGES.classNotInHomework);
    return model;
  }

  /** Loads one homework's results into the model (with each student's previous score rate of the subject). */
  private async loadModel(
    orgId: string,
    homeworkId: string,
    stamp: (keys: readonly string[]) => Promise<void>,
  ): Promise<HomeworkModel> {
    const row = await this.homeworkRow(orgId, homeworkId);
    const [homework] = await this.present(orgId, [row]);
    const paper = HomeworkPaperSchema.parse(JSON.parse(row.paper_snapshot));
    const classIds = homework!.classes.map((c) => c.id);
    const layout = packLayout(questionsOf(paper).map((q) => q.questionId));
    const [students, { sheets, packed, answers }, teachers, settings, previousRates] = await Promise.all([
      this.repo.studentsOfClasses(classIds),
      this.results.sheetsWithAnswers(homeworkId, layout),
      this.repo.teachersOf(orgId, row.subject_id, classIds),
      this.settingsOf(orgId),
      this.previousRates(orgId, row, stamp),
    ]);
    const classes: ModelClass[] = homework!.classes.map((c) => ({
      ...c,
      teacherNames: (teachers.get(c.id) ?? []).join('、'),
    }));
    const modelStudents: ModelStudent[] = students.map((s) => ({
      id: s.id,
      name: s.name,
      studentNo: s.student_no,
      classId: s.class_id,
      className: s.class_name,
    }));
    return new HomeworkModel({
      homework: homework!,
      paper,
      classes,
      students: modelStudents,
      sheets,
      packed,
      answers,
      settings,
      previousRates,
      now: nowIso(this.clock),
    });
  }

  /**
   * A kept model brought up to date when only results changed (the context is the same, so the homework, its
   * classes, students, settings and the earlier homework compared with are too): re-reads the sheets written since
   * the model's version with their answers, and the previous score rates only when an earlier homework's results
   * moved (ADR 0030). The header is read anew (its state follows the results).
   */
  private async refreshModel(
    orgId: string,
    homeworkId: string,
    previous: HomeworkModel,
    was: Versions,
    now: Versions,
  ): Promise<HomeworkModel> {
    const row = await this.homeworkRow(orgId, homeworkId);
    const since = was.get(homeworkId) ?? 0;
    const earlierMoved = [...was.keys()].some(
      (k) => k !== homeworkId && !contextKeys(orgId).includes(k) && was.get(k) !== now.get(k),
    );
    const [[homework], { sheets, packed, answers }, previousRates] = await Promise.all([
      this.present(orgId, [row]),
      since === now.get(homeworkId)
        ? { sheets: [], packed: undefined, answers: [] }
        : this.results.sheetsWithAnswers(homeworkId, previous.layout, since),
      earlierMoved ? this.previousRates(orgId, row, () => Promise.resolve()) : previous.previousRates,
    ]);
    return new HomeworkModel(
      {
        homework: homework!,
        paper: previous.paper,
        classes: previous.classes,
        students: previous.rows.map((r) => r.student),
        sheets,
        packed,
        answers,
        settings: previous.settings,
        previousRates,
        now: nowIso(this.clock),
      },
      previous,
    );
  }

  /** Each student's score rate in the latest earlier homework of the same subject and year (up to 5 back). */
  private async previousRates(
    orgId: string,
    row: HomeworkRow,
    stamp: (keys: readonly string[]) => Promise<void>,
  ): Promise<Map<string, number>> {
    const earlier = (
      await this.repo.listHomework(
        { orgId, yearId: row.year_id, subjectId: row.subject_id, to: row.start_date },
        12,
      )
    )
      .filter((h) => h.id !== row.id && (h.start_date < row.start_date || h.created_at < row.created_at))
      .slice(0, 5);
    const out = new Map<string, number>();
    if (earlier.length === 0) return out;
    await stamp(earlier.map((h) => h.id));
    const fullOf = new Map(earlier.map((h) => [h.id, h.total_score_tenths]));
    const order = new Map(earlier.map((h, i) => [h.id, i]));
    const best = new Map<string, number>();
    for (const s of await this.repo.scoredTotals(earlier.map((h) => h.id))) {
      const i = order.get(s.homework_id)!;
      if ((best.get(s.student_id) ?? Infinity) <= i) continue;
      best.set(s.student_id, i);
      const full = fullOf.get(s.homework_id)!;
      out.set(s.student_id, full > 0 ? s.total_score_tenths / full : 0);
    }
    return out;
  }

  /**
   * A per-homework view as the JSON body of a successful call, serialised once per model: a 2,000-student
   * analysis is a megabyte of JSON, which costs more to write than the rest of a read served from memory.
   */
  async viewJson(
    auth: AuthContext,
    view: 'analysis' | 'commentary' | 'details',
    id: string,
    classId?: string,
  ): Promise<string> {
    const model = await this.model(auth, id, classId);
    return model.view(`${view}:json:${classId ?? ''}`, () =>
      JSON.stringify(
        ok(
          view === 'analysis'
            ? model.view(`analysis:${classId ?? ''}`, () => model.analysis(classId ?? null))
            : view === 'commentary'
              ? model.view(`commentary:${classId ?? ''}`, () => model.commentary(classId ?? null))
              : model.view(`details:${classId ?? ''}`, () => model.details(classId ?? null)),
        ),
      ),
    );
  }

  async homeworkAnalysis(auth: AuthContext, id: string, classId?: string): Promise<HomeworkAnalysis> {
    const model = await this.model(auth, id, classId);
    return model.view(`analysis:${classId ?? ''}`, () => model.analysis(classId ?? null));
  }

  async commentary(auth: AuthContext, id: string, classId?: string): Promise<Commentary> {
    const model = await this.model(auth, id, classId);
    return model.view(`commentary:${classId ?? ''}`, () => model.commentary(classId ?? null));
  }

  async details(auth: AuthContext, id: string, classId?: string): Promise<HomeworkDetails> {
    const model = await this.model(auth, id, classId);
    return model.view(`details:${classId ?? ''}`, () => model.details(classId ?? null));
  }

  async classAnalysis(auth: AuthContext, homeworkId: string, classId: string): Promise<ClassAnalysis> {
    const model = await this.model(auth, homeworkId, classId);
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
    const contextBefore = await this.points.contextVersion(orgId);
    const rows = (
      await this.repo.listHomework(
        { orgId, yearId: hw.schoolYearId, subjectId: hw.subjectId, classId, to: hw.startDate },
        30,
      )
    ).slice(0, 10);
    if (!rows.some((r) => r.id === hw.id))
      rows.unshift((await this.repo.listHomework({ orgId, ids: [hw.id] }))[0]!);
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

  // ───────────── across homework ─────────────

  /**
   * Grade and class figures of several homework from sheet totals only (oldest first). Each homework's point is
   * kept in memory while its results and the context are unchanged (ADR 0021).
   */
  private async trendPoints(
    orgId: string,
    rows: HomeworkRow[],
    contextBefore: string,
  ): Promise<TrendPoint[]> {
    if (rows.length === 0) return [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const points = await this.points.getMany(
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
      .sort((a, b) => a.start_date.localeCompare(b.start_date) || a.created_at.localeCompare(b.created_at))
      .map((h) => points.get(h.id)!);
  }

  private async computePoints(orgId: string, rows: HomeworkRow[]): Promise<Map<string, TrendPoint>> {
    const settings = await this.settingsOf(orgId);
    const [classes, sheets, pending] = await Promise.all([
      this.repo.classesOfHomework(rows.map((r) => r.id)),
      this.repo.scoredTotals(rows.map((r) => r.id)),
      this.repo.pendingSheets(rows.map((r) => r.id)),
    ]);
    const pendingIn = (homeworkId: string, classId?: string) =>
      pending.some((p) => p.homework_id === homeworkId && (!classId || p.class_id === classId) && p.n > 0);
    const byHomework = new Map<string, typeof sheets>();
    for (const s of sheets) {
      const list = byHomework.get(s.homework_id);
      if (list) list.push(s);
      else byHomework.set(s.homework_id, [s]);
    }
    return new Map(
      rows.map((h) => {
        const full = h.total_score_tenths / 10;
        const list = byHomework.get(h.id) ?? [];
        const totals = list.map((s) => s.total_score_tenths / 10);
        const d = describe(totals, full, settings);
        const cls = classes
          .filter((c) => c.homework_id === h.id)
          .map((c) => {
            const t = list.filter((s) => s.class_id === c.class_id).map((s) => s.total_score_tenths / 10);
            const cd = describe(t, full, settings);
            return {
              classId: c.class_id,
              className: c.name,
              scoredCount: cd.count,
              average: round2(cd.average),
              scoreRate: rate(cd.scoreRate),
              passRate: rate(cd.passRate),
              overAverageRate: Math.round(overAverageRate(cd.average, d.average) * 10000) / 10000,
              rank: 1,
              markingComplete: !pendingIn(h.id, c.class_id),
            };
          });
        const r = ranks(cls.map((c) => (c.scoredCount ? c.average : -1)));
        cls.forEach((c, i) => (c.rank = r[i]!));
        const point: TrendPoint = {
          homeworkId: h.id,
          title: h.title,
          typeName: HOMEWORK_TYPE_NAMES[h.type as HomeworkType] ?? h.type,
          date: h.start_date,
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
      this.points.contextVersion(orgId),
      this.yearOf(auth, orgId, q.schoolYearId),
    ]);
    const rows = year
      ? await this.repo.listHomework(
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
      subjectName: rows[0]?.subject_name ?? '',
      classes: [...classes.entries()].map(([id, name]) => ({ id, name })),
      points,
    };
  }

  // ───────────── the student, crops, score sheets, 错题本 (person.ts) ─────────────

  private readonly person = new PersonAnalysis(this);

  studentAnalysis(auth: AuthContext, q: StudentAnalysisQuery): Promise<StudentAnalysis> {
    return this.person.studentAnalysis(auth, q);
  }

  crop(auth: AuthContext, homeworkId: string, studentId: string, questionId: string) {
    return this.person.crop(auth, homeworkId, studentId, questionId);
  }

  printGrade(
    auth: AuthContext,
    id: string,
    classId: string | undefined,
    order: 'rank' | 'number',
  ): Promise<PrintGrade> {
    return this.person.printGrade(auth, id, classId, order);
  }

  mistakeBook(auth: AuthContext, q: MistakeBookQuery): Promise<MistakeBook> {
    return this.person.mistakeBook(auth, q);
  }

  /** The 错题本 of chosen students or of a whole class (see person.ts). */
  mistakeBooks(auth: AuthContext, q: MistakeBookPdf): Promise<{ books: MistakeBook[]; scopeName: string }> {
    return this.person.mistakeBooks(auth, q);
  }

  // ───────────── data centre (data-center.ts) ─────────────

  private readonly dataCenter = new DataCenter(this);

  subjectStats(auth: AuthContext, q: SubjectStatsQuery): Promise<SubjectStats> {
    return this.dataCenter.subjectStats(auth, q);
  }

  averageScore(auth: AuthContext, homeworkId: string): Promise<AverageScore> {
    return this.dataCenter.averageScore(auth, homeworkId);
  }

  markingReport(auth: AuthContext, homeworkId: string): Promise<MarkingReport> {
    return this.dataCenter.markingReport(auth, homeworkId);
  }

  bigData(auth: AuthContext): Promise<BigData> {
    return this.dataCenter.bigData(auth);
  }
}
