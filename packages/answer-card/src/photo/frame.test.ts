import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFixtures, type CorpusFixtures } from '../recognise/testing/cases.js';
import { clearRasterCache } from '../recognise/testing/corpus.js';
import { CHECK_LONG_SIDE, checkFrame, greyOf, sameQuad, type FrameHint } from './frame.js';
import { makePhoto, type PhotoFault } from './testing/photo-corpus.js';

let dir: string;
let fixtures: CorpusFixtures;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-frame-'));
  fixtures = await corpusFixtures(dir);
}, 120_000);

afterAll(() => {
  clearRasterCache();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A video frame as the browser's canvas gives it: RGBA at the check's reduced size. */
async function frameOf(bytes: Buffer) {
  const { data, info } = await sharp(bytes)
    .resize(CHECK_LONG_SIDE, CHECK_LONG_SIDE, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return greyOf(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
}

describe('the live frame check of 手机拍照 (issue #26)', () => {
  it.each([31, 32, 33])(
    'finds the four anchors of a good photo (seed %i) and asks to hold still',
    async (seed) => {
      const photo = await makePhoto(dir, { fixture: fixtures.a4Qr, seed, megapixels: 8 });
      const frame = await frameOf(photo.bytes);
      const check = checkFrame(frame);
      expect(check.hint).toBe('hold');
      expect(check.quad).not.toBeNull();
      // The same frame twice is a sheet held still.
      expect(sameQuad(check.quad!, checkFrame(frame).quad!, frame)).toBe(true);
    },
    90_000,
  );

  it.each<[Exclude<PhotoFault, 'good' | 'tooTilted'>, FrameHint]>([
    ['tooDark', 'tooDark'],
    ['tooSmall', 'tooSmall'],
    ['cornerOut', 'noCard'],
    ['glare', 'glare'],
    ['blurred', 'blurred'],
  ])(
    'tells the teacher what to change when the photo is %s',
    async (fault, hint) => {
      const photo = await makePhoto(dir, { fixture: fixtures.a4Qr, seed: 21, fault, megapixels: 8 });
      expect(checkFrame(await frameOf(photo.bytes)).hint).toBe(hint);
    },
    90_000,
  );

  it('does not take a sheet that moved as one held still', async () => {
    const photo = await makePhoto(dir, { fixture: fixtures.a4Qr, seed: 34, megapixels: 8 });
    const frame = await frameOf(photo.bytes);
    const quad = checkFrame(frame).quad!;
    const moved = {
      ...quad,
      corners: quad.corners.map((p) => ({ x: p.x + 30, y: p.y })) as typeof quad.corners,
    };
    expect(sameQuad(quad, moved, frame)).toBe(false);
  }, 90_000);
});
