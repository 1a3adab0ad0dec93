import type PDFKit from 'pdfkit';

// The analysis report's charts, drawn as vector shapes into the PDF (ADR 0056): the same bars, colours and "not yet
// marked draws nothing" rule as the web's ECharts options, but no raster image and no browser — they print sharp at
// any size and cost a few hundred bytes each. Text comes from the caller (the report holds the Chinese labels).

type Doc = PDFKit.PDFDocument;

const AXIS = '#475569';
const GRID_LINE = '#e2e8f0';
const INK = '#111827';
const FONT = 'cjk';
const FONT_BOLD = 'cjk-bold';

export interface ChartSeries {
  name: string;
  color: string;
}

export interface ChartBar {
  label: string;
  /** One value per series; null draws no bar (e.g. a class nobody has been marked in yet) and shows `missing`. */
  values: (number | null)[];
  /** This bar's colour for the first series (e.g. by difficulty); the series colour otherwise. */
  color?: string;
}

export interface ColumnChart {
  /** A caption above the plot, so a chart that lands on the next page still says what it shows. */
  title: string;
  series: ChartSeries[];
  bars: ChartBar[];
  /** The value at the top of the axis. */
  max: number;
  /** How a value is written on the axis and above a bar. */
  format: (value: number) => string;
  /** What a null value shows in place of a bar. */
  missing?: string;
  /** Dashed lines across the plot (a grade average, the 40 % / 70 % difficulty lines). */
  guides?: { value: number; label: string; color: string }[];
  /** Plot height in points (the axis labels and legend come on top). */
  height?: number;
}

const left = (doc: Doc) => doc.page.margins.left;
const innerWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** Opens a page when less than `height` is left on this one. */
function ensure(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** Text cut to fit `width` at the current font, with an ellipsis. */
function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The caption on the left and the series' names with coloured squares on the right, above the plot. */
function captionRow(doc: Doc, title: string, series: ChartSeries[], y: number): void {
  doc.font(FONT_BOLD).fontSize(8.5).fillColor(INK).text(title, left(doc), y, { lineBreak: false });
  if (series.length < 2) return;
  doc.font(FONT).fontSize(8);
  const items = series.map((s) => ({ ...s, w: 12 + doc.widthOfString(s.name) + 10 }));
  let x = left(doc) + innerWidth(doc) - items.reduce((sum, i) => sum + i.w, 0);
  for (const item of items) {
    doc
      .rect(x, y + 1.5, 8, 8)
      .fillColor(item.color)
      .fill();
    doc.fillColor(AXIS).text(item.name, x + 12, y, { lineBreak: false });
    x += item.w;
  }
}

function dashed(doc: Doc, x1: number, x2: number, y: number, color: string): void {
  doc.save().moveTo(x1, y).lineTo(x2, y).dash(3, { space: 2 }).lineWidth(0.8).strokeColor(color).stroke();
  doc.undash().restore();
}

/** A column chart's value axis: five steps with light grid lines, labelled left of the plot. */
function valueAxis(
  doc: Doc,
  axis: {
    x0: number;
    plotW: number;
    axisW: number;
    max: number;
    yOf: (v: number) => number;
    format: (v: number) => string;
  },
): void {
  const { x0, plotW, axisW, max, yOf } = axis;
  doc.font(FONT).fontSize(7.5);
  for (let i = 0; i <= 4; i += 1) {
    const v = (max * i) / 4;
    const y = yOf(v);
    doc
      .moveTo(x0, y)
      .lineTo(x0 + plotW, y)
      .lineWidth(0.5)
      .strokeColor(i === 0 ? AXIS : GRID_LINE)
      .stroke();
    doc
      .fillColor(AXIS)
      .text(axis.format(v), left(doc), y - 4, { width: axisW - 4, align: 'right', lineBreak: false });
  }
}

/** Vertical bars per category, grouped by series, with a value axis and optional guide lines. */
export function columnChart(doc: Doc, chart: ColumnChart): void {
  const plotH = chart.height ?? 110;
  const axisW = 34;
  const labelH = 14;
  const captionH = 14;
  // The guide lines' labels stand right of the plot, clear of the bars.
  doc.font(FONT).fontSize(7);
  const guideW = Math.max(0, ...(chart.guides ?? []).map((g) => doc.widthOfString(g.label) + 6));
  ensure(doc, captionH + 8 + plotH + labelH + 10);
  const top = doc.y + captionH + 8;
  const x0 = left(doc) + axisW;
  const plotW = innerWidth(doc) - axisW - 4 - guideW;
  const bottom = top + plotH;
  const max = chart.max > 0 ? chart.max : 1;
  const yOf = (v: number) => bottom - (Math.min(Math.max(v, 0), max) / max) * plotH;

  captionRow(doc, chart.title, chart.series, doc.y);
  valueAxis(doc, { x0, plotW, axisW, max, yOf, format: chart.format });

  const n = Math.max(chart.bars.length, 1);
  const groupW = plotW / n;
  const perSeries = chart.series.length;
  const barW = Math.min((groupW * 0.7) / perSeries, 26);
  const showValues = n * perSeries <= 30;
  const labelSize = groupW < 22 ? 6.5 : 8;
  for (const [i, bar] of chart.bars.entries()) {
    const groupX = x0 + i * groupW;
    const start = groupX + (groupW - barW * perSeries) / 2;
    for (const [k, value] of bar.values.entries()) {
      const x = start + k * barW;
      doc.font(FONT).fontSize(6.5);
      if (value === null) {
        if (chart.missing)
          doc
            .fillColor(AXIS)
            .text(chart.missing, x - 6, bottom - 10, { width: barW + 12, align: 'center', lineBreak: false });
        continue;
      }
      const y = yOf(value);
      const color = k === 0 && bar.color ? bar.color : chart.series[k]!.color;
      if (bottom - y > 0.2)
        doc
          .rect(x + 0.5, y, barW - 1, bottom - y)
          .fillColor(color)
          .fill();
      if (showValues)
        doc
          .fillColor(INK)
          .text(chart.format(value), x - 8, y - 8.5, { width: barW + 16, align: 'center', lineBreak: false });
    }
    doc.font(FONT).fontSize(labelSize).fillColor(AXIS);
    doc.text(fit(doc, bar.label, groupW - 2), groupX, bottom + 3, {
      width: groupW,
      align: 'center',
      lineBreak: false,
    });
  }
  for (const guide of chart.guides ?? []) {
    const y = yOf(guide.value);
    dashed(doc, x0, x0 + plotW, y, guide.color);
    doc.font(FONT).fontSize(7).fillColor(guide.color);
    doc.text(guide.label, x0 + plotW + 4, y - 3.5, { width: guideW, lineBreak: false });
  }
  doc.x = left(doc);
  doc.y = bottom + labelH + 10;
  doc.fillColor(INK);
}

export interface RowChart {
  title: string;
  rows: { label: string; value: number; color: string }[];
  max: number;
  format: (value: number) => string;
}

/** Horizontal bars, one per row, for long labels (knowledge points); breaks across pages row by row. */
export function rowChart(doc: Doc, chart: RowChart): void {
  const rowH = 14;
  const labelW = innerWidth(doc) * 0.34;
  const valueW = 40;
  const barMax = innerWidth(doc) - labelW - valueW - 8;
  const max = chart.max > 0 ? chart.max : 1;
  ensure(doc, 22 + Math.min(chart.rows.length, 3) * rowH);
  doc.y += 4;
  captionRow(doc, chart.title, [], doc.y);
  doc.y += 16;
  for (const row of chart.rows) {
    ensure(doc, rowH);
    const y = doc.y;
    doc.font(FONT).fontSize(8).fillColor(INK);
    doc.text(fit(doc, row.label, labelW - 6), left(doc), y + 2.5, {
      width: labelW - 6,
      align: 'right',
      lineBreak: false,
    });
    const x = left(doc) + labelW;
    doc
      .rect(x, y + 2, barMax, rowH - 4)
      .fillColor('#f1f5f9')
      .fill();
    const w = (Math.min(Math.max(row.value, 0), max) / max) * barMax;
    if (w > 0.2)
      doc
        .rect(x, y + 2, w, rowH - 4)
        .fillColor(row.color)
        .fill();
    doc
      .fillColor(AXIS)
      .text(chart.format(row.value), x + barMax + 4, y + 2.5, { width: valueW, lineBreak: false });
    doc.x = left(doc);
    doc.y = y + rowH;
  }
  doc.y += 8;
  doc.fillColor(INK);
}
