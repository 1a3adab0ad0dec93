import type {
  PaperDocument,
  PaperQuestion,
  PaperSettings,
  PaperStatus,
  Question,
  SavePaper,
} from '@zhzy/contracts';
import { toPoints as fromTenths, toTenths } from '@zhzy/contracts/scoring';
import { composition } from '../../../i18n/composition';

/**
 * The paper as /edit holds it between saves. Every edit is a pure function from one draft to the next, so the
 * history (undo/redo) is a list of drafts and the totals are always computed, never stored.
 */
export interface DraftItem {
  /** Stable across edits (the paper item id, or a client id for new ones): React keys and focus targets. */
  key: string;
  questionId: string;
  /** The question's own score; null: the section's 每小题 score applies. */
  override: number | null;
  question: PaperQuestion | null;
}

export interface DraftSection {
  key: string;
  /** The host's section id, null for a section made here (the host gives it one on save). */
  id: string | null;
  typeId: string | null;
  title: string;
  note: string;
  defaultScore: number;
  items: DraftItem[];
}

export interface Draft {
  title: string;
  subtitle: string;
  status: PaperStatus;
  sections: DraftSection[];
}

let seq = 0;
/** A client key for items and sections made in this tab. */
export const newKey = (prefix: string) => `${prefix}-new-${++seq}`;

export function draftOf(doc: PaperDocument): Draft {
  return {
    title: doc.title,
    subtitle: doc.subtitle,
    status: doc.status,
    sections: doc.sections.map((s) => ({
      key: s.id,
      id: s.id,
      typeId: s.typeId,
      title: s.title,
      note: s.note,
      defaultScore: s.defaultScore,
      items: s.items.map((i) => ({
        key: i.id,
        questionId: i.questionId,
        override: i.scoreOverride,
        question: i.question,
      })),
    })),
  };
}

/** The body of savePaper for a draft (the whole document, with the version it was read at). */
export function saveBodyOf(draft: Draft, version: number, status: PaperStatus = draft.status): SavePaper {
  return {
    version,
    title: draft.title.trim(),
    subtitle: draft.subtitle.trim(),
    status,
    sections: draft.sections.map((s) => ({
      ...(s.id ? { id: s.id } : {}),
      typeId: s.typeId,
      title: s.title.trim(),
      note: s.note.trim(),
      defaultScore: s.defaultScore,
      items: s.items.map((i) => ({ questionId: i.questionId, score: i.override })),
    })),
  };
}

/** What decides whether there is something to save (keys and question content do not). */
export function contentKey(draft: Draft): string {
  return JSON.stringify(saveBodyOf(draft, 1));
}

// ───────────── scores: computed in tenths, so 0.1 + 0.2 is 0.3 ─────────────

/** Points ↔ tenths by the shared scoring rules (ADR 0051). */
export { toTenths, fromTenths };

export const itemScore = (item: DraftItem, section: DraftSection) => item.override ?? section.defaultScore;

export function sectionTotal(section: DraftSection): number {
  return fromTenths(section.items.reduce((sum, i) => sum + toTenths(itemScore(i, section)), 0));
}

export function paperTotal(draft: Draft): number {
  return fromTenths(draft.sections.reduce((sum, s) => sum + toTenths(sectionTotal(s)), 0));
}

export const questionCount = (draft: Draft) => draft.sections.reduce((n, s) => n + s.items.length, 0);

/** 一 … 九十九, as section numbers. */
export function sectionNumeral(index: number): string {
  const digits = composition.compose.numerals;
  const n = index + 1;
  if (n < 10) return digits[n - 1]!;
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  return `${tens === 1 ? '' : digits[tens - 1]!}${composition.compose.ten}${ones ? digits[ones - 1]! : ''}`;
}

/** 一、单选题（本大题共 5 小题，每小题 3 分，共 15 分） — the host's heading, computed the same way. */
export function headingOf(section: DraftSection, index: number): string {
  const number = sectionNumeral(index);
  const count = section.items.length;
  if (count === 0) return composition.compose.heading(number, section.title, null);
  const same = section.items.every((i) => i.override === null || i.override === section.defaultScore);
  return composition.compose.heading(number, section.title, {
    count,
    each: same ? section.defaultScore : null,
    total: sectionTotal(section),
  });
}

/** The printed number of every item: running on across sections, or restarting in each. */
export function itemNumbers(draft: Draft, numbering: PaperSettings['numbering']): Map<string, number> {
  const out = new Map<string, number>();
  let n = 0;
  for (const s of draft.sections) {
    if (numbering === 'perSection') n = 0;
    for (const i of s.items) out.set(i.key, ++n);
  }
  return out;
}

/** Score rule of the contracts: 0–200, at most one decimal. */
export function parseScore(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,3}(\.\d)?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value <= 200 ? value : null;
}

// ───────────── edits ─────────────

const clamp = (n: number, max: number) => Math.max(0, Math.min(max, n));

function move<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= list.length) return list;
  const next = list.slice();
  const [x] = next.splice(from, 1);
  next.splice(clamp(to, next.length), 0, x!);
  return next;
}

const mapSection = (draft: Draft, key: string, f: (s: DraftSection) => DraftSection): Draft => ({
  ...draft,
  sections: draft.sections.map((s) => (s.key === key ? f(s) : s)),
});

/** Moves a question inside its section (from and to are positions in the section). */
export function moveItem(draft: Draft, sectionKey: string, from: number, to: number): Draft {
  return mapSection(draft, sectionKey, (s) => ({ ...s, items: move(s.items, from, to) }));
}

/** Moves a question to a position of another section (drag and drop across sections). */
export function moveItemTo(draft: Draft, itemKey: string, toSection: string, toIndex: number): Draft {
  const from = draft.sections.find((s) => s.items.some((i) => i.key === itemKey));
  const item = from?.items.find((i) => i.key === itemKey);
  if (!from || !item) return draft;
  if (from.key === toSection) {
    const index = from.items.indexOf(item);
    // Dropping below itself: positions after the removed item shift by one.
    return moveItem(draft, toSection, index, toIndex > index ? toIndex - 1 : toIndex);
  }
  return {
    ...draft,
    sections: draft.sections.map((s) => {
      if (s.key === from.key) return { ...s, items: s.items.filter((i) => i.key !== itemKey) };
      if (s.key === toSection) {
        const items = s.items.slice();
        items.splice(clamp(toIndex, items.length), 0, item);
        return { ...s, items };
      }
      return s;
    }),
  };
}

export function moveSection(draft: Draft, from: number, to: number): Draft {
  return { ...draft, sections: move(draft.sections, from, to) };
}

export function removeItem(draft: Draft, itemKey: string): Draft {
  return {
    ...draft,
    sections: draft.sections.map((s) =>
      s.items.some((i) => i.key === itemKey) ? { ...s, items: s.items.filter((i) => i.key !== itemKey) } : s,
    ),
  };
}

export function removeSection(draft: Draft, sectionKey: string): Draft {
  return { ...draft, sections: draft.sections.filter((s) => s.key !== sectionKey) };
}

export function setSectionScore(draft: Draft, sectionKey: string, score: number): Draft {
  return mapSection(draft, sectionKey, (s) => ({
    ...s,
    defaultScore: score,
    // A question set to the new 每小题 score simply follows the section from now on.
    items: s.items.map((i) => (i.override === score ? { ...i, override: null } : i)),
  }));
}

/** Sets one question's score; the section's own score means "no override". */
export function setItemScore(draft: Draft, itemKey: string, score: number): Draft {
  return {
    ...draft,
    sections: draft.sections.map((s) =>
      s.items.some((i) => i.key === itemKey)
        ? {
            ...s,
            items: s.items.map((i) =>
              i.key === itemKey ? { ...i, override: score === s.defaultScore ? null : score } : i,
            ),
          }
        : s,
    ),
  };
}

export function setSectionTitle(draft: Draft, sectionKey: string, title: string): Draft {
  return mapSection(draft, sectionKey, (s) => ({ ...s, title }));
}

export function setSectionNote(draft: Draft, sectionKey: string, note: string): Draft {
  return mapSection(draft, sectionKey, (s) => ({ ...s, note }));
}

/** Puts another question in an item's place (same position, same score). */
export function replaceItem(draft: Draft, itemKey: string, question: PaperQuestion): Draft {
  return {
    ...draft,
    sections: draft.sections.map((s) => ({
      ...s,
      items: s.items.map((i) => (i.key === itemKey ? { ...i, questionId: question.id, question } : i)),
    })),
  };
}

/** Appends questions to the section of their type; a type without a section gets a new one at the end. */
export function addQuestions(
  draft: Draft,
  questions: PaperQuestion[],
  defaultScoreOf: (q: PaperQuestion) => number,
): Draft {
  const present = new Set(draft.sections.flatMap((s) => s.items.map((i) => i.questionId)));
  const sections = draft.sections.map((s) => ({ ...s, items: s.items.slice() }));
  for (const q of questions) {
    if (present.has(q.id)) continue;
    present.add(q.id);
    let section = sections.find((s) => s.typeId === q.typeId);
    if (!section) {
      section = {
        key: newKey('section'),
        id: null,
        typeId: q.typeId,
        title: q.typeName,
        note: '',
        defaultScore: defaultScoreOf(q),
        items: [],
      };
      sections.push(section);
    }
    section.items.push({ key: newKey('item'), questionId: q.id, override: null, question: q });
  }
  return { ...draft, sections };
}

/** A bank question as a paper shows it. */
export function paperQuestionOf(q: Question): PaperQuestion {
  return {
    id: q.id,
    typeId: q.typeId,
    typeName: q.typeName,
    difficulty: q.difficulty,
    stem: q.stem,
    options: q.options,
    answer: q.answer,
    analysis: q.analysis,
    owner: q.owner,
    knowledgePoints: q.knowledgePoints,
  };
}

/** Where an item sits: its section and position (for move buttons and announcements). */
export function locate(
  draft: Draft,
  itemKey: string,
): { section: DraftSection; index: number; sectionIndex: number } | null {
  for (const [sectionIndex, section] of draft.sections.entries()) {
    const index = section.items.findIndex((i) => i.key === itemKey);
    if (index >= 0) return { section, index, sectionIndex };
  }
  return null;
}

/** Questions of the draft, for "already in the paper" checks. */
export const questionIdsOf = (draft: Draft) =>
  draft.sections.flatMap((s) => s.items.map((i) => i.questionId));
