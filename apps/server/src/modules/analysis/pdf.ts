import fs from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import PDFKit from 'pdfkit';
import type { HomeworkAnalysis, MistakeBook, MistakeQuestion } from '@zhzy/contracts';
import type { CardFonts } from '@zhzy/answer-card/render';
import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import { writeInline } from '../../lib/math-pdf/inline.js';
import { htmlBlocks } from '../materials/booklet.js';
import { drawCellTable } from '../materials/pdf-table.js';
import { columnChart, rowChart } from './pdf-charts.js';

// The printable analysis files (SPEC §7): the homework report (papaerReport) and the 错题本 of several students.
// pdfkit with the machine's CJK font (the answer cards' font, subset on embedding), A4, a page number on every page;
// the document is piped out page by page while it is drawn, never held whole in memory.

const MM = 72 / 25.4;
const A4: [number, number] = [210 * MM, 297 * MM];
const MARGIN = 16 * MM;
const INK = '#111827';
const MUTED = '#4b5563';
const RULE = '#9ca3af';
const HEAD_FILL = '#eef2f7';

const fontCache = new Map<string, Buffer>();
function fontData(path: string): Buffer {
  let data = fontCache.get(path);
  if (!data) {
    data = fs.readFileSync(path);
    fontCache.set(path, data);
  }
  return data;
}

type Doc = PDFKit.PDFDocument;

/** A new A4 document with the CJK faces registered as 'cjk' / 'cjk-bold' and a page number on every page. */
function newDoc(fonts: CardFonts, title: string, header: () => string): Doc {
  const doc = new PDFKit({
    size: A4,
    margins: { top: MARGIN, bottom: MARGIN + 6 * MM, left: MARGIN, right: MARGIN },
    autoFirstPage: false,
    info: { Title: title, Creator: '智能作业' },
  });
  doc.registerFont('cjk', fontData(fonts.regular.path), fonts.regular.family ?? '');
  const bold = fonts.bold ?? fonts.regular;
  doc.registerFont('cjk-bold', fontData(bold.path), bold.family ?? '');
  let page = 0;
  doc.on('pageAdded', () => {
    page += 1;
    const { x, y } = doc;
    const bottom = doc.page.margins.bottom;
    // Drawing below the bottom margin would open another page: lift the margin while the footer is drawn.
    doc.page.margins.bottom = 0;
    const width = doc.page.width - 2 * MARGIN;
    const footY = doc.page.height - MARGIN;
    doc
      .font('cjk')
      .fontSize(8)
      .fillColor(MUTED)
      .text(header(), MARGIN, footY, { width, align: 'left', lineBreak: false })
      .text(`第 ${page} 页`, MARGIN, footY, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
    doc.x = x;
    doc.y = y;
    doc.font('cjk').fontSize(10).fillColor(INK);
  });
  return doc;
}

/** The document as a stream: pdfkit pushes each page's objects as soon as they are complete. */
function stream(doc: Doc, draw: () => void): Readable {
  const out = new PassThrough();
  doc.on('error', (e: Error) => out.destroy(e));
  doc.pipe(out);
  try {
    draw();
  } catch (error) {
    out.destroy(error instanceof Error ? error : new Error(String(error)));
    return out;
  }
  doc.end();
  return out;
}

const width = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottomY = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

/** Opens a page when less than `height` is left on this one. */
function ensure(doc: Doc, height: number): void {
  if (doc.y + height > bottomY(doc)) doc.addPage();
}

const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const pct0 = (rate: number) => `${Math.round(rate * 100)}%`;
/** The web report's palette (blue, slate, amber, rose) and its 难度 colours: easy green, medium blue, hard red. */
const BLUE = '#2563eb';
const SLATE = '#94a3b8';
const AMBER = '#f59e0b';
const ROSE = '#f43f5e';
const DIFFICULTY = { easy: '#10b981', medium: BLUE, hard: ROSE } as const;
const rateColor = (rate: number) =>
  rate >= 0.7 ? DIFFICULTY.easy : rate >= 0.4 ? DIFFICULTY.medium : DIFFICULTY.hard;
/** An axis top for counts: a multiple of 4, so the axis' quarter steps are whole people. */
const countAxis = (max: number) => Math.max(4, Math.ceil(max / 4) * 4);
const num = (n: number) => String(Math.round(n * 100) / 100);

function titleBlock(doc: Doc, title: string, lines: string[]): void {
  doc
    .font('cjk-bold')
    .fontSize(18)
    .fillColor(INK)
    .text(title, MARGIN, doc.y, { width: width(doc), align: 'center' });
  doc.moveDown(0.3);
  for (const line of lines) {
    doc
      .font('cjk')
      .fontSize(10)
      .fillColor(MUTED)
      .text(line, { width: width(doc), align: 'center' });
  }
  doc.moveDown(0.6);
  const y = doc.y;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + width(doc), y)
    .lineWidth(0.8)
    .strokeColor(RULE)
    .stroke();
  doc.moveDown(0.6);
}

function heading(doc: Doc, text: string): void {
  ensure(doc, 48);
  doc.moveDown(0.4);
  doc
    .font('cjk-bold')
    .fontSize(12.5)
    .fillColor(INK)
    .text(text, MARGIN, doc.y, { width: width(doc) });
  doc.moveDown(0.3);
}

interface Column {
  title: string;
  /** Share of the table's width. */
  weight: number;
  align?: 'left' | 'center' | 'right';
}

/** A ruled table that breaks across pages, repeating its header row. */
function table(doc: Doc, columns: Column[], rows: string[][]): void {
  const total = columns.reduce((s, c) => s + c.weight, 0);
  const widths = columns.map((c) => (c.weight / total) * width(doc));
  const pad = 3;
  const size = 9;
  const rowHeight = (cells: string[], font: string) => {
    doc.font(font).fontSize(size);
    return (
      Math.max(...cells.map((text, i) => doc.heightOfString(text || ' ', { width: widths[i]! - 2 * pad }))) +
      2 * pad
    );
  };
  const drawRow = (cells: string[], header: boolean) => {
    const font = header ? 'cjk-bold' : 'cjk';
    const h = rowHeight(cells, font);
    const y = doc.y;
    let x = MARGIN;
    if (header) doc.rect(MARGIN, y, width(doc), h).fillColor(HEAD_FILL).fill();
    doc.lineWidth(0.5).strokeColor(RULE);
    for (const [i, text] of cells.entries()) {
      const w = widths[i]!;
      doc.rect(x, y, w, h).stroke();
      doc
        .font(font)
        .fontSize(size)
        .fillColor(INK)
        .text(text, x + pad, y + pad, {
          width: w - 2 * pad,
          align: header ? 'center' : (columns[i]!.align ?? 'center'),
        });
      x += w;
    }
    doc.x = MARGIN;
    doc.y = y + h;
  };
  const headerCells = columns.map((c) => c.title);
  ensure(doc, rowHeight(headerCells, 'cjk-bold') + (rows[0] ? rowHeight(rows[0], 'cjk') : 0));
  drawRow(headerCells, true);
  for (const row of rows) {
    if (doc.y + rowHeight(row, 'cjk') > bottomY(doc)) {
      doc.addPage();
      drawRow(headerCells, true);
    }
    drawRow(row, false);
  }
  doc.moveDown(0.5);
}

function paragraph(
  doc: Doc,
  text: string,
  options: { size?: number; color?: string; bold?: boolean; indent?: number } = {},
) {
  const indent = options.indent ?? 0;
  doc
    .font(options.bold ? 'cjk-bold' : 'cjk')
    .fontSize(options.size ?? 10)
    .fillColor(options.color ?? INK);
  const w = width(doc) - indent;
  ensure(doc, Math.min(doc.heightOfString(text, { width: w }), 60));
  doc.text(text, MARGIN + indent, doc.y, { width: w, lineGap: 2 });
  doc.x = MARGIN;
}

/** The bank's rich text (HTML with formulas and inline images) as paragraphs and pictures. */
function richText(doc: Doc, html: string, indent = 0, prefix = ''): void {
  const blocks = htmlBlocks(html);
  if (blocks.length === 0 && prefix) paragraph(doc, prefix, { indent });
  for (const [i, block] of blocks.entries()) {
    if (block.type === 'text' && block.runs) {
      ensure(doc, 30);
      const lead = i === 0 && prefix ? [{ text: prefix }] : [];
      writeInline(doc, [...lead, ...block.runs], {
        x: MARGIN + indent,
        width: width(doc) - indent,
        font: 'cjk',
        size: 10,
        color: INK,
        lineGap: 2,
      });
      doc.x = MARGIN;
      continue;
    }
    if (block.type === 'text') {
      paragraph(doc, i === 0 ? `${prefix}${block.text}` : block.text, { indent });
      continue;
    }
    if (i === 0 && prefix) paragraph(doc, prefix, { indent });
    if (block.type === 'table') {
      drawCellTable(doc, block, { indent, size: 9, font: 'cjk', boldFont: 'cjk-bold', color: INK });
      continue;
    }
    try {
      const maxW = Math.min(width(doc) - indent, 300);
      ensure(doc, 110);
      doc.image(block.data, MARGIN + indent, doc.y, { fit: [maxW, 100] });
      doc.x = MARGIN;
      doc.moveDown(0.3);
    } catch {
      paragraph(doc, '［图片无法显示］', { indent, color: MUTED });
    }
  }
}

// ───────────── the homework report ─────────────

export interface ReportPdfOptions {
  fonts: CardFonts;
  schoolName?: string;
}

/** The homework report (papaerReport) of the grade or one class, as a PDF stream. */
export function reportPdf(a: HomeworkAnalysis, options: ReportPdfOptions): Readable {
  const hw = a.homework;
  const title = `${hw.title} 作业报告`;
  const doc = newDoc(options.fonts, title, () => `${hw.title} · ${a.scope.name}`);
  return stream(doc, () => {
    doc.addPage();
    titleBlock(doc, title, [
      `${hw.subjectName} · ${hw.typeName} · ${a.scope.name}`,
      `${hw.startDate} 至 ${hw.dueDate}\u3000满分 ${num(hw.fullScore)} 分\u3000共 ${hw.questionCount} 题\u3000发布人 ${hw.createdByName}`,
      `生成时间 ${a.generatedAt.slice(0, 16).replace('T', ' ')}`,
    ]);

    const s = a.summary;
    heading(doc, '一、成绩概况');
    table(
      doc,
      [
        { title: '应考人数', weight: 1 },
        { title: '已批改', weight: 1 },
        { title: '批改中', weight: 1 },
        { title: '缺考', weight: 1 },
        { title: '平均分', weight: 1 },
        { title: '最高分', weight: 1 },
        { title: '最低分', weight: 1 },
        { title: '中位数', weight: 1 },
        { title: '标准差', weight: 1 },
      ],
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
        { title: '得分率', weight: 1 },
        { title: '及格率', weight: 1.4 },
        { title: '良好率', weight: 1.4 },
        { title: '优秀率', weight: 1.4 },
        { title: '低分人数', weight: 1 },
        { title: '客观题均分', weight: 1.2 },
        { title: '主观题均分', weight: 1.2 },
        { title: '信度 α', weight: 1 },
      ],
      [
        [
          pct(s.scoreRate),
          `${pct(s.passRate)}（${s.passCount}人）`,
          `${pct(s.goodRate)}（${s.goodCount}人）`,
          `${pct(s.excellentRate)}（${s.excellentCount}人）`,
          String(s.failCount),
          `${num(a.objective.average)} / ${num(a.objective.fullScore)}`,
          `${num(a.subjective.average)} / ${num(a.subjective.fullScore)}`,
          a.cronbachAlpha === null ? '—' : a.cronbachAlpha.toFixed(2),
        ],
      ],
    );
    paragraph(
      doc,
      `及格线 ${pct(a.settings.passRate)}、良好线 ${pct(a.settings.goodRate)}、优秀线 ${pct(a.settings.excellentRate)}（占满分）；统计只含已批改完的学生。`,
      { size: 8.5, color: MUTED },
    );

    heading(doc, '二、分数段分布');
    const classScope = a.scope.classId !== null;
    table(
      doc,
      [
        { title: '分数段', weight: 2 },
        { title: '分数', weight: 2 },
        { title: '人数', weight: 1 },
        { title: '占比', weight: 1 },
        ...(classScope
          ? [
              { title: '年级人数', weight: 1 },
              { title: '年级占比', weight: 1 },
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
    // Charts only once somebody is marked: an unmarked homework is not drawn as a collapse to 0.
    const charts = s.scoredCount > 0;
    if (charts)
      columnChart(
        doc,
        classScope
          ? {
              title: '分数段人数占比：本班与年级',
              series: [
                { name: '本班', color: BLUE },
                { name: '年级', color: SLATE },
              ],
              bars: a.bands.map((b) => ({ label: b.label, values: [b.rate, b.gradeRate] })),
              max: 1,
              format: pct0,
            }
          : {
              title: '各分数段人数',
              series: [{ name: '人数', color: BLUE }],
              bars: a.bands.map((b) => ({ label: b.label, values: [b.count] })),
              max: countAxis(Math.max(...a.bands.map((b) => b.count))),
              format: (v) => String(Math.round(v)),
            },
      );

    heading(doc, '三、班级对比');
    table(
      doc,
      [
        { title: '班级', weight: 1.6, align: 'left' },
        { title: '任课教师', weight: 1.4, align: 'left' },
        { title: '已批改', weight: 0.9 },
        { title: '平均分', weight: 1 },
        { title: '最高分', weight: 1 },
        { title: '得分率', weight: 1 },
        { title: '及格率', weight: 1 },
        { title: '优秀率', weight: 1 },
        { title: '超均率', weight: 1 },
        { title: '名次', weight: 0.8 },
      ],
      a.classes.map((c) => [
        c.className,
        c.teacherNames || '—',
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
    if (charts)
      columnChart(doc, {
        title: '各班平均分',
        series: [{ name: '平均分', color: BLUE }],
        // A class nobody has been marked in yet draws no bar (not a zero).
        bars: a.classes.map((c) => ({
          label: c.className,
          values: [c.stats.scoredCount > 0 ? c.stats.average : null],
          ...(c.classId === a.scope.classId ? { color: AMBER } : {}),
        })),
        max: hw.fullScore,
        format: num,
        missing: '阅卷中',
        guides: [
          { value: a.gradeSummary.average, label: `年级平均 ${num(a.gradeSummary.average)}`, color: ROSE },
        ],
      });

    heading(doc, '四、小题分析');
    table(
      doc,
      [
        { title: '题号', weight: 0.7 },
        { title: '题型', weight: 1.1 },
        { title: '满分', weight: 0.8 },
        { title: '平均分', weight: 0.9 },
        { title: '得分率', weight: 1 },
        { title: '难度', weight: 0.9 },
        { title: '区分度', weight: 1.3 },
        { title: '满分人数', weight: 1.1 },
        { title: '零分人数', weight: 1.1 },
        { title: '错题人数', weight: 1.1 },
        { title: '正确答案', weight: 1.3, align: 'left' },
      ],
      a.questions.map((q) => [
        q.no,
        q.typeName,
        num(q.fullScore),
        num(q.average),
        pct(q.scoreRate),
        q.difficultyName,
        q.discrimination === null ? '—' : `${q.discrimination.toFixed(2)} ${q.discriminationName}`,
        String(q.fullCount),
        String(q.zeroCount),
        String(q.wrongCount),
        plain(q.correctAnswer, 40),
      ]),
    );
    if (charts)
      columnChart(doc, {
        title: '各题得分率（颜色为难度：绿 容易、蓝 适中、红 较难）',
        series: [{ name: '得分率', color: BLUE }],
        bars: a.questions.map((q) => ({
          label: q.no,
          values: [q.scoreRate],
          color: DIFFICULTY[q.difficulty],
        })),
        max: 1,
        format: pct0,
        guides: [
          { value: 0.7, label: '容易 ≥70%', color: DIFFICULTY.easy },
          { value: 0.4, label: '较难 <40%', color: DIFFICULTY.hard },
        ],
      });
    paragraph(
      doc,
      '难度按得分率分：≥70% 容易，40%–70% 适中，<40% 较难；区分度为总分前 27% 与后 27% 学生的得分率之差（不足 4 人时不计）。',
      { size: 8.5, color: MUTED },
    );

    if (a.knowledgePoints.length > 0) {
      heading(doc, '五、知识点掌握');
      table(
        doc,
        [
          { title: '知识点', weight: 3, align: 'left' },
          { title: '题号', weight: 2, align: 'left' },
          { title: '分值', weight: 1 },
          { title: '得分率', weight: 1 },
        ],
        a.knowledgePoints.map((k) => [k.name, k.questionNos.join('、'), num(k.fullScore), pct(k.scoreRate)]),
      );
      if (charts)
        rowChart(doc, {
          title: '各知识点得分率',
          rows: a.knowledgePoints.map((k) => ({
            label: k.name,
            value: k.scoreRate,
            color: rateColor(k.scoreRate),
          })),
          max: 1,
          format: pct,
        });
    }
  });
}

/** A short single-paragraph text of the bank's rich text. */
function plain(html: string, max: number): string {
  const text = htmlBlocks(html)
    .flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'table' ? ['［表］'] : ['［图］']))
    .join(' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// ───────────── the 错题本 ─────────────

export interface MistakeBookPdfOptions {
  fonts: CardFonts;
  title: string;
  /** The homework (or date range) the books cover, printed on every book; else their entries' homework. */
  source?: string;
}

/** The line naming where a book's wrong questions came from. */
function sourceLine(book: MistakeBook, source: string | undefined): string {
  const titles = [...new Set(book.entries.map((e) => `${e.homeworkTitle}（${e.date}）`))];
  return ANALYSIS_TEXT.mistakeSources(source ? [source] : titles.length > 0 ? titles : ['—']);
}

function options(doc: Doc, opts: { label: string; content: string }[], indent: number) {
  for (const o of opts) richText(doc, o.content, indent, `${o.label}. `);
}

function similarQuestion(doc: Doc, q: MistakeQuestion, n: number, of: string) {
  ensure(doc, 40);
  richText(doc, q.stem, 8, `（${n}）［${q.typeName}，同类于${of}］`);
  options(doc, q.options, 20);
  richText(doc, q.answer, 20, '答案：');
  if (q.analysis) richText(doc, q.analysis, 20, '解析：');
  doc.moveDown(0.3);
}

/** Several students' 错题本, one after the other, each starting on a new page, as a PDF stream. */
export function mistakeBookPdf(books: MistakeBook[], opts: MistakeBookPdfOptions): Readable {
  let current = books[0];
  const doc = newDoc(opts.fonts, opts.title, () =>
    current ? `错题本 · ${current.student.className} ${current.student.name}` : '错题本',
  );
  return stream(doc, () => {
    for (const book of books) {
      current = book;
      doc.addPage();
      const st = book.student;
      titleBlock(doc, `${st.name} 的错题本`, [
        `${st.className}\u3000学号 ${st.studentNo || '—'}\u3000${book.subjectName || '全部学科'}`,
        sourceLine(book, opts.source),
        `共 ${book.entries.length} 道错题\u3000生成时间 ${book.generatedAt.slice(0, 16).replace('T', ' ')}`,
      ]);
      if (book.entries.length === 0) {
        paragraph(doc, '所选范围内没有错题，继续保持！', { color: MUTED });
        continue;
      }
      heading(doc, '错题一览');
      table(
        doc,
        [
          { title: '序号', weight: 0.6 },
          { title: '作业', weight: 2.6, align: 'left' },
          { title: '题号', weight: 0.6 },
          { title: '题型', weight: 1 },
          { title: '得分', weight: 1 },
          { title: '年级得分率', weight: 1.1 },
        ],
        book.entries.map((e, i) => [
          String(i + 1),
          `${e.homeworkTitle}（${e.date}）`,
          e.no,
          e.typeName,
          `${num(e.score)} / ${num(e.fullScore)}`,
          pct(e.gradeScoreRate),
        ]),
      );
      heading(doc, '错题详解');
      for (const [i, e] of book.entries.entries()) {
        ensure(doc, 70);
        doc.moveDown(0.3);
        paragraph(
          doc,
          `${i + 1}. ${e.homeworkTitle} 第 ${e.no} 题（${e.typeName}，${num(e.score)}/${num(e.fullScore)} 分）`,
          {
            bold: true,
          },
        );
        richText(doc, e.stem, 8);
        options(doc, e.options, 20);
        if (e.response !== null)
          paragraph(doc, `我的作答：${e.blank || !e.response ? '未作答' : e.response}`, {
            indent: 8,
            color: '#b91c1c',
          });
        else if (e.blank) paragraph(doc, '我的作答：未作答', { indent: 8, color: '#b91c1c' });
        richText(doc, e.answer, 8, '正确答案：');
        if (e.analysis) richText(doc, e.analysis, 8, '解析：');
        if (e.knowledgePoints.length > 0) {
          paragraph(doc, `知识点：${e.knowledgePoints.map((k) => k.name).join('、')}`, {
            indent: 8,
            color: MUTED,
            size: 9,
          });
        }
      }
      const similar = book.entries.flatMap((e) =>
        e.similar.map((q) => ({ q, no: e.no, title: e.homeworkTitle })),
      );
      if (similar.length > 0) {
        heading(doc, '举一反三');
        for (const [i, s] of similar.entries()) similarQuestion(doc, s.q, i + 1, `${s.title}第 ${s.no} 题`);
      }
    }
  });
}
