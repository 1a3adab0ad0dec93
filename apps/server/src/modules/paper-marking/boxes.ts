import type { CardLayout, PaperMarkingQuestion, PaperScoreState, ScoreReading } from '@zhzy/contracts';

// The score boxes of 纸上批阅 (ADR 0065) on a card layout, and what a box's reading makes of it. Pure: no database.

/** The score boxes of a card layout, by question id, with the page and the rect of the answer they belong to. */
export function scoreBoxesOf(layout: CardLayout) {
  const boxes = new Map<
    string,
    PaperMarkingQuestion & { page: number; rect: { x: number; y: number; w: number; h: number } }
  >();
  layout.pages.forEach((page, i) => {
    for (const el of page.elements) {
      if (el.type !== 'scoreBox') continue;
      const written = page.elements.find(
        (w) => w.type === 'writtenBox' && w.questionIds.includes(el.questionId),
      );
      const rect = written ? union(el.rect, written.rect) : el.rect;
      boxes.set(el.questionId, {
        questionId: el.questionId,
        number: el.number,
        fullScore: el.fullScore,
        kind: el.kind,
        half: el.rows.some((r) => r.role === 'half'),
        page: i + 1,
        rect,
      });
    }
  });
  return boxes;
}

function union(a: { x: number; y: number; w: number; h: number }, b: typeof a) {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/** What a box becomes from its reading: scored, doubtful (waits for a person) or marked on screen (blank). */
export function stateOf(s: ScoreReading): PaperScoreState {
  if (s.status === 'ok') return 'scored';
  if (s.status === 'doubtful') return 'doubtful';
  return 'onScreen';
}
