import type PDFKit from 'pdfkit';

// A table of the question bank's rich text (a stem's 表格) drawn into a pdfkit document: ruled cells, columns as
// wide as their longest text allows, a header row shaded, rows moving to the next page whole. Used by the booklet
// and the analysis PDFs, which both print questions.

type Doc = PDFKit.PDFDocument;

export interface CellTable {
  rows: string[][];
  /** The first row is a header (it had <th> cells). */
  header: boolean;
}

const RULE = '#6b7280';
const HEAD_FILL = '#f1f5f9';

/** Draws `table` from the current position, `indent` points in from the left margin, at font `font`/`size`. */
export function drawCellTable(
  doc: Doc,
  table: CellTable,
  options: { indent?: number; size: number; font: string; boldFont: string; color: string },
): void {
  const columns = Math.max(0, ...table.rows.map((r) => r.length));
  if (columns === 0) return;
  const left = doc.page.margins.left + (options.indent ?? 0);
  const available = doc.page.width - doc.page.margins.right - left;
  const pad = 3;
  doc.font(options.font).fontSize(options.size);
  // Columns share the width by their longest text, each at least a fifth of an even share, never wider than needed.
  const natural = Array.from(
    { length: columns },
    (_, c) =>
      // At least three characters wide, as a teacher draws a table of values.
      Math.max(...table.rows.map((r) => doc.widthOfString(r[c] ?? '')), options.size * 3) + 4 * pad,
  );
  const total = natural.reduce((a, b) => a + b, 0);
  const widths =
    total <= available
      ? natural
      : natural.map((w) => Math.max(available / columns / 5, (w / total) * available));
  const scale = Math.min(1, available / widths.reduce((a, b) => a + b, 0));
  const cellWidths = widths.map((w) => w * scale);

  for (const [r, row] of table.rows.entries()) {
    const head = table.header && r === 0;
    const font = head ? options.boldFont : options.font;
    doc.font(font).fontSize(options.size);
    const height =
      Math.max(...cellWidths.map((w, c) => doc.heightOfString(row[c] || ' ', { width: w - 2 * pad }))) +
      2 * pad;
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const y = doc.y;
    let x = left;
    if (head)
      doc
        .rect(
          left,
          y,
          cellWidths.reduce((a, b) => a + b, 0),
          height,
        )
        .fillColor(HEAD_FILL)
        .fill();
    for (const [c, w] of cellWidths.entries()) {
      doc.lineWidth(0.5).strokeColor(RULE).rect(x, y, w, height).stroke();
      doc
        .font(font)
        .fontSize(options.size)
        .fillColor(options.color)
        .text(row[c] ?? '', x + pad, y + pad, { width: w - 2 * pad, align: 'center' });
      x += w;
    }
    doc.x = doc.page.margins.left;
    doc.y = y + height;
  }
  doc.moveDown(0.3);
}
