import { z } from 'zod';
import { FlagSchema, IdSchema, PageQuerySchema, TimestampSchema, envelope, page } from '../common.js';
import { defineCall } from './define.js';
import {
  DaySchema,
  HomeworkHeadSchema,
  HomeworkStateSchema,
  HomeworkTypeSchema,
  PdfFileSchema,
} from './homework.js';
import { XlsxFileSchema } from './school.js';

/*
 * Learning analysis (/analysis/grade, /analysis/class, /analysis/person), the assistant pages (/assistant/analysis,
 * /assistant/commentary, /assistant/details, papaerReport), the data centre for grade directors (/dataCenter/…),
 * the large screen (/bigData, /largescreen), score sheets (/printgrade, /printgradetest), 错题本 and exports.
 *
 * Units, everywhere in this file:
 * - scores are numbers of points (one decimal at most, e.g. 7.5), never tenths;
 * - rates are fractions 0–1 (0.853 = 85.3 %), never percentages;
 * - ranks are 1-based, ties share a rank (1, 2, 2, 4), and are null where the school hides ranks.
 *
 * Who counts: a student "scored" has a sheet with every answer scored; a student with a sheet still waiting for a
 * marker is "pending" and a student of the homework's classes without a sheet is "absent". Summary statistics use
 * scored students only; per-question statistics use every scored answer of that question.
 *
 * "Grade" means the set of classes a homework was published to (年级 in the vocabulary of the screens): the class
 * analysis compares a class with all classes of the same homework.
 */

// ───────────── constants ─────────────

/** Chinese messages of analysis calls. */
export const ANALYSIS_MESSAGES = {
  homeworkNotFound: '作业不存在或已删除',
  classNotInHomework: '所选班级不属于这次作业',
  studentNotFound: '学生不存在或不属于您的学校',
  classNotFound: '班级不存在或不属于您的学校',
  subjectNotFound: '学科不存在',
  answerNotFound: '该学生这道题没有作答记录',
  cropNotFound: '这道题没有答题图片',
  directorsOnly: '只有年级主任可以查看数据中心',
  settingsAdminsOnly: '只有学校管理员可以修改分析设置',
  thresholdsOrder: '及格线、良好线、优秀线应依次升高',
  fontMissing: '服务器缺少生成报告所需的中文字体，请联系网站管理员',
  noStudents: '所选范围内没有学生',
} as const;

/** 难度 bands of a question's score rate (mean ÷ full): ≥0.7 容易, 0.4–0.7 适中, <0.4 较难. */
export const DIFFICULTY_BANDS = ['easy', 'medium', 'hard'] as const;
export const DifficultyBandSchema = z.enum(DIFFICULTY_BANDS);
export type DifficultyBand = z.infer<typeof DifficultyBandSchema>;
export const DIFFICULTY_BAND_NAMES: Record<DifficultyBand, string> = {
  easy: '容易',
  medium: '适中',
  hard: '较难',
};

/** 区分度 bands (Ebel): ≥0.4 优秀, 0.3–0.4 良好, 0.2–0.3 尚可, <0.2 较差. */
export const DISCRIMINATION_BANDS = ['excellent', 'good', 'fair', 'poor'] as const;
export const DiscriminationBandSchema = z.enum(DISCRIMINATION_BANDS);
export type DiscriminationBand = z.infer<typeof DiscriminationBandSchema>;
export const DISCRIMINATION_BAND_NAMES: Record<DiscriminationBand, string> = {
  excellent: '优秀',
  good: '良好',
  fair: '尚可',
  poor: '较差',
};

/** Where a student stands in one homework. */
export const STUDENT_RESULT_STATUSES = ['scored', 'pending', 'absent'] as const;
export const StudentResultStatusSchema = z.enum(STUDENT_RESULT_STATUSES);
export type StudentResultStatus = z.infer<typeof StudentResultStatusSchema>;
export const STUDENT_RESULT_STATUS_NAMES: Record<StudentResultStatus, string> = {
  scored: '已出分',
  pending: '阅卷中',
  absent: '缺考',
};

/** How 临界生 are chosen: near a score line (a rate of full marks) or near a rank line. */
export const CRITICAL_MODES = ['score', 'rank'] as const;
export const CriticalModeSchema = z.enum(CRITICAL_MODES);
export type CriticalMode = z.infer<typeof CriticalModeSchema>;
export const CRITICAL_MODE_NAMES: Record<CriticalMode, string> = { score: '按分数', rank: '按名次' };

/** Knowledge-point mastery of a student: rate ≥ 0.85 掌握, ≥ 0.6 基本掌握, else 薄弱. */
export const MASTERY_LEVELS = ['mastered', 'partial', 'weak'] as const;
export const MasteryLevelSchema = z.enum(MASTERY_LEVELS);
export type MasteryLevel = z.infer<typeof MasteryLevelSchema>;
export const MASTERY_LEVEL_NAMES: Record<MasteryLevel, string> = {
  mastered: '掌握',
  partial: '基本掌握',
  weak: '薄弱',
};

/** Marking-report indicators of one marker: 偏松, 偏严, 趋中 (always the middle score), 正常, or too few marks. */
export const MARKER_INDICATORS = ['lenient', 'strict', 'middle', 'normal', 'insufficient'] as const;
export const MarkerIndicatorSchema = z.enum(MARKER_INDICATORS);
export type MarkerIndicator = z.infer<typeof MarkerIndicatorSchema>;
export const MARKER_INDICATOR_NAMES: Record<MarkerIndicator, string> = {
  lenient: '偏松',
  strict: '偏严',
  middle: '趋中',
  normal: '正常',
  insufficient: '样本不足',
};

/** Why a student is on the commentary's follow-up list. */
export const FOLLOW_UP_REASONS = ['low', 'critical', 'declined', 'blank'] as const;
export const FollowUpReasonSchema = z.enum(FOLLOW_UP_REASONS);
export type FollowUpReason = z.infer<typeof FollowUpReasonSchema>;
export const FOLLOW_UP_REASON_NAMES: Record<FollowUpReason, string> = {
  low: '成绩未达及格线',
  critical: '临界生',
  declined: '成绩明显下降',
  blank: '多道题未作答',
};

// ───────────── school settings ─────────────

const RateSchema = z.number().min(0).max(1);

/** The school's analysis settings (defaults apply until an administrator saves them). */
export const AnalysisSettingsSchema = z
  .object({
    /** 及格线 as a rate of full marks (default 0.6). */
    passRate: RateSchema.default(0.6),
    /** 良好线 as a rate of full marks (default 0.7). */
    goodRate: RateSchema.default(0.7),
    /** 优秀线 as a rate of full marks (default 0.85). */
    excellentRate: RateSchema.default(0.85),
    /** Whether ranks are shown to teachers and in exports (the school decides; default false: ranks are null). */
    showRank: z.boolean().default(false),
    /** Width of a score band as a rate of full marks (default 0.1: ten bands 0–10 %, …, 90–100 %). */
    bandStep: z.number().min(0.05).max(0.5).default(0.1),
    /** How 临界生 are chosen. */
    criticalMode: CriticalModeSchema.default('score'),
    /**
     * Score mode: students whose score rate is within this distance below or above a line (pass, good, excellent)
     * are 临界生; a rate of full marks (default 0.05, i.e. ±5 points on a 100-point paper).
     */
    criticalScoreBand: z.number().min(0.01).max(0.2).default(0.05),
    /** Rank mode: the rank lines in the grade (default 10, 50, 100). */
    criticalRankLines: z.array(z.number().int().positive()).min(1).max(5).default([10, 50, 100]),
    /** Rank mode: students within this many ranks of a line, either side (default 5). */
    criticalRankBand: z.number().int().min(1).max(100).default(5),
  })
  .refine((v) => v.passRate < v.goodRate && v.goodRate < v.excellentRate, {
    message: ANALYSIS_MESSAGES.thresholdsOrder,
    path: ['goodRate'],
  });
export type AnalysisSettings = z.infer<typeof AnalysisSettingsSchema>;

export const AnalysisSettingsViewSchema = z.object({
  settings: AnalysisSettingsSchema,
  /** Whether the settings were ever saved (false: defaults). */
  saved: z.boolean(),
  /** Whether the caller may save them (school creator or administrator). */
  editable: z.boolean(),
  updatedAt: TimestampSchema.nullable(),
});
export type AnalysisSettingsView = z.infer<typeof AnalysisSettingsViewSchema>;

// ───────────── building blocks ─────────────

/** A homework as analysis shows it in headers and pickers. */
export const AnalysisHomeworkSchema = HomeworkHeadSchema.extend({
  stageName: z.string(),
  subjectId: IdSchema,
  subjectName: z.string(),
  schoolYearId: IdSchema,
  startDate: DaySchema,
  dueDate: DaySchema,
  /** Full marks of the paper, points. */
  fullScore: z.number().nonnegative(),
  questionCount: z.number().int().nonnegative(),
  classes: z.array(
    z.object({ id: IdSchema, name: z.string(), studentCount: z.number().int().nonnegative() }),
  ),
  createdByName: z.string(),
});
export type AnalysisHomework = z.infer<typeof AnalysisHomeworkSchema>;

/** A homework in the analysis pickers, with how far results have come. */
export const AnalysisHomeworkItemSchema = AnalysisHomeworkSchema.extend({
  /** Students of the homework's classes. */
  studentCount: z.number().int().nonnegative(),
  /** Students with every answer scored. */
  scoredCount: z.number().int().nonnegative(),
  /** Students with a sheet still waiting for a marker. */
  pendingCount: z.number().int().nonnegative(),
  /** Answers scored ÷ answers of all sheets received (0–1; 0 when none received). */
  markingRate: RateSchema,
  /** Mean total of scored students, points; null before anyone is scored. */
  average: z.number().nullable(),
  /** average ÷ fullScore; null before anyone is scored. */
  scoreRate: RateSchema.nullable(),
});
export type AnalysisHomeworkItem = z.infer<typeof AnalysisHomeworkItemSchema>;

/** Descriptive statistics of the totals of a group of students (a grade, a class). */
export const ScoreStatsSchema = z.object({
  /** Students on the roll of the group. */
  studentCount: z.number().int().nonnegative(),
  /** Students whose every answer is scored: the statistics below are theirs. */
  scoredCount: z.number().int().nonnegative(),
  /** Students whose sheet still has answers waiting for a marker (left out of the statistics). */
  pendingCount: z.number().int().nonnegative(),
  /** Students without a sheet (缺考 / 未交). */
  absentCount: z.number().int().nonnegative(),
  /** Full marks, points. */
  fullScore: z.number().nonnegative(),
  /** Mean total, points (0 when nobody is scored, as are all figures below). */
  average: z.number(),
  /** Highest total, points. */
  max: z.number(),
  /** Lowest total, points. */
  min: z.number(),
  /** Median total, points (mean of the two middle totals for an even count). */
  median: z.number(),
  /** Population standard deviation of the totals (÷ n, not n − 1), points. */
  standardDeviation: z.number().nonnegative(),
  /** average ÷ fullScore (得分率). */
  scoreRate: RateSchema,
  /** Students at or above the pass line. */
  passCount: z.number().int().nonnegative(),
  /** passCount ÷ scoredCount. */
  passRate: RateSchema,
  /** Students at or above the good line. */
  goodCount: z.number().int().nonnegative(),
  goodRate: RateSchema,
  /** Students at or above the excellent line. */
  excellentCount: z.number().int().nonnegative(),
  excellentRate: RateSchema,
  /** Students below the pass line (低分). */
  failCount: z.number().int().nonnegative(),
});
export type ScoreStats = z.infer<typeof ScoreStatsSchema>;

/** One score band (lower bound included, upper excluded except for the top band, which includes full marks). */
export const ScoreBandSchema = z.object({
  /** E.g. '90%–100%' or '[90, 100]'. */
  label: z.string(),
  /** Lower bound, points. */
  from: z.number(),
  /** Upper bound, points. */
  to: z.number(),
  /** Scored students in the band. */
  count: z.number().int().nonnegative(),
  /** count ÷ scored students. */
  rate: RateSchema,
});
export type ScoreBand = z.infer<typeof ScoreBandSchema>;

/** A score band of a class next to the same band of the grade. */
export const ClassScoreBandSchema = ScoreBandSchema.extend({
  /** Scored students of the grade in the band. */
  gradeCount: z.number().int().nonnegative(),
  gradeRate: RateSchema,
});
export type ClassScoreBand = z.infer<typeof ClassScoreBandSchema>;

/** One class of a homework against the grade. */
export const ClassStatsSchema = z.object({
  classId: IdSchema,
  className: z.string(),
  /** Teachers of the homework's subject in this class, joined with '、' ('' when none is set). */
  teacherNames: z.string(),
  stats: ScoreStatsSchema,
  /** class mean − grade mean, points. */
  averageDiff: z.number(),
  /** 超均率 = (class mean − grade mean) ÷ grade mean; 0 when the grade mean is 0. May be negative. */
  overAverageRate: z.number(),
  /** Rank of the class by mean among the homework's classes (shown regardless of the student-rank setting). */
  rank: z.number().int().positive(),
});
export type ClassStats = z.infer<typeof ClassStatsSchema>;

/** How often one option was chosen (objective questions). */
export const OptionStatSchema = z.object({
  /** 'A', 'B', … ('T'/'F' for true/false). */
  option: z.string(),
  /** Answers containing this option. */
  count: z.number().int().nonnegative(),
  /** count ÷ answers of the question. */
  rate: RateSchema,
  /** Whether the option is part of the correct answer. */
  correct: z.boolean(),
});
export type OptionStat = z.infer<typeof OptionStatSchema>;

/** A wrong response given by several students (objective questions; e.g. 'B' or 'AC'). */
export const WrongResponseSchema = z.object({
  /** The response as read ('' for blank). */
  response: z.string(),
  count: z.number().int().nonnegative(),
  /** count ÷ answers of the question. */
  rate: RateSchema,
});
export type WrongResponse = z.infer<typeof WrongResponseSchema>;

/** One question's score rate in one class. */
export const QuestionClassRateSchema = z.object({
  classId: IdSchema,
  className: z.string(),
  /** Mean score, points. */
  average: z.number(),
  scoreRate: RateSchema,
});
export type QuestionClassRate = z.infer<typeof QuestionClassRateSchema>;

export const KnowledgePointRefSchema = z.object({ id: IdSchema, name: z.string() });

/** Statistics of one question of a homework within a scope (the grade or a class). */
export const QuestionStatsSchema = z.object({
  /** The bank question's id (what sheet answers and the card name). */
  questionId: IdSchema,
  /** The question's number on the paper ('1', '2', …). */
  no: z.string(),
  /** Title of the paper section (e.g. '一、单选题'). */
  sectionTitle: z.string(),
  /** 单选题, 多选题, 判断题, 填空题, 解答题 … */
  typeName: z.string(),
  /** Card kind: single | multiple | truefalse | blank | written | optional. */
  kind: z.string(),
  /** Whether the score comes from the answer key (single, multiple, true/false). */
  objective: z.boolean(),
  /** Full marks of the question, points. */
  fullScore: z.number().nonnegative(),
  /** Scored answers counted. */
  answerCount: z.number().int().nonnegative(),
  /** Mean score, points. */
  average: z.number(),
  /** 得分率 / 难度 = average ÷ fullScore. */
  scoreRate: RateSchema,
  difficulty: DifficultyBandSchema,
  /** 容易, 适中, 较难. */
  difficultyName: z.string(),
  /**
   * 区分度 = score rate of the upper 27 % of students by total − that of the lower 27 %; −1…1. Null with fewer than
   * 4 scored students.
   */
  discrimination: z.number().min(-1).max(1).nullable(),
  /** Null when discrimination is null. */
  discriminationBand: DiscriminationBandSchema.nullable(),
  /** 优秀, 良好, 尚可, 较差 ('' when null). */
  discriminationName: z.string(),
  /** Answers with full marks. */
  fullCount: z.number().int().nonnegative(),
  /** Answers scoring 0. */
  zeroCount: z.number().int().nonnegative(),
  /** Answers left blank (no option marked / empty answer box). */
  blankCount: z.number().int().nonnegative(),
  /** Answers with less than full marks (错题人数). */
  wrongCount: z.number().int().nonnegative(),
  /** The answer key for objective questions ('AC', 'T'); the reference answer text otherwise. */
  correctAnswer: z.string(),
  /** Objective questions: every option with its count; [] otherwise. */
  options: z.array(OptionStatSchema),
  /** Objective questions: the most frequent wrong responses, most frequent first (at most 3); [] otherwise. */
  typicalWrong: z.array(WrongResponseSchema),
  knowledgePoints: z.array(KnowledgePointRefSchema),
  /** The question's score rate per class of the homework (all classes, also in a class scope). */
  classes: z.array(QuestionClassRateSchema),
});
export type QuestionStats = z.infer<typeof QuestionStatsSchema>;

/** Mastery of one knowledge point within a scope: all questions of the point taken together. */
export const KnowledgePointStatsSchema = z.object({
  id: IdSchema,
  name: z.string(),
  /** Numbers of the questions that test it. */
  questionNos: z.array(z.string()),
  /** Full marks of those questions, points (per student). */
  fullScore: z.number().nonnegative(),
  /** Points scored ÷ points available over the scope's scored answers. */
  scoreRate: RateSchema,
  /** The same rate over the whole grade (equal to scoreRate in a grade scope). */
  gradeScoreRate: RateSchema,
  mastery: MasteryLevelSchema,
  /** 掌握, 基本掌握, 薄弱. */
  masteryName: z.string(),
});
export type KnowledgePointStats = z.infer<typeof KnowledgePointStatsSchema>;

/** A student as the reports name them: name, 学号 and class. */
export const ReportStudentSchema = z.object({
  studentId: IdSchema,
  name: z.string(),
  studentNo: z.string(),
  classId: IdSchema,
  className: z.string(),
});
export type ReportStudent = z.infer<typeof ReportStudentSchema>;

/** A student close to a line (临界生). */
export const CriticalStudentSchema = ReportStudentSchema.extend({
  /** Total, points. */
  total: z.number(),
  scoreRate: RateSchema,
  /** Rank in the grade; null where the school hides ranks. */
  gradeRank: z.number().int().positive().nullable(),
  /** The line: '及格线', '良好线', '优秀线' (score mode) or '第50名' (rank mode). */
  line: z.string(),
  /** The line in points (score mode) or as a rank (rank mode). */
  lineValue: z.number(),
  /** Score mode: total − line, points; rank mode: line − rank. Negative: still below the line. */
  gap: z.number(),
});
export type CriticalStudent = z.infer<typeof CriticalStudentSchema>;

/** One student's result in a homework. */
export const StudentResultSchema = ReportStudentSchema.extend({
  status: StudentResultStatusSchema,
  /** 已出分, 阅卷中, 缺考. */
  statusName: z.string(),
  /** Total, points; null unless scored (pending sheets show their partial sum in `partialTotal`). */
  total: z.number().nullable(),
  /** Scored part of a pending sheet, points; null otherwise. */
  partialTotal: z.number().nullable(),
  /** Objective part, points (null when absent). */
  objective: z.number().nullable(),
  /** Written part, points (null when absent). */
  subjective: z.number().nullable(),
  /** total ÷ full marks; null unless scored. */
  scoreRate: RateSchema.nullable(),
  /** Rank in the class; null unless scored or where the school hides ranks. */
  classRank: z.number().int().positive().nullable(),
  /** Rank in the grade; null unless scored or where the school hides ranks. */
  gradeRank: z.number().int().positive().nullable(),
  /** Z = (total − grade mean) ÷ grade SD (population); 0 when SD is 0; null unless scored. */
  zScore: z.number().nullable(),
  /** T = 50 + 10 × Z; null unless scored. */
  tScore: z.number().nullable(),
  /** Questions with less than full marks. */
  wrongCount: z.number().int().nonnegative(),
  /** Whether the student is a 临界生 of this homework. */
  critical: z.boolean(),
  /** Change of the score rate against the student's previous homework of the same subject (null: none before). */
  rateChange: z.number().nullable(),
});
export type StudentResult = z.infer<typeof StudentResultSchema>;

/** Scope query of homework-level calls: the whole grade, or one class of the homework. */
export const HomeworkScopeQuerySchema = z.object({ classId: IdSchema.optional() });

export const AnalysisScopeSchema = z.object({
  /** Null: all classes of the homework (the grade). */
  classId: IdSchema.nullable(),
  /** '全年级' for the grade, the class name otherwise. */
  name: z.string(),
});
export type AnalysisScope = z.infer<typeof AnalysisScopeSchema>;

// ───────────── pickers ─────────────

export const AnalysisHomeworksQuerySchema = PageQuerySchema.extend({
  /** By default the caller's default school year. */
  schoolYearId: IdSchema.optional(),
  subjectId: IdSchema.optional(),
  classId: IdSchema.optional(),
  type: HomeworkTypeSchema.optional(),
  /** Homework due on or after this day. */
  from: DaySchema.optional(),
  /** Homework starting on or before this day. */
  to: DaySchema.optional(),
  /** Only homework with at least one scored student (default true). */
  withResults: FlagSchema.optional(),
});
export type AnalysisHomeworksQuery = z.infer<typeof AnalysisHomeworksQuerySchema>;

/** What the analysis screens filter by: the school year's subjects with homework, and its classes. */
export const AnalysisFiltersSchema = z.object({
  schoolYearId: IdSchema.nullable(),
  schoolYearName: z.string(),
  subjects: z.array(
    z.object({
      id: IdSchema,
      name: z.string(),
      stageName: z.string(),
      /** Homework of this subject in the school year. */
      homeworkCount: z.number().int().nonnegative(),
    }),
  ),
  classes: z.array(
    z.object({ id: IdSchema, name: z.string(), studentCount: z.number().int().nonnegative() }),
  ),
  /** Whether the caller is a grade director (the data centre is open to them). */
  gradeDirector: z.boolean(),
  settings: AnalysisSettingsSchema,
});
export type AnalysisFilters = z.infer<typeof AnalysisFiltersSchema>;

export const AnalysisStudentSchema = z.object({
  id: IdSchema,
  name: z.string(),
  studentNo: z.string(),
  classId: IdSchema,
  className: z.string(),
});
export type AnalysisStudent = z.infer<typeof AnalysisStudentSchema>;

export const AnalysisStudentsQuerySchema = z.object({
  classId: IdSchema,
  /** Part of a name or student number. */
  keyword: z.string().trim().max(40).optional(),
});

// ───────────── homework analysis (grade analysis, assistant data analysis, report) ─────────────

/** A homework analysed within a scope: summary, bands, classes, questions, knowledge points, reliability. */
export const HomeworkAnalysisSchema = z.object({
  homework: AnalysisHomeworkSchema,
  scope: AnalysisScopeSchema,
  settings: AnalysisSettingsSchema,
  /** Statistics of the scope. */
  summary: ScoreStatsSchema,
  /** Statistics of the whole grade (equal to summary in a grade scope). */
  gradeSummary: ScoreStatsSchema,
  /** Objective part: mean, points, and its rate of the objective full marks. */
  objective: z.object({ fullScore: z.number(), average: z.number(), scoreRate: RateSchema }),
  /** Written part: mean, points, and its rate of the written full marks. */
  subjective: z.object({ fullScore: z.number(), average: z.number(), scoreRate: RateSchema }),
  bands: z.array(ClassScoreBandSchema),
  /** Every class of the homework, by rank. */
  classes: z.array(ClassStatsSchema),
  /** Every question in paper order. */
  questions: z.array(QuestionStatsSchema),
  knowledgePoints: z.array(KnowledgePointStatsSchema),
  /** Cronbach's α over the scope's scored students (null with fewer than 2 students or questions, or no variance). */
  cronbachAlpha: z.number().nullable(),
  criticalStudents: z.array(CriticalStudentSchema),
  /** Every student of the scope: scored ones by total (highest first), then pending, then absent. */
  students: z.array(StudentResultSchema),
  generatedAt: TimestampSchema,
});
export type HomeworkAnalysis = z.infer<typeof HomeworkAnalysisSchema>;

// ───────────── grade trend ─────────────

/** The homework a report over time covers: of a school year, of a kind, in a day range (each optional). */
export const HomeworkPeriodQuerySchema = z.object({
  schoolYearId: IdSchema.optional(),
  type: HomeworkTypeSchema.optional(),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
});
export type HomeworkPeriodQuery = z.infer<typeof HomeworkPeriodQuerySchema>;

export const GradeTrendQuerySchema = HomeworkPeriodQuerySchema.extend({
  subjectId: IdSchema,
  /** Most recent homework to include (default 20). */
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type GradeTrendQuery = z.infer<typeof GradeTrendQuerySchema>;

export const TrendClassPointSchema = z.object({
  classId: IdSchema,
  className: z.string(),
  scoredCount: z.number().int().nonnegative(),
  average: z.number(),
  scoreRate: RateSchema,
  passRate: RateSchema,
  overAverageRate: z.number(),
  /** Rank of the class by mean among the homework's classes. */
  rank: z.number().int().positive(),
  /** False while some of the class's sheets are still being marked (阅卷中): its figures are not final. */
  markingComplete: z.boolean(),
});

export const GradeTrendPointSchema = z.object({
  homeworkId: IdSchema,
  title: z.string(),
  typeName: z.string(),
  /** The homework's start date. */
  date: DaySchema,
  fullScore: z.number(),
  scoredCount: z.number().int().nonnegative(),
  average: z.number(),
  scoreRate: RateSchema,
  passRate: RateSchema,
  excellentRate: RateSchema,
  standardDeviation: z.number(),
  /** False while some sheets are still being marked (阅卷中): charts draw it hollow, never as a value. */
  markingComplete: z.boolean(),
  classes: z.array(TrendClassPointSchema),
});
export type GradeTrendPoint = z.infer<typeof GradeTrendPointSchema>;

/** A subject's homework over time (oldest first), each with the grade's and every class's figures. */
export const GradeTrendSchema = z.object({
  subjectId: IdSchema,
  subjectName: z.string(),
  /** Every class appearing in the points (legend of the chart). */
  classes: z.array(z.object({ id: IdSchema, name: z.string() })),
  points: z.array(GradeTrendPointSchema),
});
export type GradeTrend = z.infer<typeof GradeTrendSchema>;

// ───────────── class analysis ─────────────

export const ClassAnalysisQuerySchema = z.object({ homeworkId: IdSchema, classId: IdSchema });

export const ClassQuestionSchema = QuestionStatsSchema.extend({
  /** Grade mean of the question, points. */
  gradeAverage: z.number(),
  gradeScoreRate: RateSchema,
  /** class score rate − grade score rate. */
  rateDiff: z.number(),
});
export type ClassQuestion = z.infer<typeof ClassQuestionSchema>;

export const ClassTrendPointSchema = z.object({
  homeworkId: IdSchema,
  title: z.string(),
  date: DaySchema,
  fullScore: z.number(),
  classAverage: z.number(),
  gradeAverage: z.number(),
  classScoreRate: RateSchema,
  gradeScoreRate: RateSchema,
  overAverageRate: z.number(),
  /** The class's rank among the homework's classes. */
  classRank: z.number().int().positive(),
  classCount: z.number().int().positive(),
  /** False while some of the class's sheets are still being marked (阅卷中). */
  markingComplete: z.boolean(),
});
export type ClassTrendPoint = z.infer<typeof ClassTrendPointSchema>;

/** One class of a homework against its grade, with its students and its recent trend. */
export const ClassAnalysisSchema = z.object({
  homework: AnalysisHomeworkSchema,
  class: z.object({ id: IdSchema, name: z.string(), teacherNames: z.string() }),
  settings: AnalysisSettingsSchema,
  summary: ScoreStatsSchema,
  gradeSummary: ScoreStatsSchema,
  /** class mean − grade mean, points. */
  averageDiff: z.number(),
  /** 超均率 (see ClassStats). */
  overAverageRate: z.number(),
  /** Rank of the class by mean among the homework's classes. */
  classRank: z.number().int().positive(),
  classCount: z.number().int().positive(),
  bands: z.array(ClassScoreBandSchema),
  /** All classes of the homework (for the comparison chart). */
  classes: z.array(ClassStatsSchema),
  questions: z.array(ClassQuestionSchema),
  knowledgePoints: z.array(KnowledgePointStatsSchema),
  cronbachAlpha: z.number().nullable(),
  criticalStudents: z.array(CriticalStudentSchema),
  /** The class's students: scored by total, then pending, then absent. */
  students: z.array(StudentResultSchema),
  /** The class's homework of the same subject up to this one (oldest first, at most 10). */
  trend: z.array(ClassTrendPointSchema),
  generatedAt: TimestampSchema,
});
export type ClassAnalysis = z.infer<typeof ClassAnalysisSchema>;

// ───────────── student analysis ─────────────

export const StudentAnalysisQuerySchema = z.object({
  studentId: IdSchema,
  /** One subject (default: every subject of the student's homework). */
  subjectId: IdSchema.optional(),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
});
export type StudentAnalysisQuery = z.infer<typeof StudentAnalysisQuerySchema>;

export const StudentTrendPointSchema = z.object({
  homeworkId: IdSchema,
  title: z.string(),
  typeName: z.string(),
  subjectId: IdSchema,
  subjectName: z.string(),
  date: DaySchema,
  fullScore: z.number(),
  status: StudentResultStatusSchema,
  /** Points; null unless scored. */
  total: z.number().nullable(),
  scoreRate: RateSchema.nullable(),
  classAverage: z.number(),
  gradeAverage: z.number(),
  classRank: z.number().int().positive().nullable(),
  gradeRank: z.number().int().positive().nullable(),
  /** Scored students of the class / of the grade. */
  classSize: z.number().int().nonnegative(),
  gradeSize: z.number().int().nonnegative(),
  zScore: z.number().nullable(),
  tScore: z.number().nullable(),
});
export type StudentTrendPoint = z.infer<typeof StudentTrendPointSchema>;

/** One wrong answer of a student (less than full marks). */
export const WrongQuestionSchema = z.object({
  homeworkId: IdSchema,
  homeworkTitle: z.string(),
  date: DaySchema,
  subjectName: z.string(),
  questionId: IdSchema,
  no: z.string(),
  typeName: z.string(),
  /** Question stem (the bank's rich text, HTML). */
  stem: z.string(),
  options: z.array(z.object({ label: z.string(), content: z.string() })),
  /** The correct answer (key or reference answer). */
  answer: z.string(),
  /** 解析. */
  analysis: z.string(),
  difficulty: z.number().int().min(1).max(5),
  knowledgePoints: z.array(KnowledgePointRefSchema),
  /** The student's objective response ('B', '' when blank); null for written answers. */
  response: z.string().nullable(),
  blank: z.boolean(),
  /** Points. */
  score: z.number(),
  fullScore: z.number(),
  /** The grade's score rate of this question. */
  gradeScoreRate: RateSchema,
  /** Path (under the API base) of the answer's crop image; null without one. */
  cropUrl: z.string().nullable(),
});
export type WrongQuestion = z.infer<typeof WrongQuestionSchema>;

export const StudentKnowledgePointSchema = z.object({
  id: IdSchema,
  name: z.string(),
  /** Answers of the student on questions of the point. */
  questionCount: z.number().int().nonnegative(),
  /** Points scored ÷ points available. */
  scoreRate: RateSchema,
  /** The grades' rate on the same questions. */
  gradeScoreRate: RateSchema,
  mastery: MasteryLevelSchema,
  masteryName: z.string(),
});
export type StudentKnowledgePoint = z.infer<typeof StudentKnowledgePointSchema>;

export const StudentAnalysisSchema = z.object({
  student: AnalysisStudentSchema,
  /** Subjects the student has results in (the screen's filter). */
  subjects: z.array(z.object({ id: IdSchema, name: z.string() })),
  subjectId: IdSchema.nullable(),
  /** Whether ranks are shown (school setting). */
  showRank: z.boolean(),
  summary: z.object({
    /** Homework with a scored result. */
    homeworkCount: z.number().int().nonnegative(),
    /** Mean score rate over them. */
    averageScoreRate: RateSchema,
    /** Mean score rate of the grades over the same homework. */
    gradeAverageScoreRate: RateSchema,
    /** Latest score rate minus the first (null with fewer than 2). */
    rateChange: z.number().nullable(),
    /** Times the student was a 临界生. */
    criticalCount: z.number().int().nonnegative(),
    wrongCount: z.number().int().nonnegative(),
  }),
  /** Oldest first. */
  trend: z.array(StudentTrendPointSchema),
  /** Weakest first. */
  knowledgePoints: z.array(StudentKnowledgePointSchema),
  /** Newest homework first, then by question number. */
  wrongQuestions: z.array(WrongQuestionSchema),
  generatedAt: TimestampSchema,
});
export type StudentAnalysis = z.infer<typeof StudentAnalysisSchema>;

// ───────────── commentary (讲评) ─────────────

/** One student's answer shown as a sample (typical wrong or exemplary). */
export const AnswerSampleSchema = z.object({
  studentId: IdSchema,
  name: z.string(),
  className: z.string(),
  score: z.number(),
  fullScore: z.number(),
  /** Objective response; null for written answers. */
  response: z.string().nullable(),
  /** Path (under the API base) of the crop image; null without one. */
  cropUrl: z.string().nullable(),
});
export type AnswerSample = z.infer<typeof AnswerSampleSchema>;

export const WrongResponseGroupSchema = WrongResponseSchema.extend({
  /** Names of the students who gave it (at most 30). */
  students: z.array(z.string()),
});

/** How written-answer scores spread: students per score. */
export const ScoreCountSchema = z.object({ score: z.number(), count: z.number().int().nonnegative() });

export const CommentaryQuestionSchema = QuestionStatsSchema.extend({
  /** Points lost per student: fullScore − average (the order of the list, largest first). */
  lostScore: z.number(),
  /** Rank in the commentary order (1: discuss first). */
  priority: z.number().int().positive(),
  /** Whether the question needs discussing in class: score rate below the pass line. */
  needsDiscussion: z.boolean(),
  stem: z.string(),
  options: z.array(z.object({ label: z.string(), content: z.string() })),
  analysis: z.string(),
  /** Objective: every wrong response with who gave it, most frequent first. */
  wrongResponses: z.array(WrongResponseGroupSchema),
  /** Written: how many students got each score, lowest first. */
  scoreDistribution: z.array(ScoreCountSchema),
  /** Typical wrong answers (lowest non-blank scores, with crops where there are). */
  typicalAnswers: z.array(AnswerSampleSchema),
  /** Exemplary answers (full or highest marks, with crops where there are). */
  exemplaryAnswers: z.array(AnswerSampleSchema),
  /** Names of students who lost marks on it. */
  wrongStudents: z.array(z.string()),
});
export type CommentaryQuestion = z.infer<typeof CommentaryQuestionSchema>;

export const FollowUpStudentSchema = z.object({
  studentId: IdSchema,
  name: z.string(),
  studentNo: z.string(),
  className: z.string(),
  total: z.number(),
  scoreRate: RateSchema,
  reasons: z.array(FollowUpReasonSchema),
  /** The reasons in Chinese, joined with '；'. */
  reasonText: z.string(),
});
export type FollowUpStudent = z.infer<typeof FollowUpStudentSchema>;

export const CommentarySchema = z.object({
  homework: AnalysisHomeworkSchema,
  scope: AnalysisScopeSchema,
  summary: ScoreStatsSchema,
  /** Questions ordered by need (points lost per student, then lower score rate first). */
  questions: z.array(CommentaryQuestionSchema),
  /** Students to follow up. */
  followUp: z.array(FollowUpStudentSchema),
  generatedAt: TimestampSchema,
});
export type Commentary = z.infer<typeof CommentarySchema>;

// ───────────── details (student × question) ─────────────

export const DetailColumnSchema = z.object({
  questionId: IdSchema,
  no: z.string(),
  typeName: z.string(),
  kind: z.string(),
  objective: z.boolean(),
  fullScore: z.number(),
  /** Answer key of objective questions ('' otherwise). */
  answer: z.string(),
  /** The scope's score rate. */
  scoreRate: RateSchema,
});

/** One answer in the matrix. */
export const DetailCellSchema = z.object({
  /** Points; null while waiting for a marker or when absent. */
  score: z.number().nullable(),
  /** Objective response ('' when blank); null for written answers or when absent. */
  response: z.string().nullable(),
  blank: z.boolean(),
  /** score === full marks (null while unscored). */
  correct: z.boolean().nullable(),
  /** Path (under the API base) of the answer's crop image; null without one. */
  cropUrl: z.string().nullable(),
});
export type DetailCell = z.infer<typeof DetailCellSchema>;

export const DetailRowSchema = ReportStudentSchema.extend({
  status: StudentResultStatusSchema,
  statusName: z.string(),
  total: z.number().nullable(),
  objective: z.number().nullable(),
  subjective: z.number().nullable(),
  classRank: z.number().int().positive().nullable(),
  gradeRank: z.number().int().positive().nullable(),
  /** One cell per column, in column order. */
  cells: z.array(DetailCellSchema),
});
export type DetailRow = z.infer<typeof DetailRowSchema>;

export const HomeworkDetailsSchema = z.object({
  homework: AnalysisHomeworkSchema,
  scope: AnalysisScopeSchema,
  showRank: z.boolean(),
  columns: z.array(DetailColumnSchema),
  /** Scored students by total (highest first), then pending, then absent. */
  rows: z.array(DetailRowSchema),
});
export type HomeworkDetails = z.infer<typeof HomeworkDetailsSchema>;

/** An answer's crop (PNG or JPEG bytes). */
export const CropImageSchema = z.custom<Uint8Array | Blob>(
  (v) => v instanceof Uint8Array || (typeof Blob !== 'undefined' && v instanceof Blob),
);

// ───────────── data centre (grade directors) ─────────────

export const SubjectStatsQuerySchema = HomeworkPeriodQuerySchema;
export type SubjectStatsQuery = z.infer<typeof SubjectStatsQuerySchema>;

export const SubjectStatsSchema = z.object({
  schoolYearId: IdSchema.nullable(),
  schoolYearName: z.string(),
  subjects: z.array(
    z.object({
      subjectId: IdSchema,
      subjectName: z.string(),
      /** Homework (作业) and tests (考试) published. */
      homeworkCount: z.number().int().nonnegative(),
      testCount: z.number().int().nonnegative(),
      /** Of those, how many are 已完成. */
      doneCount: z.number().int().nonnegative(),
      /** Scored sheets over all of them. */
      sheetCount: z.number().int().nonnegative(),
      /** Mean score rate of the scored sheets. */
      scoreRate: RateSchema,
      passRate: RateSchema,
      goodRate: RateSchema,
      excellentRate: RateSchema,
      /** Per class of the school year with homework of the subject. */
      classes: z.array(
        z.object({
          classId: IdSchema,
          className: z.string(),
          homeworkCount: z.number().int().nonnegative(),
          sheetCount: z.number().int().nonnegative(),
          scoreRate: RateSchema,
          passRate: RateSchema,
          excellentRate: RateSchema,
        }),
      ),
      /** The subject's homework, oldest first (a trend line). */
      homework: z.array(
        z.object({
          homeworkId: IdSchema,
          title: z.string(),
          date: DaySchema,
          scoredCount: z.number().int().nonnegative(),
          scoreRate: RateSchema,
          passRate: RateSchema,
        }),
      ),
    }),
  ),
});
export type SubjectStats = z.infer<typeof SubjectStatsSchema>;

export const MarkingReportQuerySchema = z.object({ homeworkId: IdSchema });

export const MarkerStatsSchema = z.object({
  /** The marker's user id (scores written by the host itself from the answer key are not counted). */
  userId: IdSchema,
  name: z.string(),
  /** Answers whose current score this marker gave. */
  scoredCount: z.number().int().nonnegative(),
  /** Numbers of the questions they marked. */
  questionNos: z.array(z.string()),
  /** Mean score rate of the scores they gave. */
  scoreRate: RateSchema,
  /** Mean score rate all markers gave on the same questions (weighted like theirs). */
  peerScoreRate: RateSchema,
  /** scoreRate − peerScoreRate (positive: lenient). */
  deviation: z.number(),
  /** Standard deviation of the rates they gave, against that of all markers on the same questions (ratio). */
  spreadRatio: z.number().nonnegative(),
  /** Share of their scores strictly between 30 % and 70 % of full marks. */
  middleShare: RateSchema,
  indicator: MarkerIndicatorSchema,
  /** 偏松, 偏严, 趋中, 正常, 样本不足. */
  indicatorName: z.string(),
  firstScoredAt: TimestampSchema.nullable(),
  lastScoredAt: TimestampSchema.nullable(),
});
export type MarkerStats = z.infer<typeof MarkerStatsSchema>;

export const MarkingQuestionSchema = z.object({
  questionId: IdSchema,
  no: z.string(),
  typeName: z.string(),
  fullScore: z.number(),
  /** Answers of received sheets. */
  total: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative(),
  /** scored ÷ total (0 when total is 0). */
  progress: RateSchema,
  /** Mean of the scores given, points. */
  average: z.number(),
  scoreRate: RateSchema,
  markers: z.array(
    z.object({
      userId: IdSchema,
      name: z.string(),
      count: z.number().int().nonnegative(),
      scoreRate: RateSchema,
      indicator: MarkerIndicatorSchema,
      indicatorName: z.string(),
    }),
  ),
});
export type MarkingQuestion = z.infer<typeof MarkingQuestionSchema>;

/** Marking progress of a homework's written answers per marker and per question (阅卷报告). */
export const MarkingReportSchema = z.object({
  homework: AnalysisHomeworkSchema,
  progress: z.object({
    /** Sheets received / students of the homework's classes. */
    sheets: z.number().int().nonnegative(),
    students: z.number().int().nonnegative(),
    /** Written answers (marked by teachers) of the received sheets. */
    answers: z.number().int().nonnegative(),
    scored: z.number().int().nonnegative(),
    remaining: z.number().int().nonnegative(),
    /** scored ÷ answers. */
    progress: RateSchema,
  }),
  /** Teachers who marked, most answers first. */
  markers: z.array(MarkerStatsSchema),
  /** Written questions in paper order (objective ones are scored from the key). */
  questions: z.array(MarkingQuestionSchema),
});
export type MarkingReport = z.infer<typeof MarkingReportSchema>;

export const AverageScoreQuerySchema = z.object({ homeworkId: IdSchema });

/** Class averages of a homework and the question × class score-rate matrix. */
export const AverageScoreSchema = z.object({
  homework: AnalysisHomeworkSchema,
  settings: AnalysisSettingsSchema,
  gradeSummary: ScoreStatsSchema,
  /** By rank. */
  classes: z.array(ClassStatsSchema),
  /** Paper order; `classes` of each question lists every class of the homework. */
  questions: z.array(
    z.object({
      questionId: IdSchema,
      no: z.string(),
      typeName: z.string(),
      fullScore: z.number(),
      gradeAverage: z.number(),
      gradeScoreRate: RateSchema,
      classes: z.array(QuestionClassRateSchema),
    }),
  ),
});
export type AverageScore = z.infer<typeof AverageScoreSchema>;

// ───────────── the large screen (/bigData, /largescreen) ─────────────

export const BigDataSchema = z.object({
  school: z.object({ id: IdSchema, name: z.string(), logoUrl: z.string().nullable() }),
  schoolYearName: z.string(),
  /** When the figures were computed. */
  generatedAt: TimestampSchema,
  /** Seconds the screen waits before asking again. */
  refreshSeconds: z.number().int().positive(),
  totals: z.object({
    students: z.number().int().nonnegative(),
    classes: z.number().int().nonnegative(),
    teachers: z.number().int().nonnegative(),
    /** Homework and tests of the school year. */
    homework: z.number().int().nonnegative(),
    /** Scored sheets of the school year. */
    sheets: z.number().int().nonnegative(),
    /** Mean score rate of those sheets. */
    scoreRate: RateSchema,
  }),
  today: z.object({
    date: DaySchema,
    /** Homework running today (start ≤ today ≤ due). */
    active: z.number().int().nonnegative(),
    /** Homework published today. */
    published: z.number().int().nonnegative(),
    /** Sheets received today. */
    sheets: z.number().int().nonnegative(),
    /** Answers scored today (by markers and the answer key). */
    answersScored: z.number().int().nonnegative(),
    /** Homework whose last answer was scored today (已完成 today). */
    completed: z.number().int().nonnegative(),
  }),
  /** Homework being scanned or marked, and the latest finished ones (at most 10). */
  marking: z.array(
    z.object({
      homeworkId: IdSchema,
      title: z.string(),
      subjectName: z.string(),
      classNames: z.string(),
      state: HomeworkStateSchema,
      stateName: z.string(),
      /** Sheets received ÷ students. */
      scanRate: RateSchema,
      /** Answers scored ÷ answers received. */
      markingRate: RateSchema,
    }),
  ),
  /** Daily mean score rate of sheets of homework starting that day, last 30 days with data, oldest first. */
  scoreTrend: z.array(
    z.object({ date: DaySchema, scoreRate: RateSchema, sheets: z.number().int().nonnegative() }),
  ),
  /** Per subject: homework count and mean score rate this school year. */
  subjects: z.array(
    z.object({
      subjectId: IdSchema,
      subjectName: z.string(),
      homeworkCount: z.number().int().nonnegative(),
      scoreRate: RateSchema,
    }),
  ),
  /** Classes by mean score rate this school year (highest first). */
  classes: z.array(
    z.object({
      classId: IdSchema,
      className: z.string(),
      homeworkCount: z.number().int().nonnegative(),
      scoreRate: RateSchema,
    }),
  ),
  /** Score bands of all scored sheets of the school year. */
  bands: z.array(ScoreBandSchema),
});
export type BigData = z.infer<typeof BigDataSchema>;

// ───────────── score sheets (/printgrade, /printgradetest) ─────────────

export const PrintGradeQuerySchema = z.object({
  classId: IdSchema.optional(),
  /** Rows by total (rank) or by student number. */
  order: z.enum(['rank', 'number']).default('rank'),
});

export const PrintGradeRowSchema = z.object({
  /** Row number on the sheet (1-based). */
  index: z.number().int().positive(),
  studentId: IdSchema,
  name: z.string(),
  studentNo: z.string(),
  status: StudentResultStatusSchema,
  statusName: z.string(),
  objective: z.number().nullable(),
  subjective: z.number().nullable(),
  total: z.number().nullable(),
  classRank: z.number().int().positive().nullable(),
  gradeRank: z.number().int().positive().nullable(),
  zScore: z.number().nullable(),
  tScore: z.number().nullable(),
  /** Score per question, in column order (null: unscored or absent). */
  scores: z.array(z.number().nullable()),
});
export type PrintGradeRow = z.infer<typeof PrintGradeRowSchema>;

export const PrintGradeSchema = z.object({
  homework: AnalysisHomeworkSchema,
  showRank: z.boolean(),
  columns: z.array(z.object({ questionId: IdSchema, no: z.string(), fullScore: z.number() })),
  /** One sheet per class (only the asked class when classId is given). */
  classes: z.array(
    z.object({
      classId: IdSchema,
      className: z.string(),
      summary: ScoreStatsSchema,
      rows: z.array(PrintGradeRowSchema),
    }),
  ),
  printedAt: TimestampSchema,
});
export type PrintGrade = z.infer<typeof PrintGradeSchema>;

// ───────────── 错题本 ─────────────

/** The wrong answers a 错题本 gathers: of a subject, of one homework, in a day range (each optional). */
const MistakeScopeSchema = z.object({
  subjectId: IdSchema.optional(),
  /** Only this homework. */
  homeworkId: IdSchema.optional(),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
});

export const MistakeBookQuerySchema = MistakeScopeSchema.extend({
  studentId: IdSchema,
  /** Similar questions per wrong question (举一反三), 0–5, default 2. */
  similar: z.coerce.number().int().min(0).max(5).default(2),
});
export type MistakeBookQuery = z.infer<typeof MistakeBookQuerySchema>;

export const MistakeQuestionSchema = z.object({
  id: IdSchema,
  typeName: z.string(),
  difficulty: z.number().int().min(1).max(5),
  stem: z.string(),
  options: z.array(z.object({ label: z.string(), content: z.string() })),
  answer: z.string(),
  analysis: z.string(),
  knowledgePoints: z.array(KnowledgePointRefSchema),
});
export type MistakeQuestion = z.infer<typeof MistakeQuestionSchema>;

export const MistakeEntrySchema = WrongQuestionSchema.extend({
  /** Similar questions from the bank (same knowledge points and type, near difficulty). */
  similar: z.array(MistakeQuestionSchema),
});
export type MistakeEntry = z.infer<typeof MistakeEntrySchema>;

/** A student's personalised 错题本: wrong questions with similar ones, printable and fed to MistakesExercise. */
export const MistakeBookSchema = z.object({
  student: AnalysisStudentSchema,
  subjectName: z.string(),
  generatedAt: TimestampSchema,
  entries: z.array(MistakeEntrySchema),
  /** Ids of the wrong questions and then their similar ones, without repeats (for 重做错题 / the basket). */
  questionIds: z.array(IdSchema),
});
export type MistakeBook = z.infer<typeof MistakeBookSchema>;

export const MistakeBookPdfSchema = MistakeScopeSchema.extend({
  /** The students' books, one after the other (or give classId for a whole class). */
  studentIds: z.array(IdSchema).max(200).optional(),
  classId: IdSchema.optional(),
  similar: z.number().int().min(0).max(5).default(2),
}).refine((v) => (v.studentIds?.length ?? 0) > 0 || v.classId !== undefined, {
  message: '请选择学生或班级',
  path: ['studentIds'],
});
export type MistakeBookPdf = z.infer<typeof MistakeBookPdfSchema>;

// ───────────── exports ─────────────

const HomeworkTable = <T extends string>(table: T) =>
  z.object({ table: z.literal(table), homeworkId: IdSchema, classId: IdSchema.optional() });

/**
 * Which table to export as .xlsx. Every table of the analysis screens can be exported; `scores` carries ranks
 * (where allowed), Z and T scores and every question's score. The data-centre tables are for grade directors.
 */
export const AnalysisExportSchema = z.discriminatedUnion('table', [
  HomeworkTable('scores'),
  HomeworkTable('questions'),
  HomeworkTable('classes'),
  HomeworkTable('knowledgePoints'),
  HomeworkTable('critical'),
  HomeworkTable('details'),
  HomeworkTable('commentary'),
  z.object({ table: z.literal('student'), studentId: IdSchema, subjectId: IdSchema.optional() }),
  z.object({
    table: z.literal('gradeTrend'),
    subjectId: IdSchema,
    schoolYearId: IdSchema.optional(),
    from: DaySchema.optional(),
    to: DaySchema.optional(),
  }),
  z.object({
    table: z.literal('subjects'),
    schoolYearId: IdSchema.optional(),
    from: DaySchema.optional(),
    to: DaySchema.optional(),
  }),
  z.object({ table: z.literal('marking'), homeworkId: IdSchema }),
  z.object({ table: z.literal('averages'), homeworkId: IdSchema }),
]);
export type AnalysisExport = z.infer<typeof AnalysisExportSchema>;
export type AnalysisExportTable = AnalysisExport['table'];

export const ReportPdfSchema = z.object({ classId: IdSchema.optional() });

// ───────────── calls ─────────────

const IdParams = z.object({ id: IdSchema });

/** The school's analysis settings (thresholds, rank visibility, 临界生 rules). */
export const analysisSettingsCall = defineCall({
  name: 'analysisSettings',
  method: 'GET',
  path: '/teacher/analysis/settings',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(AnalysisSettingsViewSchema),
});

/** Saves the school's analysis settings (school creator or administrator; 403 otherwise). */
export const saveAnalysisSettingsCall = defineCall({
  name: 'saveAnalysisSettings',
  method: 'PUT',
  path: '/teacher/analysis/settings',
  encoding: 'json',
  auth: 'bearer',
  body: AnalysisSettingsSchema,
  response: envelope(AnalysisSettingsViewSchema),
});

/** Subjects and classes of a school year for the analysis filters. */
export const analysisFiltersCall = defineCall({
  name: 'analysisFilters',
  method: 'GET',
  path: '/teacher/analysis/filters',
  encoding: 'query',
  auth: 'bearer',
  query: z.object({ schoolYearId: IdSchema.optional() }),
  response: envelope(AnalysisFiltersSchema),
});

/** Homework to analyse, newest start first, with their progress and mean. */
export const analysisHomeworksCall = defineCall({
  name: 'analysisHomeworks',
  method: 'GET',
  path: '/teacher/analysis/homeworks',
  encoding: 'query',
  auth: 'bearer',
  query: AnalysisHomeworksQuerySchema,
  response: envelope(page(AnalysisHomeworkItemSchema)),
});

/** Students of a class for the student-analysis picker, by student number. */
export const analysisStudentsCall = defineCall({
  name: 'analysisStudents',
  method: 'GET',
  path: '/teacher/analysis/students',
  encoding: 'query',
  auth: 'bearer',
  query: AnalysisStudentsQuerySchema,
  response: envelope(z.array(AnalysisStudentSchema)),
});

/** A homework analysed for the grade (no classId) or one class: /analysis/grade, /assistant/analysis, the report. */
export const homeworkAnalysisCall = defineCall({
  name: 'homeworkAnalysis',
  method: 'GET',
  path: '/teacher/analysis/homework/:id',
  encoding: 'query',
  auth: 'bearer',
  params: IdParams,
  query: HomeworkScopeQuerySchema,
  response: envelope(HomeworkAnalysisSchema),
});

/** A subject's homework over time with the grade's and every class's figures (/analysis/grade trend). */
export const gradeTrendCall = defineCall({
  name: 'gradeTrend',
  method: 'GET',
  path: '/teacher/analysis/grade/trend',
  encoding: 'query',
  auth: 'bearer',
  query: GradeTrendQuerySchema,
  response: envelope(GradeTrendSchema),
});

/** One class of a homework against the grade (/analysis/class). */
export const classAnalysisCall = defineCall({
  name: 'classAnalysis',
  method: 'GET',
  path: '/teacher/analysis/class',
  encoding: 'query',
  auth: 'bearer',
  query: ClassAnalysisQuerySchema,
  response: envelope(ClassAnalysisSchema),
});

/** One student over time: trend, knowledge points, wrong questions (/analysis/person). */
export const studentAnalysisCall = defineCall({
  name: 'studentAnalysis',
  method: 'GET',
  path: '/teacher/analysis/student',
  encoding: 'query',
  auth: 'bearer',
  query: StudentAnalysisQuerySchema,
  response: envelope(StudentAnalysisSchema),
});

/** 讲评 of a homework (/assistant/commentary). */
export const commentaryCall = defineCall({
  name: 'commentary',
  method: 'GET',
  path: '/teacher/analysis/commentary/:id',
  encoding: 'query',
  auth: 'bearer',
  params: IdParams,
  query: HomeworkScopeQuerySchema,
  response: envelope(CommentarySchema),
});

/** The student × question matrix of a homework (/assistant/details). */
export const homeworkDetailsCall = defineCall({
  name: 'homeworkDetails',
  method: 'GET',
  path: '/teacher/analysis/details/:id',
  encoding: 'query',
  auth: 'bearer',
  params: IdParams,
  query: HomeworkScopeQuerySchema,
  response: envelope(HomeworkDetailsSchema),
});

/** The crop image of one answer (the `cropUrl` of cells and samples), scoped to the caller's school. */
export const answerCropCall = defineCall({
  name: 'answerCrop',
  method: 'GET',
  path: '/teacher/analysis/crop/:homeworkId/:studentId/:questionId',
  encoding: 'none',
  auth: 'bearer',
  params: z.object({ homeworkId: IdSchema, studentId: IdSchema, questionId: IdSchema }),
  response: CropImageSchema,
});

/** Score-sheet data of a homework (/printgrade, /printgradetest). */
export const printGradeCall = defineCall({
  name: 'printGrade',
  method: 'GET',
  path: '/teacher/analysis/print-grade/:id',
  encoding: 'query',
  auth: 'bearer',
  params: IdParams,
  query: PrintGradeQuerySchema,
  response: envelope(PrintGradeSchema),
});

/** A student's 错题本 with similar questions. */
export const mistakeBookCall = defineCall({
  name: 'mistakeBook',
  method: 'GET',
  path: '/teacher/analysis/mistake-book',
  encoding: 'query',
  auth: 'bearer',
  query: MistakeBookQuerySchema,
  response: envelope(MistakeBookSchema),
});

/** SPEC §7 file download: 错题本 of several students (or a class) as one printable PDF. */
export const mistakeBookPdfCall = defineCall({
  name: 'mistakeBookPdf',
  method: 'POST',
  path: '/teacher/analysis/mistake-book/pdf',
  encoding: 'json',
  auth: 'bearer',
  body: MistakeBookPdfSchema,
  response: PdfFileSchema,
});

/** SPEC §7 file download: the homework report (papaerReport) as PDF, for the grade or one class. */
export const reportPdfCall = defineCall({
  name: 'reportPdf',
  method: 'POST',
  path: '/teacher/analysis/report/:id/pdf',
  encoding: 'json',
  auth: 'bearer',
  params: IdParams,
  body: ReportPdfSchema,
  response: PdfFileSchema,
});

/** SPEC §7 file download: one analysis table as .xlsx. */
export const exportAnalysisCall = defineCall({
  name: 'exportAnalysis',
  method: 'POST',
  path: '/teacher/analysis/export',
  encoding: 'json',
  auth: 'bearer',
  body: AnalysisExportSchema,
  response: XlsxFileSchema,
});

/** Data centre, grade directors only (403 otherwise): subjects of a school year (/dataCenter/subject). */
export const subjectStatsCall = defineCall({
  name: 'subjectStats',
  method: 'GET',
  path: '/teacher/data-center/subject',
  encoding: 'query',
  auth: 'bearer',
  query: SubjectStatsQuerySchema,
  response: envelope(SubjectStatsSchema),
});

/** Data centre, grade directors only: marking progress per teacher and question (/dataCenter/correctScore). */
export const markingReportCall = defineCall({
  name: 'markingReport',
  method: 'GET',
  path: '/teacher/data-center/correct-score',
  encoding: 'query',
  auth: 'bearer',
  query: MarkingReportQuerySchema,
  response: envelope(MarkingReportSchema),
});

/** Data centre, grade directors only: class averages and per-question comparison (/dataCenter/averageScore). */
export const averageScoreCall = defineCall({
  name: 'averageScore',
  method: 'GET',
  path: '/teacher/data-center/average-score',
  encoding: 'query',
  auth: 'bearer',
  query: AverageScoreQuerySchema,
  response: envelope(AverageScoreSchema),
});

/** The school's activity for /bigData and /largescreen (any teacher of the school). */
export const bigDataCall = defineCall({
  name: 'bigData',
  method: 'GET',
  path: '/teacher/big-data/overview',
  encoding: 'none',
  auth: 'bearer',
  response: envelope(BigDataSchema),
});
