import type { Rect } from '@zhzy/contracts';
import type { Affine } from './affine.js';
import type { GreyImage } from './image.js';
import { percentileOf, rectify, Scratch, type Rectified } from './sample.js';

/** A group of bubbles printed together (an objective block, the number grid, an optional-choice row). */
export interface BubbleGroup {
  elementId: string;
  bubbles: { rect: Rect }[];
}

export interface BubbleMeasure {
  /** Mean darkness inside 80 % of the box (0 paper, 1 ink). */
  ratio: number;
  /** Share of the inner box at least `inkLevel` dark. */
  core: number;
  /** Mean darkness of the darkest `PEAK_MM` square inside the box (a dot, a tick's stroke). */
  peak: number;
  /** Median darkness inside the box: the graphite's own level under a fill, whatever the print and edges add. */
  mid: number;
  /** Mean darkness of the band around the box: its outer tenth to `RIM_MM` beyond it (a circle round the bracket). */
  rim: number;
  /** The larger standard deviation of the inner box's row means and of its column means (streaks, a single line). */
  streak: number;
  /**
   * The mean darkness of the inner box's darkest straight band `LINE_WIDTH` lines wide — rows, columns or diagonals
   * at least `LINE_SPAN` of the box's smaller side long — over the box's mean: a stroke across the box (a tick, a
   * cross), which an even layer has not.
   */
  line: number;
}

export interface GroupMeasure {
  elementId: string;
  dxMm: number;
  dyMm: number;
  fit: number;
  bubbles: BubbleMeasure[];
}

export interface MeasureOptions {
  /** Samples per millimetre. */
  q: number;
  /** Grey level of the page's ink (from the anchors). */
  ink: number;
  inkLevel: number;
  /** How far around the predicted place to look for the printed brackets, millimetres. */
  searchMm: number;
}

/** Bracket stroke inset and serif length (the renderer's bubble: brackets 0.55 pt, serifs ≤ 1 mm). */
const BRACKET_INSET_MM = 0.1;
const SERIF_MM = 1;
/** Where "outside the bracket" is sampled, millimetres beyond it. */
const OUTSIDE_MM = 0.45;
/** Share of the box measured (centred): 80 %. */
const INNER = 0.8;
/**
 * Side of the window whose darkest place is the bubble's peak, millimetres: inside the smallest pencil dot a student
 * leaves (≈ 1 mm), wider than a printed letter's stroke (≈ 0.25 mm), so print alone never fills it.
 */
const PEAK_MM = 0.8;
/** Grey levels the paper around a bubble must lie below the group's paper before the bubble is measured against it. */
const SHADE_MIN = 20;
/** Neighbouring outside samples averaged together before the paper around a bubble is read from them. */
const RUN = 6;
/** How far beyond the box the rim band reaches, millimetres. */
const RIM_MM = 0.5;
/** Spacing of the registration's coarse shift grid, millimetres (at least every other sample). */
const COARSE_STEP_MM = 0.3;
/** The registration's coarse grid is scored on every `COARSE_EVERY`-th point pair of the brackets. */
const COARSE_EVERY = 3;
/** Bins of the darkness histogram the median is read from. */
const HIST = 64;
/** Shortest diagonal counted for `line`, as a share of the box's smaller side (corners are too short to be lines). */
const LINE_SPAN = 0.6;
/** Lines averaged together for `line`: about a pen or pencil stroke's width (0.3–0.5 mm) at 6–10 samples per mm. */
const LINE_WIDTH = 3;

/** The samples of the group being measured, and their darkness: one buffer each for every group of every page. */
const groupScratch = new Scratch();
let darkScratch = new Float32Array(0);
/** Sums of the box's diagonals and anti-diagonals (one buffer, grown as needed). */
let diagScratch = new Float64Array(0);
/** Mean darkness of each row of the box. */
let rowScratch = new Float64Array(0);

function bounds(rects: Rect[]): Rect {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const r of rects) {
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.w);
    y1 = Math.max(y1, r.y + r.h);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** An Int32Array of at least `n` entries, kept between calls (grown by half again when too small). */
class IntPool {
  private buf = new Int32Array(0);
  take(n: number): Int32Array {
    if (this.buf.length < n) this.buf = new Int32Array(Math.ceil(n * 1.5));
    return this.buf;
  }
}

/** The template's points (x, y pairs) and their partners', and the linear indices of those kept for the search. */
const inkPool = new IntPool();
const outPool = new IntPool();
const inkIdxPool = new IntPool();
const outIdxPool = new IntPool();
/** Where each bubble's points start in the template (pairs of coordinates). */
const startPool = new IntPool();
/** The paper levels just outside one bubble's brackets, and their runs' means. */
let aroundScratch = new Float64Array(0);
let runScratch = new Float64Array(0);

/** The template of a group: its points and partners (`n` coordinates each) and where each bubble's start. */
interface Template {
  ink: Int32Array;
  out: Int32Array;
  starts: Int32Array;
  n: number;
}

/**
 * The printed brackets of every bubble as sample points (ink) with a partner point just outside each (paper): the
 * template the group is re-registered with. Filled bubbles darken the inside, never the outside, so the contrast
 * peaks where the print is. The points live in buffers shared by every group (valid until the next template).
 */
function template(reg: Rectified, group: BubbleGroup): Template {
  const q = reg.q;
  const sx = (mm: number) => Math.round((mm - reg.originX) * q - 0.5);
  const sy = (mm: number) => Math.round((mm - reg.originY) * q - 0.5);
  const o = Math.max(1, Math.round(OUTSIDE_MM * q));
  let total = 0;
  for (const { rect: r } of group.bubbles) {
    const rows = Math.max(0, sy(r.y + r.h - BRACKET_INSET_MM) - sy(r.y + BRACKET_INSET_MM) + 1);
    const serif = Math.round(Math.min(SERIF_MM, r.w * 0.22) * q);
    total += 4 * rows + 8 * Math.max(0, serif - 1);
  }
  const ink = inkPool.take(total);
  const out = outPool.take(total);
  const starts = startPool.take(group.bubbles.length + 1);
  let n = 0;
  for (let bi = 0; bi < group.bubbles.length; bi++) {
    const r = group.bubbles[bi]!.rect;
    starts[bi] = n;
    const xl = sx(r.x + BRACKET_INSET_MM);
    const xr = sx(r.x + r.w - BRACKET_INSET_MM);
    const yt = sy(r.y + BRACKET_INSET_MM);
    const yb = sy(r.y + r.h - BRACKET_INSET_MM);
    for (let y = yt; y <= yb; y++, n += 4) {
      ink[n] = xl;
      ink[n + 1] = y;
      ink[n + 2] = xr;
      ink[n + 3] = y;
      out[n] = xl - o;
      out[n + 1] = y;
      out[n + 2] = xr + o;
      out[n + 3] = y;
    }
    const serif = Math.round(Math.min(SERIF_MM, r.w * 0.22) * q);
    for (let k = 1; k < serif; k++, n += 8) {
      ink[n] = xl + k;
      ink[n + 1] = yt;
      ink[n + 2] = xr - k;
      ink[n + 3] = yt;
      ink[n + 4] = xl + k;
      ink[n + 5] = yb;
      ink[n + 6] = xr - k;
      ink[n + 7] = yb;
      out[n] = xl + k;
      out[n + 1] = yt - o;
      out[n + 2] = xr - k;
      out[n + 3] = yt - o;
      out[n + 4] = xl + k;
      out[n + 5] = yb + o;
      out[n + 6] = xr - k;
      out[n + 7] = yb + o;
    }
  }
  starts[group.bubbles.length] = n;
  return { ink, out, starts, n };
}

/** Darkness of a sample against the bubble's own paper when shaded, else the group's (0 outside the region). */
function darkAt(
  reg: GreyImage,
  D: Float32Array,
  shaded: boolean,
  local: number,
  localSpan: number,
  x: number,
  y: number,
): number {
  const { width: W, height: H } = reg;
  if (x < 0 || y < 0 || x >= W || y >= H) return 0;
  const i = y * W + x;
  return shaded ? Math.min(1, Math.max(0, (local - reg.data[i]!) / localSpan)) : D[i]!;
}

/**
 * Re-registers a bubble group locally (the shift within ±searchMm where its printed brackets stand out best), then
 * measures every bubble's darkness inside 80 % of its box against the page's ink and the group's own paper.
 */
export function measureGroup(
  img: GreyImage,
  m: Affine,
  group: BubbleGroup,
  opt: MeasureOptions,
): GroupMeasure {
  const margin = opt.searchMm + OUTSIDE_MM + 0.6;
  const b = bounds(group.bubbles.map((x) => x.rect));
  // (Both the samples and their darkness live in buffers shared by every group of every page: nothing of them
  // outlives the measurement, and a page's groups no longer leave megabytes to the collector.)
  const reg = rectify(
    img,
    m,
    { x: b.x - margin, y: b.y - margin, w: b.w + 2 * margin, h: b.h + 2 * margin },
    opt.q,
    { into: groupScratch },
  );
  const paper = Math.max(percentileOf(reg.data, 0.85), opt.ink + 40);
  const span = paper - opt.ink;
  const lut = new Float32Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.min(1, Math.max(0, (paper - v) / span));

  const { width: W, height: H, data } = reg;
  // Darkness of every sample once; the template's points become linear indices into it.
  if (darkScratch.length < W * H) darkScratch = new Float32Array(Math.ceil(W * H * 1.5));
  const D = darkScratch;
  for (let i = 0; i < W * H; i++) D[i] = lut[data[i]!]!;
  const R = Math.max(1, Math.round(opt.searchMm * opt.q));
  const t = template(reg, group);
  // Only points that stay inside the region at every shift (the margin makes that all of them in practice).
  const inside = (x: number, y: number) => x - R >= 0 && x + R < W && y - R >= 0 && y + R < H;
  const inkIdx = inkIdxPool.take(t.n >> 1);
  const outIdx = outIdxPool.take(t.n >> 1);
  let pairs = 0;
  for (let i = 0; i < t.n; i += 2) {
    const ix = t.ink[i]!;
    const iy = t.ink[i + 1]!;
    const ox = t.out[i]!;
    const oy = t.out[i + 1]!;
    if (!inside(ix, iy) || !inside(ox, oy)) continue;
    inkIdx[pairs] = iy * W + ix;
    outIdx[pairs++] = oy * W + ox;
  }
  /** Mean contrast of the brackets shifted by (dx, dy), over every `every`-th point pair. */
  const score = (dx: number, dy: number, every = 1) => {
    const off = dy * W + dx;
    let s = 0;
    let n = 0;
    for (let i = 0; i < pairs; i += every, n++) s += D[inkIdx[i]! + off]! - D[outIdx[i]! + off]!;
    return s / Math.max(1, n);
  };
  // A coarse grid, then its best point's neighbours: every 0.3 mm at most (the brackets' contrast peak, a stroke
  // blurred by the scan, is wider than that), every other sample at lower resolutions. The coarse grid only chooses
  // where to look closer: it is scored on every third point pair (a bracket's points lie a sample apart, so a third
  // of them still trace every bracket; the template lists its sides two by two and its serifs four by four, so a
  // third takes each side and serif alike); the neighbourhood and the unshifted place on all of them.
  const step = Math.max(2, Math.round(opt.q * COARSE_STEP_MM));
  // The grid starts so that its points' neighbourhoods (± half a step) reach -R.
  const step0 = -R + ((step - 1) >> 1);
  let c = { dx: 0, dy: 0, s: score(0, 0, COARSE_EVERY) };
  for (let dy = step0; dy <= R; dy += step)
    for (let dx = step0; dx <= R; dx += step) {
      const s = score(dx, dy, COARSE_EVERY);
      if (s > c.s) c = { dx, dy, s };
    }
  const zero = score(0, 0);
  let best = { dx: 0, dy: 0, s: zero };
  const near = step >> 1;
  for (let dy = c.dy - near; dy <= c.dy + near; dy++)
    for (let dx = c.dx - near; dx <= c.dx + near; dx++) {
      if (Math.abs(dx) > R || Math.abs(dy) > R || (dx === 0 && dy === 0)) continue;
      const s = score(dx, dy);
      if (s > best.s) best = { dx, dy, s };
    }
  // Faint or missing print: trust the page transform rather than a shift nothing supports.
  if (best.s < 0.08 || best.s < zero + 0.02) best = { dx: 0, dy: 0, s: zero };

  const colSum = new Float64Array(W);
  const colTotal = new Float64Array(W);
  const hist = new Uint32Array(HIST);
  // The paper just outside each bubble's brackets: where a fold's shadow or a resting hand darkens the paper, the
  // bubble is measured against its own surroundings, not the group's brightest paper.
  const nb = group.bubbles.length;
  if (aroundScratch.length < t.n) aroundScratch = new Float64Array(Math.ceil(t.n * 1.5));
  if (runScratch.length < t.n) runScratch = new Float64Array(Math.ceil(t.n * 1.5));
  const around = aroundScratch;
  const ring = new Float64Array(nb);
  for (let bi = 0; bi < nb; bi++) {
    let na = 0;
    for (let i = t.starts[bi]!; i < t.starts[bi + 1]!; i += 2) {
      const x = t.out[i]! + best.dx;
      const y = t.out[i + 1]! + best.dy;
      if (x >= 0 && y >= 0 && x < W && y < H) around[na++] = data[y * W + x]!;
    }
    // Runs of neighbouring samples averaged first: on a dithered 1-bit page only their mean says how grey it is.
    let nr = 0;
    for (let i = 0; i + RUN <= na; i += RUN) {
      let sum = 0;
      for (let j = i; j < i + RUN; j++) sum += around[j]!;
      runScratch[nr++] = sum / RUN;
    }
    const runs = runScratch.subarray(0, nr).sort();
    ring[bi] = nr >= 4 ? runs[Math.floor(nr * 0.75)]! : paper;
  }
  const bubbles: BubbleMeasure[] = [];
  for (let bi = 0; bi < nb; bi++) {
    const r = group.bubbles[bi]!.rect;
    // A shadow spans neighbouring bubbles; a fill spilling over its brackets, or print beside one bubble, darkens
    // only that bubble's ring: the brightest ring of the bubble and its neighbours is the paper it lies on.
    const local = Math.max(ring[bi]!, ring[bi - 1] ?? 0, ring[bi + 1] ?? 0);
    const shaded = local < paper - SHADE_MIN && local > opt.ink + 40;
    const localSpan = local - opt.ink;
    const x0 = Math.round((r.x + (r.w * (1 - INNER)) / 2 - reg.originX) * opt.q) + best.dx;
    const y0 = Math.round((r.y + (r.h * (1 - INNER)) / 2 - reg.originY) * opt.q) + best.dy;
    const w = Math.max(1, Math.round(r.w * INNER * opt.q));
    const h = Math.max(1, Math.round(r.h * INNER * opt.q));
    let sum = 0;
    let inked = 0;
    // Column sums of the running window rows give every k×k window's sum in one pass over the box.
    const k = Math.max(2, Math.min(w, h, Math.round(PEAK_MM * opt.q)));
    colSum.fill(0, 0, w);
    colTotal.fill(0, 0, w);
    hist.fill(0);
    if (diagScratch.length < 2 * (w + h)) diagScratch = new Float64Array(2 * (w + h));
    const diag = diagScratch;
    diag.fill(0, 0, 2 * (w + h));
    if (rowScratch.length < h) rowScratch = new Float64Array(2 * h);
    const rowMean = rowScratch;
    let peak = 0;
    let rowSq = 0;
    const inkLevel = opt.inkLevel;
    // The box wholly inside the region and on the group's paper (nearly always): its samples read straight from the
    // darkness buffer, the same values `dark` gives.
    const plain = !shaded && x0 >= 0 && y0 >= 0 && x0 + w <= W && y0 + h <= H;
    for (let y = y0; y < y0 + h; y++) {
      let row = 0;
      const back = y - y0 >= k;
      for (let x = x0; x < x0 + w; x++) {
        const d = plain ? D[y * W + x]! : darkAt(reg, D, shaded, local, localSpan, x, y);
        row += d;
        colTotal[x - x0]! += d;
        sum += d;
        if (d >= inkLevel) inked++;
        diag[x - x0 + y - y0]! += d;
        diag[w + h + x - x0 - (y - y0) + h - 1]! += d;
        hist[Math.min(HIST - 1, Math.floor(d * HIST))]!++;
        colSum[x - x0]! += d;
        if (back)
          colSum[x - x0]! -= plain ? D[(y - k) * W + x]! : darkAt(reg, D, shaded, local, localSpan, x, y - k);
      }
      rowSq += (row / w) * (row / w);
      rowMean[y - y0] = row / w;
      if (y - y0 < k - 1) continue;
      let win = 0;
      for (let i = 0; i < w; i++) {
        win += colSum[i]!;
        if (i >= k) win -= colSum[i - k]!;
        if (i >= k - 1 && win > peak) peak = win;
      }
    }
    // The median from the histogram, interpolated inside its bin.
    let mid = 0;
    for (let i = 0, seen = 0, half = (w * h) / 2; i < HIST; i++) {
      const c = hist[i]!;
      if (seen + c >= half) {
        mid = (i + (half - seen) / Math.max(1, c)) / HIST;
        break;
      }
      seen += c;
    }
    const mean = sum / (w * h);
    let colSq = 0;
    for (let i = 0; i < w; i++) colSq += (colTotal[i]! / h) * (colTotal[i]! / h);
    const streak = Math.sqrt(Math.max(0, Math.max(rowSq / h, colSq / w) - mean * mean));
    // The darkest straight band across the box, LINE_WIDTH lines wide (a stroke's width; a single line of a 1-bit
    // page's dither is too noisy): rows, columns, and both diagonals long enough to be a stroke.
    let lineMax = 0;
    for (let i = 0; i + LINE_WIDTH <= h; i++) {
      let s = 0;
      for (let j = i; j < i + LINE_WIDTH; j++) s += rowMean[j]!;
      lineMax = Math.max(lineMax, s / LINE_WIDTH);
    }
    for (let i = 0; i + LINE_WIDTH <= w; i++) {
      let s = 0;
      for (let j = i; j < i + LINE_WIDTH; j++) s += colTotal[j]!;
      lineMax = Math.max(lineMax, s / (LINE_WIDTH * h));
    }
    const minSide = Math.min(w, h);
    const span = Math.max(2, Math.ceil(LINE_SPAN * minSide));
    for (let k = 0; k + LINE_WIDTH <= w + h - 1; k++) {
      let sa = 0;
      let sb = 0;
      let n = 0;
      let short = false;
      for (let j = k; j < k + LINE_WIDTH; j++) {
        const c = Math.min(j + 1, minSide, w + h - 1 - j);
        if (c < span) short = true;
        sa += diag[j]!;
        sb += diag[w + h + j]!;
        n += c;
      }
      if (!short) lineMax = Math.max(lineMax, sa / n, sb / n);
    }
    // The rim: from the box's outer tenth to RIM_MM beyond it, all round (brackets included: every bubble of a label
    // prints the same, so the label's empty level takes them out).
    const pad = Math.round(RIM_MM * opt.q);
    const bx0 = Math.round((r.x + r.w * 0.1 - reg.originX) * opt.q) + best.dx;
    const by0 = Math.round((r.y + r.h * 0.1 - reg.originY) * opt.q) + best.dy;
    const bx1 = Math.round((r.x + r.w * 0.9 - reg.originX) * opt.q) + best.dx;
    const by1 = Math.round((r.y + r.h * 0.9 - reg.originY) * opt.q) + best.dy;
    const ox0 = Math.round((r.x - reg.originX) * opt.q) + best.dx - pad;
    const oy0 = Math.round((r.y - reg.originY) * opt.q) + best.dy - pad;
    const ox1 = Math.round((r.x + r.w - reg.originX) * opt.q) + best.dx + pad;
    const oy1 = Math.round((r.y + r.h - reg.originY) * opt.q) + best.dy + pad;
    let rimSum = 0;
    let rimN = 0;
    const rimPlain = !shaded && ox0 >= 0 && oy0 >= 0 && ox1 <= W && oy1 <= H;
    for (let y = oy0; y < oy1; y++) {
      const inner = y >= by0 && y < by1;
      for (let x = ox0; x < ox1; x++) {
        if (inner && x === bx0) x = bx1;
        rimSum += rimPlain && x < ox1 ? D[y * W + x]! : darkAt(reg, D, shaded, local, localSpan, x, y);
        rimN++;
      }
    }
    bubbles.push({
      ratio: mean,
      core: inked / (w * h),
      peak: peak / (k * k),
      mid,
      rim: rimN ? rimSum / rimN : 0,
      streak,
      line: Math.max(0, lineMax - mean),
    });
  }
  return {
    elementId: group.elementId,
    dxMm: best.dx / opt.q,
    dyMm: best.dy / opt.q,
    fit: Math.max(0, Math.min(1, best.s)),
    bubbles,
  };
}
