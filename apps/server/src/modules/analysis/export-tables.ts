import type { AnalysisService } from './service.js';
import type { SheetTable, Column } from './export.js';
import { EXPORT_HEADERS as H, EXPORT_SHEETS as S, EXPORT_TEXT as T } from '../../i18n/analysis-export.js';

// One function per analysis workbook table: what each sheet shows, from the analysis the service computes
// (export.ts picks the tables of a request and writes the workbook). A table is a list of fields — a column
// and how a row fills it — so a column's header and its cells are written once, side by side.

type Method = {
  [K in keyof AnalysisService]: AnalysisService[K] extends (...a: never[]) => unknown ? K : never;
}[keyof AnalysisService];
type Result<K extends Method> = Awaited<ReturnType<AnalysisService[K]>>;
type HomeworkAnalysis = Result<'homeworkAnalysis'>;
type Details = Result<'details'>;
type Cell = SheetTable['rows'][number][number];

/** One column of a table and the cell a row gives it. */
type Field<R> = readonly [Column, (row: R) => Cell];
/** Columns whose number depends on the data (one per question, per class): their headers and a row's cells. */
interface Spread<R> {
  columns: Column[];
  cells: (row: R) => Cell[];
}

const f = <R>(header: string, cell: (row: R) => Cell, width?: number): Field<R> => [
  width === undefined ? { header } : { header, width },
  cell,
];
/** A rate (0–1) shown as a percentage. */
const pct = <R>(header: string, cell: (row: R) => Cell): Field<R> => [{ header, percent: true }, cell];
const rank = (v: number | null) => v ?? '';
const list = (items: readonly (string | number)[]) => items.join(T.listSeparator);

function table<R>(
  name: string,
  rows: readonly R[],
  fields: readonly Field<R>[],
  spread?: Spread<R>,
): SheetTable {
  return {
    name,
    columns: [...fields.map(([column]) => column), ...(spread?.columns ?? [])],
    rows: rows.map((r) => [...fields.map(([, cell]) => cell(r)), ...(spread?.cells(r) ?? [])]),
  };
}

interface Person {
  name: string;
  studentNo: string;
  className: string;
}
/** 姓名, 学号, 班级: the first columns of every table of students. */
const person = <R extends Person>(): Field<R>[] => [
  f(H.name, (r) => r.name),
  f(H.studentNo, (r) => r.studentNo, 14),
  f(H.className, (r) => r.className, 14),
];

export function scoresTable(a: HomeworkAnalysis, d: Details): SheetTable {
  const byId = new Map(d.rows.map((r) => [r.studentId, r]));
  type Row = HomeworkAnalysis['students'][number];
  return table<Row>(
    S.scores,
    a.students,
    [
      ...person<Row>(),
      f(H.status, (s) => s.statusName),
      f(H.objective, (s) => s.objective),
      f(H.subjective, (s) => s.subjective),
      f(H.total, (s) => s.total),
      pct(H.scoreRate, (s) => s.scoreRate),
      f(H.classRank, (s) => rank(s.classRank)),
      f(H.gradeRank, (s) => rank(s.gradeRank)),
      f(H.zScore, (s) => s.zScore),
      f(H.tScore, (s) => s.tScore),
    ],
    {
      columns: d.columns.map((c) => ({ header: H.questionWithScore(c.no, c.fullScore), width: 12 })),
      cells: (s) => byId.get(s.studentId)?.cells.map((c) => c.score) ?? [],
    },
  );
}

export function questionsTable(a: HomeworkAnalysis): SheetTable {
  return table(S.questions, a.questions, [
    f(H.no, (q) => q.no),
    f(H.type, (q) => q.typeName),
    f(H.fullScore, (q) => q.fullScore),
    f(H.average, (q) => q.average),
    pct(H.scoreRate, (q) => q.scoreRate),
    f(H.difficulty, (q) => q.difficultyName),
    f(H.discrimination, (q) => q.discrimination),
    f(H.discriminationName, (q) => q.discriminationName),
    f(H.fullCount, (q) => q.fullCount),
    f(H.zeroCount, (q) => q.zeroCount),
    f(H.blankCount, (q) => q.blankCount),
    f(H.correctAnswer, (q) => (q.objective ? q.correctAnswer : ''), 16),
    f(
      H.typicalWrong,
      (q) =>
        q.typicalWrong.map((w) => T.typicalWrong(w.response || T.noAnswer, w.count)).join(T.clauseSeparator),
      24,
    ),
    f(H.knowledgePoint, (q) => list(q.knowledgePoints.map((k) => k.name)), 30),
  ]);
}

export function classesTable(a: HomeworkAnalysis): SheetTable {
  return table(S.classes, a.classes, [
    f(H.rank, (c) => c.rank),
    f(H.className, (c) => c.className, 14),
    f(H.teachers, (c) => c.teacherNames, 14),
    f(H.studentCount, (c) => c.stats.studentCount),
    f(H.scoredCount, (c) => c.stats.scoredCount),
    f(H.average, (c) => c.stats.average),
    pct(H.overAverageRate, (c) => c.overAverageRate),
    f(H.max, (c) => c.stats.max),
    f(H.min, (c) => c.stats.min),
    f(H.median, (c) => c.stats.median),
    f(H.standardDeviation, (c) => c.stats.standardDeviation),
    pct(H.passRate, (c) => c.stats.passRate),
    pct(H.goodRate, (c) => c.stats.goodRate),
    pct(H.excellentRate, (c) => c.stats.excellentRate),
  ]);
}

export function knowledgePointsTable(a: HomeworkAnalysis): SheetTable {
  return table(S.knowledgePoints, a.knowledgePoints, [
    f(H.knowledgePoint, (k) => k.name, 24),
    f(H.no, (k) => list(k.questionNos), 16),
    f(H.points, (k) => k.fullScore),
    pct(H.scoreRate, (k) => k.scoreRate),
    pct(H.gradeScoreRate, (k) => k.gradeScoreRate),
    f(H.mastery, (k) => k.masteryName),
  ]);
}

export function criticalTable(a: HomeworkAnalysis): SheetTable {
  type Row = HomeworkAnalysis['criticalStudents'][number];
  return table<Row>(S.critical, a.criticalStudents, [
    ...person<Row>(),
    f(H.total, (c) => c.total),
    pct(H.scoreRate, (c) => c.scoreRate),
    f(H.gradeRank, (c) => rank(c.gradeRank)),
    f(H.criticalLine, (c) => c.line),
    f(H.lineValue, (c) => c.lineValue),
    f(H.gap, (c) => c.gap),
  ]);
}

export function detailsTable(d: Details): SheetTable {
  type Row = Details['rows'][number];
  return table<Row>(S.details, d.rows, [...person<Row>(), f(H.total, (r) => r.total)], {
    columns: d.columns.map((c) => ({ header: H.question(c.no), width: 10 })),
    cells: (r) =>
      r.cells.map((c) =>
        c.score === null ? null : c.response ? T.scoreWithResponse(c.score, c.response) : c.score,
      ),
  });
}

export function commentaryTables(c: Result<'commentary'>): SheetTable[] {
  type FollowUp = Result<'commentary'>['followUp'][number];
  return [
    table(S.commentaryOrder, c.questions, [
      f(H.priority, (q) => q.priority),
      f(H.no, (q) => q.no),
      f(H.type, (q) => q.typeName),
      f(H.fullScore, (q) => q.fullScore),
      f(H.lostScore, (q) => q.lostScore),
      pct(H.scoreRate, (q) => q.scoreRate),
      f(H.wrongCount, (q) => q.wrongCount),
      f(
        H.wrongResponses,
        (q) =>
          q.wrongResponses
            .map((w) => T.wrongResponse(w.response || T.noAnswer, w.count))
            .join(T.clauseSeparator),
        30,
      ),
      f(H.needsDiscussion, (q) => (q.needsDiscussion ? T.yes : T.no)),
    ]),
    table<FollowUp>(S.followUp, c.followUp, [
      ...person<FollowUp>(),
      f(H.total, (r) => r.total),
      pct(H.scoreRate, (r) => r.scoreRate),
      f(H.reason, (r) => r.reasonText, 36),
    ]),
  ];
}

export function studentTables(s: Result<'studentAnalysis'>): SheetTable[] {
  return [
    table(S.studentTrend, s.trend, [
      f(H.homework, (t) => t.title, 24),
      f(H.subject, (t) => t.subjectName),
      f(H.date, (t) => t.date, 12),
      f(H.fullScore, (t) => t.fullScore),
      f(H.score, (t) => t.total),
      pct(H.scoreRate, (t) => t.scoreRate),
      f(H.classAverage, (t) => t.classAverage),
      f(H.gradeAverage, (t) => t.gradeAverage),
      f(H.classRank, (t) => rank(t.classRank)),
      f(H.gradeRank, (t) => rank(t.gradeRank)),
      f(H.zScore, (t) => t.zScore),
      f(H.tScore, (t) => t.tScore),
    ]),
    table(S.knowledgePoints, s.knowledgePoints, [
      f(H.knowledgePoint, (k) => k.name, 24),
      f(H.answerCount, (k) => k.questionCount),
      pct(H.scoreRate, (k) => k.scoreRate),
      pct(H.gradeScoreRate, (k) => k.gradeScoreRate),
      f(H.mastery, (k) => k.masteryName),
    ]),
    table(S.wrongQuestions, s.wrongQuestions, [
      f(H.homework, (w) => w.homeworkTitle, 24),
      f(H.date, (w) => w.date, 12),
      f(H.no, (w) => w.no),
      f(H.type, (w) => w.typeName),
      f(H.response, (w) => w.response ?? ''),
      f(H.score, (w) => w.score),
      f(H.fullScore, (w) => w.fullScore),
      pct(H.gradeScoreRate, (w) => w.gradeScoreRate),
    ]),
  ];
}

export function gradeTrendTable(g: Result<'gradeTrend'>): SheetTable {
  return table(
    S.gradeTrend,
    g.points,
    [
      f(H.homework, (p) => p.title, 24),
      f(H.date, (p) => p.date, 12),
      f(H.scoredCount, (p) => p.scoredCount),
      f(H.gradeAverage, (p) => p.average),
      pct(H.scoreRate, (p) => p.scoreRate),
      pct(H.passRate, (p) => p.passRate),
    ],
    {
      columns: g.classes.map((c) => ({ header: H.classAverageOf(c.name), width: 14 })),
      cells: (p) => g.classes.map((c) => p.classes.find((x) => x.classId === c.id)?.average ?? null),
    },
  );
}

export function subjectsTable(s: Result<'subjectStats'>): SheetTable {
  return table(S.subjects, s.subjects, [
    f(H.subject, (x) => x.subjectName),
    f(H.homeworkCount, (x) => x.homeworkCount),
    f(H.testCount, (x) => x.testCount),
    f(H.doneCount, (x) => x.doneCount),
    f(H.sheetCount, (x) => x.sheetCount),
    pct(H.scoreRate, (x) => x.scoreRate),
    pct(H.passRate, (x) => x.passRate),
    pct(H.goodRate, (x) => x.goodRate),
    pct(H.excellentRate, (x) => x.excellentRate),
  ]);
}

export function markingTables(m: Result<'markingReport'>): SheetTable[] {
  return [
    table(S.markers, m.markers, [
      f(H.teacher, (x) => x.name),
      f(H.marked, (x) => x.scoredCount),
      f(H.no, (x) => list(x.questionNos), 16),
      pct(H.markerScoreRate, (x) => x.scoreRate),
      pct(H.peerScoreRate, (x) => x.peerScoreRate),
      f(H.deviation, (x) => x.deviation),
      pct(H.middleShare, (x) => x.middleShare),
      f(H.indicator, (x) => x.indicatorName),
    ]),
    table(S.markingQuestions, m.questions, [
      f(H.no, (q) => q.no),
      f(H.type, (q) => q.typeName),
      f(H.fullScore, (q) => q.fullScore),
      f(H.count, (q) => q.total),
      f(H.marked, (q) => q.scored),
      f(H.unmarked, (q) => q.remaining),
      pct(H.progress, (q) => q.progress),
      f(H.average, (q) => q.average),
      f(H.markers, (q) => list(q.markers.map((x) => T.markerCount(x.name, x.count))), 24),
    ]),
  ];
}

export function averagesTable(a: Result<'averageScore'>): SheetTable {
  return table(
    S.averagesSheet,
    a.questions,
    [f(H.no, (q) => q.no), f(H.fullScore, (q) => q.fullScore), pct(H.grade, (q) => q.gradeScoreRate)],
    {
      columns: a.classes.map((c) => ({ header: c.className, width: 14, percent: true })),
      cells: (q) => a.classes.map((c) => q.classes.find((x) => x.classId === c.classId)?.scoreRate ?? null),
    },
  );
}
