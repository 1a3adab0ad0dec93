// A second, independent model of what a class puts on a card and how school offices scan it (issue #19). It shares
// only the printed card with the team's corpus (`corpus.ts`): marks are built from pencil strokes laid over a paper
// tooth texture (not from even discs), erasures are a rubber taking away part of a real fill (evenly or in streaks),
// hands smudge graphite across rows, and pages are scanned at 150/200/300 dpi in grey or as 1-bit with error
// diffusion or ordered dither, with a shadow at the fold. Its parameters are drawn from ranges wider than the
// classifier's thresholds, and its truth says what a person would call the student's meaning — never what the
// classifier would say.
//
// Seeds: `WILD_TUNING_SEEDS` may be looked at while choosing rules; `WILD_HELD_OUT_SEEDS` are only run at the end.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { CardPage, Rect } from '@zhzy/contracts';
import type { GreyImage } from '../image.js';
import { rasterPage, seeded, type CardFixture, type MarkTruth, type PageTruth } from './corpus.js';

/** Seeds used while tuning (pages `wild-<seed>`). */
export const WILD_TUNING_SEEDS: readonly [number, number] = [0, 100_000];
/** Seeds never looked at while tuning: the bench's held-out pages (`wild-<seed>` from 18,000,000; ADR 0088 — 900,000, 2,000,000, 5,000,000, 7,000,000, 8,000,000, 9,000,000, 10,000,000, 11,000,000, 12,000,000, 13,000,000, 14,000,000, 15,000,000, 16,000,000 and 17,000,000 onwards were burnt by earlier rounds). */
export const WILD_HELD_OUT_SEEDS: readonly [number, number] = [18_000_000, 18_100_000];

/** How the student's pen or pencil met a bubble. */
export const WILD_STYLES = [
  'fill',
  'tick',
  'cross',
  'circle',
  'dot',
  'erased',
  'erasedStreaky',
  'halfErased',
] as const;
export type WildStyle = (typeof WILD_STYLES)[number];

/** How the office scanned the page. */
export const SCAN_KINDS = [
  'grey-150',
  'grey-200',
  'grey-300',
  'diffused-150',
  'diffused-200',
  'diffused-300',
  'ordered-200',
  'ordered-300',
] as const;
export type ScanKind = (typeof SCAN_KINDS)[number];

const between = (rng: () => number, lo: number, hi: number) => lo + (hi - lo) * rng();
const pick = <T>(rng: () => number, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/** One student's hand: steady within a sheet, different between students. */
interface Hand {
  /** Graphite laid per pass at full pressure, 0–1 (a hard pencil pressed lightly ~0.3, soft 2B pressed hard ~0.95). */
  graphite: number;
  /** Pencil tip width, millimetres. */
  tip: number;
  /** Stroke spacing as a share of the tip (above 1 leaves paper between strokes). */
  spacing: number;
  /** The student marks by filling (most), or by ticks, crosses or circles. */
  habit: 'fill' | 'tick' | 'cross' | 'circle';
  /** Fine pen for ticks and crosses instead of pencil. */
  pen: boolean;
  /** Of the fill's darkness, what the student's rubber leaves (0.02 a clean eraser … 0.6 a dirty one pressed on). */
  residue: [number, number];
}

/**
 * Paper tooth: a smooth random field (0–1) at ~0.15 mm; graphite catches on its peaks. Built per page from value
 * noise on a coarse lattice, bilinearly interpolated.
 */
class Tooth {
  private readonly lattice: Float32Array;
  private readonly n = 256;
  constructor(rng: () => number) {
    this.lattice = Float32Array.from({ length: this.n * this.n }, () => rng());
  }
  at(xMm: number, yMm: number): number {
    const u = xMm / 0.15;
    const v = yMm / 0.15;
    const x0 = Math.floor(u);
    const y0 = Math.floor(v);
    const fx = u - x0;
    const fy = v - y0;
    const n = this.n;
    const g = (x: number, y: number) => this.lattice[(((y % n) + n) % n) * n + (((x % n) + n) % n)]!;
    const top = g(x0, y0) * (1 - fx) + g(x0 + 1, y0) * fx;
    const bottom = g(x0, y0 + 1) * (1 - fx) + g(x0 + 1, y0 + 1) * fx;
    return top * (1 - fy) + bottom * fy;
  }
}

/**
 * Graphite over one region, as absorption (0 paper … 1 black) on a millimetre grid of the page's resolution: strokes
 * add to it, a rubber takes from it, then it is laid onto the page once.
 */
class Layer {
  readonly a: Float32Array;
  readonly x0: number;
  readonly y0: number;
  readonly w: number;
  readonly h: number;
  constructor(
    readonly k: number,
    r: Rect,
  ) {
    this.x0 = Math.floor(r.x * k);
    this.y0 = Math.floor(r.y * k);
    this.w = Math.ceil((r.x + r.w) * k) - this.x0 + 1;
    this.h = Math.ceil((r.y + r.h) * k) - this.y0 + 1;
    this.a = new Float32Array(this.w * this.h);
  }
  /** A stroke segment of `width` mm: each pixel gains graphite `amount` weighted by coverage and tooth. */
  segment(
    p: { x: number; y: number },
    q: { x: number; y: number },
    width: number,
    amount: number,
    tooth: Tooth | null,
  ): void {
    const k = this.k;
    const half = (width * k) / 2;
    const ax = p.x * k - this.x0;
    const ay = p.y * k - this.y0;
    const vx = (q.x - p.x) * k;
    const vy = (q.y - p.y) * k;
    const len2 = vx * vx + vy * vy || 1e-9;
    const xa = Math.max(0, Math.floor(Math.min(ax, ax + vx) - half - 1));
    const xb = Math.min(this.w - 1, Math.ceil(Math.max(ax, ax + vx) + half + 1));
    const ya = Math.max(0, Math.floor(Math.min(ay, ay + vy) - half - 1));
    const yb = Math.min(this.h - 1, Math.ceil(Math.max(ay, ay + vy) + half + 1));
    for (let y = ya; y <= yb; y++) {
      for (let x = xa; x <= xb; x++) {
        const px = x + 0.5 - ax;
        const py = y + 0.5 - ay;
        const t = Math.max(0, Math.min(1, (px * vx + py * vy) / len2));
        const d = Math.hypot(px - t * vx, py - t * vy);
        const cover = Math.min(1, Math.max(0, half - d + 0.5));
        if (cover <= 0) continue;
        // Soft graphite deposits more where the paper's tooth stands up; pen ink ignores the tooth.
        const grain = tooth ? 0.35 + 0.9 * tooth.at((x + this.x0) / k, (y + this.y0) / k) : 1;
        const add = Math.min(1, amount * cover * grain);
        const i = y * this.w + x;
        this.a[i] = 1 - (1 - this.a[i]!) * (1 - add);
      }
    }
  }
  /** A rubber over the layer: keeps `keep(x, y)` of the graphite (0 clean … 1 untouched). */
  rub(keep: (xMm: number, yMm: number) => number): void {
    for (let y = 0; y < this.h; y++)
      for (let x = 0; x < this.w; x++) {
        const i = y * this.w + x;
        if (this.a[i]! > 0) this.a[i] = this.a[i]! * keep((x + this.x0) / this.k, (y + this.y0) / this.k);
      }
  }
  /** Lays the graphite onto the page (multiplicative, as it absorbs the light the paper reflects). */
  apply(img: GreyImage): void {
    for (let y = 0; y < this.h; y++) {
      const iy = y + this.y0;
      if (iy < 0 || iy >= img.height) continue;
      for (let x = 0; x < this.w; x++) {
        const ix = x + this.x0;
        const a = this.a[y * this.w + x]!;
        if (ix < 0 || ix >= img.width || a <= 0) continue;
        const j = iy * img.width + ix;
        img.data[j] = Math.round(img.data[j]! * (1 - Math.min(0.97, a)));
      }
    }
  }
}

const grow = (r: Rect, mm: number): Rect => ({ x: r.x - mm, y: r.y - mm, w: r.w + 2 * mm, h: r.h + 2 * mm });

/** A hand's fill of a bubble: back-and-forth strokes at a slant, over- or under-shooting the brackets. */
function fillStrokes(
  layer: Layer,
  r: Rect,
  hand: Hand,
  pressure: number,
  tooth: Tooth,
  rng: () => number,
): void {
  const cover = between(rng, 0.8, 1.12);
  const cx = r.x + r.w / 2 + between(rng, -0.25, 0.25);
  const cy = r.y + r.h / 2 + between(rng, -0.2, 0.2);
  const hw = (r.w / 2) * cover;
  const hh = (r.h / 2) * cover;
  const vertical = rng() < 0.35;
  const slant = between(rng, -0.5, 0.5);
  const step = hand.tip * hand.spacing;
  const passes = rng() < 0.4 ? 2 : 1;
  for (let pass = 0; pass < passes; pass++) {
    const offset = pass * step * 0.5;
    const span = vertical ? hw : hh;
    for (let s = -span + offset; s <= span; s += step) {
      // The chord of the ellipse at this offset, wobbling a little.
      const f = Math.sqrt(Math.max(0, 1 - (s / span) ** 2));
      const len = (vertical ? hh : hw) * f * between(rng, 0.85, 1.08);
      const j = between(rng, -0.1, 0.1);
      const amount = hand.graphite * pressure * between(rng, 0.85, 1.1);
      if (vertical)
        layer.segment(
          { x: cx + s + slant * 0.2, y: cy - len + j },
          { x: cx + s - slant * 0.2, y: cy + len + j },
          hand.tip,
          amount,
          tooth,
        );
      else
        layer.segment(
          { x: cx - len + j, y: cy + s + slant * 0.2 },
          { x: cx + len + j, y: cy + s - slant * 0.2 },
          hand.tip,
          amount,
          tooth,
        );
    }
  }
}

/** A tick, a cross or a circle round the letter, in fine pen or pencil. */
function lineMark(
  layer: Layer,
  r: Rect,
  style: 'tick' | 'cross' | 'circle' | 'dot',
  hand: Hand,
  pressure: number,
  tooth: Tooth,
  rng: () => number,
): void {
  const pen = hand.pen && style !== 'dot';
  const width = pen ? between(rng, 0.18, 0.35) : hand.tip * between(rng, 0.9, 1.3);
  const amount = pen ? between(rng, 0.7, 0.95) : Math.max(0.35, hand.graphite) * pressure;
  const t = pen ? null : tooth;
  const cx = r.x + r.w / 2 + between(rng, -0.4, 0.4);
  const cy = r.y + r.h / 2 + between(rng, -0.3, 0.3);
  const s = between(rng, 0.7, 1.3);
  const w = r.w * 0.45 * s;
  const h = r.h * 0.55 * s;
  if (style === 'tick') {
    const a = { x: cx - w, y: cy };
    const b = { x: cx - w * 0.3, y: cy + h };
    const c = { x: cx + w * between(rng, 0.8, 1.2), y: cy - h * between(rng, 0.9, 1.4) };
    layer.segment(a, b, width, amount, t);
    layer.segment(b, c, width, amount, t);
  } else if (style === 'cross') {
    layer.segment({ x: cx - w, y: cy - h }, { x: cx + w, y: cy + h }, width, amount, t);
    layer.segment({ x: cx + w, y: cy - h }, { x: cx - w, y: cy + h }, width, amount, t);
  } else if (style === 'circle') {
    const rx = (r.w / 2) * between(rng, 0.75, 1.15);
    const ry = (r.h / 2) * between(rng, 0.75, 1.2);
    const start = rng() * Math.PI * 2;
    const sweep = Math.PI * 2 * between(rng, 0.9, 1.1);
    const n = 24;
    for (let i = 0; i < n; i++) {
      const a0 = start + (sweep * i) / n;
      const a1 = start + (sweep * (i + 1)) / n;
      layer.segment(
        { x: cx + rx * Math.cos(a0), y: cy + ry * Math.sin(a0) },
        { x: cx + rx * Math.cos(a1), y: cy + ry * Math.sin(a1) },
        width,
        amount,
        t,
      );
    }
  } else {
    // A dot: a few short circling strokes in one place, 0.6–1.6 mm across.
    const d = between(rng, 0.3, 0.8);
    for (let i = 0; i < 5; i++) {
      const a = rng() * Math.PI * 2;
      layer.segment(
        { x: cx + d * 0.4 * Math.cos(a), y: cy + d * 0.4 * Math.sin(a) },
        { x: cx - d * 0.4 * Math.cos(a), y: cy - d * 0.4 * Math.sin(a) },
        Math.max(hand.tip, d),
        Math.max(0.45, hand.graphite) * pressure,
        tooth,
      );
    }
  }
}

/**
 * An earlier fill rubbed out: the fill is laid, then a rubber keeps `residue` of it — evenly, or in streaks along its
 * strokes (what it keeps varies threefold across the bubble). Returns the mean share kept.
 */
function erasedFill(
  layer: Layer,
  r: Rect,
  hand: Hand,
  pressure: number,
  tooth: Tooth,
  residue: number,
  streaky: boolean,
  rng: () => number,
): void {
  fillStrokes(layer, r, hand, pressure, tooth, rng);
  const angle = between(rng, -1.2, 1.2);
  const period = between(rng, 0.6, 1.6);
  const phase = rng() * 10;
  layer.rub((x, y) => {
    if (!streaky) return residue * between(rng, 0.85, 1.15);
    const along = (x * Math.sin(angle) + y * Math.cos(angle)) / period + phase;
    return residue * (0.5 + Math.abs(Math.sin(along * Math.PI)) * 1.0);
  });
}

/** A hand resting on fresh graphite: a faint grey smear over a patch of rows. */
function smear(img: GreyImage, k: number, at: { x: number; y: number }, rng: () => number): void {
  const rx = between(rng, 6, 18);
  const ry = between(rng, 3, 9);
  const depth = between(rng, 0.03, 0.12);
  const x0 = Math.floor((at.x - rx) * k);
  const x1 = Math.ceil((at.x + rx) * k);
  const y0 = Math.floor((at.y - ry) * k);
  const y1 = Math.ceil((at.y + ry) * k);
  for (let y = Math.max(0, y0); y < Math.min(img.height, y1); y++)
    for (let x = Math.max(0, x0); x < Math.min(img.width, x1); x++) {
      const dx = (x / k - at.x) / rx;
      const dy = (y / k - at.y) / ry;
      const d = dx * dx + dy * dy;
      if (d >= 1) continue;
      const j = y * img.width + x;
      img.data[j] = Math.round(img.data[j]! * (1 - depth * (1 - d)));
    }
}

/** What a wild page holds beside the standard truth: each marked bubble's style and the student's hand. */
export interface WildTruth extends PageTruth {
  wild: {
    scan: ScanKind;
    fold: boolean;
    hand: Hand;
    /** Style of every marked bubble by question id and option (erased ones included). */
    styles: Record<string, Record<string, WildStyle>>;
  };
}

/** How clear a residue must be to count as "clearly rubbed out" in the truth: at most this share of a fill. */
export const CLEAR_RESIDUE = 0.3;
/** A residue at least this share of the fill is a half-rubbed mark: nobody can say what was meant. */
const HALF_RESIDUE = 0.55;

/** Draws one student's work on a page with the independent model; returns what they meant. */
export function wildFill(
  img: GreyImage,
  dpi: number,
  page: CardPage,
  rng: () => number,
): WildTruth['wild'] & {
  marks: MarkTruth[];
} {
  const k = dpi / 25.4;
  const tooth = new Tooth(rng);
  const habitRoll = rng();
  const hand: Hand = {
    graphite: between(rng, 0.3, 0.97),
    tip: between(rng, 0.3, 0.8),
    spacing: between(rng, 0.55, 1.15),
    habit: habitRoll < 0.85 ? 'fill' : habitRoll < 0.92 ? 'tick' : habitRoll < 0.96 ? 'cross' : 'circle',
    pen: rng() < 0.4,
    residue: rng() < 0.5 ? [0.02, 0.2] : [0.05, HALF_RESIDUE + 0.15],
  };
  const marks: MarkTruth[] = [];
  const allStyles: Record<string, Record<string, WildStyle>> = {};
  const rows: { questionId: string; kind: MarkTruth['kind']; bubbles: { option: string; rect: Rect }[] }[] =
    [];
  for (const e of page.elements) {
    if (e.type === 'objectiveBlock')
      for (const row of e.rows)
        rows.push({ questionId: row.questionId, kind: row.kind, bubbles: row.bubbles });
    if (e.type === 'optionalChoice')
      rows.push({
        questionId: e.optionalGroup,
        kind: 'optional',
        bubbles: e.bubbles.map((b) => ({ option: b.questionId, rect: b.rect })),
      });
  }
  for (const row of rows) {
    const options = row.bubbles.map((b) => b.option);
    let chosen: string[] = [];
    if (rng() >= 0.06) {
      if (row.kind === 'multiple') chosen = options.filter(() => rng() < 0.45);
      if (row.kind !== 'multiple' || !chosen.length) chosen = [pick(rng, options)];
    }
    const others = options.filter((o) => !chosen.includes(o));
    const styles: Record<string, WildStyle> = {};
    const residues: Record<string, number> = {};
    // A changed mind: an earlier choice rubbed out beside the answer (or alone, the question left blank).
    if (others.length && rng() < (chosen.length ? 0.12 : 0.5)) {
      const o = pick(rng, others);
      const res = between(rng, hand.residue[0], hand.residue[1]);
      residues[o] = res;
      styles[o] = res >= HALF_RESIDUE ? 'halfErased' : rng() < 0.4 ? 'erasedStreaky' : 'erased';
    }
    for (const o of chosen) {
      const odd = rng();
      styles[o] =
        odd < 0.02 ? 'dot' : odd < 0.05 ? pick(rng, ['tick', 'cross', 'circle'] as const) : hand.habit;
    }
    for (const b of row.bubbles) {
      const style = styles[b.option];
      if (!style) continue;
      const pressure = between(rng, 0.88, 1.12);
      const layer = new Layer(k, grow(b.rect, 2.5));
      if (style === 'fill') fillStrokes(layer, b.rect, hand, pressure, tooth, rng);
      else if (style === 'erased' || style === 'erasedStreaky' || style === 'halfErased')
        erasedFill(layer, b.rect, hand, pressure, tooth, residues[b.option]!, style === 'erasedStreaky', rng);
      else lineMark(layer, b.rect, style, hand, pressure, tooth, rng);
      layer.apply(img);
    }
    allStyles[row.questionId] = styles;
    // Clear: every intended mark a fill, every rubbed-out bubble no darker than CLEAR_RESIDUE of the fill.
    const clear = Object.entries(styles).every(([o, s]) =>
      s === 'fill' ? true : s === 'erased' || s === 'erasedStreaky' ? residues[o]! <= CLEAR_RESIDUE : false,
    );
    marks.push({
      questionId: row.questionId,
      kind: row.kind,
      intended: options.filter((o) => chosen.includes(o)).join(row.kind === 'optional' ? ',' : ''),
      styles: Object.fromEntries(
        Object.entries(styles).map(([o, s]) => [
          o,
          s === 'fill'
            ? 'fill'
            : s === 'dot'
              ? 'dot'
              : s === 'tick' || s === 'cross' || s === 'circle'
                ? 'tick'
                : s === 'halfErased'
                  ? 'rubbed'
                  : 'erased',
        ]),
      ),
      clear,
    });
  }
  // A resting hand smears graphite over part of the marked area on some pages.
  if (rows.length && rng() < 0.25) {
    const b = pick(rng, rows).bubbles[0]!.rect;
    smear(img, k, { x: b.x + between(rng, -5, 25), y: b.y + between(rng, -4, 4) }, rng);
  }
  return { marks, hand, styles: allStyles, scan: 'grey-300', fold: false };
}

/** A fold's shadow: a soft dark band across the page (the scanner lid does not press a folded sheet flat). */
function foldShadow(img: GreyImage, rng: () => number): void {
  const horizontal = rng() < 0.7;
  const along = horizontal ? img.height : img.width;
  const centre = along * between(rng, 0.4, 0.6);
  const width = along * between(rng, 0.01, 0.05);
  const depth = between(rng, 0.1, 0.45);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const d = ((horizontal ? y : x) - centre) / width;
      if (Math.abs(d) > 3) continue;
      const j = y * img.width + x;
      img.data[j] = Math.round(img.data[j]! * (1 - depth * Math.exp(-d * d)));
    }
}

const BAYER8 = (() => {
  const m = [[0]];
  let cur = m;
  for (let n = 1; n < 8; n *= 2) {
    const next: number[][] = Array.from({ length: 2 * n }, () => Array<number>(2 * n).fill(0));
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) {
        const v = 4 * cur[y]![x]!;
        next[y]![x] = v;
        next[y]![x + n] = v + 2;
        next[y + n]![x] = v + 3;
        next[y + n]![x + n] = v + 1;
      }
    cur = next;
  }
  return cur.map((r) => r.map((v) => ((v + 0.5) / 64) * 255));
})();

/** 1-bit by Floyd–Steinberg error diffusion (serpentine), as office MFPs' "text/photo" black-and-white modes. */
function diffuse(g: GreyImage): Uint8Array {
  const w = g.width;
  const err = Float32Array.from(g.data);
  const out = new Uint8Array(g.data.length);
  for (let y = 0; y < g.height; y++) {
    const ltr = y % 2 === 0;
    for (let i = 0; i < w; i++) {
      const x = ltr ? i : w - 1 - i;
      const j = y * w + x;
      const v = err[j]!;
      const o = v < 128 ? 0 : 255;
      out[j] = o;
      const e = v - o;
      const dx = ltr ? 1 : -1;
      if (x + dx >= 0 && x + dx < w) err[j + dx]! += (e * 7) / 16;
      if (y + 1 < g.height) {
        if (x - dx >= 0 && x - dx < w) err[j + w - dx]! += (e * 3) / 16;
        err[j + w]! += (e * 5) / 16;
        if (x + dx >= 0 && x + dx < w) err[j + w + dx]! += e / 16;
      }
    }
  }
  return out;
}

/** 1-bit by an 8×8 Bayer matrix (ordered dither). */
function ordered(g: GreyImage): Uint8Array {
  const out = new Uint8Array(g.data.length);
  for (let y = 0; y < g.height; y++)
    for (let x = 0; x < g.width; x++) {
      const j = y * g.width + x;
      out[j] = g.data[j]! < BAYER8[y & 7]![x & 7]! ? 0 : 255;
    }
  return out;
}

/** One wild page: the product's card printed at 600 dpi equivalent, filled, then scanned as an office scanner would. */
export async function makeWildSheet(
  dir: string,
  fixture: CardFixture,
  seed: number,
  force: { scan?: ScanKind; upsideDown?: boolean } = {},
): Promise<{ name: string; file: string; bytes: Buffer; truth: WildTruth }> {
  const rng = seeded(seed * 7919 + 13);
  const drawn = pick(rng, SCAN_KINDS);
  const scan = force.scan ?? drawn;
  const dpi = Number(scan.split('-')[1]);
  const copy = Math.floor(rng() * Math.max(1, fixture.students.length));
  // Pages with bubbles (a page of written answers alone has no marks to judge).
  const marked = fixture.layout.pages
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => p.elements.some((e) => e.type === 'objectiveBlock' || e.type === 'optionalChoice'));
  const pageIndex = pick(rng, marked).i;
  const page = fixture.layout.pages[pageIndex]!;
  // Drawn at the scan's resolution (pdftoppm's anti-aliased print), marks on it, then the scanner's optics.
  const img = await rasterPage(fixture, copy, pageIndex, dpi);
  const filled = wildFill(img, dpi, page, rng);
  const fold = rng() < 0.3;
  if (fold) foldShadow(img, rng);
  const drawnUpside = rng() < 0.25;
  const upside = force.upsideDown ?? drawnUpside;
  const angle = between(rng, -2, 2);
  const raw = sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), {
    raw: { width: img.width, height: img.height, channels: 1 },
  })
    .rotate(angle + (upside ? 180 : 0), { background: { r: 250, g: 250, b: 250 } })
    .blur(between(rng, 0.4, dpi >= 300 ? 1.1 : 0.8));
  const { data, info } = await raw.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const scanned: GreyImage = { width: info.width, height: info.height, data: new Uint8Array(data) };
  // Sensor noise and a paper a little off-white.
  const paper = between(rng, 0.9, 1);
  for (let i = 0; i < scanned.data.length; i++) {
    const v = scanned.data[i]! * paper + (rng() + rng() - 1) * 5;
    scanned.data[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  const bitonal = scan.startsWith('diffused')
    ? diffuse(scanned)
    : scan.startsWith('ordered')
      ? ordered(scanned)
      : null;
  let s = sharp(Buffer.from(bitonal ?? scanned.data), {
    raw: { width: scanned.width, height: scanned.height, channels: 1 },
  })
    .withDensity(dpi)
    .toColourspace('b-w');
  const name = `wild-${seed}`;
  let bytes: Buffer;
  let file: string;
  if (bitonal) {
    const tiff = rng() < 0.5;
    bytes = tiff
      ? await s.tiff({ bitdepth: 1, compression: 'ccittfax4' }).toBuffer()
      : await s.png({ palette: true, colours: 2 }).toBuffer();
    file = path.join(dir, `${name}.${tiff ? 'tif' : 'png'}`);
  } else {
    s = s.jpeg({ quality: Math.round(between(rng, 70, 92)) });
    bytes = await s.toBuffer();
    file = path.join(dir, `${name}.jpg`);
  }
  fs.writeFileSync(file, bytes);
  const student = fixture.students[copy];
  return {
    name,
    file,
    bytes,
    truth: {
      cardId: fixture.layout.cardId,
      version: fixture.layout.version,
      page: pageIndex + 1,
      studentId: student?.id ?? null,
      studentNumber: null,
      marks: filled.marks,
      written: [],
      orientation: upside ? 180 : 0,
      wild: { scan, fold, hand: filled.hand, styles: filled.styles },
    },
  };
}
