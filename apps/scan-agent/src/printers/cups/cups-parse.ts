import type { PrintPaper, PrinterState } from '@zhzy/contracts';
import { paperOfMedia } from '../port.js';

/** One queue of `lpstat -l -p` (run with LC_ALL=C). */
export interface CupsQueue {
  name: string;
  description: string | null;
  location: string | null;
  state: PrinterState;
  enabled: boolean;
  /** The line under the printer line: the printer's or the administrator's reason (paper jam, toner low …). */
  reason: string | null;
  /** `now printing QUEUE-12`: the job on the printer. */
  printingJob: string | null;
}

const PRINTER_LINE = /^printer (\S+) (?:is (idle)|(disabled)|now printing (\S+?))\.?\s/;

/** Parses `lpstat -l -p`: the printer lines and their tab-indented detail lines. */
export function parseLpstatPrinters(text: string): CupsQueue[] {
  const queues: CupsQueue[] = [];
  let current: CupsQueue | undefined;
  let firstDetail = false;
  for (const line of text.split(/\r?\n/)) {
    const m = PRINTER_LINE.exec(`${line} `);
    if (m) {
      const disabled = Boolean(m[3]) || / disabled since /.test(line);
      current = {
        name: m[1]!,
        description: null,
        location: null,
        state: disabled ? 'stopped' : m[4] ? 'printing' : 'idle',
        enabled: !disabled,
        reason: null,
        printingJob: m[4] ?? null,
      };
      queues.push(current);
      firstDetail = true;
      continue;
    }
    if (!current || !line.startsWith('\t')) continue;
    const detail = line.trim();
    const field = /^([A-Za-z ]+):\s?(.*)$/.exec(detail);
    if (firstDetail && !field && detail) current.reason = detail;
    firstDetail = false;
    if (!field) continue;
    if (field[1] === 'Description') current.description = field[2]!.trim() || null;
    if (field[1] === 'Location') current.location = field[2]!.trim() || null;
  }
  return queues;
}

/** `system default destination: NAME` of `lpstat -d`, or null. */
export function parseLpstatDefault(text: string): string | null {
  return /system default destination:\s*(\S+)/.exec(text)?.[1] ?? null;
}

/** Duplex support and paper sizes from `lpoptions -p NAME -l`. */
export function parseLpoptions(text: string): { duplex: boolean | null; papers: PrintPaper[] } {
  let duplex: boolean | null = null;
  const papers = new Set<PrintPaper>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([^/:]+)(?:\/[^:]*)?:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.trim();
    const values = m[2]!.split(/\s+/).map((v) => v.replace(/^\*/, ''));
    if (key === 'Duplex' || key === 'sides')
      duplex = values.some((v) => /DuplexNoTumble|DuplexTumble|two-sided/i.test(v));
    if (key === 'PageSize' || key === 'media')
      for (const v of values) {
        const paper = paperOfMedia(v);
        if (paper) papers.add(paper);
      }
  }
  return { duplex, papers: [...papers] };
}

/** The job id of `lp`'s answer (`request id is QUEUE-12 (1 file(s))`). */
export function parseLpRequestId(text: string): string | null {
  return /request id is (\S+)/.exec(text)?.[1] ?? null;
}

/** One job of `lpstat -l -W … -o`: its id and its Alerts line. */
export interface CupsJobLine {
  id: string;
  alerts: string | null;
}

export function parseLpstatJobs(text: string): CupsJobLine[] {
  const jobs: CupsJobLine[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^(\S+-\d+)\s+\S+\s+\d+\s/.exec(line);
    if (m) {
      jobs.push({ id: m[1]!, alerts: null });
      continue;
    }
    const alerts = /^\s+Alerts:\s*(.*)$/.exec(line);
    const last = jobs.at(-1);
    if (alerts && last) last.alerts = alerts[1]!.trim() || null;
  }
  return jobs;
}
