import { MARKING_TEXT as T } from '../../../i18n/marking';

// Score boxes: what a teacher types, checked the way the host checks it, so a refusal never costs a round trip.

export interface ScoreQuestion {
  questionId: string;
  no: string;
  fullScore: number;
}

/** Keeps what a score box may hold: digits and one decimal point. */
export function cleanScoreText(text: string): string {
  const kept = text.replace(/[^\d.]/g, '');
  const dot = kept.indexOf('.');
  return dot < 0
    ? kept
    : kept.slice(0, dot + 1) +
        kept
          .slice(dot + 1)
          .replace(/\./g, '')
          .slice(0, 1);
}

/** The score of a box, or the Chinese reason it cannot be submitted. */
export function readScore(
  text: string,
  q: ScoreQuestion,
  halfPoints: boolean,
): { ok: true; score: number } | { ok: false; message: string } {
  const t = text.trim();
  if (t === '' || t === '.') return { ok: false, message: T.emptyScore(q.no) };
  const value = Number(t.endsWith('.') ? t.slice(0, -1) : t);
  if (!Number.isFinite(value)) return { ok: false, message: T.emptyScore(q.no) };
  if (value > q.fullScore) return { ok: false, message: T.aboveFull(q.no, q.fullScore) };
  const tenths = Math.round(value * 10);
  if (halfPoints ? tenths % 5 !== 0 : tenths % 10 !== 0)
    return { ok: false, message: halfPoints ? T.badStep(q.no) : T.halfNotAllowed(q.no) };
  return { ok: true, score: value };
}

/** Scores of every box, or the first reason one cannot be submitted (with its index). */
export function readScores(
  texts: readonly string[],
  questions: readonly ScoreQuestion[],
  halfPoints: boolean,
):
  | { ok: true; scores: { questionId: string; score: number }[] }
  | { ok: false; message: string; index: number } {
  const scores: { questionId: string; score: number }[] = [];
  for (const [i, q] of questions.entries()) {
    const r = readScore(texts[i] ?? '', q, halfPoints);
    if (!r.ok) return { ok: false, message: r.message, index: i };
    scores.push({ questionId: q.questionId, score: r.score });
  }
  return { ok: true, scores };
}

/** Points as a teacher writes them: 8, 8.5. */
export const formatScore = (n: number): string => String(Math.round(n * 10) / 10);

/** The scores a marker can click for a question: 0 to full in ½ steps (whole points when the block allows no half). */
export function scoreSteps(fullScore: number, halfPoints: boolean): number[] {
  const step = halfPoints ? 0.5 : 1;
  const n = Math.floor(fullScore / step + 1e-9);
  const steps = Array.from({ length: n + 1 }, (_, k) => Math.round(k * step * 10) / 10);
  if (steps[steps.length - 1] !== fullScore) steps.push(fullScore);
  return steps;
}
