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
/** A red mark written on the answer itself when no box was ticked: √ full score, × zero, a half-right √ (半对). */
export type AnswerMark = 'tick' | 'cross' | 'halfTick';
/** What the teacher did in one box, and what a reader must make of it. */
export interface ScoreBoxTruth {
  questionId: string;
  /** The score meant; null when the box was left empty (or a half-right √ that no rule reads). */
  score: number | null;
  style: ScoreStyle;
  /** A crossed-out correction or a faint mark: doubtful is as right as the meant score. */
  mayDoubt: boolean;
  /** No box ticked, a red mark on the answer instead (issue #26's secondary signal). */
  answerMark?: AnswerMark;
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

/** The path of a mark of `style` centred at (cx, cy) px, `s` px per unit. */
function markPath(style: ScoreStyle, cx: number, cy: number, s: number): string {
  return {
    tick: `M${cx - 1.8 * s},${cy} L${cx - 0.5 * s},${cy + 1.5 * s} L${cx + 2.2 * s},${cy - 1.9 * s}`,
    slash: `M${cx - 1.6 * s},${cy + 1.8 * s} L${cx + 1.7 * s},${cy - 1.9 * s}`,
    cross: `M${cx - 1.5 * s},${cy - 1.5 * s} L${cx + 1.5 * s},${cy + 1.5 * s} M${cx + 1.5 * s},${cy - 1.5 * s} L${cx - 1.5 * s},${cy + 1.5 * s}`,
    circle: `M${cx + 2.4 * s},${cy} A${2.4 * s},${1.9 * s} 0 1 1 ${cx + 2.3 * s},${cy - 0.6 * s}`,
  }[style];
}

/** An SVG stroke of the teacher's pen over one cell (pixels at `k` px per mm). */
function penMark(c: Cell, style: ScoreStyle, k: number, rnd: () => number, pen: string): string {
  const { x, y, w, h } = c.rect;
  // Position: anywhere the cell's middle; one mark in six reaches well past its edge (an over-mark).
  const reach = rnd() < 1 / 6 ? 0.7 : 0.35;
  const jx = (rnd() - 0.5) * w * reach;
  const jy = (rnd() - 0.5) * h * reach;
  const cx = (x + w / 2 + jx) * k;
  const cy = (y + h / 2 + jy) * k;
  const s = (0.8 + rnd() * 0.5) * k;
  return `<path d="${markPath(style, cx, cy, s)}" ${pen} fill="none" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** A red pen of varied width (0.25–0.9 mm), hue (crimson to orange-red) and pressure; `faint` a light one. */
function redPen(k: number, rnd: () => number, faint = false): string {
  const width = (0.25 + rnd() * 0.65) * k;
  const r = 180 + Math.floor(rnd() * 66);
  const g = Math.floor(rnd() * 80);
  const b = Math.floor(rnd() * 90);
  const opacity = faint ? 0.18 + rnd() * 0.12 : 0.6 + rnd() * 0.4;
  return `stroke="rgb(${r},${g},${b})" stroke-opacity="${opacity.toFixed(2)}" stroke-width="${width.toFixed(2)}"`;
}

/** The student's answer in a written box: a few lines of dark pen scribble. */
function studentAnswer(
  rect: { x: number; y: number; w: number; h: number },
  k: number,
  rnd: () => number,
): string {
  const lines = [];
  const ink = pick(['rgb(20,20,30)', 'rgb(25,35,110)', 'rgb(60,60,60)'], rnd);
  for (let y = rect.y + 8; y < rect.y + rect.h - 2; y += 5) {
    let d = `M${(rect.x + 3) * k},${y * k}`;
    const end = rect.x + 10 + rnd() * (rect.w - 20);
    for (let x = rect.x + 3; x < end; x += 1.5) d += ` L${x * k},${(y - rnd() * 2.5) * k}`;
    lines.push(`<path d="${d}" stroke="${ink}" stroke-width="${(0.35 * k).toFixed(2)}" fill="none"/>`);
  }
  return lines.join('');
}

/** A red √ / × (or a half-right √ with a slash) written on the answer, 5–11 mm tall, anywhere in its box. */
function answerMark(
  rect: { x: number; y: number; w: number; h: number },
  mark: AnswerMark,
  k: number,
  rnd: () => number,
  pen: string,
): string {
  const size = Math.min(rect.h - 3, 5 + rnd() * 6);
  const s = (size / 3.6) * k;
  const cx = (rect.x + size + rnd() * (rect.w - 2 * size)) * k;
  const cy = (rect.y + rect.h / 2 + (rnd() - 0.5) * (rect.h - size - 2)) * k;
  const paths = [markPath(mark === 'cross' ? 'cross' : 'tick', cx, cy, s)];
  if (mark === 'halfTick') paths.push(`M${cx + 0.4 * s},${cy - 0.9 * s} L${cx + 1.6 * s},${cy + 0.5 * s}`);
  return paths
    .map((d) => `<path d="${d}" ${pen} fill="none" stroke-linecap="round" stroke-linejoin="round"/>`)
    .join('');
}

/** The teacher's marks on one page: SVG paths and each box's truth. */
export function teacherMarks(
  layout: CardLayout,
  pageIndex: number,
  k: number,
  rnd: () => number,
  /** The student's answers written in the boxes (else the teacher's red is the page's only ink). */
  studentAnswers = true,
): { svg: string[]; truths: ScoreBoxTruth[] } {
  const svg: string[] = [];
  const truths: ScoreBoxTruth[] = [];
  const elements = layout.pages[pageIndex]!.elements;
  for (const e of elements) {
    if (e.type !== 'scoreBox') continue;
    const written = elements.find(
      (w): w is CardElementOf<'writtenBox'> =>
        w.type === 'writtenBox' && w.questionIds.includes(e.questionId),
    );
    if (written && studentAnswers) svg.push(studentAnswer(written.rect, k, rnd));
    const style = pick<ScoreStyle>(['tick', 'tick', 'tick', 'slash', 'circle', 'cross'], rnd);
    const u = rnd();
    if (u < 0.06) {
      truths.push({ questionId: e.questionId, score: null, style, mayDoubt: false });
      continue;
    }
    if (u < 0.16 && written) {
      // No box ticked: a √ or × on the answer (one in six a half-right √, which no rule may read as a score).
      const v = rnd();
      const mark: AnswerMark = v < 1 / 6 ? 'halfTick' : v < 7 / 12 ? 'tick' : 'cross';
      svg.push(answerMark(written.rect, mark, k, rnd, redPen(k, rnd)));
      const score = mark === 'tick' ? e.fullScore : mark === 'cross' ? 0 : null;
      truths.push({
        questionId: e.questionId,
        score,
        style,
        mayDoubt: mark === 'halfTick',
        answerMark: mark,
      });
      continue;
    }
    const half = e.rows.some((r) => r.role === 'half');
    const whole = Math.floor(rnd() * (Math.floor(e.fullScore) + 1));
    const score = half && whole < e.fullScore && rnd() < 0.3 ? whole + 0.5 : whole;
    const cells = cellsFor(e, score, rnd);
    const faint = u < 0.2;
    const correction = !faint && u < 0.28;
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

/** A shadow over part of the sheet (a phone-free scanner's lid, a curled page): a gradient up to 25 % darker. */
function shadow(width: number, height: number, rnd: () => number): string {
  const depth = (0.1 + rnd() * 0.15).toFixed(2);
  const [x1, y1, x2, y2] = pick(
    [
      [0, 0, 1, 0],
      [1, 0, 0, 0],
      [0, 0, 0, 1],
      [0, 1, 0, 0],
    ],
    rnd,
  );
  return (
    `<defs><linearGradient id="sh" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">` +
    `<stop offset="0" stop-color="black" stop-opacity="${depth}"/><stop offset="0.6" stop-color="black" stop-opacity="0"/>` +
    `</linearGradient></defs><rect width="${width}" height="${height}" fill="url(#sh)"/>`
  );
}

type RawPage = { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
const rasterCache = new Map<string, RawPage[]>();

/** The printed card's pages in colour at `dpi`, decoded (cached per process). */
async function printedPages(layout: CardLayout, dpi: number): Promise<RawPage[]> {
  const key = `${layout.cardId}@${dpi}`;
  const hit = rasterCache.get(key);
  if (hit) return hit;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-score-'));
  const pdf = path.join(dir, 'card.pdf');
  await renderCardPdf(layout, { output: fs.createWriteStream(pdf) });
  await run('pdftoppm', ['-r', String(dpi), '-png', pdf, path.join(dir, 'page')]);
  const pages = await Promise.all(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort()
      .map(async (f) => {
        const { data, info } = await sharp(path.join(dir, f)).raw().toBuffer({ resolveWithObject: true });
        return { data, info: { width: info.width, height: info.height, channels: info.channels } };
      }),
  );
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
  { dpi = 200, studentAnswers = true }: { dpi?: number; studentAnswers?: boolean } = {},
): Promise<ScoreSheet[]> {
  const rnd = seeded(seed);
  const pages = await printedPages(layout, dpi);
  const k = dpi / 25.4;
  const out: ScoreSheet[] = [];
  for (let p = 0; p < pages.length; p++) {
    const { svg, truths } = teacherMarks(layout, p, k, rnd, studentAnswers);
    if (!truths.length) continue;
    const page = pages[p]!;
    // One sheet in four lies under a shadow.
    if (rnd() < 0.25) svg.push(shadow(page.info.width, page.info.height, rnd));
    const overlay = `<svg xmlns="http://www.w3.org/2000/svg" width="${page.info.width}" height="${page.info.height}">${svg.join('')}</svg>`;
    // Marked first (sharp would turn the page grey before compositing the marks), then scanned; raw pixels between
    // the two (no PNG to encode and decode again: the same pixels, far less time).
    const marked = await sharp(page.data, { raw: page.info })
      .composite([{ input: Buffer.from(overlay) }])
      .raw()
      .toBuffer({ resolveWithObject: true });
    const quality = 70 + Math.floor(rnd() * 25);
    const scanned = sharp(marked.data, { raw: marked.info }).withMetadata({ density: dpi });
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
  // A half-right √ on the answer: any score read from it is a guess.
  if (truth.answerMark === 'halfTick') return reading.status === 'ok' ? 'silent' : 'right';
  if (truth.score === null)
    return reading.status === 'blank' ? 'right' : reading.status === 'ok' ? 'silent' : 'person';
  if (reading.status === 'ok') return reading.score === truth.score ? 'right' : 'silent';
  // A faint or corrected box that goes to a person (doubtful, or left for on-screen marking) is as right as its score.
  return truth.mayDoubt ? 'right' : 'person';
}
