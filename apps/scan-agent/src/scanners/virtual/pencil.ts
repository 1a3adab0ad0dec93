import type { Random } from './random.js';

/** An RGB raster being drawn on (3 bytes a pixel). */
export interface Canvas {
  data: Buffer;
  width: number;
  height: number;
  /** Pixels per millimetre. */
  pxPerMm: number;
}

/** How hard a student pressed, or what else they did to a bubble. */
export type MarkStyle = 'heavy' | 'normal' | 'light' | 'partial' | 'erased' | 'tick' | 'dot';

const GRAPHITE = [38, 38, 44] as const;
const PEN = [24, 30, 72] as const;

function blend(
  c: Canvas,
  x: number,
  y: number,
  alpha: number,
  color: readonly [number, number, number],
): void {
  if (alpha <= 0 || x < 0 || y < 0 || x >= c.width || y >= c.height) return;
  const a = Math.min(1, alpha);
  const i = (y * c.width + x) * 3;
  // Graphite over paper or print: it only ever darkens.
  for (let k = 0; k < 3; k++) {
    const v = c.data[i + k]!;
    const mixed = v * (1 - a) + color[k]! * a;
    if (mixed < v) c.data[i + k] = mixed;
  }
}

const smooth = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/** A wobbly edge: a smooth random offset along a line, in millimetres. */
function wobble(rng: Random, amplitudeMm: number): (t: number) => number {
  const a1 = rng.between(0.3, 1) * amplitudeMm;
  const a2 = rng.between(0.2, 0.6) * amplitudeMm;
  const f1 = rng.between(0.6, 1.6);
  const f2 = rng.between(2, 4.5);
  const p1 = rng.between(0, Math.PI * 2);
  const p2 = rng.between(0, Math.PI * 2);
  return (t) => a1 * Math.sin(f1 * t + p1) + a2 * Math.sin(f2 * t + p2);
}

/**
 * Fills a bubble (rectangle in millimetres) the way a pencil does: back-and-forth strokes with their own pressure,
 * a soft ragged edge that over- or under-shoots the brackets, graphite grain with paper showing through.
 */
export function pencilFill(
  c: Canvas,
  rect: { x: number; y: number; w: number; h: number },
  style: MarkStyle,
  rng: Random,
): void {
  const s = c.pxPerMm;
  if (style === 'tick') {
    const x = rect.x + rect.w * 0.25;
    const y = rect.y + rect.h * 0.2;
    penStroke(
      c,
      [
        [x, y + rect.h * 0.35],
        [x + rect.w * 0.18, y + rect.h * 0.65],
        [x + rect.w * 0.55, y - rect.h * 0.05],
      ],
      0.45,
      0.85,
      rng,
      GRAPHITE,
    );
    return;
  }
  if (style === 'dot') {
    const cx = rect.x + rect.w / 2 + rng.between(-0.5, 0.5);
    const cy = rect.y + rect.h / 2 + rng.between(-0.3, 0.3);
    blob(c, cx, cy, 0.55, 0.5, 0.85, rng);
    return;
  }
  const darkness =
    style === 'heavy'
      ? rng.between(0.9, 0.98)
      : style === 'normal'
        ? rng.between(0.72, 0.86)
        : style === 'light'
          ? rng.between(0.36, 0.5)
          : style === 'partial'
            ? rng.between(0.65, 0.85)
            : rng.between(0.1, 0.18);
  const holes = style === 'light' ? 0.18 : style === 'erased' ? 0.45 : 0.04;
  const cx = rect.x + rect.w / 2 + rng.between(-0.3, 0.3);
  const cy = rect.y + rect.h / 2 + rng.between(-0.2, 0.2);
  let hw = (rect.w / 2) * rng.between(0.86, 1.08);
  const hh = (rect.h / 2) * rng.between(0.8, 1.15);
  let left = cx - hw;
  if (style === 'partial') {
    hw *= rng.between(0.45, 0.65);
    left = rect.x + rng.between(0, 0.4);
  }
  if (style === 'erased') hw *= 1.1;
  const right = left + hw * 2;
  const top = cy - hh;
  const bottom = cy + hh;
  const radius = hh * rng.between(0.3, 0.7);
  const edgeL = wobble(rng, 0.22);
  const edgeR = wobble(rng, 0.22);
  const edgeT = wobble(rng, 0.15);
  const edgeB = wobble(rng, 0.15);
  // Strokes run roughly horizontally; each has its own pressure.
  const angle = rng.between(-0.35, 0.35) + (rng.chance(0.2) ? Math.PI / 4 : 0);
  const pitch = rng.between(0.3, 0.45);
  const phase = rng.between(0, 10);
  const pressures = Array.from({ length: 64 }, () => rng.between(0.72, 1.06));
  const soft = Math.max(1, 1.3 * (s / 11.8));
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const x0 = Math.floor((left - 0.6) * s);
  const x1 = Math.ceil((right + 0.6) * s);
  const y0 = Math.floor((top - 0.6) * s);
  const y1 = Math.ceil((bottom + 0.6) * s);
  for (let py = y0; py <= y1; py++) {
    const ym = py / s;
    const l = left + edgeL(ym * 2);
    const r = right + edgeR(ym * 2);
    for (let px = x0; px <= x1; px++) {
      const xm = px / s;
      const t = top + edgeT(xm * 2);
      const b = bottom + edgeB(xm * 2);
      // Signed distance to a rounded rectangle (negative inside), in millimetres.
      const hx = (r - l) / 2;
      const hy = (b - t) / 2;
      const qx = Math.abs(xm - (l + r) / 2) - hx + radius;
      const qy = Math.abs(ym - (t + b) / 2) - hy + radius;
      const sd = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
      const edge = smooth(0.5 - (sd * s) / soft);
      if (edge <= 0) continue;
      const along = (ym * cos - xm * sin) / pitch + phase;
      const band =
        pressures[((Math.floor(along) % 64) + 64) % 64]! *
        (0.82 + 0.18 * Math.abs(Math.sin(Math.PI * along)));
      const grain = rng.chance(holes) ? rng.between(0, 0.35) : rng.between(0.84, 1);
      blend(c, px, py, darkness * edge * band * grain, GRAPHITE);
    }
  }
}

/** A soft round dab of graphite. */
function blob(
  c: Canvas,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  darkness: number,
  rng: Random,
): void {
  const s = c.pxPerMm;
  for (let py = Math.floor((cy - ry - 0.3) * s); py <= Math.ceil((cy + ry + 0.3) * s); py++) {
    for (let px = Math.floor((cx - rx - 0.3) * s); px <= Math.ceil((cx + rx + 0.3) * s); px++) {
      const d = Math.hypot((px / s - cx) / rx, (py / s - cy) / ry);
      blend(c, px, py, darkness * smooth((1.1 - d) * 3) * rng.between(0.75, 1), GRAPHITE);
    }
  }
}

/** A line drawn with a pencil or pen through points in millimetres, `widthMm` wide. */
export function penStroke(
  c: Canvas,
  points: readonly (readonly [number, number])[],
  widthMm: number,
  darkness: number,
  rng: Random,
  color: readonly [number, number, number] = PEN,
): void {
  if (points.length < 2) return;
  const s = c.pxPerMm;
  const half = widthMm / 2;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x0 = Math.floor((Math.min(...xs) - half - 0.2) * s);
  const x1 = Math.ceil((Math.max(...xs) + half + 0.2) * s);
  const y0 = Math.floor((Math.min(...ys) - half - 0.2) * s);
  const y1 = Math.ceil((Math.max(...ys) + half + 0.2) * s);
  for (let py = y0; py <= y1; py++) {
    for (let px = x0; px <= x1; px++) {
      const xm = px / s;
      const ym = py / s;
      let d = Infinity;
      for (let i = 1; i < points.length; i++) {
        const [ax, ay] = points[i - 1]!;
        const [bx, by] = points[i]!;
        const dx = bx - ax;
        const dy = by - ay;
        const len = dx * dx + dy * dy;
        const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((xm - ax) * dx + (ym - ay) * dy) / len));
        d = Math.min(d, Math.hypot(xm - (ax + t * dx), ym - (ay + t * dy)));
      }
      const a = smooth(((half - d) * s) / 1.2 + 0.5);
      if (a > 0) blend(c, px, py, darkness * a * rng.between(0.85, 1), color);
    }
  }
}

/** Scribbled "handwriting": glyph-like clusters of pen strokes along lines inside a box (millimetres). */
export function handwriting(
  c: Canvas,
  box: { x: number; y: number; w: number; h: number },
  rng: Random,
  options: { lines?: number; fill?: number } = {},
): void {
  const lineH = rng.between(6.5, 8.5);
  const maxLines = Math.max(1, Math.floor((box.h - 8) / lineH));
  const lines = Math.min(maxLines, options.lines ?? rng.int(1, maxLines));
  const glyph = rng.between(3, 4);
  for (let l = 0; l < lines; l++) {
    const baseY = box.y + 8 + l * lineH + lineH * 0.6;
    const width = (box.w - 6) * (options.fill ?? rng.between(0.35, 0.95));
    let x = box.x + 3 + rng.between(0, 2);
    const slope = rng.between(-0.015, 0.015);
    while (x < box.x + 3 + width) {
      const gx = x;
      const gy = baseY + (x - box.x) * slope - glyph;
      const strokes = rng.int(3, 6);
      for (let k = 0; k < strokes; k++) {
        const pts: [number, number][] = [];
        const n = rng.int(2, 4);
        for (let p = 0; p < n; p++) pts.push([gx + rng.between(0, glyph * 0.9), gy + rng.between(0, glyph)]);
        penStroke(c, pts, rng.between(0.28, 0.42), rng.between(0.7, 0.9), rng);
      }
      x += glyph * rng.between(0.95, 1.15) + (rng.chance(0.1) ? glyph * 0.8 : 0);
    }
  }
}

/** A stray pencil line somewhere near a point (millimetres). */
export function strayMark(c: Canvas, x: number, y: number, rng: Random): void {
  const len = rng.between(2.5, 7);
  const a = rng.between(0, Math.PI);
  penStroke(
    c,
    [
      [x, y],
      [x + len * Math.cos(a), y + len * Math.sin(a)],
    ],
    rng.between(0.35, 0.6),
    rng.between(0.35, 0.6),
    rng,
    GRAPHITE,
  );
}
