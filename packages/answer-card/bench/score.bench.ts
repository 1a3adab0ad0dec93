// Score-box reading (先阅后扫, ADR 0065): the corpus card marked in red by a "teacher" (ticks, slashes, circles, crosses;
// varied stroke, pressure and position; over-marks, crossed-out corrections, faint marks, empty boxes), scanned in
// colour, grey and 1-bit at 200 dpi, read by `recognisePage`. Prints per scan kind how many score boxes were read
// right, silently wrong, or sent to a person, on the tuning seeds and on held-out seeds never looked at while tuning.
// Targets: ≥ 99.9 % right, none silently wrong. Run with `npm run bench:score -w @zhzy/answer-card`;
// SCORE_SHEETS=… (default 100; 1 000 gives 99.9 % a resolution of about six boxes) sheets per scan kind and seed
// range; SCORE_SCAN=colour|grey|bitonal and SCORE_RANGE=tuning|held-out run one part; SCORE_WORKERS=… (default: the
// machine's cores) processes share a part's seeds, each on one libvips thread.
// Seeds: tuning from 1 (1..1 000 may be looked at). Held-out from SCORE_OFFSET, never looked at while tuning:
// 700 001 (round 2), 900 001 (round 3), 1 000 001 (session 18) and 2 000 001 (session 19; each run once: 1 000
// sheets) are burnt; the next held-out range is 3 000 001 (the default).
// Boxes with a red √ / × on the answer instead of a tick (issue #26's secondary signal) are counted apart: read on
// colour scans only, to a person on grey and 1-bit ones.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { recognisePage } from '../src/recognise/index.js';
import {
  SCORE_SCANS,
  scoreCardLayout,
  scoreOutcome,
  scoreSheet,
  type ScoreOutcome,
  type ScoreScan,
} from '../src/recognise/testing/score-corpus.js';

const TUNING_FROM = 1;
const HELD_OUT_FROM = Number(process.env.SCORE_OFFSET ?? 3_000_001);
const TARGET_RIGHT = 0.999;

/** What one process read: boxes and √ / × on the answer per outcome, and the lines worth printing. */
interface Tally {
  count: Record<ScoreOutcome, number>;
  marks: Record<ScoreOutcome, number>;
  silent: string[];
  person: string[];
}

/** Reads seeds [from, to) of one scan kind (a child process's whole work). */
async function readSeeds(scan: ScoreScan, from: number, to: number): Promise<Tally> {
  const layout = scoreCardLayout();
  const tally: Tally = {
    count: { right: 0, silent: 0, person: 0 },
    marks: { right: 0, silent: 0, person: 0 },
    silent: [],
    person: [],
  };
  for (let seed = from; seed < to; seed++) {
    for (const sheet of await scoreSheet(layout, seed, scan)) {
      const { result } = await recognisePage(sheet.image, {
        resolve: () => layout,
        crops: { format: 'none' },
      });
      for (const truth of sheet.truths) {
        const reading = result.scores?.find((s) => s.questionId === truth.questionId);
        const outcome = scoreOutcome(truth, reading);
        (truth.answerMark ? tally.marks : tally.count)[outcome]++;
        const line = `seed ${seed} ${truth.questionId} meant ${truth.score} (${truth.answerMark ?? truth.style}) read ${reading?.score ?? reading?.status} ${reading?.reason ?? ''}`;
        if (outcome === 'silent') tally.silent.push(line);
        else if (outcome === 'person' && !truth.answerMark) tally.person.push(line);
      }
    }
  }
  return tally;
}

/** Runs seeds [from, to) in `workers` child processes and adds up what they read. */
async function readParallel(scan: ScoreScan, from: number, to: number, workers: number): Promise<Tally> {
  const per = Math.ceil((to - from) / workers);
  const parts = Array.from({ length: workers }, (_, w) => [
    from + w * per,
    Math.min(to, from + (w + 1) * per),
  ]).filter(([a, b]) => a! < b!);
  const tallies = await Promise.all(
    parts.map(
      ([a, b]) =>
        new Promise<Tally>((resolve, reject) => {
          const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
            env: { ...process.env, SCORE_CHILD: `${scan}:${a}:${b}` },
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.on('error', reject);
          child.on('exit', (code) =>
            code === 0
              ? resolve(JSON.parse(out) as Tally)
              : reject(new Error(`seeds ${a}–${b}: exit ${code}`)),
          );
        }),
    ),
  );
  const sum = (k: 'count' | 'marks') =>
    tallies.reduce(
      (s, t) => ({
        right: s.right + t[k].right,
        silent: s.silent + t[k].silent,
        person: s.person + t[k].person,
      }),
      { right: 0, silent: 0, person: 0 },
    );
  return {
    count: sum('count'),
    marks: sum('marks'),
    silent: tallies.flatMap((t) => t.silent),
    person: tallies.flatMap((t) => t.person),
  };
}

async function main(): Promise<void> {
  const sheets = Number(process.env.SCORE_SHEETS ?? 100);
  const workers = Math.max(1, Number(process.env.SCORE_WORKERS ?? os.availableParallelism()));
  let failed = false;
  for (const [name, from] of [
    ['tuning', TUNING_FROM],
    ['held-out', HELD_OUT_FROM],
  ] as const) {
    if (process.env.SCORE_RANGE && process.env.SCORE_RANGE !== name) continue;
    for (const scan of SCORE_SCANS) {
      if (process.env.SCORE_SCAN && process.env.SCORE_SCAN !== scan) continue;
      const started = Date.now();
      const { count, marks, silent, person } = await readParallel(scan, from, from + sheets, workers);
      const total = count.right + count.silent + count.person;
      const right = count.right / total;
      const ok = right >= TARGET_RIGHT && count.silent === 0 && marks.silent === 0;
      failed ||= !ok;
      console.log(
        `${name.padEnd(9)} ${scan.padEnd(8)} seeds ${from}–${from + sheets - 1} boxes ${total}: right ${count.right} ` +
          `(${(right * 100).toFixed(2)} %), silently wrong ${count.silent}, to a person ${count.person}; √/× on the ` +
          `answer ${marks.right + marks.silent + marks.person}: right ${marks.right}, silently wrong ${marks.silent}, ` +
          `to a person ${marks.person}  ${ok ? 'PASS' : 'FAIL'} (${((Date.now() - started) / 1000).toFixed(0)} s, ` +
          `${workers} workers)`,
      );
      for (const s of silent.slice(0, 10)) console.log(`  silent: ${s}`);
      if (scan !== 'bitonal') for (const s of person.slice(0, 20)) console.log(`  person: ${s}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}

const child = process.env.SCORE_CHILD;
if (child) {
  sharp.concurrency(1);
  const [scan, from, to] = child.split(':');
  process.stdout.write(JSON.stringify(await readSeeds(scan as ScoreScan, Number(from), Number(to))));
} else await main();
