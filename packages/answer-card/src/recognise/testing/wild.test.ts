import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAZY_CROP_OPTIONS, recognisePage } from '../index.js';
import { corpusFixtures, type CorpusFixtures } from './cases.js';
import { clearRasterCache } from './corpus.js';
import { questionOutcomes } from './evaluate.js';
import { makeWildSheet, WILD_HELD_OUT_SEEDS, WILD_TUNING_SEEDS, type ScanKind } from './wild.js';

let dir: string;
let fixtures: CorpusFixtures;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-wild-'));
  fixtures = await corpusFixtures(dir);
}, 120_000);

afterAll(() => {
  clearRasterCache();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the independent corpus (issue #19)', () => {
  it('keeps its held-out seeds apart from the seeds it is tuned on', () => {
    expect(WILD_HELD_OUT_SEEDS[0]).toBeGreaterThanOrEqual(WILD_TUNING_SEEDS[1]);
  });

  it.each<[ScanKind, boolean]>([
    ['diffused-200', true],
    ['ordered-200', false],
    ['diffused-150', true],
  ])(
    'identifies the student on a %s page (upside down: %s)',
    async (scan, upsideDown) => {
      const sheet = await makeWildSheet(dir, fixtures.a4Qr, 4242, { scan, upsideDown });
      const { result } = await recognisePage(sheet.bytes, {
        resolve: (id) => fixtures.layouts.get(id),
        crops: LAZY_CROP_OPTIONS,
      });
      expect(result.image.bitonal).toBe(true);
      expect(result.identity).toMatchObject({
        cardId: sheet.truth.cardId,
        page: sheet.truth.page,
        studentId: sheet.truth.studentId,
      });
      expect(result.orientation).toBe(upsideDown ? 180 : 0);
      // Whatever the dither leaves in doubt goes to a person; nothing is read silently wrong.
      expect(questionOutcomes(sheet.truth, result).filter((q) => q.outcome === 'silent')).toEqual([]);
    },
    60_000,
  );
});
