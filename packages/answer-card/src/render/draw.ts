import type { CardElement, CardElementOf, Rect } from '@zhzy/contracts';
import { CARD_FONT_SIZES as FONT } from '../layout/index.js';
import { mmToPt } from '../paper.js';

/** The subset of pdfkit's document this module draws with. */
export type Doc = PDFKit.PDFDocument;

export const COLOR = {
  ink: '#000000',
  text: '#1a1a1a',
  muted: '#5c5c5c',
  line: '#4d4d4d',
  light: '#a6a6a6',
  /** Score-box cells and their digits: light enough that a red tick stands out on a grey scan (ADR 0065). */
  cell: '#b3b3b3',
  cellText: '#c4c4c4',
} as const;

/** Font names registered on the document. */
export const FONT_REGULAR = 'card-regular';
export const FONT_BOLD = 'card-bold';

const pt = mmToPt;

/** How far above the baseline the middle of a CJK em box (and of capitals and digits) sits, in ems. */
const MIDDLE_EM = 0.37;

interface TextStyle {
  size: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'center' | 'right';
}

/** Draws one line of text vertically centred in `r` (millimetres), shrunk to fit its width. */
export function textIn(doc: Doc, text: string, r: Rect, style: TextStyle): void {
  if (!text) return;
  doc.font(style.bold ? FONT_BOLD : FONT_REGULAR);
  let size = style.size;
  doc.fontSize(size);
  let width = doc.widthOfString(text);
  if (width > pt(r.w) && width > 0) {
    size = Math.max(4, (size * pt(r.w)) / width);
    doc.fontSize(size);
    width = doc.widthOfString(text);
  }
  const align = style.align ?? 'left';
  const x =
    align === 'left' ? pt(r.x) : align === 'right' ? pt(r.x + r.w) - width : pt(r.x + r.w / 2) - width / 2;
  const baseline = pt(r.y + r.h / 2) + MIDDLE_EM * size;
  doc
    .fillColor(style.color ?? COLOR.text)
    .text(text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
}

function strokeRect(doc: Doc, r: Rect, color: string, widthPt: number, radiusMm = 0): void {
  // Inset by half the stroke so the ink stays inside the model's rectangle.
  const inset = widthPt / 2;
  const x = pt(r.x) + inset;
  const y = pt(r.y) + inset;
  const w = pt(r.w) - widthPt;
  const h = pt(r.h) - widthPt;
  if (radiusMm > 0) doc.roundedRect(x, y, w, h, pt(radiusMm));
  else doc.rect(x, y, w, h);
  doc.lineWidth(widthPt).strokeColor(color).stroke();
}

function fillRect(doc: Doc, r: Rect, color: string): void {
  doc.rect(pt(r.x), pt(r.y), pt(r.w), pt(r.h)).fillColor(color).fill();
}

function hLine(
  doc: Doc,
  x1: number,
  x2: number,
  y: number,
  color: string,
  widthPt: number,
  dash?: number,
): void {
  doc.moveTo(pt(x1), pt(y)).lineTo(pt(x2), pt(y)).lineWidth(widthPt).strokeColor(color);
  if (dash) doc.dash(pt(dash), { space: pt(dash * 0.8) });
  doc.stroke();
  if (dash) doc.undash();
}

const BRACKET_PT = 0.55;

/** A bubble as printed on Chinese cards: [A], brackets and the option inside, all within the rectangle. */
export function bubble(doc: Doc, r: Rect, label: string): void {
  const inset = BRACKET_PT / 2;
  const x1 = pt(r.x) + inset;
  const x2 = pt(r.x + r.w) - inset;
  const y1 = pt(r.y) + inset;
  const y2 = pt(r.y + r.h) - inset;
  const serif = pt(Math.min(1, r.w * 0.22));
  doc
    .moveTo(x1 + serif, y1)
    .lineTo(x1, y1)
    .lineTo(x1, y2)
    .lineTo(x1 + serif, y2)
    .moveTo(x2 - serif, y1)
    .lineTo(x2, y1)
    .lineTo(x2, y2)
    .lineTo(x2 - serif, y2)
    .lineWidth(BRACKET_PT)
    .lineJoin('miter')
    .strokeColor(COLOR.line)
    .stroke();
  if (label === 'T') tick(doc, inner(r, 0.28), COLOR.line, 0.6);
  else if (label === 'F') cross(doc, inner(r, 0.3), COLOR.line, 0.6);
  else textIn(doc, label, r, { size: FONT.bubble, color: COLOR.line, align: 'center' });
}

/** A centred square of `fraction` of the height on each side less, for drawing ✓ and ✗ inside a bubble. */
function inner(r: Rect, fraction: number): Rect {
  const side = r.h * (1 - 2 * fraction) * 1.25;
  return { x: r.x + r.w / 2 - side / 2, y: r.y + r.h / 2 - side / 2, w: side, h: side };
}

function tick(doc: Doc, r: Rect, color: string, widthPt: number): void {
  doc
    .moveTo(pt(r.x), pt(r.y + r.h * 0.55))
    .lineTo(pt(r.x + r.w * 0.38), pt(r.y + r.h))
    .lineTo(pt(r.x + r.w), pt(r.y))
    .lineWidth(widthPt)
    .lineJoin('round')
    .lineCap('round')
    .strokeColor(color)
    .stroke()
    .lineCap('butt');
}

function cross(doc: Doc, r: Rect, color: string, widthPt: number): void {
  doc
    .moveTo(pt(r.x), pt(r.y))
    .lineTo(pt(r.x + r.w), pt(r.y + r.h))
    .moveTo(pt(r.x + r.w), pt(r.y))
    .lineTo(pt(r.x), pt(r.y + r.h))
    .lineWidth(widthPt)
    .lineCap('round')
    .strokeColor(color)
    .stroke()
    .lineCap('butt');
}

function drawTitle(doc: Doc, e: CardElementOf<'title'>): void {
  const r = e.rect;
  if (e.subtitle) {
    textIn(
      doc,
      e.text,
      { ...r, y: r.y + r.h * 0.2, h: r.h * 0.4 },
      { size: FONT.title, bold: true, align: 'center' },
    );
    textIn(
      doc,
      e.subtitle,
      { ...r, y: r.y + r.h * 0.62, h: r.h * 0.25 },
      { size: FONT.subtitle, color: COLOR.muted, align: 'center' },
    );
  } else {
    textIn(doc, e.text, r, { size: FONT.title, bold: true, align: 'center' });
  }
}

function drawStudentInfo(doc: Doc, e: CardElementOf<'studentInfo'>): void {
  for (const f of e.fields) {
    textIn(doc, `${f.label}：`, { ...f.labelRect, w: f.labelRect.w + 3 }, { size: FONT.info, bold: true });
    const v = f.valueRect;
    hLine(doc, v.x + 2, v.x + v.w, v.y + v.h - 0.8, COLOR.line, 0.6);
  }
}

function drawGrid(doc: Doc, e: CardElementOf<'studentNumberGrid'>): void {
  strokeRect(doc, e.rect, COLOR.light, 0.6, 1);
  const label = { x: e.rect.x, y: e.rect.y + 1.5, w: e.rect.w, h: 5 };
  textIn(doc, `${e.label}（用2B铅笔填涂）`, label, {
    size: 7.5,
    bold: true,
    align: 'center',
    color: COLOR.text,
  });
  for (const b of e.boxes) strokeRect(doc, b, COLOR.line, 0.5);
  for (const b of e.bubbles) bubble(doc, b.rect, String(b.value));
}

function drawBarcodeZone(doc: Doc, e: CardElementOf<'barcodeZone'>): void {
  const r = e.rect;
  doc.roundedRect(pt(r.x) + 0.5, pt(r.y) + 0.5, pt(r.w) - 1, pt(r.h) - 1, pt(1.5));
  doc
    .lineWidth(0.8)
    .strokeColor(COLOR.light)
    .dash(pt(1.6), { space: pt(1.2) })
    .stroke()
    .undash();
  textIn(
    doc,
    e.label,
    { ...r, y: r.y + r.h * 0.3, h: r.h * 0.25 },
    { size: 12, color: COLOR.muted, align: 'center' },
  );
  textIn(
    doc,
    '（请将条形码横贴在此框内）',
    { ...r, y: r.y + r.h * 0.58, h: r.h * 0.18 },
    { size: 7.5, color: COLOR.muted, align: 'center' },
  );
}

function drawExample(
  doc: Doc,
  kind: CardElementOf<'instructions'>['examples'][number]['kind'],
  r: Rect,
): void {
  if (kind === 'correct') {
    fillRect(doc, r, COLOR.ink);
    return;
  }
  bubble(doc, r, '');
  const c = { x: r.x + r.w / 2, y: r.y + r.h / 2 };
  if (kind === 'tick') tick(doc, inner(r, 0.2), COLOR.ink, 0.9);
  if (kind === 'cross') cross(doc, inner(r, 0.22), COLOR.ink, 0.9);
  if (kind === 'dot') doc.circle(pt(c.x), pt(c.y), pt(0.75)).fillColor(COLOR.ink).fill();
  if (kind === 'line') hLine(doc, r.x + 1, r.x + r.w - 1, c.y, COLOR.ink, 1.1);
}

function drawInstructions(doc: Doc, e: CardElementOf<'instructions'>): void {
  strokeRect(doc, e.rect, COLOR.light, 0.6, 1);
  textIn(
    doc,
    e.heading,
    { x: e.textRect.x, y: e.rect.y + 1.5, w: e.textRect.w, h: 4.5 },
    { size: FONT.instructionsHeading, bold: true },
  );
  e.lines.forEach((line, i) => {
    const r = { x: e.textRect.x, y: e.textRect.y + i * e.lineHeightMm, w: e.textRect.w, h: e.lineHeightMm };
    textIn(doc, line, r, { size: e.fontSizePt, color: COLOR.text });
  });
  textIn(doc, e.correctLabel, e.correctLabelRect, { size: e.fontSizePt, bold: true });
  textIn(doc, e.wrongLabel, e.wrongLabelRect, { size: e.fontSizePt, bold: true });
  for (const ex of e.examples) drawExample(doc, ex.kind, ex.rect);
}

function drawObjectiveBlock(doc: Doc, e: CardElementOf<'objectiveBlock'>): void {
  strokeRect(doc, e.rect, COLOR.light, 0.5, 1);
  for (const row of e.rows) {
    textIn(doc, row.number, row.numberRect, { size: FONT.number, align: 'right' });
    for (const b of row.bubbles) bubble(doc, b.rect, b.option);
  }
}

function drawBlank(doc: Doc, e: CardElementOf<'blank'>): void {
  textIn(doc, `${e.number}.`, { ...e.numberRect, h: e.numberRect.h + 1.2 }, { size: 9, align: 'right' });
  for (const l of e.lines) hLine(doc, l.x, l.x + l.w, l.y + l.h - 0.4, COLOR.line, 0.6);
}

function drawWrittenBox(doc: Doc, e: CardElementOf<'writtenBox'>): void {
  strokeRect(doc, e.rect, COLOR.line, 0.7);
  textIn(
    doc,
    e.label,
    { x: e.rect.x + 2, y: e.rect.y + 1.2, w: e.rect.w - 4, h: 5 },
    { size: 9, bold: true },
  );
}

function drawScoreBox(doc: Doc, e: CardElementOf<'scoreBox'>): void {
  strokeRect(doc, e.rect, COLOR.light, 0.4);
  textIn(doc, e.label, e.labelRect, { size: 7.5, color: COLOR.muted });
  for (const row of e.rows) {
    textIn(doc, row.label, row.labelRect, { size: 7, color: COLOR.muted, align: 'right' });
    for (const c of row.cells) {
      strokeRect(doc, c.rect, COLOR.cell, 0.5, 0.4);
      textIn(doc, c.label, c.rect, { size: FONT.scoreCell, color: COLOR.cellText, align: 'center' });
    }
  }
}

function drawOptionalChoice(doc: Doc, e: CardElementOf<'optionalChoice'>): void {
  textIn(doc, e.text, e.textRect, { size: 7.5, color: COLOR.text });
  const first = e.bubbles[0];
  if (first)
    textIn(
      doc,
      '所选题号',
      { x: e.rect.x + 1, y: first.rect.y, w: 10, h: first.rect.h },
      { size: 7.5, bold: true },
    );
  for (const b of e.bubbles) bubble(doc, b.rect, b.number);
}

function drawSealingLine(doc: Doc, e: CardElementOf<'sealingLine'>): void {
  const r = e.rect;
  const cx = r.x + r.w / 2;
  const cy = r.y + r.h / 2;
  const text = [...e.text].join(' ');
  const textLen = 60;
  for (const [a, b] of [
    [r.y, cy - textLen / 2 - 2],
    [cy + textLen / 2 + 2, r.y + r.h],
  ] as const) {
    doc
      .moveTo(pt(cx), pt(a))
      .lineTo(pt(cx), pt(b))
      .lineWidth(0.6)
      .strokeColor(COLOR.light)
      .dash(pt(1.5), { space: pt(1.2) })
      .stroke()
      .undash();
  }
  doc.save();
  doc.rotate(-90, { origin: [pt(cx), pt(cy)] });
  textIn(
    doc,
    text,
    { x: cx - textLen / 2, y: cy - 2.5, w: textLen, h: 5 },
    { size: 8, color: COLOR.muted, align: 'center' },
  );
  doc.restore();
}

/** Draws every element that is the same on every copy of a page (all but the QR code and personal details). */
export function drawStaticElement(doc: Doc, e: CardElement): void {
  switch (e.type) {
    case 'anchor':
      fillRect(doc, e.rect, COLOR.ink);
      return;
    case 'title':
      return drawTitle(doc, e);
    case 'studentInfo':
      return drawStudentInfo(doc, e);
    case 'studentNumberGrid':
      return drawGrid(doc, e);
    case 'barcodeZone':
      return drawBarcodeZone(doc, e);
    case 'instructions':
      return drawInstructions(doc, e);
    case 'sectionHeader':
      return textIn(doc, e.text, e.rect, { size: FONT.section, bold: true });
    case 'objectiveBlock':
      return drawObjectiveBlock(doc, e);
    case 'blank':
      return drawBlank(doc, e);
    case 'writtenBox':
      return drawWrittenBox(doc, e);
    case 'optionalChoice':
      return drawOptionalChoice(doc, e);
    case 'scoreBox':
      return drawScoreBox(doc, e);
    case 'sealingLine':
      return drawSealingLine(doc, e);
    case 'footer':
      return textIn(doc, e.text, e.rect, { size: FONT.footer, color: COLOR.muted, align: 'center' });
    case 'qr':
      return;
  }
}

/** A solid mark (a filled bubble), for tests and for the recogniser's synthetic sheets. */
export function drawMark(doc: Doc, r: Rect): void {
  fillRect(doc, r, COLOR.ink);
}
