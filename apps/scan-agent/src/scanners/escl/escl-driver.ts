import { setTimeout as sleep } from 'node:timers/promises';
import type { ScannerCapabilities } from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';
import {
  duplexSide,
  nearestResolution,
  ScannerError,
  type DeviceInfo,
  type ScanEvent,
  type Scanner,
  type ScanRequest,
} from '../port.js';
import type { EsclDiscovery } from './discovery.js';
import {
  adfNotice,
  buildEsclScanSettings,
  esclCapabilitiesOf,
  parseEsclCapabilities,
  parseEsclStatus,
  type EsclCapabilities,
  type EsclStatus,
} from './escl-xml.js';

export interface EsclDriverOptions {
  discovery: EsclDiscovery;
  /** Scanners configured by hand (base URLs ending in /eSCL). */
  urls?: readonly string[];
  discoveryTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Wait between 503 answers of NextDocument when the device sends no Retry-After. */
  retryDelayMs?: number;
  /** 503 answers tolerated for one page before giving up. */
  maxRetries?: number;
}

/** eSCL (AirScan / Mopria) over plain HTTP: capabilities, status, jobs and the NextDocument loop. */
export class EsclScanner implements Scanner {
  readonly driver = 'escl' as const;
  private readonly caps = new Map<string, EsclCapabilities>();

  constructor(private readonly options: EsclDriverOptions) {}

  private async request(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs ?? 60_000);
    try {
      return await fetch(url, {
        ...init,
        redirect: 'error',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ScannerError('error', T.ioError, { cause: error });
    }
  }

  async list(): Promise<DeviceInfo[]> {
    const found = await this.options.discovery.browse(this.options.discoveryTimeoutMs ?? 1_500);
    const byUrl = new Map<string, DeviceInfo>();
    for (const s of found) byUrl.set(s.baseUrl, { id: s.baseUrl, name: s.name });
    for (const url of this.options.urls ?? []) {
      const base = url.replace(/\/+$/, '');
      if (!byUrl.has(base)) {
        const caps = await this.capabilitiesXml(base).catch(() => null);
        byUrl.set(base, { id: base, name: caps?.makeAndModel ?? base });
      }
    }
    return [...byUrl.values()];
  }

  private async capabilitiesXml(base: string, signal?: AbortSignal): Promise<EsclCapabilities> {
    const cached = this.caps.get(base);
    if (cached) return cached;
    const res = await this.request(`${base}/ScannerCapabilities`, {}, signal);
    if (!res.ok) throw new ScannerError('error', T.offline);
    const caps = parseEsclCapabilities(await res.text());
    this.caps.set(base, caps);
    return caps;
  }

  async capabilities(deviceId: string, signal?: AbortSignal): Promise<ScannerCapabilities> {
    return esclCapabilitiesOf(await this.capabilitiesXml(deviceId, signal));
  }

  async status(base: string, signal?: AbortSignal): Promise<EsclStatus> {
    const res = await this.request(`${base}/ScannerStatus`, {}, signal);
    if (!res.ok) throw new ScannerError('error', T.offline);
    return parseEsclStatus(await res.text());
  }

  async *scan(deviceId: string, request: ScanRequest, signal: AbortSignal): AsyncIterable<ScanEvent> {
    const base = deviceId.replace(/\/+$/, '');
    const caps = await this.capabilitiesXml(base, signal);
    const feeder = request.source !== 'flatbed';
    const input =
      request.source === 'feederDuplex'
        ? (caps.adfDuplex ?? caps.adfSimplex)
        : feeder
          ? caps.adfSimplex
          : caps.platen;
    if (!input) throw new ScannerError('error', T.reselectScanner);
    const duplex = request.source === 'feederDuplex' && caps.adfDuplex !== null;

    const before = await this.status(base, signal);
    if (before.state === 'Processing') {
      yield { type: 'notice', kind: 'busy', message: T.busy };
      return;
    }
    if (feeder) {
      const notice = adfNotice(before.adfState);
      if (notice) {
        yield { type: 'notice', ...notice };
        return;
      }
    }

    const resolution = input.resolutions.length
      ? nearestResolution(input.resolutions, request.resolution)
      : request.resolution;
    const body = buildEsclScanSettings({
      source: duplex ? 'feederDuplex' : request.source,
      colorMode: request.colorMode,
      resolution,
      region: request.paper,
    });
    const created = await this.request(
      `${base}/ScanJobs`,
      { method: 'POST', headers: { 'content-type': 'text/xml' }, body },
      signal,
    );
    if (created.status === 503 || created.status === 409) {
      yield { type: 'notice', kind: 'busy', message: T.busy };
      return;
    }
    const location = created.headers.get('location');
    if (created.status !== 201 || !location) {
      yield {
        type: 'notice',
        kind: 'error',
        message: T.scanFailed(`扫描仪拒绝了扫描任务（HTTP ${created.status}）`),
      };
      return;
    }
    const job = new URL(location, `${base}/`).toString().replace(/\/+$/, '');
    let pages = 0;
    let finished = false;
    const start = request.startNumber ?? 1;
    try {
      for (;;) {
        let retries = 0;
        let res: Response;
        for (;;) {
          res = await this.request(`${job}/NextDocument`, {}, signal);
          if (res.status !== 503) break;
          await res.arrayBuffer().catch(() => undefined);
          if (++retries > (this.options.maxRetries ?? 120)) {
            yield { type: 'notice', kind: 'error', message: T.scanFailed('扫描仪长时间没有送出下一页') };
            return;
          }
          const after = Number(res.headers.get('retry-after'));
          await sleep(
            Number.isFinite(after) && after > 0
              ? Math.min(after * 1000, 10_000)
              : (this.options.retryDelayMs ?? 1_000),
            undefined,
            { signal },
          );
        }
        if (res.status === 200) {
          const data = Buffer.from(await res.arrayBuffer());
          const number = start + pages;
          pages++;
          yield {
            type: 'page',
            page: {
              name: `escl-${String(number).padStart(4, '0')}.jpg`,
              data,
              dpi: resolution,
              ...duplexSide(duplex, pages),
            },
          };
          continue;
        }
        await res.arrayBuffer().catch(() => undefined);
        finished = true;
        if (res.status === 410) {
          if (!signal.aborted)
            yield { type: 'notice', kind: 'error', message: T.scanFailed('扫描任务已在扫描仪上被取消') };
          return;
        }
        // 404: the job has no more documents. Why it ended is in the status: empty, jam, double feed, hatch open.
        const after = await this.status(base, signal).catch(() => null);
        const notice = after ? adfNotice(after.adfState) : null;
        if (notice && notice.kind !== 'feederEmpty') yield { type: 'notice', ...notice };
        else if (res.status === 404) {
          if (feeder)
            yield {
              type: 'notice',
              kind: 'feederEmpty',
              message: pages === 0 ? T.feederEmpty : T.feederEmptyDone,
            };
        } else
          yield { type: 'notice', kind: 'error', message: T.scanFailed(`扫描仪返回 HTTP ${res.status}`) };
        return;
      }
    } finally {
      if (!finished) {
        // Cancelled or abandoned mid-job: tell the device (best effort, bounded in time).
        await fetch(job, { method: 'DELETE', signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
      }
    }
  }
}
