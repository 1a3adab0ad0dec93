import {
  AlignmentType,
  BorderStyle,
  Document,
  ImageRun,
  ImportedXmlComponent,
  Packer,
  PageOrientation,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import { parseDocument } from 'htmlparser2';
import { type ChildNode, isTag, isText } from 'domhandler';
import { PAPER_LAYOUT_MM, type PaperDocument, type PaperItem } from '@zhzy/contracts';
import { WORD_EXPORT_TEXT as T, WORD_FONTS } from '../../i18n/paper-word.js';
import { latexToOmml } from './omml.js';

// A paper as a .docx (the docx package): the student copy, or the teacher copy with every answer and
// analysis under its question. Layout follows the paper's /paperset settings. Chinese text is set in
// 宋体 (eastAsia) with Times New Roman for Latin letters; LaTeX formulas become native Word equations (OMML,
// editable with Word's equation tools); images come from data URLs.

const MM_TO_TWIP = 56.6929;
const twip = (mm: number) => Math.round(mm * MM_TO_TWIP);
const FONT = {
  ascii: 'Times New Roman',
  hAnsi: 'Times New Roman',
  eastAsia: WORD_FONTS.song,
  cs: 'Times New Roman',
};
const HEI = {
  ascii: 'Times New Roman',
  hAnsi: 'Times New Roman',
  eastAsia: WORD_FONTS.hei,
  cs: 'Times New Roman',
};
const ANSWER_COLOR = '1F4E9A';

interface Style {
  bold?: boolean;
  italics?: boolean;
  underline?: boolean;
  superScript?: boolean;
  subScript?: boolean;
  color?: string;
}

/** Pixel size of a PNG, JPEG, GIF or BMP image, read from its header. */
export function imageSize(data: Buffer): { width: number; height: number } | null {
  if (data.length > 24 && data.readUInt32BE(0) === 0x89504e47) {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length > 10 && data.toString('ascii', 0, 3) === 'GIF') {
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  if (data.length > 26 && data.toString('ascii', 0, 2) === 'BM') {
    return { width: data.readInt32LE(18), height: Math.abs(data.readInt32LE(22)) };
  }
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8) {
    let i = 2;
    while (i + 9 < data.length) {
      if (data[i] !== 0xff) return null;
      const marker = data[i + 1]!;
      const length = data.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: data.readUInt16BE(i + 7), height: data.readUInt16BE(i + 5) };
      }
      i += 2 + length;
    }
  }
  return null;
}

function imageRun(src: string, maxWidth: number): ImageRun | null {
  const m = /^data:image\/(png|jpe?g|gif|bmp);base64,(.+)$/i.exec(src);
  if (!m) return null;
  const data = Buffer.from(m[2]!, 'base64');
  const size = imageSize(data);
  if (!size || size.width <= 0 || size.height <= 0) return null;
  const scale = Math.min(1, maxWidth / size.width);
  const kind = m[1]!.toLowerCase();
  return new ImageRun({
    type: kind === 'jpeg' || kind === 'jpg' ? 'jpg' : (kind as 'png' | 'gif' | 'bmp'),
    data,
    transformation: { width: Math.round(size.width * scale), height: Math.round(size.height * scale) },
  });
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Text with \( … \) formulas turned into runs and Word equations. */
function textRuns(text: string, style: Style, size: number): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  const re = /\\\(([\s\S]*?)\\\)|\\\[([\s\S]*?)\\\]/g;
  let last = 0;
  let m: RegExpExecArray | null;
  const { underline, ...rest } = style;
  const base = { ...rest, ...(underline ? { underline: {} } : {}), font: FONT, size };
  const plain = (t: string) => {
    if (t) out.push(new TextRun({ text: t, ...base }));
  };
  while ((m = re.exec(text))) {
    plain(text.slice(last, m.index));
    // An <m:oMath> element sits among the runs of its paragraph, as Word writes an inline equation.
    out.push(
      ImportedXmlComponent.fromXmlString(latexToOmml(m[1] ?? m[2] ?? '')) as unknown as ParagraphChild,
    );
    last = m.index + m[0].length;
  }
  plain(text.slice(last));
  return out;
}

/** Rich content (the sanitised HTML subset) as paragraphs and tables. */
class RichWriter {
  constructor(
    private readonly size: number,
    private readonly maxImageWidth: number,
  ) {}

  /** Paragraphs of `html`; `lead` runs (the question number) start the first paragraph. */
  blocks(html: string, lead: ParagraphChild[] = [], style: Style = {}, indent = 0): (Paragraph | Table)[] {
    return this.lines(html, lead, style).map((line) =>
      Array.isArray(line)
        ? new Paragraph({ children: line, indent: { left: indent }, spacing: { after: 40 } })
        : line,
    );
  }

  /** Runs only (options and short answers sit on one line). */
  inline(html: string, style: Style = {}): ParagraphChild[] {
    return this.lines(html.replace(/<\/?(p|div)[^>]*>/gi, ' '), [], style).flatMap((line) =>
      Array.isArray(line) ? line : [],
    );
  }

  /** Lines of runs (one per paragraph) and tables. */
  private lines(html: string, lead: ParagraphChild[], style: Style): (ParagraphChild[] | Table)[] {
    const out: (ParagraphChild[] | Table)[] = [];
    let runs: ParagraphChild[] = [...lead];
    let started = false;
    const flush = () => {
      if (runs.length > 0) out.push(runs);
      runs = [];
    };
    const walk = (nodes: ChildNode[], st: Style) => {
      for (const n of nodes) {
        if (isText(n)) {
          const text = decodeEntities(n.data).replace(/\s*\n\s*/g, '');
          if (text) {
            runs.push(...textRuns(text, st, this.size));
            started = true;
          }
          continue;
        }
        if (!isTag(n)) continue;
        switch (n.name) {
          case 'p':
          case 'div':
          case 'li':
            // The question number stays on the first paragraph's line.
            if (started) flush();
            walk(n.children, st);
            flush();
            started = true;
            break;
          case 'br':
            runs.push(new TextRun({ break: 1 }));
            break;
          case 'b':
          case 'strong':
            walk(n.children, { ...st, bold: true });
            break;
          case 'i':
          case 'em':
            walk(n.children, { ...st, italics: true });
            break;
          case 'u':
            walk(n.children, { ...st, underline: true });
            break;
          case 'sup':
            walk(n.children, { ...st, superScript: true });
            break;
          case 'sub':
            walk(n.children, { ...st, subScript: true });
            break;
          case 'img': {
            const run = imageRun(n.attribs.src ?? '', this.maxImageWidth);
            if (run) runs.push(run);
            started = true;
            break;
          }
          case 'table':
            flush();
            out.push(this.table(n.children));
            started = true;
            break;
          default:
            walk(n.children, st);
        }
      }
    };
    walk(parseDocument(html).children, style);
    flush();
    return out;
  }

  private table(nodes: ChildNode[]): Table {
    const rows: ChildNode[] = [];
    const collect = (list: ChildNode[]) => {
      for (const n of list) {
        if (!isTag(n)) continue;
        if (n.name === 'tr') rows.push(n);
        else collect(n.children);
      }
    };
    collect(nodes);
    return new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      rows: rows.map(
        (r) =>
          new TableRow({
            children: (isTag(r) ? r.children : [])
              .filter((c) => isTag(c) && (c.name === 'td' || c.name === 'th'))
              .map((c) => new TableCell({ children: [new Paragraph({ children: this.inline(htmlOf(c)) })] })),
          }),
      ),
    });
  }
}

function htmlOf(node: ChildNode): string {
  if (isText(node)) return node.data;
  if (!isTag(node)) return '';
  const inner = node.children.map(htmlOf).join('');
  if (node.name === 'img') return `<img src="${node.attribs.src ?? ''}">`;
  return `<${node.name}>${inner}</${node.name}>`;
}

const fmt = (points: number) => String(Math.round(points * 10) / 10);

/** Renders a paper document as .docx bytes. */
export async function renderPaperDocx(doc: PaperDocument, copy: 'student' | 'teacher'): Promise<Buffer> {
  const page = pageOf(doc.settings);
  const { size } = page;
  const writer = new RichWriter(size, Math.max(80, Math.round(page.textWidthMm * 3.78 * 0.9)));
  const { body, answered } = questionParagraphs(doc, copy, writer, page);
  const children: (Paragraph | Table)[] = [...headerParagraphs(doc, copy, size), ...body];
  if (copy === 'student' && doc.settings.answers === 'end' && answered.length > 0) {
    children.push(
      new Paragraph({
        pageBreakBefore: true,
        alignment: AlignmentType.CENTER,
        spacing: { after: 160 },
        children: [new TextRun({ text: T.answerKey, bold: true, size: size + 6, font: HEI })],
      }),
    );
    for (const item of answered) children.push(...answerBlocks(item, writer, size, true));
  }
  return Packer.toBuffer(documentOf(doc, page, children));
}

/** The page a paper is set on: font size (half-points), paper, columns, orientation and text width. */
interface PageSetup {
  size: number;
  layout: (typeof PAPER_LAYOUT_MM)[keyof typeof PAPER_LAYOUT_MM];
  columns: number;
  landscape: boolean;
  textWidthMm: number;
}

function pageOf(s: PaperDocument['settings']): PageSetup {
  const layout = PAPER_LAYOUT_MM[s.paperSize];
  const columns = s.columns ?? (s.paperSize === 'A3' || s.paperSize === 'B4' ? 2 : 1);
  const landscape = columns === 2 && (s.paperSize === 'A3' || s.paperSize === 'B4');
  const pageWidthMm = landscape ? layout.height : layout.width;
  const textWidthMm = (pageWidthMm - s.margins.left - s.margins.right - (columns - 1) * 10) / columns;
  return { size: Math.round(s.fontSize * 2), layout, columns, landscape, textWidthMm };
}

const center = (text: string, opts: { size: number; bold?: boolean; font?: typeof FONT; after?: number }) =>
  new Paragraph({
    alignment: AlignmentType.CENTER,
    spacing: { after: opts.after ?? 80 },
    children: [new TextRun({ text, bold: opts.bold ?? false, size: opts.size, font: opts.font ?? FONT })],
  });

/** The header: sealing line, school, title, subtitle, copy, exam facts, student fields, score table, notice. */
function headerParagraphs(
  doc: PaperDocument,
  copy: 'student' | 'teacher',
  size: number,
): (Paragraph | Table)[] {
  const s = doc.settings;
  const children: (Paragraph | Table)[] = [];
  if (s.sealingLine) {
    children.push(
      center(T.sealingLine, { size: size - 2, after: 0 }),
      center(T.sealingNote, { size: size - 4, after: 120 }),
    );
  }
  if (s.header.school) children.push(center(s.header.school, { size: size + 6, bold: true, font: HEI }));
  if (s.header.showTitle) children.push(center(doc.title, { size: size + 10, bold: true, font: HEI }));
  if (s.header.showSubtitle && doc.subtitle) children.push(center(doc.subtitle, { size: size + 2 }));
  if (copy === 'teacher') children.push(center(T.teacherCopy, { size, font: HEI }));
  const facts: string[] = [];
  if (s.header.examMinutes) facts.push(T.examMinutes(s.header.examMinutes));
  if (s.header.showFullScore) facts.push(T.fullScore(fmt(doc.totalScore)));
  if (facts.length > 0) children.push(center(facts.join(T.factSeparator), { size }));
  if (s.studentInfo.show && s.studentInfo.fields.length > 0) {
    children.push(center(s.studentInfo.fields.map(T.infoField).join(T.infoSeparator), { size, after: 160 }));
  }
  if (s.scoreTable && doc.sections.length > 0)
    children.push(scoreTable(doc, size), new Paragraph({ children: [] }));
  if (s.header.showNotice && s.header.notice.length > 0) {
    children.push(
      new Paragraph({ children: [new TextRun({ text: T.notice, bold: true, size, font: HEI })] }),
    );
    s.header.notice.forEach((line, i) =>
      children.push(
        new Paragraph({ children: [new TextRun({ text: `${i + 1}．${line}`, size, font: FONT })] }),
      ),
    );
    children.push(new Paragraph({ children: [] }));
  }
  return children;
}

/** 题号 / each section's number / 总分 over an empty 得分 row. */
function scoreTable(doc: PaperDocument, size: number): Table {
  const run = (text: string) => new TextRun({ text, size, font: FONT });
  const cell = (text: string) =>
    new TableCell({ children: [new Paragraph({ alignment: AlignmentType.CENTER, children: [run(text)] })] });
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      new TableRow({
        children: [T.scoreTableNo, ...doc.sections.map((x) => x.number), T.scoreTableTotal].map(cell),
      }),
      new TableRow({ children: [T.scoreTableScore, ...doc.sections.map(() => ''), ''].map(cell) }),
    ],
  });
}

/** Each section's heading and note, then its questions (with their answers on the teacher's copy). */
function questionParagraphs(
  doc: PaperDocument,
  copy: 'student' | 'teacher',
  writer: RichWriter,
  { size, textWidthMm }: PageSetup,
): { body: (Paragraph | Table)[]; answered: PaperItem[] } {
  const body: (Paragraph | Table)[] = [];
  const answered: PaperItem[] = [];
  for (const section of doc.sections) {
    body.push(
      new Paragraph({
        spacing: { before: 160, after: 80 },
        children: [new TextRun({ text: section.heading, bold: true, size, font: HEI })],
      }),
    );
    if (section.note)
      body.push(new Paragraph({ children: [new TextRun({ text: section.note, size, font: FONT })] }));
    for (const item of section.items) {
      const q = item.question;
      const lead: ParagraphChild[] = [new TextRun({ text: `${item.no}．`, size, font: FONT })];
      if (item.scoreOverride !== null)
        lead.push(new TextRun({ text: T.itemScore(fmt(item.score)), size, font: FONT }));
      if (!q) {
        body.push(
          new Paragraph({ children: [...lead, new TextRun({ text: T.questionDeleted, size, font: FONT })] }),
        );
        continue;
      }
      body.push(...writer.blocks(q.stem || '<p></p>', lead));
      if (q.options.length > 0) body.push(...optionParagraphs(q.options, writer, size, textWidthMm));
      answered.push(item);
      if (copy === 'teacher') body.push(...answerBlocks(item, writer, size));
    }
  }
  return { body, answered };
}

/** The Word document: default font, page size, orientation, margins and columns. */
function documentOf(doc: PaperDocument, page: PageSetup, children: (Paragraph | Table)[]): Document {
  const { layout, landscape, columns, size } = page;
  const { margins } = doc.settings;
  return new Document({
    creator: T.creator,
    title: doc.title,
    styles: { default: { document: { run: { font: FONT, size } } } },
    sections: [
      {
        properties: {
          page: {
            size: {
              width: twip(layout.width),
              height: twip(layout.height),
              orientation: landscape ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT,
            },
            margin: {
              top: twip(margins.top),
              bottom: twip(margins.bottom),
              left: twip(margins.left),
              right: twip(margins.right),
            },
          },
          column: columns === 2 ? { count: 2, space: twip(10), separate: false } : { count: 1 },
        },
        children,
      },
    ],
  });
}

function optionParagraphs(
  options: { label: string; content: string }[],
  writer: RichWriter,
  size: number,
  textWidthMm: number,
): Paragraph[] {
  const plainLength = (html: string) => html.replace(/<[^>]*>/g, '').replace(/\\[()]/g, '').length;
  const hasImage = options.some((o) => o.content.includes('<img'));
  const longest = Math.max(...options.map((o) => plainLength(o.content)));
  // Characters per line at this size, roughly: 1 mm ≈ 2.83 pt.
  const perLine = (textWidthMm * 2.83) / (size / 2);
  const perRow = hasImage ? 2 : longest * 4 + 12 <= perLine ? 4 : longest * 2 + 6 <= perLine ? 2 : 1;
  const rows: Paragraph[] = [];
  for (let i = 0; i < options.length; i += perRow) {
    const runs: ParagraphChild[] = [];
    options.slice(i, i + perRow).forEach((o, j) => {
      if (j > 0) runs.push(new TextRun({ text: '\t', size }));
      runs.push(new TextRun({ text: `${o.label}．`, size, font: FONT }));
      runs.push(...writer.inline(o.content));
    });
    const stops =
      perRow > 1
        ? Array.from({ length: perRow - 1 }, (_, k) => ({
            type: 'left' as const,
            position: twip(((k + 1) * textWidthMm) / perRow),
          }))
        : [];
    rows.push(
      new Paragraph({ children: runs, indent: { left: twip(4) }, tabStops: stops, spacing: { after: 40 } }),
    );
  }
  return rows;
}

function answerBlocks(
  item: PaperItem,
  writer: RichWriter,
  size: number,
  numbered = false,
): (Paragraph | Table)[] {
  const q = item.question;
  if (!q) return [];
  const style: Style = { color: ANSWER_COLOR };
  const label = (text: string) => new TextRun({ text, bold: true, size, font: HEI, color: ANSWER_COLOR });
  const out: (Paragraph | Table)[] = [];
  const lead: ParagraphChild[] = numbered
    ? [new TextRun({ text: `${item.no}．`, size, font: FONT, color: ANSWER_COLOR })]
    : [];
  out.push(...writer.blocks(q.answer || `<p>${T.answerOmitted}</p>`, [...lead, label(T.answerLabel)], style));
  if (q.analysis) out.push(...writer.blocks(q.analysis, [label(T.analysisLabel)], style));
  if (!numbered && q.knowledgePoints.length > 0) {
    out.push(
      new Paragraph({
        spacing: { after: 120 },
        border: { bottom: { style: BorderStyle.DOTTED, size: 4, color: 'AAAAAA', space: 4 } },
        children: [
          label(T.knowledgeLabel),
          new TextRun({
            text: q.knowledgePoints.map((k) => k.name).join(T.listSeparator),
            size,
            font: FONT,
            color: ANSWER_COLOR,
          }),
        ],
      }),
    );
  }
  return out;
}
