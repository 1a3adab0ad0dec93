import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import {
  compareClassNames,
  DIFFICULTY_BAND_NAMES,
  DISCRIMINATION_BAND_NAMES,
  FOLLOW_UP_REASON_NAMES,
  MASTERY_LEVEL_NAMES,
  STUDENT_RESULT_STATUS_NAMES,
  type AnalysisHomework,
  type AnalysisSettings,
  type AnswerSample,
  type ClassScoreBand,
  type ClassStats,
  type Commentary,
  type CommentaryQuestion,
  type CriticalStudent,
  type DetailRow,
  type FollowUpReason,
  type FollowUpStudent,
  type HomeworkAnalysis,
  type HomeworkDetails,
  type HomeworkPaper,
  type KnowledgePointStats,
  type QuestionStats,
  type ScoreStats,
  type StudentResult,
  type StudentResultStatus,
} from '@zhzy/contracts';
import { cardQuestionOf } from '../homework/card-paper.js';
import {
  PACKED_BLANK,
  PACKED_CROP,
  forEachPacked,
  packLayout,
  type PackLayout,
  type PackedSheet,
} from '../results/packing.js';
import type { AnswerRead } from '../results/service.js';
import { isObjective } from '../results/scoring.js';
import {
  criticalByRank,
  criticalByScore,
  cronbachAlphaOf,
  describe,
  difficultyBand,
  discriminationBand,
  discriminationOfGroups,
  kelleyGroup,
  masteryLevel,
  mean,
  normaliseChoice,
  optionDistributionOf,
  overAverageRate,
  rate,
  ranks,
  round2,
  scoreBands,
  tScore,
  wrongResponsesOf,
  zScore,
} from './metrics.js';

// One homework's results as numbers, and every view of them (grade, class, commentary, details). Pure: the service
// loads the rows, this computes. Scores arrive in tenths and leave in points.

const TRUE_FALSE_OPTIONS = ['F', 'T'];

export interface ModelQuestion {
  questionId: string;
  no: string;
  sectionTitle: string;
  typeName: string;
  kind: string;
  objective: boolean;
  full: number;
  /** Normalised key for objective questions, the reference answer otherwise. */
  answer: string;
  optionLabels: string[];
  stem: string;
  options: { label: string; content: string }[];
  analysis: string;
  difficulty: number;
  knowledgePoints: { id: string; name: string }[];
}

export interface ModelStudent {
  id: string;
  name: string;
  studentNo: string;
  classId: string;
  className: string;
}

export interface ModelClass {
  id: string;
  name: string;
  studentCount: number;
  teacherNames: string;
}

export interface SheetInput {
  id: string;
  student_id: string;
  class_id: string;
  objective_score_tenths: number;
  subjective_score_tenths: number;
  total_score_tenths: number;
  unscored_count: number;
}

/** An answer read from its row (the results spine's `AnswerRead`). */
export type AnswerInput = AnswerRead;

export interface ModelInput {
  homework: AnalysisHomework;
  paper: HomeworkPaper;
  classes: ModelClass[];
  students: ModelStudent[];
  sheets: SheetInput[];
  /** Answers of sheets without a usable packed copy, as rows. */
  answers: AnswerInput[];
  /** Answers of the other sheets, packed for the paper's questions (their key checked): by sheet id. */
  packed?: Map<string, PackedSheet>;
  settings: AnalysisSettings;
  /** Score rate of each student's previous homework of the subject (for trend and follow-up). */
  previousRates?: Map<string, number>;
  now: string;
}

/** Flags of a stored answer (the same bits as a packed code's). */
const CROP = PACKED_CROP;
const BLANK = PACKED_BLANK;

interface Row {
  student: ModelStudent;
  status: StudentResultStatus;
  total: number | null;
  partial: number | null;
  objective: number | null;
  subjective: number | null;
  /**
   * Where the row's answers start in the model's answer store (`slot × question count`), null when absent: answer
   * i of the row is at `at + i` of `points`, `flags` and `responses`.
   */
  at: number | null;
  gradeRank: number | null;
  classRank: number | null;
  z: number | null;
}

const GRADE_NAME = ANALYSIS_TEXT.gradeName;

/** The questions of a frozen paper in paper order, as analysis needs them. */
export function questionsOf(paper: HomeworkPaper): ModelQuestion[] {
  const out: ModelQuestion[] = [];
  for (const section of paper.sections) {
    for (const item of section.items) {
      const kind = cardQuestionOf(item).kind;
      const objective = isObjective(kind);
      const q = item.question;
      const labels =
        kind === 'truefalse'
          ? TRUE_FALSE_OPTIONS
          : (q?.options.map((o) => o.label.trim().toUpperCase()).filter((l) => /^[A-Z]$/.test(l)) ?? []);
      out.push({
        questionId: item.questionId,
        no: String(item.no),
        sectionTitle: section.heading || section.title,
        typeName: q?.typeName ?? '',
        kind,
        objective,
        full: item.score,
        answer: objective ? normaliseChoice(q?.answer ?? '') : (q?.answer ?? ''),
        optionLabels: labels.length > 0 || kind === 'truefalse' ? labels : ['A', 'B', 'C', 'D'],
        stem: q?.stem ?? '',
        options: q?.options ?? [],
        analysis: q?.analysis ?? '',
        difficulty: q?.difficulty ?? 3,
        knowledgePoints: q?.knowledgePoints ?? [],
      });
    }
  }
  return out;
}

export function cropUrl(homeworkId: string, studentId: string, questionId: string): string {
  return `/teacher/analysis/crop/${encodeURIComponent(homeworkId)}/${encodeURIComponent(studentId)}/${encodeURIComponent(questionId)}`;
}

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
  private readonly points: Float64Array;
  private readonly flags: Uint8Array;
  private readonly responses: (string | null)[];

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
    const baseRows = base ? new Map(base.rows.map((r) => [r.student.id, r])) : null;
    this.full = input.homework.fullScore;
    const count = this.questions.length;
    const sheetOf = new Map(input.sheets.map((s) => [s.student_id, s]));
    // Rows first (a slot for each row with a sheet), then their answers into the slots.
    const atOfSheet = new Map<string, number>();
    const copied: [from: number, to: number][] = [];
    let slots = 0;
    this.rows = input.students.map((student): Row => {
      const sheet = sheetOf.get(student.id);
      const kept = sheet ? undefined : baseRows?.get(student.id);
      if (kept) {
        let at: number | null = null;
        if (kept.at !== null) {
          at = slots++ * count;
          copied.push([kept.at, at]);
        }
        return { ...kept, student, at, gradeRank: null, classRank: null, z: null };
      }
      if (!sheet)
        return {
          student,
          status: 'absent',
          total: null,
          partial: null,
          objective: null,
          subjective: null,
          at: null,
          gradeRank: null,
          classRank: null,
          z: null,
        };
      const at = slots++ * count;
      atOfSheet.set(sheet.id, at);
      const scored = sheet.unscored_count === 0;
      return {
        student,
        status: scored ? 'scored' : 'pending',
        total: scored ? sheet.total_score_tenths / 10 : null,
        partial: scored ? null : sheet.total_score_tenths / 10,
        objective: sheet.objective_score_tenths / 10,
        subjective: sheet.subjective_score_tenths / 10,
        at,
        gradeRank: null,
        classRank: null,
        z: null,
      };
    });
    // A question the sheet has no answer for: unscored, nothing read.
    const points = new Float64Array(slots * count).fill(NaN);
    const flags = new Uint8Array(slots * count);
    const responses = new Array<string | null>(slots * count).fill(null);
    for (const [from, to] of copied)
      for (let i = 0; i < count; i += 1) {
        points[to + i] = base!.points[from + i]!;
        flags[to + i] = base!.flags[from + i]!;
        responses[to + i] = base!.responses[from + i]!;
      }
    const qIndex = new Map(this.questions.map((q, i) => [q.questionId, i]));
    for (const a of input.answers) {
      const at = atOfSheet.get(a.sheet_id);
      const i = qIndex.get(a.question_id);
      if (at === undefined || i === undefined) continue;
      points[at + i] = a.score_tenths === null ? NaN : a.score_tenths / 10;
      flags[at + i] = (a.blank === 1 ? BLANK : 0) | (a.crop ? CROP : 0);
      responses[at + i] = a.response;
    }
    // A pack (its key and length checked by the reader), decoded by the results spine.
    for (const [sheetId, pack] of input.packed ?? []) {
      const at = atOfSheet.get(sheetId);
      if (at === undefined) continue;
      forEachPacked(pack, this.layout, (i, scoreTenths, answerFlags, response) => {
        points[at + i] = scoreTenths === null ? NaN : scoreTenths / 10;
        flags[at + i] = answerFlags;
        responses[at + i] = response;
      });
    }
    this.points = points;
    this.flags = flags;
    this.responses = responses;
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
    const { points, flags, responses } = this;
    // Every sum below adds the same numbers in the same order as a sum over the rows' answers would (row order, from
    // 0), so the figures are those of the plain formulas (metrics.ts) to the last bit.
    const sheetRows = rows.filter((r) => r.at !== null);
    const withSheet = Int32Array.from(sheetRows, (r) => r.at!);
    const isRanked = Uint8Array.from(sheetRows, (r) => (r.total === null ? 0 : 1));
    // Scored students by total, highest first (ties in row order): sorted once for every question's 区分度.
    const ranked = Int32Array.from(
      rows.filter((r) => r.total !== null).sort((a, b) => b.total! - a.total!),
      (r) => r.at!,
    );
    // The classes' averages are over the grade whatever the scope: every row with a sheet of the homework's classes,
    // by class. For the grade itself these are the scope's rows, summed in the same pass.
    const classOf = new Map(this.classes.map((c, k) => [c.id, k]));
    const grade = rows === this.rows;
    const gradeRows = grade ? sheetRows : this.rows.filter((r) => r.at !== null);
    const gradeAt = Int32Array.from(gradeRows, (r) => r.at!);
    const gradeClass = Int32Array.from(gradeRows, (r) => classOf.get(r.student.classId) ?? -1);
    const classSum = new Float64Array(this.classes.length);
    const classCount = new Int32Array(this.classes.length);
    return this.questions.map((q, i) => {
      const objective = q.objective;
      const scoredResponses = new Map<string | null, number>();
      let sum = 0;
      let answers = 0;
      let answeredRanked = 0;
      let full = 0;
      let zero = 0;
      let blank = 0;
      classSum.fill(0);
      classCount.fill(0);
      for (let n = 0; n < withSheet.length; n += 1) {
        const k = withSheet[n]! + i;
        const score = points[k]!;
        if (score !== score) continue;
        sum += score;
        answers += 1;
        answeredRanked += isRanked[n]!;
        if (score >= q.full) full += 1;
        if (score === 0) zero += 1;
        if (objective) {
          const response = responses[k]!;
          scoredResponses.set(response, (scoredResponses.get(response) ?? 0) + 1);
          if (flags[k]! & BLANK || !response) blank += 1;
        } else if (flags[k]! & BLANK) blank += 1;
        if (grade) {
          const c = gradeClass[n]!;
          if (c >= 0) {
            classSum[c] = classSum[c]! + score;
            classCount[c] = classCount[c]! + 1;
          }
        }
      }
      if (!grade)
        for (let n = 0; n < gradeAt.length; n += 1) {
          const score = points[gradeAt[n]! + i]!;
          const c = gradeClass[n]!;
          if (score !== score || c < 0) continue;
          classSum[c] = classSum[c]! + score;
          classCount[c] = classCount[c]! + 1;
        }
      const average = answers === 0 ? 0 : sum / answers;
      const scoreRate = q.full > 0 ? average / q.full : 0;
      // 区分度 (discriminationOfRanked over the answered ranked students): only Kelley's two groups are read, the
      // upper one from the top down, the lower one from the bottom up.
      let d: number | null = null;
      if (answeredRanked >= 4 && q.full > 0) {
        const g = kelleyGroup(answeredRanked);
        let upper = 0;
        for (let n = 0, taken = 0; taken < g; n += 1) {
          const score = points[ranked[n]! + i]!;
          if (score !== score) continue;
          upper += score;
          taken += 1;
        }
        let lower = 0;
        for (let n = ranked.length - 1, taken = 0; taken < g; n -= 1) {
          const score = points[ranked[n]! + i]!;
          if (score !== score) continue;
          lower += score;
          taken += 1;
        }
        d = discriminationOfGroups(upper, lower, g, q.full);
      }
      const band = d === null ? null : discriminationBand(d);
      const diff = difficultyBand(scoreRate);
      return {
        questionId: q.questionId,
        no: q.no,
        sectionTitle: q.sectionTitle,
        typeName: q.typeName,
        kind: q.kind,
        objective,
        fullScore: q.full,
        answerCount: answers,
        average: round2(average),
        scoreRate: rate(scoreRate),
        difficulty: diff,
        difficultyName: DIFFICULTY_BAND_NAMES[diff],
        discrimination: d === null ? null : Math.max(-1, Math.min(1, Math.round(d * 10000) / 10000)),
        discriminationBand: band,
        discriminationName: band ? DISCRIMINATION_BAND_NAMES[band] : '',
        fullCount: full,
        zeroCount: zero,
        blankCount: blank,
        wrongCount: answers - full,
        correctAnswer: q.answer,
        options: objective
          ? optionDistributionOf(scoredResponses, answers, q.answer, q.optionLabels).map((o) => ({
              ...o,
              rate: rate(o.rate),
            }))
          : [],
        typicalWrong: objective
          ? wrongResponsesOf(scoredResponses, answers, q.answer)
              .slice(0, 3)
              .map((w) => ({ ...w, rate: rate(w.rate) }))
          : [],
        knowledgePoints: q.knowledgePoints,
        classes: this.classes.map((c, k) => {
          const avg = classCount[k] === 0 ? 0 : classSum[k]! / classCount[k]!;
          return {
            classId: c.id,
            className: c.name,
            average: round2(avg),
            scoreRate: rate(q.full > 0 ? avg / q.full : 0),
          };
        }),
      };
    });
  }

  /** Points scored ÷ points available per knowledge point over the rows' scored answers. */
  private kpRates(
    rows: readonly Row[],
  ): Map<string, { name: string; scored: number; full: number; nos: string[] }> {
    const out = new Map<string, { name: string; scored: number; full: number; nos: string[] }>();
    const points = this.points;
    const withSheet = Int32Array.from(
      rows.filter((r) => r.at !== null),
      (r) => r.at!,
    );
    this.questions.forEach((q, i) => {
      for (const kp of q.knowledgePoints) {
        const e = out.get(kp.id) ?? { name: kp.name, scored: 0, full: 0, nos: [] };
        if (!e.nos.includes(q.no)) e.nos.push(q.no);
        // Added one answer after another onto the knowledge point's sums, in row order.
        let scored = e.scored;
        let full = e.full;
        for (let n = 0; n < withSheet.length; n += 1) {
          const score = points[withSheet[n]! + i]!;
          if (score !== score) continue;
          scored += score;
          full += q.full;
        }
        e.scored = scored;
        e.full = full;
        out.set(kp.id, e);
      }
    });
    return out;
  }

  knowledgePoints(rows: readonly Row[]): KnowledgePointStats[] {
    const scope = this.kpRates(rows);
    const grade = rows === this.rows ? scope : this.kpRates(this.rows);
    return [...scope.entries()]
      .map(([id, e]) => {
        const scoreRate = e.full > 0 ? e.scored / e.full : 0;
        const g = grade.get(id)!;
        const mastery = masteryLevel(scoreRate);
        const fullScore = this.questions
          .filter((q) => q.knowledgePoints.some((k) => k.id === id))
          .reduce((s, q) => s + q.full, 0);
        return {
          id,
          name: e.name,
          questionNos: e.nos,
          fullScore,
          scoreRate: rate(scoreRate),
          gradeScoreRate: rate(g.full > 0 ? g.scored / g.full : 0),
          mastery,
          masteryName: MASTERY_LEVEL_NAMES[mastery],
        };
      })
      .sort((a, b) => a.scoreRate - b.scoreRate || a.name.localeCompare(b.name));
  }

  alpha(rows: readonly Row[]): number | null {
    const scored = rows.filter((r) => r.total !== null);
    const k = this.questions.length;
    // The students × questions matrix of points (unscored: 0), row by row.
    const matrix = new Float64Array(scored.length * k);
    scored.forEach((r, n) => {
      for (let i = 0; i < k; i += 1) {
        const score = this.points[r.at! + i]!;
        matrix[n * k + i] = score !== score ? 0 : score;
      }
    });
    const a = cronbachAlphaOf(matrix, scored.length, k);
    return a === null ? null : Math.round(a * 10000) / 10000;
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

  private sample(r: Row, i: number): AnswerSample {
    const cell = this.cell(r, i)!;
    const q = this.questions[i]!;
    return {
      studentId: r.student.id,
      name: r.student.name,
      className: r.student.className,
      score: round2(cell.score ?? 0),
      fullScore: q.full,
      response: q.objective ? (cell.response ?? '') : null,
      cropUrl: cell.crop ? cropUrl(this.homework.id, r.student.id, q.questionId) : null,
    };
  }

  /** 讲评: questions by points lost per student, samples, and students to follow up. */
  commentary(classId: string | null): Commentary {
    const rows = this.rowsOf(classId);
    const stats = this.questionStats(rows);
    const withSheet = rows.filter((r) => r.at !== null);
    const passLine = this.settings.passRate;
    const questions: CommentaryQuestion[] = stats.map((s, i) => {
      const q = this.questions[i]!;
      // The scored answers to the question, each with its row.
      const answered = withSheet
        .map((r) => ({ r, ...this.cell(r, i)! }))
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
        .map((a) => this.sample(a.r, i));
      const best = Math.max(0, ...answered.map((a) => a.score));
      const exemplary = answered
        .filter((a) => a.score === best && best > 0)
        .sort(byCrop)
        .slice(0, 3)
        .map((a) => this.sample(a.r, i));
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
      homework: this.homework,
      scope: { classId, name: this.scopeName(classId) },
      summary: this.stats(rows),
      questions,
      followUp: this.followUp(rows),
      generatedAt: this.now,
    };
  }

  /** Students below the pass line, 临界生 below a line, a drop of 15 points of rate or more, or 3+ blanks. */
  followUp(rows: readonly Row[]): FollowUpStudent[] {
    const critical = new Map(this.critical(rows).map((c) => [c.studentId, c]));
    const out: FollowUpStudent[] = [];
    for (const r of this.ordered(rows)) {
      if (r.total === null) continue;
      const scoreRate = this.full > 0 ? r.total / this.full : 0;
      const reasons: FollowUpReason[] = [];
      if (scoreRate < this.settings.passRate - 1e-9) reasons.push('low');
      const c = critical.get(r.student.id);
      if (c && c.gap < 0) reasons.push('critical');
      const prev = this.previousRates.get(r.student.id);
      if (prev !== undefined && scoreRate - prev <= -0.15) reasons.push('declined');
      let blanks = 0;
      for (let i = 0; i < this.questions.length; i += 1)
        if (this.flags[r.at! + i]! & BLANK || (this.questions[i]!.objective && !this.responses[r.at! + i]))
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

  details(classId: string | null): HomeworkDetails {
    const rows = this.rowsOf(classId);
    const qs = this.questionStats(rows);
    const show = this.settings.showRank;
    const out: DetailRow[] = this.ordered(rows).map((r) => ({
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
      cells: this.questions.map((q, i) => {
        const cell = this.cell(r, i);
        if (!cell) return { score: null, response: null, blank: false, correct: null, cropUrl: null };
        return {
          score: cell.score === null ? null : round2(cell.score),
          response: q.objective ? (cell.response ?? '') : null,
          blank: cell.blank || (q.objective && !cell.response),
          correct: cell.score === null ? null : cell.score >= q.full,
          cropUrl: cell.crop ? cropUrl(this.homework.id, r.student.id, q.questionId) : null,
        };
      }),
    }));
    return {
      homework: this.homework,
      scope: { classId, name: this.scopeName(classId) },
      showRank: show,
      columns: this.questions.map((q, i) => ({
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

  /** Row view for exports and score sheets. */
  resultRows(classId: string | null) {
    return this.ordered(this.rowsOf(classId));
  }
}
