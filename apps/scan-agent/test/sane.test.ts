import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T } from '../src/i18n/zh-CN.js';
import type { ScanEvent, ScanRequest } from '../src/scanners/port.js';
import { capabilitiesOf, mapSaneOptions, parseSaneOptions } from '../src/scanners/sane/options.js';
import { SaneScanner, buildSaneScanArgs, parseSaneList } from '../src/scanners/sane/sane-driver.js';
import { saneTestConfig, tempDir } from './helpers.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

async function collect(
  events: AsyncIterable<ScanEvent>,
): Promise<{ pages: string[]; notices: { kind: string; message: string }[]; times: number[] }> {
  const pages: string[] = [];
  const notices: { kind: string; message: string }[] = [];
  const times: number[] = [];
  for await (const e of events) {
    if (e.type === 'page') {
      pages.push(e.page.file!);
      times.push(Date.now());
    } else notices.push({ kind: e.kind, message: e.message });
  }
  return { pages, notices, times };
}

describe('SANE option mapping (by meaning, not by literal)', () => {
  it('reads a Fujitsu feeder: ADF Front / ADF Duplex, Lineart/Gray/Color, a resolution range and page size', () => {
    const mapping = mapSaneOptions(parseSaneOptions(fixture('sane-fujitsu-fi7160.txt')));
    expect(mapping.sources.feeder?.source).toBe('ADF Front');
    expect(mapping.sources.feederDuplex?.source).toBe('ADF Duplex');
    expect(mapping.sources.flatbed).toBeUndefined();
    expect(mapping.modes.color).toEqual(['--mode', 'Color']);
    expect(mapping.modes.lineart).toEqual(['--mode', 'Lineart']);
    expect(mapping.resolutions).toContain(300);
    expect(mapping.pageSizeOptions).toBe(true);
    const caps = capabilitiesOf(mapping);
    expect(caps.sources).toEqual(['feeder', 'feederDuplex']);
    expect(caps.maxWidthMm).toBeCloseTo(215.872);
  });

  it('reads an Epson whose duplex is a separate --adf-mode option', () => {
    const mapping = mapSaneOptions(parseSaneOptions(fixture('sane-epson2-ds.txt')));
    expect(mapping.sources.flatbed?.source).toBe('Flatbed');
    expect(mapping.sources.feeder).toEqual({
      source: 'Automatic Document Feeder',
      extra: ['--adf-mode=Simplex'],
    });
    expect(mapping.sources.feederDuplex).toEqual({
      source: 'Automatic Document Feeder',
      extra: ['--adf-mode=Duplex'],
    });
    expect(mapping.resolutions).toEqual([75, 150, 300, 600, 1200]);
  });

  it('builds argument arrays (values with spaces stay one argument) and clamps the area to the device', () => {
    const mapping = mapSaneOptions(parseSaneOptions(fixture('sane-epson2-ds.txt')));
    const request: ScanRequest = {
      source: 'feederDuplex',
      colorMode: 'color',
      resolution: 300,
      paper: { widthMm: 250, heightMm: 353 },
      workDir: '/tmp/x y',
    };
    const args = buildSaneScanArgs('epson2:net:192.168.1.40', mapping, request, 7);
    expect(args).toEqual([
      '-d',
      'epson2:net:192.168.1.40',
      '--source=Automatic Document Feeder',
      '--adf-mode=Duplex',
      '--mode',
      'Color',
      '--depth',
      '8',
      '--resolution=300',
      '-l',
      '0',
      '-t',
      '0',
      '-x',
      '215.9',
      '-y',
      '297.18',
      '--format=png',
      '--batch=/tmp/x y/p-%04d.png',
      '--batch-start=7',
      '--batch-print',
    ]);
  });

  it('parses device lists whose names hold colons, spaces and bars', () => {
    const devices = parseSaneList(
      'airscan:e0:Canon TR8500 series|Canon|TR8500 series|eSCL network scanner\ntest:0|Noname|frontend-tester|virtual device\ntest:1|Noname|frontend-tester|virtual device\n',
    );
    expect(devices.map((d) => [d.id, d.name])).toEqual([
      ['airscan:e0:Canon TR8500 series', 'Canon TR8500 series'],
      ['test:0', 'frontend-tester (test:0)'],
      ['test:1', 'frontend-tester (test:1)'],
    ]);
  });
});

describe('SANE through scanimage and the test backend', () => {
  const config = saneTestConfig();
  let work: { dir: string; remove: () => void };
  const scanner = (extra: string[] = [], scanimage?: string) =>
    new SaneScanner({
      configDir: config.dir,
      extraScanArgs: ['--test-picture=Grid', ...extra],
      ...(scanimage ? { scanimage } : {}),
    });
  const request = (over: Partial<ScanRequest> = {}): ScanRequest => ({
    source: 'feeder',
    colorMode: 'grey',
    resolution: 100,
    paper: null,
    workDir: work.dir,
    ...over,
  });

  beforeAll(() => {
    work = tempDir('zhzy-sane-work-');
  });
  afterAll(() => {
    work.remove();
    config.remove();
  });

  it('lists test:0 and test:1 and tells what they offer', async () => {
    const s = scanner();
    const devices = await s.list();
    expect(devices.map((d) => d.id)).toEqual(['test:0', 'test:1']);
    const caps = await s.capabilities('test:0');
    expect(caps.sources).toEqual(['flatbed', 'feeder']);
    expect(caps.colorModes).toEqual(['color', 'grey', 'lineart']);
    expect(caps.maxWidthMm).toBe(200);
  });

  it('streams a feeder batch of 10 pages counted from --batch-print, then reports the emptied feeder', async () => {
    const dir = path.join(work.dir, 'ten');
    fs.mkdirSync(dir);
    const { pages, notices } = await collect(
      scanner().scan('test:0', request({ workDir: dir }), new AbortController().signal),
    );
    expect(pages.map((p) => path.basename(p))).toEqual(
      Array.from({ length: 10 }, (_, i) => `p-${String(i + 1).padStart(4, '0')}.png`),
    );
    expect(notices).toEqual([{ kind: 'feederEmpty', message: T.feederEmptyDone }]);
    const meta = await sharp(pages[0]).metadata();
    expect([meta.width, meta.height]).toEqual([314, 393]);
  });

  it('scans 1-bit pages when asked for line art', async () => {
    const dir = path.join(work.dir, 'bw');
    fs.mkdirSync(dir);
    const { pages } = await collect(
      scanner(['--batch-count=2']).scan(
        'test:0',
        request({ workDir: dir, colorMode: 'lineart' }),
        new AbortController().signal,
      ),
    );
    expect(pages).toHaveLength(2);
    expect((await sharp(pages[0]).metadata()).bitsPerSample).toBe(1);
  });

  it('falls into no trap when the feeder is empty: exit 0, no file, feeder-empty notice', async () => {
    const dir = path.join(work.dir, 'empty');
    fs.mkdirSync(dir);
    const { pages, notices } = await collect(
      scanner(['--read-return-value=SANE_STATUS_NO_DOCS']).scan(
        'test:0',
        request({ workDir: dir }),
        new AbortController().signal,
      ),
    );
    expect(pages).toEqual([]);
    expect(notices).toEqual([{ kind: 'feederEmpty', message: T.feederEmpty }]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['SANE_STATUS_JAMMED', 'jam', T.jam],
    ['SANE_STATUS_COVER_OPEN', 'coverOpen', T.coverOpen],
    ['SANE_STATUS_DEVICE_BUSY', 'busy', T.busy],
    ['SANE_STATUS_IO_ERROR', 'error', T.ioError],
  ])('maps %s (scanimage exit code) to a Chinese notice', async (status, kind, message) => {
    const dir = path.join(work.dir, status);
    fs.mkdirSync(dir);
    const { pages, notices } = await collect(
      scanner([`--read-return-value=${status}`]).scan(
        'test:0',
        request({ workDir: dir }),
        new AbortController().signal,
      ),
    );
    expect(pages).toEqual([]);
    expect(notices).toEqual([{ kind, message }]);
  });

  it('keeps the pages before a jam in the middle of a batch and reports the jam', async () => {
    const dir = path.join(work.dir, 'jam-mid');
    fs.mkdirSync(dir);
    const wrapper = path.join(import.meta.dirname, 'fixtures', 'scanimage-jam-after.mjs');
    process.env.ZHZY_JAM_AFTER = '4';
    try {
      const { pages, notices } = await collect(
        scanner([], wrapper).scan(
          'test:0',
          request({ workDir: dir, startNumber: 3 }),
          new AbortController().signal,
        ),
      );
      expect(pages.map((p) => path.basename(p))).toEqual([
        'p-0003.png',
        'p-0004.png',
        'p-0005.png',
        'p-0006.png',
      ]);
      expect(notices).toEqual([{ kind: 'jam', message: T.jam }]);
    } finally {
      delete process.env.ZHZY_JAM_AFTER;
    }
  });

  it('hands over each page of a slow scanner as soon as it is written, and stops the tool when cancelled', async () => {
    const dir = path.join(work.dir, 'slow');
    fs.mkdirSync(dir);
    const slow = scanner([
      '--read-delay=yes',
      '--read-delay-duration=60000',
      '--read-limit=yes',
      '--read-limit-size=8192',
    ]);
    const started = Date.now();
    const controller = new AbortController();
    const seen: number[] = [];
    for await (const e of slow.scan('test:0', request({ workDir: dir }), controller.signal)) {
      if (e.type !== 'page') continue;
      seen.push(Date.now() - started);
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toHaveLength(2);
    // Pages trickle in (each takes its time) and the batch ends at once when cancelled, long before 10 pages.
    expect(seen[1]! - seen[0]!).toBeGreaterThan(200);
    expect(Date.now() - started).toBeLessThan(seen[1]! + 6_000);
  });
});
