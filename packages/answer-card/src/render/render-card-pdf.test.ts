import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCardQr, type CardElementOf, type CardLayout, type Rect } from '@zhzy/contracts';
import { layoutCard } from '../layout/index.js';
import { pxToMm } from '../paper.js';
import { students, samplePaper, twoPageA3Paper } from '../testing/factories.js';
import { pageBubbles } from '../testing/geometry.js';
import {
  components,
  decodeQrCodes,
  pdfFonts,
  pdfPageCount,
  rasterize,
  requireTools,
  type Component,
  type Gray,
} from '../testing/raster.js';
import { CardFontMissingError, resolveCardFonts } from './fonts.js';
import { renderCardPdf, type CardStudent } from './render-card-pdf.js';

const DPI = 300;
const TOLERANCE_MM = 0.3;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-card-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const px = (c: number) => pxToMm(c, DPI);
const centre = (r: Rect) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });

async function renderToFile(
  name: string,
  layout: CardLayout,
  options: { students?: CardStudent[]; marks?: { page: number; rect: Rect }[] },
) {
  const file = path.join(tmp, `${name}.pdf`);
  const result = await renderCardPdf(layout, {
    ...options,
    output: fs.createWriteStream(file),
    creationDate: new Date(0),
  });
  return { file, result };
}

/** Solid, square components of the anchors' size (±20 %), found without looking at the model. */
function anchorCandidates(comps: Component[], sizeMm: number): Component[] {
  return comps.filter((c) => {
    const w = px(c.maxX - c.minX + 1);
    const h = px(c.maxY - c.minY + 1);
    const fill = c.area / ((c.maxX - c.minX + 1) * (c.maxY - c.minY + 1));
    return Math.abs(w - sizeMm) < sizeMm * 0.2 && Math.abs(h - sizeMm) < sizeMm * 0.2 && fill > 0.95;
  });
}

/** Where the first dark pixel lies scanning from `from` towards `to` along a row or column, in millimetres. */
function firstDark(
  img: Gray,
  axis: 'x' | 'y',
  fixedMm: number,
  fromMm: number,
  toMm: number,
): number | undefined {
  const toPx = (mm: number) => (mm / 25.4) * DPI;
  const fixed = Math.floor(toPx(fixedMm));
  const a = Math.round(toPx(fromMm));
  const b = Math.round(toPx(toMm));
  const step = a < b ? 1 : -1;
  for (let i = a; i !== b; i += step) {
    const v = axis === 'x' ? img.data[fixed * img.width + i]! : img.data[i * img.width + fixed]!;
    // The edge of the ink: a scan from the low side meets its left/top at i, from the high side its right/bottom at i + 1.
    if (v < 128) return px(step > 0 ? i : i + 1);
  }
  return undefined;
}

type Case = {
  name: string;
  layout: CardLayout;
  student: CardStudent;
  marks: { page: number; rect: Rect }[];
};

function makeCase(name: string, layout: CardLayout): Case {
  const marks = layout.pages.flatMap((p) =>
    pageBubbles(layout, p.index)
      .filter((_, i) => i % 9 === 0)
      .map((b) => ({ page: p.index, rect: b.rect })),
  );
  return { name, layout, student: students(3)[2]!, marks };
}

const CASES: Case[] = [
  makeCase(
    'a4-bubbles',
    layoutCard(samplePaper(), { size: 'A4', identity: 'bubbles' }, { cardId: 'card-a4', version: 2 }),
  ),
  makeCase(
    'a3-two-columns',
    layoutCard(
      twoPageA3Paper(),
      { size: 'A3', columns: 2, identity: 'qr' },
      { cardId: '0199a3f2-7c41-7b3e-9d5a-2f6c8e1b4a70', version: 7 },
    ),
  ),
];

beforeAll(() => requireTools(['pdftoppm', 'pdfinfo', 'pdffonts', 'zbarimg']));

describe.each(CASES)('renderCardPdf raster geometry at 300 dpi: $name', (c) => {
  let pages: { file: string; image: Gray }[] = [];
  beforeAll(async () => {
    const { file } = await renderToFile(c.name, c.layout, { students: [c.student], marks: c.marks });
    pages = await rasterize(file, { dpi: DPI });
  }, 60_000);

  it('renders one raster page per layout page at the paper size', () => {
    expect(pages).toHaveLength(c.layout.pages.length);
    for (const [i, p] of pages.entries()) {
      expect(Math.abs(px(p.image.width) - c.layout.pages[i]!.widthMm)).toBeLessThan(0.3);
      expect(Math.abs(px(p.image.height) - c.layout.pages[i]!.heightMm)).toBeLessThan(0.3);
    }
  });

  it('shows exactly four anchors per page, found by connected components, within 0.3 mm of the model', () => {
    for (const [i, p] of pages.entries()) {
      const model = c.layout.pages[i]!.elements.filter(
        (e): e is CardElementOf<'anchor'> => e.type === 'anchor',
      );
      const found = anchorCandidates(components(p.image), model[0]!.rect.w);
      expect(found, `page ${i + 1}`).toHaveLength(4);
      for (const a of model) {
        const m = centre(a.rect);
        const nearest = found
          .map((f) => ({ f, d: Math.hypot(px(f.cx) - m.x, px(f.cy) - m.y) }))
          .sort((u, v) => u.d - v.d)[0]!;
        expect(nearest.d, `${a.id} centre`).toBeLessThanOrEqual(TOLERANCE_MM);
        expect(Math.abs(px(nearest.f.minX) - a.rect.x), `${a.id} left`).toBeLessThanOrEqual(TOLERANCE_MM);
        expect(Math.abs(px(nearest.f.maxX + 1) - (a.rect.x + a.rect.w)), `${a.id} right`).toBeLessThanOrEqual(
          TOLERANCE_MM,
        );
        expect(Math.abs(px(nearest.f.minY) - a.rect.y), `${a.id} top`).toBeLessThanOrEqual(TOLERANCE_MM);
        expect(
          Math.abs(px(nearest.f.maxY + 1) - (a.rect.y + a.rect.h)),
          `${a.id} bottom`,
        ).toBeLessThanOrEqual(TOLERANCE_MM);
      }
    }
  });

  it('puts every filled bubble where the model says, within 0.3 mm (centroid and edges)', () => {
    expect(c.marks.length).toBeGreaterThan(10);
    for (const [i, p] of pages.entries()) {
      const comps = components(p.image);
      for (const mark of c.marks.filter((m) => m.page === i)) {
        const m = centre(mark.rect);
        const hit = comps
          .map((f) => ({ f, d: Math.hypot(px(f.cx) - m.x, px(f.cy) - m.y) }))
          .sort((u, v) => u.d - v.d)[0]!;
        const label = `page ${i + 1} mark at ${mark.rect.x},${mark.rect.y}`;
        expect(hit.d, label).toBeLessThanOrEqual(TOLERANCE_MM);
        expect(Math.abs(px(hit.f.minX) - mark.rect.x), label).toBeLessThanOrEqual(TOLERANCE_MM);
        expect(Math.abs(px(hit.f.maxX + 1) - (mark.rect.x + mark.rect.w)), label).toBeLessThanOrEqual(
          TOLERANCE_MM,
        );
        expect(Math.abs(px(hit.f.minY) - mark.rect.y), label).toBeLessThanOrEqual(TOLERANCE_MM);
        expect(Math.abs(px(hit.f.maxY + 1) - (mark.rect.y + mark.rect.h)), label).toBeLessThanOrEqual(
          TOLERANCE_MM,
        );
      }
    }
  });

  it('draws the outline of every empty bubble on the model rectangle, within 0.3 mm on all four sides', () => {
    let checked = 0;
    for (const [i, p] of pages.entries()) {
      const marked = new Set(c.marks.filter((m) => m.page === i).map((m) => `${m.rect.x},${m.rect.y}`));
      for (const b of pageBubbles(c.layout, i)) {
        if (marked.has(`${b.rect.x},${b.rect.y}`)) continue;
        const r = b.rect;
        const cy = r.y + r.h / 2;
        const sx = r.x + 0.35; // inside the brackets' serifs
        const sides = {
          left: [firstDark(p.image, 'x', cy, r.x - 1, r.x + 1), r.x],
          right: [firstDark(p.image, 'x', cy, r.x + r.w + 1, r.x + r.w - 1), r.x + r.w],
          top: [firstDark(p.image, 'y', sx, r.y - 1, r.y + 1), r.y],
          bottom: [firstDark(p.image, 'y', sx, r.y + r.h + 1, r.y + r.h - 1), r.y + r.h],
        } as const;
        for (const [side, [found, expected]] of Object.entries(sides)) {
          expect(found, `${b.key} ${side} edge not found`).toBeDefined();
          expect(Math.abs(found! - expected), `${b.key} ${side}`).toBeLessThanOrEqual(TOLERANCE_MM);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('prints QR codes that zbarimg decodes to the card, version, page and student of the model', async () => {
    for (const [i, p] of pages.entries()) {
      const texts = await decodeQrCodes(p.file);
      expect(texts, `page ${i + 1}`).toHaveLength(1);
      const qr = c.layout.pages[i]!.elements.find((e): e is CardElementOf<'qr'> => e.type === 'qr')!;
      expect(decodeCardQr(texts[0]!)).toEqual({
        ok: true,
        payload: { ...qr.payload, studentId: c.student.id },
      });
    }
  });
});

describe('renderCardPdf', () => {
  it('streams a personalised batch of 40 students as 40 × pages pages, each with its own student in the QR', async () => {
    const layout = layoutCard(
      twoPageA3Paper(),
      { size: 'A3', columns: 2 },
      { cardId: 'card-batch', version: 1 },
    );
    expect(layout.pages).toHaveLength(2);
    const batch = students(40);
    const { file, result } = await renderToFile('batch', layout, { students: batch });
    expect(result.pages).toBe(80);
    expect(await pdfPageCount(file)).toBe(80);
    const last = await rasterize(file, { dpi: 200, first: 79, last: 80 });
    const decoded = await Promise.all(
      last.map(async (p) => decodeCardQr((await decodeQrCodes(p.file))[0] ?? '')),
    );
    expect(decoded).toEqual([
      { ok: true, payload: { cardId: 'card-batch', version: 1, page: 1, studentId: batch[39]!.id } },
      { ok: true, payload: { cardId: 'card-batch', version: 1, page: 2, studentId: batch[39]!.id } },
    ]);
  }, 60_000);

  it('embeds subsets of the CJK fonts, never whole fonts', async () => {
    const { file } = await renderToFile('fonts', layoutCard(samplePaper()), {});
    const fonts = (await pdfFonts(file)).filter((f) => f.name.includes('CJK') || f.type.includes('CID'));
    expect(fonts.length).toBeGreaterThan(0);
    for (const f of fonts) expect([f.name, f.embedded, f.subset]).toEqual([f.name, true, true]);
    expect(fs.statSync(file).size).toBeLessThan(1_000_000);
  });

  it('prints an anonymous card (no student) with a QR naming only the card and page', async () => {
    const layout = layoutCard(samplePaper(), { size: 'A3', columns: 3 }, { cardId: 'card-anon', version: 5 });
    const { file, result } = await renderToFile('anonymous', layout, {});
    expect(result.pages).toBe(layout.pages.length);
    const [page] = await rasterize(file, { dpi: 200, first: 1, last: 1 });
    expect(decodeCardQr((await decodeQrCodes(page!.file))[0] ?? '')).toEqual({
      ok: true,
      payload: { cardId: 'card-anon', version: 5, page: 1 },
    });
  }, 30_000);

  it('streams to a slow consumer while rendering, never buffering more than the backpressure limit', async () => {
    const layout = layoutCard(twoPageA3Paper(), { size: 'A3', columns: 2 });
    let received = 0;
    let maxBuffered = 0;
    let finished = false;
    let receivedWhileRendering = 0;
    const slow = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        maxBuffered = Math.max(maxBuffered, slow.writableLength);
        setImmediate(() => {
          received += chunk.length;
          if (!finished) receivedWhileRendering = received;
          callback();
        });
      },
    });
    const result = await renderCardPdf(layout, { students: students(300), output: slow });
    finished = true;
    expect(result.pages).toBe(600);
    expect(received).toBeGreaterThan(1_000_000);
    // Most of the document reached the consumer before the last page was drawn.
    expect(receivedWhileRendering).toBeGreaterThan(received / 2);
    expect(maxBuffered).toBeLessThan(9 << 20);
  }, 60_000);

  it('finds the system CJK font, and names the fix in Chinese when there is none', () => {
    expect(resolveCardFonts(undefined, {}).regular.path).toMatch(/\.tt[cf]$/);
    expect(() => resolveCardFonts(undefined, { ZHZY_CJK_FONT: '/nonexistent/msyh.ttc' })).toThrow(
      CardFontMissingError,
    );
    expect(() => resolveCardFonts(undefined, { ZHZY_CJK_FONT: '/nonexistent/msyh.ttc' })).toThrow(
      /找不到可用于答题卡的中文字体/,
    );
  });
});
