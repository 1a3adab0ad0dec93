import sharp from 'sharp';
import type { CardElementOf, CardPage, ScoreReading } from '@zhzy/contracts';
import { apply, type Affine } from './affine.js';
import { components, readAnswerMark } from './answer-marks.js';
import type { GreyImage } from './image.js';

/*
 * Score boxes (打分框, ADR 0065): the teacher's red ticks read from the scan file itself — its red (R − (G+B)/2) where
 * the scan is colour, its darkness on a grey or 1-bit scan. A cell is ticked only when clearly marked; anything
 * between empty and ticked, two ticks in a row, units left out or a score above the full score is doubtful and goes
 * to a person.
 */

/** Millimetres of the cell's edge left out (the printed frame, and registration slack). */
const CELL_INSET_MM = 0.7;
/** Samples per millimetre measured inside a cell. */
const SAMPLES_PER_MM = 8;
/** Redness (0–1 above the paper's) of a clear red stroke, and of any red at all. */
const RED_INK = 0.2;
const RED_WEAK = 0.08;
/** A box written in a light red pen: its clear ink is past halfway to the pen's core, but never below this. */
const RED_LIGHT_INK = 0.12;
/** Darkness (0 paper, 1 the anchors' ink) of a dark stroke that is not red on a colour scan. */
const DARK_INK = 0.5;
/** Grey scans: a mark at all is this far (darkness) above the printed level… */
export const GREY_MARGIN = 0.1;
/** …and a pen this far above it is told apart from the print (else every mark is faint: a person looks). */
export const GREY_CONTRAST = 0.12;
/** Channel differences up to this are grey (JPEG rounding), not colour. */
const GREY_CHROMA = 4;
/** Colour scans: a cell's inside at least this share dark but not red is a pencil or black-pen mark (`notRed`). */
export const TICK_MIN = 0.035;
/** Millimetres round each cell read with it: half the paper gap between two cells (its ring). */
const RING_MM = 0.5;
/** Millimetres either side of a cell's edge that its printed frame line may cover. */
const FRAME_MM = 0.3;
/** A mark with at least this much clear ink (mm²) is a stroke… */
const STROKE_MM2 = 0.4;
/** …one with less, but at least this much ink at all, is faint; smaller is a speck of the scan. */
const SPECK_MM2 = 0.2;
/** A stroke ticks a cell only when at least this share of its clear ink lies in that cell and its ring. */
const OWN_SHARE = 0.6;
/** Samples (at 8 per mm) a gap in a stroke may span and the stroke still be one mark. */
const JOIN_SAMPLES = 2;
/** Marks touching across two rows are read apart only when each row's part centres this far (mm) inside one cell. */
const SPLIT_INSET_MM = 0.5;
/** A mark's clear ink inside another cell (its frame left out) beyond this (mm²) is a second mark, not spill. */
const SPILL_MM2 = 0.6;
/**
 * A mark with at least this share of its cell's clear ink inside the frame is compact (not a circle round the cell)…
 */
const COMPACT_SHARE = 0.6;
/** …and such a mark with more clear ink than this (mm²) on another cell, its frame and ring counted, is two marks. */
const JOINED_MM2 = 1;
/** A doubtful mark leaves faint every cell holding at least this share of it. */
const TOUCH_SHARE = 0.15;

interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
  left: number;
  top: number;
  /** A 1-bit scan. */
  bitonal: boolean;
}

/** The part of the file under the page's score boxes, in colour when the file is colour. */
async function rasterUnder(
  input: Buffer | Uint8Array,
  pageIndex: number,
  m: Affine,
  rects: { x: number; y: number; w: number; h: number }[],
  bitonal: boolean,
  grey?: GreyImage,
): Promise<Raster | undefined> {
  const source = grey ? undefined : sharp(input, { page: pageIndex, limitInputPixels: 1.5e8 });
  const meta = source ? await source.metadata() : undefined;
  const colour = meta !== undefined && (meta.channels ?? 1) >= 3 && meta.space !== 'b-w';
  const pts = rects.flatMap((r) => {
    return [
      apply(m, { x: r.x, y: r.y }),
      apply(m, { x: r.x + r.w, y: r.y }),
      apply(m, { x: r.x, y: r.y + r.h }),
      apply(m, { x: r.x + r.w, y: r.y + r.h }),
    ];
  });
  const W = grey ? grey.width : (meta?.width ?? 0);
  const H = grey ? grey.height : (meta?.height ?? 0);
  const left = Math.max(0, Math.floor(Math.min(...pts.map((p) => p.x))));
  const top = Math.max(0, Math.floor(Math.min(...pts.map((p) => p.y))));
  const right = Math.min(W, Math.ceil(Math.max(...pts.map((p) => p.x))));
  const bottom = Math.min(H, Math.ceil(Math.max(...pts.map((p) => p.y))));
  if (right - left < 2 || bottom - top < 2) return undefined;
  const width = right - left;
  const height = bottom - top;
  if (grey) {
    // The page already decoded from a grey file: its rows under the boxes, the pixels the file's region gives.
    const data = new Uint8Array(width * height);
    for (let y = 0; y < height; y++)
      data.set(grey.data.subarray((top + y) * W + left, (top + y) * W + right), y * width);
    return { data, width, height, channels: 1, left, top, bitonal };
  }
  const region = source!.extract({ left, top, width, height });
  const pipeline = colour ? region.removeAlpha().toColourspace('srgb') : region.extractChannel(0);
  const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const raster = {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
    channels: info.channels,
    left,
    top,
    bitonal,
  };
  return info.channels >= 3 && (bitonal || !hasChroma(raster)) ? greyOf(raster) : raster;
}

/** Whether any pixel has colour: a grey or 1-bit page stored as RGB (a palette PNG, a grey JPEG in RGB) has none. */
function hasChroma(r: Raster): boolean {
  const d = r.data;
  for (let i = 0; i + 2 < d.length; i += r.channels) {
    if (Math.abs(d[i]! - d[i + 1]!) > GREY_CHROMA || Math.abs(d[i + 1]! - d[i + 2]!) > GREY_CHROMA)
      return true;
  }
  return false;
}

function greyOf(r: Raster): Raster {
  const n = r.width * r.height;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const j = i * r.channels;
    out[i] = Math.round(0.299 * r.data[j]! + 0.587 * r.data[j + 1]! + 0.114 * r.data[j + 2]!);
  }
  return { ...r, data: out, channels: 1 };
}

type Pixel = { red: number; dark: number };

/** Redness and darkness of the raster's pixel nearest to a point (undefined off the raster). */
function pixelAt(
  r: Raster,
  p: { x: number; y: number },
  levels: { paper: number; ink: number },
): Pixel | undefined {
  const x = Math.floor(p.x) - r.left;
  const y = Math.floor(p.y) - r.top;
  if (x < 0 || y < 0 || x >= r.width || y >= r.height) return undefined;
  const i = (y * r.width + x) * r.channels;
  const span = Math.max(1, levels.paper - levels.ink);
  if (r.channels < 3) return { red: 0, dark: (levels.paper - r.data[i]!) / span };
  const [R, G, B] = [r.data[i]!, r.data[i + 1]!, r.data[i + 2]!];
  const lum = 0.299 * R + 0.587 * G + 0.114 * B;
  return { red: (R - (G + B) / 2) / 255, dark: (levels.paper - lum) / span };
}

const r4 = (x: number) => Math.round(x * 10000) / 10000;

/** The q-quantile (0–1) of sorted values. */
const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;

/**
 * `quantile` of values not sorted: the value a sort would put at ⌊q·n⌋, found by selection (Hoare's partition,
 * reordering `xs` in place) instead of sorting them all.
 */
function quantileOf(xs: Float32Array, q: number): number {
  const n = xs.length;
  if (!n) return 0;
  const k = Math.min(n - 1, Math.floor(q * n));
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i]! < pivot) i++;
      while (xs[j]! > pivot) j--;
      if (i <= j) {
        const t = xs[i]!;
        xs[i++] = xs[j]!;
        xs[j--] = t;
      }
    }
    // [lo, j] holds no value above the pivot, [i, hi] none below it, and whatever lies between equals it.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return pivot;
  }
  return xs[k]!;
}

type Rect = { x: number; y: number; w: number; h: number };

export interface BoxCell {
  role: 'tens' | 'units' | 'half';
  value: number;
  rect: Rect;
}

/**
 * A box sampled over its cells and the ring round each (its frame and half the paper gap to the next cell), 8 per mm
 * in card millimetres. Each sample belongs to its nearest cell. `v` is the sample above the paper: its redness above
 * the box's own on a colour scan, its darkness above its cell's own paper on a grey one (a shadow or a gradient moves
 * with it).
 */
interface BoxGrid {
  cells: BoxCell[];
  w: number;
  h: number;
  x0: number;
  y0: number;
  v: Float32Array;
  /** Colour scans: the sample's darkness (a pencil or black pen is dark but not red). */
  dark: Float32Array;
  /** The nearest cell of each sample. */
  owner: Int16Array;
  /** Whether the sample lies inside its cell, the frame left out (what a cell's `ink` / `weak` shares count). */
  inside: Uint8Array;
  /** Whether the sample lies in its cell's frame or ring (what the printed level and the pen are measured on). */
  ring: Uint8Array;
  /** Whether the sample lies on its cell's printed frame line (grey scans measure it against the frame's level). */
  frame: Uint8Array;
  /** Grey scans: each cell's own paper (darkness, the median of its samples); zeros on a colour scan. */
  paper: number[];
  /** Grey scans: each cell's paper however much of it a pen covers (the lightest quarter of its samples). */
  white: number[];
}

/**
 * The sample grid over a box's cells and their rings, `valueAt` (card millimetres) giving each sample's raw value
 * and darkness: the geometry of a `BoxGrid` with its values not yet set against the paper.
 */
export function boxGrid(
  cells: BoxCell[],
  valueAt: (p: { x: number; y: number }) => { raw: number; dark: number },
): Omit<BoxGrid, 'v' | 'paper' | 'white'> & { raw: Float32Array } {
  const x0 = Math.min(...cells.map((c) => c.rect.x)) - RING_MM;
  const y0 = Math.min(...cells.map((c) => c.rect.y)) - RING_MM;
  const w = Math.ceil((Math.max(...cells.map((c) => c.rect.x + c.rect.w)) + RING_MM - x0) * SAMPLES_PER_MM);
  const h = Math.ceil((Math.max(...cells.map((c) => c.rect.y + c.rect.h)) + RING_MM - y0) * SAMPLES_PER_MM);
  const n = w * h;
  const raw = new Float32Array(n);
  const dark = new Float32Array(n);
  const owner = new Int16Array(n);
  const inside = new Uint8Array(n);
  const ring = new Uint8Array(n);
  const frame = new Uint8Array(n);
  // Each cell's squared distance along x from every column and along y from the current row, worked out once: a
  // sample's distance to a cell is their sum (the same terms, in the same order, as computed sample by sample).
  const nc = cells.length;
  const dx2 = new Float64Array(w * nc);
  for (let i = 0; i < w; i++) {
    const x = x0 + (i + 0.5) / SAMPLES_PER_MM;
    for (let ci = 0; ci < nc; ci++) {
      const r = cells[ci]!.rect;
      const dx = Math.max(r.x - x, 0, x - r.x - r.w);
      dx2[i * nc + ci] = dx * dx;
    }
  }
  const dy2 = new Float64Array(nc);
  for (let j = 0; j < h; j++) {
    const y = y0 + (j + 0.5) / SAMPLES_PER_MM;
    for (let ci = 0; ci < nc; ci++) {
      const r = cells[ci]!.rect;
      const dy = Math.max(r.y - y, 0, y - r.y - r.h);
      dy2[ci] = dy * dy;
    }
    for (let i = 0; i < w; i++) {
      const k = j * w + i;
      const x = x0 + (i + 0.5) / SAMPLES_PER_MM;
      // The nearest cell, the first of equals.
      let best = Infinity;
      for (let ci = 0, o = i * nc; ci < nc; ci++) {
        const d = dx2[o + ci]! + dy2[ci]!;
        if (d < best) {
          best = d;
          owner[k] = ci;
        }
      }
      const r = cells[owner[k]!]!.rect;
      ring[k] = best <= RING_MM * RING_MM ? 1 : 0;
      const edge = best > 0 ? Math.sqrt(best) : Math.min(x - r.x, r.x + r.w - x, y - r.y, r.y + r.h - y);
      frame[k] = edge <= FRAME_MM ? 1 : 0;
      inside[k] =
        x >= r.x + CELL_INSET_MM &&
        x <= r.x + r.w - CELL_INSET_MM &&
        y >= r.y + CELL_INSET_MM &&
        y <= r.y + r.h - CELL_INSET_MM
          ? 1
          : 0;
      const p = valueAt({ x, y });
      raw[k] = p.raw;
      dark[k] = p.dark;
    }
  }
  return { cells, w, h, x0, y0, raw, dark, owner, inside, ring, frame };
}

function sampleBox(
  raster: Raster,
  m: Affine,
  box: CardElementOf<'scoreBox'>,
  levels: { paper: number; ink: number },
): BoxGrid {
  const colour = raster.channels >= 3;
  let paper = box.rows.flatMap((row) => row.cells.map(() => 0));
  let white = paper;
  const cells: BoxCell[] = box.rows.flatMap((row) =>
    row.cells.map((c) => ({ role: row.role, value: c.value, rect: c.rect })),
  );
  const { raw, ...grid } = boxGrid(cells, (q) => {
    const p = pixelAt(raster, apply(m, q), levels);
    return { raw: colour ? (p?.red ?? 0) : (p?.dark ?? 0), dark: p?.dark ?? 0 };
  });
  const { owner } = grid;
  const n = raw.length;
  const v = new Float32Array(n);
  if (colour) {
    // The paper's own red (a scanner's colour cast): the median over the box, which is mostly paper.
    const base = quantileOf(raw.slice(), 0.5);
    for (let k = 0; k < n; k++) v[k] = raw[k]! - base;
  } else {
    // Each cell's own paper: the median of its samples (a tick covers far less than half of them).
    const per = byCell(raw, owner, cells.length);
    paper = per.map((xs) => quantileOf(xs, 0.5));
    white = per.map((xs) => quantileOf(xs, 0.25));
    for (let k = 0; k < n; k++) v[k] = raw[k]! - paper[owner[k]!]!;
  }
  return { ...grid, v, paper, white };
}

/**
 * Darkness (as `pixelAt`) of a point (card millimetres) as the mean of the 2 × 2 pixels from it, and (`reach`) the
 * darkest such mean within one pixel: a thin printed line falls on one pixel or across two (its phase on the scan's
 * grid differs from cell to cell), its 2 × 2 mean does not.
 */
function darkAt(
  r: Raster,
  m: Affine,
  q: { x: number; y: number },
  levels: { paper: number; ink: number },
  reach: number,
): number {
  const p = apply(m, q);
  let best = -Infinity;
  for (let dy = -reach; dy <= reach; dy++)
    for (let dx = -reach; dx <= reach; dx++) {
      let sum = 0;
      let n = 0;
      for (const [ex, ey] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const d = pixelAt(r, { x: p.x + dx + ex, y: p.y + dy + ey }, levels)?.dark;
        if (d !== undefined) {
          sum += d;
          n++;
        }
      }
      if (n) best = Math.max(best, sum / n);
    }
  return best === -Infinity ? 0 : best;
}

/** Grey scans: a cell's printed value needs this many twins elsewhere on the page for its print to be known. */
export const TEMPLATE_TWINS = 2;
/** Millimetres either side of a digit's advance its composed print reaches (side bearings, blur, registration). */
const GLYPH_MARGIN_MM = 0.3;
/** The digit advances (mm) tried when fitting a composed print: coarse over this range, then fine round the best. */
const ADVANCE_RANGE_MM = [0.8, 1.8] as const;
/**
 * A composed print is trusted only when it fits the page: composing a label the page prints with twins enough
 * ("10"), the mean gap (darkness) between the composition and that label's print over its cell and ring…
 */
export const COMPOSE_FIT = 0.015;
/**
 * …and the composition's excess over it (the side that could hide a light stroke), its 98th percentile: measured on
 * grey tuning pages 0.004–0.005 at the fitted advance, 0.06 and more with the advance 0.3 mm off.
 */
export const COMPOSE_OVER = 0.03;

type Twin = { rect: Rect; paper: number };
/** The page's composer of prints (one per page's grids: fitting the digits' advance is worth doing once). */
const composers = new WeakMap<BoxGrid[], ((c: BoxCell) => PrintAt | undefined) | undefined>();
/** A cell's print at a place relative to its rect's corner (mm), as darkness above paper over the paper's grey. */
type PrintAt = (rx: number, ry: number) => number;

/**
 * The print of a label with its twins on the page: the lightest of the twins at that place (each the darkest 2 × 2
 * mean within one pixel, above its own paper, over its paper's grey so a shadow scales out).
 */
function twinPrint(
  raster: Raster,
  m: Affine,
  levels: { paper: number; ink: number },
  twins: Twin[],
): PrintAt {
  const span = Math.max(1, levels.paper - levels.ink);
  return (rx, ry) => {
    let print = Infinity;
    for (const t of twins) {
      const d = darkAt(raster, m, { x: t.rect.x + rx, y: t.rect.y + ry }, levels, 1);
      print = Math.min(print, (d - t.paper) / Math.max(1, levels.paper - t.paper * span));
    }
    return print;
  };
}

/**
 * The print of a label of several digits composed from its digits' prints (ADR 0065, session 19): the renderer
 * centres a cell's label in one font whose digits share one advance `a`, so digit i of n sits `(i − (n − 1)/2)·a`
 * from the centre — "20" is the "2" cell's glyph shifted left by half an advance beside the "0" cell's shifted
 * right. Outside the digits' band only the frame is printed: the lightest single-digit cell there.
 */
function composedPrint(
  label: string,
  size: { w: number },
  a: number,
  digit: (d: string) => PrintAt,
  frame: PrintAt,
): PrintAt {
  const n = label.length;
  return (rx, ry) => {
    const dx = rx - size.w / 2;
    if (Math.abs(dx) > (n * a) / 2 + GLYPH_MARGIN_MM) return frame(rx, ry);
    let print = -Infinity;
    for (let i = 0; i < n; i++) {
      const o = (i - (n - 1) / 2) * a;
      if (Math.abs(dx - o) <= a / 2 + GLYPH_MARGIN_MM) print = Math.max(print, digit(label[i]!)(rx - o, ry));
    }
    return print;
  };
}

/** Memoises a `PrintAt` on places rounded to 1/32 mm (composed prints are asked for at shifted places). */
function memoPrint(f: PrintAt): PrintAt {
  const memo = new Map<number, number>();
  return (rx, ry) => {
    const key = Math.round(rx * 32) * 65536 + Math.round(ry * 32);
    let v = memo.get(key);
    if (v === undefined) memo.set(key, (v = f(Math.round(rx * 32) / 32, Math.round(ry * 32) / 32)));
    return v;
  };
}

/**
 * Grey scans (ADR 0065, session 18): each sample of a box above the print it is known to carry — its cell's frame,
 * ring and printed value — measured on the same page from the other cells printed with the same value (its twins:
 * the same label, the same size). Each sample is the mean of the 2 × 2 pixels from it, above its cell's paper
 * (`white`: a cell crossed out all over keeps it). Each twin is sampled at the same place relative to its cell, as
 * the darkest such mean within one pixel (registration slack), above its own paper and scaled by the two papers (a
 * shadow darkens print and paper alike); the expected print is the lightest of the twins there, so a twin the
 * teacher marked at that spot does not count as long as one twin is clean. A cell with fewer than `TEMPLATE_TWINS`
 * twins (a "30" printed once on the page) has its print composed from its digits' (session 19, `composedPrint`),
 * when the page shows the composition fits; else undefined: there the print cannot be known.
 */
function beyondPrint(
  raster: Raster,
  m: Affine,
  levels: { paper: number; ink: number },
  g: BoxGrid,
  grids: BoxGrid[],
): Float32Array | undefined {
  const all = grids.flatMap((o) => o.cells.map((c, ci) => ({ c, paper: o.white[ci]!, grid: o, ci })));
  const key = (c: BoxCell) => `${c.value}:${c.rect.w}x${c.rect.h}`;
  const twinsOf = (c: BoxCell): Twin[] =>
    all.flatMap((t) => (t.c !== c && key(t.c) === key(c) ? [{ rect: t.c.rect, paper: t.paper }] : []));
  const span = Math.max(1, levels.paper - levels.ink);
  const grey = (paper: number) => Math.max(1, levels.paper - paper * span);
  const prints: PrintAt[] = [];
  for (const c of g.cells) {
    const twins = twinsOf(c);
    if (twins.length >= TEMPLATE_TWINS) {
      prints.push(twinPrint(raster, m, levels, twins));
      continue;
    }
    if (!composers.has(grids)) composers.set(grids, printComposer(raster, m, levels, all, twinsOf));
    const composer = composers.get(grids);
    const print = composer?.(c);
    if (!print) return undefined;
    prints.push(print);
  }
  const out = new Float32Array(g.v.length);
  for (let j = 0; j < g.h; j++)
    for (let i = 0; i < g.w; i++) {
      const k = j * g.w + i;
      const ci = g.owner[k]!;
      const c = g.cells[ci]!.rect;
      const x = g.x0 + (i + 0.5) / SAMPLES_PER_MM;
      const y = g.y0 + (j + 0.5) / SAMPLES_PER_MM;
      const print = prints[ci]!(x - c.x, y - c.y) * grey(g.white[ci]!);
      out[k] = darkAt(raster, m, { x, y }, levels, 0) - g.white[ci]! - print;
    }
  return out;
}

/**
 * What composes the print of a cell without twins enough (session 19), or undefined when the page cannot: the
 * single-digit labels' prints (each with twins enough), the frame (the lightest single-digit cell), and the digits'
 * advance fitted on a label of several digits that has twins enough ("10"), the composition matching its cells'
 * print within `COMPOSE_FIT`.
 */
function printComposer(
  raster: Raster,
  m: Affine,
  levels: { paper: number; ink: number },
  all: { c: BoxCell; paper: number; grid: BoxGrid; ci: number }[],
  twinsOf: (c: BoxCell) => Twin[],
): ((c: BoxCell) => PrintAt | undefined) | undefined {
  const span = Math.max(1, levels.paper - levels.ink);
  const grey = (paper: number) => Math.max(1, levels.paper - paper * span);
  const sizeKey = (c: BoxCell) => `${c.rect.w}x${c.rect.h}`;
  const key = (c: BoxCell) => `${c.value}:${sizeKey(c)}`;
  const digits = (c: BoxCell) => /^\d+$/.test(String(c.value));
  const prints = new Map<string, PrintAt | undefined>();
  /** A single digit's print on cells of this size (its twins: every cell printed with that digit). */
  const digitPrint = (size: string, d: string): PrintAt | undefined => {
    const k = `${size}:${d}`;
    if (!prints.has(k)) {
      const cells = all.filter((t) => sizeKey(t.c) === size && String(t.c.value) === d);
      prints.set(
        k,
        cells.length > TEMPLATE_TWINS
          ? memoPrint(
              twinPrint(
                raster,
                m,
                levels,
                cells.map((t) => ({ rect: t.c.rect, paper: t.paper })),
              ),
            )
          : undefined,
      );
    }
    return prints.get(k);
  };
  const frames = new Map<string, PrintAt>();
  const framePrint = (size: string): PrintAt => {
    if (!frames.has(size))
      frames.set(
        size,
        memoPrint(
          twinPrint(
            raster,
            m,
            levels,
            all
              .filter((t) => sizeKey(t.c) === size && digits(t.c) && String(t.c.value).length === 1)
              .map((t) => ({ rect: t.c.rect, paper: t.paper })),
          ),
        ),
      );
    return frames.get(size)!;
  };
  const compose = (c: BoxCell, a: number): PrintAt | undefined => {
    const size = sizeKey(c);
    const label = String(c.value);
    if (!digits(c) || label.length < 2) return undefined;
    const parts = [...label].map((d) => digitPrint(size, d));
    if (parts.some((p) => !p)) return undefined;
    return composedPrint(label, c.rect, a, (d) => digitPrint(size, d)!, framePrint(size));
  };
  // The calibration label: several digits, twins enough, its digits known.
  const cal = all.find(
    (t) =>
      digits(t.c) && String(t.c.value).length > 1 && twinsOf(t.c).length >= TEMPLATE_TWINS && compose(t.c, 1),
  );
  if (!cal) return undefined;
  // The calibration label's print as its cells show it (the lightest of them), against its composition: the mean
  // gap over its cell and ring picks the advance, and the composition is trusted only when it nowhere claims much
  // more print than the page shows (the side that could hide a light stroke).
  const seen = twinPrint(
    raster,
    m,
    levels,
    all.filter((t) => key(t.c) === key(cal.c)).map((t) => ({ rect: t.c.rect, paper: t.paper })),
  );
  const r = cal.c.rect;
  const places: [number, number][] = [];
  for (let ry = -RING_MM; ry <= r.h + RING_MM; ry += 1 / SAMPLES_PER_MM)
    for (let rx = -RING_MM; rx <= r.w + RING_MM; rx += 1 / SAMPLES_PER_MM) places.push([rx, ry]);
  const truth = places.map(([rx, ry]) => seen(rx, ry));
  const scale = grey(0);
  const misfit = (a: number) => {
    const print = compose(cal.c, a)!;
    const over = places.map(([rx, ry], i) => (print(rx, ry) - truth[i]!) * scale);
    const mean = over.reduce((s, d) => s + Math.abs(d), 0) / over.length;
    return {
      a,
      mean,
      over: quantile(
        over.sort((p, q) => p - q),
        0.98,
      ),
    };
  };
  let best = misfit(ADVANCE_RANGE_MM[0]);
  const tryA = (a: number) => {
    const fit = misfit(a);
    if (fit.mean < best.mean) best = fit;
  };
  for (let a = ADVANCE_RANGE_MM[0]; a <= ADVANCE_RANGE_MM[1] + 1e-9; a += 0.1) tryA(a);
  const coarse = best.a;
  for (let a = coarse - 0.08; a <= coarse + 0.08 + 1e-9; a += 0.02) tryA(a);
  if (best.mean > COMPOSE_FIT || best.over > COMPOSE_OVER) return undefined;
  return (c) => compose(c, best.a);
}

/** The values of each cell's samples (those where `on` is set, when given). */
function byCell(values: Float32Array, owner: Int16Array, cells: number, on?: Uint8Array): Float32Array[] {
  const count = new Int32Array(cells);
  for (let k = 0; k < values.length; k++) if (!on || on[k]) count[owner[k]!]!++;
  const out = Array.from(count, (n) => new Float32Array(n));
  const at = new Int32Array(cells);
  for (let k = 0; k < values.length; k++)
    if (!on || on[k]) {
      const c = owner[k]!;
      out[c]![at[c]!++] = values[k]!;
    }
  return out;
}

/** Each cell's values over its frame and ring (`part` 'ring') or its inside: the printed levels and the pen. */
function cellValues(g: BoxGrid, part: 'ring' | 'inside'): Float32Array[] {
  return byCell(g.v, g.owner, g.cells.length, part === 'ring' ? g.ring : g.inside);
}

/**
 * Grey cuts from the sheet's own evidence (ADR 0065): `print` is the page's printed level (the darkest 2 % of a
 * typical cell's inside — its digit — or of its frame line: most cells are unmarked), `pen` the teacher's pen on
 * this box (the core of its darkest cell). A stroke counts as ink past halfway from the print to the pen, and as a
 * mark at all a margin above the print. A pen too close to the print to tell apart leaves its marks faint: a person
 * looks.
 */
export function greyCuts(print: number, pen: number): Cuts {
  const weak = print + GREY_MARGIN;
  const clear = pen - print >= GREY_CONTRAST;
  return { ink: clear ? Math.max(weak, print + (pen - print) / 2) : Infinity, weak, clear };
}

/** Grey scans read against the expected print: a mark at all is this far above it… */
export const RESIDUAL_MARGIN = 0.1;
/** …and the pen must be this far above it to be told apart from what the print leaves (JPEG ringing, registration). */
export const RESIDUAL_CONTRAST = 0.15;

/** Cuts on a box's darkness above its expected print (`pen`: the core of its most marked cell). */
export function residualCuts(pen: number): Cuts {
  const clear = pen >= RESIDUAL_CONTRAST;
  return { ink: clear ? Math.max(RESIDUAL_MARGIN, pen / 2) : Infinity, weak: RESIDUAL_MARGIN, clear };
}

type CellState = ScoreReading['cells'][number]['state'];
export type Cuts = { ink: number; weak: number; clear?: boolean };

/**
 * Each cell's state from the box's marks (ADR 0065): the marks are the connected regions of ink at all over the whole
 * box, so a stroke reaching past its cell's frame is one mark, not spill in its neighbour. A mark with clear ink
 * ticks the one cell it centres on — its ink's centre inside that cell's frame and most of its ink in that cell's
 * ring; a mark that could belong to two cells, and a mark with hardly any clear ink, leaves the cells it lies in
 * faint (a person looks). Specks of the scan are left out. `cuts.frame` measures the samples on a printed frame line
 * (grey scans: the frame is darker than the digit, a light pen no darker than the frame); they join the marks
 * crossing them, and count as a mark only above the frame's cuts.
 */
export function cellStates(
  g: Pick<BoxGrid, 'cells' | 'w' | 'h' | 'x0' | 'y0' | 'v' | 'owner' | 'frame' | 'inside'>,
  cuts: { inside: Cuts; frame: Cuts },
): CellState[] {
  const join = Math.min(cuts.inside.weak, cuts.frame.weak);
  // Ink at all, widened by JOIN_SAMPLES: a thin stroke broken by the scan's compression (or at a frame line) stays one
  // mark.
  const mask = new Uint8Array(g.v.length);
  for (let j = 0; j < g.h; j++)
    for (let i = 0; i < g.w; i++) {
      if (g.v[j * g.w + i]! < join) continue;
      for (let y = Math.max(0, j - JOIN_SAMPLES); y <= Math.min(g.h - 1, j + JOIN_SAMPLES); y++)
        for (let x = Math.max(0, i - JOIN_SAMPLES); x <= Math.min(g.w - 1, i + JOIN_SAMPLES); x++)
          mask[y * g.w + x] = 1;
    }
  const state: CellState[] = g.cells.map(() => 'empty');
  const area = 1 / (SAMPLES_PER_MM * SAMPLES_PER_MM);
  const faint = (ci: number) => {
    if (state[ci] !== 'ticked') state[ci] = 'faint';
  };
  for (const comp of components(mask, g.w, g.h)) {
    const inkPer = new Float64Array(g.cells.length);
    const weakPer = new Float64Array(g.cells.length);
    let ink = 0;
    let weak = 0;
    const inked: number[] = [];
    for (const p of comp) {
      const k = p.y * g.w + p.x;
      const c = g.frame[k] ? cuts.frame : cuts.inside;
      if (g.v[k]! < c.weak) continue;
      const ci = g.owner[k]!;
      weakPer[ci]!++;
      weak++;
      if (g.v[k]! >= c.ink) {
        inkPer[ci]!++;
        ink++;
        inked.push(k);
      }
    }
    if (ink * area < STROKE_MM2) {
      if (weak * area < SPECK_MM2) continue;
      weakPer.forEach((n, ci) => {
        if (n >= TOUCH_SHARE * weak) faint(ci);
      });
      continue;
    }
    const alone = ownCell(g, inked, 0);
    if (alone !== undefined) {
      state[alone] = 'ticked';
      continue;
    }
    // Marks in two rows that touch (a tens tick reaching the units tick below it): each row's part alone must be a
    // whole mark well inside one cell, else the mark stays doubtful.
    const lines = [...new Set(g.cells.map((c) => c.rect.y))];
    const parts = lines
      .map((y) => inked.filter((k) => g.cells[g.owner[k]!]!.rect.y === y))
      .filter((part) => part.length * area >= STROKE_MM2);
    const owners = parts.map((part) => ownCell(g, part, SPLIT_INSET_MM));
    if (parts.length > 1 && owners.every((o) => o !== undefined)) {
      for (const o of owners) state[o] = 'ticked';
      continue;
    }
    inkPer.forEach((n, ci) => {
      if (n >= TOUCH_SHARE * ink) faint(ci);
    });
  }
  return state;
}

/**
 * The one cell a mark's clear ink (sample indices) centres on: the centre of its ink inside the cell's frame (less
 * `inset` mm), at least `OWN_SHARE` of it in that cell and its ring, and no other cell's inside holding more than a
 * spill of it (a second mark joined to it — a crossed-out tick beside the meant one, a tens tick touching the units
 * tick — is never read as the one). Undefined when no cell is clearly its.
 */
function ownCell(
  g: Pick<BoxGrid, 'cells' | 'w' | 'x0' | 'y0' | 'owner' | 'inside'>,
  inked: number[],
  inset: number,
): number | undefined {
  const per = new Float64Array(g.cells.length);
  const within = new Float64Array(g.cells.length);
  let sx = 0;
  let sy = 0;
  for (const k of inked) {
    per[g.owner[k]!]!++;
    if (g.inside[k]) within[g.owner[k]!]!++;
    sx += k % g.w;
    sy += Math.floor(k / g.w);
  }
  let own = 0;
  per.forEach((n, ci) => {
    if (n > per[own]!) own = ci;
  });
  const cx = g.x0 + (sx / inked.length + 0.5) / SAMPLES_PER_MM;
  const cy = g.y0 + (sy / inked.length + 0.5) / SAMPLES_PER_MM;
  const r = g.cells[own]!.rect;
  const centred =
    cx >= r.x + inset && cx <= r.x + r.w - inset && cy >= r.y + inset && cy <= r.y + r.h - inset;
  const mm2 = (n: number) => n / (SAMPLES_PER_MM * SAMPLES_PER_MM);
  const spill = within.some((n, ci) => ci !== own && mm2(n) > SPILL_MM2);
  // Session 19: a compact mark (most of its ink in its cell inside the frame — a tick, a crossed-out tick) with more
  // than a spill of ink on another cell's frame and ring as well is two marks joined: a meant mark drawn on its cell's
  // edge touching a crossed-out one beside it. A circle round its cell has its ink on its own frame, not inside.
  // (A row's part of marks touching across the rows is already held to its cell's middle by `inset`: not applied.)
  const joined =
    inset === 0 &&
    within[own]! >= COMPACT_SHARE * per[own]! &&
    per.some((n, ci) => ci !== own && mm2(n) > JOINED_MM2);
  return centred && !spill && !joined && per[own]! >= OWN_SHARE * inked.length ? own : undefined;
}

/** Reads one box (`print`: the page's printed levels on a grey scan, inside the cells and on their frames). */
function readBox(
  raster: Raster,
  box: CardElementOf<'scoreBox'>,
  g: BoxGrid,
  print: { inside: number; frame: number },
  beyond?: () => Float32Array | undefined,
): ScoreReading {
  const colour = raster.channels >= 3;
  const pen = Math.max(...cellValues(g, 'ring').map((xs) => quantileOf(xs, 0.99)));
  // A light red pen (thin, pale or orange, its chroma halved by the JPEG) is read against its own core.
  const red: Cuts = { ink: Math.max(RED_LIGHT_INK, Math.min(RED_INK, pen / 2)), weak: RED_WEAK };
  let cuts = colour
    ? { inside: red, frame: red }
    : { inside: greyCuts(print.inside, pen), frame: greyCuts(print.frame, pen) };
  // A grey box whose pen is no darker than the printed frame: its strokes may be as light as the digits, and one can
  // vanish under the cuts while another is read (held-out round 3: a light slash in the tens cell lost, 10 read as
  // 0). Nothing read there is taken alone: a person looks.
  const light = !colour && cuts.frame.clear === false;
  // Session 18: such a box is read again against the print each sample is known to carry (its twins' print on the
  // same page): what is left is the pen alone, however light. Still faint where the print cannot be known (a cell
  // without twins) or the pen is not clearly above what the print leaves.
  const v = light ? beyond?.() : undefined;
  if (v) {
    g = { ...g, v };
    const pen2 = Math.max(...cellValues(g, 'ring').map((xs) => quantileOf(xs, 0.99)));
    const c = residualCuts(pen2);
    cuts = { inside: c, frame: c };
  }
  const states = cellStates(g, cuts).map((st) =>
    (v ? cuts.frame.clear === false : light) && st === 'ticked' ? ('faint' as const) : st,
  );
  const counts = g.cells.map(() => ({ n: 0, ink: 0, weak: 0, other: 0 }));
  for (let k = 0; k < g.v.length; k++) {
    if (!g.inside[k]) continue;
    const c = counts[g.owner[k]!]!;
    c.n++;
    if (g.v[k]! >= cuts.inside.ink) c.ink++;
    if (g.v[k]! >= cuts.inside.weak) c.weak++;
    else if (colour && g.dark[k]! >= DARK_INK) c.other++;
  }
  const readings = g.cells.map((cell, ci) => {
    const c = counts[ci]!;
    const n = Math.max(1, c.n);
    return {
      role: cell.role,
      value: cell.value,
      ink: r4(c.ink / n),
      weak: r4(c.weak / n),
      ...(colour ? { other: r4(c.other / n) } : {}),
      state: states[ci]!,
    };
  });
  const decided = decide(box, readings);
  // A 1-bit scanner's threshold can drop a light red tick altogether while keeping a darker crossed-out one: a
  // score read there is never taken alone (ADR 0065).
  const verdict =
    raster.bitonal && decided.status === 'ok'
      ? { score: null, status: 'doubtful' as const, reason: 'bitonalScan' as const }
      : decided;
  return {
    questionId: box.questionId,
    number: box.number,
    fullScore: box.fullScore,
    colour,
    cells: readings,
    source: 'box',
    ...verdict,
  };
}

/** The score the cells give, or why a person must decide it (ADR 0065's reading rules). */
export function decide(
  box: Pick<CardElementOf<'scoreBox'>, 'fullScore'>,
  cells: ScoreReading['cells'],
): Pick<ScoreReading, 'score' | 'status' | 'reason'> {
  const doubt = (reason: NonNullable<ScoreReading['reason']>) => ({
    score: null,
    status: 'doubtful' as const,
    reason,
  });
  if (cells.some((c) => c.state === 'faint')) return doubt('faintMark');
  const ticked = cells.filter((c) => c.state === 'ticked');
  const per = (role: string) => ticked.filter((c) => c.role === role).length;
  if (per('tens') > 1 || per('units') > 1 || per('half') > 1) return doubt('multipleTicks');
  if (!ticked.length) {
    if (cells.some((c) => (c.other ?? 0) >= TICK_MIN)) return doubt('notRed');
    return { score: null, status: 'blank', reason: null };
  }
  if (per('units') === 0) return doubt('unitsMissing');
  const score = ticked.reduce((s, c) => s + c.value, 0);
  if (score > box.fullScore) return doubt('overFullScore');
  return { score, status: 'ok', reason: null };
}

/**
 * Reads the page's score boxes from the scan file (`m`: file pixels from card millimetres; `levels`: the page's
 * paper and ink grey levels; `bitonal`: a 1-bit scan, read by darkness whatever its file's channels). Undefined when the page has none.
 */
export async function readScoreBoxes(
  input: Buffer | Uint8Array,
  pageIndex: number,
  m: Affine,
  page: CardPage,
  levels: { paper: number; ink: number },
  bitonal: boolean,
  /**
   * The page decoded in full from a grey file (one band: a grey JPEG, a 1-bit TIFF), when the caller has it: the boxes
   * are read from it instead of decoding the file again (the same pixels).
   */
  grey?: GreyImage,
): Promise<ScoreReading[] | undefined> {
  const boxes = page.elements.filter((e): e is CardElementOf<'scoreBox'> => e.type === 'scoreBox');
  if (!boxes.length) return undefined;
  const raster = await rasterUnder(
    input,
    pageIndex,
    m,
    boxes.map((b) => b.rect),
    bitonal,
    grey,
  );
  if (!raster) return undefined;
  const grids = boxes.map((b) => sampleBox(raster, m, b, levels));
  // The page's printed levels: the median over its cells of each cell's darkest 2 % inside (the digit) and over its
  // frame and ring (the frame line).
  const level = (part: 'ring' | 'inside') =>
    quantile(
      grids.flatMap((g) => cellValues(g, part).map((xs) => quantileOf(xs, 0.98))).sort((a, b) => a - b),
      0.5,
    );
  const print = { inside: level('inside'), frame: level('ring') };
  const readings = boxes.map((b, i) =>
    readBox(raster, b, grids[i]!, print, () => beyondPrint(raster, m, levels, grids[i]!, grids)),
  );
  // Boxes left empty on a colour scan: a red √ / × on the answer is the secondary signal (issue #26).
  const empty = readings.filter((r) => r.colour && r.status === 'blank');
  const written = (id: string) =>
    page.elements.find(
      (e): e is CardElementOf<'writtenBox'> =>
        e.type === 'writtenBox' && e.questionIds.length === 1 && e.questionIds[0] === id,
    );
  const areas = empty.flatMap((r) => written(r.questionId)?.rect ?? []);
  if (!areas.length) return readings;
  const answers = await rasterUnder(input, pageIndex, m, areas, false);
  if (!answers || answers.channels < 3) return readings;
  return readings.map((r) => {
    const area = r.colour && r.status === 'blank' ? written(r.questionId) : undefined;
    return area ? { ...r, ...markScore(answers, m, area, r.fullScore) } : r;
  });
}

/** The red mask of a written box's inside (its frame and label band left out), 8 samples per mm. */
function redMask(raster: Raster, m: Affine, rect: { x: number; y: number; w: number; h: number }) {
  const inset = 1;
  const w = Math.max(1, Math.floor((rect.w - 2 * inset) * SAMPLES_PER_MM));
  const h = Math.max(1, Math.floor((rect.h - 2 * inset) * SAMPLES_PER_MM));
  const red = new Float32Array(w * h);
  const flat = { paper: 255, ink: 0 };
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      const p = pixelAt(
        raster,
        apply(m, { x: rect.x + inset + i / SAMPLES_PER_MM, y: rect.y + inset + j / SAMPLES_PER_MM }),
        flat,
      );
      red[j * w + i] = p?.red ?? 0;
    }
  const base = quantileOf(red.slice(), 0.5);
  const mask = new Uint8Array(w * h);
  for (let k = 0; k < mask.length; k++) mask[k] = red[k]! - base >= RED_INK ? 1 : 0;
  return { mask, w, h };
}

/** A score from a red √ (full) or × (zero) on the answer, else why a person must look; nothing red: still blank. */
function markScore(
  raster: Raster,
  m: Affine,
  area: CardElementOf<'writtenBox'>,
  fullScore: number,
): Partial<ScoreReading> {
  const { mask, w, h } = redMask(raster, m, area.rect);
  const mark = readAnswerMark(mask, w, h, SAMPLES_PER_MM);
  if (!mark) return {};
  if (mark.kind === 'unclear')
    return { score: null, status: 'doubtful', reason: 'answerMarkUnclear', source: 'mark', answerMark: mark };
  return {
    score: mark.kind === 'tick' ? fullScore : 0,
    status: 'ok',
    reason: null,
    source: 'mark',
    answerMark: mark,
  };
}
