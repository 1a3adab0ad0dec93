import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadSharp } from '../pages/sharp-lazy.js';
import type {
  AgentBatch,
  AgentBatchDetail,
  ColorMode,
  HostTarget,
  ScanEventKind,
  ScannerCapabilities,
  ScannerSource,
  ScanNotice,
  ScanPaperSource,
  StartScan,
  WsServerMessage,
} from '@zhzy/contracts';
import { AGENT_PROTOCOL_VERSION } from '@zhzy/contracts';
import { T } from '../i18n/zh-CN.js';
import { normalisePage } from '../pages/normalise.js';
import { PAPER_MM, ScannerError, type RawPage, type Scanner, type ScanRequest } from '../scanners/port.js';
import { fsyncFile, isNoSpace, writeFileDurable } from '../spool/durable.js';
import type { BatchJournal, Spool } from '../spool/spool.js';
import type { Uploader } from '../spool/uploader.js';

/** An error the REST layer answers with its status and Chinese message. */
export class AgentError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

/** A page the device delivered that could not be made durable (a full disk): not acknowledged, held to write later. */
interface HeldPage {
  raw: RawPage;
  /** Its raw file's name in `raw/` when the raw bytes did reach the disk. */
  rawName?: string;
}

/** The spool's disk is full: the page in `held` was not acknowledged. */
class SpoolFullError extends Error {
  constructor(readonly held: HeldPage) {
    super('spool disk full');
  }
}

interface Device {
  source: ScannerSource;
  scanner: Scanner;
  nativeId: string;
}

export interface ManagerOptions {
  scanners: readonly Scanner[];
  spool: Spool;
  uploader: Uploader;
  /** Origins (scheme://host:port) the agent may upload to. */
  allowedHosts: () => readonly string[];
  log: {
    info: (obj: object, msg: string) => void;
    warn: (obj: object, msg: string) => void;
    error: (obj: object, msg: string) => void;
  };
  /** Longest one driver may take to list its devices. */
  listTimeoutMs?: number;
}

type Emitted = WsServerMessage;
const v = AGENT_PROTOCOL_VERSION;

/**
 * Runs scans: keeps the numbered device list (SPEC: id = index, text = name), starts batches only on a selectable
 * index, streams each driver's pages through normalisation into the spool (on the disk before anyone hears of them),
 * hands them to the uploader, and tells listeners (the websocket) about every step.
 */
export class ScanManager extends EventEmitter<{ message: [Emitted] }> {
  private devices: Device[] = [];
  private refreshedAt = new Date(0).toISOString();
  private listing: Promise<void> | undefined;
  private readonly batches = new Map<string, BatchJournal>();
  /** Per batch: pages delivered while the disk was full, in order, written before the batch takes any new page. */
  private readonly held = new Map<string, HeldPage[]>();
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void>; deviceId: string }
  >();

  constructor(private readonly options: ManagerOptions) {
    super();
  }

  private send(message: Emitted): void {
    this.emit('message', message);
  }

  /** Loads the spool: interrupted batches become paused, raw pages left by a crash are finished, uploads resume. */
  async init(): Promise<void> {
    for (const batch of await this.options.spool.load()) {
      this.batches.set(batch.id, batch);
      if (batch.state === 'scanning') {
        await batch.record({
          t: 'state',
          state: 'paused',
          notice: this.notice('interrupted', T.interrupted),
          at: new Date().toISOString(),
        });
      }
      const left = (await this.options.spool.unprocessedRaw(batch)).map((raw) => ({
        raw: { name: raw.replace(/^\d{5}__/, ''), file: path.join(batch.rawDir, raw) },
        rawName: raw,
      }));
      this.held.set(batch.id, left);
      await this.writeHeld(batch).catch((error: unknown) => {
        // Still no room: the raw pages stay on the disk and held, written when the teacher resumes.
        if (!(error instanceof AgentError)) throw error;
      });
      this.options.uploader.enqueueBatch(batch);
    }
  }

  private notice(kind: ScanEventKind, message: string): ScanNotice {
    return { kind, message, at: new Date().toISOString() };
  }

  // ------------------------------------------------------------------------------------------------------------
  // Devices

  /** The numbered scanner list; looked up again when asked or when empty. */
  async sources(refresh = false): Promise<ScannerSource[]> {
    if (refresh || this.devices.length === 0) {
      this.listing ??= this.refresh().finally(() => (this.listing = undefined));
      await this.listing;
    }
    return this.devices.map((d) => d.source);
  }

  get refreshed(): string {
    return this.refreshedAt;
  }

  private async refresh(): Promise<void> {
    const timeout = this.options.listTimeoutMs ?? 20_000;
    const found = await Promise.all(
      this.options.scanners.map(async (scanner) => {
        try {
          const list = await scanner.list(AbortSignal.timeout(timeout));
          const withCaps = await Promise.all(
            list.map(async (d) => ({
              d,
              caps: await scanner.capabilities(d.id, AbortSignal.timeout(timeout)).catch(() => null),
            })),
          );
          return withCaps.map(({ d, caps }) => ({ scanner, d, caps }));
        } catch (error) {
          this.options.log.warn({ driver: scanner.driver, err: error }, 'listing scanners failed');
          return [];
        }
      }),
    );
    const devices: Device[] = [];
    for (const { scanner, d, caps } of found.flat()) {
      devices.push({
        scanner,
        nativeId: d.id,
        source: {
          id: devices.length,
          text: d.name,
          deviceId: `${scanner.driver}:${d.id}`,
          driver: scanner.driver,
          feeder: caps ? caps.sources.some((s) => s !== 'flatbed') : false,
          duplex: caps ? caps.sources.includes('feederDuplex') : false,
        },
      });
    }
    this.devices = devices;
    this.refreshedAt = new Date().toISOString();
    this.send({ v, type: 'sources', sources: devices.map((x) => x.source) });
  }

  private device(index: number): Device {
    const d = this.devices[index];
    // SPEC §5: a scan starts only if a source exists and the chosen index can be selected.
    if (!d) throw new AgentError(409, T.reselectScanner);
    return d;
  }

  async capabilities(index: number): Promise<{ source: ScannerSource; capabilities: ScannerCapabilities }> {
    await this.sources();
    const d = this.device(index);
    try {
      return {
        source: d.source,
        capabilities: await d.scanner.capabilities(d.nativeId, AbortSignal.timeout(20_000)),
      };
    } catch {
      throw new AgentError(409, T.reselectScanner);
    }
  }

  // ------------------------------------------------------------------------------------------------------------
  // Batches

  private checkHost(host: HostTarget | undefined): void {
    if (!host) return;
    const origin = new URL(host.baseUrl).origin;
    if (!this.options.allowedHosts().some((h) => h === origin)) throw new AgentError(403, T.hostNotAllowed);
  }

  async start(input: StartScan): Promise<AgentBatch> {
    this.checkHost(input.host);
    await this.sources();
    const device = this.device(input.settings.scannerIndex);
    if (input.virtual && device.source.driver !== 'virtual') throw new AgentError(400, T.virtualOnly);
    if ([...this.running.values()].some((r) => r.deviceId === device.source.deviceId))
      throw new AgentError(409, T.scannerBusy);
    const batch = await this.options.spool.create({
      id: randomUUID(),
      settings: input.settings,
      source: device.source,
      host: input.host ?? null,
      createdAt: new Date().toISOString(),
    });
    this.batches.set(batch.id, batch);
    this.send({ v, type: 'batch', batch: batch.summary() });
    this.acquire(batch, device, input.virtual);
    return batch.summary();
  }

  private get(id: string): BatchJournal {
    const batch = this.batches.get(id);
    if (!batch) throw new AgentError(404, T.batchNotFound);
    return batch;
  }

  /** Stops acquiring after the current page; the batch can resume. */
  async pause(id: string): Promise<AgentBatch> {
    const batch = this.get(id);
    await this.stopAcquiring(batch);
    return batch.summary();
  }

  /** Scans more sheets into the same batch (after feeder empty, a jam or a pause). */
  async resume(id: string, virtual?: StartScan['virtual']): Promise<AgentBatch> {
    const batch = this.get(id);
    if (batch.state === 'done') throw new AgentError(409, T.batchDone);
    if (this.running.has(id)) throw new AgentError(409, T.batchScanning);
    await this.sources();
    const device = this.devices.find((d) => d.source.deviceId === batch.header.source.deviceId);
    if (!device) throw new AgentError(409, T.reselectScanner);
    if ([...this.running.values()].some((r) => r.deviceId === device.source.deviceId))
      throw new AgentError(409, T.scannerBusy);
    await this.writeHeld(batch);
    await this.spaceFor(() =>
      batch.record({ t: 'state', state: 'scanning', notice: null, at: new Date().toISOString() }),
    );
    this.send({ v, type: 'batch', batch: batch.summary() });
    this.acquire(batch, device, virtual);
    return batch.summary();
  }

  /**
   * Scans one sheet again: the pages the scanner delivers next replace the sheet of page `seq` in place (on the host
   * too) — both sides of a duplex sheet, front then back. Works on a paused or finished batch; the batch is paused
   * again once the sheet is in.
   */
  async rescan(id: string, seq: number, virtual?: StartScan['virtual']): Promise<AgentBatch> {
    const batch = this.get(id);
    if (this.running.has(id)) throw new AgentError(409, T.batchScanning);
    if (!batch.page(seq)) throw new AgentError(404, T.pageNotFound);
    await this.sources();
    const device = this.devices.find((d) => d.source.deviceId === batch.header.source.deviceId);
    if (!device) throw new AgentError(409, T.reselectScanner);
    if ([...this.running.values()].some((r) => r.deviceId === device.source.deviceId))
      throw new AgentError(409, T.scannerBusy);
    await this.writeHeld(batch);
    const at = new Date().toISOString();
    await this.spaceFor(async () => {
      await batch.record({ t: 'rescan', seq, seqs: batch.sheetOf(seq), at });
      await batch.record({ t: 'state', state: 'scanning', notice: null, at });
    });
    this.send({ v, type: 'batch', batch: batch.summary() });
    // The virtual scanner's feeder holds the class (its sheets so far stay fed); only the next sheet is taken.
    const sheet =
      device.source.driver === 'virtual' ? { sheets: 200, pageIntervalMs: 0, seed: 1, ...virtual } : virtual;
    // Without a script, the virtual scanner feeds the same sheet again (the one the teacher would put back in).
    this.acquire(batch, device, sheet, { once: true, ...(virtual ? {} : { again: batch.sheetOf(seq) }) });
    return batch.summary();
  }

  /** Closes the batch: acquisition stops; its pages stay and keep uploading. */
  async finish(id: string): Promise<AgentBatch> {
    const batch = this.get(id);
    await this.stopAcquiring(batch);
    // A page held back by a full disk is part of the batch: the batch closes only once it is on the disk.
    await this.writeHeld(batch);
    if (batch.state !== 'done')
      await this.spaceFor(() =>
        batch.record({ t: 'state', state: 'done', notice: batch.notice, at: new Date().toISOString() }),
      );
    this.send({ v, type: 'batch', batch: batch.summary() });
    return batch.summary();
  }

  async updateHost(id: string, host: HostTarget): Promise<AgentBatch> {
    this.checkHost(host);
    const batch = this.get(id);
    await batch.record({ t: 'host', host, at: new Date().toISOString() });
    return this.retry(id);
  }

  /** Sends failed pages again (after the teacher fixed what the host refused, or with a new upload token). */
  async retry(id: string): Promise<AgentBatch> {
    const batch = this.get(id);
    for (const page of batch.listPages()) {
      if (page.upload === 'failed')
        await batch.record({ t: 'retry', seq: page.seq, at: new Date().toISOString() });
    }
    this.options.uploader.enqueueBatch(batch);
    this.send({ v, type: 'batch', batch: batch.summary() });
    return batch.summary();
  }

  list(): AgentBatch[] {
    return [...this.batches.values()]
      .map((b) => b.summary())
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  detail(id: string): AgentBatchDetail {
    const batch = this.get(id);
    return { batch: batch.summary(), pages: batch.listPages() };
  }

  async pageImage(id: string, seq: number, thumb: boolean): Promise<Buffer> {
    const batch = this.get(id);
    if (!batch.page(seq)) throw new AgentError(404, T.pageNotFound);
    const data = await fs.readFile(batch.pagePath(seq));
    if (!thumb) return data;
    const sharp = await loadSharp();
    return sharp(data).resize({ height: 400 }).jpeg({ quality: 70 }).toBuffer();
  }

  /** Resolves when a batch stops acquiring (tests, the CLI). */
  async settled(id: string): Promise<void> {
    await this.running.get(id)?.done;
  }

  async close(): Promise<void> {
    for (const [, r] of this.running) r.controller.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
    await Promise.all([...this.batches.values()].map((b) => b.close()));
  }

  /** Runs a journal write a teacher asked for; a full disk answers 507 with the Chinese reason. */
  private async spaceFor(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isNoSpace(error)) throw new AgentError(507, T.spoolFull);
      throw error;
    }
  }

  /** Writes the pages a full disk held back, in order; while the disk is still full they stay held (507). */
  private async writeHeld(batch: BatchJournal): Promise<void> {
    const held = this.held.get(batch.id);
    while (held?.length) {
      const page = held[0]!;
      try {
        await this.ingest(batch, page.raw, page.rawName);
      } catch (error) {
        if (error instanceof SpoolFullError) {
          await this.report(batch, this.notice('error', T.spoolFull));
          throw new AgentError(507, T.spoolFull);
        }
        throw error;
      }
      held.shift();
    }
    this.held.delete(batch.id);
  }

  private async stopAcquiring(batch: BatchJournal): Promise<void> {
    const r = this.running.get(batch.id);
    if (!r) return;
    r.controller.abort();
    await r.done;
  }

  /** What one run asks of the device, with the settings fitted to what it offers. */
  private async request(
    batch: BatchJournal,
    device: Device,
    virtual: StartScan['virtual'],
  ): Promise<ScanRequest> {
    const s = batch.header.settings;
    const caps = await device.scanner.capabilities(device.nativeId).catch(() => null);
    const offered = caps?.sources ?? ['flatbed'];
    const wanted: ScanPaperSource[] = s.feeder
      ? s.duplex
        ? ['feederDuplex', 'feeder', 'flatbed']
        : ['feeder', 'flatbed']
      : ['flatbed', 'feeder'];
    const source = wanted.find((w) => offered.includes(w)) ?? offered[0] ?? 'flatbed';
    const modes: ColorMode[] = caps?.colorModes.length ? caps.colorModes : ['color'];
    const colorMode = modes.includes(s.colorMode) ? s.colorMode : (modes[0] ?? 'color');
    return {
      source,
      colorMode,
      resolution: s.resolution,
      paper: s.adaptive ? null : (PAPER_MM[s.paperSize] ?? null),
      workDir: batch.rawDir,
      startNumber: batch.nextSeq(),
      ...(virtual ? { virtual } : {}),
    };
  }

  private acquire(
    batch: BatchJournal,
    device: Device,
    virtual: StartScan['virtual'],
    options: { once?: boolean; again?: number[] } = {},
  ): void {
    const controller = new AbortController();
    const deviceId = device.source.deviceId;
    const done = (async () => {
      this.send({ v, type: 'device', deviceId, state: 'scanning', message: null });
      let failure: ScanNotice | null = null;
      let taken = 0;
      try {
        const request = await this.request(batch, device, virtual);
        if (options.again) request.again = options.again;
        for await (const event of device.scanner.scan(device.nativeId, request, controller.signal)) {
          if (event.type === 'page') {
            try {
              await this.ingest(batch, event.page);
            } catch (error) {
              if (!(error instanceof SpoolFullError)) throw error;
              // Not acknowledged: the page is held, the device stops, the teacher hears why.
              const held = this.held.get(batch.id) ?? [];
              held.push(error.held);
              this.held.set(batch.id, held);
              failure = this.notice('error', T.spoolFull);
              this.options.log.error({ batch: batch.id, held: held.length }, 'spool disk full; batch paused');
              controller.abort();
              await this.report(batch, failure);
              break;
            }
            taken++;
            // A rescan takes one sheet (its pages), then the device stops.
            if (options.once && batch.rescanSeq === null) {
              controller.abort();
              break;
            }
          } else await this.report(batch, this.notice(event.kind, event.message));
        }
      } catch (error) {
        if (!controller.signal.aborted) {
          failure = this.notice(
            error instanceof ScannerError ? error.kind : 'error',
            error instanceof ScannerError
              ? error.message
              : T.scanFailed(error instanceof Error ? error.message : String(error)),
          );
          this.options.log.error({ err: error, batch: batch.id }, 'scan failed');
          await this.report(batch, failure);
        }
      } finally {
        // A sheet that came back with fewer sides than it had (a simplex device now): the sides left keep their scan.
        if (options.once && taken > 0 && batch.rescanSeqs.length > 0 && !this.held.has(batch.id))
          await batch.record({
            t: 'rescan',
            seq: batch.rescanSeqs[0]!,
            seqs: [],
            at: new Date().toISOString(),
          });
        this.running.delete(batch.id);
        if (batch.state === 'scanning')
          await batch.recordState({
            t: 'state',
            state: 'paused',
            notice: batch.notice,
            at: new Date().toISOString(),
          });
        this.send({ v, type: 'batch', batch: batch.summary() });
        const error = failure && failure.kind !== 'feederEmpty';
        this.send({
          v,
          type: 'device',
          deviceId,
          state: error ? 'error' : 'idle',
          message: error ? failure!.message : null,
        });
      }
    })();
    this.running.set(batch.id, { controller, done, deviceId });
  }

  private async report(batch: BatchJournal, notice: ScanNotice): Promise<void> {
    await batch.recordState({ t: 'state', state: batch.state, notice, at: notice.at });
    this.send({ v, type: 'notice', batchId: batch.id, notice });
  }

  /**
   * One page from the device: its raw bytes are made durable first (a page the scanner already ejected is never
   * lost), then normalised, written to the spool and journaled; only then is it announced and queued for upload.
   */
  private async ingest(batch: BatchJournal, raw: RawPage, rawName?: string): Promise<void> {
    let name = rawName;
    let file = raw.file;
    if (!file) {
      name = `${String(batch.nextSeq()).padStart(5, '0')}__${raw.name.replace(/[^\w.\-\u4e00-\u9fff]/g, '_')}`;
      file = path.join(batch.rawDir, name);
      try {
        await writeFileDurable(file, raw.data ?? Buffer.alloc(0));
      } catch (error) {
        if (isNoSpace(error)) throw new SpoolFullError({ raw });
        throw error;
      }
    } else {
      name ??= path.basename(file);
      await fsyncFile(file).catch(() => undefined);
    }
    const settings = batch.header.settings;
    let normalised;
    try {
      normalised = await normalisePage(file, {
        paperSize: settings.paperSize,
        adaptive: settings.adaptive,
        autoDeskew: settings.autoDeskew,
        ...(raw.dpi ? { dpi: raw.dpi } : {}),
      });
    } catch (error) {
      // Kept aside for a person to look at, never silently dropped.
      await fs.mkdir(batch.rejectedDir, { recursive: true });
      await fs.rename(file, path.join(batch.rejectedDir, name)).catch(() => undefined);
      this.options.log.warn({ err: error, batch: batch.id, file: name }, 'page could not be decoded');
      await this.report(batch, this.notice('error', `${T.pageUnreadable}（${raw.name}）`));
      return;
    }
    const facts = {
      name: raw.name.replace(/\.[^.]*$/, '') + '.jpg',
      rawName: name,
      side: raw.side ?? null,
      width: normalised.width,
      height: normalised.height,
      dpi: normalised.dpi,
      sha256: normalised.sha256,
      blank: normalised.blank,
      skewDeg: normalised.skewDeg,
    };
    let record;
    try {
      record =
        batch.rescanSeq !== null
          ? await batch.replacePage(batch.rescanSeq, normalised.jpeg, facts)
          : await batch.addPage(normalised.jpeg, facts);
    } catch (error) {
      // Its raw bytes are on the disk (a restart would finish the page from them); held until there is room.
      if (isNoSpace(error))
        throw new SpoolFullError({
          raw: {
            name: raw.name,
            file,
            ...(raw.side ? { side: raw.side } : {}),
            ...(raw.dpi ? { dpi: raw.dpi } : {}),
          },
          rawName: name,
        });
      throw error;
    }
    await fs.rm(file, { force: true });
    this.send({ v, type: 'page', page: batch.page(record.seq)! });
    this.send({ v, type: 'batch', batch: batch.summary() });
    this.options.uploader.enqueue(batch, record.seq);
  }
}
