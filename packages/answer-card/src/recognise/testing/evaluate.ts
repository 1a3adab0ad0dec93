import type { PageRecognition } from '@zhzy/contracts';
import type { PageTruth } from './corpus.js';

/** How one recognised page compares with what the student did. */
export interface PageScore {
  bubbles: number;
  bubblesRight: number;
  /** Bubbles left to a person (state 'uncertain'). */
  bubblesFlagged: number;
  /** Bubbles read as the opposite of the truth without a flag. */
  bubblesWrong: number;
  questions: number;
  questionsRight: number;
  questionsFlagged: number;
  /** Questions read wrong without a flag: must be zero. */
  silentlyWrong: string[];
  /** Clear marks that were flagged or read wrong: must be zero. */
  clearMissed: string[];
  identityRight: boolean;
  cropsRight: number;
  crops: number;
}

/** Compares a result with the truth (an option in both `intended` and the bubbles' order). */
export function scorePage(truth: PageTruth, result: PageRecognition): PageScore {
  const s: PageScore = {
    bubbles: 0,
    bubblesRight: 0,
    bubblesFlagged: 0,
    bubblesWrong: 0,
    questions: 0,
    questionsRight: 0,
    questionsFlagged: 0,
    silentlyWrong: [],
    clearMissed: [],
    identityRight: false,
    cropsRight: 0,
    crops: 0,
  };
  for (const t of truth.marks) {
    const read = result.marks.find((m) => m.questionId === t.questionId);
    s.questions++;
    if (!read) {
      s.silentlyWrong.push(t.questionId);
      continue;
    }
    const intended = t.kind === 'optional' ? t.intended.split(',').filter(Boolean) : [...t.intended];
    for (const b of read.bubbles) {
      s.bubbles++;
      const want = intended.includes(b.option) ? 'filled' : 'empty';
      if (b.state === 'uncertain') s.bubblesFlagged++;
      else if (b.state === want) s.bubblesRight++;
      else s.bubblesWrong++;
    }
    if (read.status === 'uncertain') {
      s.questionsFlagged++;
      if (t.clear) s.clearMissed.push(t.questionId);
    } else if (read.chosen === t.intended) {
      s.questionsRight++;
      if (t.clear && read.status === 'multiple' && intended.length < 2) s.clearMissed.push(t.questionId);
    } else {
      s.silentlyWrong.push(
        `${t.questionId}: ${t.intended || '∅'} read ${read.chosen || '∅'} (${JSON.stringify(t.styles)})`,
      );
      if (t.clear) s.clearMissed.push(t.questionId);
    }
  }
  const id = result.identity;
  s.identityRight =
    !!id &&
    id.cardId === truth.cardId &&
    id.version === truth.version &&
    id.page === truth.page &&
    id.studentId === truth.studentId &&
    (truth.studentNumber === null || id.studentNumber === truth.studentNumber);
  for (const c of result.crops) {
    s.crops++;
    if (c.blank === !truth.written.includes(c.elementId)) s.cropsRight++;
  }
  return s;
}

/** One question's outcome as a school sees it. */
export type QuestionOutcome = 'right' | 'flagged' | 'silent';

/**
 * Each question of a page: read right unattended, sent to a person (uncertain, or several marks on a single
 * answer), or silently wrong (read unattended as something the student did not mean). A failed page sends every
 * question to a person.
 */
export function questionOutcomes(
  truth: PageTruth,
  result: PageRecognition,
): { questionId: string; clear: boolean; styles: string[]; outcome: QuestionOutcome }[] {
  return truth.marks.map((t) => {
    const read = result.marks.find((m) => m.questionId === t.questionId);
    const styles = Object.values(t.styles);
    let outcome: QuestionOutcome;
    if (result.status === 'failed' || !read) outcome = 'flagged';
    else if (read.status === 'uncertain' || read.status === 'multiple') outcome = 'flagged';
    else outcome = read.chosen === t.intended ? 'right' : 'silent';
    return { questionId: t.questionId, clear: t.clear, styles, outcome };
  });
}
