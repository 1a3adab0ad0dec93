import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { CardLayoutSchema, VirtualScanSchema, type CardElementOf } from '@zhzy/contracts';
import { T } from '../src/i18n/zh-CN.js';
import { normalisePage } from '../src/pages/normalise.js';
import {
  HotFolderScanner,
  IMPORTED_DIR,
  UNREADABLE_DIR,
} from '../src/scanners/hot-folder/hot-folder-driver.js';
import { demoLayout } from '../src/scanners/virtual/demo-card.js';
import { Random } from '../src/scanners/virtual/random.js';
import { decideSheet, demoStudents, renderSheetPage } from '../src/scanners/virtual/sheet.js';
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { blankPdf, bombPng, tempDir } from './helpers.js';

const work = tempDir('zhzy-pages-');
afterAll(() => work.remove());

/** A plain page with a few dark bars (text lines), optionally rotated. */
async function barsPage(width: number, height: number, rotate = 0, channels: 1 | 3 = 3): Promise<Buffer> {
  const bars = Array.from(
    { length: 12 },
    (_, i) =>
      `<rect x="${width * 0.1}" y="${height * (0.1 + i * 0.06)}" width="${width * 0.7}" height="${height * 0.012}" fill="#111"/>`,
  ).join('');
  let img = sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${bars}</svg>`,
    ),
  );
  if (rotate)
    img = sharp(await img.rotate(rotate, { background: '#ffffff' }).png().toBuffer()).resize(width, height, {
      fit: 'fill',
    });
  if (channels === 1) img = img.greyscale().toColourspace('b-w');
  return img.png().toBuffer();
}

describe('normalisation (SPEC §5)', () => {
  it('turns a 1-bit page into a true one-channel grey JPEG', async () => {
    const grey = await sharp(await barsPage(600, 850, 0, 1))
      .threshold(128)
      .toColourspace('b-w')
      .png({ palette: true, colours: 2 })
      .toBuffer();
    expect((await sharp(grey).metadata()).bitsPerSample).toBe(1);
    const page = await normalisePage(grey, { paperSize: 1, adaptive: true, autoDeskew: false, dpi: 72 });
    const meta = await sharp(page.jpeg).metadata();
    expect([meta.format, meta.channels, page.channels]).toEqual(['jpeg', 1, 1]);
    expect([page.width, page.height]).toEqual([600, 850]);
  });

  it.each([
    [1, 2480, 3507],
    [0, 2184, 3072],
    [2, 2079, 2954],
  ])('resizes paper code %i to %i×%i when adaptive is off', async (code, w, h) => {
    const page = await normalisePage(await barsPage(1240, 1754), {
      paperSize: code,
      adaptive: false,
      autoDeskew: false,
    });
    expect([page.width, page.height]).toEqual([w, h]);
    expect((await sharp(page.jpeg).metadata()).width).toBe(w);
  });

  it('leaves A3 and B4 (and any page when adaptive) at the scanned size', async () => {
    for (const [code, adaptive] of [
      [11, false],
      [6, false],
      [1, true],
    ] as const) {
      const page = await normalisePage(await barsPage(1000, 1400), {
        paperSize: code,
        adaptive,
        autoDeskew: false,
      });
      expect([page.width, page.height]).toEqual([1000, 1400]);
    }
  });

  it('straightens a page rotated by 1.5° (projection profile) and keeps its size', async () => {
    const page = await normalisePage(await barsPage(1240, 1754, 1.5), {
      paperSize: 1,
      adaptive: true,
      autoDeskew: true,
    });
    expect(page.skewDeg).toBeGreaterThan(1.2);
    expect(page.skewDeg).toBeLessThan(1.8);
    expect([page.width, page.height]).toEqual([1240, 1754]);
    const again = await normalisePage(page.jpeg, { paperSize: 1, adaptive: true, autoDeskew: true });
    expect(Math.abs(again.skewDeg)).toBeLessThan(0.3);
  });

  it('flags a blank page and keeps it; a page with content is not blank', async () => {
    const blank = await sharp({
      create: {
        width: 800,
        height: 1100,
        channels: 3,
        background: '#ffffff',
        noise: { type: 'gaussian', mean: 244, sigma: 3 },
      },
    })
      .jpeg()
      .toBuffer();
    expect((await normalisePage(blank, { paperSize: 1, adaptive: true, autoDeskew: true })).blank).toBe(true);
    expect(
      (await normalisePage(await barsPage(800, 1100), { paperSize: 1, adaptive: true, autoDeskew: true }))
        .blank,
    ).toBe(false);
  });

  it('refuses a page too large to be paper (a decompression bomb) instead of decoding it', async () => {
    // CPU time, not wall time: a busy machine stretches the wait for the answer, not the work done. Decoding the
    // 60000×60000 image would take seconds of CPU; reading its header, milliseconds.
    const cpu = process.cpuUsage();
    await expect(
      normalisePage(bombPng(), { paperSize: 1, adaptive: true, autoDeskew: false }),
    ).rejects.toThrow();
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(1_000);
  });
});

describe('the virtual scanner', () => {
  const layout = demoLayout();

  it('fills the real card layout schema', () => {
    expect(CardLayoutSchema.safeParse(layout).success).toBe(true);
  });

  it('produces pages of the card’s size that decode, with pencil marks exactly where the layout puts the chosen bubbles', async () => {
    const rng = new Random(42);
    const truth = decideSheet(layout, demoStudents(1)[0]!, rng, { q1: 'B', q2: 'D', q11: 'AC', q14: 'T' });
    const page = await renderSheetPage(layout, 0, truth, {
      dpi: 150,
      colorMode: 'grey',
      rng,
      realism: 'clean',
    });
    const meta = await sharp(page.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual([
      'jpeg',
      Math.round((210 / 25.4) * 150),
      Math.round((297 / 25.4) * 150),
    ]);
    const { data, info } = await sharp(page.image).greyscale().raw().toBuffer({ resolveWithObject: true });
    const mm = 150 / 25.4;
    const darkness = (r: { x: number; y: number; w: number; h: number }) => {
      let sum = 0;
      let n = 0;
      for (let y = Math.round((r.y + r.h * 0.2) * mm); y < (r.y + r.h * 0.8) * mm; y++) {
        for (let x = Math.round((r.x + r.w * 0.2) * mm); x < (r.x + r.w * 0.8) * mm; x++) {
          sum += 255 - data[y * info.width + x]!;
          n++;
        }
      }
      return sum / n / 255;
    };
    const rows = layout.pages[0]!.elements.filter(
      (e): e is CardElementOf<'objectiveBlock'> => e.type === 'objectiveBlock',
    ).flatMap((b) => b.rows);
    for (const [question, chosen] of Object.entries({ q1: 'B', q2: 'D', q11: 'AC', q14: 'T' })) {
      const row = rows.find((r) => r.questionId === question)!;
      for (const b of row.bubbles) {
        const d = darkness(b.rect);
        if (chosen.includes(b.option)) expect(d, `${question}${b.option}`).toBeGreaterThan(0.5);
        else expect(d, `${question}${b.option}`).toBeLessThan(0.25);
      }
    }
    expect(truth.answers).toMatchObject({ q1: 'B', q2: 'D', q11: 'AC', q14: 'T' });
  });

  it('feeds a class set like a duplex feeder: front and back per sheet, a jam on request, and the rest after resuming', async () => {
    const scanner = new VirtualScanner();
    const dir = path.join(work.dir, 'virtual');
    fs.mkdirSync(dir);
    const run = async (start: number) => {
      const pages: { side?: string }[] = [];
      const notices: string[] = [];
      for await (const e of scanner.scan(
        'virtual',
        {
          source: 'feederDuplex',
          colorMode: 'color',
          resolution: 100,
          paper: null,
          workDir: dir,
          startNumber: start,
          virtual: { sheets: 3, seed: 5, jamAfter: 2, pageIntervalMs: 0 },
        },
        new AbortController().signal,
      )) {
        if (e.type === 'page') pages.push({ ...(e.page.side ? { side: e.page.side } : {}) });
        else notices.push(e.kind);
      }
      return { pages, notices };
    };
    const first = await run(1);
    expect(first.pages.map((p) => p.side)).toEqual(['front', 'back', 'front', 'back']);
    expect(first.notices).toEqual(['jam']);
    const rest = await run(5);
    expect(rest.pages).toHaveLength(2);
    expect(rest.notices).toEqual(['feederEmpty']);
    expect(scanner.truths.get(dir)).toHaveLength(3);
  });

  it('fills the personalised cards of the students it is given, in feeder order, up to the sheet count', async () => {
    const scanner = new VirtualScanner();
    const dir = path.join(work.dir, 'virtual-students');
    fs.mkdirSync(dir);
    const students = ['a', 'b', 'c'].map((k, i) => ({
      id: `student-${k}`,
      name: `学生${k}`,
      number: `2026000${i + 1}`,
      className: '七年级(1)班',
    }));
    let pages = 0;
    for await (const e of scanner.scan(
      'virtual',
      {
        source: 'feeder',
        colorMode: 'grey',
        resolution: 100,
        paper: null,
        workDir: dir,
        virtual: VirtualScanSchema.parse({ sheets: 2, seed: 2, students }),
      },
      new AbortController().signal,
    )) {
      if (e.type === 'page') pages++;
    }
    expect(pages).toBe(2);
    expect(scanner.truths.get(dir)!.map((t) => [t.student.id, t.student.name])).toEqual([
      ['student-a', '学生a'],
      ['student-b', '学生b'],
    ]);
  });
});

describe('the hot folder', () => {
  it('imports stable JPEG, PNG, every TIFF page and PDF pages in name order, moving originals to 已导入', async () => {
    const inbox = path.join(work.dir, 'inbox');
    const out = path.join(work.dir, 'hot-work');
    fs.mkdirSync(inbox);
    fs.mkdirSync(out);
    const page = (n: number) =>
      sharp({ create: { width: 200, height: 280, channels: 3, background: { r: 250 - n, g: 250, b: 250 } } });
    fs.writeFileSync(path.join(inbox, '001.jpg'), await page(1).jpeg().toBuffer());
    fs.writeFileSync(path.join(inbox, '002.png'), await page(2).png().toBuffer());
    // A two-page TIFF.
    const tiff = await sharp([await page(3).png().toBuffer(), await page(4).png().toBuffer()], {
      join: { animated: true },
    })
      .tiff()
      .toBuffer();
    fs.writeFileSync(path.join(inbox, '003.tif'), tiff);
    fs.writeFileSync(path.join(inbox, 'still-copying.jpg.part'), 'x');
    fs.writeFileSync(path.join(inbox, 'notes.txt'), 'x');
    fs.writeFileSync(path.join(inbox, '004.jpg'), 'not an image');

    const scanner = new HotFolderScanner({
      folders: [inbox],
      pollMs: 50,
      stableMs: 150,
      idleTimeoutMs: 600,
      pdftoppm: null,
    });
    expect(await scanner.list()).toEqual([{ id: inbox, name: '扫描文件夹：inbox' }]);
    const names: string[] = [];
    const notices: string[] = [];
    for await (const e of scanner.scan(
      inbox,
      { source: 'feeder', colorMode: 'color', resolution: 300, paper: null, workDir: out },
      new AbortController().signal,
    )) {
      if (e.type === 'page') names.push(e.page.name);
      else notices.push(e.message);
    }
    expect(names).toEqual(['001.jpg', '002.png', '003-1.png', '003-2.png']);
    expect(notices).toEqual([T.unreadableFile('004.jpg')]);
    expect(fs.readdirSync(path.join(inbox, IMPORTED_DIR)).sort()).toEqual(['001.jpg', '002.png', '003.tif']);
    expect(fs.readdirSync(path.join(inbox, UNREADABLE_DIR))).toEqual(['004.jpg']);
    expect(fs.readdirSync(inbox).sort()).toEqual(
      [IMPORTED_DIR, UNREADABLE_DIR, 'notes.txt', 'still-copying.jpg.part'].sort(),
    );
  });

  it('rasterises PDF pages with pdftoppm, or says it cannot and keeps the file', async () => {
    const inbox = path.join(work.dir, 'pdf-inbox');
    const out = path.join(work.dir, 'pdf-work');
    fs.mkdirSync(inbox);
    fs.mkdirSync(out);
    const pdf = blankPdf(2);
    fs.writeFileSync(path.join(inbox, 'class.pdf'), pdf);
    const hasPdftoppm = fs.existsSync('/usr/bin/pdftoppm');
    const scanner = new HotFolderScanner({
      folders: [inbox],
      pollMs: 50,
      stableMs: 100,
      idleTimeoutMs: 500,
      ...(hasPdftoppm ? {} : { pdftoppm: null }),
    });
    const names: string[] = [];
    const notices: string[] = [];
    for await (const e of scanner.scan(
      inbox,
      { source: 'feeder', colorMode: 'color', resolution: 72, paper: null, workDir: out },
      new AbortController().signal,
    )) {
      if (e.type === 'page') names.push(e.page.name);
      else notices.push(e.message);
    }
    if (hasPdftoppm) expect(names).toEqual(['class-1.png', 'class-2.png']);
    else expect(notices).toEqual([T.pdfNeedsPoppler]);
    const none = new HotFolderScanner({
      folders: [inbox],
      pollMs: 50,
      stableMs: 100,
      idleTimeoutMs: 500,
      pdftoppm: null,
    });
    fs.writeFileSync(path.join(inbox, 'again.pdf'), pdf);
    const said: string[] = [];
    for await (const e of none.scan(
      inbox,
      { source: 'feeder', colorMode: 'color', resolution: 72, paper: null, workDir: out },
      new AbortController().signal,
    ))
      if (e.type === 'notice') said.push(e.message);
    expect(said).toEqual([T.pdfNeedsPoppler]);
    expect(fs.readdirSync(path.join(inbox, UNREADABLE_DIR))).toEqual(['again.pdf']);
  });
});
