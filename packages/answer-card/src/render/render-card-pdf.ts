import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { encodeCardQr, type CardElementOf, type CardLayout, type CardPage, type Rect } from '@zhzy/contracts';
import { mmToPt } from '../paper.js';
import { COLOR, FONT_BOLD, FONT_REGULAR, drawMark, drawStaticElement, textIn, type Doc } from './draw.js';
import { fontBytes, resolveCardFonts, type CardFonts } from './fonts.js';
import { captureForm, placeForm, type FormXObject, type PdfInternals } from './form-xobject.js';

/** A student a personalised copy is printed for. */
export interface CardStudent {
  id: string;
  name: string;
  /** 考号/学号. */
  number?: string;
  className?: string;
}

export interface RenderCardOptions {
  /** One copy of every page per student, in order; without students, one anonymous copy. */
  students?: readonly CardStudent[];
  /** Where the PDF goes; it is ended when the document is complete. */
  output: Writable;
  /** CJK fonts; by default from ZHZY_CJK_FONT or the system (fonts-noto-cjk, Microsoft YaHei, PingFang). */
  fonts?: CardFonts;
  /** Solid marks drawn over every copy (0-based page index), for tests and synthetic recognition corpora. */
  marks?: readonly { page: number; rect: Rect }[];
  /** Fixes the PDF's creation date, for byte-identical output. */
  creationDate?: Date;
  /** Stops rendering (e.g. the teacher cancelled the download): the output is destroyed and the call rejects. */
  signal?: AbortSignal;
}

export interface RenderCardResult {
  pages: number;
}

/** Output buffered (in the document and the destination) beyond which rendering waits for the consumer. */
const BACKPRESSURE_BYTES = 8 << 20;
/** Longest stretch of synchronous drawing before yielding, so a host serving other requests stays responsive. */
const SLICE_MS = 20;

/** The QR payload text of a page copy. */
export function pageQrText(qr: CardElementOf<'qr'>, student?: CardStudent): string {
  return encodeCardQr({ ...qr.payload, ...(student ? { studentId: student.id } : {}) });
}

/** QR modules as PDF rectangle operators (horizontal runs merged), filled in one go. */
function qrOperators(text: string, r: Rect): string {
  // One byte-mode segment: the library's automatic segmentation (a shortest-path search) costs more than the rest.
  const qr = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], {
    errorCorrectionLevel: 'M',
  });
  const n = qr.modules.size;
  const data = qr.modules.data;
  const m = mmToPt(r.w) / n;
  const x0 = mmToPt(r.x);
  const y0 = mmToPt(r.y);
  const ops: string[] = ['q 0 g'];
  for (let row = 0; row < n; row++) {
    let col = 0;
    while (col < n) {
      if (!data[row * n + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && data[row * n + col]) col++;
      ops.push(
        `${(x0 + start * m).toFixed(3)} ${(y0 + row * m).toFixed(3)} ${((col - start) * m).toFixed(3)} ${m.toFixed(3)} re`,
      );
    }
  }
  ops.push('f Q');
  return ops.join('\n');
}

/** Prints the student's details on the lines and boxes the layout reserves for them. */
function drawPersonal(doc: Doc, page: CardPage, student: CardStudent): void {
  for (const e of page.elements) {
    if (e.type === 'studentInfo') {
      for (const f of e.fields) {
        const value =
          f.key === 'name' ? student.name : f.key === 'className' ? student.className : student.number;
        if (!value) continue;
        const v = f.valueRect;
        textIn(
          doc,
          value,
          { x: v.x + 3, y: v.y, w: v.w - 4, h: v.h - 1.2 },
          { size: 10.5, color: COLOR.ink },
        );
      }
    }
    if (e.type === 'studentNumberGrid' && student.number && student.number.length === e.digits) {
      [...student.number].forEach((digit, i) => {
        const box = e.boxes[i];
        if (box) textIn(doc, digit, box, { size: 9, color: COLOR.ink, align: 'center' });
      });
    }
  }
}

/**
 * Renders a card layout as a vector PDF, one set of pages per student, streamed to `output` with backpressure (a
 * page is never held longer than it takes to write it). Geometry is the layout's, in points.
 */
export async function renderCardPdf(
  layout: CardLayout,
  options: RenderCardOptions,
): Promise<RenderCardResult> {
  const fonts = resolveCardFonts(options.fonts);
  const first = layout.pages[0]!;
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: true,
    size: [mmToPt(first.widthMm), mmToPt(first.heightMm)],
    margin: 0,
    info: {
      Title: layout.title,
      Subject: `答题卡 ${layout.cardId} v${layout.version}`,
      Creator: '智能作业',
      Producer: '智能作业 答题卡',
      CreationDate: options.creationDate ?? new Date(),
    },
  });
  const internals = doc as unknown as PdfInternals;
  doc.registerFont(FONT_REGULAR, fontBytes(fonts.regular.path), fonts.regular.family ?? '');
  const bold = fonts.bold ?? fonts.regular;
  doc.registerFont(FONT_BOLD, fontBytes(bold.path), bold.family ?? '');

  const done = pipeline(doc, options.output);
  // Rejections are awaited below; this keeps an early failure from being reported as unhandled meanwhile.
  done.catch(() => undefined);

  const forms: FormXObject[] = layout.pages.map((page) =>
    captureForm(internals, `Card${page.index + 1}`, mmToPt(page.widthMm), mmToPt(page.heightMm), () => {
      for (const e of page.elements) drawStaticElement(doc, e);
      for (const mark of options.marks ?? []) if (mark.page === page.index) drawMark(doc, mark.rect);
    }),
  );
  const qrs = layout.pages.map((page) =>
    page.elements.find((e): e is CardElementOf<'qr'> => e.type === 'qr'),
  );
  const copies: (CardStudent | undefined)[] = options.students?.length ? [...options.students] : [undefined];

  let pages = 0;
  let sliceStart = performance.now();
  for (const student of copies) {
    if (options.signal?.aborted) {
      doc.destroy();
      options.output.destroy();
      throw options.signal.reason instanceof Error ? options.signal.reason : new Error('rendering aborted');
    }
    layout.pages.forEach((page, i) => {
      doc.addPage({ size: [mmToPt(page.widthMm), mmToPt(page.heightMm)], margin: 0 });
      placeForm(internals, forms[i]!, mmToPt(page.heightMm));
      const qr = qrs[i];
      if (qr) internals.addContent(qrOperators(pageQrText(qr, student), qr.rect));
      if (student) drawPersonal(doc, page, student);
      pages++;
    });
    while (doc.readableLength + options.output.writableLength > BACKPRESSURE_BYTES) {
      if (options.output.writableNeedDrain) await once(options.output, 'drain');
      else await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  doc.end();
  await done;
  return { pages };
}
