import type { PrintPaper } from '@zhzy/contracts';
import { PRINT_PAPER_MM } from './port.js';

/** What the agent checks in a PDF before printing it. */
export interface PdfFacts {
  pages: number;
  /** First page's size in millimetres. */
  widthMm: number;
  heightMm: number;
  /** The paper of PRINT_PAPERS that size is (either orientation), or null for another size. */
  paper: Exclude<PrintPaper, 'auto'> | null;
}

const PT_TO_MM = 25.4 / 72;

/** The paper a page size is, within 2 mm, either orientation. */
export function paperOfSize(widthMm: number, heightMm: number): Exclude<PrintPaper, 'auto'> | null {
  const [short, long] = widthMm < heightMm ? [widthMm, heightMm] : [heightMm, widthMm];
  for (const [name, size] of Object.entries(PRINT_PAPER_MM))
    if (Math.abs(size.w - short) <= 2 && Math.abs(size.h - long) <= 2)
      return name as Exclude<PrintPaper, 'auto'>;
  return null;
}

/**
 * Reads the page count and the first page's size from a PDF's object dictionaries (enough for the PDFs the host
 * renders and for ordinary PDFs without object streams); answers null for something that is not a PDF.
 */
export function pdfFacts(data: Buffer): PdfFacts | null {
  if (data.subarray(0, 5).toString('latin1') !== '%PDF-') return null;
  const text = data.toString('latin1');
  const pageObjects = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  // A page tree's /Count is authoritative when object streams hide the page dictionaries.
  let pages = pageObjects;
  const treeCounts = [...text.matchAll(/\/Type\s*\/Pages[\s\S]{0,200}?\/Count\s+(\d+)/g)].map((m) =>
    Number(m[1]),
  );
  const countsBefore = [...text.matchAll(/\/Count\s+(\d+)[\s\S]{0,200}?\/Type\s*\/Pages/g)].map((m) =>
    Number(m[1]),
  );
  const largest = Math.max(0, ...treeCounts, ...countsBefore);
  if (largest > pages) pages = largest;
  const box = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(text);
  if (!box || pages === 0) return null;
  const [x0, y0, x1, y1] = box.slice(1, 5).map(Number) as [number, number, number, number];
  const widthMm = Math.abs(x1 - x0) * PT_TO_MM;
  const heightMm = Math.abs(y1 - y0) * PT_TO_MM;
  return { pages, widthMm, heightMm, paper: paperOfSize(widthMm, heightMm) };
}
