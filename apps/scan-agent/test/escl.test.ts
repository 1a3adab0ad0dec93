import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T } from '../src/i18n/zh-CN.js';
import { StaticDiscovery, servicesFromRecords } from '../src/scanners/escl/discovery.js';
import { EsclScanner } from '../src/scanners/escl/escl-driver.js';
import type { ScanEvent, ScanRequest } from '../src/scanners/port.js';
import { startFakeEscl } from './fake-escl.js';

type Fake = Awaited<ReturnType<typeof startFakeEscl>>;

async function run(events: AsyncIterable<ScanEvent>, stopAfter = Infinity, controller?: AbortController) {
  const pages: { side?: string; data: Buffer; name: string }[] = [];
  const notices: { kind: string; message: string }[] = [];
  for await (const e of events) {
    if (e.type === 'page') {
      pages.push({ data: e.page.data!, name: e.page.name, ...(e.page.side ? { side: e.page.side } : {}) });
      if (pages.length >= stopAfter) controller?.abort();
    } else notices.push({ kind: e.kind, message: e.message });
  }
  return { pages, notices };
}

describe('eSCL over HTTP against a fake scanner on 127.0.0.1', () => {
  let fake: Fake;
  let scanner: EsclScanner;
  const request = (over: Partial<ScanRequest> = {}): ScanRequest => ({
    source: 'feederDuplex',
    colorMode: 'color',
    resolution: 300,
    paper: { widthMm: 210, heightMm: 297 },
    workDir: '/unused',
    ...over,
  });

  beforeAll(async () => {
    fake = await startFakeEscl({ sheets: 3 });
    scanner = new EsclScanner({
      discovery: new StaticDiscovery([
        { baseUrl: fake.baseUrl, name: 'Fake DocuScan 5000', uuid: null, duplex: true },
      ]),
      retryDelayMs: 10,
    });
  });
  afterAll(() => fake.close());

  it('lists the scanner and reads its capabilities (platen, feeder, duplex; colour modes; resolutions; area)', async () => {
    expect(await scanner.list()).toEqual([{ id: fake.baseUrl, name: 'Fake DocuScan 5000' }]);
    const caps = await scanner.capabilities(fake.baseUrl);
    expect(caps).toEqual({
      sources: ['flatbed', 'feeder', 'feederDuplex'],
      colorModes: ['color', 'grey', 'lineart'],
      resolutions: [150, 200, 300, 600],
      maxWidthMm: 215.9,
      maxHeightMm: 355.6,
    });
  });

  it('scans a duplex feeder batch page by page (front, back …) and ends on the emptied feeder', async () => {
    fake.setScript({ sheets: 3 });
    const { pages, notices } = await run(scanner.scan(fake.baseUrl, request(), new AbortController().signal));
    expect(pages.map((p) => p.side)).toEqual(['front', 'back', 'front', 'back', 'front', 'back']);
    expect(pages.map((p) => p.name)).toEqual([
      'escl-0001.jpg',
      'escl-0002.jpg',
      'escl-0003.jpg',
      'escl-0004.jpg',
      'escl-0005.jpg',
      'escl-0006.jpg',
    ]);
    expect((await sharp(pages[0]!.data).metadata()).format).toBe('jpeg');
    expect(notices).toEqual([{ kind: 'feederEmpty', message: T.feederEmptyDone }]);
    expect(fake.settings.at(-1)).toEqual({
      inputSource: 'Feeder',
      duplex: true,
      colorMode: 'RGB24',
      resolution: 300,
    });
  });

  it('waits out 503 answers of NextDocument and still gets every page', async () => {
    fake.setScript({ sheets: 2, retriesPerPage: 3 });
    const before = fake.log.length;
    const { pages } = await run(
      scanner.scan(fake.baseUrl, request({ source: 'feeder' }), new AbortController().signal),
    );
    expect(pages).toHaveLength(2);
    const answered = fake.log
      .slice(before)
      .filter((l) => l.url.endsWith('/NextDocument'))
      .map((l) => l.status);
    expect(answered).toEqual([503, 503, 503, 200, 503, 503, 503, 200, 404]);
  });

  it('reports a jam after the pages that made it through', async () => {
    fake.setScript({ sheets: 5, jamAfter: 2 });
    const { pages, notices } = await run(
      scanner.scan(fake.baseUrl, request({ source: 'feeder' }), new AbortController().signal),
    );
    expect(pages).toHaveLength(2);
    expect(notices).toEqual([{ kind: 'jam', message: T.jam }]);
  });

  it('reports a double feed (ScannerAdfMultipickDetected)', async () => {
    fake.setScript({ sheets: 5, doubleFeedAfter: 3 });
    const { pages, notices } = await run(
      scanner.scan(fake.baseUrl, request({ source: 'feeder' }), new AbortController().signal),
    );
    expect(pages).toHaveLength(3);
    expect(notices).toEqual([{ kind: 'doubleFeed', message: T.doubleFeed }]);
  });

  it('does not start a job on an empty feeder, an open hatch or a busy device', async () => {
    for (const [script, kind, message] of [
      [{ sheets: 0, adfState: 'ScannerAdfEmpty' }, 'feederEmpty', T.feederEmpty],
      [{ sheets: 2, adfState: 'ScannerAdfHatchOpen' }, 'coverOpen', T.coverOpen],
      [{ sheets: 2, state: 'Processing' as const }, 'busy', T.busy],
    ] as const) {
      fake.setScript(script);
      const jobsBefore = fake.log.filter((l) => l.method === 'POST').length;
      const { pages, notices } = await run(
        scanner.scan(fake.baseUrl, request({ source: 'feeder' }), new AbortController().signal),
      );
      expect(pages).toEqual([]);
      expect(notices).toEqual([{ kind, message }]);
      expect(fake.log.filter((l) => l.method === 'POST').length).toBe(jobsBefore);
    }
  });

  it('cancels the job on the device (DELETE) when the batch is stopped', async () => {
    fake.setScript({ sheets: 6, retriesPerPage: 1 });
    const controller = new AbortController();
    await run(
      scanner.scan(fake.baseUrl, request({ source: 'feeder' }), controller.signal),
      2,
      controller,
    ).catch(() => undefined);
    expect(fake.log.some((l) => l.method === 'DELETE' && /\/eSCL\/ScanJobs\/[\w-]+$/.test(l.url))).toBe(true);
  });

  it('turns mDNS answers for _uscan._tcp into scanner addresses (recorded records, no multicast)', () => {
    const services = servicesFromRecords([
      { name: '_uscan._tcp.local', type: 'PTR', data: 'Canon TR8500 series._uscan._tcp.local' },
      {
        name: 'Canon TR8500 series._uscan._tcp.local',
        type: 'SRV',
        data: { port: 80, target: 'canon-tr8500.local', priority: 0, weight: 0 },
      },
      {
        name: 'Canon TR8500 series._uscan._tcp.local',
        type: 'TXT',
        data: [
          Buffer.from('txtvers=1'),
          Buffer.from('ty=Canon TR8500 series'),
          Buffer.from('rs=eSCL'),
          Buffer.from('uuid=00000000-0000-1000-8000-60128b7c5e91'),
          Buffer.from('duplex=T'),
          Buffer.from('is=platen,adf'),
        ],
      },
      { name: 'canon-tr8500.local', type: 'A', data: '192.168.1.23' },
    ]);
    expect(services).toEqual([
      {
        baseUrl: 'http://192.168.1.23:80/eSCL',
        name: 'Canon TR8500 series',
        uuid: '00000000-0000-1000-8000-60128b7c5e91',
        duplex: true,
      },
    ]);
  });
});
