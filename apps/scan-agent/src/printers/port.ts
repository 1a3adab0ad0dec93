import type { Printer, PrintPaper } from '@zhzy/contracts';

/** What a driver is asked to print: a PDF on the agent's disk, never scaled. */
export interface PrintRequest {
  file: string;
  copies: number;
  duplex: boolean;
  /** A concrete paper (the PDF's own size when the teacher chose `auto`). */
  paper: Exclude<PrintPaper, 'auto'> | null;
  title: string;
  signal?: AbortSignal;
}

/** Where a job is in the print system. */
export type SystemJobState =
  | { state: 'pending' | 'printing' | 'done' }
  | { state: 'failed' | 'cancelled'; message: string }
  | { state: 'unknown' };

/** A print failure with a message for the teacher (Chinese). */
export class PrintError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'PrintError';
  }
}

/**
 * One print system behind one interface: CUPS (`lp`, `lpstat`), IPP (network printers) and Windows (SumatraPDF).
 * Every driver prints unscaled: answer cards are read back by their geometry.
 */
export interface PrinterDriverPort {
  readonly kind: Printer['driver'];
  list(signal?: AbortSignal): Promise<Printer[]>;
  /** Hands the PDF to the print system; answers its job id (null when the system has none, e.g. SumatraPDF). */
  print(printer: Printer, request: PrintRequest): Promise<{ systemJobId: string | null }>;
  /** Where the job is; drivers that cannot tell answer `done` once the PDF was handed over. */
  status(printer: Printer, systemJobId: string | null): Promise<SystemJobState>;
  cancel?(printer: Printer, systemJobId: string): Promise<void>;
}

/** Paper sizes in millimetres (portrait), as the answer-card package prints them. */
export const PRINT_PAPER_MM: Record<Exclude<PrintPaper, 'auto'>, { w: number; h: number }> = {
  A4: { w: 210, h: 297 },
  A3: { w: 297, h: 420 },
  B5: { w: 176, h: 250 },
  B4: { w: 250, h: 353 },
  '16k': { w: 185, h: 260 },
};

/** PWG media names (IPP `media`, also understood by CUPS `-o media=`). */
export const PWG_MEDIA: Record<Exclude<PrintPaper, 'auto'>, string> = {
  A4: 'iso_a4_210x297mm',
  A3: 'iso_a3_297x420mm',
  B5: 'iso_b5_176x250mm',
  B4: 'iso_b4_250x353mm',
  '16k': 'custom_16k_185x260mm',
};

/**
 * The paper of PRINT_PAPERS a PWG, PPD or Windows media name stands for. Cards use ISO B4/B5: the PPD names `B4`/`B5`
 * and Windows' `B4 (JIS)` are the larger JIS sizes and do not count.
 */
export function paperOfMedia(name: string): Exclude<PrintPaper, 'auto'> | undefined {
  const n = name.toLowerCase().replace(/\s+/g, ' ').trim();
  if (n === 'a4' || n.startsWith('iso_a4_')) return 'A4';
  if (n === 'a3' || n.startsWith('iso_a3_')) return 'A3';
  if (n === 'isob5' || n === 'b5 (iso)' || n.startsWith('iso_b5_')) return 'B5';
  if (n === 'isob4' || n === 'b4 (iso)' || n.startsWith('iso_b4_')) return 'B4';
  if (/185 ?x ?260/.test(n)) return '16k';
  return undefined;
}
