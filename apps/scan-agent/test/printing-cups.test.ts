import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCardPdf } from '@zhzy/answer-card/render';
import {
  PrintJobSchema,
  PrinterListSchema,
  type CardLayout,
  type PrintJob,
  type Printer,
  type WsServerMessage,
} from '@zhzy/contracts';
import WebSocket from 'ws';
import { T } from '../src/i18n/zh-CN.js';
import { CupsDriver } from '../src/printers/cups/cups-driver.js';
import { IppDriver } from '../src/printers/ipp/ipp-driver.js';
import { demoLayout } from '../src/scanners/virtual/demo-card.js';
import { startTestCups, type TestCups } from './cups.js';
import { scriptToken, startTestAgent, tempDir, until, type TestAgent } from './helpers.js';

/*
 * Real printing: a private cupsd with a cups-pdf queue, the agent printing an answer card through it with `lp` and
 * through the queue's IPP endpoint, and the PDF that comes out of the "printer" checked: pages, paper size, and the
 * four corner anchors where the card model puts them (printed at 100 %, not fitted to the page).
 */

const run = promisify(execFile);
const DPI = 150;
const ACCESS_TOKEN = 'teacher-access-token-0123456789';
const HW_PATH = '/teacher/homework/card/hw-print-1/pdf';

let cups: TestCups;
let agent: TestAgent;
let host: http.Server;
let hostBase = '';
let hostRequests: { auth: string | undefined; body: string }[] = [];
let layout: CardLayout;
let cardPdf: Buffer;
const work = tempDir('zhzy-print-');

async function renderCard(l: CardLayout): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await renderCardPdf(l, {
    output: out,
    students: [{ id: 's1', name: '李明', number: '20260101', className: '七年级(1)班' }],
  });
  return Buffer.concat(chunks);
}

const headers = () => ({ authorization: `Bearer ${scriptToken(agent.dataDir)}` });

async function get(pathname: string) {
  const res = await fetch(`${agent.base}${pathname}`, { headers: headers() });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function post(pathname: string, body: unknown) {
  const res = await fetch(`${agent.base}${pathname}`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function upload(query: Record<string, string>, pdf: Buffer, type = 'application/pdf') {
  const res = await fetch(`${agent.base}/print/upload?${new URLSearchParams(query).toString()}`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': type },
    body: new Uint8Array(pdf),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function finished(id: string): Promise<PrintJob> {
  let job: PrintJob | undefined;
  await until(
    async () => {
      job = PrintJobSchema.parse((await get(`/print/jobs/${id}`)).body);
      return job.state === 'done' || job.state === 'failed' || job.state === 'cancelled';
    },
    60_000,
    `print job ${id}`,
  );
  return job!;
}

interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Rasterises one page of a PDF in grey (pdftoppm) and parses the PGM. */
async function raster(pdf: string, page: number): Promise<Gray> {
  const base = path.join(work.dir, `r-${path.basename(pdf)}-${page}`);
  await run('pdftoppm', [
    '-r',
    String(DPI),
    '-gray',
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    pdf,
    base,
  ]);
  const buf = fs.readFileSync(`${base}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(buf.toString('latin1', 0, 40))!;
  const width = Number(header[1]);
  const height = Number(header[2]);
  return {
    width,
    height,
    data: new Uint8Array(buf.buffer, buf.byteOffset + header[0].length, width * height),
  };
}

/** The centre (mm) of the dark pixels around where an anchor should be (its rectangle grown by 4 mm). */
function inkCentre(img: Gray, rect: { x: number; y: number; w: number; h: number }) {
  const toPx = (mm: number) => Math.round((mm / 25.4) * DPI);
  const x0 = Math.max(0, toPx(rect.x - 4));
  const y0 = Math.max(0, toPx(rect.y - 4));
  const x1 = Math.min(img.width - 1, toPx(rect.x + rect.w + 4));
  const y1 = Math.min(img.height - 1, toPx(rect.y + rect.h + 4));
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++)
      if (img.data[y * img.width + x]! < 128) {
        n++;
        sx += x + 0.5;
        sy += y + 0.5;
      }
  const mm = (p: number) => (p / DPI) * 25.4;
  return n ? { x: mm(sx / n), y: mm(sy / n), inkMm2: n * mm(1) ** 2 } : null;
}

/** Checks a printed PDF page by page against the card model: paper size and every anchor within 0.5 mm. */
async function expectUnscaled(pdf: string, copies: number) {
  const { stdout } = await run('pdfinfo', [pdf]);
  expect(Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1])).toBe(layout.pages.length * copies);
  const size = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(stdout)!;
  const pt = (v: string) => (Number(v) / 72) * 25.4;
  expect(Math.abs(pt(size[1]!) - layout.pages[0]!.widthMm)).toBeLessThan(1);
  expect(Math.abs(pt(size[2]!) - layout.pages[0]!.heightMm)).toBeLessThan(1);
  for (let copy = 0; copy < copies; copy++)
    for (const page of layout.pages) {
      const img = await raster(pdf, copy * layout.pages.length + page.index + 1);
      expectAnchors(img, page);
    }
}

/** The four corner anchors of a layout page are on the raster where the model puts them, within 0.5 mm, full size. */
function expectAnchors(img: Gray, page: CardLayout['pages'][number]) {
  const anchors = page.elements.filter((e) => e.type === 'anchor');
  expect(anchors).toHaveLength(4);
  for (const a of anchors) {
    const found = inkCentre(img, a.rect);
    expect(found, `anchor ${a.id}`).not.toBeNull();
    expect(Math.abs(found!.x - (a.rect.x + a.rect.w / 2)), `anchor ${a.id} x`).toBeLessThan(0.5);
    expect(Math.abs(found!.y - (a.rect.y + a.rect.h / 2)), `anchor ${a.id} y`).toBeLessThan(0.5);
    // The whole anchor is there, at its size (a scaled print shrinks it).
    expect(found!.inkMm2 / (a.rect.w * a.rect.h), `anchor ${a.id} size`).toBeGreaterThan(0.9);
    expect(found!.inkMm2 / (a.rect.w * a.rect.h), `anchor ${a.id} size`).toBeLessThan(1.1);
  }
}

beforeAll(async () => {
  cups = await startTestCups();
  layout = demoLayout('qr');
  cardPdf = await renderCard(layout);
  host = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hostRequests.push({ auth: req.headers.authorization, body });
      if (req.method !== 'POST' || req.url !== HW_PATH) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":404,"message":"作业不存在"}');
        return;
      }
      if (req.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":401,"message":"登录已过期"}');
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/pdf', 'content-length': cardPdf.length })
        .end(cardPdf);
    });
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  const address = host.address();
  hostBase = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
  agent = await startTestAgent(
    {
      printers: [new CupsDriver({ server: cups.server }), new IppDriver({ urls: [cups.ippUrl] })],
      printPollMs: 100,
    },
    { AGENT_HOST_URLS: hostBase },
  );
}, 60_000);

afterAll(async () => {
  await agent?.stop();
  await new Promise((r) => host?.close(r));
  await cups?.stop();
  work.remove();
});

describe('printing through CUPS (a private cupsd with a cups-pdf queue)', () => {
  let printers: Printer[] = [];

  it('lists the CUPS queue and its IPP endpoint as printers', async () => {
    const res = await get('/printers?refresh=1');
    expect(res.status).toBe(200);
    printers = PrinterListSchema.parse(res.body).printers;
    const queue = printers.find((p) => p.id === `cups:${cups.queue}`);
    expect(queue).toMatchObject({ name: '测试 PDF 打印机', driver: 'cups', state: 'idle' });
    expect(queue!.papers).toEqual(expect.arrayContaining(['A4', 'A3', 'B4', 'B5']));
    const ipp = printers.find((p) => p.id === `ipp:${cups.ippUrl}`);
    expect(ipp).toMatchObject({ name: '测试 PDF 打印机', driver: 'ipp', state: 'idle' });
  });

  it('prints an answer card sent by the page with lp, at 100 %: pages, A4, anchors where the model puts them', async () => {
    const res = await upload(
      { printerId: `cups:${cups.queue}`, copies: '1', title: '期中考试答题卡' },
      cardPdf,
    );
    expect(res.status).toBe(200);
    const job = await finished(String(res.body.id));
    expect(job).toMatchObject({ state: 'done', pages: layout.pages.length, paper: 'A4', copies: 1 });
    expect(job.systemJobId).toMatch(new RegExp(`^${cups.queue}-\\d+$`));
    await expectUnscaled(await cups.output(job.systemJobId!), 1);
    // The spooled PDF is gone once printed.
    expect(fs.readdirSync(path.join(agent.dataDir, 'print'))).toEqual([]);
  });

  it('prints a card it downloads from the host with the teacher’s token, two copies, over IPP, and reports progress on the websocket', async () => {
    const ws = new WebSocket(`${agent.base.replace('http', 'ws')}/ws`);
    const seen: PrintJob['state'][] = [];
    ws.on('message', (raw: Buffer) => {
      const m = JSON.parse(raw.toString()) as WsServerMessage;
      if (m.type === 'print') seen.push(m.job.state);
    });
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ v: 2, type: 'auth', token: scriptToken(agent.dataDir) }));
    await until(() => seen.length === 0 && ws.readyState === ws.OPEN, 5_000);
    await new Promise((r) => setTimeout(r, 200));
    hostRequests = [];
    const res = await post('/print', {
      printerId: `ipp:${cups.ippUrl}`,
      copies: 2,
      paper: 'A4',
      title: '七年级数学 答题卡',
      source: { baseUrl: hostBase, path: HW_PATH, body: { kind: 'students' }, accessToken: ACCESS_TOKEN },
    });
    expect(res.status).toBe(200);
    const job = await finished(String(res.body.id));
    expect(job).toMatchObject({ state: 'done', copies: 2, bytes: cardPdf.length });
    expect(hostRequests).toEqual([{ auth: `Bearer ${ACCESS_TOKEN}`, body: '{"kind":"students"}' }]);
    await expectUnscaled(await cups.output(job.systemJobId!), 2);
    await until(() => seen.includes('done'), 5_000, 'the done message');
    expect(seen).toEqual(expect.arrayContaining(['queued', 'downloading', 'sending', 'printing', 'done']));
    ws.close();
  });

  it('would notice a scaled print: the same card printed two-up (scaled down) fails the anchor check', async () => {
    const file = path.join(work.dir, 'card.pdf');
    fs.writeFileSync(file, cardPdf);
    const lp = cups.client('lp', ['-d', cups.queue, '-o', 'number-up=2', '-o', 'media=A4', '--', file]);
    expect(lp.code).toBe(0);
    const id = /request id is (\S+)/.exec(lp.stdout)![1]!;
    const img = await raster(await cups.output(id), 1);
    expect(() => expectAnchors(img, layout.pages[0]!)).toThrow(/anchor/);
  });

  it('refuses what it must not print, with Chinese reasons', async () => {
    const notPdf = await upload({ printerId: `cups:${cups.queue}` }, Buffer.from('hello'));
    expect(notPdf).toMatchObject({ status: 415, body: { message: T.printNotPdf } });
    const noPrinter = await upload({ printerId: 'cups:nope' }, cardPdf);
    expect(noPrinter).toMatchObject({ status: 404, body: { message: T.printerNotFound } });
    const copies = await upload({ printerId: `cups:${cups.queue}`, copies: '0' }, cardPdf);
    expect(copies.status).toBe(400);
    expect(String(copies.body.message)).toContain('打印份数至少为1份');
    const source = { baseUrl: hostBase, path: HW_PATH, accessToken: ACCESS_TOKEN };
    const foreign = await post('/print', {
      printerId: `cups:${cups.queue}`,
      source: { ...source, baseUrl: 'http://evil.example.com' },
    });
    expect(foreign).toMatchObject({ status: 403, body: { message: T.hostNotAllowed } });
    const otherPath = await post('/print', {
      printerId: `cups:${cups.queue}`,
      source: { ...source, path: '/system/user/info' },
    });
    expect(otherPath).toMatchObject({ status: 400, body: { message: T.printPathRefused } });
    const wrongPaper = await upload({ printerId: `cups:${cups.queue}`, paper: 'A3' }, cardPdf);
    const mismatch = await finished(String(wrongPaper.body.id));
    expect(mismatch).toMatchObject({ state: 'failed', message: T.printPaperMismatch('A4', 'A3') });
  });

  it('fails a job with the reason when the host refuses the download or the queue refuses jobs', async () => {
    const expired = await post('/print', {
      printerId: `cups:${cups.queue}`,
      source: { baseUrl: hostBase, path: HW_PATH, accessToken: 'expired-token-0123456789' },
    });
    expect(await finished(String(expired.body.id))).toMatchObject({
      state: 'failed',
      message: T.printHostSignIn,
    });
    expect(cups.client('cupsreject', [cups.queue]).code).toBe(0);
    try {
      const refused = await upload({ printerId: `cups:${cups.queue}` }, cardPdf);
      expect(await finished(String(refused.body.id))).toMatchObject({
        state: 'failed',
        message: T.printerNotAccepting('测试 PDF 打印机'),
      });
    } finally {
      cups.client('cupsaccept', [cups.queue]);
    }
  });
});
