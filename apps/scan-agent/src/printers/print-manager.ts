import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  AGENT_PRINT_HOST_PATHS,
  AGENT_PRINT_MAX_BYTES,
  type PrintFromHost,
  type PrintJob,
  type PrintOptions,
  type Printer,
} from '@zhzy/contracts';
import { hostMessage } from '../http-client.js';
import { T } from '../i18n/zh-CN.js';
import { AgentError } from '../scan/manager.js';
import { pdfFacts } from './pdf-facts.js';
import { PrintError, type PrinterDriverPort } from './port.js';

export interface PrintManagerOptions {
  drivers: PrinterDriverPort[];
  /** The agent's data folder: PDFs wait under `print/` until they are printed. */
  dataDir: string;
  /** Origins the agent may download from (the allowed web origins and host URLs). */
  allowedHosts: () => string[];
  /** How often a job's state is asked while it is in the printer's queue. */
  pollMs?: number;
  /** Give up following a job after this long (it stays in the print system's queue). */
  followMs?: number;
  downloadTimeoutMs?: number;
  log?: { warn: (obj: object, msg: string) => void };
}

const KEEP_JOBS = 50;
const FINAL = new Set<PrintJob['state']>(['done', 'failed', 'cancelled']);

class SizeLimit extends Error {}

/**
 * Print jobs of the agent: a PDF from the host (downloaded with the teacher's token) or from the page goes to disk,
 * is checked (a PDF, its pages and size), printed unscaled by its printer's driver and followed to the end. Every
 * change is emitted as `job` for the websocket.
 */
export class PrintManager extends EventEmitter<{ job: [PrintJob] }> {
  private readonly jobs = new Map<string, PrintJob>();
  private readonly aborts = new Map<string, AbortController>();
  private printers: Printer[] = [];
  private refreshedAt = new Date(0).toISOString();
  private listing: Promise<Printer[]> | undefined;
  private readonly dir: string;

  constructor(private readonly options: PrintManagerOptions) {
    super();
    this.dir = path.join(options.dataDir, 'print');
  }

  get refreshed(): string {
    return this.refreshedAt;
  }

  /** Every printer of every driver; a driver that fails (no CUPS here) adds none and is logged. */
  async list(refresh = false): Promise<Printer[]> {
    if (!refresh && this.printers.length && Date.now() - Date.parse(this.refreshedAt) < 30_000)
      return this.printers;
    this.listing ??= (async () => {
      const lists = await Promise.all(
        this.options.drivers.map((d) =>
          d.list().catch((error: unknown) => {
            this.options.log?.warn({ driver: d.kind, err: String(error) }, 'printer list failed');
            return [] as Printer[];
          }),
        ),
      );
      this.printers = lists.flat();
      this.refreshedAt = new Date().toISOString();
      return this.printers;
    })().finally(() => (this.listing = undefined));
    return this.listing;
  }

  /** A printer and its driver by id (the list is asked again once when the id is not known yet). */
  private async printer(id: string): Promise<{ printer: Printer; driver: PrinterDriverPort }> {
    let printer = (await this.list()).find((p) => p.id === id);
    if (!printer) printer = (await this.list(true)).find((p) => p.id === id);
    const driver = printer && this.options.drivers.find((d) => d.kind === printer.driver);
    if (!printer || !driver) throw new AgentError(404, T.printerNotFound);
    return { printer, driver };
  }

  listJobs(): PrintJob[] {
    return [...this.jobs.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  job(id: string): PrintJob {
    const job = this.jobs.get(id);
    if (!job) throw new AgentError(404, T.printJobNotFound);
    return job;
  }

  private update(id: string, patch: Partial<PrintJob>): PrintJob {
    const job = { ...this.job(id), ...patch, updatedAt: new Date().toISOString() };
    this.jobs.set(id, job);
    this.emit('job', job);
    return job;
  }

  private async create(options: PrintOptions, printer: Printer): Promise<PrintJob> {
    const now = new Date().toISOString();
    const job: PrintJob = {
      id: randomUUID(),
      printerId: printer.id,
      printerName: printer.name,
      title: options.title || T.printDefaultTitle,
      state: 'queued',
      copies: options.copies,
      duplex: options.duplex,
      paper: options.paper,
      pages: null,
      bytes: 0,
      totalBytes: null,
      systemJobId: null,
      message: null,
      createdAt: now,
      updatedAt: now,
    };
    this.jobs.set(job.id, job);
    for (const old of this.listJobs().slice(KEEP_JOBS)) if (FINAL.has(old.state)) this.jobs.delete(old.id);
    this.emit('job', job);
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    return job;
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.pdf`);
  }

  /** Checks where the PDF would come from before anything is created (the answer is the refusal). */
  private checkSource(source: PrintFromHost['source']): URL {
    const base = new URL(source.baseUrl);
    if (!this.options.allowedHosts().includes(base.origin)) throw new AgentError(403, T.hostNotAllowed);
    if (!AGENT_PRINT_HOST_PATHS.some((re) => re.test(source.path)))
      throw new AgentError(400, T.printPathRefused);
    return new URL(source.path, `${base.origin}/`);
  }

  /** Starts a job that downloads its PDF from the host; answers at once (queued), the rest follows as events. */
  async fromHost(input: PrintFromHost): Promise<PrintJob> {
    const url = this.checkSource(input.source);
    const { printer, driver } = await this.printer(input.printerId);
    const job = await this.create(input, printer);
    const abort = new AbortController();
    this.aborts.set(job.id, abort);
    void this.run(job.id, driver, printer, abort, async () => {
      this.update(job.id, { state: 'downloading' });
      await this.download(job.id, url, input.source, abort.signal);
    });
    return this.job(job.id);
  }

  /** Starts a job with the PDF the page sent. */
  async fromUpload(options: PrintOptions, data: Buffer): Promise<PrintJob> {
    if (!pdfFacts(data)) throw new AgentError(415, T.printNotPdf);
    const { printer, driver } = await this.printer(options.printerId);
    const job = await this.create(options, printer);
    const abort = new AbortController();
    this.aborts.set(job.id, abort);
    await fs.promises.writeFile(this.fileOf(job.id), data, { mode: 0o600 });
    this.update(job.id, { bytes: data.length, totalBytes: data.length });
    void this.run(job.id, driver, printer, abort, async () => undefined);
    return this.job(job.id);
  }

  async cancel(id: string): Promise<PrintJob> {
    const job = this.job(id);
    if (FINAL.has(job.state)) return job;
    this.aborts.get(id)?.abort();
    if (job.systemJobId) {
      const printer = this.printers.find((p) => p.id === job.printerId);
      const driver = printer && this.options.drivers.find((d) => d.kind === printer.driver);
      if (printer && driver?.cancel)
        await driver.cancel(printer, job.systemJobId).catch((error: unknown) => {
          this.options.log?.warn({ job: id, err: String(error) }, 'cancel in the print system failed');
        });
    }
    return this.update(id, { state: 'cancelled', message: T.printCancelled });
  }

  private async download(
    id: string,
    url: URL,
    source: PrintFromHost['source'],
    signal: AbortSignal,
  ): Promise<void> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${source.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(source.body ?? {}),
        redirect: 'error',
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.downloadTimeoutMs ?? 10 * 60_000)]),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new PrintError(T.printHostUnreachable, error instanceof Error ? error.message : String(error));
    }
    if (res.status !== 200 || !res.body) {
      const text = await res.text().catch(() => '');
      const said = hostMessage(text);
      if (res.status === 401) throw new PrintError(T.printHostSignIn, said);
      throw new PrintError(T.printDownloadFailed(said || `HTTP ${res.status}`), text.slice(0, 300));
    }
    const total = Number(res.headers.get('content-length'));
    if (Number.isFinite(total) && total > AGENT_PRINT_MAX_BYTES) throw new PrintError(T.printTooLarge);
    if (Number.isFinite(total) && total > 0) this.update(id, { totalBytes: total });
    let bytes = 0;
    let lastEmit = 0;
    const update = (n: number) => {
      bytes += n;
      if (bytes > AGENT_PRINT_MAX_BYTES) throw new SizeLimit();
      if (Date.now() - lastEmit > 200) {
        lastEmit = Date.now();
        this.update(id, { bytes });
      }
    };
    const body = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
    try {
      await pipeline(
        body,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            update(chunk.length);
            yield chunk;
          }
        },
        fs.createWriteStream(this.fileOf(id), { mode: 0o600 }),
        { signal },
      );
    } catch (error) {
      if (error instanceof SizeLimit) throw new PrintError(T.printTooLarge);
      if (signal.aborted) throw error;
      throw new PrintError(T.printHostUnreachable, error instanceof Error ? error.message : String(error));
    }
    this.update(id, { bytes, totalBytes: bytes });
  }

  /** Gets the PDF (`fetch`), checks it, prints it and follows it to the end; every failure ends in `failed`. */
  private async run(
    id: string,
    driver: PrinterDriverPort,
    printer: Printer,
    abort: AbortController,
    fetchPdf: () => Promise<void>,
  ): Promise<void> {
    const file = this.fileOf(id);
    try {
      await fetchPdf();
      const head = await readHeadAndTail(file);
      const facts = pdfFacts(head);
      if (!facts) throw new PrintError(T.printNotPdf);
      const job = this.job(id);
      const paper = job.paper === 'auto' ? facts.paper : job.paper;
      if (job.paper !== 'auto' && facts.paper && facts.paper !== job.paper)
        throw new PrintError(T.printPaperMismatch(facts.paper, job.paper));
      if (printer.papers.length && paper && !printer.papers.includes(paper))
        throw new PrintError(T.printerNoPaper(printer.name, paper));
      if (job.duplex && printer.duplex === false) throw new PrintError(T.printerNoDuplex(printer.name));
      this.update(id, { state: 'sending', pages: facts.pages, paper: paper ?? job.paper });
      const { systemJobId } = await driver.print(printer, {
        file,
        copies: job.copies,
        duplex: job.duplex,
        paper,
        title: job.title,
        signal: abort.signal,
      });
      if (abort.signal.aborted) return;
      this.update(id, { state: 'printing', systemJobId });
      await this.follow(id, driver, printer, systemJobId, abort.signal);
    } catch (error) {
      if (abort.signal.aborted || this.jobs.get(id)?.state === 'cancelled') return;
      const message = error instanceof PrintError ? error.message : T.printFailed(String(error));
      this.options.log?.warn(
        { job: id, err: error instanceof PrintError ? (error.detail ?? error.message) : String(error) },
        'print job failed',
      );
      this.update(id, { state: 'failed', message });
    } finally {
      this.aborts.delete(id);
      await fs.promises.rm(file, { force: true });
    }
  }

  private async follow(
    id: string,
    driver: PrinterDriverPort,
    printer: Printer,
    systemJobId: string | null,
    signal: AbortSignal,
  ): Promise<void> {
    const until = Date.now() + (this.options.followMs ?? 30 * 60_000);
    let unknown = 0;
    while (!signal.aborted && Date.now() < until) {
      const s = await driver.status(printer, systemJobId);
      if (s.state === 'done') {
        this.update(id, { state: 'done', message: null });
        return;
      }
      if (s.state === 'failed' || s.state === 'cancelled') {
        this.update(id, { state: s.state, message: s.message });
        return;
      }
      if (s.state === 'unknown' && ++unknown >= 5) {
        // The print system forgot the job (history off): it was handed over, which is all we can say.
        this.update(id, { state: 'done', message: T.printHandedOver });
        return;
      }
      if (s.state === 'printing' && this.job(id).state !== 'printing') this.update(id, { state: 'printing' });
      await new Promise((r) => setTimeout(r, this.options.pollMs ?? 1_000));
    }
    if (!signal.aborted) this.update(id, { state: 'done', message: T.printHandedOver });
  }

  close(): void {
    for (const a of this.aborts.values()) a.abort();
  }
}

/** The first and last 64 KB of a file: a PDF's header, its first page dictionary and its page tree are there. */
async function readHeadAndTail(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= 1 << 20) return await fs.promises.readFile(file);
    const head = Buffer.alloc(1 << 19);
    const tail = Buffer.alloc(1 << 19);
    await handle.read(head, 0, head.length, 0);
    await handle.read(tail, 0, tail.length, size - tail.length);
    return Buffer.concat([head, Buffer.from('\n'), tail]);
  } finally {
    await handle.close();
  }
}
