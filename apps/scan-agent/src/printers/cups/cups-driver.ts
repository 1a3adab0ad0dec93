import type { Printer } from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';
import { systemRunner, type ProcessResult, type ProcessRunner } from '../../scanners/process.js';
import { PrintError, type PrintRequest, type PrinterDriverPort, type SystemJobState } from '../port.js';
import {
  parseLpRequestId,
  parseLpoptions,
  parseLpstatDefault,
  parseLpstatJobs,
  parseLpstatPrinters,
} from './cups-parse.js';

export interface CupsDriverOptions {
  runner?: ProcessRunner;
  /** `host:port` of the CUPS scheduler (CUPS_SERVER); the system's own when absent. */
  server?: string;
  timeoutMs?: number;
}

/** CUPS media for `lp -o media=` (PPD names where CUPS has them, a custom size for 16k). */
const CUPS_MEDIA = { A4: 'A4', A3: 'A3', B5: 'ISOB5', B4: 'ISOB4', '16k': 'Custom.185x260mm' } as const;

const idOf = (queue: string) => `cups:${queue}`;

/**
 * CUPS on Linux and macOS: `lpstat` lists queues and jobs, `lpoptions` tells duplex and paper sizes, `lp` prints
 * with `print-scaling=none` (argument arrays, never a shell). Output is read in the C locale.
 */
export class CupsDriver implements PrinterDriverPort {
  readonly kind = 'cups' as const;
  private readonly runner: ProcessRunner;

  constructor(private readonly options: CupsDriverOptions = {}) {
    this.runner = options.runner ?? systemRunner;
  }

  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C', LANG: 'C' };
    if (this.options.server) env.CUPS_SERVER = this.options.server;
    return env;
  }

  private run(command: string, args: string[], signal?: AbortSignal): Promise<ProcessResult> {
    return this.runner.run(command, args, {
      timeoutMs: this.options.timeoutMs ?? 30_000,
      env: this.env(),
      ...(signal ? { signal } : {}),
    });
  }

  /** A failed CUPS command as a message for the teacher. */
  private failure(result: ProcessResult, printerName?: string): PrintError {
    const err = result.stderr;
    if (result.code === -1 && /ENOENT/.test(err)) return new PrintError(T.printCupsMissing, err);
    if (result.timedOut) return new PrintError(T.printSystemTimeout, err);
    if (/Unable to connect|Connection refused|scheduler is not running/i.test(err))
      return new PrintError(T.printCupsNotRunning, err);
    if (/does not exist|Unknown destination|not found/i.test(err))
      return new PrintError(T.printerGone(printerName ?? ''), err);
    if (/not accepting jobs/i.test(err)) return new PrintError(T.printerNotAccepting(printerName ?? ''), err);
    if (/Forbidden|not authorized|Unauthorized/i.test(err)) return new PrintError(T.printForbidden, err);
    return new PrintError(T.printFailed(err.trim().split('\n')[0] || `exit ${result.code}`), err);
  }

  async list(signal?: AbortSignal): Promise<Printer[]> {
    const printers = await this.run('lpstat', ['-l', '-p'], signal);
    // No queue at all: lpstat says so on stderr and exits non-zero.
    if (printers.code !== 0) {
      if (/No destinations added/i.test(printers.stderr) || printers.stdout.trim() === '') {
        if (printers.code === -1 || /Unable to connect|Connection refused/i.test(printers.stderr))
          throw this.failure(printers);
        return [];
      }
      throw this.failure(printers);
    }
    const queues = parseLpstatPrinters(printers.stdout);
    const fallback = await this.run('lpstat', ['-d'], signal);
    const defaultName = parseLpstatDefault(fallback.stdout);
    const result: Printer[] = [];
    for (const q of queues) {
      const opts = await this.run('lpoptions', ['-p', q.name, '-l'], signal);
      const { duplex, papers } = opts.code === 0 ? parseLpoptions(opts.stdout) : { duplex: null, papers: [] };
      result.push({
        id: idOf(q.name),
        name: q.description && q.description !== q.name ? q.description : q.name,
        driver: 'cups',
        isDefault: q.name === defaultName,
        state: q.state,
        stateMessage: q.reason,
        duplex,
        papers: papers.filter((p) => p !== 'auto'),
      });
    }
    return result;
  }

  /** The `lp` arguments of a request (exported for the tests of their building). */
  static lpArgs(queue: string, request: Omit<PrintRequest, 'signal'>): string[] {
    const args = ['-d', queue, '-n', String(request.copies), '-t', request.title];
    // Never scale: the recogniser reads the card's printed geometry back.
    args.push('-o', 'print-scaling=none', '-o', 'fit-to-page=false');
    args.push('-o', request.duplex ? 'sides=two-sided-long-edge' : 'sides=one-sided');
    if (request.paper) args.push('-o', `media=${CUPS_MEDIA[request.paper]}`);
    if (request.copies > 1) args.push('-o', 'collate=true');
    // `--` ends the options: a file name can never be read as one.
    args.push('--', request.file);
    return args;
  }

  async print(printer: Printer, request: PrintRequest): Promise<{ systemJobId: string | null }> {
    const queue = printer.id.slice('cups:'.length);
    const result = await this.run('lp', CupsDriver.lpArgs(queue, request), request.signal);
    if (result.code !== 0) throw this.failure(result, printer.name);
    const id = parseLpRequestId(result.stdout);
    if (!id) throw new PrintError(T.printFailed(result.stdout.trim() || 'lp'), result.stdout);
    return { systemJobId: id };
  }

  async status(printer: Printer, systemJobId: string | null): Promise<SystemJobState> {
    if (!systemJobId) return { state: 'unknown' };
    const queue = printer.id.slice('cups:'.length);
    const open = await this.run('lpstat', ['-l', '-W', 'not-completed', '-o', queue]);
    if (open.code === 0 && parseLpstatJobs(open.stdout).some((j) => j.id === systemJobId)) {
      const printers = await this.run('lpstat', ['-p', queue]);
      return printers.stdout.includes(`now printing ${systemJobId}`)
        ? { state: 'printing' }
        : { state: 'pending' };
    }
    const done = await this.run('lpstat', ['-l', '-W', 'completed', '-o', queue]);
    const job = parseLpstatJobs(done.stdout).find((j) => j.id === systemJobId);
    if (!job) return { state: 'unknown' };
    if (job.alerts && /aborted/i.test(job.alerts)) return { state: 'failed', message: T.printAborted };
    if (job.alerts && /canceled|cancelled/i.test(job.alerts))
      return { state: 'cancelled', message: T.printCancelled };
    return { state: 'done' };
  }

  async cancel(_printer: Printer, systemJobId: string): Promise<void> {
    await this.run('cancel', [systemJobId]);
  }
}
