// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the types travel with this file into every project that compiles it (the scan agent compiles host sources)
/// <reference path="./svg-to-pdfkit.d.ts" />
// A paragraph of text with formulas inline (ADR 0062), for pdfkit: Chinese breaks between any two characters, other
// words stay whole, formulas are unbreakable boxes on the text's baseline, and a line is as tall as its tallest
// formula. Closing punctuation never starts a line. The paragraph continues on a new page when it reaches the bottom.
import SVGtoPDF from 'svg-to-pdfkit';
import { sizedSvg, texBox, type TexBox } from './tex-svg.js';

/** A piece of a paragraph: text, or a formula with the linear text printed when it cannot be typeset. */
export type Run = { text: string } | { tex: string; text: string };

export interface InlineOptions {
  x: number;
  width: number;
  font: string;
  size: number;
  color: string;
  lineGap?: number;
}

/** Formulas a little larger than the text's em: MathJax's glyphs are smaller than CJK ones of the same size. */
const MATH_SCALE = 1.08;

type Unit = { text: string; width: number; space: boolean } | { box: TexBox; width: number; space: false };

/** One CJK character or full-width mark, a run of spaces, or a word of anything else. */
const PIECES =
  /[\u2E80-\u9FFF\uF900-\uFAFF\u3000-\u303F\uFF00-\uFFEF]|\s+|[^\s\u2E80-\u9FFF\uF900-\uFAFF\u3000-\u303F\uFF00-\uFFEF]+/g;
/** Marks that close a phrase: kept at the end of the line before rather than starting one. */
const CLOSING = /^[，。、；：？！）》」』】〕,.;:?!)\]]/;

function units(doc: PDFKit.PDFDocument, runs: Run[], size: number): Unit[] {
  const out: Unit[] = [];
  for (const run of runs) {
    const box = 'tex' in run ? texBox(run.tex) : null;
    if (box) {
      out.push({ box, width: box.width * size * MATH_SCALE, space: false });
      continue;
    }
    for (const piece of run.text.match(PIECES) ?? []) {
      const space = /^\s+$/.test(piece);
      const text = space ? ' ' : piece;
      out.push({ text, width: doc.widthOfString(text), space });
    }
  }
  return out;
}

/** Splits units into lines no wider than `width` (a word or formula wider than a line gets a line of its own). */
function lines(all: Unit[], width: number): Unit[][] {
  const out: Unit[][] = [];
  let line: Unit[] = [];
  let used = 0;
  for (const u of all) {
    if (line.length === 0 && u.space) continue;
    const closing = 'text' in u && CLOSING.test(u.text);
    if (used + u.width > width && line.length > 0 && !u.space && !closing) {
      while (line.length > 0 && line[line.length - 1]!.space) line.pop();
      out.push(line);
      line = [];
      used = 0;
    }
    line.push(u);
    used += u.width;
  }
  if (line.length > 0) out.push(line);
  return out;
}

/** Writes a paragraph of runs at `doc.y`, leaving `doc.y` below it and `doc.x` at `x`. */
export function writeInline(doc: PDFKit.PDFDocument, runs: Run[], options: InlineOptions): void {
  const { x, width, font, size, color } = options;
  const gap = options.lineGap ?? 3;
  doc.font(font).fontSize(size).fillColor(color);
  const metrics = (doc as unknown as { _font: { ascender: number; descender: number } })._font;
  const textAscent = (metrics.ascender / 1000) * size;
  const textDescent = (-metrics.descender / 1000) * size;
  let y = doc.y;
  for (const line of lines(units(doc, runs, size), width)) {
    let ascent = textAscent;
    let descent = textDescent;
    for (const u of line)
      if ('box' in u) {
        ascent = Math.max(ascent, u.box.height * size * MATH_SCALE);
        descent = Math.max(descent, u.box.depth * size * MATH_SCALE);
      }
    const bottom = doc.page.height - doc.page.margins.bottom;
    if (y + ascent + descent > bottom && y > doc.page.margins.top) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    const baseline = y + ascent;
    let ux = x;
    for (const u of line) {
      if ('box' in u) {
        const em = size * MATH_SCALE;
        SVGtoPDF(doc, sizedSvg(u.box, em, color), ux, baseline - u.box.height * em, { assumePt: true });
      } else if (!u.space) {
        doc.font(font).fontSize(size).fillColor(color);
        doc.text(u.text, ux, baseline - textAscent, { lineBreak: false });
      }
      ux += u.width;
    }
    y = baseline + descent + gap;
  }
  doc.font(font).fontSize(size).fillColor(color);
  doc.x = x;
  doc.y = y;
}
