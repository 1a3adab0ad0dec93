/** Physical paper sizes of answer cards, in millimetres (portrait), and conversions to scan pixels. */
export const PAPER_SIZES_MM = {
  A4: { width: 210, height: 297 },
  A3: { width: 420, height: 297 },
  B4: { width: 250, height: 353 },
  B5: { width: 176, height: 250 },
  '16k': { width: 185, height: 260 },
} as const;
export type PaperSize = keyof typeof PAPER_SIZES_MM;

const MM_PER_INCH = 25.4;

/** Millimetres to pixels at a resolution in dots per inch. */
export function mmToPx(mm: number, dpi: number): number {
  return (mm / MM_PER_INCH) * dpi;
}

/** Pixels at a resolution to millimetres. */
export function pxToMm(px: number, dpi: number): number {
  return (px / dpi) * MM_PER_INCH;
}

/** Millimetres to PDF points (1/72 inch), the unit of the PDF renderer. */
export function mmToPt(mm: number): number {
  return (mm / MM_PER_INCH) * 72;
}

/** The whole-pixel size of a paper scanned at `dpi`, rounded down as scanners do. */
export function paperPixels(size: PaperSize, dpi: number): { width: number; height: number } {
  const { width, height } = PAPER_SIZES_MM[size];
  return { width: Math.floor(mmToPx(width, dpi)), height: Math.floor(mmToPx(height, dpi)) };
}
