import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageRecognitionSchema, type PageRecognition, type RecognitionProblemCode } from '@zhzy/contracts';
import { requireTools } from '../testing/raster.js';
import {
  classifyMarks,
  cropImages,
  LAZY_CROP_OPTIONS,
  overlayOf,
  rasterisePdfPage,
  rawMarksOf,
  recognisePage,
  type RecognisedPage,
} from './index.js';
import { blankSheet, buildCorpus, CORPUS, corpusFixtures, type CorpusFixtures } from './testing/cases.js';
import type { Sheet } from './testing/corpus.js';
import { scorePage } from './testing/evaluate.js';

requireTools(['pdftoppm']);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-recognise-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let fixtures: CorpusFixtures;
let sheets: Map<string, Sheet>;
const read = new Map<string, RecognisedPage>();

beforeAll(async () => {
  fixtures = await corpusFixtures(tmp);
  sheets = await buildCorpus(tmp, fixtures);
  for (const [name, sheet] of sheets) {
    const c = CORPUS[name]!;
    read.set(
      name,
      await recognisePage(sheet.bytes, {
        resolve: (id) => (c.resolverMiss ? undefined : fixtures.layouts.get(id)),
      }),
    );
  }
}, 240_000);

const result = (name: string): PageRecognition => read.get(name)!.result;
const readable = () => [...sheets.keys()].filter((n) => result(n).status !== 'failed');
const codes = (name: string): RecognitionProblemCode[] => result(name).problems.map((p) => p.code);

describe('recognition of the synthetic corpus', () => {
  it('gives a valid result for every page', () => {
    for (const name of sheets.keys())
      expect(() => PageRecognitionSchema.parse(result(name)), name).not.toThrow();
  });

  it('reads every clear mark and every empty bubble right, and nothing silently wrong', () => {
    const rows: string[] = [];
    for (const name of readable()) {
      const s = scorePage(sheets.get(name)!.truth, result(name));
      rows.push(`${name}: ${s.questionsRight}/${s.questions} right, ${s.questionsFlagged} flagged`);
      expect(s.silentlyWrong, name).toEqual([]);
      expect(s.clearMissed, name).toEqual([]);
      expect(s.bubblesWrong, name).toBe(0);
    }
    // Light, half-filled and ticked marks are read as what the student meant, erasure residue as nothing: on the
    // tricky pages at least nine in ten such questions are read right without a person.
    const tricky = readable().filter((n) => CORPUS[n]!.group === 'light/partial/tick/erased');
    expect(tricky.length).toBeGreaterThan(0);
    let odd = 0;
    let oddRead = 0;
    for (const n of tricky) {
      for (const m of sheets.get(n)!.truth.marks) {
        if (m.clear) continue;
        odd++;
        const r = result(n).marks.find((x) => x.questionId === m.questionId)!;
        if (r.status !== 'uncertain' && r.chosen === m.intended) oddRead++;
      }
    }
    expect(odd).toBeGreaterThan(30);
    expect(oddRead / odd).toBeGreaterThanOrEqual(0.9);
    expect(rows.length).toBeGreaterThan(20);
  });

  it('flags every uncertain question as an item and lists it', () => {
    for (const name of readable()) {
      const r = result(name);
      const flagged = r.marks.filter((m) => m.status === 'uncertain').map((m) => m.questionId);
      const listed = r.uncertain.filter((u) => u.reason === 'uncertain').map((u) => u.questionId);
      expect(listed, name).toEqual(flagged);
      if (flagged.length) {
        const p = r.problems.find((x) => x.code === 'uncertainMark')!;
        expect(p.level).toBe('item');
        expect(p.questionIds).toEqual(flagged);
        expect(p.message).toMatch(/请人工核对/);
      }
    }
  });

  it('identifies the card, page and student from the QR, and from the number bubbles', () => {
    for (const name of readable()) {
      const truth = sheets.get(name)!.truth;
      const id = result(name).identity!;
      expect({ card: id.cardId, version: id.version, page: id.page }, name).toEqual({
        card: truth.cardId,
        version: truth.version,
        page: truth.page,
      });
      expect(id.studentId, name).toBe(truth.studentId);
      if (truth.studentId) expect(id.source, name).toBe('qr');
    }
    for (const name of ['barcode-200', 'barcode-upside-down']) {
      const id = result(name).identity!;
      expect(id.source, name).toBe('barcode');
      expect(id.studentNumber, name).toBe(sheets.get(name)!.truth.studentNumber);
    }
    for (const name of [
      'bubbles-300',
      'rot-5',
      'turned-90',
      '1bit-png-200',
      'tricky-150',
      '16k-300-turned',
    ]) {
      const id = result(name).identity!;
      expect(id.source, name).toBe('bubbles');
      expect(id.studentNumber, name).toBe(sheets.get(name)!.truth.studentNumber);
      expect(id.studentId, name).toBeNull();
    }
  });

  it('finds the orientation of pages fed turned or upside down', () => {
    for (const name of readable())
      expect(result(name).orientation, name).toBe(sheets.get(name)!.truth.orientation);
    expect(result('upside-down').orientation).toBe(180);
    expect(result('turned-90').orientation).toBe(90);
    expect(result('turned-270-a3').orientation).toBe(270);
    expect(result('16k-300-turned').orientation).toBe(270);
  });

  it('measures skew, print scale and resolution, and fits the anchors within the residual limit', () => {
    for (const name of readable()) {
      const c = CORPUS[name]!;
      const t = result(name).transform!;
      expect(t.skewDeg, name).toBeCloseTo(c.spec.distortion?.rotateDeg ?? 0, 0);
      expect(Math.abs(t.skewDeg - (c.spec.distortion?.rotateDeg ?? 0)), name).toBeLessThan(0.15);
      if (name !== 'keystone') expect(t.residualMm, name).toBeLessThan(0.26);
      expect(result(name).image.dpi! / c.spec.dpi, name).toBeGreaterThan(0.94);
      expect(result(name).image.dpi! / c.spec.dpi, name).toBeLessThan(1.02);
    }
    expect(result('scale95-offset').transform!.printScale).toBeCloseTo(0.95, 2);
    expect(result('no-dpi').image.dpiSource).toBe('anchors');
    // A file claiming 300 dpi for a 200 dpi scan: the anchors win.
    expect(result('wrong-dpi').image).toMatchObject({ dpi: 200, dpiSource: 'anchors' });
    expect(Math.abs(result('no-dpi').image.dpi! - 300)).toBeLessThanOrEqual(3);
    expect(result('qr-600').image.dpiSource).toBe('metadata');
    expect(result('rot+5').transform!.skewDeg).toBeCloseTo(5, 1);
    expect(result('rot-5').transform!.skewDeg).toBeCloseTo(-5, 1);
  });

  it('reads 1-bit scans (TIFF G4 and PNG) and says they are bitonal', () => {
    for (const name of ['1bit-tiff', '1bit-png-200']) {
      expect(result(name).image.bitonal, name).toBe(true);
      expect(result(name).status, name).not.toBe('failed');
    }
    expect(result('qr-200').image.bitonal).toBe(false);
  });

  it('works on three anchors when a corner is torn off', () => {
    const t = result('torn-corner').transform!;
    expect(t.anchorsUsed).toBe(3);
    expect(t.anchors.find((a) => a.corner === 'bl')!.used).toBe(false);
    expect(codes('torn-corner')).toEqual([]);
  });

  it('flags a warped sheet whose anchors no affine map fits, and still reads it right after re-registration', () => {
    const r = result('keystone');
    expect(r.transform!.anchorsUsed).toBe(4);
    expect(r.transform!.residualMm).toBeGreaterThan(0.26);
    const p = r.problems.find((x) => x.code === 'anchorsDistorted')!;
    expect(p.level).toBe('page');
    expect(p.message).toMatch(/定位点位置异常/);
    expect(scorePage(sheets.get('keystone')!.truth, r).silentlyWrong).toEqual([]);
  });

  it('re-registers every bubble block and reports how well its print matched', () => {
    for (const name of readable()) {
      for (const b of result(name).blocks) {
        expect(b.fit, `${name} ${b.elementId}`).toBeGreaterThan(0.2);
        expect(Math.hypot(b.dxMm, b.dyMm), `${name} ${b.elementId}`).toBeLessThan(0.8);
      }
    }
  });

  it('produces each problem from its crafted page, with a teacher message', () => {
    const expected: [string, RecognitionProblemCode, 'failed' | 'review'][] = [
      ['smudged-qr', 'qrUnreadable', 'failed'],
      ['other-paper', 'cardUnknown', 'failed'],
      ['invalid-number', 'studentNumberInvalid', 'review'],
      ['double-mark', 'multipleMarks', 'review'],
      ['empty-page', 'blankPage', 'review'],
      ['number-missing', 'studentNumberMissing', 'review'],
      ['barcode-missing', 'studentNumberMissing', 'review'],
      ['keystone', 'anchorsDistorted', 'review'],
      ['two-corners-torn', 'anchorsNotFound', 'failed'],
      ['rubbed-out', 'uncertainMark', 'review'],
    ];
    for (const [name, code, status] of expected) {
      expect(codes(name), name).toContain(code);
      expect(result(name).status, name).toBe(status);
      for (const p of result(name).problems) expect(p.message, name).toMatch(/[\u4e00-\u9fff]/);
    }
    const double = result('double-mark');
    expect(double.problems.find((p) => p.code === 'multipleMarks')!.questionIds).toEqual(['q2', 'q13']);
    // A mark rubbed out only half-way, with nothing else marked, is neither read as chosen nor as blank.
    const rubbed = result('rubbed-out');
    expect(rubbed.problems.find((p) => p.code === 'uncertainMark')!.questionIds).toEqual(['q2', 'q13']);
    expect(double.marks.find((m) => m.questionId === 'q2')!.status).toBe('multiple');
    expect(double.marks.find((m) => m.questionId === 'q2')!.chosen).toHaveLength(2);
    // Without anchors the page code is still read from the whole page, to say whose sheet it is.
    expect(result('two-corners-torn').identity).toMatchObject({
      cardId: 'card-a4-qr',
      page: 1,
      studentId: fixtures.a4Qr.students[3]!.id,
    });
    expect(result('two-corners-torn').marks).toEqual([]);
    // Another paper: still says which card it is, so a teacher can tell where the sheet belongs.
    expect(result('other-paper').identity!.cardId).toBe('card-a4-qr');
    const invalid = result('invalid-number');
    expect(invalid.identity!.source).toBe('none');
    expect(invalid.studentNumber!.status).toBe('invalid');
    expect(invalid.studentNumber!.digits[3]!.status).toBe('multiple');
    expect(invalid.uncertain).toContainEqual(
      expect.objectContaining({ kind: 'studentNumber', digit: 3, reason: 'invalid' }),
    );
    // Nothing but the crafted problem on the clean pages.
    for (const name of [
      'bubbles-300',
      'qr-200',
      'qr-150',
      'a3-150',
      'upside-down',
      'turned-90',
      'renderer-marks',
    ]) {
      expect(codes(name), name).toEqual([]);
      expect(result(name).status, name).toBe('ok');
    }
  });

  it('says no anchors on a blank sheet and an unreadable file, and never throws', async () => {
    const blank = await recognisePage(await blankSheet(tmp, 'blank', 300), { resolve: () => undefined });
    expect(blank.result.problems.map((p) => p.code)).toEqual(['anchorsNotFound', 'blankPage']);
    expect(blank.result.problems[0]!.message).toBe('未找到定位点，请检查答题卡是否完整、扫描是否歪斜');
    expect(blank.result.status).toBe('failed');
    const junk = await recognisePage(Buffer.from('not an image at all'), { resolve: () => undefined });
    expect(junk.result.problems.map((p) => p.code)).toEqual(['imageUnreadable']);
    const failing = await recognisePage(sheets.get('qr-200')!.bytes, {
      resolve: () => {
        throw new Error('database is down');
      },
    });
    expect(failing.result.status).toBe('failed');
    expect(failing.result.problems[0]!.message).toMatch(/database is down/);
  });

  it('cuts every written box and blank upright from the page, and tells blank from written', async () => {
    let checked = 0;
    for (const name of readable()) {
      const { result: r, images } = read.get(name)!;
      const truth = sheets.get(name)!.truth;
      const page = fixtures.layouts.get(r.identity!.cardId)!.pages[r.identity!.page - 1]!;
      for (const c of r.crops) {
        const el = page.elements.find((e) => e.id === c.elementId)!;
        expect(c.rect, name).toEqual(el.rect);
        expect(c.blank, `${name} ${c.elementId}`).toBe(!truth.written.includes(c.elementId));
        expect(c.coverage > 0, `${name} ${c.elementId}`).toBe(!c.blank);
        const img = images.get(c.id)!;
        const meta = await sharp(img).metadata();
        expect([meta.width, meta.height]).toEqual([c.width, c.height]);
        if (c.kind === 'written') {
          // The box's printed frame runs along the crop's edges: the crop is the box, upright.
          const { data, info } = await sharp(img)
            .extractChannel(0)
            .raw()
            .toBuffer({ resolveWithObject: true });
          const rowDark = (y: number) => {
            let s = 0;
            for (let x = 0; x < info.width; x++) s += 255 - data[y * info.width + x]!;
            return s / info.width;
          };
          const edge = Math.max(rowDark(0), rowDark(1), rowDark(2), rowDark(3));
          const bottom = Math.max(...[1, 2, 3, 4].map((k) => rowDark(info.height - k)));
          const inside = rowDark(Math.floor(info.height * 0.5));
          expect(edge, `${name} ${c.elementId} top`).toBeGreaterThan(60);
          expect(bottom, `${name} ${c.elementId} bottom`).toBeGreaterThan(60);
          expect(inside, `${name} ${c.elementId} inside`).toBeLessThan(edge / 2);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(4);
  });

  it('reproduces every decision from the stored raw ratios with classifyMarks', () => {
    for (const name of readable()) {
      const r = result(name);
      const stored = JSON.parse(JSON.stringify(r)) as PageRecognition;
      const again = classifyMarks(rawMarksOf(stored), stored.thresholds);
      expect(again.marks, name).toEqual(r.marks);
      expect(again.studentNumber, name).toEqual(r.studentNumber);
    }
    // Revised thresholds change the outcome without rescanning: stricter cuts send light marks to a person.
    const r = result('qr-200');
    const strict = classifyMarks(rawMarksOf(r), {
      ...r.thresholds,
      filledMin: 1.9,
      lightFloor: 1.9,
      evenMark: 1.9,
      strokeMark: 1.9,
    });
    expect(strict.marks.filter((m) => m.status === 'uncertain').length).toBeGreaterThan(
      r.marks.filter((m) => m.status === 'uncertain').length,
    );
  });

  it('draws the review overlay where the marks were read', async () => {
    for (const name of ['upside-down', 'turned-90', 'rot-5', 'a3-150']) {
      const r = result(name);
      const layout = fixtures.layouts.get(r.identity!.cardId)!;
      const shapes = overlayOf(r, layout);
      const { data, info } = await sharp(sheets.get(name)!.bytes)
        .extractChannel(0)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const grey = (p: { x: number; y: number }) => data[Math.floor(p.y) * info.width + Math.floor(p.x)]!;
      const bubbles = shapes.filter((s) => s.kind === 'bubble');
      expect(bubbles.length, name).toBe(
        r.marks.reduce((n, m) => n + m.bubbles.length, 0) + (r.studentNumber?.digits.length ?? 0) * 10,
      );
      for (const s of bubbles.filter((b) => b.state === 'filled')) {
        const centre = {
          x: (s.quad[0].x + s.quad[1].x + s.quad[2].x + s.quad[3].x) / 4,
          y: (s.quad[0].y + s.quad[1].y + s.quad[2].y + s.quad[3].y) / 4,
        };
        expect(grey(centre), `${name} ${s.questionId ?? s.digit} ${s.option}`).toBeLessThan(170);
      }
      expect(shapes.filter((s) => s.kind === 'anchor')).toHaveLength(4);
      expect(shapes.filter((s) => s.kind === 'crop')).toHaveLength(r.crops.length);
    }
  });

  it('times every step', () => {
    for (const name of readable()) {
      const t = result(name).timings;
      for (const step of ['decode', 'anchors', 'qr', 'registration', 'marks', 'crops', 'total'] as const)
        expect(t[step], `${name} ${step}`).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('recognition without crop images, as the host does it', () => {
  const lazy = new Map<string, RecognisedPage>();
  beforeAll(async () => {
    for (const [name, sheet] of sheets) {
      const c = CORPUS[name]!;
      lazy.set(
        name,
        await recognisePage(sheet.bytes, {
          resolve: (id) => (c.resolverMiss ? undefined : fixtures.layouts.get(id)),
          crops: LAZY_CROP_OPTIONS,
        }),
      );
    }
  }, 240_000);

  it('reaches the same decisions as the full-resolution read, page by page', () => {
    for (const name of sheets.keys()) {
      const full = result(name);
      const r = lazy.get(name)!.result;
      expect(() => PageRecognitionSchema.parse(r), name).not.toThrow();
      expect(lazy.get(name)!.images.size, name).toBe(0);
      expect(r.status, name).toBe(full.status);
      expect(r.identity, name).toEqual(full.identity);
      expect(r.orientation, name).toBe(full.orientation);
      expect(r.image, name).toEqual(full.image);
      expect(r.problems.map((p) => p.code).sort(), name).toEqual(full.problems.map((p) => p.code).sort());
      expect(
        r.marks.map((m) => [m.questionId, m.status, m.chosen]),
        name,
      ).toEqual(full.marks.map((m) => [m.questionId, m.status, m.chosen]));
      expect(r.studentNumber?.value ?? null, name).toBe(full.studentNumber?.value ?? null);
      expect(
        r.crops.map((c) => [c.id, c.blank, c.width, c.height, c.format]),
        name,
      ).toEqual(full.crops.map((c) => [c.id, c.blank, c.width, c.height, c.format]));
      if (r.status === 'failed') continue;
      const s = scorePage(sheets.get(name)!.truth, r);
      expect(s.silentlyWrong, name).toEqual([]);
      expect(s.bubblesWrong, name).toBe(0);
    }
  });

  it('maps the card onto the file within half a millimetre of the full-resolution fit', () => {
    for (const name of readable()) {
      const a = result(name).transform!;
      const b = lazy.get(name)!.result.transform!;
      expect(b.pxPerMm / a.pxPerMm, name).toBeCloseTo(1, 2);
      for (const p of [
        { x: 0, y: 0 },
        { x: 180, y: 0 },
        { x: 0, y: 260 },
        { x: 180, y: 260 },
      ]) {
        const pa = {
          x: a.matrix[0] * p.x + a.matrix[1] * p.y + a.matrix[2],
          y: a.matrix[3] * p.x + a.matrix[4] * p.y + a.matrix[5],
        };
        const pb = {
          x: b.matrix[0] * p.x + b.matrix[1] * p.y + b.matrix[2],
          y: b.matrix[3] * p.x + b.matrix[4] * p.y + b.matrix[5],
        };
        expect(Math.hypot(pa.x - pb.x, pa.y - pb.y) / a.pxPerMm, name).toBeLessThan(0.5);
      }
    }
  });

  it('cuts the crops later from the file: the same boxes, sizes and pixels as cut during recognition', async () => {
    let compared = 0;
    for (const name of readable()) {
      const r = lazy.get(name)!.result;
      const eager = read.get(name)!.images;
      const stored = JSON.parse(JSON.stringify(r)) as PageRecognition;
      const images = await cropImages(sheets.get(name)!.bytes, stored);
      expect([...images.keys()], name).toEqual(r.crops.map((c) => c.id));
      for (const c of r.crops) {
        const mine = await sharp(images.get(c.id))
          .extractChannel(0)
          .raw()
          .toBuffer({ resolveWithObject: true });
        expect([mine.info.width, mine.info.height], `${name} ${c.id}`).toEqual([c.width, c.height]);
        const theirs = await sharp(eager.get(c.id)).extractChannel(0).raw().toBuffer();
        let diff = 0;
        for (let i = 0; i < theirs.length; i++) diff += Math.abs(theirs[i]! - mine.data[i]!);
        expect(diff / theirs.length, `${name} ${c.id}`).toBeLessThan(12);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
    // A page the recogniser could not place has nothing to cut.
    const failed = [...sheets.keys()].find((n) => result(n).status === 'failed')!;
    expect((await cropImages(sheets.get(failed)!.bytes, lazy.get(failed)!.result)).size).toBe(0);
    // Every crop of every page decoded twice: minutes on a loaded machine (it timed out at 120 s at load 15).
  }, 300_000);
});

describe('PDF pages', () => {
  it('rasterises a page with pdftoppm for the recogniser', async () => {
    const png = await rasterisePdfPage(fixtures.a3.pdf, { page: 4, dpi: 150 });
    const { result: r } = await recognisePage(png, { resolve: (id) => fixtures.layouts.get(id) });
    expect(r.identity).toMatchObject({
      cardId: fixtures.a3.layout.cardId,
      page: 2,
      studentId: fixtures.a3.students[1]!.id,
    });
    expect(r.image.dpi).toBe(150);
    // Nobody wrote on this copy: a blank answer page, for a person to confirm.
    expect(r.problems.map((p) => p.code)).toEqual(['blankPage']);
    expect(r.crops.every((c) => c.blank)).toBe(true);
    await expect(rasterisePdfPage(fixtures.a3.pdf, { page: 99 })).rejects.toThrow();
  });
});
