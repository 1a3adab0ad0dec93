/** Fixed geometry of the card, in millimetres. Changing any of these changes printed cards: bump CARD_LAYOUT_VERSION. */
export const M = {
  /** Anchors: solid squares this far from the paper's edge (5 mm printer margin + 5 mm). */
  anchorInset: 10,
  anchorSize: 6,
  /** Content starts right of the anchors (inset + size + 3 mm). */
  contentInsetX: 19,
  contentTop: 10,
  /** Columns end here above the paper's bottom edge, leaving the footer between the bottom anchors. */
  contentBottomInset: 18,
  footerHeight: 5,
  footerBottomInset: 10.5,
  columnGap: 8,

  qrSize: 20,
  qrQuiet: 2.5,
  /** The band at the top of column one: QR cell height (the QR and its quiet zone). */
  bandHeight: 25,

  bubbleW: 5,
  bubbleH: 3,
  bubblePitch: 6.8,
  rowPitch: 5.2,
  blockPadX: 2,
  blockPadY: 2,
  blockNumberW: 8,
  blockGapX: 4,
  blockGapY: 3,

  gridPitchX: 6.4,
  gridPitchY: 4.4,
  gridBoxH: 6,
  gridLabelH: 5,
  gridPad: 2,

  barcodeW: 62,
  barcodeH: 32,

  sectionHeaderH: 7,
  itemGap: 3,

  blankRowH: 9,
  blankSlotMin: 58,
  blankNumberW: 9,

  writtenHeaderH: 7,
  writtenLinePitch: 8,
  optionalChoiceH: 13,

  infoRowH: 8,

  /** Score boxes (ADR 0065): cells a red-pen tick fits in, apart enough that a tick stays in its own cell. */
  scoreCellW: 5.4,
  scoreCellH: 4.6,
  scoreCellPitch: 6.4,
  scoreRowPitch: 6,
  scorePadY: 1.2,
  scoreRowLabelW: 8,
  /** Gap between the units row and its 0.5 cell. */
  scoreHalfGap: 2.4,
} as const;

/** Font sizes in points that the layout assumes when it wraps and sizes text. */
export const FONT = {
  title: 16,
  subtitle: 10,
  section: 10.5,
  info: 10,
  instructions: 7.5,
  instructionsHeading: 9,
  bubble: 6.5,
  number: 8,
  footer: 7.5,
  scoreCell: 6.5,
} as const;

const PT_PER_MM = 72 / 25.4;

/** Points to millimetres. */
export const ptToMm = (pt: number): number => pt / PT_PER_MM;

/** Rounds to 0.01 mm so a layout is deterministic and its JSON short. */
export const r2 = (v: number): number => Math.round(v * 100) / 100;
