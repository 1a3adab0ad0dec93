import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadSharp } from '../../pages/sharp-lazy.js';
import { SCAN_PDF_MAX_PAGES, type ScannerCapabilities } from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';
import type { DeviceInfo, ScanEvent, Scanner, ScanRequest } from '../port.js';
import { systemRunner, type ProcessRunner } from '../process.js';

export interface HotFolderOptions {
  folders: readonly string[];
  pollMs?: number;
  /** A file counts as complete once its size and time have not changed for this long. */
  stableMs?: number;
  /** End the scan when no file arrived for this long (absent: run until paused). */
  idleTimeoutMs?: number;
  pdftoppm?: string | null;
  /** poppler's page counter, asked before anything is rasterised (absent: `pdfinfo`; null: not asked). */
  pdfinfo?: string | null;
  runner?: ProcessRunner;
}

const ACCEPTED = /\.(jpe?g|png|tiff?|pdf)$/i;
// Files still being written by the device or a copy tool.
const TEMPORARY = /^[.~]|\.(part|tmp|crdownload|partial)$/i;
export const IMPORTED_DIR = '已导入';
export const UNREADABLE_DIR = '无法读取';

interface Seen {
  size: number;
  mtimeMs: number;
  since: number;
}

/** Moves a handled original out of the inbox, never overwriting a file already there. */
async function moveAside(folder: string, sub: string, name: string): Promise<void> {
  const dir = path.join(folder, sub);
  await fs.mkdir(dir, { recursive: true });
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 0; ; i++) {
    const target = path.join(dir, i === 0 ? name : `${stem} (${i})${ext}`);
    try {
      await fs.link(path.join(folder, name), target);
      await fs.unlink(path.join(folder, name));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      // Some file systems (network shares) have no hard links.
      if (
        (error as NodeJS.ErrnoException).code === 'EPERM' ||
        (error as NodeJS.ErrnoException).code === 'ENOTSUP'
      ) {
        await fs.rename(path.join(folder, name), target);
        return;
      }
      throw error;
    }
  }
}

/**
 * A scan-to-folder device: the agent watches a folder the device (or a person) drops files into. JPEG, PNG, TIFF
 * (every page) and PDF (rasterised with pdftoppm when present) become pages in name order once a file is stable.
 * The original moves to 已导入 only after its pages were handed on (and so spooled).
 */
export class HotFolderScanner implements Scanner {
  readonly driver = 'hotfolder' as const;
  private readonly runner: ProcessRunner;

  constructor(private readonly options: HotFolderOptions) {
    this.runner = options.runner ?? systemRunner;
  }

  async list(): Promise<DeviceInfo[]> {
    const devices: DeviceInfo[] = [];
    for (const folder of this.options.folders) {
      const stat = await fs.stat(folder).catch(() => null);
      if (stat?.isDirectory())
        devices.push({
          id: path.resolve(folder),
          name: `扫描文件夹：${path.basename(path.resolve(folder))}`,
        });
    }
    return devices;
  }

  capabilities(): Promise<ScannerCapabilities> {
    return Promise.resolve({
      sources: ['feeder'],
      colorModes: ['color', 'grey', 'lineart'],
      resolutions: [300],
      maxWidthMm: null,
      maxHeightMm: null,
    });
  }

  /** The PDF's page count from pdfinfo, or null when pdfinfo is not there or cannot say. */
  private async pdfPageCount(file: string, signal: AbortSignal): Promise<number | null> {
    const tool = this.options.pdfinfo === undefined ? 'pdfinfo' : this.options.pdfinfo;
    if (!tool) return null;
    const result = await this.runner.run(tool, [file], { timeoutMs: 60_000, signal });
    const pages = /^Pages:\s+(\d+)/m.exec(result.stdout)?.[1];
    return result.code === 0 && pages ? Number(pages) : null;
  }

  /**
   * Rasterises a PDF's pages: 'tooMany' past the host's page cap (counted first, and never more than one page past
   * it rasterised), 'stopped' when the scan was finished meanwhile (pdftoppm is ended and the file stays in the
   * inbox), null without pdftoppm.
   */
  private async pdfPages(
    file: string,
    request: ScanRequest,
    stem: string,
    signal: AbortSignal,
  ): Promise<string[] | 'tooMany' | 'stopped' | null> {
    const tool = this.options.pdftoppm === undefined ? 'pdftoppm' : this.options.pdftoppm;
    if (!tool) return null;
    const count = await this.pdfPageCount(file, signal);
    if (signal.aborted) return 'stopped';
    if (count !== null && count > SCAN_PDF_MAX_PAGES) return 'tooMany';
    const prefix = path.join(
      request.workDir,
      `pdf-${stem.replace(/[^\w-]/g, '_').slice(0, 40)}-${Date.now()}`,
    );
    const base = path.basename(prefix);
    const written = async () =>
      (await fs.readdir(request.workDir))
        .filter((f) => f.startsWith(`${base}-`) && f.endsWith('.png'))
        .sort((a, b) => Number(/-(\d+)\.png$/.exec(a)?.[1]) - Number(/-(\d+)\.png$/.exec(b)?.[1]))
        .map((f) => path.join(request.workDir, f));
    const discard = async () => {
      for (const f of await written()) await fs.rm(f, { force: true });
    };
    // Finishing the scan aborts `signal`: the runner ends pdftoppm (and its process group) with it.
    const result = await this.runner.run(
      tool,
      ['-r', String(request.resolution), '-png', '-l', String(SCAN_PDF_MAX_PAGES + 1), file, prefix],
      { timeoutMs: 10 * 60_000, signal },
    );
    if (signal.aborted) {
      await discard();
      return 'stopped';
    }
    if (result.code === -1) return null;
    if (result.code !== 0) throw new Error(result.stderr);
    const pages = await written();
    if (pages.length > SCAN_PDF_MAX_PAGES) {
      await discard();
      return 'tooMany';
    }
    return pages;
  }

  async *scan(folder: string, request: ScanRequest, signal: AbortSignal): AsyncIterable<ScanEvent> {
    const pollMs = this.options.pollMs ?? 500;
    const stableMs = this.options.stableMs ?? 1_000;
    const seen = new Map<string, Seen>();
    let lastActivity = Date.now();
    while (!signal.aborted) {
      const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
      const now = Date.now();
      const ready: { name: string; mtimeMs: number }[] = [];
      for (const e of entries) {
        if (!e.isFile() || TEMPORARY.test(e.name) || !ACCEPTED.test(e.name)) continue;
        const stat = await fs.stat(path.join(folder, e.name)).catch(() => null);
        if (!stat) continue;
        const before = seen.get(e.name);
        if (!before || before.size !== stat.size || before.mtimeMs !== stat.mtimeMs) {
          seen.set(e.name, { size: stat.size, mtimeMs: stat.mtimeMs, since: now });
          lastActivity = now;
          continue;
        }
        if (stat.size > 0 && now - before.since >= stableMs && now - stat.mtimeMs >= stableMs)
          ready.push({ name: e.name, mtimeMs: stat.mtimeMs });
      }
      ready.sort((a, b) => a.name.localeCompare(b.name, 'zh-CN', { numeric: true }));
      for (const { name } of ready) {
        if (signal.aborted) return;
        const file = path.join(folder, name);
        const stem = name.replace(/\.[^.]+$/, '');
        seen.delete(name);
        lastActivity = Date.now();
        try {
          if (/\.pdf$/i.test(name)) {
            const pages = await this.pdfPages(file, request, stem, signal);
            if (pages === 'stopped') return;
            if (pages === 'tooMany') {
              yield { type: 'notice', kind: 'error', message: T.pdfTooManyPages(name, SCAN_PDF_MAX_PAGES) };
              await moveAside(folder, UNREADABLE_DIR, name);
              continue;
            }
            if (!pages) {
              yield { type: 'notice', kind: 'error', message: T.pdfNeedsPoppler };
              await moveAside(folder, UNREADABLE_DIR, name);
              continue;
            }
            for (const [i, p] of pages.entries()) {
              yield {
                type: 'page',
                page: { name: `${stem}-${i + 1}.png`, file: p, dpi: request.resolution },
              };
            }
          } else if (/\.tiff?$/i.test(name)) {
            const data = await fs.readFile(file);
            const sharp = await loadSharp();
            const count = (await sharp(data).metadata()).pages ?? 1;
            for (let i = 0; i < count; i++) {
              const page = await sharp(data, { page: i }).png({ compressionLevel: 1 }).toBuffer();
              yield {
                type: 'page',
                page: { name: count > 1 ? `${stem}-${i + 1}.png` : `${stem}.png`, data: page },
              };
            }
          } else {
            const data = await fs.readFile(file);
            // Only what decodes as an image is a page; anything else is set aside with a notice.
            const sharp = await loadSharp();
            const meta = await sharp(data).metadata();
            if (!meta.width || !meta.height) throw new Error('not an image');
            yield { type: 'page', page: { name, data } };
          }
          await moveAside(folder, IMPORTED_DIR, name);
        } catch {
          yield { type: 'notice', kind: 'error', message: T.unreadableFile(name) };
          await moveAside(folder, UNREADABLE_DIR, name).catch(() => undefined);
        }
      }
      if (
        this.options.idleTimeoutMs !== undefined &&
        Date.now() - lastActivity >= this.options.idleTimeoutMs &&
        seen.size === 0
      )
        return;
      await sleep(pollMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
