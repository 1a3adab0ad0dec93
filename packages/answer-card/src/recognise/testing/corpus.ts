// Synthetic, seeded scans for the recogniser's tests and benchmark: real cards from the renderer, rasterised with
// pdftoppm, filled with pencil-like marks drawn into the raster, then distorted and encoded with sharp the way
// scanners and phones spoil pages. Everything is generated at run time into a temporary folder.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import sharp, { type Sharp } from 'sharp';
import { prepareZXingModule as prepareWriter, writeBarcode } from 'zxing-wasm/writer';
import type { CardElementOf, CardLayout, CardPage, MarkKind, Rect } from '@zhzy/contracts';
import { renderCardPdf, type CardStudent } from '../../render/index.js';
import { parsePgm } from '../../testing/raster.js';
import type { GreyImage } from '../image.js';

const run = promisify(execFile);

// ---------------------------------------------------------------------------------------------------------------
// Randomness

/** A small seeded PRNG (mulberry32): the same seed gives the same corpus on every machine. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (rng: () => number, lo: number, hi: number) => lo + (hi - lo) * rng();
const pick = <T>(rng: () => number, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

// ---------------------------------------------------------------------------------------------------------------
// Drawing into a grey raster, in millimetres

/** How a student marked a bubble. */
export const MARK_STYLES = ['fill', 'dark', 'light', 'partial', 'tick', 'dot', 'erased', 'rubbed'] as const;
export type MarkStyle = (typeof MARK_STYLES)[number];
/** Styles a reader must get right without help; the others may be flagged uncertain instead ('dot': a small
 * pencil dot in the middle, as a student marks a choice to fill in later; 'rubbed': a mark rubbed out only half-way,
 * as dark as the lightest real fills and not meant). */
export const CLEAR_STYLES: ReadonlySet<MarkStyle> = new Set(['fill', 'dark']);

/** Darkens a pixel multiplicatively, as graphite over paper (alpha 0–1). */
function darken(img: GreyImage, x: number, y: number, alpha: number): void {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height || alpha <= 0) return;
  const i = y * img.width + x;
  img.data[i] = Math.round(img.data[i]! * (1 - Math.min(1, alpha)));
}

/** A soft-edged pencil ellipse with graphite grain and stroke banding. */
function pencilEllipse(
  img: GreyImage,
  dpi: number,
  c: { x: number; y: number },
  rx: number,
  ry: number,
  darkness: number,
  rng: () => number,
): void {
  const k = dpi / 25.4;
  const cx = c.x * k;
  const cy = c.y * k;
  const ax = rx * k;
  const ay = ry * k;
  const soft = Math.max(1, 0.25 * k);
  const bandPeriod = Math.max(2, 0.5 * k);
  const bandPhase = rng() * 10;
  const angle = between(rng, -0.5, 0.5);
  for (let y = Math.floor(cy - ay - soft); y <= cy + ay + soft; y++) {
    for (let x = Math.floor(cx - ax - soft); x <= cx + ax + soft; x++) {
      const dx = (x + 0.5 - cx) / ax;
      const dy = (y + 0.5 - cy) / ay;
      const d = Math.sqrt(dx * dx + dy * dy);
      const edge = Math.min(1, Math.max(0, ((1 - d) * Math.min(ax, ay)) / soft + 0.5));
      if (edge <= 0) continue;
      const along = (x * Math.sin(angle) + y * Math.cos(angle)) / bandPeriod + bandPhase;
      const band = 0.85 + 0.15 * Math.sin(along * Math.PI * 2);
      const grain = 0.7 + 0.3 * rng();
      darken(img, x, y, darkness * edge * band * grain);
    }
  }
}

/** A soft round-capped stroke along a polyline (millimetres), `width` mm wide. */
function stroke(
  img: GreyImage,
  dpi: number,
  pts: readonly { x: number; y: number }[],
  width: number,
  darkness: number,
  rng: () => number,
): void {
  const k = dpi / 25.4;
  const half = (width * k) / 2;
  const soft = Math.max(0.7, 0.08 * k);
  for (let s = 0; s + 1 < pts.length; s++) {
    const a = { x: pts[s]!.x * k, y: pts[s]!.y * k };
    const b = { x: pts[s + 1]!.x * k, y: pts[s + 1]!.y * k };
    const vx = b.x - a.x;
    const vy = b.y - a.y;
    const len2 = vx * vx + vy * vy || 1;
    const x0 = Math.floor(Math.min(a.x, b.x) - half - soft);
    const x1 = Math.ceil(Math.max(a.x, b.x) + half + soft);
    const y0 = Math.floor(Math.min(a.y, b.y) - half - soft);
    const y1 = Math.ceil(Math.max(a.y, b.y) + half + soft);
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5 - a.x;
        const py = y + 0.5 - a.y;
        const t = Math.max(0, Math.min(1, (px * vx + py * vy) / len2));
        const dist = Math.hypot(px - t * vx, py - t * vy);
        const alpha = Math.min(1, Math.max(0, (half - dist) / soft + 0.5));
        if (alpha > 0) darken(img, x, y, darkness * alpha * (0.8 + 0.2 * rng()));
      }
    }
  }
}

/**
 * Marks drawn as one even pencil ellipse over the bubble: radii as shares of the half box and graphite darkness, each
 * drawn in that order between its bounds.
 */
const EVEN_FILLS = {
  fill: { rx: [0.9, 1.1], ry: [0.85, 1.1], darkness: [0.62, 0.8] },
  dark: { rx: [0.95, 1.15], ry: [0.95, 1.2], darkness: [0.8, 0.92] },
  light: { rx: [0.85, 1.05], ry: [0.85, 1.05], darkness: [0.28, 0.42] },
  // A mark rubbed out only half-way: about half as dark as the student's fills, between what a rubber leaves and a
  // mark like theirs (ADR 0040 reads a quarter as rubbed out).
  rubbed: { rx: [0.9, 1.1], ry: [0.9, 1.1], darkness: [0.16, 0.17] },
  // The same on the sheet of a student who fills properly: about half as dark as their fills.
  rubbedHalf: { rx: [0.9, 1.1], ry: [0.9, 1.1], darkness: [0.34, 0.36] },
  // What a rubber leaves of a full fill: a faint, uneven smudge.
  erased: { rx: [0.9, 1.1], ry: [0.9, 1.1], darkness: [0.07, 0.14] },
} as const satisfies Partial<
  Record<MarkStyle | 'rubbedHalf', Record<'rx' | 'ry' | 'darkness', readonly [number, number]>>
>;

/** Draws one pencil mark of a style over a bubble's rect. */
export function drawMark(
  img: GreyImage,
  dpi: number,
  r: Rect,
  style: MarkStyle | 'rubbedHalf',
  rng: () => number,
): void {
  const c = { x: r.x + r.w / 2 + between(rng, -0.2, 0.2), y: r.y + r.h / 2 + between(rng, -0.15, 0.15) };
  const even = EVEN_FILLS[style as keyof typeof EVEN_FILLS];
  if (even) {
    pencilEllipse(
      img,
      dpi,
      c,
      (r.w / 2) * between(rng, even.rx[0], even.rx[1]),
      (r.h / 2) * between(rng, even.ry[0], even.ry[1]),
      between(rng, even.darkness[0], even.darkness[1]),
      rng,
    );
    return;
  }
  switch (style) {
    case 'partial': {
      // Half a box: the left or the lower part.
      if (rng() < 0.5)
        pencilEllipse(
          img,
          dpi,
          { x: r.x + r.w * 0.32, y: c.y },
          r.w * 0.3,
          (r.h / 2) * 0.9,
          between(rng, 0.6, 0.8),
          rng,
        );
      else
        pencilEllipse(
          img,
          dpi,
          { x: c.x, y: r.y + r.h * 0.62 },
          (r.w / 2) * 0.9,
          r.h * 0.28,
          between(rng, 0.6, 0.8),
          rng,
        );
      return;
    }
    case 'tick': {
      const s = between(rng, 0.9, 1.25);
      const w = r.w * 0.7 * s;
      const h = r.h * 1.1 * s;
      const x0 = c.x - w / 2;
      const y0 = c.y - h / 2;
      stroke(
        img,
        dpi,
        [
          { x: x0, y: y0 + h * 0.55 },
          { x: x0 + w * 0.38, y: y0 + h },
          { x: x0 + w, y: y0 },
        ],
        between(rng, 0.35, 0.5),
        between(rng, 0.7, 0.85),
        rng,
      );
      return;
    }
    case 'dot':
      pencilEllipse(
        img,
        dpi,
        c,
        r.w * between(rng, 0.1, 0.16),
        r.h * between(rng, 0.15, 0.25),
        between(rng, 0.6, 0.85),
        rng,
      );
      return;
  }
}

/** Handwriting-like strokes filling part of an area (a written answer or a blank's line). */
export function drawScribble(img: GreyImage, dpi: number, area: Rect, rng: () => number, lines = 3): void {
  const cell = 4.5;
  const rowsAvail = Math.max(1, Math.floor(area.h / 8));
  const rows = Math.min(lines, rowsAvail);
  for (let row = 0; row < rows; row++) {
    const y = area.y + 3 + row * 8;
    const chars = Math.max(1, Math.floor(((area.w - 6) / cell) * between(rng, 0.3, 0.9)));
    for (let i = 0; i < chars; i++) {
      const x = area.x + 3 + i * cell;
      const strokes = 2 + Math.floor(rng() * 4);
      for (let s = 0; s < strokes; s++) {
        const pts = [{ x: x + between(rng, 0, 3.5), y: y + between(rng, 0, 3.5) }];
        for (let p = 0; p < 2; p++) pts.push({ x: x + between(rng, 0, 3.8), y: y + between(rng, 0, 3.8) });
        stroke(img, dpi, pts, between(rng, 0.25, 0.4), between(rng, 0.75, 0.9), rng);
      }
    }
  }
}

/** Paints a rect white (a torn or covered corner). */
export function whiteOut(img: GreyImage, dpi: number, r: Rect): void {
  const k = dpi / 25.4;
  for (let y = Math.floor(r.y * k); y < (r.y + r.h) * k; y++)
    for (let x = Math.floor(r.x * k); x < (r.x + r.w) * k; x++)
      if (x >= 0 && y >= 0 && x < img.width && y < img.height) img.data[y * img.width + x] = 250;
}

/** Scribbles heavily over a rect (a smudged QR code). */
export function smudge(img: GreyImage, dpi: number, r: Rect, rng: () => number): void {
  pencilEllipse(img, dpi, { x: r.x + r.w * 0.5, y: r.y + r.h * 0.5 }, r.w * 0.32, r.h * 0.32, 0.9, rng);
  for (let i = 0; i < 14; i++) {
    const y = r.y + (i / 13) * r.h;
    stroke(
      img,
      dpi,
      [
        { x: r.x - 1, y },
        { x: r.x + r.w + 1, y: y + between(rng, -2, 2) },
      ],
      0.9,
      0.9,
      rng,
    );
  }
}

let writerReady: Promise<unknown> | undefined;

/** The bars of a Code 128 symbol (true = black module), from zxing-wasm's writer loaded from node_modules. */
export async function code128(text: string): Promise<boolean[]> {
  writerReady ??= (async () => {
    const bytes = await fs.promises.readFile(
      createRequire(import.meta.url).resolve('zxing-wasm/writer/zxing_writer.wasm'),
    );
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return prepareWriter({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  await writerReady;
  const { symbol, error } = await writeBarcode(text, { format: 'Code128' });
  if (error) throw new Error(error);
  return Array.from({ length: symbol.width }, (_, x) => symbol.data[x]! < 128);
}

/** A printed barcode sticker (white label, black bars of `moduleMm`) centred in a rect. */
export function stickBarcode(
  img: GreyImage,
  dpi: number,
  zone: Rect,
  bars: readonly boolean[],
  moduleMm = 0.33,
): void {
  const k = dpi / 25.4;
  const w = (bars.length + 20) * moduleMm;
  const h = 16;
  const x0 = zone.x + (zone.w - w) / 2;
  const y0 = zone.y + (zone.h - h) / 2;
  for (let y = Math.round(y0 * k); y < (y0 + h) * k; y++) {
    for (let x = Math.round(x0 * k); x < (x0 + w) * k; x++) {
      const module = Math.floor((x / k - x0) / moduleMm) - 10;
      const bar =
        module >= 0 && module < bars.length && bars[module] && y > (y0 + 2) * k && y < (y0 + h - 2) * k;
      img.data[y * img.width + x] = bar ? 15 : 252;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Cards, pages and what a student did on them

export interface CardFixture {
  layout: CardLayout;
  pdf: string;
  students: readonly CardStudent[];
}

/** Renders a card for the corpus (one copy per student, or one anonymous copy). */
export async function renderFixture(
  dir: string,
  name: string,
  layout: CardLayout,
  students: readonly CardStudent[] = [],
  marks: { page: number; rect: Rect }[] = [],
): Promise<CardFixture> {
  const pdf = path.join(dir, `${name}.pdf`);
  await renderCardPdf(layout, {
    students,
    marks,
    output: fs.createWriteStream(pdf),
    creationDate: new Date(0),
  });
  return { layout, pdf, students };
}

const rasterCache = new Map<string, Promise<GreyImage>>();

/** Forgets the rasterised pages (they are large). */
export function clearRasterCache(): void {
  rasterCache.clear();
}

/** One page of a fixture's PDF rasterised in grey by pdftoppm (cached per file, page and dpi). */
export function rasterPage(
  fixture: CardFixture,
  copy: number,
  page: number,
  dpi: number,
): Promise<GreyImage> {
  const n = copy * fixture.layout.pages.length + page + 1;
  const key = `${fixture.pdf}|${n}|${dpi}`;
  let hit = rasterCache.get(key);
  if (!hit) {
    hit = (async () => {
      const { stdout } = await run(
        'pdftoppm',
        ['-r', String(dpi), '-gray', '-f', String(n), '-l', String(n), fixture.pdf],
        {
          encoding: 'buffer',
          maxBuffer: 1 << 30,
        },
      );
      return parsePgm(stdout);
    })();
    rasterCache.set(key, hit);
  }
  return hit.then((g) => ({ width: g.width, height: g.height, data: Uint8Array.from(g.data) }));
}

/** What a student meant on one question, and how each intended (or erased) bubble was marked. */
export interface MarkTruth {
  questionId: string;
  kind: MarkKind;
  /** Intended options in the card's order ('' for none). */
  intended: string;
  /** Style of every marked bubble (erased ones included), by option. */
  styles: Record<string, MarkStyle>;
  /** Every mark on the question is clear (no light, partial, tick or erased mark). */
  clear: boolean;
}

export interface PageTruth {
  cardId: string;
  version: number;
  page: number;
  studentId: string | null;
  /** The number filled in the bubble grid, when the page has one and it was filled. */
  studentNumber: string | null;
  marks: MarkTruth[];
  /** Written/blank elements written in. */
  written: string[];
  orientation: 0 | 90 | 180 | 270;
}

/** Which mark styles a plan uses, with weights. */
export type StyleMix = Partial<Record<MarkStyle, number>>;

export interface PagePlan {
  /** Chance that an objective question is left blank. */
  blankChance?: number;
  mix?: StyleMix;
  /** Chance of an erased residue on a non-chosen bubble of a question. */
  erasedChance?: number;
  /** Chance that an answered question carries one erased earlier choice (on one of its other bubbles). */
  erasedAnswerChance?: number;
  /** Chance of a stray pencil line on the page, off every printed element. */
  strayChance?: number;
  /** Chance that a written area is written in. */
  writeChance?: number;
  /** Fill the student-number grid with this number (bubbles cards). */
  number?: string;
  /** Extra marks in student-number columns (column index → extra value), for invalid numbers. */
  numberExtra?: Record<number, number>;
  /** Single-choice questions marked with two clear fills. */
  doubleMarked?: string[];
  /** Questions whose one mark was rubbed out only half-way, with nothing else marked (not meant: a person looks). */
  rubbedOut?: string[];
  /** Nothing at all. */
  empty?: boolean;
  /** Stick a Code 128 label with this number in the barcode zone. */
  barcode?: string;
}

function pickStyle(rng: () => number, mix: StyleMix): MarkStyle {
  const entries = Object.entries(mix) as [MarkStyle, number][];
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let r = rng() * total;
  for (const [style, w] of entries) {
    r -= w;
    if (r <= 0) return style;
  }
  return entries[0]![0];
}

/** Draws a student's work on a rasterised page and returns what they meant. */
export function fillPage(
  img: GreyImage,
  dpi: number,
  page: CardPage,
  plan: PagePlan,
  rng: () => number,
): { marks: MarkTruth[]; written: string[]; studentNumber: string | null } {
  const mix = plan.mix ?? { fill: 6, dark: 3 };
  const marks: MarkTruth[] = [];
  const written: string[] = [];
  let studentNumber: string | null = null;
  const markRow = (
    questionId: string,
    kind: MarkTruth['kind'],
    bubbles: { option: string; rect: Rect }[],
  ) => {
    const options = bubbles.map((b) => b.option);
    let chosen: string[] = [];
    const rubbed = plan.rubbedOut?.includes(questionId) ? options[0] : undefined;
    if (!plan.empty && !rubbed && rng() >= (plan.blankChance ?? 0.08)) {
      if (kind === 'multiple') chosen = options.filter(() => rng() < 0.45);
      if (kind !== 'multiple' || chosen.length === 0) chosen = [pick(rng, options)];
      if (plan.doubleMarked?.includes(questionId)) {
        const other = options.find((o) => !chosen.includes(o))!;
        chosen = options.filter((o) => o === other || chosen.includes(o));
      }
    }
    const styles: Record<string, MarkStyle> = {};
    // (Only plans that ask for it draw from the generator here, so other plans keep their pages.)
    const others = options.filter((o) => !chosen.includes(o));
    const erasedEarlier =
      plan.erasedAnswerChance && chosen.length && others.length && rng() < plan.erasedAnswerChance
        ? pick(rng, others)
        : undefined;
    for (const b of bubbles) {
      if (b.option === rubbed) styles[b.option] = 'rubbed';
      else if (b.option === erasedEarlier) styles[b.option] = 'erased';
      else if (chosen.includes(b.option)) {
        styles[b.option] = plan.doubleMarked?.includes(questionId) ? 'dark' : pickStyle(rng, mix);
      } else if (!plan.empty && rng() < (plan.erasedChance ?? 0)) styles[b.option] = 'erased';
      const style = styles[b.option];
      // A half-rubbed mark is half as dark as the student's own fills: darker on a sheet of proper fills.
      const properFills = (mix.fill ?? 0) + (mix.dark ?? 0) > 0;
      if (style) drawMark(img, dpi, b.rect, style === 'rubbed' && properFills ? 'rubbedHalf' : style, rng);
    }
    marks.push({
      questionId,
      kind,
      intended: options.filter((o) => chosen.includes(o)).join(kind === 'optional' ? ',' : ''),
      styles,
      clear: Object.values(styles).every((s) => CLEAR_STYLES.has(s)),
    });
  };
  for (const e of page.elements) {
    if (e.type === 'objectiveBlock') for (const row of e.rows) markRow(row.questionId, row.kind, row.bubbles);
    if (e.type === 'optionalChoice')
      markRow(
        e.optionalGroup,
        'optional',
        e.bubbles.map((b) => ({ option: b.questionId, rect: b.rect })),
      );
    if (e.type === 'studentNumberGrid' && plan.number && !plan.empty) {
      studentNumber = plan.number;
      fillNumber(img, dpi, e, plan.number, plan.numberExtra ?? {}, rng);
    }
    if ((e.type === 'writtenBox' || e.type === 'blank') && !plan.empty && rng() < (plan.writeChance ?? 0.7)) {
      written.push(e.id);
      if (e.type === 'writtenBox')
        drawScribble(
          img,
          dpi,
          { x: e.rect.x + 2, y: e.rect.y + 8, w: e.rect.w - 4, h: e.rect.h - 10 },
          rng,
          4,
        );
      else {
        const line = e.lines[Math.floor(rng() * e.lines.length)]!;
        drawScribble(img, dpi, { x: line.x, y: line.y + line.h - 8.5, w: line.w * 0.6, h: 8 }, rng, 1);
      }
    }
  }
  if (plan.strayChance && !plan.empty && rng() < plan.strayChance) strayLine(img, dpi, page, rng);
  return { marks, written, studentNumber };
}

/** A stray pencil line somewhere off the printed elements (a slip of the pencil, a rested hand). */
function strayLine(img: GreyImage, dpi: number, page: CardPage, rng: () => number): void {
  const clear = (r: Rect) =>
    r.x >= 0 &&
    r.y >= 0 &&
    r.x + r.w <= page.widthMm &&
    r.y + r.h <= page.heightMm &&
    page.elements.every(
      (e) =>
        r.x > e.rect.x + e.rect.w + 2 ||
        r.x + r.w < e.rect.x - 2 ||
        r.y > e.rect.y + e.rect.h + 2 ||
        r.y + r.h < e.rect.y - 2,
    );
  for (let attempt = 0; attempt < 60; attempt++) {
    const x = between(rng, 5, page.widthMm - 5);
    const y = between(rng, 5, page.heightMm - 5);
    const len = between(rng, 4, 25);
    const angle = between(rng, -Math.PI, Math.PI);
    const pts = [0, 0.5, 1].map((t) => ({
      x: x + Math.cos(angle) * len * t,
      y: y + Math.sin(angle) * len * t + (t === 0.5 ? between(rng, -1.5, 1.5) : 0),
    }));
    const xs = pts.map((p) => p.x);
    const ys = pts.map((p) => p.y);
    const box = {
      x: Math.min(...xs) - 1,
      y: Math.min(...ys) - 1,
      w: Math.max(...xs) - Math.min(...xs) + 2,
      h: Math.max(...ys) - Math.min(...ys) + 2,
    };
    if (!clear(box)) continue;
    stroke(img, dpi, pts, between(rng, 0.3, 0.6), between(rng, 0.45, 0.85), rng);
    return;
  }
}

function fillNumber(
  img: GreyImage,
  dpi: number,
  grid: CardElementOf<'studentNumberGrid'>,
  number: string,
  extra: Record<number, number>,
  rng: () => number,
): void {
  [...number].forEach((ch, digit) => {
    const values = [Number(ch), ...(extra[digit] !== undefined ? [extra[digit]] : [])];
    for (const value of values) {
      const b = grid.bubbles.find((x) => x.digit === digit && x.value === value);
      if (b) drawMark(img, dpi, b.rect, rng() < 0.5 ? 'fill' : 'dark', rng);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Distortion and encoding

export interface Distortion {
  /** Skew, degrees (clockwise positive). */
  rotateDeg?: number;
  /** Print scale (0.95–1). */
  scale?: number;
  /** Shift of the content on the sheet, millimetres. */
  offsetMm?: { x: number; y: number };
  /** Gaussian blur sigma, pixels. */
  blur?: number;
  /** Noise amplitude, grey levels (uniform ±). */
  noise?: number;
  /** Turn into a 1-bit image at this grey threshold. */
  threshold?: number;
  /** The page as fed: turned clockwise. */
  orientation?: 0 | 90 | 180 | 270;
  format?: 'jpeg' | 'png' | 'tiff';
  quality?: number;
  /** Write the dpi into the file (else the recogniser infers it); a number writes that (wrong) value instead. */
  density?: boolean | number;
  /** Grey level of the paper (yellowish or dim scans), multiplies everything. */
  paper?: number;
}

/** Distorts and encodes a rasterised page as a scanner would have produced it. */
export async function distort(
  img: GreyImage,
  dpi: number,
  d: Distortion,
  rng: () => number,
): Promise<Buffer> {
  const raw = (g: GreyImage) =>
    sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.length), {
      raw: { width: g.width, height: g.height, channels: 1 },
    });
  const toGrey = async (s: Sharp): Promise<GreyImage> => {
    const { data, info } = await s.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    return {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    };
  };
  let g = img;
  if (d.rotateDeg || (d.scale && d.scale !== 1) || d.offsetMm) {
    let s = raw(g);
    if (d.rotateDeg) s = s.rotate(d.rotateDeg, { background: { r: 255, g: 255, b: 255 } });
    let r = await toGrey(s);
    if (d.scale && d.scale !== 1) r = await toGrey(raw(r).resize(Math.round(r.width * d.scale)));
    // Back onto the scan area, centred, then shifted: a skewed sheet lies on a scan area that holds it all.
    const k = dpi / 25.4;
    const width = Math.max(img.width, r.width);
    const height = Math.max(img.height, r.height);
    const ox = Math.round((width - r.width) / 2 + (d.offsetMm?.x ?? 0) * k);
    const oy = Math.round((height - r.height) / 2 + (d.offsetMm?.y ?? 0) * k);
    const out = new Uint8Array(width * height).fill(255);
    for (let y = 0; y < height; y++) {
      const sy = y - oy;
      if (sy < 0 || sy >= r.height) continue;
      for (let x = 0; x < width; x++) {
        const sx = x - ox;
        if (sx >= 0 && sx < r.width) out[y * width + x] = r.data[sy * r.width + sx]!;
      }
    }
    g = { width, height, data: out };
  }
  if (d.blur) g = await toGrey(raw(g).blur(d.blur));
  if (d.noise || d.paper) {
    const data = Uint8Array.from(g.data);
    const paper = (d.paper ?? 255) / 255;
    const n = d.noise ?? 0;
    for (let i = 0; i < data.length; i++) {
      const v = data[i]! * paper + (rng() + rng() - 1) * n;
      data[i] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
    g = { ...g, data };
  }
  if (d.threshold !== undefined) {
    const data = Uint8Array.from(g.data, (v) => (v < d.threshold! ? 0 : 255));
    g = { ...g, data };
  }
  let s = raw(g);
  if (d.orientation) s = s.rotate(d.orientation);
  if (d.density) s = s.withDensity(d.density === true ? dpi : d.density);
  // Scanners write grey files; without this sharp would tag (and convert) them as sRGB.
  s = s.toColourspace('b-w');
  const format = d.format ?? 'jpeg';
  if (format === 'jpeg') return s.jpeg({ quality: d.quality ?? 85 }).toBuffer();
  if (format === 'png')
    return d.threshold !== undefined ? s.png({ palette: true, colours: 2 }).toBuffer() : s.png().toBuffer();
  return d.threshold !== undefined
    ? s.tiff({ bitdepth: 1, compression: 'ccittfax4' }).toBuffer()
    : s.tiff({ compression: 'lzw' }).toBuffer();
}

// ---------------------------------------------------------------------------------------------------------------
// One corpus page

export interface SheetSpec {
  name: string;
  fixture: CardFixture;
  /** Student copy (index into the fixture's students) and 0-based page. */
  copy?: number;
  page?: number;
  dpi: number;
  plan?: PagePlan;
  distortion?: Distortion;
  /** Damage done before distortion. */
  smudgeQr?: boolean;
  tearCorner?: 'tl' | 'tr' | 'bl' | 'br' | ('tl' | 'tr' | 'bl' | 'br')[];
  /** Anchors printed out of place (a warped or keystoned sheet), millimetres. */
  moveAnchors?: { corner: 'tl' | 'tr' | 'bl' | 'br'; dx: number; dy: number }[];
  seed: number;
}

export interface Sheet {
  name: string;
  spec: SheetSpec;
  file: string;
  bytes: Buffer;
  truth: PageTruth;
}

/** Builds one corpus page: raster, marks, damage, distortion; writes it to `dir` and returns it with its truth. */
export async function makeSheet(dir: string, spec: SheetSpec): Promise<Sheet> {
  const rng = seeded(spec.seed);
  const copy = spec.copy ?? 0;
  const pageIndex = spec.page ?? 0;
  const layout = spec.fixture.layout;
  const page = layout.pages[pageIndex]!;
  const img = await rasterPage(spec.fixture, copy, pageIndex, spec.dpi);
  const filled = fillPage(img, spec.dpi, page, spec.plan ?? {}, rng);
  const zone = page.elements.find((e) => e.type === 'barcodeZone');
  if (zone && spec.plan?.barcode) {
    stickBarcode(img, spec.dpi, zone.rect, await code128(spec.plan.barcode));
    filled.studentNumber = spec.plan.barcode;
  }
  if (spec.smudgeQr) {
    const qr = page.elements.find((e) => e.type === 'qr')!;
    smudge(img, spec.dpi, qr.rect, rng);
  }
  for (const corner of [spec.tearCorner ?? []].flat()) {
    const a = page.elements.find((e) => e.type === 'anchor' && e.corner === corner)!;
    whiteOut(img, spec.dpi, { x: a.rect.x - 2, y: a.rect.y - 2, w: a.rect.w + 4, h: a.rect.h + 4 });
  }
  for (const move of spec.moveAnchors ?? []) {
    const a = page.elements.find((e) => e.type === 'anchor' && e.corner === move.corner)!;
    whiteOut(img, spec.dpi, { x: a.rect.x - 0.5, y: a.rect.y - 0.5, w: a.rect.w + 1, h: a.rect.h + 1 });
    const k = spec.dpi / 25.4;
    const r = { x: a.rect.x + move.dx, y: a.rect.y + move.dy, w: a.rect.w, h: a.rect.h };
    for (let y = Math.round(r.y * k); y < Math.round((r.y + r.h) * k); y++)
      for (let x = Math.round(r.x * k); x < Math.round((r.x + r.w) * k); x++) img.data[y * img.width + x] = 0;
  }
  const d = spec.distortion ?? {};
  const bytes = await distort(img, spec.dpi, d, rng);
  const ext = d.format === 'png' ? 'png' : d.format === 'tiff' ? 'tif' : 'jpg';
  const file = path.join(dir, `${spec.name}.${ext}`);
  fs.writeFileSync(file, bytes);
  const student = spec.fixture.students[copy];
  return {
    name: spec.name,
    spec,
    file,
    bytes,
    truth: {
      cardId: layout.cardId,
      version: layout.version,
      page: pageIndex + 1,
      studentId: student?.id ?? null,
      studentNumber: filled.studentNumber,
      marks: filled.marks,
      written: filled.written,
      orientation: d.orientation ?? 0,
    },
  };
}

/** A white sheet with a little scanner noise (no card at all). */
export async function blankSheet(dir: string, name: string, dpi: number): Promise<Buffer> {
  const width = Math.floor((210 / 25.4) * dpi);
  const height = Math.floor((297 / 25.4) * dpi);
  const img: GreyImage = { width, height, data: new Uint8Array(width * height).fill(246) };
  const bytes = await distort(img, dpi, { noise: 6, format: 'jpeg', quality: 85, density: true }, seeded(7));
  fs.writeFileSync(path.join(dir, `${name}.jpg`), bytes);
  return bytes;
}

/**
 * A PDF holding scanned pages the way a scanner saves one: each image (JPEG or PNG bytes) placed on a page of its
 * own physical size (its pixels at `dpi`). What the host's PDF intake is tested with.
 */
export async function scansToPdf(images: Buffer[], dpi: number): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  for (const bytes of images) {
    const meta = await sharp(bytes).metadata();
    const w = ((meta.width ?? 1) / dpi) * 72;
    const h = ((meta.height ?? 1) / dpi) * 72;
    doc.addPage({ size: [w, h], margin: 0 });
    doc.image(bytes, 0, 0, { width: w, height: h });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
