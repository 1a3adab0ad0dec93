import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCardPdf } from '@zhzy/answer-card/render';
import { T } from '../src/i18n/zh-CN.js';
import { CupsDriver } from '../src/printers/cups/cups-driver.js';
import {
  parseLpRequestId,
  parseLpoptions,
  parseLpstatDefault,
  parseLpstatJobs,
  parseLpstatPrinters,
} from '../src/printers/cups/cups-parse.js';
import {
  IPP_GROUP,
  IPP_OPERATION,
  IPP_TAG,
  decodeIppResponse,
  encodeIppRequest,
  groupOf,
} from '../src/printers/ipp/ipp-codec.js';
import { IppDriver, httpUrlOf, printerUriOf } from '../src/printers/ipp/ipp-driver.js';
import { pdfFacts, paperOfSize } from '../src/printers/pdf-facts.js';
import { paperOfMedia } from '../src/printers/port.js';
import { SumatraDriver, parseWindowsPrinters, sumatraArgs } from '../src/printers/windows/sumatra-driver.js';
import type { ProcessResult, ProcessRunner } from '../src/scanners/process.js';
import { demoLayout } from '../src/scanners/virtual/demo-card.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

/** Replays recorded output per command; records what it was asked to run. */
class Replay implements ProcessRunner {
  calls: { command: string; args: readonly string[]; env?: NodeJS.ProcessEnv }[] = [];
  constructor(private readonly answers: Record<string, Partial<ProcessResult>>) {}
  run(
    command: string,
    args: readonly string[],
    options: { env?: NodeJS.ProcessEnv },
  ): Promise<ProcessResult> {
    this.calls.push({ command, args, ...(options.env ? { env: options.env } : {}) });
    const key = Object.keys(this.answers).find((k) => `${command} ${args.join(' ')}`.startsWith(k));
    const a = key ? this.answers[key]! : { code: 1, stderr: 'unexpected' };
    return Promise.resolve({ code: 0, signal: null, stdout: '', stderr: '', timedOut: false, ...a });
  }
  lines(): never {
    throw new Error('not used');
  }
}

describe('CUPS output parsing (lpstat, lpoptions, lp in the C locale)', () => {
  it('reads queues with their state, reason and description', () => {
    const queues = parseLpstatPrinters(fixture('lpstat-printers.txt'));
    expect(queues.map((q) => [q.name, q.state, q.reason, q.description])).toEqual([
      ['office_2F_HP', 'stopped', 'Paper jam', '二楼办公室 HP'],
      ['office_pdf', 'idle', null, 'office_pdf'],
      ['HP_LaserJet_M404', 'printing', null, '三楼年级组 HP M404'],
    ]);
    expect(queues[2]).toMatchObject({ printingJob: 'HP_LaserJet_M404-57', location: '三楼年级组办公室' });
  });

  it('reads duplex and the ISO papers from lpoptions, the default, the request id and job lines', () => {
    expect(parseLpoptions(fixture('lpoptions-hp.txt'))).toEqual({ duplex: true, papers: ['A4'] });
    expect(parseLpoptions('PageSize/Page Size: *A4 A3 ISOB4 ISOB5 JISB4 B4\n')).toEqual({
      duplex: null,
      papers: ['A4', 'A3', 'B4', 'B5'],
    });
    expect(parseLpstatDefault('system default destination: office_pdf\n')).toBe('office_pdf');
    expect(parseLpstatDefault('no system default destination\n')).toBeNull();
    expect(parseLpRequestId('request id is office_pdf-12 (1 file(s))\n')).toBe('office_pdf-12');
    expect(
      parseLpstatJobs(
        'q-3   root   1024   Sat 21 Nov 2026\n\tAlerts: job-canceled-by-user\nq-4   root   2048   Sat 21 Nov 2026\n',
      ),
    ).toEqual([
      { id: 'q-3', alerts: 'job-canceled-by-user' },
      { id: 'q-4', alerts: null },
    ]);
  });

  it('builds lp arguments that never scale, as an argument array with the file after --', () => {
    const args = CupsDriver.lpArgs('office_pdf', {
      file: '/tmp/-o evil.pdf',
      copies: 3,
      duplex: true,
      paper: 'A3',
      title: '期中 答题卡',
    });
    expect(args).toEqual([
      '-d',
      'office_pdf',
      '-n',
      '3',
      '-t',
      '期中 答题卡',
      '-o',
      'print-scaling=none',
      '-o',
      'fit-to-page=false',
      '-o',
      'sides=two-sided-long-edge',
      '-o',
      'media=A3',
      '-o',
      'collate=true',
      '--',
      '/tmp/-o evil.pdf',
    ]);
    expect(
      CupsDriver.lpArgs('q', { file: 'f', copies: 1, duplex: false, paper: '16k', title: 't' }),
    ).toContain('media=Custom.185x260mm');
  });

  it('lists printers through the commands and says in Chinese when CUPS is missing or not running', async () => {
    const runner = new Replay({
      'lpstat -l -p': { stdout: fixture('lpstat-printers.txt') },
      'lpstat -d': { stdout: 'system default destination: HP_LaserJet_M404\n' },
      'lpoptions -p HP_LaserJet_M404': { stdout: fixture('lpoptions-hp.txt') },
      'lpoptions -p': { stdout: 'PageSize/Page Size: *A4 A3\n' },
    });
    const printers = await new CupsDriver({ runner, server: '127.0.0.1:1631' }).list();
    expect(printers.find((p) => p.isDefault)).toMatchObject({
      id: 'cups:HP_LaserJet_M404',
      name: '三楼年级组 HP M404',
      state: 'printing',
      duplex: true,
    });
    expect(printers[0]).toMatchObject({ state: 'stopped', stateMessage: 'Paper jam' });
    expect(runner.calls[0]!.env).toMatchObject({ LC_ALL: 'C', CUPS_SERVER: '127.0.0.1:1631' });

    const missing = new Replay({ 'lpstat -l -p': { code: -1, stderr: 'spawn lpstat ENOENT' } });
    await expect(new CupsDriver({ runner: missing }).list()).rejects.toThrow(T.printCupsMissing);
    const down = new Replay({
      'lpstat -l -p': { code: 1, stderr: 'lpstat: Unable to connect to server: Connection refused' },
    });
    await expect(new CupsDriver({ runner: down }).list()).rejects.toThrow(T.printCupsNotRunning);
    const none = new Replay({ 'lpstat -l -p': { code: 1, stderr: 'lpstat: No destinations added.' } });
    expect(await new CupsDriver({ runner: none }).list()).toEqual([]);
  });
});

describe('IPP messages', () => {
  it('encodes a Print-Job request byte for byte (RFC 8010)', () => {
    const buf = encodeIppRequest({
      operation: IPP_OPERATION.printJob,
      requestId: 7,
      operationAttributes: [
        { tag: IPP_TAG.charset, name: 'attributes-charset', value: 'utf-8' },
        { tag: IPP_TAG.keyword, name: 'requested-attributes', value: ['a', 'bc'] },
      ],
      jobAttributes: [{ tag: IPP_TAG.integer, name: 'copies', value: 2 }],
    });
    const expected = Buffer.concat([
      Buffer.from([2, 0, 0, 2, 0, 0, 0, 7, IPP_GROUP.operation]),
      Buffer.from([IPP_TAG.charset, 0, 18]),
      Buffer.from('attributes-charset'),
      Buffer.from([0, 5]),
      Buffer.from('utf-8'),
      Buffer.from([IPP_TAG.keyword, 0, 20]),
      Buffer.from('requested-attributes'),
      Buffer.from([0, 1]),
      Buffer.from('a'),
      Buffer.from([IPP_TAG.keyword, 0, 0, 0, 2]),
      Buffer.from('bc'),
      Buffer.from([IPP_GROUP.job, IPP_TAG.integer, 0, 6]),
      Buffer.from('copies'),
      Buffer.from([0, 4, 0, 0, 0, 2, IPP_GROUP.end]),
    ]);
    expect(buf.equals(expected)).toBe(true);
  });

  it('decodes groups, several values, text with language and collections', () => {
    const attr = (tag: number, name: string, value: Buffer) => {
      const head = Buffer.alloc(3);
      head[0] = tag;
      head.writeUInt16BE(name.length, 1);
      const len = Buffer.alloc(2);
      len.writeUInt16BE(value.length);
      return Buffer.concat([head, Buffer.from(name), len, value]);
    };
    const int = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeInt32BE(n);
      return b;
    };
    const lang = Buffer.concat([
      Buffer.from([0, 5]),
      Buffer.from('zh-cn'),
      Buffer.from([0, 6]),
      Buffer.from('卡纸'),
    ]);
    const msg = Buffer.concat([
      Buffer.from([2, 0, 0, 0, 0, 0, 0, 9, IPP_GROUP.operation]),
      attr(IPP_TAG.text, 'status-message', Buffer.from('successful-ok')),
      Buffer.from([IPP_GROUP.printer]),
      attr(IPP_TAG.enum, 'printer-state', int(5)),
      attr(IPP_TAG.textWithLanguage, 'printer-state-message', lang),
      attr(IPP_TAG.keyword, 'sides-supported', Buffer.from('one-sided')),
      attr(IPP_TAG.keyword, '', Buffer.from('two-sided-long-edge')),
      attr(IPP_TAG.begCollection, 'media-col-default', Buffer.alloc(0)),
      attr(IPP_TAG.memberAttrName, '', Buffer.from('media-size')),
      attr(IPP_TAG.begCollection, '', Buffer.alloc(0)),
      attr(IPP_TAG.memberAttrName, '', Buffer.from('x-dimension')),
      attr(IPP_TAG.integer, '', int(21000)),
      attr(IPP_TAG.memberAttrName, '', Buffer.from('y-dimension')),
      attr(IPP_TAG.integer, '', int(29700)),
      attr(IPP_TAG.endCollection, '', Buffer.alloc(0)),
      attr(IPP_TAG.endCollection, '', Buffer.alloc(0)),
      attr(IPP_TAG.boolean, 'printer-is-accepting-jobs', Buffer.from([1])),
      Buffer.from([IPP_GROUP.end]),
    ]);
    const res = decodeIppResponse(msg);
    expect(res).toMatchObject({ statusCode: 0, requestId: 9 });
    expect(groupOf(res, 'printer')).toEqual({
      'printer-state': 5,
      'printer-state-message': '卡纸',
      'sides-supported': ['one-sided', 'two-sided-long-edge'],
      'media-col-default': { 'media-size': { 'x-dimension': 21000, 'y-dimension': 29700 } },
      'printer-is-accepting-jobs': true,
    });
    expect(() => decodeIppResponse(msg.subarray(0, 30))).toThrow(/truncated/);
  });

  it('maps URLs: ipp to http on 631, the printer-uri always ipp', () => {
    expect(httpUrlOf('ipp://192.168.1.20/ipp/print')).toBe('http://192.168.1.20:631/ipp/print');
    expect(httpUrlOf('ipps://p.local:443/ipp/print')).toBe('https://p.local:443/ipp/print');
    expect(printerUriOf('http://127.0.0.1:8631/printers/pdf')).toBe('ipp://127.0.0.1:8631/printers/pdf');
  });

  describe('against a printer that refuses', () => {
    let server: http.Server;
    let url = '';
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          // server-error-not-accepting-jobs with a status message.
          const body = Buffer.concat([
            Buffer.from([2, 0, 0x05, 0x06, 0, 0, 0, 1, IPP_GROUP.operation, IPP_TAG.text, 0, 14]),
            Buffer.from('status-message'),
            Buffer.from([0, 6]),
            Buffer.from('paused'),
            Buffer.from([IPP_GROUP.end]),
          ]);
          res.writeHead(200, { 'content-type': 'application/ipp' }).end(body);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const a = server.address();
      url = `ipp://127.0.0.1:${a && typeof a === 'object' ? a.port : 0}/ipp/print`;
    });
    afterAll(() => new Promise((r) => server.close(r)));

    it('lists it with the reason and fails a job with a Chinese message', async () => {
      const driver = new IppDriver({ urls: [url, 'ipp://127.0.0.1:9/none'], timeoutMs: 3_000 });
      const [refusing, gone] = await driver.list();
      expect(refusing).toMatchObject({ state: 'unknown', stateMessage: T.printerNotAccepting(url) });
      expect(gone).toMatchObject({ state: 'unknown', stateMessage: T.printerUnreachable });
      const file = path.join(import.meta.dirname, 'fixtures', 'lpoptions-hp.txt');
      await expect(
        driver.print(
          { ...refusing!, name: '打印机甲' },
          { file, copies: 1, duplex: false, paper: 'A4', title: 't' },
        ),
      ).rejects.toThrow(T.printerNotAccepting('打印机甲'));
    });
  });
});

describe('Windows printing (PowerShell list, SumatraPDF), with recorded outputs', () => {
  it('parses the printer list: default, offline, duplex, ISO papers only', () => {
    const printers = parseWindowsPrinters(`\uFEFF${fixture('windows-printers.json')}`);
    expect(printers.map((p) => [p.name, p.isDefault, p.state, p.duplex, p.papers])).toEqual([
      ['HP LaserJet Pro M404-M405 PCL 6', true, 'idle', true, ['A4']],
      ['教务处 Canon iR-ADV C3525', false, 'stopped', false, ['A4', 'A3']],
      ['Microsoft Print to PDF', false, 'idle', null, ['A4']],
    ]);
    expect(printers[1]!.stateMessage).toBe(T.printerOffline);
    // PowerShell 5 writes a lone printer without the array.
    expect(parseWindowsPrinters(fixture('windows-printer-single.json'))).toMatchObject([
      { id: 'windows:Brother HL-L2350DW', state: 'printing', duplex: true },
    ]);
  });

  it('runs SumatraPDF with noscale, sides, copies and paper as arguments, and reports its failure in Chinese', async () => {
    expect(
      sumatraArgs('教务处 Canon', {
        file: 'C:\\a b\\card.pdf',
        copies: 2,
        duplex: true,
        paper: 'A3',
        title: 't',
      }),
    ).toEqual([
      '-print-to',
      '教务处 Canon',
      '-print-settings',
      'noscale,duplexlong,2x,paper=A3',
      '-silent',
      '-exit-when-done',
      'C:\\a b\\card.pdf',
    ]);
    const ok = new Replay({ 'C:\\zhzy\\SumatraPDF.exe': { stdout: '' } });
    const driver = new SumatraDriver({ sumatra: 'C:\\zhzy\\SumatraPDF.exe', runner: ok });
    const printer = parseWindowsPrinters(fixture('windows-printers.json'))[0]!;
    expect(
      await driver.print(printer, { file: 'c.pdf', copies: 1, duplex: false, paper: null, title: 't' }),
    ).toEqual({ systemJobId: null });
    expect(ok.calls[0]!.args).toContain('noscale,simplex,1x');
    const bad = new Replay({
      'C:\\zhzy\\SumatraPDF.exe': { code: 1, stderr: fixture('sumatra-no-printer.txt') },
    });
    await expect(
      new SumatraDriver({ sumatra: 'C:\\zhzy\\SumatraPDF.exe', runner: bad }).print(printer, {
        file: 'c.pdf',
        copies: 1,
        duplex: false,
        paper: null,
        title: 't',
      }),
    ).rejects.toThrow(T.printerGone(printer.name));
    const missing = new Replay({ 'C:\\zhzy\\SumatraPDF.exe': { code: -1, stderr: 'spawn ENOENT' } });
    await expect(
      new SumatraDriver({ sumatra: 'C:\\zhzy\\SumatraPDF.exe', runner: missing }).print(printer, {
        file: 'c.pdf',
        copies: 1,
        duplex: false,
        paper: null,
        title: 't',
      }),
    ).rejects.toThrow(T.printSumatraMissing);
    const list = new Replay({ 'powershell.exe': { stdout: fixture('windows-printers.json') } });
    expect(await new SumatraDriver({ sumatra: 's', runner: list }).list()).toHaveLength(3);
    expect(list.calls[0]!.args).toContain('-EncodedCommand');
  });
});

describe('PDF facts and paper names', () => {
  it('reads pages and paper from a rendered card, refuses what is not a PDF', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const students = [1, 2, 3].map((i) => ({ id: `s${i}`, name: `学生${i}` }));
    await renderCardPdf(demoLayout('qr'), { output: out, students });
    const facts = pdfFacts(Buffer.concat(chunks));
    expect(facts).toMatchObject({ pages: 3 * demoLayout('qr').pages.length, paper: 'A4' });
    expect(pdfFacts(Buffer.from('GIF89a'))).toBeNull();
    expect(paperOfSize(420, 297)).toBe('A3');
    expect(paperOfSize(215.9, 279.4)).toBeNull();
    expect(paperOfMedia('iso_b4_250x353mm')).toBe('B4');
    expect(paperOfMedia('B4 (JIS)')).toBeUndefined();
  });
});
