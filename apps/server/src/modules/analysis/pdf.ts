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
  field,
  fieldTable,
  heading,
  newDoc,
  num,
  paragraph,
  pct,
  pct0,
  plain,
  rateColor,
  stream,
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
  type Stats = typeof s;
  fieldTable<Stats>(
    doc,
    [s],
    [
      field(C.studentCount, 1, (x) => String(x.studentCount)),
      field(C.scored, 1, (x) => String(x.scoredCount)),
      field(C.pending, 1, (x) => String(x.pendingCount)),
      field(C.absent, 1, (x) => String(x.absentCount)),
      field(C.average, 1, (x) => num(x.average)),
      field(C.max, 1, (x) => num(x.max)),
      field(C.min, 1, (x) => num(x.min)),
      field(C.median, 1, (x) => num(x.median)),
      field(C.standardDeviation, 1, (x) => num(x.standardDeviation)),
    ],
  );
  fieldTable<Stats>(
    doc,
    [s],
    [
      field(C.scoreRate, 1, (x) => pct(x.scoreRate)),
      field(C.passRate, 1.4, (x) => T.rateWithCount(pct(x.passRate), x.passCount)),
      field(C.goodRate, 1.4, (x) => T.rateWithCount(pct(x.goodRate), x.goodCount)),
      field(C.excellentRate, 1.4, (x) => T.rateWithCount(pct(x.excellentRate), x.excellentCount)),
      field(C.failCount, 1, (x) => String(x.failCount)),
      field(C.objectiveAverage, 1.2, () => `${num(a.objective.average)} / ${num(a.objective.fullScore)}`),
      field(C.subjectiveAverage, 1.2, () => `${num(a.subjective.average)} / ${num(a.subjective.fullScore)}`),
      field(C.alpha, 1, () => (a.cronbachAlpha === null ? PDF_TEXT.none : a.cronbachAlpha.toFixed(2))),
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
  type Band = HomeworkAnalysis['bands'][number];
  fieldTable<Band>(doc, a.bands, [
    field(C.band, 2, (b) => b.label),
    field(C.scoreRange, 2, (b) => `${num(b.from)}–${num(b.to)}`),
    field(C.count, 1, (b) => String(b.count)),
    field(C.share, 1, (b) => pct(b.rate)),
    ...(classScope
      ? [
          field<Band>(C.gradeCount, 1, (b) => String(b.gradeCount)),
          field<Band>(C.gradeShare, 1, (b) => pct(b.gradeRate)),
        ]
      : []),
  ]);
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
  fieldTable(doc, a.classes, [
    field(C.className, 1.6, (c) => c.className, 'left'),
    field(C.teachers, 1.4, (c) => c.teacherNames || PDF_TEXT.none, 'left'),
    field(C.scored, 0.9, (c) => String(c.stats.scoredCount)),
    field(C.average, 1, (c) => num(c.stats.average)),
    field(C.max, 1, (c) => num(c.stats.max)),
    field(C.scoreRate, 1, (c) => pct(c.stats.scoreRate)),
    field(C.passRate, 1, (c) => pct(c.stats.passRate)),
    field(C.excellentRate, 1, (c) => pct(c.stats.excellentRate)),
    field(C.overAverageRate, 1, (c) => pct(c.overAverageRate)),
    field(C.rank, 0.8, (c) => String(c.rank)),
  ]);
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
  fieldTable(doc, a.questions, [
    field(C.no, 0.7, (q) => q.no),
    field(C.type, 1.1, (q) => q.typeName),
    field(C.fullScore, 0.8, (q) => num(q.fullScore)),
    field(C.average, 0.9, (q) => num(q.average)),
    field(C.scoreRate, 1, (q) => pct(q.scoreRate)),
    field(C.difficulty, 0.9, (q) => q.difficultyName),
    field(C.discrimination, 1.3, (q) =>
      q.discrimination === null ? PDF_TEXT.none : `${q.discrimination.toFixed(2)} ${q.discriminationName}`,
    ),
    field(C.fullCount, 1.1, (q) => String(q.fullCount)),
    field(C.zeroCount, 1.1, (q) => String(q.zeroCount)),
    field(C.wrongCount, 1.1, (q) => String(q.wrongCount)),
    field(C.correctAnswer, 1.3, (q) => plain(q.correctAnswer, 40), 'left'),
  ]);
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
  fieldTable(doc, a.knowledgePoints, [
    field(C.knowledgePoint, 3, (k) => k.name, 'left'),
    field(C.no, 2, (k) => k.questionNos.join(PDF_TEXT.listSeparator), 'left'),
    field(C.points, 1, (k) => num(k.fullScore)),
    field(C.scoreRate, 1, (k) => pct(k.scoreRate)),
  ]);
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
