// The score-box corpus (ADR 0065): a card with score boxes, printed, rasterised in colour, then marked by a "teacher"
// in red pen — ticks, slashes and circles of varied stroke, pressure and position, over-marks into the next cell,
// crossed-out corrections, faint marks — and scanned in colour, grey or 1-bit. Each box's truth says which score the
// teacher meant and whether a person must decide it (a correction or a faint mark may go either way, never silently
// wrong).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { CardElementOf, CardLayout, CardPaperInput, ScoreReading } from '@zhzy/contracts';
import { layoutCard } from '../../layout/index.js';
import { renderCardPdf } from '../../render/index.js';
import { questions } from '../../testing/factories.js';
import { seeded } from './corpus.js';

const run = promisify(execFile);

export const SCORE_SCANS = ['colour', 'grey', 'bitonal'] as const;
export type ScoreScan = (typeof SCORE_SCANS)[number];

/** The corpus card: written questions of varied full scores, every box kind, with and without half points. */
export function scoreCardLayout(): CardLayout {
  const scores = [25, 12, 8, 6, 15, 30];
  const paper: CardPaperInput = {
    id: 'paper-score-bench',
    title: '先阅后扫 打分框识别',
    sections: [
      {
        title: '解答题',
        questions: questions(1, scores.length, (n) => ({
          kind: 'written',
          score: scores[n - 1]!,
          heightMm: 14,
        })),
      },
    ],
  };
  return layoutCard(paper, {
    scoreBoxes: {
      q1: { kind: 'tick', half: true },
      q2: { kind: 'tick' },
      q3: { kind: 'tally', half: true },
      q4: { kind: 'tally' },
      q5: { kind: 'tick', half: true },
      q6: { kind: 'tick' },
    },
  });
}

export type ScoreStyle = 'tick' | 'slash' | 'circle' | 'cross';
/** What the teacher did in one box, and what a reader must make of it. */
export interface ScoreBoxTruth {
  questionId: string;
  /** The score meant; null when the box was left empty. */
  score: number | null;
  style: ScoreStyle;
  /** A crossed-out correction or a faint mark: doubtful is as right as the meant score. */
  mayDoubt: boolean;
}

type Cell = CardElementOf<'scoreBox'>['rows'][number]['cells'][number];

/** The cells meant for a score: tens (0 left empty or ticked at random), units, and 0.5. */
function cellsFor(box: CardElementOf<'scoreBox'>, score: number, rnd: () => number): Cell[] {
  const row = (role: string) => box.rows.find((r) => r.role === role)?.cells ?? [];
  const out: Cell[] = [];
  const whole = Math.floor(score);
  const tens = row('tens');
  if (tens.length) {
    const t = Math.floor(whole / 10) * 10;
    if (t > 0 || rnd() < 0.5) out.push(tens.find((c) => c.value === t)!);
    out.push(row('units').find((c) => c.value === whole % 10)!);
  } else out.push(row('units').find((c) => c.value === whole)!);
  if (score !== whole) out.push(row('half')[0]!);
  return out;
}

const pick = <T>(xs: readonly T[], rnd: () => number): T => xs[Math.floor(rnd() * xs.length)]!;

/** An SVG stroke of the teacher's pen over one cell (pixels at `k` px per mm). */
function penMark(c: Cell, style: ScoreStyle, k: number, rnd: () => number, pen: string): string {
  const { x, y, w, h } = c.rect;
  // Position: anywhere the cell's middle, sometimes reaching past its edge (an over-mark).
  const jx = (rnd() - 0.5) * w * 0.35;
  const jy = (rnd() - 0.5) * h * 0.35;
  const cx = (x + w / 2 + jx) * k;
  const cy = (y + h / 2 + jy) * k;
  const s = (0.8 + rnd() * 0.5) * k;
  const path = {
    tick: `M${cx - 1.8 * s},${cy} L${cx - 0.5 * s},${cy + 1.5 * s} L${cx + 2.2 * s},${cy - 1.9 * s}`,
    slash: `M${cx - 1.6 * s},${cy + 1.8 * s} L${cx + 1.7 * s},${cy - 1.9 * s}`,
    cross: `M${cx - 1.5 * s},${cy - 1.5 * s} L${cx + 1.5 * s},${cy + 1.5 * s} M${cx + 1.5 * s},${cy - 1.5 * s} L${cx - 1.5 * s},${cy + 1.5 * s}`,
    circle: `M${cx + 2.4 * s},${cy} A${2.4 * s},${1.9 * s} 0 1 1 ${cx + 2.3 * s},${cy - 0.6 * s}`,
  }[style];
  return `<path d="${path}" ${pen} fill="none" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** A red pen of varied width, hue and pressure; `faint` a light one. */
function redPen(k: number, rnd: () => number, faint = false): string {
  const width = (0.35 + rnd() * 0.45) * k;
  const r = 190 + Math.floor(rnd() * 50);
  const g = Math.floor(rnd() * 60);
  const b = Math.floor(rnd() * 70);
  const opacity = faint ? 0.18 + rnd() * 0.12 : 0.75 + rnd() * 0.25;
  return `stroke="rgb(${r},${g},${b})" stroke-opacity="${opacity.toFixed(2)}" stroke-width="${width.toFixed(2)}"`;
}

/** The teacher's marks on one page: SVG paths and each box's truth. */
export function teacherMarks(
  layout: CardLayout,
  pageIndex: number,
  k: number,
  rnd: () => number,
): { svg: string[]; truths: ScoreBoxTruth[] } {
  const svg: string[] = [];
  const truths: ScoreBoxTruth[] = [];
  for (const e of layout.pages[pageIndex]!.elements) {
    if (e.type !== 'scoreBox') continue;
    const style = pick<ScoreStyle>(['tick', 'tick', 'tick', 'slash', 'circle', 'cross'], rnd);
    const u = rnd();
    if (u < 0.08) {
      truths.push({ questionId: e.questionId, score: null, style, mayDoubt: false });
      continue;
    }
    const half = e.rows.some((r) => r.role === 'half');
    const whole = Math.floor(rnd() * (Math.floor(e.fullScore) + 1));
    const score = half && whole < e.fullScore && rnd() < 0.3 ? whole + 0.5 : whole;
    const cells = cellsFor(e, score, rnd);
    const faint = u < 0.12;
    const correction = !faint && u < 0.2;
    if (correction) {
      // A wrong cell ticked first, then scribbled out.
      const units = e.rows.find((r) => r.role === 'units')!.cells;
      const wrong =
        units.find((c) => !cells.includes(c) && rnd() < 0.5) ?? units.find((c) => !cells.includes(c))!;
      const pen = redPen(k, rnd);
      svg.push(penMark(wrong, style, k, rnd, pen), penMark(wrong, 'cross', k, rnd, pen));
    }
    const pen = redPen(k, rnd, faint);
    for (const c of cells) svg.push(penMark(c, style, k, rnd, pen));
    truths.push({ questionId: e.questionId, score, style, mayDoubt: faint || correction });
  }
  return { svg, truths };
}

const rasterCache = new Map<string, Buffer[]>();

/** The printed card's pages in colour at `dpi` (cached per process). */
async function printedPages(layout: CardLayout, dpi: number): Promise<Buffer[]> {
  const key = `${layout.cardId}@${dpi}`;
  const hit = rasterCache.get(key);
  if (hit) return hit;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-score-'));
  const pdf = path.join(dir, 'card.pdf');
  await renderCardPdf(layout, { output: fs.createWriteStream(pdf) });
  await run('pdftoppm', ['-r', String(dpi), '-png', pdf, path.join(dir, 'page')]);
  const pages = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.png'))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f)));
  fs.rmSync(dir, { recursive: true, force: true });
  rasterCache.set(key, pages);
  return pages;
}

export interface ScoreSheet {
  image: Buffer;
  page: number;
  scan: ScoreScan;
  truths: ScoreBoxTruth[];
}

/** One marked and scanned page of the corpus card (seeded). */
export async function scoreSheet(
  layout: CardLayout,
  seed: number,
  scan: ScoreScan,
  dpi = 200,
): Promise<ScoreSheet[]> {
  const rnd = seeded(seed);
  const pages = await printedPages(layout, dpi);
  const k = dpi / 25.4;
  const out: ScoreSheet[] = [];
  for (let p = 0; p < pages.length; p++) {
    const { svg, truths } = teacherMarks(layout, p, k, rnd);
    if (!truths.length) continue;
    const meta = await sharp(pages[p]).metadata();
    const overlay = `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}">${svg.join('')}</svg>`;
    // Marked first (sharp would turn the page grey before compositing the marks), then scanned.
    const marked = await sharp(pages[p])
      .composite([{ input: Buffer.from(overlay) }])
      .png()
      .toBuffer();
    const quality = 70 + Math.floor(rnd() * 25);
    const scanned = sharp(marked).withMetadata({ density: dpi });
    const image =
      scan === 'colour'
        ? await scanned.jpeg({ quality }).toBuffer()
        : scan === 'grey'
          ? await scanned.greyscale().jpeg({ quality }).toBuffer()
          : await scanned
              .greyscale()
              .threshold(128 + Math.floor((rnd() - 0.5) * 40))
              .png({ colours: 2 })
              .toBuffer();
    out.push({ image, page: p, scan, truths });
  }
  return out;
}

export type ScoreOutcome = 'right' | 'silent' | 'person';

/** How a reading came out against the teacher's meaning: right, silently wrong, or to a person. */
export function scoreOutcome(truth: ScoreBoxTruth, reading: ScoreReading | undefined): ScoreOutcome {
  if (!reading) return 'silent';
  if (truth.score === null)
    return reading.status === 'blank' ? 'right' : reading.status === 'ok' ? 'silent' : 'person';
  if (reading.status === 'ok') return reading.score === truth.score ? 'right' : 'silent';
  // A faint or corrected box that goes to a person (doubtful, or left for on-screen marking) is as right as its score.
  return truth.mayDoubt ? 'right' : 'person';
}
