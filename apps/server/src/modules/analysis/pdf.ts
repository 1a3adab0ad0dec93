import type { Readable } from 'node:stream';
import type { HomeworkAnalysis } from '@zhzy/contracts';
import type { CardFonts } from '@zhzy/answer-card/render';
import { PDF_COLUMNS as C, PDF_TEXT, REPORT_PDF_TEXT as T } from '../../i18n/analysis-report.js';
import { columnChart, rowChart } from './pdf-charts.js';
import {
  AMBER,
  BLUE,
  DIFFICULTY,
  MUTED,
  ROSE,
  SLATE,
  countAxis,
  heading,
  newDoc,
  num,
  paragraph,
  pct,
  pct0,
  plain,
  rateColor,
  stream,
  table,
  titleBlock,
  type Doc,
} from './pdf-doc.js';

// The printable analysis files (SPEC §7): the homework report (papaerReport) here, the 错题本 of several students in
// pdf-mistakes.ts; both drawn with the kit of pdf-doc.ts (A4, the CJK font, a page number on every page, streamed).

export { mistakeBookPdf, type MistakeBookPdfOptions } from './pdf-mistakes.js';

export interface ReportPdfOptions {
  fonts: CardFonts;
  schoolName?: string;
}

/** The homework report (papaerReport) of the grade or one class, as a PDF stream. */
export function reportPdf(a: HomeworkAnalysis, options: ReportPdfOptions): Readable {
  const hw = a.homework;
  const title = T.title(hw.title);
  const doc = newDoc(options.fonts, title, () => `${hw.title} · ${a.scope.name}`);
  return stream(doc, () => {
    doc.addPage();
    titleBlock(doc, title, [
      `${hw.subjectName} · ${hw.typeName} · ${a.scope.name}`,
      T.period(hw.startDate, hw.dueDate, num(hw.fullScore), hw.questionCount, hw.createdByName),
      PDF_TEXT.generatedAt(a.generatedAt.slice(0, 16).replace('T', ' ')),
    ]);
    // Charts only once somebody is marked: an unmarked homework is not drawn as a collapse to 0.
    const charts = a.summary.scoredCount > 0;
    summarySection(doc, a);
    bandsSection(doc, a, charts);
    classesSection(doc, a, charts);
    questionsSection(doc, a, charts);
    if (a.knowledgePoints.length > 0) knowledgeSection(doc, a, charts);
  });
}

/** 一、成绩概况: the counts and statistics of the scope, then its rates. */
function summarySection(doc: Doc, a: HomeworkAnalysis): void {
  const s = a.summary;
  heading(doc, T.summary);
  table(
    doc,
    [
      C.studentCount,
      C.scored,
      C.pending,
      C.absent,
      C.average,
      C.max,
      C.min,
      C.median,
      C.standardDeviation,
    ].map((title) => ({ title, weight: 1 })),
    [
      [
        String(s.studentCount),
        String(s.scoredCount),
        String(s.pendingCount),
        String(s.absentCount),
        num(s.average),
        num(s.max),
        num(s.min),
        num(s.median),
        num(s.standardDeviation),
      ],
    ],
  );
  table(
    doc,
    [
      { title: C.scoreRate, weight: 1 },
      { title: C.passRate, weight: 1.4 },
      { title: C.goodRate, weight: 1.4 },
      { title: C.excellentRate, weight: 1.4 },
      { title: C.failCount, weight: 1 },
      { title: C.objectiveAverage, weight: 1.2 },
      { title: C.subjectiveAverage, weight: 1.2 },
      { title: C.alpha, weight: 1 },
    ],
    [
      [
        pct(s.scoreRate),
        T.rateWithCount(pct(s.passRate), s.passCount),
        T.rateWithCount(pct(s.goodRate), s.goodCount),
        T.rateWithCount(pct(s.excellentRate), s.excellentCount),
        String(s.failCount),
        `${num(a.objective.average)} / ${num(a.objective.fullScore)}`,
        `${num(a.subjective.average)} / ${num(a.subjective.fullScore)}`,
        a.cronbachAlpha === null ? PDF_TEXT.none : a.cronbachAlpha.toFixed(2),
      ],
    ],
  );
  const lines = a.settings;
  paragraph(doc, T.linesNote(pct(lines.passRate), pct(lines.goodRate), pct(lines.excellentRate)), {
    size: 8.5,
    color: MUTED,
  });
}

/** 二、分数段分布: the bands (beside the grade's for a class), as a table and a chart. */
function bandsSection(doc: Doc, a: HomeworkAnalysis, charts: boolean): void {
  heading(doc, T.bands);
  const classScope = a.scope.classId !== null;
  table(
    doc,
    [
      { title: C.band, weight: 2 },
      { title: C.scoreRange, weight: 2 },
      { title: C.count, weight: 1 },
      { title: C.share, weight: 1 },
      ...(classScope
        ? [
            { title: C.gradeCount, weight: 1 },
            { title: C.gradeShare, weight: 1 },
          ]
        : []),
    ],
    a.bands.map((b) => [
      b.label,
      `${num(b.from)}–${num(b.to)}`,
      String(b.count),
      pct(b.rate),
      ...(classScope ? [String(b.gradeCount), pct(b.gradeRate)] : []),
    ]),
  );
  if (!charts) return;
  columnChart(
    doc,
    classScope
      ? {
          title: T.bandShareChart,
          series: [
            { name: T.thisClass, color: BLUE },
            { name: T.grade, color: SLATE },
          ],
          bars: a.bands.map((b) => ({ label: b.label, values: [b.rate, b.gradeRate] })),
          max: 1,
          format: pct0,
        }
      : {
          title: T.bandCountChart,
          series: [{ name: C.count, color: BLUE }],
          bars: a.bands.map((b) => ({ label: b.label, values: [b.count] })),
          max: countAxis(Math.max(...a.bands.map((b) => b.count))),
          format: (v) => String(Math.round(v)),
        },
  );
}

/** 三、班级对比: every class of the homework, and their averages against the grade's. */
function classesSection(doc: Doc, a: HomeworkAnalysis, charts: boolean): void {
  heading(doc, T.classes);
  table(
    doc,
    [
      { title: C.className, weight: 1.6, align: 'left' },
      { title: C.teachers, weight: 1.4, align: 'left' },
      { title: C.scored, weight: 0.9 },
      ...[C.average, C.max, C.scoreRate, C.passRate, C.excellentRate, C.overAverageRate].map((title) => ({
        title,
        weight: 1,
      })),
      { title: C.rank, weight: 0.8 },
    ],
    a.classes.map((c) => [
      c.className,
      c.teacherNames || PDF_TEXT.none,
      String(c.stats.scoredCount),
      num(c.stats.average),
      num(c.stats.max),
      pct(c.stats.scoreRate),
      pct(c.stats.passRate),
      pct(c.stats.excellentRate),
      pct(c.overAverageRate),
      String(c.rank),
    ]),
  );
  if (!charts) return;
  columnChart(doc, {
    title: T.classAverageChart,
    series: [{ name: C.average, color: BLUE }],
    // A class nobody has been marked in yet draws no bar (not a zero).
    bars: a.classes.map((c) => ({
      label: c.className,
      values: [c.stats.scoredCount > 0 ? c.stats.average : null],
      ...(c.classId === a.scope.classId ? { color: AMBER } : {}),
    })),
    max: a.homework.fullScore,
    format: num,
    missing: T.marking,
    guides: [
      { value: a.gradeSummary.average, label: T.gradeAverage(num(a.gradeSummary.average)), color: ROSE },
    ],
  });
}

/** 四、小题分析: every question's statistics, and their score rates coloured by difficulty. */
function questionsSection(doc: Doc, a: HomeworkAnalysis, charts: boolean): void {
  heading(doc, T.questions);
  table(
    doc,
    [
      { title: C.no, weight: 0.7 },
      { title: C.type, weight: 1.1 },
      { title: C.fullScore, weight: 0.8 },
      { title: C.average, weight: 0.9 },
      { title: C.scoreRate, weight: 1 },
      { title: C.difficulty, weight: 0.9 },
      { title: C.discrimination, weight: 1.3 },
      { title: C.fullCount, weight: 1.1 },
      { title: C.zeroCount, weight: 1.1 },
      { title: C.wrongCount, weight: 1.1 },
      { title: C.correctAnswer, weight: 1.3, align: 'left' },
    ],
    a.questions.map((q) => [
      q.no,
      q.typeName,
      num(q.fullScore),
      num(q.average),
      pct(q.scoreRate),
      q.difficultyName,
      q.discrimination === null ? PDF_TEXT.none : `${q.discrimination.toFixed(2)} ${q.discriminationName}`,
      String(q.fullCount),
      String(q.zeroCount),
      String(q.wrongCount),
      plain(q.correctAnswer, 40),
    ]),
  );
  if (charts)
    columnChart(doc, {
      title: T.questionRateChart,
      series: [{ name: C.scoreRate, color: BLUE }],
      bars: a.questions.map((q) => ({ label: q.no, values: [q.scoreRate], color: DIFFICULTY[q.difficulty] })),
      max: 1,
      format: pct0,
      guides: [
        { value: 0.7, label: T.easyGuide, color: DIFFICULTY.easy },
        { value: 0.4, label: T.hardGuide, color: DIFFICULTY.hard },
      ],
    });
  paragraph(doc, T.difficultyNote, { size: 8.5, color: MUTED });
}

/** 五、知识点掌握: the score rate of every knowledge point the questions test. */
function knowledgeSection(doc: Doc, a: HomeworkAnalysis, charts: boolean): void {
  heading(doc, T.knowledgePoints);
  table(
    doc,
    [
      { title: C.knowledgePoint, weight: 3, align: 'left' },
      { title: C.no, weight: 2, align: 'left' },
      { title: C.points, weight: 1 },
      { title: C.scoreRate, weight: 1 },
    ],
    a.knowledgePoints.map((k) => [
      k.name,
      k.questionNos.join(PDF_TEXT.listSeparator),
      num(k.fullScore),
      pct(k.scoreRate),
    ]),
  );
  if (charts)
    rowChart(doc, {
      title: T.knowledgePointChart,
      rows: a.knowledgePoints.map((k) => ({
        label: k.name,
        value: k.scoreRate,
        color: rateColor(k.scoreRate),
      })),
      max: 1,
      format: pct,
    });
}
