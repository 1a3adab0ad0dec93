import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PHOTO_REFUSAL_MESSAGES } from '@zhzy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAZY_CROP_OPTIONS, recognisePage } from '../recognise/index.js';
import { corpusFixtures, type CorpusFixtures } from '../recognise/testing/cases.js';
import { clearRasterCache } from '../recognise/testing/corpus.js';
import { questionOutcomes, scorePage } from '../recognise/testing/evaluate.js';
import { applyHomography, homographyFrom, poseOf } from './homography.js';
import { flattenPhoto } from './index.js';
import {
  FAULT_REFUSAL,
  makePhoto,
  PHOTO_HELD_OUT_SEEDS,
  PHOTO_TUNING_SEEDS,
  type PhotoFault,
} from './testing/photo-corpus.js';

describe('homography', () => {
  it('maps four points onto four others, with perspective', () => {
    const from = [
      { x: 0, y: 0 },
      { x: 210, y: 0 },
      { x: 210, y: 297 },
      { x: 0, y: 297 },
    ];
    const to = [
      { x: 100, y: 80 },
      { x: 900, y: 120 },
      { x: 980, y: 1300 },
      { x: 40, y: 1180 },
    ];
    const h = homographyFrom(from, to)!;
    for (let i = 0; i < 4; i++) {
      const p = applyHomography(h, from[i]!);
      expect(p.x).toBeCloseTo(to[i]!.x, 6);
      expect(p.y).toBeCloseTo(to[i]!.y, 6);
    }
    // Not affine: the middle of the sheet is not the mean of its corners.
    const mid = applyHomography(h, { x: 105, y: 148.5 });
    expect(Math.abs(mid.x - (100 + 900 + 980 + 40) / 4)).toBeGreaterThan(1);
  });

  it('reads no tilt from a sheet photographed square on', () => {
    const h = homographyFrom(
      [
        { x: 0, y: 0 },
        { x: 100, y: 0 },
        { x: 100, y: 100 },
        { x: 0, y: 100 },
      ],
      [
        { x: 1000, y: 1000 },
        { x: 2000, y: 1000 },
        { x: 2000, y: 2000 },
        { x: 1000, y: 2000 },
      ],
    )!;
    const pose = poseOf(h, 3000, 1500, 1500);
    expect(pose.tiltDeg).toBeLessThan(0.01);
    expect(pose.stretch).toBeCloseTo(1, 6);
  });
});

let dir: string;
let fixtures: CorpusFixtures;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-photo-'));
  fixtures = await corpusFixtures(dir);
}, 120_000);

afterAll(() => {
  clearRasterCache();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('phone photos (issue #26)', () => {
  it('keeps its held-out seeds apart from the seeds it is tuned on', () => {
    expect(PHOTO_HELD_OUT_SEEDS[0]).toBeGreaterThanOrEqual(PHOTO_TUNING_SEEDS[1]);
  });

  it.each<[string, number]>([
    ['a4Qr', 11],
    ['a4Qr', 12],
    ['a4Qr', 13],
    ['a4Bubbles', 14],
    ['a3', 15],
    ['a4Qr', 16],
  ])(
    'reads a %s card photographed at an angle in uneven light (seed %i) like a scan',
    async (name, seed) => {
      const fixture = fixtures[name as 'a4Qr'];
      const photo = await makePhoto(dir, {
        fixture,
        seed,
        // Phones of 8 MP are sharp enough for A4; an A3 card needs the 12 MP of most phones.
        megapixels: name === 'a3' ? 12 : 8,
        plan: name === 'a4Bubbles' ? { number: '20250117' } : {},
      });
      const flat = await flattenPhoto(photo.bytes, { sizes: ['A4', 'A3'] });
      if (!flat.ok) throw new Error(`refused: ${flat.code} ${JSON.stringify(flat.quality)}`);
      const { result } = await recognisePage(flat.page, {
        resolve: (id) => fixtures.layouts.get(id),
        crops: LAZY_CROP_OPTIONS,
      });
      expect(result.status).not.toBe('failed');
      const score = scorePage(photo.truth, result);
      expect(score.identityRight).toBe(true);
      expect(score.clearMissed).toEqual([]);
      expect(questionOutcomes(photo.truth, result).filter((q) => q.outcome === 'silent')).toEqual([]);
    },
    90_000,
  );

  it.each<Exclude<PhotoFault, 'good'>>(['tooTilted', 'tooSmall', 'blurred', 'tooDark', 'glare', 'cornerOut'])(
    'refuses a photo that is %s with the reason, in Chinese',
    async (fault) => {
      const photo = await makePhoto(dir, { fixture: fixtures.a4Qr, seed: 21, fault, megapixels: 8 });
      const flat = await flattenPhoto(photo.bytes);
      expect(flat.ok).toBe(false);
      if (flat.ok) return;
      expect(flat.code).toBe(FAULT_REFUSAL[fault]);
      expect(flat.message).toBe(PHOTO_REFUSAL_MESSAGES[FAULT_REFUSAL[fault]]);
    },
    90_000,
  );

  it('refuses what is not a picture', async () => {
    const flat = await flattenPhoto(Buffer.from('not a photo at all'));
    expect(flat).toMatchObject({ ok: false, code: 'unreadable' });
  });
});
