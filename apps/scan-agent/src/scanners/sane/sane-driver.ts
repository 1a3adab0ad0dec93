import path from 'node:path';
import type { ScanEventKind, ScannerCapabilities } from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';
import {
  nearestResolution,
  ScannerError,
  type DeviceInfo,
  type ScanEvent,
  type Scanner,
  type ScanRequest,
} from '../port.js';
import { systemRunner, type ProcessResult, type ProcessRunner } from '../process.js';
import { capabilitiesOf, mapSaneOptions, parseSaneOptions, type SaneMapping } from './options.js';

export interface SaneDriverOptions {
  scanimage?: string;
  /** SANE_CONFIG_DIR for the tool (e.g. a folder enabling only the test backend). */
  configDir?: string;
  runner?: ProcessRunner;
  /** Extra options appended to every scan (from the agent's configuration or tests, never from a browser). */
  extraScanArgs?: readonly string[];
  listTimeoutMs?: number;
  /** Longest a whole batch may run. */
  batchTimeoutMs?: number;
}

/** SANE status values scanimage exits with. */
export const SANE_EXIT: Readonly<Record<number, { kind: ScanEventKind; message: string }>> = {
  1: { kind: 'error', message: T.unknownDevice },
  3: { kind: 'busy', message: T.busy },
  6: { kind: 'jam', message: T.jam },
  7: { kind: 'feederEmpty', message: T.feederEmpty },
  8: { kind: 'coverOpen', message: T.coverOpen },
  9: { kind: 'error', message: T.ioError },
  11: { kind: 'error', message: T.accessDenied },
};

/** How long scanimage may take to close the device after its last page. */
const SANE_CLOSE_GRACE_MS = 3_000;

export const SANE_LIST_FORMAT = '%d|%v|%m|%t%n';

/** Parses `scanimage -f '%d|%v|%m|%t%n'`: device names may hold colons and spaces (and even `|`). */
export function parseSaneList(text: string): DeviceInfo[] {
  const devices: DeviceInfo[] = [];
  for (const line of text.split(/\r?\n/)) {
    const parts = line.trim().split('|');
    if (parts.length < 4) continue;
    const type = parts.pop()!;
    const model = parts.pop()!;
    const vendor = parts.pop()!;
    const id = parts.join('|');
    if (!id) continue;
    devices.push({
      id,
      name: [vendor, model].filter((s) => s && s !== 'Noname').join(' ') || type || id,
      vendor,
      model,
    });
  }
  const counts = new Map<string, number>();
  for (const d of devices) counts.set(d.name, (counts.get(d.name) ?? 0) + 1);
  return devices.map((d) => ((counts.get(d.name) ?? 0) > 1 ? { ...d, name: `${d.name} (${d.id})` } : d));
}

/** The argument array of one batch (no shell: values with spaces stay single arguments). */
export function buildSaneScanArgs(
  deviceId: string,
  mapping: SaneMapping,
  request: ScanRequest,
  startNumber: number,
  extra: readonly string[] = [],
): string[] {
  const args = ['-d', deviceId];
  const source = mapping.sources[request.source] ?? mapping.sources.feeder ?? mapping.sources.flatbed;
  if (!source) throw new ScannerError('error', T.reselectScanner);
  if (source.source) args.push(`--source=${source.source}`);
  args.push(...source.extra);
  const mode = mapping.modes[request.colorMode] ?? mapping.modes.color ?? mapping.modes.grey;
  if (mode) args.push(...mode);
  if (mapping.resolutionOption && mapping.resolutions.length) {
    args.push(`--${mapping.resolutionOption}=${nearestResolution(mapping.resolutions, request.resolution)}`);
  }
  if (request.paper && mapping.geometry) {
    const w = Math.min(request.paper.widthMm, mapping.geometry.x);
    const h = Math.min(request.paper.heightMm, mapping.geometry.y);
    args.push('-l', '0', '-t', '0', '-x', String(w), '-y', String(h));
    if (mapping.pageSizeOptions) args.push(`--page-width=${w}`, `--page-height=${h}`);
  }
  args.push(
    '--format=png',
    `--batch=${path.join(request.workDir, 'p-%04d.png')}`,
    `--batch-start=${startNumber}`,
    '--batch-print',
  );
  // A flatbed scans one sheet per start; without a count scanimage would scan the glass forever.
  if (request.source === 'flatbed' || !source.source || !/adf|feeder/i.test(source.source))
    args.push('--batch-count=1');
  args.push(...extra);
  return args;
}

/** What scanimage's end means for the teacher: feeder empty (also the exit-0 trap), jam, busy … */
export function saneNotice(
  finished: ProcessResult,
  pages: number,
  feeder: boolean,
): { kind: ScanEventKind; message: string } | null {
  let result = finished;
  if (result.timedOut) return { kind: 'error', message: T.scanFailed('扫描超时') };
  // scanimage tells the device's last status on stderr ("(scanner status = 6)"); it is what counts when the tool
  // had to be killed after finishing (some backends hang in sane_close) or exits 0 regardless.
  const reported = [...result.stderr.matchAll(/scanner status = (\d+)/g)].at(-1)?.[1];
  const status =
    reported !== undefined && reported !== '5'
      ? Number(reported)
      : /out of documents/i.test(result.stderr)
        ? 7
        : null;
  if (status !== null && (result.code === 0 || result.code === null)) result = { ...result, code: status };
  else if (result.code === null && /Batch terminated/.test(result.stderr)) result = { ...result, code: 0 };
  if (result.code === 0 || result.code === 7) {
    // Trap: with --batch an empty feeder still exits 0 and writes nothing; pages are counted from --batch-print.
    if (!feeder) return null;
    return { kind: 'feederEmpty', message: pages === 0 ? T.feederEmpty : T.feederEmptyDone };
  }
  if (result.code === null)
    return { kind: 'error', message: T.scanFailed(`scanimage 被信号 ${result.signal ?? ''} 终止`) };
  const known = SANE_EXIT[result.code];
  if (known) {
    if (result.code === 1 && !/open|invalid argument|no such device/i.test(result.stderr)) {
      return {
        kind: 'error',
        message: T.scanFailed(lastLine(result.stderr) || `scanimage 退出码 ${result.code}`),
      };
    }
    return known;
  }
  if (result.code === -1)
    return { kind: 'error', message: T.scanFailed(`无法运行 scanimage（${lastLine(result.stderr)}）`) };
  return {
    kind: 'error',
    message: T.scanFailed(lastLine(result.stderr) || `scanimage 退出码 ${result.code}`),
  };
}

const lastLine = (text: string) =>
  text
    .trim()
    .split(/\r?\n/)
    .filter((l) => !/^Scann(ing|ed) (page|infinity)/.test(l))
    .at(-1)
    ?.replace(/^scanimage:\s*/, '') ?? '';

/** SANE through `scanimage`: listing, option mapping and streaming batches with `--batch-print`. */
export class SaneScanner implements Scanner {
  readonly driver = 'sane' as const;
  private readonly runner: ProcessRunner;
  private readonly scanimage: string;
  private readonly mappings = new Map<string, SaneMapping>();

  constructor(private readonly options: SaneDriverOptions = {}) {
    this.runner = options.runner ?? systemRunner;
    this.scanimage = options.scanimage ?? 'scanimage';
  }

  private env(): NodeJS.ProcessEnv {
    return this.options.configDir ? { ...process.env, SANE_CONFIG_DIR: this.options.configDir } : process.env;
  }

  async list(signal?: AbortSignal): Promise<DeviceInfo[]> {
    const result = await this.runner.run(this.scanimage, ['-f', SANE_LIST_FORMAT], {
      timeoutMs: this.options.listTimeoutMs ?? 30_000,
      env: this.env(),
      ...(signal ? { signal } : {}),
    });
    if (result.code !== 0) return [];
    return parseSaneList(result.stdout);
  }

  async mapping(deviceId: string, signal?: AbortSignal): Promise<SaneMapping> {
    const cached = this.mappings.get(deviceId);
    if (cached) return cached;
    const result = await this.runner.run(this.scanimage, ['-d', deviceId, '-A'], {
      timeoutMs: this.options.listTimeoutMs ?? 30_000,
      env: this.env(),
      ...(signal ? { signal } : {}),
    });
    if (result.code !== 0) {
      const notice = saneNotice(result, 0, false) ?? { kind: 'error' as const, message: T.unknownDevice };
      throw new ScannerError(notice.kind, notice.message);
    }
    const mapping = mapSaneOptions(parseSaneOptions(result.stdout));
    this.mappings.set(deviceId, mapping);
    return mapping;
  }

  async capabilities(deviceId: string, signal?: AbortSignal): Promise<ScannerCapabilities> {
    return capabilitiesOf(await this.mapping(deviceId, signal));
  }

  async *scan(deviceId: string, request: ScanRequest, signal: AbortSignal): AsyncIterable<ScanEvent> {
    const mapping = await this.mapping(deviceId, signal);
    const start = request.startNumber ?? 1;
    const args = buildSaneScanArgs(deviceId, mapping, request, start, this.options.extraScanArgs);
    const feeder = request.source !== 'flatbed' && Boolean(mapping.sources[request.source]?.source);
    const duplex = request.source === 'feederDuplex' && Boolean(mapping.sources.feederDuplex);
    let hangTimer: NodeJS.Timeout | undefined;
    let tail = '';
    const proc = this.runner.lines(this.scanimage, args, {
      timeoutMs: this.options.batchTimeoutMs ?? 4 * 3_600_000,
      env: this.env(),
      signal,
      onStderr: (chunk) => {
        // Done scanning: a tool still alive a few seconds later is stuck in the backend's close; end it.
        tail = (tail + chunk).slice(-400);
        if (/Batch terminated/.test(tail) && !hangTimer)
          hangTimer = setTimeout(() => proc.kill(), SANE_CLOSE_GRACE_MS);
      },
    });
    let pages = 0;
    const workDir = path.resolve(request.workDir);
    try {
      for await (const line of proc.lines) {
        const file = path.resolve(line.trim());
        // Only files scanimage was told to write; anything else on stdout is ignored.
        if (path.dirname(file) !== workDir || !/^p-\d{4,}\.png$/.test(path.basename(file))) continue;
        pages++;
        const number = start + pages - 1;
        yield {
          type: 'page',
          page: {
            name: path.basename(file),
            file,
            dpi: mapping.resolutions.length
              ? nearestResolution(mapping.resolutions, request.resolution)
              : request.resolution,
            ...(duplex ? { side: (number - start) % 2 === 0 ? ('front' as const) : ('back' as const) } : {}),
          },
        };
      }
      const result = await proc.exit;
      if (signal.aborted) return;
      const notice = saneNotice(result, pages, feeder);
      if (notice) yield { type: 'notice', ...notice };
    } finally {
      if (hangTimer) clearTimeout(hangTimer);
      proc.stop();
    }
  }
}
