// Issue #19's side-by-side figures: question outcomes by mark style and by scan kind on the team's class corpus, its
// stress corpus, the independent model's tuning pages and its held-out pages; the held-out verdict; and the speed of
// the held-out mix against a bare decode of the same files (with the load average).
import fs from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import type { PageRecognition } from '@zhzy/contracts';
import { LAZY_CROP_OPTIONS, recognisePage } from '../src/recognise/index.js';
import type { CorpusFixtures } from '../src/recognise/testing/cases.js';
import { clearRasterCache, type PageTruth } from '../src/recognise/testing/corpus.js';
import { questionOutcomes, type QuestionOutcome } from '../src/recognise/testing/evaluate.js';
import {
  makeWildSheet,
  WILD_HELD_OUT_SEEDS,
  WILD_TUNING_SEEDS,
  type WildTruth,
} from '../src/recognise/testing/wild.js';

/** Issue #19's targets on the held-out pages. */
export const WILD_TARGETS = { clearRight: 0.999, clearFlagged: 0.01, silentPerQuestion: 1e-4 } as const;

type Counts = Record<QuestionOutcome, number>;
const zero = (): Counts => ({ right: 0, flagged: 0, silent: 0 });

/** Question outcomes of one corpus, by row label (style, scan kind) and overall. */
export class OutcomeTable {
  readonly rows = new Map<string, Counts>();
  pages = 0;
  unidentified = 0;
  wrongIdentity = 0;
  readonly silent: string[] = [];
  add(label: string, o: QuestionOutcome): void {
    const c = this.rows.get(label) ?? this.rows.set(label, zero()).get(label)!;
    c[o]++;
  }
  /** Tallies one page: each question under its styles, its scan kind and clear / not clear. */
  page(
    name: string,
    truth: PageTruth,
    result: PageRecognition,
    scan: string,
    styleOf?: (q: string) => string[],
  ): void {
    this.pages++;
    const id = result.identity;
    if (!id) this.unidentified++;
    else if (id.cardId !== truth.cardId || id.page !== truth.page || id.studentId !== truth.studentId)
      this.wrongIdentity++;
    for (const q of questionOutcomes(truth, result)) {
      const styles = styleOf ? styleOf(q.questionId) : q.styles;
      for (const s of new Set(styles.length ? styles : ['blank'])) this.add(`笔迹 ${s}`, q.outcome);
      this.add(`扫描 ${scan}`, q.outcome);
      this.add(q.clear ? '清楚的题' : '不清楚的题', q.outcome);
      this.add('全部题目', q.outcome);
      if (q.outcome === 'silent')
        this.silent.push(`${name} ${q.questionId} (${styles.join(',') || 'blank'}, ${scan})`);
    }
  }
}

const cell = (c: Counts | undefined): string => {
  if (!c) return '—'.padEnd(26);
  const n = c.right + c.flagged + c.silent;
  return `${((100 * c.right) / n).toFixed(2)}/${((100 * c.flagged) / n).toFixed(2)}/${c.silent} (${n})`.padEnd(
    26,
  );
};

/** Prints the corpora side by side: right % / to a person % / silently wrong (questions). */
export function printSideBySide(tables: [string, OutcomeTable][]): void {
  console.log('题目结果对照（读对 % / 交人工 % / 静默读错 题数（题数））');
  console.log(`  ${''.padEnd(24)}${tables.map(([n]) => n.padEnd(26)).join('')}`);
  const labels = [...new Set(tables.flatMap(([, t]) => [...t.rows.keys()]))].sort((a, b) =>
    a.startsWith('全部') || a.startsWith('清楚') || a.startsWith('不清楚')
      ? -1
      : b.startsWith('全部') || b.startsWith('清楚') || b.startsWith('不清楚')
        ? 1
        : a < b
          ? -1
          : 1,
  );
  for (const l of labels)
    console.log(`  ${l.padEnd(24)}${tables.map(([, t]) => cell(t.rows.get(l))).join('')}`);
  console.log(
    `  ${'页：未识别/身份读错'.padEnd(24)}${tables.map(([, t]) => `${t.pages} 页：${t.unidentified}/${t.wrongIdentity}`.padEnd(26)).join('')}`,
  );
}

/** A held-out page's file and how it was scanned, for the speed part. */
export interface WildFile {
  bytes: Buffer;
  scan: string;
}

/**
 * Reads `count` wild pages from `first` on; returns their table and, when asked, the files for the speed part.
 * `onPage` sees each page's name, truth and result (bench/wild-dump.ts stores them).
 */
export async function wildCorpus(
  dir: string,
  fixtures: CorpusFixtures,
  first: number,
  count: number,
  keep = false,
  onPage?: (name: string, truth: WildTruth, result: PageRecognition) => void,
): Promise<{ table: OutcomeTable; files: WildFile[] }> {
  const resolve = (id: string) => fixtures.layouts.get(id);
  const table = new OutcomeTable();
  const files: WildFile[] = [];
  for (let seed = first; seed < first + count; seed++) {
    const sheet = await makeWildSheet(dir, fixtures.a4Qr, seed);
    if ((seed - first) % 10 === 9) clearRasterCache();
    fs.rmSync(sheet.file);
    const w = sheet.truth.wild;
    if (keep) files.push({ bytes: sheet.bytes, scan: w.scan });
    const { result } = await recognisePage(sheet.bytes, { resolve, crops: LAZY_CROP_OPTIONS });
    table.page(sheet.name, sheet.truth, result, w.scan, (q) => Object.values(w.styles[q] ?? {}));
    onPage?.(sheet.name, sheet.truth, result);
  }
  clearRasterCache();
  return { table, files };
}

/** The held-out verdict; true when every target holds. */
export function wildVerdict(t: OutcomeTable): boolean {
  const clear = t.rows.get('清楚的题') ?? zero();
  const all = t.rows.get('全部题目') ?? zero();
  const nClear = clear.right + clear.flagged + clear.silent;
  const nAll = all.right + all.flagged + all.silent;
  const right = nClear ? clear.right / nClear : 0;
  const flagged = nClear ? clear.flagged / nClear : 0;
  const silentRate = nAll ? all.silent / nAll : 0;
  const ok = [
    right >= WILD_TARGETS.clearRight,
    flagged <= WILD_TARGETS.clearFlagged,
    silentRate <= WILD_TARGETS.silentPerQuestion,
    t.unidentified === 0,
    t.wrongIdentity === 0,
  ];
  console.log(
    `  结论（问题 #19，留出页 ${t.pages} 页）：清楚的题无人值守读对 ${(100 * right).toFixed(2)} %（≥ 99.9 %）${ok[0] ? '✓' : '✗'}，` +
      `交人工 ${(100 * flagged).toFixed(2)} %（≤ 1 %）${ok[1] ? '✓' : '✗'}，静默读错 ${all.silent}/${nAll} 题（≤ 1/10000）${ok[2] ? '✓' : '✗'}，` +
      `未识别 ${t.unidentified} ${ok[3] ? '✓' : '✗'}，身份读错 ${t.wrongIdentity} ${ok[4] ? '✓' : '✗'}`,
  );
  for (const s of t.silent) console.error(`  静默读错 ${s}`);
  return ok.every(Boolean);
}

/** CPU milliseconds (user + system) of this process so far: libvips' threads included. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU of a bare decode and of recognition over a set of pages. */
interface SpeedSum {
  n: number;
  decode: number;
  recognise: number;
}

const addTo = <K>(sums: Map<K, SpeedSum>, key: K, decode: number, recognise: number): void => {
  const s = sums.get(key) ?? sums.set(key, { n: 0, decode: 0, recognise: 0 }).get(key)!;
  s.n++;
  s.decode += decode;
  s.recognise += recognise;
};

/**
 * CPU of recognition on the held-out mix beside a bare decode of the same files, overall and by scan kind, and what a
 * doubtful page (to review) costs beside a clear one. One libvips thread; CPU time (`process.cpuUsage`, libvips'
 * threads included), not wall time. Each page is decoded and recognised one right after the other, the order
 * alternating from page to page, so a load that moves during the run weighs on both alike.
 */
export async function wildSpeed(files: WildFile[], fixtures: CorpusFixtures): Promise<boolean> {
  sharp.concurrency(1);
  const resolve = (id: string) => fixtures.layouts.get(id);
  const decodeOne = async (f: WildFile): Promise<number> => {
    const c = cpuMs();
    await sharp(f.bytes).extractChannel(0).raw().toBuffer();
    return cpuMs() - c;
  };
  const recogniseOne = async (f: WildFile): Promise<{ ms: number; status: string }> => {
    const c = cpuMs();
    const { result } = await recognisePage(f.bytes, { resolve, crops: LAZY_CROP_OPTIONS });
    return { ms: cpuMs() - c, status: result.status };
  };
  // Warm up zxing, libvips and the JIT.
  for (const f of files.slice(0, 3)) {
    await decodeOne(f);
    await recogniseOne(f);
  }
  const all = new Map<string, SpeedSum>();
  const byScan = new Map<string, SpeedSum>();
  const byStatus = new Map<string, SpeedSum>();
  for (const [i, f] of files.entries()) {
    let decode: number;
    let read: { ms: number; status: string };
    if (i % 2 === 0) {
      decode = await decodeOne(f);
      read = await recogniseOne(f);
    } else {
      read = await recogniseOne(f);
      decode = await decodeOne(f);
    }
    addTo(all, '', decode, read.ms);
    addTo(byScan, f.scan, decode, read.ms);
    addTo(byStatus, read.status, decode, read.ms);
  }
  const total = all.get('') ?? { n: 0, decode: 0, recognise: 0 };
  const ratio = total.decode ? total.recognise / total.decode : Infinity;
  const ok = byStatus.get('ok');
  const review = byStatus.get('review');
  const doubtful = ok && review ? review.recognise / review.n / (ok.recognise / ok.n) : null;
  const perPage = (s: SpeedSum) =>
    `识别 ${(s.recognise / s.n).toFixed(1)} ms/页，仅解码 ${(s.decode / s.n).toFixed(1)} ms/页，识别/解码 ${(s.recognise / s.decode).toFixed(2)}×`;
  console.log(`留出页的速度（${files.length} 页，单核 CPU，每页解码与识别相邻交替测量）`);
  console.log(`  ${perPage(total)}（目标 ≤ 1.5×）${ratio <= 1.5 ? '✓' : '✗'}`);
  for (const [scan, s] of [...byScan].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    console.log(`  扫描 ${scan.padEnd(13)} ${String(s.n).padStart(3)} 页，${perPage(s)}`);
  for (const [s, v] of byStatus)
    console.log(`  ${s.padEnd(7)} ${v.n} 页，${(v.recognise / v.n).toFixed(1)} ms/页`);
  if (doubtful !== null)
    console.log(`  待复核页/清楚页 ${doubtful.toFixed(2)}×（目标 ≤ 1.3×）${doubtful <= 1.3 ? '✓' : '✗'}`);
  console.log(
    `  系统负载 ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}`,
  );
  return ratio <= 1.5 && (doubtful === null || doubtful <= 1.3);
}

export { WILD_HELD_OUT_SEEDS, WILD_TUNING_SEEDS };
