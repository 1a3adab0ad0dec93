/**
 * Label sheets for /printcode: the common A4 sheets sold for school labels, and where each label falls on them.
 * Geometry in millimetres from the sheet's top-left corner; pages print at 100 % with no page margin.
 */

export interface LabelSheet {
  id: string;
  pageWidthMm: number;
  pageHeightMm: number;
  columns: number;
  rows: number;
  labelWidthMm: number;
  labelHeightMm: number;
  /** Distance of the first label from the sheet's top and left edges. */
  marginTopMm: number;
  marginLeftMm: number;
  /** Space between neighbouring labels. */
  gapXMm: number;
  gapYMm: number;
}

/** A4 3 × 8 (70 × 37 mm, 24 labels), A4 2 × 5 (105 × 57 mm, 10 labels), A4 4 × 10 (52.5 × 29.7 mm, 40 labels). */
export const LABEL_SHEETS = [
  {
    id: 'a4-3x8',
    pageWidthMm: 210,
    pageHeightMm: 297,
    columns: 3,
    rows: 8,
    labelWidthMm: 70,
    labelHeightMm: 37,
    marginTopMm: 0.5,
    marginLeftMm: 0,
    gapXMm: 0,
    gapYMm: 0,
  },
  {
    id: 'a4-2x5',
    pageWidthMm: 210,
    pageHeightMm: 297,
    columns: 2,
    rows: 5,
    labelWidthMm: 105,
    labelHeightMm: 57,
    marginTopMm: 6,
    marginLeftMm: 0,
    gapXMm: 0,
    gapYMm: 0,
  },
  {
    id: 'a4-4x10',
    pageWidthMm: 210,
    pageHeightMm: 297,
    columns: 4,
    rows: 10,
    labelWidthMm: 52.5,
    labelHeightMm: 29.7,
    marginTopMm: 0,
    marginLeftMm: 0,
    gapXMm: 0,
    gapYMm: 0,
  },
] as const satisfies readonly LabelSheet[];

export type LabelSheetId = (typeof LABEL_SHEETS)[number]['id'];

export const labelSheet = (id: LabelSheetId): LabelSheet => LABEL_SHEETS.find((s) => s.id === id)!;

export const labelsPerSheet = (sheet: LabelSheet): number => sheet.columns * sheet.rows;

export interface PlacedLabel {
  /** Index into the items being printed. */
  item: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LabelPage {
  index: number;
  labels: PlacedLabel[];
}

/**
 * Places `count` items on sheets, row by row. `skip` leaves that many labels of the first sheet empty (a sheet already
 * partly used); it is taken modulo the labels of one sheet.
 */
export function layoutLabels(sheet: LabelSheet, count: number, skip = 0): LabelPage[] {
  const per = labelsPerSheet(sheet);
  const offset = ((Math.floor(skip) % per) + per) % per;
  const pages: LabelPage[] = [];
  for (let item = 0; item < count; item++) {
    const slot = offset + item;
    const pageIndex = Math.floor(slot / per);
    const inPage = slot % per;
    const row = Math.floor(inPage / sheet.columns);
    const col = inPage % sheet.columns;
    if (!pages[pageIndex]) pages[pageIndex] = { index: pageIndex, labels: [] };
    pages[pageIndex].labels.push({
      item,
      x: sheet.marginLeftMm + col * (sheet.labelWidthMm + sheet.gapXMm),
      y: sheet.marginTopMm + row * (sheet.labelHeightMm + sheet.gapYMm),
      w: sheet.labelWidthMm,
      h: sheet.labelHeightMm,
    });
  }
  return pages;
}

/** Side of the square QR code that fits a label with room for two lines of text under it. */
export function qrSideMm(sheet: LabelSheet): number {
  const textMm = Math.min(12, sheet.labelHeightMm * 0.3);
  return Math.max(10, Math.min(sheet.labelWidthMm * 0.5, sheet.labelHeightMm - textMm - 4));
}
