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

/** WIA error HRESULTs (wia.h) and what the teacher is told. */
export const WIA_ERRORS: Readonly<Record<string, { kind: ScanEventKind; message: string }>> = {
  '0x80210001': { kind: 'error', message: T.scanFailed('扫描仪报告一般错误') },
  '0x80210002': { kind: 'jam', message: T.jam },
  '0x80210003': { kind: 'feederEmpty', message: T.feederEmpty },
  '0x80210004': { kind: 'jam', message: T.jam },
  '0x80210005': { kind: 'error', message: T.offline },
  '0x80210006': { kind: 'busy', message: T.busy },
  '0x80210007': { kind: 'busy', message: '扫描仪正在预热，请稍候再试' },
  '0x8021000A': { kind: 'error', message: T.ioError },
  '0x8021000D': { kind: 'busy', message: T.busy },
  '0x80210015': { kind: 'error', message: T.unknownDevice },
  '0x80210016': { kind: 'coverOpen', message: T.coverOpen },
  '0x80210020': { kind: 'doubleFeed', message: T.doubleFeed },
};

/** A PowerShell single-quoted literal: nothing inside is interpreted; a quote is doubled. */
export const psLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The arguments that run a script: encoded, so no quoting of the script text can go wrong. */
export function powershellArgs(script: string): string[] {
  return [
    '-NoProfile',
    '-NonInteractive',
    '-ExecutionPolicy',
    'Bypass',
    '-EncodedCommand',
    Buffer.from(script, 'utf16le').toString('base64'),
  ];
}

const PRELUDE = [
  "$ErrorActionPreference = 'Stop'",
  '[Console]::OutputEncoding = [System.Text.Encoding]::UTF8',
  'function Emit($o) { [Console]::Out.WriteLine((ConvertTo-Json -Compress -InputObject $o)); [Console]::Out.Flush() }',
  "function HR($e) { return ('0x{0:X8}' -f $e.Exception.HResult) }",
].join('\n');

/** Lists WIA scanners (device type 1) as JSON lines. */
export function wiaListScript(): string {
  return [
    PRELUDE,
    '$dm = New-Object -ComObject WIA.DeviceManager',
    'foreach ($info in $dm.DeviceInfos) {',
    '  if ($info.Type -ne 1) { continue }',
    "  Emit ([ordered]@{ event = 'device'; id = $info.DeviceID; name = $info.Properties.Item('Name').Value; manufacturer = $info.Properties.Item('Manufacturer').Value })",
    '}',
  ].join('\n');
}

const JPEG_FORMAT = '{B96B3CAE-0728-11D3-9D7B-0000F81EF32E}';

/** Scans a batch through WIA's COM automation, one JSON line per page as it is saved. */
export function wiaScanScript(deviceId: string, request: ScanRequest): string {
  // WIA_DPS_DOCUMENT_HANDLING_SELECT: 1 feeder, 2 flatbed, 5 feeder + duplex.
  const handling = request.source === 'flatbed' ? 2 : request.source === 'feederDuplex' ? 5 : 1;
  // WIA_IPS_CUR_INTENT: 1 colour, 2 grey, 4 text (black and white); WIA_IPA_DEPTH 24 / 8 / 1.
  const intent = request.colorMode === 'color' ? 1 : request.colorMode === 'grey' ? 2 : 4;
  const depth = request.colorMode === 'color' ? 24 : request.colorMode === 'grey' ? 8 : 1;
  const start = request.startNumber ?? 1;
  return [
    PRELUDE,
    'function SetProp($props, $id, $value) { foreach ($p in $props) { if ($p.PropertyID -eq $id) { try { $p.Value = $value } catch { } ; return } } }',
    `$deviceId = ${psLiteral(deviceId)}`,
    `$outDir = ${psLiteral(request.workDir)}`,
    '$dm = New-Object -ComObject WIA.DeviceManager',
    '$info = $null',
    'foreach ($i in $dm.DeviceInfos) { if ($i.DeviceID -eq $deviceId) { $info = $i } }',
    "if ($null -eq $info) { Emit ([ordered]@{ event = 'end'; hresult = '0x80210015'; message = 'device not found' }); exit 0 }",
    "try { $device = $info.Connect() } catch { Emit ([ordered]@{ event = 'end'; hresult = (HR $_); message = $_.Exception.Message }); exit 0 }",
    `SetProp $device.Properties 3088 ${handling}`,
    'SetProp $device.Properties 3096 0',
    '$item = $device.Items.Item(1)',
    `SetProp $item.Properties 6146 ${intent}`,
    `SetProp $item.Properties 4104 ${depth}`,
    `SetProp $item.Properties 6147 ${request.resolution}`,
    `SetProp $item.Properties 6148 ${request.resolution}`,
    `$n = ${start}`,
    'while ($true) {',
    `  try { $img = $item.Transfer(${psLiteral(JPEG_FORMAT)}) } catch { Emit ([ordered]@{ event = 'end'; hresult = (HR $_); message = $_.Exception.Message }); exit 0 }`,
    "  $file = Join-Path $outDir ('wia-{0:D4}.jpg' -f $n)",
    '  $img.SaveFile($file)',
    "  Emit ([ordered]@{ event = 'page'; file = $file; width = $img.Width; height = $img.Height; dpi = $img.HorizontalResolution })",
    '  $n++',
    request.source === 'flatbed'
      ? "  Emit ([ordered]@{ event = 'end'; hresult = '0x00000000' }); exit 0"
      : '',
    '}',
  ]
    .filter(Boolean)
    .join('\n');
}

/** One JSON line of the scripts, or null for anything else PowerShell printed. */
export function parseWiaLine(line: string): Record<string, unknown> | null {
  const t = line.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(t);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The notice for how a WIA transfer loop ended. */
export function wiaEndNotice(
  hresult: string,
  pages: number,
  feeder: boolean,
): { kind: ScanEventKind; message: string } | null {
  const hr = hresult.toUpperCase().replace(/^0X/, '0x');
  if (hr === '0x00000000') return null;
  const known = WIA_ERRORS[hr];
  if (known?.kind === 'feederEmpty') return feederEmptyNotice(feeder, pages);
  return known ?? { kind: 'error', message: T.scanFailed(`WIA 错误 ${hr}`) };
}

export interface WiaDriverOptions {
  runner?: ProcessRunner;
  powershell?: string;
  timeoutMs?: number;
}

/** Windows Image Acquisition through PowerShell and the WIA automation COM object. */
export class WiaScanner extends WindowsScanner implements Scanner {
  readonly driver = 'wia' as const;

  constructor(private readonly options: WiaDriverOptions = {}) {
    super(options.powershell ?? 'powershell.exe', options.runner);
  }

  async list(signal?: AbortSignal): Promise<DeviceInfo[]> {
    const result = await this.listRun(powershellArgs(wiaListScript()), 30_000, signal);
    const devices: DeviceInfo[] = [];
    for (const line of result.stdout.split(/\r?\n/)) {
      const o = parseWiaLine(line);
      if (o?.event === 'device' && typeof o.id === 'string') {
        const name = typeof o.name === 'string' && o.name ? o.name : o.id;
        devices.push({
          id: o.id,
          name,
          ...(typeof o.manufacturer === 'string' ? { vendor: o.manufacturer } : {}),
        });
      }
    }
    return devices;
  }

  async *scan(deviceId: string, request: ScanRequest, signal: AbortSignal): AsyncIterable<ScanEvent> {
    const proc = this.runner.lines(this.exe, powershellArgs(wiaScanScript(deviceId, request)), {
      timeoutMs: this.options.timeoutMs ?? 4 * 3_600_000,
      signal,
    });
    const workDir = path.resolve(request.workDir);
    let pages = 0;
    let ended: { kind: ScanEventKind; message: string } | null | undefined;
    try {
      for await (const line of proc.lines) {
        const o = parseWiaLine(line);
        if (!o) continue;
        if (o.event === 'page' && typeof o.file === 'string') {
          const file = path.resolve(o.file);
          if (path.dirname(file) !== workDir) continue;
          pages++;
          yield {
            type: 'page',
            page: {
              name: path.basename(file),
              file,
              ...(typeof o.dpi === 'number' ? { dpi: Math.round(o.dpi) } : {}),
              ...duplexSide(request.source === 'feederDuplex', pages),
            },
          };
        } else if (o.event === 'end') {
          ended = wiaEndNotice(
            typeof o.hresult === 'string' ? o.hresult : '0x80210001',
            pages,
            request.source !== 'flatbed',
          );
        }
      }
      const result = await proc.exit;
      if (signal.aborted) return;
      if (ended === undefined) {
        if (result.code !== 0)
          throw new ScannerError(
            'error',
            T.scanFailed(result.stderr.trim().split(/\r?\n/).at(-1) ?? 'PowerShell'),
          );
        return;
      }
      if (ended) yield { type: 'notice', ...ended };
    } finally {
      proc.stop();
    }
  }
}
