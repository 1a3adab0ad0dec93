import type { CardElement, CardLayout, Rect } from '@zhzy/contracts';

const EPS = 1e-6;

/** Whether two rectangles share any area (touching edges do not count). */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w - EPS && b.x < a.x + a.w - EPS && a.y < b.y + b.h - EPS && b.y < a.y + a.h - EPS;
}

/** Whether `inner` lies within `outer`. */
export function contains(outer: Rect, inner: Rect, tolerance = EPS): boolean {
  return (
    inner.x >= outer.x - tolerance &&
    inner.y >= outer.y - tolerance &&
    inner.x + inner.w <= outer.x + outer.w + tolerance &&
    inner.y + inner.h <= outer.y + outer.h + tolerance
  );
}

/** The area an element claims: its rectangle, and for a QR its quiet zone too. */
export function claimedRect(e: CardElement): Rect {
  if (e.type !== 'qr') return e.rect;
  const q = e.quietZoneMm;
  return { x: e.rect.x - q, y: e.rect.y - q, w: e.rect.w + 2 * q, h: e.rect.h + 2 * q };
}

/** Every rectangle an element draws in (bubbles, labels, lines), which must lie inside the element. */
export function innerRects(e: CardElement): Rect[] {
  switch (e.type) {
    case 'studentInfo':
      return e.fields.flatMap((f) => [f.labelRect, f.valueRect]);
    case 'studentNumberGrid':
      return [...e.boxes, ...e.bubbles.map((b) => b.rect)];
    case 'instructions':
      return [e.textRect, e.correctLabelRect, e.wrongLabelRect, ...e.examples.map((x) => x.rect)];
    case 'objectiveBlock':
      return e.rows.flatMap((r) => [r.numberRect, ...r.bubbles.map((b) => b.rect)]);
    case 'blank':
      return [e.numberRect, ...e.lines];
    case 'optionalChoice':
      return [e.textRect, ...e.bubbles.map((b) => b.rect)];
    default:
      return [];
  }
}

/** Every bubble of a page a student can fill, with what it means. */
export function pageBubbles(layout: CardLayout, pageIndex: number): { key: string; rect: Rect }[] {
  const out: { key: string; rect: Rect }[] = [];
  for (const e of layout.pages[pageIndex]!.elements) {
    if (e.type === 'objectiveBlock') {
      for (const r of e.rows)
        for (const b of r.bubbles) out.push({ key: `${r.questionId}:${b.option}`, rect: b.rect });
    }
    if (e.type === 'studentNumberGrid')
      for (const b of e.bubbles) out.push({ key: `digit${b.digit}:${b.value}`, rect: b.rect });
    if (e.type === 'optionalChoice')
      for (const b of e.bubbles) out.push({ key: `${e.optionalGroup}:${b.questionId}`, rect: b.rect });
  }
  return out;
}
