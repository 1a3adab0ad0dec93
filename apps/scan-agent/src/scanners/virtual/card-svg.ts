import QRCode from 'qrcode';
import {
  encodeCardQr,
  type CardElement,
  type CardElementOf,
  type CardPage,
  type Rect,
} from '@zhzy/contracts';

/*
 * The printed look of a card page as SVG in millimetres, drawn from the layout alone (anchors, QR, bracketed
 * bubbles, boxes, text). It mirrors the PDF renderer's conventions closely enough for recognition to be tested on
 * it; the virtual scanner rasterises it with sharp (librsvg) at the scan resolution.
 */

const INK = '#000000';
const TEXT = '#1a1a1a';
const MUTED = '#5c5c5c';
const LINE = '#4d4d4d';
const LIGHT = '#a6a6a6';
const FONT = "'Noto Sans CJK SC','Noto Serif CJK SC','WenQuanYi Micro Hei','Microsoft YaHei',sans-serif";
const PT = 25.4 / 72;

const esc = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number) => (Math.round(v * 1000) / 1000).toString();

function text(
  s: string,
  r: Rect,
  opts: { sizePt: number; bold?: boolean; color?: string; align?: 'left' | 'center' | 'right' },
): string {
  if (!s) return '';
  const size = opts.sizePt * PT;
  // Rough width check so long lines shrink to fit like the PDF renderer's.
  const estimate = [...s].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 1 : 0.55), 0) * size;
  const fitted = estimate > r.w && estimate > 0 ? Math.max(4 * PT, (size * r.w) / estimate) : size;
  const align = opts.align ?? 'left';
  const x = align === 'left' ? r.x : align === 'right' ? r.x + r.w : r.x + r.w / 2;
  const anchor = align === 'left' ? 'start' : align === 'right' ? 'end' : 'middle';
  const y = r.y + r.h / 2 + 0.37 * fitted;
  return `<text x="${n(x)}" y="${n(y)}" font-size="${n(fitted)}" font-family="${FONT}" text-anchor="${anchor}"${opts.bold ? ' font-weight="bold"' : ''} fill="${opts.color ?? TEXT}">${esc(s)}</text>`;
}

const rectPath = (r: Rect, stroke: string, width: number, radius = 0, dash?: string) =>
  `<rect x="${n(r.x + width / 2)}" y="${n(r.y + width / 2)}" width="${n(Math.max(0, r.w - width))}" height="${n(Math.max(0, r.h - width))}" rx="${n(radius)}" fill="none" stroke="${stroke}" stroke-width="${n(width)}"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;

const fill = (r: Rect, color = INK) =>
  `<rect x="${n(r.x)}" y="${n(r.y)}" width="${n(r.w)}" height="${n(r.h)}" fill="${color}"/>`;

const hLine = (x1: number, x2: number, y: number, color: string, width: number, dash?: string) =>
  `<line x1="${n(x1)}" y1="${n(y)}" x2="${n(x2)}" y2="${n(y)}" stroke="${color}" stroke-width="${n(width)}"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;

function inner(r: Rect, fraction: number): Rect {
  const side = r.h * (1 - 2 * fraction) * 1.25;
  return { x: r.x + r.w / 2 - side / 2, y: r.y + r.h / 2 - side / 2, w: side, h: side };
}

const tick = (r: Rect, color: string, w: number) =>
  `<polyline points="${n(r.x)},${n(r.y + r.h * 0.55)} ${n(r.x + r.w * 0.38)},${n(r.y + r.h)} ${n(r.x + r.w)},${n(r.y)}" fill="none" stroke="${color}" stroke-width="${n(w)}" stroke-linecap="round" stroke-linejoin="round"/>`;
const cross = (r: Rect, color: string, w: number) =>
  `<path d="M${n(r.x)} ${n(r.y)}L${n(r.x + r.w)} ${n(r.y + r.h)}M${n(r.x + r.w)} ${n(r.y)}L${n(r.x)} ${n(r.y + r.h)}" stroke="${color}" stroke-width="${n(w)}" stroke-linecap="round"/>`;

/** A bracketed bubble, [A], as printed on Chinese cards. */
function bubble(r: Rect, label: string): string {
  const w = 0.55 * PT;
  const x1 = r.x + w / 2;
  const x2 = r.x + r.w - w / 2;
  const y1 = r.y + w / 2;
  const y2 = r.y + r.h - w / 2;
  const serif = Math.min(1, r.w * 0.22);
  const brackets = `<path d="M${n(x1 + serif)} ${n(y1)}H${n(x1)}V${n(y2)}H${n(x1 + serif)}M${n(x2 - serif)} ${n(y1)}H${n(x2)}V${n(y2)}H${n(x2 - serif)}" fill="none" stroke="${LINE}" stroke-width="${n(w)}"/>`;
  if (label === 'T') return brackets + tick(inner(r, 0.28), LINE, 0.6 * PT);
  if (label === 'F') return brackets + cross(inner(r, 0.3), LINE, 0.6 * PT);
  return brackets + text(label, r, { sizePt: 6.5, color: LINE, align: 'center' });
}

function qr(e: CardElementOf<'qr'>, studentId: string | undefined): string {
  const code = QRCode.create(
    [
      {
        data: Buffer.from(encodeCardQr({ ...e.payload, ...(studentId ? { studentId } : {}) })),
        mode: 'byte',
      },
    ],
    {
      errorCorrectionLevel: 'M',
    },
  );
  const size = code.modules.size;
  const m = e.rect.w / size;
  let d = '';
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!code.modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && code.modules.get(row, col)) col++;
      d += `M${n(e.rect.x + start * m)} ${n(e.rect.y + row * m)}h${n((col - start) * m)}v${n(m)}h${n(-(col - start) * m)}z`;
    }
  }
  return `<path d="${d}" fill="${INK}"/>`;
}

/** What a personalised copy prints for its student. */
export interface PrintedStudent {
  id: string;
  name: string;
  number: string;
  className: string;
}

function element(e: CardElement, student: PrintedStudent | undefined): string {
  switch (e.type) {
    case 'anchor':
      return fill(e.rect);
    case 'qr':
      return qr(e, student?.id);
    case 'title':
      return e.subtitle
        ? text(
            e.text,
            { ...e.rect, y: e.rect.y + e.rect.h * 0.2, h: e.rect.h * 0.4 },
            { sizePt: 16, bold: true, align: 'center' },
          ) +
            text(
              e.subtitle,
              { ...e.rect, y: e.rect.y + e.rect.h * 0.62, h: e.rect.h * 0.25 },
              { sizePt: 10, color: MUTED, align: 'center' },
            )
        : text(e.text, e.rect, { sizePt: 16, bold: true, align: 'center' });
    case 'studentInfo':
      return e.fields
        .map((f) => {
          const v = f.valueRect;
          const value = student
            ? f.key === 'name'
              ? student.name
              : f.key === 'className'
                ? student.className
                : student.number
            : '';
          return (
            text(`${f.label}：`, { ...f.labelRect, w: f.labelRect.w + 3 }, { sizePt: 10, bold: true }) +
            hLine(v.x + 2, v.x + v.w, v.y + v.h - 0.8, LINE, 0.6 * PT) +
            (value
              ? text(value, { x: v.x + 3, y: v.y, w: v.w - 4, h: v.h - 1.2 }, { sizePt: 10.5, color: INK })
              : '')
          );
        })
        .join('');
    case 'studentNumberGrid':
      return (
        rectPath(e.rect, LIGHT, 0.6 * PT, 1) +
        text(
          `${e.label}（用2B铅笔填涂）`,
          { x: e.rect.x, y: e.rect.y + 1.5, w: e.rect.w, h: 5 },
          { sizePt: 7.5, bold: true, align: 'center' },
        ) +
        e.boxes.map((b) => rectPath(b, LINE, 0.5 * PT)).join('') +
        e.bubbles.map((b) => bubble(b.rect, String(b.value))).join('')
      );
    case 'barcodeZone':
      return (
        rectPath(e.rect, LIGHT, 0.8 * PT, 1.5, '1.6 1.2') +
        text(
          e.label,
          { ...e.rect, y: e.rect.y + e.rect.h * 0.3, h: e.rect.h * 0.25 },
          { sizePt: 12, color: MUTED, align: 'center' },
        )
      );
    case 'instructions':
      return (
        rectPath(e.rect, LIGHT, 0.6 * PT, 1) +
        text(
          e.heading,
          { x: e.textRect.x, y: e.rect.y + 1.5, w: e.textRect.w, h: 4.5 },
          { sizePt: 9, bold: true },
        ) +
        e.lines
          .map((line, i) =>
            text(
              line,
              { x: e.textRect.x, y: e.textRect.y + i * e.lineHeightMm, w: e.textRect.w, h: e.lineHeightMm },
              { sizePt: e.fontSizePt },
            ),
          )
          .join('') +
        text(e.correctLabel, e.correctLabelRect, { sizePt: e.fontSizePt, bold: true }) +
        text(e.wrongLabel, e.wrongLabelRect, { sizePt: e.fontSizePt, bold: true }) +
        e.examples
          .map((ex) => {
            if (ex.kind === 'correct') return fill(ex.rect);
            const c = { x: ex.rect.x + ex.rect.w / 2, y: ex.rect.y + ex.rect.h / 2 };
            const mark =
              ex.kind === 'tick'
                ? tick(inner(ex.rect, 0.2), INK, 0.9 * PT)
                : ex.kind === 'cross'
                  ? cross(inner(ex.rect, 0.22), INK, 0.9 * PT)
                  : ex.kind === 'dot'
                    ? `<circle cx="${n(c.x)}" cy="${n(c.y)}" r="0.75" fill="${INK}"/>`
                    : hLine(ex.rect.x + 1, ex.rect.x + ex.rect.w - 1, c.y, INK, 1.1 * PT);
            return bubble(ex.rect, '') + mark;
          })
          .join('')
      );
    case 'sectionHeader':
      return text(e.text, e.rect, { sizePt: 10.5, bold: true });
    case 'objectiveBlock':
      return (
        rectPath(e.rect, LIGHT, 0.5 * PT, 1) +
        e.rows
          .map(
            (row) =>
              text(row.number, row.numberRect, { sizePt: 8, align: 'right' }) +
              row.bubbles.map((b) => bubble(b.rect, b.option)).join(''),
          )
          .join('')
      );
    case 'blank':
      return (
        text(`${e.number}.`, { ...e.numberRect, h: e.numberRect.h + 1.2 }, { sizePt: 9, align: 'right' }) +
        e.lines.map((l) => hLine(l.x, l.x + l.w, l.y + l.h - 0.4, LINE, 0.6 * PT)).join('')
      );
    case 'writtenBox':
      return (
        rectPath(e.rect, LINE, 0.7 * PT) +
        text(
          e.label,
          { x: e.rect.x + 2, y: e.rect.y + 1.2, w: e.rect.w - 4, h: 5 },
          { sizePt: 9, bold: true },
        )
      );
    case 'optionalChoice':
      return (
        text(e.text, e.textRect, { sizePt: 7.5 }) + e.bubbles.map((b) => bubble(b.rect, b.number)).join('')
      );
    case 'scoreBox':
      return (
        rectPath(e.rect, LIGHT, 0.4 * PT) +
        text(e.label, e.labelRect, { sizePt: 7.5, color: MUTED }) +
        e.rows
          .map(
            (row) =>
              text(row.label, row.labelRect, { sizePt: 7, color: MUTED, align: 'right' }) +
              row.cells
                .map(
                  (c) =>
                    rectPath(c.rect, '#b3b3b3', 0.5 * PT, 0.4) +
                    text(c.label, c.rect, { sizePt: 6.5, color: '#c4c4c4', align: 'center' }),
                )
                .join(''),
          )
          .join('')
      );
    case 'sealingLine': {
      const x = e.rect.x + e.rect.w / 2;
      return `<line x1="${n(x)}" y1="${n(e.rect.y)}" x2="${n(x)}" y2="${n(e.rect.y + e.rect.h)}" stroke="${LIGHT}" stroke-width="${n(0.5 * PT)}" stroke-dasharray="2 1.5"/>`;
    }
    case 'footer':
      return text(e.text, e.rect, { sizePt: 7.5, color: MUTED, align: 'center' });
  }
}

/** The page as SVG, `dpi` pixels per inch. */
export function cardPageSvg(
  page: CardPage,
  dpi: number,
  student?: PrintedStudent,
): { svg: string; width: number; height: number } {
  const width = Math.round((page.widthMm / 25.4) * dpi);
  const height = Math.round((page.heightMm / 25.4) * dpi);
  const body = page.elements.map((e) => element(e, student)).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${page.widthMm} ${page.heightMm}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>${body}</svg>`;
  return { svg, width, height };
}
