// Score-box reading (先阅后扫, ADR 0065): the corpus card marked in red by a "teacher" (ticks, slashes, circles, crosses;
// varied stroke, pressure and position; over-marks, crossed-out corrections, faint marks, empty boxes), scanned in
// colour, grey and 1-bit at 200 dpi, read by `recognisePage`. Prints per scan kind how many score boxes were read
// right, silently wrong, or sent to a person, on the tuning seeds and on held-out seeds never looked at while tuning.
// Targets: ≥ 99.9 % right, none silently wrong. Run with `npm run bench:score -w @zhzy/answer-card`;
// SCORE_SHEETS=… (default 100) sheets per scan kind and seed range; SCORE_OFFSET=… moves the held-out range;
// SCORE_SCAN=colour|grey|bitonal and SCORE_RANGE=tuning|held-out run one part (each part stays under ~5 minutes).
// Boxes with a red √ / × on the answer instead of a tick (issue #26's secondary signal) are counted apart: read on
// colour scans only, to a person on grey and 1-bit ones.
import { recognisePage } from '../src/recognise/index.js';
import {
  SCORE_SCANS,
  scoreCardLayout,
  scoreOutcome,
  scoreSheet,
  type ScoreOutcome,
} from '../src/recognise/testing/score-corpus.js';

const sheets = Number(process.env.SCORE_SHEETS ?? 100);
const onlyScan = process.env.SCORE_SCAN;
const onlyRange = process.env.SCORE_RANGE;
const TUNING_FROM = 1;
const HELD_OUT_FROM = Number(process.env.SCORE_OFFSET ?? 900_001);
const TARGET_RIGHT = 0.999;

const layout = scoreCardLayout();
let failed = false;
for (const [name, from] of [
  ['tuning', TUNING_FROM],
  ['held-out', HELD_OUT_FROM],
] as const) {
  if (onlyRange && onlyRange !== name) continue;
  for (const scan of SCORE_SCANS) {
    if (onlyScan && onlyScan !== scan) continue;
    const started = Date.now();
    const count: Record<ScoreOutcome, number> = { right: 0, silent: 0, person: 0 };
    const marks: Record<ScoreOutcome, number> = { right: 0, silent: 0, person: 0 };
    const silent: string[] = [];
    for (let seed = from; seed < from + sheets; seed++) {
      for (const sheet of await scoreSheet(layout, seed, scan)) {
        const { result } = await recognisePage(sheet.image, {
          resolve: () => layout,
          crops: { format: 'none' },
        });
        for (const truth of sheet.truths) {
          const reading = result.scores?.find((s) => s.questionId === truth.questionId);
          const outcome = scoreOutcome(truth, reading);
          (truth.answerMark ? marks : count)[outcome]++;
          if (outcome === 'silent')
            silent.push(
              `seed ${seed} ${truth.questionId} meant ${truth.score} (${truth.answerMark ?? truth.style}) read ${reading?.score ?? reading?.status}`,
            );
        }
      }
    }
    const total = count.right + count.silent + count.person;
    const right = count.right / total;
    const ok = right >= TARGET_RIGHT && count.silent === 0 && marks.silent === 0;
    failed ||= !ok;
    console.log(
      `${name.padEnd(9)} ${scan.padEnd(8)} boxes ${total}: right ${count.right} (${(right * 100).toFixed(2)} %), ` +
        `silently wrong ${count.silent}, to a person ${count.person}; √/× on the answer ` +
        `${marks.right + marks.silent + marks.person}: right ${marks.right}, silently wrong ${marks.silent}, ` +
        `to a person ${marks.person}  ${ok ? 'PASS' : 'FAIL'} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    for (const s of silent.slice(0, 10)) console.log(`  silent: ${s}`);
  }
}
process.exitCode = failed ? 1 : 0;
