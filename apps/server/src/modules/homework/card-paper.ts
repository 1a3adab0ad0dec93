import {
  CHOICE_OPTIONS,
  CardSettingsSchema,
  type CardPaper,
  type CardQuestion,
  type CardSection,
  type CardSettings,
  type HomeworkPaper,
  type PaperDocument,
  type PaperItem,
  type PaperSection,
} from '@zhzy/contracts';
import { QUESTION_TYPE_NAMES } from '../../i18n/messages.js';

// How a paper becomes the input of the answer-card layout: which questions are bubbles, blanks or written boxes.

/** Limits of the card model (contracts' CardPaperSchema), which are tighter than a paper's. */
const CARD_TITLE_MAX = 60;
const CARD_SUBTITLE_MAX = 80;
const CARD_SECTION_TITLE_MAX = 80;
const CARD_BLANKS_MAX = 20;

/** Cuts text to at most `max` characters (code points, so no surrogate pair is split). */
export function clip(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** Blanks of a 填空题: runs of ＿＿ (or ___) in the stem, as the question bank writes them; at least one. */
export function blankCount(stem: string): number {
  const runs = (stem.match(/＿{2,}|_{3,}/g) ?? []).length;
  return Math.min(CARD_BLANKS_MAX, Math.max(1, runs));
}

/** Options of a choice question: as many as it has, within what a card prints (A–G); 4 when it lists none. */
function optionCount(item: PaperItem): number {
  const n = item.question?.options.length ?? 0;
  if (n === 0) return 4;
  return Math.min(CHOICE_OPTIONS.length, Math.max(2, n));
}

/** The card question of one paper item, by its question type. */
export function cardQuestionOf(item: PaperItem): CardQuestion {
  const base = { id: item.questionId, number: String(item.no), score: item.score };
  switch (item.question?.typeName) {
    case QUESTION_TYPE_NAMES.single:
      return { ...base, kind: 'single', options: optionCount(item) };
    case QUESTION_TYPE_NAMES.multiple:
      return { ...base, kind: 'multiple', options: optionCount(item) };
    case QUESTION_TYPE_NAMES.trueFalse:
      return { ...base, kind: 'truefalse' };
    case QUESTION_TYPE_NAMES.blank:
      return { ...base, kind: 'blank', blanks: blankCount(item.question.stem) };
    default:
      // Everything else is answered in writing; the layout sizes the box from the score until the teacher drags it.
      return { ...base, kind: 'written' };
  }
}

function cardSectionOf(section: PaperSection): CardSection {
  return {
    title: clip(section.heading || section.title, CARD_SECTION_TITLE_MAX),
    questions: section.items.map(cardQuestionOf),
  };
}

/**
 * The paper as the answer card sees it. The card's title is the paper's, or the homework's when one is published
 * (students see what the teacher called it). Empty sections are left out; callers make sure one remains.
 */
export function cardPaperOf(
  paper: Pick<PaperDocument | HomeworkPaper, 'title' | 'subtitle' | 'sections'> & { id: string },
  title: string = paper.title,
): CardPaper {
  const subtitle = clip(paper.subtitle, CARD_SUBTITLE_MAX);
  return {
    id: paper.id,
    title: clip(title, CARD_TITLE_MAX),
    ...(subtitle ? { subtitle } : {}),
    sections: paper.sections.filter((s) => s.items.length > 0).map(cardSectionOf),
  };
}

/** The digits of the number bubble grid: the usual length of the school's student numbers (4–12), else 8. */
export function digitsFor(studentNumbers: readonly string[]): number {
  const counts = new Map<number, number>();
  for (const no of studentNumbers) {
    if (!/^\d{4,12}$/.test(no)) continue;
    counts.set(no.length, (counts.get(no.length) ?? 0) + 1);
  }
  let best = 8;
  let bestCount = 0;
  for (const [length, count] of counts) {
    if (count > bestCount || (count === bestCount && length > best)) {
      best = length;
      bestCount = count;
    }
  }
  return best;
}

/** A paper's card settings before the teacher saves any: A4, one column, personalised QR. */
export function defaultCardSettings(studentNumberDigits: number): CardSettings {
  return CardSettingsSchema.parse({ size: 'A4', identity: 'qr', studentNumberDigits });
}

/** Stored settings JSON, read back; anything unreadable falls back to the defaults. */
export function parseCardSettings(json: string, fallback: CardSettings): CardSettings {
  try {
    return CardSettingsSchema.parse(JSON.parse(json));
  } catch {
    return fallback;
  }
}

/** JSON with object keys sorted, so two equal settings compare equal whatever order their keys came in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}
