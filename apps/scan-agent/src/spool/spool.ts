import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadSharp } from '../pages/sharp-lazy.js';
import { z } from 'zod';
import {
  BatchStateSchema,
  HostTargetSchema,
  ScannerSourceSchema,
  ScanNoticeSchema,
  ScanSettingsSchema,
  sheetOfPage,
} from '@zhzy/contracts';
import type {
  AgentBatch,
  AgentPage,
  BatchState,
  HostTarget,
  ScannerSource,
  ScanNotice,
  ScanSettings,
} from '@zhzy/contracts';
import { DurableLog, fsyncDir, isNoSpace, writeFileDurable } from './durable.js';

/** A page as the journal records it, once its JPEG is on the disk. */
export interface PageRecord {
  seq: number;
  name: string;
  /** Name of the raw file it came from in `raw/` (recovery uses it to tell done from undone). */
  rawName: string | null;
  side: 'front' | 'back' | null;
  width: number;
  height: number;
  dpi: number;
  bytes: number;
  sha256: string;
  blank: boolean;
  skewDeg: number;
  createdAt: string;
  /** A rescan that replaced the page at `seq` (uploaded with `replaces`, so the host swaps it in place). */
  replaces?: boolean;
}

export interface BatchHeader {
  id: string;
  settings: ScanSettings;
  source: ScannerSource;
  host: HostTarget | null;
  createdAt: string;
}

/** One line of a batch journal. */
export type JournalRecord =
  | { t: 'batch'; batch: BatchHeader }
  | { t: 'page'; page: PageRecord }
  | { t: 'uploaded'; seq: number; hostPageId: string; at: string }
  | { t: 'uploadFailed'; seq: number; message: string; at: string }
  | { t: 'retry'; seq: number; at: string }
  /**
   * The next pages scanned replace `seqs` in order (both sides of a duplex sheet), or just `seq` in journals written
   * before sheets were rescanned whole; each replacing `page` record takes its place off the list. An empty `seqs`
   * drops what is left (a rescan that ended after one side).
   */
  | { t: 'rescan'; seq: number; seqs?: number[]; at: string }
  | { t: 'host'; host: HostTarget; at: string }
  | { t: 'state'; state: BatchState; notice: ScanNotice | null; at: string };

const PageRecordSchema: z.ZodType<PageRecord> = z.object({
  seq: z.number().int(),
  name: z.string(),
  rawName: z.string().nullable(),
  side: z.enum(['front', 'back']).nullable(),
  width: z.number(),
  height: z.number(),
  dpi: z.number(),
  bytes: z.number(),
  sha256: z.string(),
  blank: z.boolean(),
  skewDeg: z.number(),
  createdAt: z.string(),
  replaces: z.boolean().optional(),
});

/** A journal line as it is read back: by the same contract schemas the agent checked before writing it. */
const JournalRecordSchema: z.ZodType<JournalRecord> = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('batch'),
    batch: z.object({
      id: z.string(),
      settings: ScanSettingsSchema,
      source: ScannerSourceSchema,
      host: HostTargetSchema.nullable(),
      createdAt: z.string(),
    }),
  }),
  z.object({ t: z.literal('page'), page: PageRecordSchema }),
  z.object({ t: z.literal('uploaded'), seq: z.number(), hostPageId: z.string(), at: z.string() }),
  z.object({ t: z.literal('uploadFailed'), seq: z.number(), message: z.string(), at: z.string() }),
  z.object({ t: z.literal('retry'), seq: z.number(), at: z.string() }),
  z.object({ t: z.literal('rescan'), seq: z.number(), seqs: z.array(z.number()).optional(), at: z.string() }),
  z.object({ t: z.literal('host'), host: HostTargetSchema, at: z.string() }),
  z.object({
    t: z.literal('state'),
    state: BatchStateSchema,
    notice: ScanNoticeSchema.nullable(),
    at: z.string(),
  }),
]);

interface PageState extends PageRecord {
  hostPageId: string | null;
  uploadError: string | null;
}

const PAGE_FILE = /^(\d{5,})\.jpg$/;
const pageFile = (seq: number) => `${String(seq).padStart(5, '0')}.jpg`;

/**
 * A batch on the disk: `journal.ndjson` (append-only, fsynced per line), `pages/NNNNN.jpg` (each written durably
 * before its journal line) and `raw/` (what the scanner delivered, removed once its page is journaled).
 */
export class BatchJournal {
  readonly pagesDir: string;
  readonly rawDir: string;
  readonly rejectedDir: string;
  private readonly log: DurableLog;
  header: BatchHeader;
  state: BatchState = 'paused';
  notice: ScanNotice | null = null;
  updatedAt: string;
  /** The pages waiting for their rescan, in the order the scanner delivers them (a duplex sheet: front, back). */
  rescanSeqs: number[] = [];
  readonly pages = new Map<number, PageState>();

  constructor(
    readonly dir: string,
    header: BatchHeader,
  ) {
    this.header = header;
    this.updatedAt = header.createdAt;
    this.pagesDir = path.join(dir, 'pages');
    this.rawDir = path.join(dir, 'raw');
    this.rejectedDir = path.join(dir, 'rejected');
    this.log = new DurableLog(path.join(dir, 'journal.ndjson'));
  }

  get id(): string {
    return this.header.id;
  }

  /** The page the next scanned page replaces, or null when scanning adds pages. */
  get rescanSeq(): number | null {
    return this.rescanSeqs[0] ?? null;
  }

  /** The pages a rescan of page `seq` replaces: its whole sheet (both sides of a duplex sheet). */
  sheetOf(seq: number): number[] {
    return sheetOfPage((n) => this.pages.get(n)?.side, seq);
  }

  /** Applies a record to the in-memory state (replay and live). */
  apply(record: JournalRecord): void {
    switch (record.t) {
      case 'batch':
        this.header = record.batch;
        break;
      case 'page':
        this.pages.set(record.page.seq, { ...record.page, hostPageId: null, uploadError: null });
        this.updatedAt = record.page.createdAt;
        if (record.page.replaces && this.rescanSeqs[0] === record.page.seq) this.rescanSeqs.shift();
        break;
      case 'rescan':
        this.rescanSeqs = record.seqs ? [...record.seqs] : [record.seq];
        break;
      case 'uploaded': {
        const p = this.pages.get(record.seq);
        if (p) Object.assign(p, { hostPageId: record.hostPageId, uploadError: null });
        break;
      }
      case 'uploadFailed': {
        const p = this.pages.get(record.seq);
        if (p && !p.hostPageId) p.uploadError = record.message;
        break;
      }
      case 'retry': {
        const p = this.pages.get(record.seq);
        if (p) p.uploadError = null;
        break;
      }
      case 'host':
        this.header = { ...this.header, host: record.host };
        break;
      case 'state':
        this.state = record.state;
        this.notice = record.notice;
        this.updatedAt = record.at;
        break;
    }
  }

  async record(record: JournalRecord): Promise<void> {
    await this.log.append(JSON.stringify(record));
    this.apply(record);
  }

  /**
   * Records a state change; when the disk is full it still holds in memory (the teacher must hear why the batch
   * stopped) and is written with the next state change that fits. Pages never go this way.
   */
  async recordState(record: Extract<JournalRecord, { t: 'state' }>): Promise<void> {
    try {
      await this.record(record);
    } catch (error) {
      if (!isNoSpace(error)) throw error;
      this.apply(record);
    }
  }

  nextSeq(): number {
    let max = 0;
    for (const seq of this.pages.keys()) max = Math.max(max, seq);
    return max + 1;
  }

  pagePath(seq: number): string {
    return path.join(this.pagesDir, pageFile(seq));
  }

  /** Puts a page's JPEG on the disk durably, then journals it: only then may it be shown or uploaded. */
  async addPage(jpeg: Buffer, page: Omit<PageRecord, 'seq' | 'bytes' | 'createdAt'>): Promise<PageRecord> {
    const seq = this.nextSeq();
    const record: PageRecord = { ...page, seq, bytes: jpeg.length, createdAt: new Date().toISOString() };
    // Reserve the number at once so a concurrent add cannot take it.
    this.pages.set(seq, { ...record, hostPageId: null, uploadError: null });
    let written = false;
    try {
      await writeFileDurable(this.pagePath(seq), jpeg);
      written = true;
      await this.record({ t: 'page', page: record });
    } catch (error) {
      this.pages.delete(seq);
      // Not journaled means not acknowledged: its file goes too, or a restart would adopt it beside its rescan.
      if (written) await fs.rm(this.pagePath(seq), { force: true }).catch(() => undefined);
      throw error;
    }
    return record;
  }

  /**
   * Puts a rescan in place of page `seq`: the new JPEG replaces the old file (written aside, then renamed over it),
   * then the journal records the page again, not yet uploaded, marked as a replacement.
   */
  async replacePage(
    seq: number,
    jpeg: Buffer,
    page: Omit<PageRecord, 'seq' | 'bytes' | 'createdAt' | 'replaces'>,
  ): Promise<PageRecord> {
    const record: PageRecord = {
      ...page,
      seq,
      bytes: jpeg.length,
      createdAt: new Date().toISOString(),
      replaces: true,
    };
    await writeFileDurable(this.pagePath(seq), jpeg);
    await this.record({ t: 'page', page: record });
    return record;
  }

  uploadState(p: PageState): AgentPage['upload'] {
    if (p.hostPageId) return 'uploaded';
    if (p.uploadError) return 'failed';
    return this.header.host ? 'pending' : 'local';
  }

  page(seq: number): AgentPage | undefined {
    const p = this.pages.get(seq);
    if (!p) return undefined;
    return {
      batchId: this.id,
      seq: p.seq,
      name: p.name,
      side: p.side,
      width: p.width,
      height: p.height,
      dpi: p.dpi,
      bytes: p.bytes,
      sha256: p.sha256,
      blank: p.blank,
      skewDeg: p.skewDeg,
      rescanned: p.replaces === true,
      upload: this.uploadState(p),
      hostPageId: p.hostPageId,
      uploadError: p.uploadError,
      createdAt: p.createdAt,
    };
  }

  listPages(): AgentPage[] {
    return [...this.pages.keys()].sort((a, b) => a - b).map((seq) => this.page(seq)!);
  }

  /** Pages still to upload, in order. */
  pending(): number[] {
    if (!this.header.host) return [];
    return [...this.pages.values()]
      .filter((p) => !p.hostPageId && !p.uploadError)
      .map((p) => p.seq)
      .sort((a, b) => a - b);
  }

  summary(): AgentBatch {
    const pages = [...this.pages.values()];
    return {
      id: this.id,
      state: this.state,
      settings: this.header.settings,
      source: this.header.source,
      hostBatchId: this.header.host?.batchId ?? null,
      hostBaseUrl: this.header.host?.baseUrl ?? null,
      pageCount: pages.length,
      uploadedCount: pages.filter((p) => p.hostPageId).length,
      failedCount: pages.filter((p) => !p.hostPageId && p.uploadError).length,
      blankCount: pages.filter((p) => p.blank).length,
      rescanSeq: this.rescanSeq,
      rescanSeqs: [...this.rescanSeqs],
      lastNotice: this.notice,
      createdAt: this.header.createdAt,
      updatedAt: this.updatedAt,
    };
  }

  close(): Promise<void> {
    return this.log.close();
  }
}

/** Reads a journal, tolerating a torn last line (a crash mid-append) and cutting it off so appends stay clean. */
async function readJournal(file: string): Promise<JournalRecord[]> {
  const bytes = await fs.readFile(file);
  const complete = bytes.lastIndexOf(0x0a) + 1;
  if (complete < bytes.length) await fs.truncate(file, complete);
  const records: JournalRecord[] = [];
  for (const line of bytes.subarray(0, complete).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const record = JournalRecordSchema.safeParse(JSON.parse(line));
      // A damaged line (not JSON, or not a record) is skipped; the lines around it still count.
      if (record.success) records.push(record.data);
    } catch {
      // Not JSON: skipped likewise.
    }
  }
  return records;
}

/** The agent's spool: one folder per batch under `<data>/spool`. */
export class Spool {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'spool');
  }

  async create(header: BatchHeader): Promise<BatchJournal> {
    await fs.mkdir(this.root, { recursive: true, mode: 0o700 });
    const dir = path.join(this.root, header.id);
    await fs.mkdir(dir, { mode: 0o700 });
    const batch = new BatchJournal(dir, header);
    await Promise.all([fs.mkdir(batch.pagesDir), fs.mkdir(batch.rawDir)]);
    await batch.record({ t: 'batch', batch: header });
    await batch.record({ t: 'state', state: 'scanning', notice: null, at: header.createdAt });
    await fsyncDir(dir);
    await fsyncDir(this.root);
    return batch;
  }

  /**
   * Loads every batch and repairs what a crash left: half-written temp files go, page files that made it to the disk
   * but not to the journal are adopted. Raw files not yet turned into pages are left for the caller to recover.
   */
  async load(): Promise<BatchJournal[]> {
    const entries = await fs.readdir(this.root, { withFileTypes: true }).catch(() => []);
    const batches: BatchJournal[] = [];
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const dir = path.join(this.root, e.name);
      const journalFile = path.join(dir, 'journal.ndjson');
      const records = await readJournal(journalFile).catch(() => null);
      const first = records?.[0];
      if (!records || first?.t !== 'batch') continue;
      const batch = new BatchJournal(dir, first.batch);
      for (const r of records) batch.apply(r);
      await fs.mkdir(batch.pagesDir, { recursive: true });
      await fs.mkdir(batch.rawDir, { recursive: true });
      for (const f of await fs.readdir(batch.pagesDir)) {
        if (f.endsWith('.tmp')) {
          await fs.rm(path.join(batch.pagesDir, f), { force: true });
          continue;
        }
        const m = PAGE_FILE.exec(f);
        const seq = m ? Number(m[1]) : NaN;
        if (!m || batch.pages.has(seq)) continue;
        // Written and renamed, but the crash came before its journal line: adopt it.
        const data = await fs.readFile(path.join(batch.pagesDir, f));
        const sharp = await loadSharp();
        const meta = await sharp(data)
          .metadata()
          .catch(() => null);
        if (!meta?.width || !meta.height) continue;
        await batch.record({
          t: 'page',
          page: {
            seq,
            name: `recovered-${String(seq).padStart(4, '0')}.jpg`,
            rawName: null,
            side: null,
            width: meta.width,
            height: meta.height,
            dpi: meta.density ?? batch.header.settings.resolution,
            bytes: data.length,
            sha256: createHash('sha256').update(data).digest('hex'),
            blank: false,
            skewDeg: 0,
            createdAt: new Date().toISOString(),
          },
        });
      }
      batches.push(batch);
    }
    return batches.sort((a, b) => a.header.createdAt.localeCompare(b.header.createdAt));
  }

  /** Raw files of a batch that have no page yet, in scan order. */
  async unprocessedRaw(batch: BatchJournal): Promise<string[]> {
    const done = new Set([...batch.pages.values()].map((p) => p.rawName).filter(Boolean));
    const files = await fs.readdir(batch.rawDir).catch(() => []);
    const left: string[] = [];
    for (const f of files) {
      if (f.endsWith('.tmp')) continue;
      if (done.has(f)) await fs.rm(path.join(batch.rawDir, f), { force: true });
      else left.push(f);
    }
    return left.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  }
}
