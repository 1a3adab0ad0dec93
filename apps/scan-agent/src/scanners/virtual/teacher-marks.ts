import type { CardElementOf, CardLayout, Rect } from '@zhzy/contracts';
import type { Canvas } from './pencil.js';
import type { Random } from './random.js';

// The teacher's red pen on the score boxes (打分框) of a card marked on paper before scanning (先阅后扫, ADR 0065):
// for every score box a score is decided (scripted, or seeded at random within the question's full score, half points
// where the box has a 0.5 cell) and its cells are ticked in red — the tens cell when the score has tens, the units
// cell, and the 0.5 cell. Strokes vary in width, hue and position but stay clear: the virtual scanner makes demo and
// end-to-end sheets a careful teacher marked, not the recogniser's hard cases (packages/answer-card's score corpus
// is where faint marks and corrections are tried).

type ScoreBox = CardElementOf<'scoreBox'>;

/** The score a teacher gave one question and the cells they ticked for it. */
export interface TeacherMark {
  questionId: string;
  score: number;
  /** 0-based page of the card. */
  page: number;
  cells: Rect[];
}

/** The cells that make up a score: tens (left empty for a score under ten), units, and 0.5. */
export function cellsOfScore(box: ScoreBox, score: number): Rect[] {
  const row = (role: 'tens' | 'units' | 'half') => box.rows.find((r) => r.role === role)?.cells ?? [];
  const whole = Math.floor(score);
  const out: Rect[] = [];
  const tens = row('tens');
  if (tens.length) {
    const t = Math.floor(whole / 10) * 10;
    const tensCell = tens.find((c) => c.value === t);
    const unitsCell = row('units').find((c) => c.value === whole % 10);
    if (!tensCell || !unitsCell) throw new Error(`score ${score} does not fit the box of ${box.questionId}`);
    if (t > 0) out.push(tensCell.rect);
    out.push(unitsCell.rect);
  } else {
    const cell = row('units').find((c) => c.value === whole);
    if (!cell) throw new Error(`score ${score} does not fit the box of ${box.questionId}`);
    out.push(cell.rect);
  }
  if (score !== whole) {
    const half = row('half')[0];
    if (!half) throw new Error(`the box of ${box.questionId} has no 0.5 cell`);
    out.push(half.rect);
  }
  return out;
}

/**
 * A score for every score box of the card: `scripted` (question id → score) where given, else seeded at random
 * from 0 to the full score (a half point now and then where the box allows it).
 */
export function decideTeacherMarks(
  layout: CardLayout,
  rng: Random,
  scripted: Readonly<Record<string, number>> = {},
): TeacherMark[] {
  const out: TeacherMark[] = [];
  for (const page of layout.pages)
    for (const e of page.elements) {
      if (e.type !== 'scoreBox') continue;
      const half = e.rows.some((r) => r.role === 'half');
      const whole = rng.int(0, Math.floor(e.fullScore));
      const random = half && whole < e.fullScore && rng.chance(0.25) ? whole + 0.5 : whole;
      const score = scripted[e.questionId] ?? random;
      out.push({ questionId: e.questionId, score, page: page.index, cells: cellsOfScore(e, score) });
    }
  return out;
}

/** Red ink over paper or print: it only ever darkens a channel (a red pen over black print stays black). */
function ink(c: Canvas, x: number, y: number, alpha: number, rgb: readonly [number, number, number]): void {
  if (alpha <= 0 || x < 0 || y < 0 || x >= c.width || y >= c.height) return;
  const a = Math.min(1, alpha);
  const i = (y * c.width + x) * 3;
  for (let k = 0; k < 3; k++) {
    const v = c.data[i + k]!;
    const mixed = v * (1 - a) + rgb[k]! * a;
    if (mixed < v) c.data[i + k] = mixed;
  }
}

/** One straight pen stroke from (x0, y0) to (x1, y1), millimetres, `width` mm wide, anti-aliased. */
function stroke(
  c: Canvas,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  width: number,
  rgb: readonly [number, number, number],
): void {
  const s = c.pxPerMm;
  const r = (width / 2) * s;
  const ax = x0 * s;
  const ay = y0 * s;
  const bx = x1 * s;
  const by = y1 * s;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy || 1;
  const minX = Math.floor(Math.min(ax, bx) - r - 1);
  const maxX = Math.ceil(Math.max(ax, bx) + r + 1);
  const minY = Math.floor(Math.min(ay, by) - r - 1);
  const maxY = Math.ceil(Math.max(ay, by) + r + 1);
  for (let y = minY; y <= maxY; y++)
    for (let x = minX; x <= maxX; x++) {
      const t = Math.max(0, Math.min(1, ((x + 0.5 - ax) * dx + (y + 0.5 - ay) * dy) / len2));
      const px = ax + t * dx - (x + 0.5);
      const py = ay + t * dy - (y + 0.5);
      const d = Math.sqrt(px * px + py * py);
      ink(c, x, y, r + 0.5 - d, rgb);
    }
}

/** A red tick (√) across one cell, of the teacher's pen: width, hue and place vary a little. */
export function redTick(c: Canvas, cell: Rect, rng: Random): void {
  const rgb = [rng.int(195, 235), rng.int(10, 45), rng.int(20, 55)] as const;
  const width = rng.between(0.45, 0.7);
  const cx = cell.x + cell.w / 2 + rng.between(-0.5, 0.5);
  const cy = cell.y + cell.h / 2 + rng.between(-0.4, 0.4);
  const k = rng.between(0.85, 1.05);
  const left = { x: cx - 1.7 * k, y: cy - 0.1 * k };
  const bottom = { x: cx - 0.5 * k, y: cy + 1.4 * k };
  const right = { x: cx + 2.0 * k, y: cy - 1.6 * k };
  stroke(c, left.x, left.y, bottom.x, bottom.y, width, rgb);
  stroke(c, bottom.x, bottom.y, right.x, right.y, width, rgb);
}

/** Draws the teacher's marks of one page. */
export function drawTeacherMarks(
  c: Canvas,
  marks: readonly TeacherMark[],
  pageIndex: number,
  rng: Random,
): void {
  for (const m of marks) if (m.page === pageIndex) for (const cell of m.cells) redTick(c, cell, rng);
}
