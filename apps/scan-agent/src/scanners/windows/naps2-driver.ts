import fs from 'node:fs/promises';
import path from 'node:path';
import type { ScanEventKind } from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';
import {
  duplexSide,
  feederEmptyNotice,
  ScannerError,
  type DeviceInfo,
  type ScanEvent,
  type Scanner,
  type ScanRequest,
} from '../port.js';
import type { ProcessRunner } from '../process.js';
import { WindowsScanner } from './windows-scanner.js';

/** NAPS2's page-size names; anything else is given in millimetres. */
const NAPS2_PAGE: Record<string, string> = {
  '210x297': 'a4',
  '297x420': 'a3',
  '176x250': 'b5',
  '250x353': 'b4',
};

/** The console arguments of one TWAIN batch (NAPS2 writes every page when the batch ends). */
export function naps2ScanArgs(deviceName: string, request: ScanRequest): string[] {
  const source =
    request.source === 'flatbed' ? 'glass' : request.source === 'feederDuplex' ? 'duplex' : 'feeder';
  const bitdepth = request.colorMode === 'color' ? 'color' : request.colorMode === 'grey' ? 'gray' : 'bw';
  const args = [
    '--driver',
    'twain',
    '--device',
    deviceName,
    '--source',
    source,
    '--dpi',
    String(request.resolution),
    '--bitdepth',
    bitdepth,
  ];
  if (request.paper) {
    const key = `${request.paper.widthMm}x${request.paper.heightMm}`;
    args.push('--pagesize', NAPS2_PAGE[key] ?? `${key}mm`);
  }
  args.push('-o', path.join(request.workDir, 'naps2-$(nnnn).jpg'), '--noprofile', '--force', '--verbose');
  return args;
}

export const naps2ListArgs = () => ['--driver', 'twain', '--listdevices'];

/** Device names printed by `--listdevices`, one a line. */
export function parseNaps2Devices(stdout: string): DeviceInfo[] {
  return stdout
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^(NAPS2|Usage|Error|Warning|Listing|Beginning)\b/i.test(l))
    .map((name) => ({ id: name, name }));
}

const TROUBLES: { pattern: RegExp; kind: ScanEventKind; message: string }[] = [
  { pattern: /paper jam|jammed/i, kind: 'jam', message: T.jam },
  {
    pattern: /double[- ]?feed|multi[- ]?feed|multiple pages were fed/i,
    kind: 'doubleFeed',
    message: T.doubleFeed,
  },
  { pattern: /cover (is )?open/i, kind: 'coverOpen', message: T.coverOpen },
  { pattern: /busy|in use by another/i, kind: 'busy', message: T.busy },
  {
    pattern: /offline|not connected|device (was )?not found|could not find the (scanner|device)/i,
    kind: 'error',
    message: T.unknownDevice,
  },
  {
    pattern: /feeder (is )?empty|no pages (are )?in the feeder|out of paper/i,
    kind: 'feederEmpty',
    message: T.feederEmpty,
  },
];

/** What NAPS2's output says about how the batch ended (null: it simply finished). */
export function naps2Notice(
  output: string,
  pages: number,
  feeder: boolean,
  exitCode: number | null,
): { kind: ScanEventKind; message: string } | null {
  for (const t of TROUBLES) {
    if (!t.pattern.test(output)) continue;
    if (t.kind === 'feederEmpty') return feederEmptyNotice(feeder, pages);
    return { kind: t.kind, message: t.message };
  }
  if (pages === 0 && /no scanned pages/i.test(output))
    return feeder ? { kind: 'feederEmpty', message: T.feederEmpty } : null;
  if (exitCode !== 0 && pages === 0) {
    const last = output.trim().split(/\r?\n/).at(-1) ?? '';
    return { kind: 'error', message: T.scanFailed(last || `NAPS2 退出码 ${exitCode}`) };
  }
  return feeder ? { kind: 'feederEmpty', message: T.feederEmptyDone } : null;
}

export interface Naps2DriverOptions {
  runner?: ProcessRunner;
  console?: string;
  timeoutMs?: number;
}

/** TWAIN through `NAPS2.Console.exe --driver twain`. */
export class Naps2TwainScanner extends WindowsScanner implements Scanner {
  readonly driver = 'twain' as const;

  constructor(private readonly options: Naps2DriverOptions = {}) {
    super(options.console ?? 'NAPS2.Console.exe', options.runner);
  }

  async list(signal?: AbortSignal): Promise<DeviceInfo[]> {
    const result = await this.listRun(naps2ListArgs(), 60_000, signal);
    return result.code === 0 ? parseNaps2Devices(result.stdout) : [];
  }

  async *scan(deviceId: string, request: ScanRequest, signal: AbortSignal): AsyncIterable<ScanEvent> {
    const before = new Set(await fs.readdir(request.workDir).catch(() => []));
    const result = await this.runner.run(this.exe, naps2ScanArgs(deviceId, request), {
      timeoutMs: this.options.timeoutMs ?? 4 * 3_600_000,
      signal,
    });
    if (signal.aborted) return;
    if (result.code === -1)
      throw new ScannerError('error', T.scanFailed(`无法运行 NAPS2（${result.stderr.trim()}）`));
    const files = (await fs.readdir(request.workDir))
      .filter((f) => !before.has(f) && /^naps2-\d+\.jpg$/i.test(f))
      .sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
    const start = request.startNumber ?? 1;
    let n = 0;
    for (const f of files) {
      n++;
      yield {
        type: 'page',
        page: {
          name: `naps2-${String(start + n - 1).padStart(4, '0')}.jpg`,
          file: path.join(request.workDir, f),
          dpi: request.resolution,
          ...duplexSide(request.source === 'feederDuplex', n),
        },
      };
    }
    const notice = naps2Notice(
      `${result.stdout}\n${result.stderr}`,
      files.length,
      request.source !== 'flatbed',
      result.code,
    );
    if (notice) yield { type: 'notice', ...notice };
  }
}
