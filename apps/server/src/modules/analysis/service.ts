import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import {
  ANALYSIS_MESSAGES,
  AnalysisSettingsSchema,
  HOMEWORK_STATE_NAMES,
  HOMEWORK_TYPE_NAMES,
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
  type Commentary,
  type GradeTrend,
  type GradeTrendQuery,
  type HomeworkAnalysis,
  type HomeworkDetails,
  type HomeworkPaper,
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
import { ResultsService } from '../results/service.js';
import { mean, rate, round2 } from './metrics.js';
import { AnalysisCache, type CacheCounter } from './cache.js';
import type { HomeworkModel } from './model.js';
import type { AnalysisRepository, HomeworkRecord } from './repository.js';
import { DataCenter } from './data-center.js';
import { GradeAnalysis, type TrendPoint } from './grade.js';
import { HomeworkModels } from './homework.js';
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

/** Models kept (one of 2,000 students × 30 questions is a few megabytes with its views). */
const MODEL_CACHE_SIZE = 12;
/** Trend points kept (one per homework, a few kilobytes). */
const POINT_CACHE_SIZE = 5000;

export class AnalysisService {
  /** Loads models; sheets, answers and their versions are read through the results spine. */
  private readonly loader: HomeworkModels;

  constructor(
    readonly repo: AnalysisRepository,
    readonly progress: HomeworkProgressSource,
    readonly clock: () => number,
    readonly similar: SimilarLookup,
    readonly readCrop: CropReader,
    db: Kysely<Database>,
    counter?: (cache: 'model' | 'point') => CacheCounter,
  ) {
    this.loader = new HomeworkModels(this, new ResultsService(db, clock));
    this.models = new AnalysisCache(db, MODEL_CACHE_SIZE, counter?.('model'));
    this.points = new AnalysisCache(db, POINT_CACHE_SIZE, counter?.('point'));
  }

  /** Computed models of homework, and trend points of homework, validated on every read (ADR 0021). */
  readonly models: AnalysisCache<HomeworkModel>;
  readonly points: AnalysisCache<TrendPoint>;

  // ───────────── settings ─────────────

  async settingsOf(orgId: string): Promise<AnalysisSettings> {
    return (await this.repo.settingsOf(orgId))?.settings ?? AnalysisSettingsSchema.parse({});
  }

  async settings(auth: AuthContext): Promise<AnalysisSettingsView> {
    const orgId = requireSchool(auth);
    const saved = await this.repo.settingsOf(orgId);
    return {
      settings: saved?.settings ?? AnalysisSettingsSchema.parse({}),
      saved: saved !== undefined,
      editable: auth.isCreator || auth.isAdministrator,
      updatedAt: saved?.updatedAt ?? null,
    };
  }

  async saveSettings(auth: AuthContext, settings: AnalysisSettings): Promise<AnalysisSettingsView> {
    const orgId = requireSchool(auth);
    if (!auth.isCreator && !auth.isAdministrator) throw forbidden(ANALYSIS_MESSAGES.settingsAdminsOnly);
    await this.repo.saveSettings(orgId, settings, auth.userId, nowIso(this.clock));
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
      years.find((y) => y.id === membership?.defaultYearId) ??
      years.find((y) => y.isDefault) ??
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
      const s = subjects.get(h.subjectId) ?? {
        id: h.subjectId,
        name: h.subjectName,
        stageName: h.stageName,
        homeworkCount: 0,
      };
      s.homeworkCount += 1;
      subjects.set(h.subjectId, s);
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
      .filter((s) => !k || s.name.toLowerCase().includes(k) || s.studentNo.toLowerCase().includes(k))
      .map((s) => ({
        id: s.id,
        name: s.name,
        studentNo: s.studentNo,
        classId: s.classId,
        className: s.className,
      }));
  }

  /** Homework rows with their classes and states, as analysis headers. */
  /** @internal shared with the use-case files */
  async present(orgId: string, rows: HomeworkRecord[]): Promise<AnalysisHomework[]> {
    const ids = rows.map((r) => r.id);
    const [classes, progress] = await Promise.all([
      this.repo.classesOfHomework(ids),
      this.progress.progressOf(orgId, ids),
    ]);
    const counts = await this.repo.studentCounts([...new Set(classes.map((c) => c.classId))]);
    return rows.map((h) => {
      const state: HomeworkState = homeworkState(progress.get(h.id));
      return {
        id: h.id,
        title: h.title,
        type: h.type as HomeworkType,
        typeName: HOMEWORK_TYPE_NAMES[h.type as HomeworkType] ?? h.type,
        state,
        stateName: HOMEWORK_STATE_NAMES[state],
        stageName: h.stageName,
        subjectId: h.subjectId,
        subjectName: h.subjectName,
        schoolYearId: h.yearId,
        startDate: h.startDate,
        dueDate: h.dueDate,
        fullScore: h.totalScoreTenths / 10,
        questionCount: h.questionCount,
        classes: classes
          .filter((c) => c.homeworkId === h.id)
          .map((c) => ({ id: c.classId, name: c.name, studentCount: counts.get(c.classId) ?? 0 })),
        createdByName: h.creatorNickname || h.creatorUsername || '',
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
      const scored = totals.filter((t) => t.homeworkId === h.id && t.unscoredCount === 0);
      const avg = mean(scored.map((t) => t.totalScoreTenths / 10));
      const answers = (c?.sheets ?? 0) * slice[i]!.questionCount;
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

  /** @internal the frozen paper of a homework (the homework itself checked by homeworkRow) */
  async paperOf(id: string): Promise<HomeworkPaper> {
    const paper = await this.repo.paperOf(id);
    if (!paper) throw notFound(ANALYSIS_MESSAGES.homeworkNotFound);
    return paper;
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
      (stamp) => this.loader.load(orgId, homeworkId, stamp),
      (previous, was, now) => this.loader.refresh(orgId, homeworkId, previous, was, now),
    );
    if (classId !== undefined && !model.classes.some((c) => c.id === classId))
      throw notFound(ANALYSIS_MESSAGES.classNotInHomework);
    return model;
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

  // ───────────── the class and the grade across homework (grade.ts) ─────────────

  private readonly grade = new GradeAnalysis(this);

  classAnalysis(auth: AuthContext, homeworkId: string, classId: string): Promise<ClassAnalysis> {
    return this.grade.classAnalysis(auth, homeworkId, classId);
  }

  gradeTrend(auth: AuthContext, q: GradeTrendQuery): Promise<GradeTrend> {
    return this.grade.gradeTrend(auth, q);
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
  mistakeBooks(
    auth: AuthContext,
    q: MistakeBookPdf,
  ): Promise<{ books: MistakeBook[]; scopeName: string; source: string }> {
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
