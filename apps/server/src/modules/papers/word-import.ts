import JSZip from 'jszip';
import mammoth from 'mammoth';
import { parseDocument } from 'htmlparser2';
import { type ChildNode, type Element, isTag, isText } from 'domhandler';
import render from 'dom-serializer';
import { assertZipWithinLimits } from '../../lib/zip-guard.js';
import { ommlToLatex } from './omml.js';
import { WORD_IMPORT_TEXT as T, WORD_IMPORT_WORDS as W } from '../../i18n/paper-word.js';

// Reads a teacher's Word paper written in the common convention into questions for a preview:
//   一、选择题（每小题 3 分，共 30 分）        a section; the score per question is taken when written
//   1. 题干……  /  1、题干……                     a question (Word's automatic numbering counts too)
//   A. …  B. …  C. …  D. …                      options, one per line or several on a line
//   【答案】B 【解析】…… 【知识点】有理数的加法  markers, inline or on their own lines
//   参考答案 / 答案                              an answer key at the end: "1. B  2. C …"
// Images come through as data URLs. Word equations (OMML), which mammoth skips, are turned into LaTeX
// (\( … \)) in the document's XML before mammoth reads it, so they arrive as formulas KaTeX renders.

export interface ParsedQuestion {
  no: number;
  stem: string;
  options: { label: string; content: string }[];
  answer: string;
  analysis: string;
  knowledgePoints: string[];
  warnings: string[];
}

export interface ParsedSection {
  title: string;
  /** The question type the heading names (单选题, 填空题 …), null when it names none. */
  typeName: string | null;
  score: number | null;
  questions: ParsedQuestion[];
}

export interface ParsedPaper {
  title: string;
  subtitle: string;
  sections: ParsedSection[];
  warnings: string[];
  /** The document's paragraphs as read (plain text), shown beside the questions for fix-up. */
  source?: string[];
}

interface Block {
  /** Inline HTML of the block (formatting and images kept). */
  html: string;
  text: string;
  /** A paragraph of a Word-numbered list (its number is not in the text). */
  listItem: boolean;
}

const SECTION_RE = W.section;
const QUESTION_RE = /^(\d{1,3})\s*(?:[.．、]|[)）])(?!\d)\s*/;
/** An option label: A. / A． / A、 or (A) / （A）. */
const LABEL = '(?:([A-H])\\s*[.．、]|[(（]([A-H])[)）])';
const OPTION_RE = new RegExp(`^${LABEL}\\s*`);
/** 答案：… / 解析：… written without brackets at the start of a line. */
const PLAIN_MARKER_RE = W.plainMarker;
const KEY_HEADING_RE = W.keyHeading;
const MARKER_RE = W.marker;
const MARKER_SPLIT_RE = W.markerSplit;

const TYPE_WORDS = W.types;

export function typeNameOf(title: string): string | null {
  for (const [re, name] of TYPE_WORDS) if (re.test(title)) return name;
  return null;
}

function textOf(nodes: ChildNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (isText(n)) out += n.data;
    else if (isTag(n)) {
      if (n.name === 'br') out += '\n';
      else out += textOf(n.children);
    }
  }
  return out;
}

const decode = (s: string) =>
  s
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The document as paragraphs: top-level p / h* / li blocks, tables kept whole. */
function blocksOf(html: string): Block[] {
  const doc = parseDocument(html);
  const blocks: Block[] = [];
  const walk = (nodes: ChildNode[], inList: boolean) => {
    for (const n of nodes) {
      if (!isTag(n)) continue;
      const el: Element = n;
      if (el.name === 'ol' || el.name === 'ul') {
        walk(el.children, el.name === 'ol');
      } else if (el.name === 'li') {
        const nested = el.children.filter((c) => isTag(c) && (c.name === 'ol' || c.name === 'ul'));
        const own = el.children.filter((c) => !nested.includes(c));
        blocks.push({
          html: render(own, { encodeEntities: 'utf8' }),
          text: textOf(own).trim(),
          listItem: inList,
        });
        walk(nested, true);
      } else if (el.name === 'table') {
        blocks.push({
          html: render(el, { encodeEntities: 'utf8' }),
          text: textOf([el]).trim(),
          listItem: false,
        });
      } else {
        blocks.push({
          html: render(el.children, { encodeEntities: 'utf8' }),
          text: textOf(el.children).trim(),
          listItem: false,
        });
      }
    }
  };
  walk(doc.children, false);
  return blocks.filter((b) => b.text !== '' || b.html.includes('<img'));
}

/** Removes a leading pattern (matched on the text) from inline HTML, keeping tags before it. */
function stripLead(html: string, lead: string): string {
  // Walk the HTML, skipping tags, until `lead.length` text characters are consumed.
  let i = 0;
  let consumed = 0;
  const target = lead.length;
  while (i < html.length && consumed < target) {
    if (html[i] === '<') {
      const end = html.indexOf('>', i);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (html[i] === '&') {
      const end = html.indexOf(';', i);
      if (end > i && end - i < 10) {
        i = end + 1;
        consumed += 1;
        continue;
      }
    }
    i += 1;
    consumed += 1;
  }
  return html.slice(i).replace(/^(\s|&nbsp;)+/, '');
}

/** The text of each cell, row by row, of a table's HTML. */
function tableRows(html: string): string[][] {
  const rows: string[][] = [];
  const walk = (nodes: ChildNode[]) => {
    for (const n of nodes) {
      if (!isTag(n)) continue;
      if (n.name === 'tr') {
        rows.push(
          n.children
            .filter((c) => isTag(c) && (c.name === 'td' || c.name === 'th'))
            .map((c) => textOf([c]).trim()),
        );
      } else walk(n.children);
    }
  };
  walk(parseDocument(html).children);
  return rows;
}

/** Keeps images, sub/superscripts and line breaks; other formatting goes (options and key lines). */
function simpleInline(html: string): string {
  return html
    .replace(/<(?!\/?(img|sub|sup|br)\b)[^>]*>/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits `A. x  B. y  C. z` (several options on a line) into labelled options. */
function splitOptions(html: string): { label: string; content: string }[] {
  const simple = simpleInline(html);
  const re = new RegExp(`(^|\\s|\\u3000|>)${LABEL}\\s*`, 'g');
  const marks: { label: string; start: number; contentStart: number }[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(simple))) {
    const label = (m[2] ?? m[3])!;
    const expected = marks.length === 0 ? label : String.fromCharCode(marks.at(-1)!.label.charCodeAt(0) + 1);
    if (label !== expected) continue;
    marks.push({ label, start: m.index + m[1]!.length, contentStart: m.index + m[0].length });
  }
  return marks.map((mark, i) => ({
    label: mark.label,
    content: simple.slice(mark.contentStart, marks[i + 1]?.start ?? simple.length).trim(),
  }));
}

/** Paragraphs of the original kept for the side-by-side fix-up (a paper has a few hundred). */
const MAX_SOURCE_LINES = 3000;

const wrap = (html: string) => (html.trim() ? `<p>${html.trim()}</p>` : '');

/** Parses a .docx into a preview of sections and questions with warnings. */
export async function parseDocx(bytes: Uint8Array): Promise<ParsedPaper> {
  const buffer = Buffer.from(bytes);
  // A decompression bomb is refused before jszip or mammoth inflates anything (ZipGuardError).
  assertZipWithinLimits(buffer);
  const zip = await JSZip.loadAsync(buffer);
  const xml = await zip.file('word/document.xml')?.async('string');
  if (xml === undefined) throw new Error('not a Word document');
  const warnings: string[] = [];
  const { xml: withLatex, failed } = equationsAsLatex(xml);
  if (failed > 0) {
    warnings.push(T.equationsFailed(failed));
  }
  let source: Buffer = buffer;
  if (withLatex !== xml) {
    zip.file('word/document.xml', withLatex);
    source = await zip.generateAsync({ type: 'nodebuffer' });
  }
  const { value: html } = await mammoth.convertToHtml({ buffer: source });
  const blocks = blocksOf(html);
  const lines = blocks
    .map((b) => b.text.trim())
    .filter((text) => text !== '')
    .slice(0, MAX_SOURCE_LINES);
  return { ...parseBlocks(blocks, warnings), source: lines };
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Replaces every Word equation in document.xml by a text run holding its LaTeX as \( … \). */
export function equationsAsLatex(xml: string): { xml: string; failed: number } {
  let failed = 0;
  const replace = (omml: string) => {
    const latex = ommlToLatex(omml);
    if (!latex) {
      failed += 1;
      return '';
    }
    return `<w:r><w:t xml:space="preserve">${xmlText(`\\(${latex}\\)`)}</w:t></w:r>`;
  };
  const out = xml
    .replace(/<m:oMathPara\b[\s\S]*?<\/m:oMathPara>/g, replace)
    .replace(/<m:oMath(?=[\s>])[\s\S]*?<\/m:oMath>/g, replace);
  return { xml: out, failed };
}

type Field = 'stem' | 'option' | 'answer' | 'analysis' | 'knowledge';

export function parseBlocks(blocks: Block[], warnings: string[] = []): ParsedPaper {
  const parser = new BlockParser(warnings);
  for (const raw of blocks) parser.read(withPlainMarker(raw));
  return parser.finish();
}

/** A block whose line opens with 答案：/解析： (no brackets), written as the bracketed marker. */
function withPlainMarker(raw: Block): Block {
  const plain = PLAIN_MARKER_RE.exec(raw.text.trim());
  if (!plain) return raw;
  return {
    ...raw,
    text: `${W.markerOf(plain[1]!)}${raw.text.trim().slice(plain[0].length)}`,
    html: `${W.markerOf(plain[1]!)}${stripLead(raw.html, plain[0])}`,
  };
}

/** Reads a paper block by block: title, sections, questions with their fields, then an answer key. */
class BlockParser {
  private readonly paper: ParsedPaper;
  private section: ParsedSection | null = null;
  private question: ParsedQuestion | null = null;
  private field: Field = 'stem';
  private keyMode = false;
  private lastNo = 0;
  private autoNumbered = 0;
  private readonly all: ParsedQuestion[] = [];
  private keyQuestion: ParsedQuestion | null = null;

  constructor(private readonly warnings: string[]) {
    this.paper = { title: '', subtitle: '', sections: [], warnings };
  }

  read(block: Block): void {
    const text = block.text.replace(/\s+/g, ' ').trim();
    if (KEY_HEADING_RE.test(text)) {
      this.keyMode = true;
      this.question = null;
    } else if (this.keyMode && /^\s*<table/.test(block.html)) this.keyTable(block.html);
    else if (this.keyMode) this.keyLine(block, text);
    else this.paperLine(block, text);
  }

  /** Before the answer key: a section heading, a question, a list item, the title lines, options or more text. */
  private paperLine(block: Block, text: string): void {
    const sectionMatch = SECTION_RE.exec(text);
    if (sectionMatch && !QUESTION_RE.test(text)) {
      this.startSection(sectionMatch[2]!);
      return;
    }
    const questionMatch = QUESTION_RE.exec(text);
    if (questionMatch) {
      this.startQuestion(
        Number(questionMatch[1]),
        stripLead(block.html, questionMatch[0].replace(/\s+$/, '')),
      );
      return;
    }
    if (block.listItem && !OPTION_RE.test(text) && !MARKER_RE.test(text.slice(0, 6))) {
      // Word's automatic numbering: the number is not in the text.
      this.autoNumbered += 1;
      this.startQuestion(this.lastNo + 1, block.html);
      return;
    }
    const q = this.question;
    if (!q) {
      if (!this.paper.title) this.paper.title = text;
      else if (!this.paper.subtitle && this.paper.sections.length === 0) this.paper.subtitle = text;
      return;
    }
    if (OPTION_RE.test(text) && !MARKER_RE.test(text.slice(0, 4)) && this.options(q, block.html)) return;
    this.handleBody(q, block.html);
  }

  private startSection(rest: string): void {
    const title = rest.replace(/[（(].*$/, '').trim() || rest;
    const score = W.scoreEach.exec(rest);
    this.section = {
      title,
      typeName: typeNameOf(title),
      score: score ? Number(score[1]) : null,
      questions: [],
    };
    this.paper.sections.push(this.section);
    this.question = null;
  }

  /** Options on a line (maybe followed by markers); false when they do not continue the question's labels. */
  private options(q: ParsedQuestion, html: string): boolean {
    const markerAt = html.search(MARKER_RE);
    const options = splitOptions(markerAt >= 0 ? html.slice(0, markerAt) : html);
    const expected = String.fromCharCode('A'.charCodeAt(0) + q.options.length);
    if (options.length === 0 || options[0]!.label !== expected) return false;
    q.options.push(...options);
    this.field = 'option';
    if (markerAt >= 0) this.addMarkers(q, html.slice(markerAt));
    return true;
  }

  /** An answer table: a 题号 row and an 答案 row, cell by cell. */
  private keyTable(html: string): void {
    const rows = tableRows(html);
    const nos = rows.find((r) => W.noRow.test(r[0] ?? ''));
    const keys = rows.find((r) => W.answerRow.test(r[0] ?? ''));
    nos?.forEach((cell, i) => {
      const target = this.all.find((q) => q.no === Number(cell.trim()) && !q.answer);
      const answer = keys?.[i]?.trim();
      if (i > 0 && target && answer) target.answer = answer;
    });
  }

  /** Answer key lines: "1. B  2. C", "3．【答案】…【解析】…", or a continuation of the last one. */
  private keyLine(block: Block, text: string): void {
    const entries = [...text.matchAll(/(\d{1,3})\s*[.．、](?!\d)\s*/g)];
    if (entries.length > 0 && entries[0]!.index === 0) {
      entries.forEach((m, i) => {
        const no = Number(m[1]);
        // A key entry fills the question of its number still without an answer, else adds to it (an answer table
        // before the analyses).
        const target = this.all.find((q) => q.no === no && !q.answer) ?? this.all.find((q) => q.no === no);
        const body = text.slice(m.index + m[0].length, entries[i + 1]?.index ?? text.length).trim();
        if (!target) return;
        this.keyQuestion = target;
        if (MARKER_RE.test(body)) {
          this.field = 'answer';
          this.addMarkers(target, body);
        } else target.answer = body;
      });
    } else if (this.keyQuestion && text) {
      if (MARKER_RE.test(block.html)) this.addMarkers(this.keyQuestion, block.html);
      else this.appendField(this.keyQuestion, this.field === 'answer' ? 'analysis' : this.field, block.html);
    }
  }

  private ensureSection(): ParsedSection {
    if (!this.section) {
      this.section = { title: T.defaultSection, typeName: null, score: null, questions: [] };
      this.paper.sections.push(this.section);
    }
    return this.section;
  }

  private addMarkers(q: ParsedQuestion, html: string): void {
    // html starts at or before a marker; content before the first marker continues the current field.
    const parts = html.split(MARKER_SPLIT_RE);
    this.appendField(q, this.field, parts[0] ?? '');
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i]!;
      const content = parts[i + 1] ?? '';
      this.field =
        name === W.answerMarker ? 'answer' : W.knowledgeMarkers.includes(name) ? 'knowledge' : 'analysis';
      this.appendField(q, this.field, content);
    }
  }

  private appendField(q: ParsedQuestion, f: Field, html: string): void {
    const text = decode(simpleInline(html).replace(/<[^>]*>/g, '')).trim();
    if (!text && !html.includes('<img')) return;
    switch (f) {
      case 'stem':
        // A table stays a block of its own (a paragraph cannot hold it).
        q.stem += /^\s*<table/.test(html) ? html : wrap(html);
        break;
      case 'option': {
        const last = q.options.at(-1);
        if (last) {
          last.content += ` ${simpleInline(html)}`;
          q.warnings.push(T.optionTail(q.no, last.label));
        } else q.stem += wrap(html);
        break;
      }
      case 'answer':
        q.answer = q.answer ? `${q.answer}<br>${simpleInline(html)}` : simpleInline(html);
        break;
      case 'analysis':
        q.analysis += wrap(html);
        break;
      case 'knowledge':
        for (const name of text.split(/[,，;；、\s]+/)) if (name) q.knowledgePoints.push(name);
        break;
    }
  }

  private startQuestion(no: number, rest: string): void {
    const s = this.ensureSection();
    if (this.all.some((q) => q.no === no) && no !== 1) this.warnings.push(T.repeatedNo(no));
    else if (this.lastNo > 0 && no !== this.lastNo + 1 && !(no === 1 && s.questions.length === 0)) {
      this.warnings.push(T.gapInNos(this.lastNo, no));
    }
    this.lastNo = no;
    const question: ParsedQuestion = {
      no,
      stem: '',
      options: [],
      answer: '',
      analysis: '',
      knowledgePoints: [],
      warnings: [],
    };
    this.question = question;
    s.questions.push(question);
    this.all.push(question);
    this.field = 'stem';
    this.handleBody(question, rest);
  }

  /** Text after the number: stem, possibly with markers or options on the same line. */
  private handleBody(q: ParsedQuestion, html: string): void {
    if (MARKER_RE.test(html)) this.addMarkers(q, html);
    else this.appendField(q, this.field, html);
  }

  /** The paper with its warnings: auto-numbered questions, and per question what is missing or odd. */
  finish(): ParsedPaper {
    if (this.autoNumbered > 0) {
      this.warnings.push(T.autoNumbered(this.autoNumbered));
    }
    for (const q of this.all) questionWarnings(q);
    if (!this.paper.title) this.paper.title = T.defaultTitle;
    return this.paper;
  }
}

/** A question without a stem or answer, with fewer than four options, or with an answer that is not an option. */
function questionWarnings(q: ParsedQuestion): void {
  if (!q.stem.trim()) q.warnings.push(T.noStem(q.no));
  if (q.options.length > 0) {
    if (q.options.length < 4) {
      q.warnings.push(
        T.fewOptions(
          q.no,
          q.options.map((o) => o.label),
        ),
      );
    }
    const letters = decode(q.answer.replace(/<[^>]*>/g, '')).replace(/[\s,，、]/g, '');
    if (/^[A-Z]+$/.test(letters)) {
      const labels = new Set(q.options.map((o) => o.label));
      const bad = [...letters].filter((l) => !labels.has(l));
      if (bad.length > 0) q.warnings.push(T.answerNotAnOption(q.no, letters));
    }
  }
  if (!q.answer.trim()) q.warnings.push(T.noAnswer(q.no));
}
