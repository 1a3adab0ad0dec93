import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import {
  compareClassNames,
  STUDENT_RESULT_STATUS_NAMES,
  type AnalysisHomework,
  type AnalysisSettings,
  type ClassScoreBand,
  type ClassStats,
  type Commentary,
  type CriticalStudent,
  type FollowUpStudent,
  type HomeworkAnalysis,
  type HomeworkDetails,
  type HomeworkPaper,
  type KnowledgePointStats,
  type QuestionStats,
  type ScoreStats,
  type StudentResult,
} from '@zhzy/contracts';
import { packLayout, type PackLayout } from '../results/packing.js';
import {
  BLANK,
  CROP,
  buildRows,
  fillAnswers,
  questionsOf,
  type ModelClass,
  type ModelInput,
  type ModelQuestion,
  type Row,
} from './model-input.js';
import { alphaOf, knowledgePointsOf, questionStatsOf } from './model-questions.js';
import { commentaryOf, detailsOf, followUpOf } from './model-views.js';
import {
  criticalByRank,
  criticalByScore,
  describe,
  mean,
  overAverageRate,
  rate,
  ranks,
  round2,
  scoreBands,
  tScore,
  zScore,
} from './metrics.js';

export {
  BLANK,
  CROP,
  cropUrl,
  questionsOf,
  type AnswerInput,
  type ModelClass,
  type ModelInput,
  type ModelQuestion,
  type ModelStudent,
  type Row,
  type SheetInput,
} from './model-input.js';

// One homework's results as numbers, and every view of them (grade, class, commentary, details). Pure: the service
// loads the rows, this computes. Scores arrive in tenths and leave in points.

const GRADE_NAME = ANALYSIS_TEXT.gradeName;

/** A homework's results, indexed for analysis. */
export class HomeworkModel {
  readonly questions: ModelQuestion[];
  readonly rows: Row[];
  readonly full: number;
  readonly settings: AnalysisSettings;
  readonly homework: AnalysisHomework;
  readonly classes: ModelClass[];
  readonly now: string;
  readonly previousRates: Map<string, number>;
  /** Grade mean and SD of scored totals (Z scores). */
  readonly gradeMean: number;
  readonly gradeSd: number;

  readonly paper: HomeworkPaper;
  /** Where a pack's entries land among the questions (ADR 0037). */
  readonly layout: PackLayout;

  /**
   * Every answer of the rows with a sheet, one slot of `questions.length` per such row (row order): its score in
   * points (NaN: not scored, tested as `v !== v`, which costs no call before the JIT has compiled the loop), its
   * flags (CROP, BLANK) and its response. Typed arrays, not an object per answer: a 2,000 × 30 test is 60,000
   * answers, decoded on every cold read (ADR 0037).
   */
  readonly points: Float64Array;
  readonly flags: Uint8Array;
  readonly responses: (string | null)[];

  /**
   * With a `base` (ADR 0030), `input.sheets` and `input.answers` are only the sheets written since the base was
   * computed (each with all its answers): those students' rows are built anew, every other student keeps the
   * base's row, and everything derived (ranks, Z scores, views) is computed over the whole as usual.
   */
  constructor(input: ModelInput, base?: HomeworkModel) {
    this.homework = input.homework;
    this.settings = input.settings;
    this.classes = input.classes;
    this.now = input.now;
    this.previousRates = input.previousRates ?? new Map<string, number>();
    this.paper = input.paper;
    this.questions = base?.questions ?? questionsOf(input.paper);
    this.layout = base?.layout ?? packLayout(this.questions.map((q) => q.questionId));
    this.full = input.homework.fullScore;
    const built = buildRows(input, this.questions.length, base);
    this.rows = built.rows;
    const store = fillAnswers(input, this.questions, this.layout, built, base);
    this.points = store.points;
    this.flags = store.flags;
    this.responses = store.responses;
    const scored = this.rows.filter((r) => r.total !== null);
    const totals = scored.map((r) => r.total!);
    this.gradeMean = mean(totals);
    this.gradeSd = Math.sqrt(mean(totals.map((v) => (v - this.gradeMean) ** 2)));
    ranks(totals).forEach((rank, i) => {
      scored[i]!.gradeRank = rank;
      scored[i]!.z = zScore(scored[i]!.total!, this.gradeMean, this.gradeSd);
    });
    for (const c of this.classes) {
      const inClass = this.rowsOf(c.id).filter((r) => r.total !== null);
      ranks(inClass.map((r) => r.total!)).forEach((rank, i) => (inClass[i]!.classRank = rank));
    }
  }

  /** The score of a row's answer to question i in points; null when not scored or absent. */
  score(r: Row, i: number): number | null {
    if (r.at === null) return null;
    const v = this.points[r.at + i]!;
    return v !== v ? null : v;
  }

  /** A row's answer to question i (null when absent): score in points (null: not scored), response and flags. */
  cell(
    r: Row,
    i: number,
  ): { score: number | null; response: string | null; blank: boolean; crop: boolean } | null {
    if (r.at === null) return null;
    const k = r.at + i;
    const v = this.points[k]!;
    return {
      score: v !== v ? null : v,
      response: this.responses[k]!,
      blank: (this.flags[k]! & BLANK) !== 0,
      crop: (this.flags[k]! & CROP) !== 0,
    };
  }

  private readonly views = new Map<string, unknown>();

  /**
   * A view computed once per model: a model is immutable and kept only while its results are current (ADR 0021),
   * so its views are too. Callers must not modify what they get.
   */
  view<T>(key: string, compute: () => T): T {
    if (this.views.has(key)) return this.views.get(key) as T;
    const value = compute();
    this.views.set(key, value);
    return value;
  }

  private byClass: Map<string, Row[]> | null = null;

  /** The rows of a class (row order), or every row; callers must not modify what they get. */
  rowsOf(classId: string | null): readonly Row[] {
    if (classId === null) return this.rows;
    if (!this.byClass) {
      this.byClass = new Map();
      for (const r of this.rows) {
        const list = this.byClass.get(r.student.classId);
        if (list) list.push(r);
        else this.byClass.set(r.student.classId, [r]);
      }
    }
    return this.byClass.get(classId) ?? [];
  }

  scopeName(classId: string | null): string {
    return classId === null ? GRADE_NAME : (this.classes.find((c) => c.id === classId)?.name ?? '');
  }

  private readonly statsOf = new WeakMap<readonly Row[], ScoreStats>();

  /** Descriptive statistics of some rows (computed once per rows list: the grade's and each class's are shared). */
  stats(rows: readonly Row[]): ScoreStats {
    let out = this.statsOf.get(rows);
    if (!out) {
      out = this.describeRows(rows);
      this.statsOf.set(rows, out);
    }
    return out;
  }

  private describeRows(rows: readonly Row[]): ScoreStats {
    const totals = rows.filter((r) => r.total !== null).map((r) => r.total!);
    const d = describe(totals, this.full, this.settings);
    return {
      studentCount: rows.length,
      scoredCount: d.count,
      pendingCount: rows.filter((r) => r.status === 'pending').length,
      absentCount: rows.filter((r) => r.status === 'absent').length,
      fullScore: this.full,
      average: round2(d.average),
      max: round2(d.max),
      min: round2(d.min),
      median: round2(d.median),
      standardDeviation: round2(d.standardDeviation),
      scoreRate: rate(d.scoreRate),
      passCount: d.passCount,
      passRate: rate(d.passRate),
      goodCount: d.goodCount,
      goodRate: rate(d.goodRate),
      excellentCount: d.excellentCount,
      excellentRate: rate(d.excellentRate),
      failCount: d.failCount,
    };
  }

  bands(rows: readonly Row[]): ClassScoreBand[] {
    const totals = (rs: readonly Row[]) => rs.filter((r) => r.total !== null).map((r) => r.total!);
    const scope = scoreBands(totals(rows), this.full, this.settings.bandStep);
    const grade = scoreBands(totals(this.rows), this.full, this.settings.bandStep);
    return scope.map((b, i) => ({
      ...b,
      rate: rate(b.rate),
      gradeCount: grade[i]!.count,
      gradeRate: rate(grade[i]!.rate),
    }));
  }

  classStats(): ClassStats[] {
    const list = this.classes.map((c) => {
      const rows = this.rowsOf(c.id);
      const stats = this.stats(rows);
      const classMean = mean(rows.filter((r) => r.total !== null).map((r) => r.total!));
      return {
        classId: c.id,
        className: c.name,
        teacherNames: c.teacherNames,
        stats,
        averageDiff: round2(classMean - this.gradeMean),
        overAverageRate: Math.round(overAverageRate(classMean, this.gradeMean) * 10000) / 10000,
        rank: 1,
      };
    });
    const order = ranks(list.map((c) => (c.stats.scoredCount > 0 ? c.stats.average : -1)));
    list.forEach((c, i) => (c.rank = order[i]!));
    return list.sort((a, b) => a.rank - b.rank || compareClassNames(a.className, b.className));
  }

  /** Per-question statistics within the scope's answers. */
  questionStats(rows: readonly Row[]): QuestionStats[] {
    return questionStatsOf(this, rows);
  }

  knowledgePoints(rows: readonly Row[]): KnowledgePointStats[] {
    return knowledgePointsOf(this, rows);
  }

  alpha(rows: readonly Row[]): number | null {
    return alphaOf(this, rows);
  }

  /** 临界生 of the scope: by score lines, or by rank lines in the grade. */
  critical(rows: readonly Row[]): CriticalStudent[] {
    const scored = rows.filter((r) => r.total !== null);
    const s = this.settings;
    const hits =
      s.criticalMode === 'score'
        ? criticalByScore(
            scored.map((r) => r.total!),
            this.full,
            s,
            s.criticalScoreBand,
          )
        : criticalByRank(
            scored.map((r) => r.gradeRank!),
            s.criticalRankLines,
            s.criticalRankBand,
          );
    return hits
      .map((h) => {
        const r = scored[h.index]!;
        return {
          studentId: r.student.id,
          name: r.student.name,
          studentNo: r.student.studentNo,
          classId: r.student.classId,
          className: r.student.className,
          total: round2(r.total!),
          scoreRate: rate(this.full > 0 ? r.total! / this.full : 0),
          gradeRank: s.showRank ? r.gradeRank : null,
          line: h.line,
          lineValue: h.lineValue,
          gap: h.gap,
        };
      })
      .sort((a, b) => a.lineValue - b.lineValue || a.gap - b.gap);
  }

  /** Ordered: scored by total (highest first), then pending, then absent; each by class and student number. */
  ordered(rows: readonly Row[]): Row[] {
    const weight = { scored: 0, pending: 1, absent: 2 } as const;
    // Plain code-unit comparison: localeCompare costs too much on a 2,000-student grade.
    const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    return [...rows].sort(
      (a, b) =>
        weight[a.status] - weight[b.status] ||
        (b.total ?? 0) - (a.total ?? 0) ||
        cmp(a.student.className, b.student.className) ||
        cmp(a.student.studentNo, b.student.studentNo),
    );
  }

  studentResults(rows: readonly Row[], criticalStudents = this.critical(rows)): StudentResult[] {
    const critical = new Set(criticalStudents.map((c) => c.studentId));
    const show = this.settings.showRank;
    return this.ordered(rows).map((r) => {
      const scoreRate = r.total !== null && this.full > 0 ? r.total / this.full : null;
      const prev = this.previousRates.get(r.student.id);
      return {
        studentId: r.student.id,
        name: r.student.name,
        studentNo: r.student.studentNo,
        classId: r.student.classId,
        className: r.student.className,
        status: r.status,
        statusName: STUDENT_RESULT_STATUS_NAMES[r.status],
        total: r.total === null ? null : round2(r.total),
        partialTotal: r.partial === null ? null : round2(r.partial),
        objective: r.objective === null ? null : round2(r.objective),
        subjective: r.subjective === null ? null : round2(r.subjective),
        scoreRate: scoreRate === null ? null : rate(scoreRate),
        classRank: show ? r.classRank : null,
        gradeRank: show ? r.gradeRank : null,
        zScore: r.z === null ? null : Math.round(r.z * 100) / 100,
        tScore: r.z === null ? null : Math.round(tScore(r.z) * 10) / 10,
        wrongCount: this.wrongCount(r),
        critical: critical.has(r.student.id),
        rateChange:
          scoreRate !== null && prev !== undefined ? Math.round((scoreRate - prev) * 10000) / 10000 : null,
      };
    });
  }

  /** Answers of the row scored below full marks. */
  private wrongCount(r: Row): number {
    if (r.at === null) return 0;
    let wrong = 0;
    for (let i = 0; i < this.questions.length; i += 1)
      if (this.points[r.at + i]! < this.questions[i]!.full) wrong += 1;
    return wrong;
  }

  private part(objective: boolean, rows: readonly Row[]) {
    const idx = Int32Array.from(
      this.questions.map((q, i) => (q.objective === objective ? i : -1)).filter((i) => i >= 0),
    );
    const full = idx.reduce((s, i) => s + this.questions[i]!.full, 0);
    const scored = rows.filter((r) => r.total !== null);
    const points = this.points;
    const sums = new Array<number>(scored.length);
    for (let n = 0; n < scored.length; n += 1) {
      const at = scored[n]!.at!;
      let sum = 0;
      for (let j = 0; j < idx.length; j += 1) {
        const score = points[at + idx[j]!]!;
        sum += score !== score ? 0 : score;
      }
      sums[n] = sum;
    }
    const avg = mean(sums);
    return { fullScore: round2(full), average: round2(avg), scoreRate: rate(full > 0 ? avg / full : 0) };
  }

  analysis(classId: string | null): HomeworkAnalysis {
    const rows = this.rowsOf(classId);
    const criticalStudents = this.critical(rows);
    return {
      homework: this.homework,
      scope: { classId, name: this.scopeName(classId) },
      settings: this.settings,
      summary: this.stats(rows),
      gradeSummary: this.stats(this.rows),
      objective: this.part(true, rows),
      subjective: this.part(false, rows),
      bands: this.bands(rows),
      classes: this.classStats(),
      questions: this.questionStats(rows),
      knowledgePoints: this.knowledgePoints(rows),
      cronbachAlpha: this.alpha(rows),
      criticalStudents,
      students: this.studentResults(rows, criticalStudents),
      generatedAt: this.now,
    };
  }

  /** 讲评: questions by points lost per student, samples, and students to follow up. */
  commentary(classId: string | null): Commentary {
    return commentaryOf(this, classId);
  }

  /** Students below the pass line, 临界生 below a line, a drop of 15 points of rate or more, or 3+ blanks. */
  followUp(rows: readonly Row[]): FollowUpStudent[] {
    return followUpOf(this, rows);
  }

  details(classId: string | null): HomeworkDetails {
    return detailsOf(this, classId);
  }

  /** Row view for exports and score sheets. */
  resultRows(classId: string | null) {
    return this.ordered(this.rowsOf(classId));
  }
}
