import type { ImportPreview, ImportedQuestion, QuestionInput } from '@zhzy/contracts';
import { checkQuestion, isChoice, relabel, type QuestionDraft } from '../../../components/ui/question-fields';
import { composition } from '../../../i18n/composition';

// The Word import's state outside React: one entry per chosen file, and the fix-ups a teacher makes on its
// questions (edit, merge with the next, split, delete) before anything is saved.

const w = composition.word;

export type Section = ImportPreview['sections'][number];

export interface ImportItem {
  key: string;
  file: File;
  status: 'waiting' | 'reading' | 'ready' | 'failed' | 'saved';
  /** Why the file could not be read, in Chinese. */
  error: string | null;
  preview: ImportPreview | null;
  title: string;
  subtitle: string;
  sections: Section[];
}

export interface Destination {
  paper: boolean;
  bank: boolean;
  share: boolean;
}

/** The host's limit for a Word file. */
export const MAX_DOCX_BYTES = 20 * 1024 * 1024;

export function newItem(file: File, i: number): ImportItem {
  const reason = fileProblem(file);
  return {
    key: `${i}-${file.name}`,
    file,
    status: reason ? 'failed' : 'waiting',
    error: reason,
    preview: null,
    title: file.name.replace(/\.docx$/i, ''),
    subtitle: '',
    sections: [],
  };
}

/** What is wrong with a file before it is sent: not a .docx, empty, too large. */
export function fileProblem(file: File): string | null {
  if (!file.name.toLowerCase().endsWith('.docx')) return w.notDocx;
  if (file.size === 0) return w.emptyFile;
  if (file.size > MAX_DOCX_BYTES) return w.tooLarge;
  return null;
}

/** A score the host accepts: 0–200 in steps of 0.1. */
export const scoreOk = (v: number) => v >= 0 && v <= 200 && Math.abs(v * 10 - Math.round(v * 10)) < 1e-6;

export function toDraft(q: ImportedQuestion): QuestionDraft {
  return {
    typeId: q.typeId,
    difficulty: q.difficulty,
    stem: q.stem,
    options: q.options,
    answer: q.answer,
    analysis: q.analysis,
  };
}

export const questionCount = (sections: Section[]) => sections.reduce((n, s) => n + s.questions.length, 0);

/** Questions that cannot be saved as they are (what checkQuestion refuses). */
export function blockingCount(sections: Section[], typeName: (id: string) => string): number {
  return sections
    .flatMap((s) => s.questions)
    .filter((q) => Object.keys(checkQuestion(toDraft(q), typeName(q.typeId))).length > 0).length;
}

export const warningCount = (item: ImportItem) =>
  (item.preview?.warnings.length ?? 0) +
  item.sections.flatMap((s) => s.questions).flatMap((q) => q.warnings).length;

/** A paper that 全部保存 may save: read, with questions, none of them refused. */
export const savable = (item: ImportItem, typeName: (id: string) => string) =>
  item.status === 'ready' &&
  item.title.trim() !== '' &&
  questionCount(item.sections) > 0 &&
  blockingCount(item.sections, typeName) === 0;

const mapQuestions = (sections: Section[], si: number, f: (qs: ImportedQuestion[]) => ImportedQuestion[]) =>
  sections
    .map((s, i) => (i === si ? { ...s, questions: f(s.questions) } : s))
    .filter((s) => s.questions.length > 0);

export const setQuestion = (sections: Section[], si: number, qi: number, q: ImportedQuestion) =>
  mapQuestions(sections, si, (qs) => qs.map((x, j) => (j === qi ? q : x)));

export const removeQuestion = (sections: Section[], si: number, qi: number) =>
  mapQuestions(sections, si, (qs) => qs.filter((_, j) => j !== qi));

const joined = (a: string, b: string) => [a, b].filter((x) => x.trim() !== '').join('');

/** One question read as two (a stem broken by a stray number): the next one's content is appended to it. */
export function mergeWithNext(sections: Section[], si: number, qi: number): Section[] {
  return mapQuestions(sections, si, (qs) => {
    const a = qs[qi];
    const b = qs[qi + 1];
    if (!a || !b) return qs;
    const merged: ImportedQuestion = {
      ...a,
      stem: joined(a.stem, b.stem),
      options: [...a.options, ...b.options],
      answer: joined(a.answer, b.answer),
      analysis: joined(a.analysis, b.analysis),
      knowledgePointIds: [...new Set([...a.knowledgePointIds, ...b.knowledgePointIds])],
      warnings: [],
    };
    return [...qs.slice(0, qi), merged, ...qs.slice(qi + 2)];
  });
}

const PARAGRAPH_RE = /<p[\s>][\s\S]*?<\/p>/g;

/** The paragraphs of a stem; a question can be split when it has two or more. */
export const paragraphsOf = (html: string) => html.match(PARAGRAPH_RE) ?? [];

/** Two questions read as one: the stem's first paragraph stays, the rest becomes a new question after it. */
export function splitQuestion(sections: Section[], si: number, qi: number): Section[] {
  return mapQuestions(sections, si, (qs) => {
    const q = qs[qi];
    const parts = q ? paragraphsOf(q.stem) : [];
    if (!q || parts.length < 2) return qs;
    const first: ImportedQuestion = { ...q, stem: parts[0], warnings: [] };
    const rest: ImportedQuestion = {
      ...q,
      no: q.no + 1,
      stem: parts.slice(1).join(''),
      options: [],
      answer: '',
      analysis: '',
      warnings: [],
    };
    return [...qs.slice(0, qi), first, rest, ...qs.slice(qi + 1)];
  });
}

/** The sections as the paper call takes them: choice options labelled again, preview warnings dropped. */
export const forPaper = (sections: Section[], typeName: (id: string) => string): Section[] =>
  sections.map((s) => ({
    ...s,
    questions: s.questions.map((q) => ({
      ...q,
      options: isChoice(typeName(q.typeId)) ? relabel(q.options) : q.options,
      warnings: [],
    })),
  }));

/** The questions as the bank call takes them. */
export const forBank = (
  item: ImportItem,
  subjectId: string,
  typeName: (id: string) => string,
): QuestionInput[] =>
  forPaper(item.sections, typeName).flatMap((s) =>
    s.questions.map((q) => ({
      subjectId,
      typeId: q.typeId,
      difficulty: q.difficulty,
      stem: q.stem,
      options: q.options,
      answer: q.answer,
      analysis: q.analysis,
      knowledgePointIds: q.knowledgePointIds,
      source: item.title.trim().slice(0, 100),
    })),
  );
