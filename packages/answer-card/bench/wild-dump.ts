// Dump-and-reclassify tool for tuning the mark classifier on stored measurements (ADR 0085).
//
//   read:        npx tsx bench/wild-dump.ts read <from> <to> <out.jsonl>
//                reads wild pages [from, to) through `recognisePage` with `LAZY_CROP_OPTIONS` and appends one JSON
//                line a page (name, scan kind, truth, result with its raw measurements; crops left out).
//   reclassify:  npx tsx bench/wild-dump.ts reclassify <dump.jsonl>[,<dump.jsonl>…] [<label>=<classify.ts> …]
//                re-runs `classifyMarks` on each stored page's measurements (ADR 0039) with this tree's rules and
//                with each other classify module given (e.g. main=/work/main/packages/answer-card/src/recognise/classify.ts)
//                and prints bench/wild.ts's outcome table side by side, the pages with a question to a person, and
//                every silent question. Also reads the bench's ACCURACY_DUMP files (class.jsonl, random.jsonl).
//                WHY=1 lists each clear question the first rules send to a person, with its reasons.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PageRecognition } from '@zhzy/contracts';
import * as ours from '../src/recognise/classify.js';
import { corpusCase, corpusFixtures } from '../src/recognise/testing/cases.js';
import type { PageTruth } from '../src/recognise/testing/corpus.js';
import { questionOutcomes } from '../src/recognise/testing/evaluate.js';
import { OutcomeTable, printSideBySide, wildCorpus } from './wild.js';

interface Dumped {
  name: string;
  scan?: string;
  truth: PageTruth & { wild?: { styles: Record<string, Record<string, string>> } };
  result: PageRecognition;
}
type Rules = Pick<typeof ours, 'classifyMarks' | 'rawMarksOf'>;

async function read(from: number, to: number, out: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-wild-dump-'));
  try {
    await wildCorpus(dir, await corpusFixtures(dir), from, to - from, false, (name, truth, result) => {
      const line: Dumped = { name, scan: truth.wild.scan, truth, result: { ...result, crops: [] } };
      fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The stored page with its marks decided again by `rules` from its raw measurements. */
export function reclassified(page: Dumped, rules: Rules): PageRecognition {
  const r = page.result;
  if (!r.marks.length) return r;
  const cls = rules.classifyMarks(rules.rawMarksOf(r), r.thresholds);
  return { ...r, marks: cls.marks, uncertain: cls.uncertain };
}

/** The scan label a dumped page is tallied under (the bench's: wild scan kind, or the corpus's dpi and grey/1-bit). */
function scanOf(page: Dumped): string {
  if (page.scan) return page.scan;
  const spec = corpusCase(page.name).spec;
  return `${spec.dpi ?? '?'}-${spec.distortion?.threshold === undefined ? 'grey' : '1bit'}`;
}

async function reclassify(files: string[], modules: string[]): Promise<void> {
  const pages: Dumped[] = files.flatMap((f) =>
    fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Dumped),
  );
  const rulesets: [string, Rules][] = [['本轮', ours]];
  for (const m of modules) {
    const [label, file] = m.includes('=') ? m.split('=') : [path.basename(m), m];
    rulesets.push([label!, (await import(path.resolve(file!))) as Rules]);
  }
  const tables: [string, OutcomeTable][] = [];
  for (const [label, rules] of rulesets) {
    const table = new OutcomeTable();
    let toPerson = 0;
    let moved = 0;
    for (const p of pages) {
      const result = reclassified(p, rules);
      if (JSON.stringify(result.marks) !== JSON.stringify(p.result.marks)) moved++;
      const styles = p.truth.wild?.styles;
      table.page(
        p.name,
        p.truth,
        result,
        scanOf(p),
        styles ? (q) => Object.values(styles[q] ?? {}) : undefined,
      );
      const outcomes = questionOutcomes(p.truth, result);
      if (outcomes.some((o) => o.outcome === 'flagged')) toPerson++;
      if (process.env.WHY && rulesets[0]![1] === rules)
        for (const o of outcomes.filter((q) => q.clear && q.outcome === 'flagged')) {
          const m = result.marks.find((x) => x.questionId === o.questionId);
          const why = result.uncertain.filter((u) => u.questionId === o.questionId).map((u) => u.message);
          console.log(`  交人工 ${p.name} ${o.questionId} ${scanOf(p)} ${m?.status} ${why.join(' | ')}`);
        }
    }
    console.log(`${label}: ${table.pages} 页，有题交人工的页 ${toPerson}，与存储结果不同的页 ${moved}`);
    for (const s of table.silent) console.log(`  静默读错 ${s}`);
    tables.push([label, table]);
  }
  printSideBySide(tables);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'read') await read(Number(args[0]), Number(args[1]), args[2]!);
else if (mode === 'reclassify') await reclassify(args[0]!.split(','), args.slice(1));
else {
  console.error(
    'usage: wild-dump.ts read <from> <to> <out.jsonl> | reclassify <dump.jsonl>[,…] [<classify.ts> …]',
  );
  process.exitCode = 2;
}
