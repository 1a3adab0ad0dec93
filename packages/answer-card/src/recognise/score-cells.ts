import sharp from 'sharp';
import type { CardElementOf, CardPage, ScoreReading } from '@zhzy/contracts';
import { apply, type Affine } from './affine.js';
import { readAnswerMark } from './answer-marks.js';

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
/** Darkness (0 paper, 1 the anchors' ink) of a dark stroke that is not red on a colour scan. */
const DARK_INK = 0.5;
const DARK_WEAK = 0.33;
/** Grey scans: a mark at all is this far (darkness) above the printed level… */
export const GREY_MARGIN = 0.1;
/** …and a pen this far above it is told apart from the print (else every mark is faint: a person looks). */
export const GREY_CONTRAST = 0.12;
/** Channel differences up to this are grey (JPEG rounding), not colour. */
const GREY_CHROMA = 4;
/** A cell at least this share clearly inked is ticked… */
export const TICK_MIN = 0.035;
/** …one with less than this share inked at all, and hardly any clear ink, is empty; between, faint (a person looks). */
export const EMPTY_MAX = 0.02;
/**
 * Clear ink beyond this share keeps a cell from being empty: a tick drawn mostly past the cell's edge leaves only a
 * few clearly inked samples inside, and an empty tens row reads 0 tens (held-out bench: 13.5 read as 3.5).
 */
export const EMPTY_INK_MAX = 0.004;

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
): Promise<Raster | undefined> {
  const source = sharp(input, { page: pageIndex, limitInputPixels: 1.5e8 });
  const meta = await source.metadata();
  const colour = (meta.channels ?? 1) >= 3 && meta.space !== 'b-w';
  const pts = rects.flatMap((r) => {
    return [
      apply(m, { x: r.x, y: r.y }),
      apply(m, { x: r.x + r.w, y: r.y }),
      apply(m, { x: r.x, y: r.y + r.h }),
      apply(m, { x: r.x + r.w, y: r.y + r.h }),
    ];
  });
  const W = meta.width ?? 0;
  const H = meta.height ?? 0;
  const left = Math.max(0, Math.floor(Math.min(...pts.map((p) => p.x))));
  const top = Math.max(0, Math.floor(Math.min(...pts.map((p) => p.y))));
  const right = Math.min(W, Math.ceil(Math.max(...pts.map((p) => p.x))));
  const bottom = Math.min(H, Math.ceil(Math.max(...pts.map((p) => p.y))));
  if (right - left < 2 || bottom - top < 2) return undefined;
  const region = source.extract({ left, top, width: right - left, height: bottom - top });
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

/** Sample positions (image pixels) inside a cell, its frame left out. */
function cellSamples(
  m: Affine,
  r: { x: number; y: number; w: number; h: number },
): { x: number; y: number }[] {
  const out = [];
  const step = 1 / SAMPLES_PER_MM;
  for (let y = r.y + CELL_INSET_MM; y <= r.y + r.h - CELL_INSET_MM; y += step)
    for (let x = r.x + CELL_INSET_MM; x <= r.x + r.w - CELL_INSET_MM; x += step) out.push(apply(m, { x, y }));
  return out;
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

interface Measured {
  role: 'tens' | 'units' | 'half';
  value: number;
  px: (Pixel | undefined)[];
  /** Grey scans: the cell's darkness above its box's own paper, sorted. */
  dark: number[];
}

/** A box's cells sampled, with each cell's darkness measured against the box's own paper (a shadow or a gradient). */
function measureBox(
  raster: Raster,
  m: Affine,
  box: CardElementOf<'scoreBox'>,
  levels: { paper: number; ink: number },
): Measured[] {
  const cells = box.rows.flatMap((row) =>
    row.cells.map((c) => ({
      role: row.role,
      value: c.value,
      px: cellSamples(m, c.rect).map((p) => pixelAt(raster, p, levels)),
    })),
  );
  const all = cells.flatMap((c) => c.px.map((p) => p?.dark ?? 0)).sort((a, b) => a - b);
  const paper = quantile(all, 0.5);
  return cells.map((c) => ({
    ...c,
    dark: c.px.map((p) => (p?.dark ?? 0) - paper).sort((a, b) => a - b),
  }));
}

/**
 * Grey cuts from the sheet's own evidence (ADR 0065): `print` is the page's printed frame and digit level (the
 * darkest 2 % of a typical cell — most cells are unmarked), `pen` the teacher's pen on this box (the core of its
 * darkest cell). A stroke counts as ink past halfway from the print to the pen, and as a mark at all a margin above
 * the print. A pen too close to the print to tell apart leaves every mark faint: a person looks.
 */
export function greyCuts(print: number, pen: number): { ink: number; weak: number; clear: boolean } {
  const weak = print + GREY_MARGIN;
  const clear = pen - print >= GREY_CONTRAST;
  return { ink: clear ? Math.max(weak, print + (pen - print) / 2) : Infinity, weak, clear };
}

/** Measures every cell of one box and decides its score (`print`: the page's printed level on a grey scan). */
function readBox(raster: Raster, box: CardElementOf<'scoreBox'>, cells: Measured[], print: number): ScoreReading {
  const colour = raster.channels >= 3;
  // The paper's own red (a scanner's colour cast): the median over the cells, which are mostly paper.
  const reds = cells.flatMap((c) => c.px.map((p) => p?.red ?? 0)).sort((a, b) => a - b);
  const baseRed = colour ? quantile(reds, 0.5) : 0;
  const pen = Math.max(...cells.map((c) => quantile(c.dark, 0.99)));
  const cuts = colour ? { ink: DARK_INK, weak: DARK_WEAK } : greyCuts(print, pen);
  const readings = cells.map((c) => {
    let ink = 0;
    let weak = 0;
    let other = 0;
    const n = Math.max(1, c.px.length);
    if (colour) {
      for (const p of c.px) {
        if (!p) continue;
        const red = p.red - baseRed;
        if (red >= RED_INK) ink++;
        if (red >= RED_WEAK) weak++;
        else if (p.dark >= DARK_INK) other++;
      }
    } else {
      for (const d of c.dark) {
        if (d >= cuts.ink) ink++;
        if (d >= cuts.weak) weak++;
      }
    }
    const share = { ink: ink / n, weak: weak / n };
    const state: ScoreReading['cells'][number]['state'] =
      share.ink >= TICK_MIN
        ? 'ticked'
        : share.weak < EMPTY_MAX && share.ink <= EMPTY_INK_MAX
          ? 'empty'
          : 'faint';
    return {
      role: c.role,
      value: c.value,
      ink: r4(share.ink),
      weak: r4(share.weak),
      ...(colour ? { other: r4(other / n) } : {}),
      state,
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
): Promise<ScoreReading[] | undefined> {
  const boxes = page.elements.filter((e): e is CardElementOf<'scoreBox'> => e.type === 'scoreBox');
  if (!boxes.length) return undefined;
  const raster = await rasterUnder(
    input,
    pageIndex,
    m,
    boxes.map((b) => b.rect),
    bitonal,
  );
  if (!raster) return undefined;
  const measured = boxes.map((b) => measureBox(raster, m, b, levels));
  // The page's printed level: the median over its cells of each cell's darkest 2 % (the frame's edge and the digit).
  const print = quantile(
    measured.flatMap((cells) => cells.map((c) => quantile(c.dark, 0.98))).sort((a, b) => a - b),
    0.5,
  );
  const readings = boxes.map((b, i) => readBox(raster, b, measured[i]!, print));
  // Boxes left empty on a colour scan: a red √ / × on the answer is the secondary signal (issue #26).
  const empty = readings.filter((r) => r.colour && r.status === 'blank');
  const written = (id: string) =>
    page.elements.find(
      (e): e is CardElementOf<'writtenBox'> => e.type === 'writtenBox' && e.questionIds.length === 1 && e.questionIds[0] === id,
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
      const p = pixelAt(raster, apply(m, { x: rect.x + inset + i / SAMPLES_PER_MM, y: rect.y + inset + j / SAMPLES_PER_MM }), flat);
      red[j * w + i] = p?.red ?? 0;
    }
  const base = quantile(Array.from(red).sort((a, b) => a - b), 0.5);
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
