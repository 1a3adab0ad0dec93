import type { Readable } from 'node:stream';
import type { MistakeBook, MistakeEntry, MistakeQuestion } from '@zhzy/contracts';
import type { CardFonts } from '@zhzy/answer-card/render';
import { ANALYSIS_TEXT } from '../../i18n/analysis-export.js';
import { PDF_COLUMNS as C, MISTAKE_PDF_TEXT as T, PDF_TEXT } from '../../i18n/analysis-report.js';
import {
  MUTED,
  ensure,
  heading,
  newDoc,
  num,
  paragraph,
  pct,
  richText,
  stream,
  table,
  titleBlock,
  type Doc,
} from './pdf-doc.js';

// The 错题本 of several students (SPEC §7), one after the other, each starting on a new page; drawn with the kit of
// pdf-doc.ts like the homework report.

export interface MistakeBookPdfOptions {
  fonts: CardFonts;
  title: string;
  /** The homework (or date range) the books cover, printed on every book; else their entries' homework. */
  source?: string;
}

/** The line naming where a book's wrong questions came from. */
function sourceLine(book: MistakeBook, source: string | undefined): string {
  const titles = [...new Set(book.entries.map((e) => T.homework(e.homeworkTitle, e.date)))];
  return ANALYSIS_TEXT.mistakeSources(source ? [source] : titles.length > 0 ? titles : [PDF_TEXT.none]);
}

function options(doc: Doc, opts: { label: string; content: string }[], indent: number) {
  for (const o of opts) richText(doc, o.content, indent, `${o.label}. `);
}

function similarQuestion(doc: Doc, q: MistakeQuestion, n: number, of: string) {
  ensure(doc, 40);
  richText(doc, q.stem, 8, T.similarLead(n, q.typeName, of));
  options(doc, q.options, 20);
  richText(doc, q.answer, 20, T.answer);
  if (q.analysis) richText(doc, q.analysis, 20, T.analysis);
  doc.moveDown(0.3);
}

/** Several students' 错题本, one after the other, each starting on a new page, as a PDF stream. */
export function mistakeBookPdf(books: MistakeBook[], opts: MistakeBookPdfOptions): Readable {
  let current = books[0];
  const doc = newDoc(opts.fonts, opts.title, () =>
    current ? T.footer(current.student.className, current.student.name) : T.book,
  );
  return stream(doc, () => {
    for (const book of books) {
      current = book;
      drawBook(doc, book, opts.source);
    }
  });
}

/** One student's book: the title, the list of wrong questions, each in detail, then similar questions. */
function drawBook(doc: Doc, book: MistakeBook, source: string | undefined): void {
  doc.addPage();
  const st = book.student;
  titleBlock(doc, T.title(st.name), [
    T.student(st.className, st.studentNo || PDF_TEXT.none, book.subjectName || T.allSubjects),
    sourceLine(book, source),
    T.count(book.entries.length, PDF_TEXT.generatedAt(book.generatedAt.slice(0, 16).replace('T', ' '))),
  ]);
  if (book.entries.length === 0) {
    paragraph(doc, T.empty, { color: MUTED });
    return;
  }
  heading(doc, T.overview);
  table(
    doc,
    [
      { title: C.index, weight: 0.6 },
      { title: C.homework, weight: 2.6, align: 'left' },
      { title: C.no, weight: 0.6 },
      { title: C.type, weight: 1 },
      { title: C.score, weight: 1 },
      { title: C.gradeScoreRate, weight: 1.1 },
    ],
    book.entries.map((e, i) => [
      String(i + 1),
      T.homework(e.homeworkTitle, e.date),
      e.no,
      e.typeName,
      `${num(e.score)} / ${num(e.fullScore)}`,
      pct(e.gradeScoreRate),
    ]),
  );
  heading(doc, T.details);
  for (const [i, e] of book.entries.entries()) drawEntry(doc, e, i + 1);
  const similar = book.entries.flatMap((e) =>
    e.similar.map((q) => ({ q, no: e.no, title: e.homeworkTitle })),
  );
  if (similar.length > 0) {
    heading(doc, T.similar);
    for (const [i, s] of similar.entries()) similarQuestion(doc, s.q, i + 1, T.similarOf(s.title, s.no));
  }
}

/** A wrong question in detail: its stem and options, the student's answer, the right one and its knowledge points. */
function drawEntry(doc: Doc, e: MistakeEntry, n: number): void {
  ensure(doc, 70);
  doc.moveDown(0.3);
  paragraph(doc, T.entry(n, e.homeworkTitle, e.no, e.typeName, num(e.score), num(e.fullScore)), {
    bold: true,
  });
  richText(doc, e.stem, 8);
  options(doc, e.options, 20);
  if (e.response !== null)
    paragraph(doc, T.myAnswer(e.blank || !e.response ? T.noAnswer : e.response), {
      indent: 8,
      color: '#b91c1c',
    });
  else if (e.blank) paragraph(doc, T.myAnswer(T.noAnswer), { indent: 8, color: '#b91c1c' });
  richText(doc, e.answer, 8, T.correctAnswer);
  if (e.analysis) richText(doc, e.analysis, 8, T.analysis);
  if (e.knowledgePoints.length > 0) {
    paragraph(doc, T.knowledgePoints(e.knowledgePoints.map((k) => k.name)), {
      indent: 8,
      color: MUTED,
      size: 9,
    });
  }
}
