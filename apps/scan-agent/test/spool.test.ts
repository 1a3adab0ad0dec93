import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ScanSettingsSchema } from '@zhzy/contracts';
import { ScanManager } from '../src/scan/manager.js';
import { Spool } from '../src/spool/spool.js';
import { Uploader } from '../src/spool/uploader.js';
import { tempDir } from './helpers.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const data = tempDir('zhzy-spool-');
afterAll(() => data.remove());

const jpeg = (shade: number) =>
  sharp({ create: { width: 120, height: 170, channels: 3, background: { r: shade, g: shade, b: shade } } })
    .jpeg()
    .toBuffer();

describe('the spool survives a crash at any point', () => {
  it('keeps a torn journal line out, adopts a page written but not journaled, and finishes raw pages left behind', async () => {
    const spool = new Spool(data.dir);
    const batch = await spool.create({
      id: 'b-1',
      settings: ScanSettingsSchema.parse({ scannerIndex: 0, adaptive: true }),
      source: {
        id: 0,
        text: '虚拟扫描仪',
        deviceId: 'virtual:virtual',
        driver: 'virtual',
        feeder: true,
        duplex: true,
      },
      host: null,
      createdAt: '2026-03-02T08:00:00.000Z',
    });
    const base = { rawName: null, side: null, width: 120, height: 170, dpi: 300, blank: false, skewDeg: 0 };
    await batch.addPage(await jpeg(200), { ...base, name: 'p-0001.jpg', sha256: 'a'.repeat(64) });
    await batch.addPage(await jpeg(190), { ...base, name: 'p-0002.jpg', sha256: 'b'.repeat(64) });
    await batch.close();

    // What a crash can leave: a half-written journal line, a page file renamed but not journaled, a temp file, and
    // a raw page the scanner delivered before the agent could normalise it.
    fs.appendFileSync(path.join(batch.dir, 'journal.ndjson'), '{"t":"page","page":{"seq":3,"na');
    fs.writeFileSync(path.join(batch.pagesDir, '00003.jpg'), await jpeg(180));
    fs.writeFileSync(path.join(batch.pagesDir, '00004.jpg.123.tmp'), 'half');
    fs.writeFileSync(
      path.join(batch.rawDir, 'p-0004.png'),
      await sharp(await jpeg(170))
        .png()
        .toBuffer(),
    );

    const manager = new ScanManager({
      scanners: [],
      spool: new Spool(data.dir),
      uploader: new Uploader(),
      allowedHosts: () => [],
      log: silent,
    });
    await manager.init();
    const detail = manager.detail('b-1');
    expect(detail.pages.map((p) => [p.seq, p.name])).toEqual([
      [1, 'p-0001.jpg'],
      [2, 'p-0002.jpg'],
      [3, 'recovered-0003.jpg'],
      [4, 'p-0004.jpg'],
    ]);
    expect(detail.batch.state).toBe('paused');
    expect(detail.batch.lastNotice?.kind).toBe('interrupted');
    expect(fs.readdirSync(batch.pagesDir).sort()).toEqual([
      '00001.jpg',
      '00002.jpg',
      '00003.jpg',
      '00004.jpg',
    ]);
    expect(fs.readdirSync(batch.rawDir)).toEqual([]);
    const lines = fs.readFileSync(path.join(batch.dir, 'journal.ndjson'), 'utf8').trimEnd().split('\n');
    expect(lines.every((l) => JSON.parse(l) !== null)).toBe(true);
    await manager.close();

    // A second start finds the same, adds nothing.
    const again = new ScanManager({
      scanners: [],
      spool: new Spool(data.dir),
      uploader: new Uploader(),
      allowedHosts: () => [],
      log: silent,
    });
    await again.init();
    expect(again.detail('b-1').pages).toHaveLength(4);
    await again.close();
  });
});
