// npm run bench -w @zhzy/server (second part): question search over a 100,000-question bank on SQLite and on
// PostgreSQL. Each database is fresh (a temporary SQLite file; a new PostgreSQL database on 127.0.0.1:5432,
// dropped afterwards), migrated and seeded like the product, then filled by bench/bench-bank.ts. A fixed mix of
// question-page calls (keywords alone and with filters, sorts, later pages, all four subjects) runs in-process
// through the host (authentication, validation, queries, JSON) and the latency of each call is recorded.
// Bounded: a fixed number of rounds, then everything is closed and removed.
import os from 'node:os';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { DialectName } from '../src/db/connect.js';
import { SUBJECT_IDS, booknodeId, knowledgeId, typeId } from '../src/seed/catalog.js';
import { openTestDb } from '../test/helpers/db.js';
import { signIn, bearer } from '../test/helpers/auth.js';
import { insertBenchBank } from './bench-bank.js';

const COUNT = Number(process.env.BENCH_QUESTIONS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET_P95_MS = 50;
const M = SUBJECT_IDS.数学;
const enc = encodeURIComponent;

/** What teachers type and pick on the question page. */
const SEARCHES: [shape: string, query: string][] = [
  ['keyword', `subjectId=${M}&keyword=${enc('方程')}`],
  ['keyword', `subjectId=${M}&keyword=${enc('一元一次方程')}`],
  ['keyword', `subjectId=${M}&keyword=${enc('绝对值')}`],
  ['keyword', `subjectId=${M}&keyword=${enc('有理数的加法')}`],
  ['keyword', `subjectId=${M}&keyword=${enc('平方根')}`],
  ['keyword', `subjectId=${M}&keyword=${enc('平行线 性质')}`],
  ['keyword+sort', `subjectId=${M}&keyword=${enc('坐标')}&sort=newest`],
  ['keyword+sort', `subjectId=${M}&keyword=${enc('不等式组')}&sort=mostUsed`],
  ['keyword+filter', `subjectId=${M}&keyword=${enc('解方程组')}&typeId=${typeId('数学', '解答题')}`],
  ['keyword+filter', `subjectId=${M}&keyword=${enc('科学记数法')}&difficulty=2`],
  ['keyword+chapter', `subjectId=${M}&keyword=${enc('相反数')}&booknodeId=${booknodeId('m7a-1')}`],
  ['keyword+knowledge', `subjectId=${M}&keyword=${enc('方程')}&knowledgePointId=${knowledgeId('k-m-eq')}`],
  ['keyword', `subjectId=${M}&keyword=${enc('螺栓 螺母')}`],
  ['keyword+filter', `subjectId=${M}&keyword=${enc('江苏')}&year=2024`],
  ['keyword+page', `subjectId=${M}&keyword=${enc('代数式的值')}&page=3`],
  ['keyword+page', `subjectId=${M}&keyword=${enc('计算')}&sort=newest&page=2`],
  ['keyword', `subjectId=${M}&keyword=${enc('三角形 面积')}`],
  ['keyword+filter', `subjectId=${M}&keyword=${enc('期中')}&scope=school`],
  ['keyword+filter', `subjectId=${M}&keyword=${enc('扇形统计图')}&region=${enc('全国')}`],
  ['keyword', `subjectId=${M}&keyword=${enc('没有这个词')}`],
  ['keyword', `subjectId=${SUBJECT_IDS.英语}&keyword=${enc('There')}`],
  ['keyword+sort', `subjectId=${SUBJECT_IDS.英语}&keyword=${enc('一般现在时')}&sort=mostUsed`],
  ['keyword', `subjectId=${SUBJECT_IDS.物理}&keyword=${enc('凸透镜')}`],
  [
    'keyword+filter',
    `subjectId=${SUBJECT_IDS.物理}&keyword=${enc('密度')}&typeId=${typeId('物理', '单选题')}`,
  ],
  ['keyword', `subjectId=${SUBJECT_IDS.语文}&keyword=${enc('朱自清')}`],
  ['keyword+sort', `subjectId=${SUBJECT_IDS.语文}&keyword=${enc('比喻')}&sort=newest`],
];

/** Browsing without a keyword, for comparison. */
const BROWSES: [shape: string, query: string][] = [
  ['browse', `subjectId=${M}`],
  ['browse+chapter', `subjectId=${M}&booknodeId=${booknodeId('m7a-5')}`],
  ['browse+knowledge', `subjectId=${M}&knowledgePointId=${knowledgeId('k-m-rational')}&sort=newest`],
  ['browse+filter', `subjectId=${M}&typeId=${typeId('数学', '填空题')}&difficulty=3&sort=mostUsed`],
  ['browse+filter', `subjectId=${SUBJECT_IDS.物理}&year=2025&region=${enc('广东')}`],
];

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

interface Figures {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  samples: number;
}

function summarise(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1]!,
    samples: sorted.length,
  };
}

async function benchDialect(dialect: DialectName) {
  const testDb = await openTestDb(dialect);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST: '',
    DATA_DIR: dialect === 'sqlite' ? testDb.location : '',
  });
  try {
    // First boot: migrations, catalogue and 演示学校.
    const seeding = await buildApp({ config, db: testDb.db });
    await seeding.ready();
    await seeding.close();
    const member = await testDb.db.kysely
      .selectFrom('users as u')
      .innerJoin('memberships as m', 'm.user_id', 'u.id')
      .select(['u.id', 'm.org_id'])
      .where('u.username', '=', 'demo-teacher')
      .executeTakeFirstOrThrow();
    const loadStart = performance.now();
    await insertBenchBank(testDb.db.kysely, COUNT, { orgId: member.org_id, userId: member.id }, (done) => {
      if (done % 20_000 === 0)
        process.stderr.write(`  ${dialect}: ${done.toLocaleString('en-US')} questions\n`);
    });
    const loadSeconds = (performance.now() - loadStart) / 1000;
    // A bank this size grows over months, and PostgreSQL's autovacuum has long since vacuumed and analysed it
    // (the visibility map lets index-only scans count without reading rows): reach that state now. The host's
    // own upkeep at boot (next) refreshes the planner statistics on both databases.
    if (dialect === 'postgres')
      await sql`vacuum analyze questions, question_search_rows`.execute(testDb.db.kysely);

    const app = await buildApp({ config, db: testDb.db });
    await app.ready();
    try {
      const auth = bearer((await signIn(app, 'demo-teacher')).access_token);
      const run = async (query: string) => {
        const started = performance.now();
        const res = await app.inject({
          method: 'GET',
          url: `/teacher/question/page?${query}&size=20`,
          headers: auth,
        });
        const ms = performance.now() - started;
        if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
        return { ms, total: res.json<{ data: { total: number } }>().data.total };
      };
      // Warm-up: statement caches, the buffer pool and the JIT, one pass over every query.
      const totals = new Map<string, number>();
      for (const [, q] of [...SEARCHES, ...BROWSES]) totals.set(q, (await run(q)).total);
      const search: number[] = [];
      const browse: number[] = [];
      const byShape = new Map<string, number[]>();
      const record = (shape: string, ms: number) => {
        byShape.set(shape, [...(byShape.get(shape) ?? []), ms]);
        return ms;
      };
      const loadBefore = os.loadavg();
      for (let round = 0; round < ROUNDS; round++) {
        for (const [shape, q] of SEARCHES) search.push(record(shape, (await run(q)).ms));
        for (const [shape, q] of BROWSES) browse.push(record(shape, (await run(q)).ms));
      }
      const loadAfter = os.loadavg();
      const matched = SEARCHES.map(([, q]) => totals.get(q) ?? 0);
      if (process.env.BENCH_VERBOSE) {
        // The slowest queries of the mix, each with its median over the rounds.
        const per = SEARCHES.map(([, q], i) => {
          const times = Array.from({ length: ROUNDS }, (_, r) => search[r * SEARCHES.length + i]!).sort(
            (a, b) => a - b,
          );
          return {
            q: decodeURIComponent(q),
            median: times[Math.floor(times.length / 2)]!,
            total: totals.get(q),
          };
        });
        for (const p of per.sort((a, b) => b.median - a.median).slice(0, 10))
          process.stderr.write(
            `  ${dialect} ${p.median.toFixed(1).padStart(7)} ms  ${p.total} hits  ${p.q}\n`,
          );
      }
      const shapes = new Map([...byShape].map(([shape, samples]) => [shape, summarise(samples)]));
      return {
        dialect,
        loadSeconds,
        search: summarise(search),
        browse: summarise(browse),
        shapes,
        load: [loadBefore, loadAfter],
        matched,
      };
    } finally {
      await app.close();
    }
  } finally {
    await testDb.cleanup();
  }
}

const results = [];
for (const dialect of ['sqlite', 'postgres'] as const) {
  process.stderr.write(`building a ${COUNT.toLocaleString('en-US')}-question bank on ${dialect} …\n`);
  results.push(await benchDialect(dialect));
}

const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(9);
console.log(
  `\nquestion search over ${COUNT.toLocaleString('en-US')} questions — ${SEARCHES.length} searches × ${ROUNDS} rounds, in-process through the host, page size 20`,
);
console.log(
  `${'database'.padEnd(11)}${'case'.padEnd(10)}${'p50'.padStart(9)}${'p95'.padStart(9)}${'p99'.padStart(9)}${'max'.padStart(9)}  samples`,
);
for (const r of results) {
  for (const [name, f] of [
    ['search', r.search],
    ['browse', r.browse],
  ] as const) {
    console.log(
      `${r.dialect.padEnd(11)}${name.padEnd(10)}${ms(f.p50)}${ms(f.p95)}${ms(f.p99)}${ms(f.max)}  ${f.samples}`,
    );
  }
}
const shapeNames = [...new Set([...SEARCHES, ...BROWSES].map(([shape]) => shape))];
console.log(
  `\nper query shape (queries of the shape × rounds): p50 / p95 on each database, and PostgreSQL ÷ SQLite at p95`,
);
console.log(
  `${'shape'.padEnd(19)}${results.map((r) => `${r.dialect} p50`.padStart(14) + `${r.dialect} p95`.padStart(14)).join('')}${'pg/sqlite'.padStart(11)}`,
);
for (const shape of shapeNames) {
  const figures = results.map((r) => r.shapes.get(shape)!);
  const ratio = figures.length === 2 ? `${(figures[1]!.p95 / figures[0]!.p95).toFixed(2)}×`.padStart(11) : '';
  console.log(
    `${shape.padEnd(19)}${figures.map((f) => ms(f.p50).padStart(14) + ms(f.p95).padStart(14)).join('')}${ratio}`,
  );
}
const loads = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
for (const r of results) {
  console.log(
    `${r.dialect}: os.loadavg() ${loads(r.load[0]!)} before the timed rounds, ${loads(r.load[1]!)} after (${os.cpus().length} cores)`,
  );
}
for (const r of results) {
  console.log(
    `${r.dialect}: bank loaded in ${r.loadSeconds.toFixed(1)} s; matches per search from ${Math.min(...r.matched)} to ${Math.max(...r.matched)}`,
  );
}
const same =
  results.length === 2 && JSON.stringify(results[0]!.matched) === JSON.stringify(results[1]!.matched);
console.log(`same number of matches on both databases for every search: ${same ? 'yes' : 'NO'}`);
const worst = Math.max(...results.map((r) => r.search.p95));
console.log(
  `search p95 target ≤ ${TARGET_P95_MS} ms: ${worst <= TARGET_P95_MS ? 'met' : 'MISSED'} (worst p95 ${worst.toFixed(1)} ms)`,
);
