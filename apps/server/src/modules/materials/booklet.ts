import fs from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { type ChildNode, isTag, isText } from 'domhandler';
import { PDFDocument, StandardFonts, rgb, type PDFPage } from 'pdf-lib';
import PDFKit from 'pdfkit';
import sharp from 'sharp';
import { MATERIAL_MESSAGES, type PaperDocument } from '@zhzy/contracts';
import type { CardFonts } from '@zhzy/answer-card/render';
import { BOOKLET_TEXT as T } from '../../i18n/booklet.js';
import { AppError } from '../../lib/errors.js';
import { writeInline, type Run } from '../../lib/math-pdf/inline.js';
import { loadFormulaTypesetter } from '../../lib/math-pdf/tex-svg.js';
import { latexToText } from '../papers/latex.js';
import { drawCellTable, type CellTable } from './pdf-table.js';

// The booklet (/paperbinding): papers are typeset to PDF here (pdfkit with the machine's CJK font, the same one the
// answer cards use), PDF materials keep their own pages (copied with pdf-lib, vector and text intact), images get
// one A4 page each, fitted within the margins; a cover lists the contents with their first pages, and every page
// after the cover is numbered. Word materials are refused before this point (docs/adr/0013-materials-and-binding.md).

export type BookletPart =
  | { kind: 'paper'; title: string; paper: PaperDocument }
  | { kind: 'pdf'; title: string; data: Uint8Array }
  | { kind: 'image'; title: string; data: Uint8Array; ext: string };

export interface BookletOptions {
  title: string;
  schoolName: string;
  cover: boolean;
  pageNumbers: boolean;
  withAnswers: boolean;
  /** A4: A4 portrait pages; A3: A3 landscape sheets with two A4 pages side by side. Default A4. */
  pageSize?: 'A4' | 'A3';
  fonts: CardFonts;
  /** The date printed on the cover. */
  date: Date;
}

/** Most pages in one booklet. */
export const BOOKLET_MAX_PAGES = 2000;

const MM = 72 / 25.4;
const A4: [number, number] = [210 * MM, 297 * MM];
const MARGIN = 18 * MM;

const fontCache = new Map<string, Buffer>();
function fontData(path: string): Buffer {
  let data = fontCache.get(path);
  if (!data) {
    data = fs.readFileSync(path);
    fontCache.set(path, data);
  }
  return data;
}

function newDoc(options: BookletOptions, title: string): PDFKit.PDFDocument {
  const doc = new PDFKit({
    size: A4,
    margin: MARGIN,
    autoFirstPage: true,
    info: { Title: title, Creator: T.creator },
  });
  doc.registerFont('cjk', fontData(options.fonts.regular.path), options.fonts.regular.family ?? '');
  const bold = options.fonts.bold ?? options.fonts.regular;
  doc.registerFont('cjk-bold', fontData(bold.path), bold.family ?? '');
  doc.font('cjk');
  return doc;
}

function finish(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

type Block =
  | { type: 'text'; text: string; runs?: Run[] }
  | { type: 'image'; data: Buffer }
  | ({ type: 'table' } & CellTable);

const decode = (text: string) =>
  text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

const FORMULA = /\\\(([\s\S]*?)\\\)|\\\[([\s\S]*?)\\\]/g;

/** Formulas \( … \) as readable linear text (× ÷ √ a/b, x^2). */
const withFormulas = (text: string) =>
  text.replace(FORMULA, (_m, a: string | undefined, b: string | undefined) => latexToText(a ?? b ?? ''));

const squeeze = (text: string) => text.replace(/[ \t]+/g, ' ');

/** A paragraph's text and formulas as runs for `writeInline`; undefined when it holds no formula. */
function runsOf(text: string): Run[] | undefined {
  const runs: Run[] = [];
  let at = 0;
  for (const m of text.matchAll(FORMULA)) {
    if (m.index > at) runs.push({ text: squeeze(text.slice(at, m.index)) });
    const tex = m[1] ?? m[2] ?? '';
    runs.push({ tex, text: latexToText(tex) });
    at = m.index + m[0].length;
  }
  if (runs.length === 0) return undefined;
  if (at < text.length) runs.push({ text: squeeze(text.slice(at)) });
  return runs;
}

/** The text of some nodes, formulas as linear text (a table cell's content). */
function textOf(nodes: ChildNode[]): string {
  let out = '';
  const walk = (list: ChildNode[]) => {
    for (const n of list) {
      if (isText(n)) out += n.data.replace(/\s*\n\s*/g, '');
      else if (isTag(n)) {
        if (n.name === 'br' || n.name === 'p') out += ' ';
        walk(n.children);
      }
    }
  };
  walk(nodes);
  return withFormulas(decode(out))
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** The rows of a <table> (its thead, tbody and tfoot in order), and whether the first is a header row. */
function tableOf(node: ChildNode): CellTable {
  const rows: { cells: string[]; head: boolean }[] = [];
  const walk = (list: ChildNode[]) => {
    for (const n of list) {
      if (!isTag(n)) continue;
      if (n.name === 'tr') {
        const cells = n.children.filter((c) => isTag(c) && (c.name === 'td' || c.name === 'th'));
        rows.push({
          cells: cells.map((c) => textOf(isTag(c) ? c.children : [])),
          head: cells.length > 0 && cells.every((c) => isTag(c) && c.name === 'th'),
        });
      } else if (n.name !== 'table') walk(n.children);
    }
  };
  if (isTag(node)) walk(node.children);
  return { rows: rows.map((r) => r.cells), header: rows[0]?.head ?? false };
}

/** The question bank's sanitised HTML as paragraphs of text, tables and images. */
export function htmlBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  let line = '';
  const flush = () => {
    const raw = decode(line).trim();
    const text = squeeze(withFormulas(raw)).trim();
    const runs = runsOf(raw);
    if (text) blocks.push({ type: 'text', text, ...(runs ? { runs } : {}) });
    line = '';
  };
  const walk = (nodes: ChildNode[]) => {
    for (const n of nodes) {
      if (isText(n)) {
        line += n.data.replace(/\s*\n\s*/g, '');
        continue;
      }
      if (!isTag(n)) continue;
      if (n.name === 'br') {
        flush();
        continue;
      }
      if (n.name === 'img') {
        const m = /^data:image\/(png|jpe?g);base64,(.+)$/i.exec(n.attribs.src ?? '');
        if (m) {
          flush();
          blocks.push({ type: 'image', data: Buffer.from(m[2]!, 'base64') });
        }
        continue;
      }
      if (n.name === 'table') {
        flush();
        const table = tableOf(n);
        if (table.rows.length > 0) blocks.push({ type: 'table', ...table });
        continue;
      }
      const block = ['p', 'div', 'li', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol'].includes(n.name);
      if (block) flush();
      walk(n.children);
      if (block) flush();
    }
  };
  walk(parseDocument(html).children);
  flush();
  return blocks;
}

function writeBlocks(
  doc: PDFKit.PDFDocument,
  blocks: Block[],
  lead: string,
  size: number,
  color = '#111827',
) {
  const width = A4[0] - 2 * MARGIN;
  let first = true;
  if (blocks.length === 0 && lead) blocks = [{ type: 'text', text: '' }];
  for (const b of blocks) {
    if (b.type === 'text' && b.runs) {
      const lead0 = first && lead ? [{ text: lead }] : [];
      writeInline(doc, [...lead0, ...b.runs], { x: MARGIN, width, font: 'cjk', size, color });
    } else if (b.type === 'text') {
      doc
        .font('cjk')
        .fontSize(size)
        .fillColor(color)
        .text(`${first ? lead : ''}${b.text}`, { width, lineGap: 3 });
    } else if (b.type === 'table') {
      if (first && lead) doc.font('cjk').fontSize(size).fillColor(color).text(lead, { width });
      drawCellTable(doc, b, { size: size - 1, font: 'cjk', boldFont: 'cjk-bold', color });
    } else {
      try {
        doc.image(b.data, { fit: [Math.min(width, 120 * MM), 70 * MM] });
        doc.moveDown(0.3);
      } catch {
        // An image pdfkit cannot read is left out rather than failing the booklet.
      }
    }
    first = false;
  }
}

/** A paper typeset on A4: title, sections with their headings, numbered questions, options, optional answers. */
export async function renderPaperPdf(paper: PaperDocument, options: BookletOptions): Promise<Buffer> {
  await loadFormulaTypesetter();
  const doc = newDoc(options, paper.title);
  const width = A4[0] - 2 * MARGIN;
  doc.font('cjk-bold').fontSize(18).fillColor('#111827').text(paper.title, { width, align: 'center' });
  if (paper.subtitle)
    doc.font('cjk').fontSize(11).fillColor('#4b5563').text(paper.subtitle, { width, align: 'center' });
  doc.moveDown(0.3);
  doc
    .font('cjk')
    .fontSize(10)
    .fillColor('#4b5563')
    .text(T.paperFacts(`${paper.stageName}${paper.subjectName}`, paper.questionCount, paper.totalScore), {
      width,
      align: 'center',
    });
  doc.moveDown(0.8);
  for (const section of paper.sections) {
    doc.font('cjk-bold').fontSize(12).fillColor('#111827').text(section.heading, { width });
    if (section.note) doc.font('cjk').fontSize(10).fillColor('#4b5563').text(section.note, { width });
    doc.moveDown(0.3);
    for (const item of section.items) {
      const q = item.question;
      if (!q) {
        writeBlocks(doc, [{ type: 'text', text: T.questionDeleted }], `${item.no}. `, 11);
        continue;
      }
      writeBlocks(doc, htmlBlocks(q.stem), `${item.no}. `, 11);
      for (const option of q.options) {
        writeBlocks(doc, htmlBlocks(option.content), `    ${option.label}. `, 11);
      }
      if (options.withAnswers) {
        writeBlocks(doc, htmlBlocks(q.answer), T.answerLabel, 10, '#1f4e9a');
        if (q.analysis) writeBlocks(doc, htmlBlocks(q.analysis), T.analysisLabel, 10, '#1f4e9a');
      }
      doc.moveDown(0.5);
    }
    doc.moveDown(0.4);
  }
  return finish(doc);
}

/** The cover: title, school, date and the contents with the page each part starts on. */
async function renderCover(
  options: BookletOptions,
  contents: { title: string; kind: string; page: number }[],
): Promise<Buffer> {
  const doc = newDoc(options, options.title);
  const width = A4[0] - 2 * MARGIN;
  doc.moveDown(6);
  doc.font('cjk-bold').fontSize(26).fillColor('#111827').text(options.title, { width, align: 'center' });
  doc.moveDown(0.6);
  doc.font('cjk').fontSize(13).fillColor('#374151').text(options.schoolName, { width, align: 'center' });
  const d = options.date;
  doc.fontSize(11).fillColor('#6b7280').text(T.date(d), { width, align: 'center' });
  doc.moveDown(3);
  doc.font('cjk-bold').fontSize(14).fillColor('#111827').text(T.contents, { width, align: 'center' });
  doc.moveDown(0.8);
  contents.forEach((c, i) => {
    const y = doc.y;
    doc
      .font('cjk')
      .fontSize(11)
      .fillColor('#111827')
      .text(T.contentsEntry(i + 1, c.title, c.kind), MARGIN + 10 * MM, y, {
        width: width - 40 * MM,
        lineBreak: false,
        ellipsis: true,
      });
    doc.text(T.page(c.page), MARGIN, y, { width: width - 10 * MM, align: 'right', lineBreak: false });
    doc.y = y + 20;
  });
  return finish(doc);
}

async function imagePage(out: PDFDocument, data: Uint8Array, ext: string): Promise<void> {
  const png = ext === 'png';
  const jpg = ext === 'jpg';
  // GIF and WebP are not PDF image types: they are re-encoded (first frame) as PNG.
  const bytes = png || jpg ? data : await sharp(data, { animated: false }).png().toBuffer();
  const image = jpg ? await out.embedJpg(bytes) : await out.embedPng(bytes);
  const page = out.addPage(A4);
  const maxW = A4[0] - 2 * MARGIN;
  const maxH = A4[1] - 2 * MARGIN;
  const scale = Math.min(maxW / image.width, maxH / image.height, 2);
  const w = image.width * scale;
  const h = image.height * scale;
  page.drawImage(image, { x: (A4[0] - w) / 2, y: A4[1] - MARGIN - h, width: w, height: h });
}

async function loadPdf(data: Uint8Array, title: string): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(data, { updateMetadata: false });
  } catch (error) {
    throw new AppError('VALIDATION', MATERIAL_MESSAGES.bindingBadPdf(title), { detail: String(error) });
  }
}

const KIND_NAMES = T.kinds;

/** The booklet's bytes. */
export async function bindBooklet(parts: BookletPart[], options: BookletOptions): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  out.setTitle(options.title);
  out.setCreator(T.creator);
  out.setProducer(T.producer);
  out.setCreationDate(options.date);

  // Each part's pages, appended in order; the cover is inserted at the front once page numbers are known.
  const starts: number[] = [];
  for (const part of parts) {
    starts.push(out.getPageCount() + 1);
    if (part.kind === 'image') {
      await imagePage(out, part.data, part.ext);
    } else {
      const source =
        part.kind === 'paper'
          ? await PDFDocument.load(await renderPaperPdf(part.paper, options))
          : await loadPdf(part.data, part.title);
      if (out.getPageCount() + source.getPageCount() > BOOKLET_MAX_PAGES) {
        throw new AppError('VALIDATION', MATERIAL_MESSAGES.bindingTooLarge);
      }
      const pages = await out.copyPages(source, source.getPageIndices());
      for (const page of pages) out.addPage(page);
    }
    if (out.getPageCount() > BOOKLET_MAX_PAGES)
      throw new AppError('VALIDATION', MATERIAL_MESSAGES.bindingTooLarge);
  }

  const bodyPages = out.getPages();
  if (options.pageNumbers) {
    const font = await out.embedFont(StandardFonts.Helvetica);
    const total = bodyPages.length;
    bodyPages.forEach((page: PDFPage, i) => {
      const { width } = page.getSize();
      const text = `${i + 1} / ${total}`;
      const size = 9;
      page.drawText(text, {
        x: (width - font.widthOfTextAtSize(text, size)) / 2,
        y: 8 * MM,
        size,
        font,
        color: rgb(0.35, 0.35, 0.4),
      });
    });
  }

  if (options.cover) {
    const cover = await PDFDocument.load(
      await renderCover(
        options,
        parts.map((p, i) => ({ title: p.title, kind: KIND_NAMES[p.kind], page: starts[i]! })),
      ),
    );
    const pages = await out.copyPages(cover, cover.getPageIndices());
    pages.forEach((page, i) => out.insertPage(i, page));
  }
  return options.pageSize === 'A3' ? (await twoUp(out, options)).save() : out.save();
}

const A3_LANDSCAPE: [number, number] = [420 * MM, 297 * MM];

/** The booklet's pages two by two on A3 landscape sheets (left and right columns), each fitted to its half. */
async function twoUp(source: PDFDocument, options: BookletOptions): Promise<PDFDocument> {
  const out = await PDFDocument.create();
  out.setTitle(options.title);
  out.setCreator(T.creator);
  out.setProducer(T.producer);
  out.setCreationDate(options.date);
  // Saved and read back first: pdf-lib writes the fonts of drawn page numbers only when saving.
  const saved = await PDFDocument.load(await source.save());
  const embedded = await out.embedPages(saved.getPages());
  const half = A3_LANDSCAPE[0] / 2;
  for (let i = 0; i < embedded.length; i += 2) {
    const sheet = out.addPage(A3_LANDSCAPE);
    embedded.slice(i, i + 2).forEach((page, column) => {
      const scale = Math.min(half / page.width, A3_LANDSCAPE[1] / page.height);
      const w = page.width * scale;
      const h = page.height * scale;
      sheet.drawPage(page, {
        x: column * half + (half - w) / 2,
        y: (A3_LANDSCAPE[1] - h) / 2,
        width: w,
        height: h,
      });
    });
  }
  return out;
}
