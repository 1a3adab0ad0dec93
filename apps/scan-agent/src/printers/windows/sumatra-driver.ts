import type { Printer, PrinterState } from '@zhzy/contracts';
import { z } from 'zod';
import { T } from '../../i18n/zh-CN.js';
import { systemRunner, type ProcessResult, type ProcessRunner } from '../../scanners/process.js';
import { powershellArgs } from '../../scanners/windows/wia-driver.js';
import {
  PrintError,
  paperOfMedia,
  type PrintRequest,
  type PrinterDriverPort,
  type SystemJobState,
} from '../port.js';

export interface SumatraDriverOptions {
  /** SumatraPDF.exe (the one pdf-to-printer bundles, or an installed one). */
  sumatra: string;
  runner?: ProcessRunner;
  timeoutMs?: number;
}

/** Win32_Printer.PrinterStatus → our state (1 other, 2 unknown, 3 idle, 4 printing, 5 warm-up, 6 stopped, 7 offline). */
const WIN_STATES: Record<number, PrinterState> = {
  3: 'idle',
  4: 'printing',
  5: 'printing',
  6: 'stopped',
  7: 'stopped',
};

/** Lists printers as one JSON array (UTF-8, so Chinese printer names survive). */
export const WINDOWS_LIST_SCRIPT = [
  "$ErrorActionPreference = 'Stop'",
  '[Console]::OutputEncoding = [System.Text.Encoding]::UTF8',
  '$p = @(Get-CimInstance -ClassName Win32_Printer | Select-Object Name,Default,PrinterStatus,WorkOffline,CapabilityDescriptions,PrinterPaperNames)',
  '[Console]::Out.WriteLine((ConvertTo-Json -Compress -Depth 3 -InputObject $p))',
].join('\n');

/** One printer as the list script writes it (Win32_Printer's fields; PowerShell may leave any but Name null). */
const Win32PrinterSchema = z.object({
  Name: z.string(),
  Default: z.boolean().nullish(),
  PrinterStatus: z.number().nullish(),
  WorkOffline: z.boolean().nullish(),
  CapabilityDescriptions: z.array(z.string()).nullish(),
  PrinterPaperNames: z.array(z.string()).nullish(),
});
const Win32PrintersSchema = z.union([z.array(Win32PrinterSchema), Win32PrinterSchema]);

/** Parses the list script's output (a JSON array; PowerShell 5 writes a lone object without the array). */
export function parseWindowsPrinters(stdout: string): Printer[] {
  const text = stdout.replace(/^\uFEFF/, '').trim();
  if (!text) return [];
  const raw = Win32PrintersSchema.parse(JSON.parse(text));
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((p) => {
    const caps = p.CapabilityDescriptions ?? [];
    const papers = [...new Set((p.PrinterPaperNames ?? []).flatMap((n) => paperOfMedia(n) ?? []))];
    return {
      id: `windows:${p.Name}`,
      name: p.Name,
      driver: 'windows' as const,
      isDefault: p.Default === true,
      state: p.WorkOffline ? 'stopped' : (WIN_STATES[p.PrinterStatus ?? 2] ?? 'unknown'),
      stateMessage: p.WorkOffline ? T.printerOffline : null,
      duplex: caps.length ? caps.some((c) => /duplex/i.test(c)) : null,
      papers,
    };
  });
}

/** SumatraPDF's `-print-settings`: never scaled, sides, copies, paper. */
export function sumatraSettings(request: Pick<PrintRequest, 'copies' | 'duplex' | 'paper'>): string {
  const parts = ['noscale', request.duplex ? 'duplexlong' : 'simplex', `${request.copies}x`];
  if (request.paper) parts.push(`paper=${request.paper === '16k' ? '16K' : request.paper}`);
  return parts.join(',');
}

/** The SumatraPDF arguments of a request (what pdf-to-printer runs, with `noscale` always on). */
export function sumatraArgs(printerName: string, request: Omit<PrintRequest, 'signal'>): string[] {
  return [
    '-print-to',
    printerName,
    '-print-settings',
    sumatraSettings(request),
    '-silent',
    '-exit-when-done',
    request.file,
  ];
}

/**
 * Windows: printers from Win32_Printer through PowerShell, PDFs printed by SumatraPDF (what pdf-to-printer bundles,
 * run with an argument array, no shell). SumatraPDF hands the job to the spooler and exits: the job is then done for
 * the agent.
 */
export class SumatraDriver implements PrinterDriverPort {
  readonly kind = 'windows' as const;
  private readonly runner: ProcessRunner;

  constructor(private readonly options: SumatraDriverOptions) {
    this.runner = options.runner ?? systemRunner;
  }

  private failure(result: ProcessResult, what: string): PrintError {
    const err = `${result.stderr}\n${result.stdout}`.trim();
    if (result.code === -1 && /ENOENT/.test(err)) return new PrintError(T.printSumatraMissing, err);
    if (result.timedOut) return new PrintError(T.printSystemTimeout, err);
    if (/printer .*(does not exist|not found)|Invalid printer/i.test(err))
      return new PrintError(T.printerGone(what), err);
    return new PrintError(T.printFailed(err.split('\n')[0] || `exit ${result.code}`), err);
  }

  async list(signal?: AbortSignal): Promise<Printer[]> {
    const result = await this.runner.run('powershell.exe', powershellArgs(WINDOWS_LIST_SCRIPT), {
      timeoutMs: this.options.timeoutMs ?? 30_000,
      ...(signal ? { signal } : {}),
    });
    if (result.code !== 0) throw this.failure(result, '');
    try {
      return parseWindowsPrinters(result.stdout);
    } catch (error) {
      throw new PrintError(T.printerBadAnswer, error instanceof Error ? error.message : String(error));
    }
  }

  async print(printer: Printer, request: PrintRequest): Promise<{ systemJobId: string | null }> {
    const name = printer.id.slice('windows:'.length);
    const result = await this.runner.run(this.options.sumatra, sumatraArgs(name, request), {
      timeoutMs: this.options.timeoutMs ?? 5 * 60_000,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    if (result.code !== 0) throw this.failure(result, printer.name);
    return { systemJobId: null };
  }

  async status(): Promise<SystemJobState> {
    // SumatraPDF exits once the spooler has the job; Windows shows the rest in its own queue.
    return { state: 'done' };
  }
}
