// Phone photos (issue #26): a corpus of filled cards photographed on held-out seeds (perspective up to 20°, uneven
// light, shadows, motion blur, 8/12 MP JPEG), flattened by `flattenPhoto` and read by `recognisePage`, then bad
// photos made on purpose (too tilted, too small, blurred, dark, glare, a corner out of frame) that must be refused.
// Prints identity rate, clear bubbles right, silent errors and refusal correctness against the targets
// (identity ≥ 99.5 %, clear bubbles right ≥ 99.9 %, nothing silently wrong).
// PHOTO_PAGES=… (default 40) good photos, PHOTO_BAD=… (default 5) of each fault; PHOTO_SEEDS=tuning reads the tuning
// seeds instead. Run: `npx tsx bench/photo.bench.ts` in packages/answer-card.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LAZY_CROP_OPTIONS, recognisePage } from '../src/recognise/index.js';
import { corpusFixtures } from '../src/recognise/testing/cases.js';
import { clearRasterCache } from '../src/recognise/testing/corpus.js';
import { questionOutcomes, scorePage } from '../src/recognise/testing/evaluate.js';
import { flattenPhoto } from '../src/photo/index.js';
import {
  FAULT_REFUSAL,
  makePhoto,
  PHOTO_FAULTS,
  PHOTO_HELD_OUT_SEEDS,
  PHOTO_TUNING_SEEDS,
} from '../src/photo/testing/photo-corpus.js';

const pages = Number(process.env.PHOTO_PAGES ?? 40);
const bad = Number(process.env.PHOTO_BAD ?? 5);
const seeds = process.env.PHOTO_SEEDS === 'tuning' ? PHOTO_TUNING_SEEDS : PHOTO_HELD_OUT_SEEDS;
/** Where in the seed range this run starts: a new offset reads photos no earlier run has looked at. */
const offset = Number(process.env.PHOTO_OFFSET ?? 0);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-photo-bench-'));
const fixtures = await corpusFixtures(dir);
const kinds = [
  { name: 'a4Qr', fixture: fixtures.a4Qr, plan: {}, mp: 8 as const },
  { name: 'a4Bubbles', fixture: fixtures.a4Bubbles, plan: { number: '20250117' }, mp: 8 as const },
  { name: 'a3', fixture: fixtures.a3, plan: {}, mp: 12 as const },
];

let accepted = 0;
let refusedGood = 0;
let identity = 0;
let read = 0;
let clearBubbles = 0;
let clearRight = 0;
let silent = 0;
let flagged = 0;
let questions = 0;
const refusals: Record<string, number> = {};
const started = Date.now();
for (let i = 0; i < pages; i++) {
  const kind = kinds[i % kinds.length]!;
  const seed = seeds[0] + offset + i;
  const photo = await makePhoto(dir, {
    fixture: kind.fixture,
    copy: i % kind.fixture.students.length || 0,
    seed,
    plan: kind.plan,
    megapixels: kind.mp,
  });
  const flat = await flattenPhoto(photo.bytes);
  fs.rmSync(photo.file, { force: true });
  if (!flat.ok) {
    refusedGood++;
    refusals[flat.code] = (refusals[flat.code] ?? 0) + 1;
    console.log(
      `  refused good photo ${kind.name} seed ${seed}: ${flat.code} ${JSON.stringify(flat.quality)}`,
    );
    continue;
  }
  accepted++;
  const { result } = await recognisePage(flat.page, {
    resolve: (id) => fixtures.layouts.get(id),
    crops: LAZY_CROP_OPTIONS,
  });
  read++;
  const score = scorePage(photo.truth, result);
  if (score.identityRight) identity++;
  else console.log(`  identity wrong/missing ${kind.name} seed ${seed}: ${JSON.stringify(result.problems)}`);
  for (const q of questionOutcomes(photo.truth, result)) {
    questions++;
    if (q.outcome === 'silent') {
      silent++;
      console.log(`  SILENT ${kind.name} seed ${seed} ${q.questionId}`);
    }
    if (q.outcome === 'flagged') flagged++;
  }
  // Clear bubbles: every bubble of a question whose marks are all clear, read as the truth without a flag.
  for (const t of photo.truth.marks) {
    if (!t.clear) continue;
    const r = result.marks.find((m) => m.questionId === t.questionId);
    const intended = t.kind === 'optional' ? t.intended.split(',') : [...t.intended];
    for (const b of r?.bubbles ?? []) {
      clearBubbles++;
      if (b.state === (intended.includes(b.option) ? 'filled' : 'empty')) clearRight++;
    }
    if (!r) clearBubbles++;
  }
}
clearRasterCache();
const faults = PHOTO_FAULTS.filter((f) => f !== 'good');
let badTotal = 0;
let badRefused = 0;
let badRightReason = 0;
const wrongReasons: string[] = [];
for (const fault of faults)
  for (let i = 0; i < bad; i++) {
    const seed = seeds[0] + offset + 50_000 + i;
    const photo = await makePhoto(dir, { fixture: fixtures.a4Qr, seed, fault, megapixels: 8 });
    fs.rmSync(photo.file, { force: true });
    const flat = await flattenPhoto(photo.bytes);
    badTotal++;
    if (flat.ok) {
      console.log(`  ACCEPTED bad photo ${fault} seed ${seed}`);
      continue;
    }
    badRefused++;
    if (flat.code === FAULT_REFUSAL[fault]) badRightReason++;
    else wrongReasons.push(`${fault}→${flat.code}`);
  }
fs.rmSync(dir, { recursive: true, force: true });
const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(2) : '—') + ' %';
console.log(
  `\n手机拍照语料 (${seeds === PHOTO_HELD_OUT_SEEDS ? 'held-out' : 'tuning'} seeds), ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log(
  `good photos: ${pages}, accepted ${accepted} (${pct(accepted, pages)}), refused ${refusedGood} ${JSON.stringify(refusals)}`,
);
console.log(`identity right: ${identity}/${read} = ${pct(identity, read)} (target ≥ 99.5 %)`);
console.log(
  `clear bubbles right: ${clearRight}/${clearBubbles} = ${pct(clearRight, clearBubbles)} (target ≥ 99.9 %)`,
);
console.log(`questions: ${questions}, to a person ${flagged}, silently wrong ${silent} (target 0)`);
console.log(
  `bad photos: ${badTotal}, refused ${badRefused} (${pct(badRefused, badTotal)}), with the intended reason ${badRightReason} (${pct(badRightReason, badTotal)})${wrongReasons.length ? ` other reasons: ${wrongReasons.join(', ')}` : ''}`,
);
