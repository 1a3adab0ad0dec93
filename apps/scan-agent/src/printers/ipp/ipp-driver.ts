import fs from 'node:fs/promises';
import os from 'node:os';
import type { Printer, PrinterState } from '@zhzy/contracts';
import { T } from '../../i18n/zh-CN.js';
import {
  PWG_MEDIA,
  PrintError,
  paperOfMedia,
  type PrintRequest,
  type PrinterDriverPort,
  type SystemJobState,
} from '../port.js';
import {
  IPP_OPERATION,
  IPP_STATUS,
  IPP_TAG,
  decodeIppResponse,
  encodeIppRequest,
  groupOf,
  ippOk,
  type IppAttribute,
  type IppResponse,
  type IppValue,
} from './ipp-codec.js';

export interface IppDriverOptions {
  /** Printer URLs (`ipp://host:631/ipp/print`, `http://…/printers/NAME`), from the configuration. */
  urls: readonly string[];
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const PRINTER_STATES: Record<number, PrinterState> = { 3: 'idle', 4: 'printing', 5: 'stopped' };

const asList = (v: IppValue | undefined): IppValue[] =>
  v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
const asText = (v: IppValue | undefined): string | null =>
  typeof v === 'string' && v.trim() ? v.trim() : null;

/** The HTTP URL an IPP URL is reached at (ipp → http on port 631 by default, ipps → https). */
export function httpUrlOf(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'ipp:' || u.protocol === 'ipps:') {
    const port = u.port || '631';
    return `${u.protocol === 'ipps:' ? 'https' : 'http'}://${u.hostname}:${port}${u.pathname}${u.search}`;
  }
  return u.toString();
}

/** The `printer-uri` attribute of a URL (always ipp/ipps). */
export function printerUriOf(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'ipp:' || u.protocol === 'ipps:') return u.toString();
  const scheme = u.protocol === 'https:' ? 'ipps' : 'ipp';
  return `${scheme}://${u.host}${u.pathname}`;
}

/**
 * Network printers over IPP (and any CUPS queue's IPP endpoint): Get-Printer-Attributes for the list, Print-Job with
 * `print-scaling=none`, Get-Job-Attributes for the state, Cancel-Job.
 */
export class IppDriver implements PrinterDriverPort {
  readonly kind = 'ipp' as const;
  private requestId = 1;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: IppDriverOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  private operation(url: string, extra: IppAttribute[] = []): IppAttribute[] {
    return [
      { tag: IPP_TAG.charset, name: 'attributes-charset', value: 'utf-8' },
      { tag: IPP_TAG.naturalLanguage, name: 'attributes-natural-language', value: 'zh-cn' },
      { tag: IPP_TAG.uri, name: 'printer-uri', value: printerUriOf(url) },
      ...extra,
    ];
  }

  private async call(
    url: string,
    message: Buffer,
    document?: Buffer,
    signal?: AbortSignal,
  ): Promise<IppResponse> {
    const body = document ? Buffer.concat([message, document]) : message;
    let res: Response;
    try {
      res = await this.fetch(httpUrlOf(url), {
        method: 'POST',
        headers: { 'content-type': 'application/ipp' },
        body: new Uint8Array(body),
        redirect: 'error',
        signal: AbortSignal.any([
          AbortSignal.timeout(this.options.timeoutMs ?? 120_000),
          ...(signal ? [signal] : []),
        ]),
      });
    } catch (error) {
      throw new PrintError(T.printerUnreachable, error instanceof Error ? error.message : String(error));
    }
    if (res.status === 401 || res.status === 403)
      throw new PrintError(T.printForbidden, `HTTP ${res.status}`);
    if (!res.ok) throw new PrintError(T.printerUnreachable, `HTTP ${res.status}`);
    try {
      return decodeIppResponse(Buffer.from(await res.arrayBuffer()));
    } catch (error) {
      throw new PrintError(T.printerBadAnswer, error instanceof Error ? error.message : String(error));
    }
  }

  /** A failed IPP status as a message for the teacher. */
  private failure(response: IppResponse, name: string): PrintError {
    const op = groupOf(response, 'operation');
    const said = asText(op['status-message']);
    const code = response.statusCode;
    const detail = `${IPP_STATUS[code] ?? `0x${code.toString(16)}`}${said ? `: ${said}` : ''}`;
    if (code === 0x0401 || code === 0x0402 || code === 0x0403)
      return new PrintError(T.printForbidden, detail);
    if (code === 0x0406) return new PrintError(T.printerGone(name), detail);
    if (code === 0x0506) return new PrintError(T.printerNotAccepting(name), detail);
    if (code === 0x0507) return new PrintError(T.printerBusy, detail);
    if (code === 0x040a) return new PrintError(T.printerNoPdf(name), detail);
    return new PrintError(T.printFailed(said ?? detail), detail);
  }

  async describe(url: string, signal?: AbortSignal): Promise<Printer> {
    const message = encodeIppRequest({
      operation: IPP_OPERATION.getPrinterAttributes,
      requestId: this.requestId++,
      operationAttributes: this.operation(url, [
        {
          tag: IPP_TAG.keyword,
          name: 'requested-attributes',
          value: [
            'printer-name',
            'printer-info',
            'printer-make-and-model',
            'printer-state',
            'printer-state-message',
            'printer-is-accepting-jobs',
            'sides-supported',
            'media-supported',
          ],
        },
      ]),
    });
    const base = { id: `ipp:${url}`, driver: 'ipp' as const, isDefault: false };
    try {
      const response = await this.call(url, message, undefined, signal);
      if (!ippOk(response.statusCode)) throw this.failure(response, url);
      const attrs = groupOf(response, 'printer');
      const name = asText(attrs['printer-info']) ?? asText(attrs['printer-name']) ?? new URL(url).host;
      const accepting = attrs['printer-is-accepting-jobs'] !== false;
      const sides = asList(attrs['sides-supported']).map(String);
      const papers = [
        ...new Set(
          asList(attrs['media-supported']).flatMap((m) =>
            typeof m === 'string' ? (paperOfMedia(m) ?? []) : [],
          ),
        ),
      ];
      return {
        ...base,
        name,
        state: accepting ? (PRINTER_STATES[Number(attrs['printer-state'])] ?? 'unknown') : 'stopped',
        stateMessage: asText(attrs['printer-state-message']),
        duplex: sides.length ? sides.some((s) => s.startsWith('two-sided')) : null,
        papers,
      };
    } catch (error) {
      if (!(error instanceof PrintError)) throw error;
      return {
        ...base,
        name: new URL(url).host,
        state: 'unknown',
        stateMessage: error.message,
        duplex: null,
        papers: [],
      };
    }
  }

  async list(signal?: AbortSignal): Promise<Printer[]> {
    return Promise.all(this.options.urls.map((url) => this.describe(url, signal)));
  }

  async print(printer: Printer, request: PrintRequest): Promise<{ systemJobId: string | null }> {
    const url = printer.id.slice('ipp:'.length);
    const document = await fs.readFile(request.file);
    const jobAttributes: IppAttribute[] = [
      { tag: IPP_TAG.integer, name: 'copies', value: request.copies },
      { tag: IPP_TAG.keyword, name: 'sides', value: request.duplex ? 'two-sided-long-edge' : 'one-sided' },
      // Never scale: the recogniser reads the card's printed geometry back.
      { tag: IPP_TAG.keyword, name: 'print-scaling', value: 'none' },
    ];
    if (request.paper)
      jobAttributes.push({ tag: IPP_TAG.keyword, name: 'media', value: PWG_MEDIA[request.paper] });
    if (request.copies > 1)
      jobAttributes.push({
        tag: IPP_TAG.keyword,
        name: 'multiple-document-handling',
        value: 'separate-documents-collated-copies',
      });
    const message = encodeIppRequest({
      operation: IPP_OPERATION.printJob,
      requestId: this.requestId++,
      operationAttributes: this.operation(url, [
        { tag: IPP_TAG.name, name: 'requesting-user-name', value: safeUser() },
        { tag: IPP_TAG.name, name: 'job-name', value: request.title },
        { tag: IPP_TAG.mimeMediaType, name: 'document-format', value: 'application/pdf' },
      ]),
      jobAttributes,
    });
    const response = await this.call(url, message, document, request.signal);
    if (!ippOk(response.statusCode)) throw this.failure(response, printer.name);
    const job = groupOf(response, 'job');
    const id = job['job-id'];
    return { systemJobId: typeof id === 'number' ? String(id) : null };
  }

  async status(printer: Printer, systemJobId: string | null): Promise<SystemJobState> {
    if (!systemJobId) return { state: 'unknown' };
    const url = printer.id.slice('ipp:'.length);
    const message = encodeIppRequest({
      operation: IPP_OPERATION.getJobAttributes,
      requestId: this.requestId++,
      operationAttributes: this.operation(url, [
        { tag: IPP_TAG.integer, name: 'job-id', value: Number(systemJobId) },
        { tag: IPP_TAG.name, name: 'requesting-user-name', value: safeUser() },
        {
          tag: IPP_TAG.keyword,
          name: 'requested-attributes',
          value: ['job-state', 'job-state-message', 'job-state-reasons'],
        },
      ]),
    });
    const response = await this.call(url, message);
    if (!ippOk(response.statusCode)) return { state: 'unknown' };
    const job = groupOf(response, 'job');
    const said = asText(job['job-state-message']);
    switch (Number(job['job-state'])) {
      case 3:
      case 4:
        return { state: 'pending' };
      case 5:
      case 6:
        return { state: 'printing' };
      case 7:
        return { state: 'cancelled', message: T.printCancelled };
      case 8:
        return { state: 'failed', message: said ? T.printFailed(said) : T.printAborted };
      case 9:
        return { state: 'done' };
      default:
        return { state: 'unknown' };
    }
  }

  async cancel(printer: Printer, systemJobId: string): Promise<void> {
    const url = printer.id.slice('ipp:'.length);
    const message = encodeIppRequest({
      operation: IPP_OPERATION.cancelJob,
      requestId: this.requestId++,
      operationAttributes: this.operation(url, [
        { tag: IPP_TAG.integer, name: 'job-id', value: Number(systemJobId) },
        { tag: IPP_TAG.name, name: 'requesting-user-name', value: safeUser() },
      ]),
    });
    await this.call(url, message);
  }
}

function safeUser(): string {
  try {
    return os.userInfo().username || 'zhzy';
  } catch {
    return 'zhzy';
  }
}
