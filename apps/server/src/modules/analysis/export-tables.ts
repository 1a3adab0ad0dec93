import type { AnalysisService } from './service.js';
import type { SheetTable, Column } from './export.js';
import { EXPORT_HEADERS as H, EXPORT_SHEETS as S, EXPORT_TEXT as T } from '../../i18n/analysis-export.js';

// One function per analysis workbook table: what each sheet shows, from the analysis the service computes
// (export.ts picks the tables of a request and writes the workbook).

type Method = {
  [K in keyof AnalysisService]: AnalysisService[K] extends (...a: never[]) => unknown ? K : never;
}[keyof AnalysisService];
type Result<K extends Method> = Awaited<ReturnType<AnalysisService[K]>>;
type HomeworkAnalysis = Result<'homeworkAnalysis'>;
type Details = Result<'details'>;

const col = (header: string, width?: number): Column =>
  width === undefined ? { header } : { header, width };
const pct = (header: string): Column => ({ header, percent: true });
const rank = (v: number | null) => v ?? '';
const list = (items: readonly (string | number)[]) => items.join(T.listSeparator);

export function scoresTable(a: HomeworkAnalysis, d: Details): SheetTable {
  const byId = new Map(d.rows.map((r) => [r.studentId, r]));
  return {
    name: S.scores,
    columns: [
      col(H.name),
      col(H.studentNo, 14),
      col(H.className, 14),
      col(H.status),
      col(H.objective),
      col(H.subjective),
      col(H.total),
      pct(H.scoreRate),
      col(H.classRank),
      col(H.gradeRank),
      col(H.zScore),
      col(H.tScore),
      ...d.columns.map((c) => col(H.questionWithScore(c.no, c.fullScore), 12)),
    ],
    rows: a.students.map((s) => [
      s.name,
      s.studentNo,
      s.className,
      s.statusName,
      s.objective,
      s.subjective,
      s.total,
      s.scoreRate,
      rank(s.classRank),
      rank(s.gradeRank),
      s.zScore,
      s.tScore,
      ...(byId.get(s.studentId)?.cells.map((c) => c.score) ?? []),
    ]),
  };
}

export function questionsTable(a: HomeworkAnalysis): SheetTable {
  return {
    name: S.questions,
    columns: [
      col(H.no),
      col(H.type),
      col(H.fullScore),
      col(H.average),
      pct(H.scoreRate),
      col(H.difficulty),
      col(H.discrimination),
      col(H.discriminationName),
      col(H.fullCount),
      col(H.zeroCount),
      col(H.blankCount),
      col(H.correctAnswer, 16),
      col(H.typicalWrong, 24),
      col(H.knowledgePoint, 30),
    ],
    rows: a.questions.map((q) => [
      q.no,
      q.typeName,
      q.fullScore,
      q.average,
      q.scoreRate,
      q.difficultyName,
      q.discrimination,
      q.discriminationName,
      q.fullCount,
      q.zeroCount,
      q.blankCount,
      q.objective ? q.correctAnswer : '',
      q.typicalWrong.map((w) => T.typicalWrong(w.response || T.noAnswer, w.count)).join(T.clauseSeparator),
      list(q.knowledgePoints.map((k) => k.name)),
    ]),
  };
}

export function classesTable(a: HomeworkAnalysis): SheetTable {
  return {
    name: S.classes,
    columns: [
      col(H.rank),
      col(H.className, 14),
      col(H.teachers, 14),
      col(H.studentCount),
      col(H.scoredCount),
      col(H.average),
      pct(H.overAverageRate),
      col(H.max),
      col(H.min),
      col(H.median),
      col(H.standardDeviation),
      pct(H.passRate),
      pct(H.goodRate),
      pct(H.excellentRate),
    ],
    rows: a.classes.map((c) => [
      c.rank,
      c.className,
      c.teacherNames,
      c.stats.studentCount,
      c.stats.scoredCount,
      c.stats.average,
      c.overAverageRate,
      c.stats.max,
      c.stats.min,
      c.stats.median,
      c.stats.standardDeviation,
      c.stats.passRate,
      c.stats.goodRate,
      c.stats.excellentRate,
    ]),
  };
}

export function knowledgePointsTable(a: HomeworkAnalysis): SheetTable {
  return {
    name: S.knowledgePoints,
    columns: [
      col(H.knowledgePoint, 24),
      col(H.no, 16),
      col(H.points),
      pct(H.scoreRate),
      pct(H.gradeScoreRate),
      col(H.mastery),
    ],
    rows: a.knowledgePoints.map((k) => [
      k.name,
      list(k.questionNos),
      k.fullScore,
      k.scoreRate,
      k.gradeScoreRate,
      k.masteryName,
    ]),
  };
}

export function criticalTable(a: HomeworkAnalysis): SheetTable {
  return {
    name: S.critical,
    columns: [
      col(H.name),
      col(H.studentNo, 14),
      col(H.className, 14),
      col(H.total),
      pct(H.scoreRate),
      col(H.gradeRank),
      col(H.criticalLine),
      col(H.lineValue),
      col(H.gap),
    ],
    rows: a.criticalStudents.map((c) => [
      c.name,
      c.studentNo,
      c.className,
      c.total,
      c.scoreRate,
      rank(c.gradeRank),
      c.line,
      c.lineValue,
      c.gap,
    ]),
  };
}

export function detailsTable(d: Details): SheetTable {
  return {
    name: S.details,
    columns: [
      col(H.name),
      col(H.studentNo, 14),
      col(H.className, 14),
      col(H.total),
      ...d.columns.map((c) => col(H.question(c.no), 10)),
    ],
    rows: d.rows.map((r) => [
      r.name,
      r.studentNo,
      r.className,
      r.total,
      ...r.cells.map((c) =>
        c.score === null ? null : c.response ? T.scoreWithResponse(c.score, c.response) : c.score,
      ),
    ]),
  };
}

export function commentaryTables(c: Result<'commentary'>): SheetTable[] {
  return [
    {
      name: S.commentaryOrder,
      columns: [
        col(H.priority),
        col(H.no),
        col(H.type),
        col(H.fullScore),
        col(H.lostScore),
        pct(H.scoreRate),
        col(H.wrongCount),
        col(H.wrongResponses, 30),
        col(H.needsDiscussion),
      ],
      rows: c.questions.map((q) => [
        q.priority,
        q.no,
        q.typeName,
        q.fullScore,
        q.lostScore,
        q.scoreRate,
        q.wrongCount,
        q.wrongResponses
          .map((w) => T.wrongResponse(w.response || T.noAnswer, w.count))
          .join(T.clauseSeparator),
        q.needsDiscussion ? T.yes : T.no,
      ]),
    },
    {
      name: S.followUp,
      columns: [
        col(H.name),
        col(H.studentNo, 14),
        col(H.className, 14),
        col(H.total),
        pct(H.scoreRate),
        col(H.reason, 36),
      ],
      rows: c.followUp.map((f) => [f.name, f.studentNo, f.className, f.total, f.scoreRate, f.reasonText]),
    },
  ];
}

export function studentTables(s: Result<'studentAnalysis'>): SheetTable[] {
  return [
    {
      name: S.studentTrend,
      columns: [
        col(H.homework, 24),
        col(H.subject),
        col(H.date, 12),
        col(H.fullScore),
        col(H.score),
        pct(H.scoreRate),
        col(H.classAverage),
        col(H.gradeAverage),
        col(H.classRank),
        col(H.gradeRank),
        col(H.zScore),
        col(H.tScore),
      ],
      rows: s.trend.map((t) => [
        t.title,
        t.subjectName,
        t.date,
        t.fullScore,
        t.total,
        t.scoreRate,
        t.classAverage,
        t.gradeAverage,
        rank(t.classRank),
        rank(t.gradeRank),
        t.zScore,
        t.tScore,
      ]),
    },
    {
      name: S.knowledgePoints,
      columns: [
        col(H.knowledgePoint, 24),
        col(H.answerCount),
        pct(H.scoreRate),
        pct(H.gradeScoreRate),
        col(H.mastery),
      ],
      rows: s.knowledgePoints.map((k) => [
        k.name,
        k.questionCount,
        k.scoreRate,
        k.gradeScoreRate,
        k.masteryName,
      ]),
    },
    {
      name: S.wrongQuestions,
      columns: [
        col(H.homework, 24),
        col(H.date, 12),
        col(H.no),
        col(H.type),
        col(H.response),
        col(H.score),
        col(H.fullScore),
        pct(H.gradeScoreRate),
      ],
      rows: s.wrongQuestions.map((w) => [
        w.homeworkTitle,
        w.date,
        w.no,
        w.typeName,
        w.response ?? '',
        w.score,
        w.fullScore,
        w.gradeScoreRate,
      ]),
    },
  ];
}

export function gradeTrendTable(g: Result<'gradeTrend'>): SheetTable {
  return {
    name: S.gradeTrend,
    columns: [
      col(H.homework, 24),
      col(H.date, 12),
      col(H.scoredCount),
      col(H.gradeAverage),
      pct(H.scoreRate),
      pct(H.passRate),
      ...g.classes.map((c) => col(H.classAverageOf(c.name), 14)),
    ],
    rows: g.points.map((p) => [
      p.title,
      p.date,
      p.scoredCount,
      p.average,
      p.scoreRate,
      p.passRate,
      ...g.classes.map((c) => p.classes.find((x) => x.classId === c.id)?.average ?? null),
    ]),
  };
}

export function subjectsTable(s: Result<'subjectStats'>): SheetTable {
  return {
    name: S.subjects,
    columns: [
      col(H.subject),
      col(H.homeworkCount),
      col(H.testCount),
      col(H.doneCount),
      col(H.sheetCount),
      pct(H.scoreRate),
      pct(H.passRate),
      pct(H.goodRate),
      pct(H.excellentRate),
    ],
    rows: s.subjects.map((x) => [
      x.subjectName,
      x.homeworkCount,
      x.testCount,
      x.doneCount,
      x.sheetCount,
      x.scoreRate,
      x.passRate,
      x.goodRate,
      x.excellentRate,
    ]),
  };
}

export function markingTables(m: Result<'markingReport'>): SheetTable[] {
  return [
    {
      name: S.markers,
      columns: [
        col(H.teacher),
        col(H.marked),
        col(H.no, 16),
        pct(H.markerScoreRate),
        pct(H.peerScoreRate),
        col(H.deviation),
        pct(H.middleShare),
        col(H.indicator),
      ],
      rows: m.markers.map((x) => [
        x.name,
        x.scoredCount,
        list(x.questionNos),
        x.scoreRate,
        x.peerScoreRate,
        x.deviation,
        x.middleShare,
        x.indicatorName,
      ]),
    },
    {
      name: S.markingQuestions,
      columns: [
        col(H.no),
        col(H.type),
        col(H.fullScore),
        col(H.count),
        col(H.marked),
        col(H.unmarked),
        pct(H.progress),
        col(H.average),
        col(H.markers, 24),
      ],
      rows: m.questions.map((q) => [
        q.no,
        q.typeName,
        q.fullScore,
        q.total,
        q.scored,
        q.remaining,
        q.progress,
        q.average,
        list(q.markers.map((x) => T.markerCount(x.name, x.count))),
      ]),
    },
  ];
}

export function averagesTable(a: Result<'averageScore'>): SheetTable {
  return {
    name: S.averagesSheet,
    columns: [
      col(H.no),
      col(H.fullScore),
      pct(H.grade),
      ...a.classes.map((c) => ({ header: c.className, width: 14, percent: true })),
    ],
    rows: a.questions.map((q) => [
      q.no,
      q.fullScore,
      q.gradeScoreRate,
      ...a.classes.map((c) => q.classes.find((x) => x.classId === c.classId)?.scoreRate ?? null),
    ]),
  };
}
