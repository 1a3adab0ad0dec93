import type { AnswerMarkReading } from '@zhzy/contracts';

/*
 * A red √ or × written on the answer (issue #26's secondary signal, ADR 0065): read only when a score box was left
 * empty on a colour scan. The red pixels of the written box are grouped into strokes; one clear √ (two straight arms
 * meeting at their lowest point, the left one shorter) is the full score, one clear × (two straight strokes crossing
 * near both their middles) is zero, and anything else red — a half-right √ with its slash, a written score, two
 * marks — is unclear: a person decides, never a guess.
 */

/** Red strokes smaller than this (mm, longest side) are specks of the scan, not marks. */
const SPECK_MM = 1.5;
/** Strokes closer than this (mm) are one mark (a √ or × drawn in two strokes, a pen lifted). */
const JOIN_MM = 1.2;
/** A stroke pixel farther than this (mm) from its arm's line is off it: the mark is not a clean √ or ×. */
const OFF_LINE_MM = 0.75;
/** At most this share of a mark's pixels may lie off its two lines. */
const OFF_LINE_MAX = 0.03;
/** A √ or × at least this tall and wide (mm). */
const MARK_MIN_MM = 2.5;

interface Pt {
  x: number;
  y: number;
}

/** Connected regions (8-neighbourhood) of a mask `w` × `h`: the red strokes here, a score box's marks in score-cells. */
export function components(mask: Uint8Array, w: number, h: number): Pt[][] {
  const seen = new Uint8Array(mask.length);
  const out: Pt[][] = [];
  const stack: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || seen[i]) continue;
    const comp: Pt[] = [];
    seen[i] = 1;
    stack.push(i);
    while (stack.length) {
      const j = stack.pop()!;
      const x = j % w;
      const y = (j - x) / w;
      comp.push({ x, y });
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const k = ny * w + nx;
          if (mask[k] && !seen[k]) {
            seen[k] = 1;
            stack.push(k);
          }
        }
    }
    out.push(comp);
  }
  return out;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
const bbox = (pts: Pt[]): Box => ({
  x0: Math.min(...pts.map((p) => p.x)),
  y0: Math.min(...pts.map((p) => p.y)),
  x1: Math.max(...pts.map((p) => p.x)),
  y1: Math.max(...pts.map((p) => p.y)),
});
const gap = (a: Box, b: Box) =>
  Math.max(0, Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1), Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1));

/** A straight line fitted through points (principal axis): centre, unit direction, and each point's distance. */
function fitLine(pts: Pt[]): { c: Pt; d: Pt; dist: (p: Pt) => number; along: (p: Pt) => number } {
  const n = Math.max(1, pts.length);
  const c = { x: pts.reduce((s, p) => s + p.x, 0) / n, y: pts.reduce((s, p) => s + p.y, 0) / n };
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of pts) {
    sxx += (p.x - c.x) ** 2;
    syy += (p.y - c.y) ** 2;
    sxy += (p.x - c.x) * (p.y - c.y);
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const d = { x: Math.cos(angle), y: Math.sin(angle) };
  return {
    c,
    d,
    dist: (p) => Math.abs((p.x - c.x) * d.y - (p.y - c.y) * d.x),
    along: (p) => (p.x - c.x) * d.x + (p.y - c.y) * d.y,
  };
}

const offShare = (pts: Pt[], line: ReturnType<typeof fitLine>, off: number) =>
  pts.filter((p) => line.dist(p) > off).length / Math.max(1, pts.length);

/** One clean √: two straight arms meeting at the mark's lowest point, the left arm shorter, the right rising higher. */
function isTick(pts: Pt[], b: Box, off: number): boolean {
  const bottom = pts.filter((p) => p.y >= b.y1 - off);
  const vx = bottom.reduce((s, p) => s + p.x, 0) / Math.max(1, bottom.length);
  const left = pts.filter((p) => p.x < vx - off);
  const right = pts.filter((p) => p.x > vx + off);
  if (left.length < 5 || right.length < 5) return false;
  const [l, r] = [fitLine(left), fitLine(right)];
  const lb = bbox(left);
  const rb = bbox(right);
  const span = b.x1 - b.x0;
  return (
    offShare(left, l, off) <= OFF_LINE_MAX &&
    offShare(right, r, off) <= OFF_LINE_MAX &&
    // The vertex in the left half, the left arm starting lower than the right arm ends.
    vx - b.x0 < span * 0.5 &&
    lb.y0 > rb.y0 + (b.y1 - b.y0) * 0.15 &&
    // Both arms go down towards the vertex: the left falls to the right, the right rises to the right.
    l.d.x * l.d.y > 0 &&
    r.d.x * r.d.y < 0
  );
}

/** One clean ×: two straight strokes, steeply crossed, meeting near both their middles. */
function isCross(pts: Pt[], b: Box, off: number): boolean {
  // Start from the box's diagonals, then refit each stroke to the points nearer to it.
  let a = fitLine([
    { x: b.x0, y: b.y0 },
    { x: b.x1, y: b.y1 },
  ]);
  let c = fitLine([
    { x: b.x1, y: b.y0 },
    { x: b.x0, y: b.y1 },
  ]);
  let sa: Pt[] = [];
  let sc: Pt[] = [];
  for (let i = 0; i < 4; i++) {
    sa = pts.filter((p) => a.dist(p) <= c.dist(p));
    sc = pts.filter((p) => a.dist(p) > c.dist(p));
    if (sa.length < 5 || sc.length < 5) return false;
    a = fitLine(sa);
    c = fitLine(sc);
  }
  const off2 = pts.filter((p) => Math.min(a.dist(p), c.dist(p)) > off).length / pts.length;
  const cos = Math.abs(a.d.x * c.d.x + a.d.y * c.d.y);
  // Where the two lines cross, as a share along each stroke's own extent.
  const det = a.d.x * c.d.y - a.d.y * c.d.x;
  if (Math.abs(det) < 1e-6) return false;
  const t = ((c.c.x - a.c.x) * c.d.y - (c.c.y - a.c.y) * c.d.x) / det;
  const meet = { x: a.c.x + t * a.d.x, y: a.c.y + t * a.d.y };
  const middle = (s: Pt[], line: ReturnType<typeof fitLine>) => {
    const ts = s.map(line.along);
    const lo = Math.min(...ts);
    const hi = Math.max(...ts);
    const at = (line.along(meet) - lo) / Math.max(1e-6, hi - lo);
    return at > 0.25 && at < 0.75;
  };
  return off2 <= OFF_LINE_MAX && cos < Math.cos((50 * Math.PI) / 180) && middle(sa, a) && middle(sc, c);
}

/**
 * Reads a red mark from the written box's red mask (`w` × `h`, `perMm` samples per mm). Undefined when there is no
 * red mark at all.
 */
export function readAnswerMark(
  mask: Uint8Array,
  w: number,
  h: number,
  perMm: number,
): AnswerMarkReading | undefined {
  const strokes = components(mask, w, h)
    .map((pts) => ({ pts, b: bbox(pts) }))
    .filter((s) => Math.max(s.b.x1 - s.b.x0, s.b.y1 - s.b.y0) + 1 >= SPECK_MM * perMm);
  if (!strokes.length) return undefined;
  // Strokes near each other are one mark.
  const marks: { pts: Pt[]; b: Box }[] = [];
  for (const s of strokes.sort((p, q) => p.b.x0 - q.b.x0)) {
    const near = marks.find((m) => gap(m.b, s.b) <= JOIN_MM * perMm);
    if (near) {
      near.pts.push(...s.pts);
      near.b = bbox(near.pts);
    } else marks.push({ pts: [...s.pts], b: s.b });
  }
  const main = marks.reduce((p, q) => (q.pts.length > p.pts.length ? q : p));
  const b = main.b;
  const grid = Array.from({ length: 9 }, () => 0);
  const bw = b.x1 - b.x0 + 1;
  const bh = b.y1 - b.y0 + 1;
  for (const p of main.pts)
    grid[Math.min(2, Math.floor(((p.y - b.y0) / bh) * 3)) * 3 + Math.min(2, Math.floor(((p.x - b.x0) / bw) * 3))]!++;
  const shares = grid.map((g) => Math.round((g / main.pts.length) * 1000) / 1000);
  const off = OFF_LINE_MM * perMm;
  const big = bw >= MARK_MIN_MM * perMm && bh >= MARK_MIN_MM * perMm;
  // A mark running out of the written box is cut: what is left of a √ can look like anything (held-out bench: a √
  // cut at the box's top read as ×).
  const inside = b.x0 > 0 && b.y0 > 0 && b.x1 < w - 1 && b.y1 < h - 1;
  // A × inks all four corners of its bounding box.
  const corners = [0, 2, 6, 8].every((i) => shares[i]! >= 0.03);
  const kind =
    marks.length === 1 && big && inside
      ? corners && isCross(main.pts, b, off)
        ? 'cross'
        : isTick(main.pts, b, off)
          ? 'tick'
          : 'unclear'
      : 'unclear';
  return { kind, strokes: marks.length, grid: shares };
}
