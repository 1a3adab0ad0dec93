import fs from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import PDFKit from 'pdfkit';
import type { CardFonts } from '@zhzy/answer-card/render';
import { PDF_TEXT } from '../../i18n/analysis-report.js';
import { writeInline } from '../../lib/math-pdf/inline.js';
import { htmlBlocks } from '../materials/booklet.js';
import { drawCellTable } from '../materials/pdf-table.js';

// The drawing kit of the printable analysis files (pdf.ts, pdf-mistakes.ts): an A4 pdfkit document with the machine's
// CJK font (the answer cards' font, subset on embedding) and a page number on every page, streamed out page by page
// while it is drawn, never held whole in memory; titles, headings, ruled tables, paragraphs and the bank's rich text.

export const MM = 72 / 25.4;
const A4: [number, number] = [210 * MM, 297 * MM];
export const MARGIN = 16 * MM;
export const INK = '#111827';
export const MUTED = '#4b5563';
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

export type Doc = PDFKit.PDFDocument;

/** A new A4 document with the CJK faces registered as 'cjk' / 'cjk-bold' and a page number on every page. */
export function newDoc(fonts: CardFonts, title: string, header: () => string): Doc {
  const doc = new PDFKit({
    size: A4,
    margins: { top: MARGIN, bottom: MARGIN + 6 * MM, left: MARGIN, right: MARGIN },
    autoFirstPage: false,
    info: { Title: title, Creator: PDF_TEXT.creator },
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
      .text(PDF_TEXT.page(page), MARGIN, footY, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
    doc.x = x;
    doc.y = y;
    doc.font('cjk').fontSize(10).fillColor(INK);
  });
  return doc;
}

/** The document as a stream: pdfkit pushes each page's objects as soon as they are complete. */
export function stream(doc: Doc, draw: () => void): Readable {
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

export const width = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottomY = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

/** Opens a page when less than `height` is left on this one. */
export function ensure(doc: Doc, height: number): void {
  if (doc.y + height > bottomY(doc)) doc.addPage();
}

export const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
export const pct0 = (rate: number) => `${Math.round(rate * 100)}%`;
/** The web report's palette (blue, slate, amber, rose) and its 难度 colours: easy green, medium blue, hard red. */
export const BLUE = '#2563eb';
export const SLATE = '#94a3b8';
export const AMBER = '#f59e0b';
export const ROSE = '#f43f5e';
export const DIFFICULTY = { easy: '#10b981', medium: BLUE, hard: ROSE } as const;
export const rateColor = (rate: number) =>
  rate >= 0.7 ? DIFFICULTY.easy : rate >= 0.4 ? DIFFICULTY.medium : DIFFICULTY.hard;
/** An axis top for counts: a multiple of 4, so the axis' quarter steps are whole people. */
export const countAxis = (max: number) => Math.max(4, Math.ceil(max / 4) * 4);
export const num = (n: number) => String(Math.round(n * 100) / 100);

export function titleBlock(doc: Doc, title: string, lines: string[]): void {
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

export function heading(doc: Doc, text: string): void {
  ensure(doc, 48);
  doc.moveDown(0.4);
  doc
    .font('cjk-bold')
    .fontSize(12.5)
    .fillColor(INK)
    .text(text, MARGIN, doc.y, { width: width(doc) });
  doc.moveDown(0.3);
}

export interface Column {
  title: string;
  /** Share of the table's width. */
  weight: number;
  align?: 'left' | 'center' | 'right';
}

/** A ruled table that breaks across pages, repeating its header row. */
export function table(doc: Doc, columns: Column[], rows: string[][]): void {
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

/** One column of a table and the text a row gives it. */
export type Field<R> = readonly [Column, (row: R) => string];

/** A column of `weight` (left-aligned when `align` says so) whose cells `cell` writes. */
export const field = <R>(
  title: string,
  weight: number,
  cell: (row: R) => string,
  align?: Column['align'],
): Field<R> => [align === undefined ? { title, weight } : { title, weight, align }, cell];

/** A table of one row per item, its columns and their cells written side by side. */
export function fieldTable<R>(doc: Doc, items: readonly R[], fields: readonly Field<R>[]): void {
  table(
    doc,
    fields.map(([column]) => column),
    items.map((item) => fields.map(([, cell]) => cell(item))),
  );
}

export function paragraph(
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
export function richText(doc: Doc, html: string, indent = 0, prefix = ''): void {
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
      paragraph(doc, PDF_TEXT.imageMissing, { indent, color: MUTED });
    }
  }
}

/** A short single-paragraph text of the bank's rich text. */
export function plain(html: string, max: number): string {
  const text = htmlBlocks(html)
    .flatMap((b) =>
      b.type === 'text' ? [b.text] : b.type === 'table' ? [PDF_TEXT.tableMark] : [PDF_TEXT.imageMark],
    )
    .join(' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
