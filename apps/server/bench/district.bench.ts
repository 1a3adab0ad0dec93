// npm run bench:district -w @zhzy/server: a generated district on PostgreSQL, driven like production.
// A fresh PostgreSQL database (created and dropped here) is migrated and seeded by the real host, started in a child
// process (buildApp + listen on 127.0.0.1, pg-boss queue) so the load generator does not share its event loop. The
// district is then filled: 50 schools (演示学校 is the first), 100,000 students in classes of ~45, six subject
// teachers per school, one test in six subjects published to every class, a sheet per student per subject with 20
// scored answers (15 objective, 5 written with a crop), the default marking blocks and one mark per written answer.
// Schools, classes and tests are multi-row inserts; students, sheets, answers and marks are set-based
// INSERT … SELECT over generate_series per school on two connections (scores from a deterministic hash, sheet totals
// and each sheet's pack agreeing with the answers) into tables whose indexes, keys and references are dropped for the
// fill and built once after it; the task list's items and counters likewise; then VACUUM (ANALYZE).
// The fill is checked against the host's own code: the references are validated, a sample of sheets is packed again
// by the results spine's `repack` and 演示学校's counters recounted by `recountHomework`, each unchanged.
// 200 concurrent clients (autocannon) on loopback then call a teacher's common reads; each call's time alone, then
// p50 / p99 and req/s under load are printed with os.loadavg(). Last, the recognition worker pool's pages/s on every
// core (recognition-pool.bench.ts) is printed beside.
// BENCH_DISTRICT_SCALE=0.1 generates a tenth of the students (default 1, the full district); each call stops after
// BENCH_REQUESTS answers (default 2,000) or BENCH_DURATION seconds (default 30), whichever comes first; the whole run
// stops itself after BENCH_DISTRICT_LIMIT_MIN minutes (default 60). The host is closed and the database dropped at
// the end, also on failure, interruption or overrun. The fill prints the seconds of each of its phases.
// BENCH_CPU_PROFILE=<dir>: after each call's measured load phase (so its CPU figure stays unprofiled), the call is
// loaded once more with the host's V8 profiler on (cpu-profile.ts); the profile is written to <dir> and its top
// functions printed in CPU ms per answer. BENCH_CPU_PROFILE_CALLS=<words,…> profiles only the calls whose title holds
// one of them. BENCH_DISTRICT_POOL=0 leaves out the recognition pool at the end. Every client sends what a browser
// sends, `accept-encoding: gzip, deflate, br` (so large answers are compressed, as for a teacher); BENCH_ACCEPT_ENCODING
// =<header> sends another, `identity` none. BENCH_REQUESTS below 200 loads with as many clients as requests.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { HomeworkPaper } from '@zhzy/contracts';
import type { Database } from '../src/db/schema.js';
import { newId } from '../src/lib/ids.js';
import { defaultBlockId, markableQuestions } from '../src/modules/marking/service.js';
import { recountHomework } from '../src/modules/marking/repository/item-counts.js';
import { packLayout } from '../src/modules/results/packing.js';
import { ResultsService } from '../src/modules/results/service.js';
import { TEST_PG_ADMIN_URL } from '../test/helpers/db.js';
import { printSummary, profileOnCommand, type Profile } from './cpu-profile.js';

const SCALE = Number(process.env.BENCH_DISTRICT_SCALE ?? 1);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 30);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
/** 200 concurrent clients, or fewer when fewer requests are asked (autocannon refuses more clients than requests). */
const CONNECTIONS = Math.min(200, REQUESTS);
const SCHOOLS = 50;
const STUDENTS = Math.max(SCHOOLS, Math.round(100_000 * SCALE));
const PER_CLASS = 45;
const QUESTIONS = 20;
const OBJECTIVE = 15;
const SUBJECTS = 6;
const CHUNK_ROWS = 2000;
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** The whole run (fill, load, recognition pool) stops itself after this many minutes, the database dropped. */
const LIMIT_MIN = Number(process.env.BENCH_DISTRICT_LIMIT_MIN ?? 60);

/** Where the load phases' CPU profiles go (none unless set), and which calls are profiled (all unless told). */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
const PROFILE_CALLS = (process.env.BENCH_CPU_PROFILE_CALLS ?? '').split(',').filter(Boolean);
const profiled = (title: string) =>
  !!PROFILE_DIR && (PROFILE_CALLS.length === 0 || PROFILE_CALLS.some((w) => title.includes(w)));

// ───────────── child: the real host ─────────────

async function host(): Promise<void> {
  // Every statement the host sends to PostgreSQL is counted (its pool's and pg-boss's clients), and the count
  // answered to a `queries` line on stdin: statements per answer do not depend on the machine's load.
  let statements = 0;
  type Send = (this: pg.Client, ...args: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: Send };
  const send = (Object.getOwnPropertyDescriptor(proto, 'query') as { value: Send }).value;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    statements += 1;
    return send.apply(this, args);
  };
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'queries') process.stdout.write(`${statements}\n`);
  });
  const { buildApp } = await import('../src/app.js');
  const { loadConfig } = await import('../src/config.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-district-'));
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      WEB_DIST: '',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.BENCH_DATABASE_URL!,
      JOB_QUEUE: 'pg-boss',
      SEED_DEMO_RESULTS: 'false',
      // 200 clients share one teacher's token here, where a district has 200 teachers: the per-account limit
      // (3,000 a minute) would answer 429 to this bench's single account, which no real teacher reaches.
      RATE_LIMIT_PER_MINUTE: '0',
    }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.stdout.write(
    `${JSON.stringify({ port: address && typeof address === 'object' ? address.port : 0 })}\n`,
  );
  const stop = async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.stdin.on('end', () => void stop());
  if (process.env.BENCH_CPU_PROFILE) profileOnCommand(process.stdin, process.stdout);
  process.stdin.resume();
}

// ───────────── parent: fill, load, report ─────────────

/** Inserts rows in multi-row statements of at most CHUNK_ROWS, flushing as the buffer fills (bounded memory). */
class Buffered<T> {
  private rows: T[] = [];
  count = 0;
  constructor(private readonly insert: (rows: T[]) => Promise<unknown>) {}
  async push(row: T): Promise<void> {
    this.rows.push(row);
    this.count += 1;
    if (this.rows.length >= CHUNK_ROWS) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    await this.insert(rows);
  }
}

interface SchoolFill {
  school: number;
  orgId: string;
  students: number;
  classCount: number;
  now: string;
  /** Per subject. */
  testIds: string[];
  cardIds: string[];
  teacherIds: string[];
  /** Subject s, question i at s × QUESTIONS + i. */
  questionIds: string[];
}

/**
 * SQL functions of the generated scores: d_rand is a deterministic hash in [0, 1); a student's ability is
 * 0.3 + 0.6 × d_rand(school, k, 99, 99); an objective answer is right with that probability, a written one scores
 * the ability ± 0.2 of its points (whole points). Everything in tenths.
 */
async function fillFunctions(client: pg.Client): Promise<void> {
  // Single-expression SQL functions, so the planner inlines them into the INSERT … SELECT.
  await client.query(`
    CREATE FUNCTION d_rand(a int, b int, c int, d int) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT sin(a * 12.9898 + b * 78.233 + c * 37.719 + d * 4.581) * 43758.5453
             - floor(sin(a * 12.9898 + b * 78.233 + c * 37.719 + d * 4.581) * 43758.5453)
    $$`);
  await client.query(`
    CREATE FUNCTION d_score(school int, k int, s int, i int) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN i < ${OBJECTIVE}
        THEN CASE WHEN d_rand(school, k, s, i) < 0.3 + 0.6 * d_rand(school, k, 99, 99) THEN 40 ELSE 0 END
        ELSE (round(greatest(0, least(1, 0.3 + 0.6 * d_rand(school, k, 99, 99) + (d_rand(school, k, s, i) - 0.5) * 0.4)) * 8) * 10)::int
      END
    $$`);
  await skipTriggers(client);
}

/**
 * The generated rows refer to each other correctly by construction: a fill connection skips the per-row foreign-key
 * triggers (a bulk load's usual setting; the bench checks the references once afterwards).
 */
async function skipTriggers(client: pg.Client): Promise<void> {
  await client.query(`SET session_replication_role = replica`);
}

/** Every generated reference points at a row (the check the skipped triggers would have made, set-based). */
async function checkReferences(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ n: string }>(`
    SELECT (SELECT count(*) FROM sheet_answers a WHERE NOT EXISTS (SELECT 1 FROM sheets s WHERE s.id = a.sheet_id))
         + (SELECT count(*) FROM sheets s WHERE NOT EXISTS (SELECT 1 FROM students t WHERE t.id = s.student_id))
         + (SELECT count(*) FROM sheets s WHERE NOT EXISTS (SELECT 1 FROM classes c WHERE c.id = s.class_id))
         + (SELECT count(*) FROM students t WHERE NOT EXISTS (SELECT 1 FROM classes c WHERE c.id = t.class_id))
         + (SELECT count(*) FROM mark_marks m WHERE NOT EXISTS (SELECT 1 FROM sheets s WHERE s.id = m.sheet_id))
         + (SELECT count(*) FROM mark_marks m WHERE NOT EXISTS (SELECT 1 FROM mark_blocks b WHERE b.id = m.block_id))
         AS n`);
  if (Number(rows[0]!.n) !== 0) throw new Error(`${rows[0]!.n} generated rows refer to nothing`);
  const unpacked = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM sheets WHERE answers_packed IS NULL`,
  );
  if (Number(unpacked.rows[0]!.n) !== 0)
    throw new Error(`${unpacked.rows[0]!.n} sheets have no packed answers`);
}

/** The tables the fill writes set-based: their keys, indexes and references are built once it is done. */
const BULK_TABLES = ['students', 'sheets', 'sheet_answers', 'mark_marks', 'mark_items', 'mark_item_counts'];

/**
 * Drops the bulk tables' indexes, primary keys and the references from and to them, and answers the statements that
 * make them again (indexes and keys first, then the references, each validated over every row). Building an index
 * once by sorting is much cheaper than keeping it up to date through millions of inserts whose keys arrive in no
 * order (the full district's answer index outgrows the shared buffers and every insert then reads pages back).
 */
async function dropBulkIndexes(client: pg.Client): Promise<{ table: string; statement: string }[]> {
  const tables = BULK_TABLES;
  const refs = await client.query<{ tbl: string; name: string; def: string }>(
    `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE contype = 'f' AND (conrelid::regclass::text = ANY($1) OR confrelid::regclass::text = ANY($1))`,
    [tables],
  );
  const keys = await client.query<{ tbl: string; name: string; def: string }>(
    `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE contype IN ('p', 'u') AND conrelid::regclass::text = ANY($1)`,
    [tables],
  );
  const indexes = await client.query<{ tbl: string; name: string; def: string }>(
    `SELECT i.indrelid::regclass::text AS tbl, i.indexrelid::regclass::text AS name,
            pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
     WHERE i.indrelid::regclass::text = ANY($1)
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const r of refs.rows) await client.query(`ALTER TABLE ${r.tbl} DROP CONSTRAINT ${r.name}`);
  for (const r of keys.rows) await client.query(`ALTER TABLE ${r.tbl} DROP CONSTRAINT ${r.name}`);
  for (const r of indexes.rows) await client.query(`DROP INDEX ${r.name}`);
  return [
    ...indexes.rows.map((r) => ({ table: r.tbl, statement: r.def })),
    ...[...keys.rows, ...refs.rows].map((r) => ({
      table: r.tbl,
      statement: `ALTER TABLE ${r.tbl} ADD CONSTRAINT ${r.name} ${r.def}`,
    })),
  ];
}

/**
 * A sample of the generated packs (one sheet in 100, at least 60) is packed again by the results spine's `repack`
 * from the answer rows: every pack must come out as generated.
 */
async function checkPacks(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ id: string; answers_packed: string }>`
    SELECT id, answers_packed FROM sheets WHERE id LIKE 'district-sheet-%'
    ORDER BY md5(id) LIMIT ${Math.max(60, Math.round((STUDENTS * SUBJECTS) / 100))}`.execute(db);
  await new ResultsService(db).repack(rows.map((r) => r.id));
  const again = new Map(
    (
      await db
        .selectFrom('sheets')
        .select(['id', 'answers_packed'])
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute()
    ).map((r) => [r.id, r.answers_packed]),
  );
  const wrong = rows.filter((r) => again.get(r.id) !== r.answers_packed);
  if (wrong.length > 0)
    throw new Error(
      `${wrong.length} of ${rows.length} generated packs differ from repack's, e.g. ${wrong[0]!.answers_packed} ≠ ${again.get(wrong[0]!.id)}`,
    );
  return rows.length;
}

/** The demo school's counters as generated must be what the marking module's own recount makes of them. */
async function checkCounters(db: Kysely<Database>, testIds: string[]): Promise<void> {
  const snapshot = async () => {
    const blocks = db.selectFrom('mark_blocks').select('id').where('homework_id', 'in', testIds);
    const items = await db
      .selectFrom('mark_items')
      .selectAll()
      .where('block_id', 'in', blocks)
      .orderBy('block_id')
      .orderBy('sheet_id')
      .execute();
    const counts = await db
      .selectFrom('mark_item_counts')
      .selectAll()
      .where('block_id', 'in', blocks)
      .where('items', '<>', 0)
      .orderBy('block_id')
      .orderBy('class_id')
      .orderBy('user_id')
      .orderBy('done')
      .orderBy('problem')
      .orderBy('state')
      .orderBy('given')
      .execute();
    return JSON.stringify({ items, counts });
  };
  const generated = await snapshot();
  await recountHomework(db, testIds);
  const recounted = await snapshot();
  if (generated !== recounted)
    throw new Error(`the generated task-list counters differ from recountHomework's for 演示学校`);
  if (generated.length < 100) throw new Error('the demo school has no task-list counters');
}

const rowsOf = (r: pg.QueryResult) => r.rowCount ?? 0;

async function fillStudents(client: pg.Client, f: SchoolFill): Promise<number> {
  return rowsOf(
    await client.query(
      `INSERT INTO students (id, org_id, class_id, name, student_no, gender, created_at)
       SELECT 'district-student-' || $1::int || '-' || k, $2, 'district-class-' || $1::int || '-' || (k % $3::int),
              '学生' || $1::int || '-' || k, 'D' || lpad($1::int::text, 2, '0') || lpad(k::text, 5, '0'), NULL, $4
       FROM generate_series(0, $5::int - 1) k`,
      [f.school, f.orgId, f.classCount, f.now, f.students],
    ),
  );
}

/** An objective answer's response: 'B' (the key) when it scored, otherwise one of the others by the hash. */
const RESPONSE_SQL = (score: string) => `CASE WHEN ${score} > 0 THEN 'B'
  ELSE substr('ACD', 1 + floor(d_rand($1::int, k, s, i + 50) * 3)::int, 1) END`;

/**
 * A sheet's pack as the results spine writes it (`packAnswers`, ADR 0037), built in the same statement as the
 * sheet: `[key, code, response, …]` in the pack layout's order, code `(score + 1) × 4`, + 1 for a written answer's
 * crop. `$8` holds each subject's key as JSON, `$9` each question's place in its subject's pack (s × QUESTIONS + i).
 * The bench checks a sample against `repack` after the fill (`checkPacks`).
 */
const PACK_SQL = `'[' || ($8::text[])[s + 1] || ',' || string_agg(
    ((sc + 1) * 4 + CASE WHEN i >= ${OBJECTIVE} THEN 1 ELSE 0 END)::text || ',' ||
    CASE WHEN i < ${OBJECTIVE} THEN to_json(${RESPONSE_SQL('sc')})::text ELSE 'null' END,
    ',' ORDER BY ($9::int[])[s * ${QUESTIONS} + i + 1]) || ']'`;

async function fillSheets(client: pg.Client, f: SchoolFill & PackShape): Promise<number> {
  return rowsOf(
    await client.query(
      `INSERT INTO sheets (id, org_id, homework_id, student_id, class_id, card_id, card_version, pages_expected,
                           pages_received, review_status, objective_score_tenths, subjective_score_tenths,
                           total_score_tenths, unscored_count, answers_packed, created_at, updated_at)
       SELECT 'district-sheet-' || $1::int || '-' || k || '-' || s, $2, ($3::text[])[s + 1],
              'district-student-' || $1::int || '-' || k, 'district-class-' || $1::int || '-' || (k % $4::int),
              ($5::text[])[s + 1], 1, 1, 1, 'confirmed', t.o, t.w, t.o + t.w, 0, t.pack, $6, $6
       FROM generate_series(0, $7::int - 1) k
       CROSS JOIN generate_series(0, ${SUBJECTS - 1}) s
       CROSS JOIN LATERAL (
         SELECT sum(CASE WHEN i < ${OBJECTIVE} THEN sc ELSE 0 END)::int AS o,
                sum(CASE WHEN i >= ${OBJECTIVE} THEN sc ELSE 0 END)::int AS w,
                ${PACK_SQL} AS pack
         FROM (SELECT i, d_score($1::int, k, s, i) AS sc FROM generate_series(0, ${QUESTIONS - 1}) i) q
       ) t`,
      [f.school, f.orgId, f.testIds, f.classCount, f.cardIds, f.now, f.students, f.packKeys, f.packPlaces],
    ),
  );
}

async function fillAnswers(client: pg.Client, f: SchoolFill): Promise<number> {
  return rowsOf(
    await client.query(
      `INSERT INTO sheet_answers (sheet_id, org_id, homework_id, question_id, kind, response, response_status,
                                  crop_path, blank, full_score_tenths, score_tenths, score_source, updated_by,
                                  updated_at)
       SELECT 'district-sheet-' || $1::int || '-' || k || '-' || s, $2, ($3::text[])[s + 1],
              ($4::text[])[s * ${QUESTIONS} + i + 1],
              CASE WHEN i < ${OBJECTIVE} THEN 'single' ELSE 'written' END,
              CASE WHEN i < ${OBJECTIVE} THEN ${RESPONSE_SQL('v.score')} END,
              CASE WHEN i < ${OBJECTIVE} THEN 'ok' END,
              CASE WHEN i >= ${OBJECTIVE} THEN 'district/crops/' || $1::int || '/' || k || '-' || s || '-' || i || '.png' END,
              0, CASE WHEN i < ${OBJECTIVE} THEN 40 ELSE 80 END, v.score,
              CASE WHEN i < ${OBJECTIVE} THEN 'auto' ELSE 'marker' END, NULL, $5
       FROM generate_series(0, $6::int - 1) k
       CROSS JOIN generate_series(0, ${SUBJECTS - 1}) s
       CROSS JOIN generate_series(0, ${QUESTIONS - 1}) i
       CROSS JOIN LATERAL (SELECT d_score($1::int, k, s, i) AS score) v`,
      [f.school, f.orgId, f.testIds, f.questionIds, f.now, f.students],
    ),
  );
}

/** One mark per written answer by the subject's teacher, the score it gave being the answer's. */
async function fillMarks(client: pg.Client, f: SchoolFill & { blockIds: string[] }): Promise<number> {
  const written = QUESTIONS - OBJECTIVE;
  return rowsOf(
    await client.query(
      `INSERT INTO mark_marks (id, org_id, block_id, sheet_id, user_id, kind, scores, total_tenths, annotations,
                               comment, created_at, updated_at)
       SELECT 'district-mark-' || $1::int || '-' || k || '-' || s || '-' || i, $2,
              ($3::text[])[s * ${written} + i - ${OBJECTIVE} + 1],
              'district-sheet-' || $1::int || '-' || k || '-' || s, ($4::text[])[s + 1], 'mark',
              '{"' || ($5::text[])[s * ${QUESTIONS} + i + 1] || '":' || v.score || '}', v.score, '[]', '', $6, $6
       FROM generate_series(0, $7::int - 1) k
       CROSS JOIN generate_series(0, ${SUBJECTS - 1}) s
       CROSS JOIN generate_series(${OBJECTIVE}, ${QUESTIONS - 1}) i
       CROSS JOIN LATERAL (SELECT d_score($1::int, k, s, i) AS score) v`,
      [f.school, f.orgId, f.blockIds, f.teacherIds, f.questionIds, f.now, f.students],
    ),
  );
}

/** Each subject's pack key (as JSON) and each question's place in its subject's pack, for `fillSheets`. */
interface PackShape {
  packKeys: string[];
  packPlaces: number[];
}

/** The pack shape of the subjects' papers (question ids in paper order per subject), by the spine's layout. */
function packShape(papers: { items: { questionId: string }[] }[]): PackShape {
  const places: number[] = [];
  const keys = papers.map((p) => {
    const layout = packLayout(p.items.map((it) => it.questionId));
    // Entry j of a pack answers question order[j]: question order[j]'s place is j.
    const place = new Array<number>(layout.order.length);
    layout.order.forEach((question, j) => (place[question] = j));
    places.push(...place);
    return JSON.stringify(layout.key);
  });
  return { packKeys: keys, packPlaces: places };
}

/**
 * Where each generated item stands (`mark_items`, migration 0033): every written answer has a crop and a score and
 * one mark by its subject's teacher, so its item is done, without problem, final (single marking) with one mark
 * given, marked by that teacher. The bench checks 演示学校's items and counters against `recountHomework` after the
 * fill (`checkCounters`).
 */
async function fillItems(client: pg.Client, f: SchoolFill & { blockIds: string[] }): Promise<number> {
  const written = QUESTIONS - OBJECTIVE;
  return rowsOf(
    await client.query(
      `INSERT INTO mark_items (block_id, sheet_id, class_id, done, problem, state, given, users)
       SELECT ($2::text[])[s * ${written} + i - ${OBJECTIVE} + 1], 'district-sheet-' || $1::int || '-' || k || '-' || s,
              'district-class-' || $1::int || '-' || (k % $3::int), 1, 0, 'final', 1,
              '[' || to_json(($4::text[])[s + 1])::text || ']'
       FROM generate_series(0, $5::int - 1) k
       CROSS JOIN generate_series(0, ${SUBJECTS - 1}) s
       CROSS JOIN generate_series(${OBJECTIVE}, ${QUESTIONS - 1}) i`,
      [f.school, f.blockIds, f.classCount, f.teacherIds, f.students],
    ),
  );
}

/** The task list's counters of the generated items: per (block, class, state) for everyone (user '') and each marker. */
async function fillCounts(client: pg.Client): Promise<number> {
  return rowsOf(
    await client.query(
      `INSERT INTO mark_item_counts (block_id, class_id, user_id, done, problem, state, given, items)
       SELECT block_id, class_id, u.user_id, done, problem, state, given, count(*)
       FROM mark_items
       CROSS JOIN LATERAL (SELECT '' AS user_id UNION ALL SELECT jsonb_array_elements_text(users::jsonb)) u
       WHERE sheet_id LIKE 'district-sheet-%'
       GROUP BY block_id, class_id, u.user_id, done, problem, state, given`,
    ),
  );
}

interface Target {
  testIds: string[];
  classId: string;
}

async function fill(
  db: Kysely<Database>,
  [client, second]: [pg.Client, pg.Client],
): Promise<{ target: Target; counts: Record<string, number> }> {
  const now = new Date().toISOString();
  const demo = await db
    .selectFrom('orgs')
    .select('id')
    .where('name', '=', '演示学校')
    .executeTakeFirstOrThrow();
  const teacher = await db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('username', '=', 'demo-teacher')
    .executeTakeFirstOrThrow();
  // The seeded catalog has four junior subjects; a district exam has six, so two more join the catalog (no bank).
  await db
    .insertInto('subjects')
    .values([
      { id: 'subj-junior-chemistry', stage_id: 'stage-junior', name: '化学', sort: 5 },
      { id: 'subj-junior-biology', stage_id: 'stage-junior', name: '生物', sort: 6 },
    ])
    .onConflict((oc) => oc.doNothing())
    .execute();
  const subjects = await db
    .selectFrom('subjects')
    .select(['id', 'name'])
    .where('stage_id', '=', 'stage-junior')
    .orderBy('sort')
    .limit(SUBJECTS)
    .execute();
  // Each subject's paper: its own questions where the bank has them, otherwise mathematics' (the ids only name items).
  const bank = await db
    .selectFrom('questions')
    .innerJoin('question_types', 'question_types.id', 'questions.type_id')
    .select([
      'questions.id',
      'questions.subject_id',
      'questions.stem',
      'questions.answer',
      'questions.difficulty',
      'questions.type_id',
    ])
    .where(
      'questions.subject_id',
      'in',
      subjects.map((s) => s.id),
    )
    .where('questions.deleted_at', 'is', null)
    .orderBy('questions.id')
    .limit(20_000)
    .execute();
  const papers = subjects.map((s) => {
    let qs = bank.filter((q) => q.subject_id === s.id).slice(0, QUESTIONS);
    if (qs.length < QUESTIONS)
      qs = bank.filter((q) => q.subject_id === 'subj-junior-math').slice(0, QUESTIONS);
    const items = qs.map((q, i) => ({
      id: `district-item-${s.id}-${i + 1}`,
      no: i + 1,
      questionId: q.id,
      score: i < OBJECTIVE ? 4 : 8,
      scoreOverride: null,
      question: {
        id: q.id,
        typeId: q.type_id,
        typeName: i < OBJECTIVE ? '单选题' : '解答题', // what the card (and marking) reads the kind from
        difficulty: q.difficulty,
        stem: q.stem,
        options: i < OBJECTIVE ? ['A', 'B', 'C', 'D'].map((label) => ({ label, content: label })) : [],
        answer: i < OBJECTIVE ? 'B' : q.answer,
        analysis: '',
        owner: 'system',
        knowledgePoints: [{ id: `kp-district-${i % 6}`, name: `知识点${(i % 6) + 1}` }],
      },
    }));
    const total = items.reduce((sum, it) => sum + it.score, 0);
    const snapshot = {
      paperId: `district-paper-${s.id}`,
      paperVersion: 1,
      title: `${s.name}期中统考`,
      subtitle: '',
      stageId: 'stage-junior',
      stageName: '初中',
      subjectId: s.id,
      subjectName: s.name,
      questionCount: items.length,
      totalScore: total,
      settings: {},
      sections: [
        {
          id: 's1',
          number: '一',
          typeId: items[0]!.question.typeId,
          title: '选择题',
          note: '',
          defaultScore: 4,
          heading: '一、选择题',
          questionCount: OBJECTIVE,
          totalScore: OBJECTIVE * 4,
          items: items.slice(0, OBJECTIVE),
        },
        {
          id: 's2',
          number: '二',
          typeId: items[OBJECTIVE]!.question.typeId,
          title: '解答题',
          note: '',
          defaultScore: 8,
          heading: '二、解答题',
          questionCount: items.length - OBJECTIVE,
          totalScore: (items.length - OBJECTIVE) * 8,
          items: items.slice(OBJECTIVE),
        },
      ],
    };
    // The questions marking makes blocks of (written ones): the marks below are given on exactly these.
    const written = markableQuestions(snapshot as unknown as HomeworkPaper);
    const expected = items.slice(OBJECTIVE).map((it) => it.questionId);
    if (written.map((q) => q.questionId).join() !== expected.join())
      throw new Error(`${s.name}: the written questions are not the last ${QUESTIONS - OBJECTIVE}`);
    return { subject: s, items, total, written, snapshot: JSON.stringify(snapshot) };
  });

  // The settings, paper and layout every district card version carries: the seeded demo homework's (one page).
  const card = await db
    .selectFrom('card_versions')
    .select(['settings', 'card_paper', 'layout', 'identity'])
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirstOrThrow();
  const counts: Record<string, number> = {};
  const b = {
    orgs: new Buffered((rows: object[]) =>
      db
        .insertInto('orgs')
        .values(rows as never)
        .execute(),
    ),
    school_years: new Buffered((rows: object[]) =>
      db
        .insertInto('school_years')
        .values(rows as never)
        .execute(),
    ),
    users: new Buffered((rows: object[]) =>
      db
        .insertInto('users')
        .values(rows as never)
        .execute(),
    ),
    memberships: new Buffered((rows: object[]) =>
      db
        .insertInto('memberships')
        .values(rows as never)
        .execute(),
    ),
    classes: new Buffered((rows: object[]) =>
      db
        .insertInto('classes')
        .values(rows as never)
        .execute(),
    ),
    teaching_assignments: new Buffered((rows: object[]) =>
      db
        .insertInto('teaching_assignments')
        .values(rows as never)
        .execute(),
    ),
    homework: new Buffered((rows: object[]) =>
      db
        .insertInto('homework')
        .values(rows as never)
        .execute(),
    ),
    homework_classes: new Buffered((rows: object[]) =>
      db
        .insertInto('homework_classes')
        .values(rows as never)
        .execute(),
    ),
    card_versions: new Buffered((rows: object[]) =>
      db
        .insertInto('card_versions')
        .values(rows as never)
        .execute(),
    ),
    mark_blocks: new Buffered((rows: object[]) =>
      db
        .insertInto('mark_blocks')
        .values(rows as never)
        .execute(),
    ),
    mark_markers: new Buffered((rows: object[]) =>
      db
        .insertInto('mark_markers')
        .values(rows as never)
        .execute(),
    ),
  };
  const add = (table: string, rows: number) => (counts[table] = (counts[table] ?? 0) + rows);
  // Seconds spent per fill phase, printed at the end: where a slow fill goes.
  const phases: Record<string, number> = {};
  const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      phases[phase] = (phases[phase] ?? 0) + (performance.now() - t0) / 1000;
    }
  };
  let target: Target | undefined;
  // Each sheet carries the pack of its answers the results spine would have written with them (ADR 0033, ADR 0037),
  // so the analysis calls below decode packs as in production instead of reading the answer rows.
  const shape = packShape(papers);
  for (let school = 0; school < SCHOOLS; school += 1) {
    const studentsHere =
      Math.floor((STUDENTS * (school + 1)) / SCHOOLS) - Math.floor((STUDENTS * school) / SCHOOLS);
    const classCount = Math.max(1, Math.round(studentsHere / PER_CLASS));
    let orgId: string;
    let yearId: string;
    const teacherIds: string[] = [];
    if (school === 0) {
      orgId = demo.id;
      const year = await db
        .selectFrom('school_years')
        .select('id')
        .where('org_id', '=', orgId)
        .where('is_default', '=', 1)
        .executeTakeFirstOrThrow();
      yearId = year.id;
      for (let s = 0; s < SUBJECTS; s += 1) teacherIds.push(teacher.id);
    } else {
      orgId = `district-org-${school}`;
      yearId = `district-year-${school}`;
      await b.orgs.push({
        id: orgId,
        name: `第${school}中学`,
        logo_path: null,
        created_at: now,
        updated_at: now,
      });
      await b.school_years.push({
        id: yearId,
        org_id: orgId,
        name: '2026-2027学年',
        is_default: 1,
        sort: 1,
        created_at: now,
      });
      for (let s = 0; s < SUBJECTS; s += 1) {
        const userId = `district-user-${school}-${s}`;
        teacherIds.push(userId);
        await b.users.push({
          id: userId,
          username: `district-${school}-${s}`,
          password_hash: teacher.password_hash,
          nickname: `${papers[s]!.subject.name}老师${school}`,
          avatar: null,
          phone: null,
          default_org_id: orgId,
          created_at: now,
          updated_at: now,
        });
        await b.memberships.push({
          id: newId(),
          org_id: orgId,
          user_id: userId,
          is_creator: s === 0 ? 1 : 0,
          is_administrator: s === 0 ? 1 : 0,
          default_year_id: yearId,
          created_at: now,
        });
      }
    }
    const classIds: string[] = [];
    for (let c = 0; c < classCount; c += 1) {
      const classId = `district-class-${school}-${c}`;
      classIds.push(classId);
      await b.classes.push({
        id: classId,
        org_id: orgId,
        year_id: yearId,
        stage_id: 'stage-junior',
        name: `九年级(${c + 11})班`,
        sort: 100 + c,
        created_at: now,
      });
      for (let s = 0; s < SUBJECTS; s += 1)
        await b.teaching_assignments.push({
          org_id: orgId,
          user_id: teacherIds[s]!,
          subject_id: papers[s]!.subject.id,
          class_id: classId,
        });
    }
    const testIds = papers.map((_, s) => `district-test-${school}-${s}`);
    const cardIds = papers.map((_, s) => `district-card-${school}-${s}`);
    if (school === 0) target = { testIds, classId: classIds[0]! };
    for (const [s, p] of papers.entries()) {
      await b.homework.push({
        id: testIds[s]!,
        org_id: orgId,
        year_id: yearId,
        type: 'test',
        title: `${p.subject.name}期中统考`,
        paper_id: `district-paper-${p.subject.id}`,
        paper_title: `${p.subject.name}期中统考`,
        stage_id: 'stage-junior',
        subject_id: p.subject.id,
        start_date: '2026-11-02',
        due_date: '2026-11-04',
        question_count: p.items.length,
        total_score_tenths: p.total * 10,
        paper_snapshot: p.snapshot,
        card_id: cardIds[s]!,
        card_version: 1,
        created_by: teacherIds[s]!,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
      // Each test's frozen card (lists join it for the page count and identity; nothing here prints it).
      await b.card_versions.push({
        card_id: cardIds[s]!,
        version: 1,
        org_id: orgId,
        homework_id: testIds[s]!,
        settings: card.settings,
        card_paper: card.card_paper,
        layout: card.layout,
        identity: card.identity,
        page_count: 1,
        created_by: teacherIds[s]!,
        created_at: now,
      });
      for (const [i, classId] of classIds.entries())
        await b.homework_classes.push({ homework_id: testIds[s]!, class_id: classId, sort: i });
    }
    // Parents before children: flush the school's rows before its students and sheets refer to them.
    for (const key of [
      'orgs',
      'school_years',
      'users',
      'memberships',
      'classes',
      'teaching_assignments',
      'homework',
      'homework_classes',
      'card_versions',
    ] as const)
      await b[key].flush();
    // Students, sheets, answers and marks of the school: set-based INSERT … SELECT over generate_series, scores from
    // a deterministic hash of (school, student, subject, question) so a sheet's totals agree with its answers.
    const params = {
      school,
      orgId,
      students: studentsHere,
      classCount,
      now,
      testIds,
      cardIds,
      questionIds: papers.flatMap((p) => p.items.map((it) => it.questionId)),
      teacherIds,
    };
    // Marking was done on screen: the default blocks (one per written question, the test's creator marks every
    // class) and one mark per written answer, as the marking module makes them.
    const blockIds: string[] = [];
    for (const [s, p] of papers.entries()) {
      for (const [j, q] of p.written.entries()) {
        const blockId = defaultBlockId(testIds[s]!, q.questionId);
        blockIds.push(blockId);
        await b.mark_blocks.push({
          id: blockId,
          org_id: orgId,
          homework_id: testIds[s]!,
          title: `第${q.no}题`,
          sort: j + 1,
          question_ids: JSON.stringify([q.questionId]),
          assign_by: 'question',
          arbiter_id: null,
          created_at: now,
          updated_at: now,
        });
        await b.mark_markers.push({ block_id: blockId, user_id: teacherIds[s]!, class_id: '' });
      }
    }
    await b.mark_blocks.flush();
    await b.mark_markers.flush();
    // Two connections, so PostgreSQL fills on two cores: students and sheets on one, answers, marks and items on the
    // other (nothing refers to anything until the references are built after the fill).
    await Promise.all([
      (async () => {
        add('students', await timed('students', () => fillStudents(client, params)));
        add('sheets', await timed('sheets', () => fillSheets(client, { ...params, ...shape })));
      })(),
      (async () => {
        add('sheet_answers', await timed('answers', () => fillAnswers(second, params)));
        add('mark_marks', await timed('marks', () => fillMarks(second, { ...params, blockIds })));
        // The task list's items, as the marking and results transactions keep them (migration 0033, ADR 0071).
        add('mark_items', await timed('items', () => fillItems(second, { ...params, blockIds })));
      })(),
    ]);
    if ((school + 1) % 10 === 0)
      console.log(
        `  ${school + 1} schools filled, ${counts.sheet_answers?.toLocaleString('en')} answers; load ${loadavg()}`,
      );
  }
  for (const [key, buffer] of Object.entries(b)) add(key, buffer.count);
  console.log(
    `  fill phases (s): ${Object.entries(phases)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')}`,
  );
  return { target: target!, counts };
}

interface StartedHost {
  child: ChildProcess;
  port: Promise<number>;
  /** Sends a command line to the host and waits for its answer line (the profiler's commands). */
  command: (line: string) => Promise<string>;
}

function startHost(databaseUrl: string): StartedHost {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, 'host'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl },
  });
  const waiting: ((line: string) => void)[] = [];
  const lines = readline.createInterface({ input: child.stdout });
  const port = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`host exited with ${code}`)));
    waiting.push((line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  lines.on('line', (line) => waiting.shift()?.(line));
  const command = (line: string) =>
    new Promise<string>((resolve) => {
      waiting.push(resolve);
      child.stdin.write(`${line}\n`);
    });
  return { child, port, command };
}

async function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin?.end();
  child.kill('SIGTERM');
  await exited;
}

/** At most REQUESTS answers per call and at most DURATION_S seconds, whichever comes first. */
async function load(title: string, opts: autocannon.Options) {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { connections: CONNECTIONS, amount: REQUESTS, timeout: DURATION_S, ...opts },
      (err: unknown, r: autocannon.Result) => {
        clearTimeout(timer);
        if (err) reject(err instanceof Error ? err : new Error('autocannon failed'));
        else resolve(r);
      },
    );
    const timer = setTimeout(() => instance.stop(), DURATION_S * 1000);
  });
  // A request still unanswered after DURATION_S seconds counts as a timeout and is reported, not hidden.
  if (result.non2xx > 0 || result.errors > result.timeouts) {
    // Which answers: a 429 (rate limit), 401 (an expired token) and 503 (shed load) each mean something else.
    const statuses = Object.entries(result.statusCodeStats ?? {})
      .map(([code, s]) => `${code}×${s.count ?? 0}`)
      .join(' ');
    throw new Error(
      `${title}: ${result.non2xx} non-2xx answers (${statuses}), ${result.errors - result.timeouts} errors`,
    );
  }
  const done = result.requests.total;
  return {
    title,
    done,
    timeouts: result.timeouts,
    rps: done / Math.max(0.001, result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** CPU seconds (user + system) the process has used so far, from /proc; null where there is none. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

interface Row {
  title: string;
  /** The first call after the fill, caches cold. */
  firstMs: number | null;
  /** The host's CPU per answer under load (ms), null where /proc cannot tell. */
  cpuMs: number | null;
  /** Statements the host sent to PostgreSQL per answer under load (pg-boss's polling included). */
  queries: number | null;
  /** null: no answer alone within BENCH_DURATION. */
  aloneMs: number | null;
  done: number;
  timeouts: number;
  rps: number;
  p50: number;
  p99: number;
}

let poolChild: ChildProcess | undefined;

async function runPool(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = (poolChild = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'recognition-pool.bench.ts')],
      {
        stdio: 'inherit',
        env: { ...process.env, PAGES: process.env.PAGES ?? '32' },
      },
    ));
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`recognition pool bench exit ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const name = `zhzy_district_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
  await admin.end();
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 2 }) }),
  });
  let child: ChildProcess | undefined;
  // Closes the host and drops the database once, whether the run ends, fails, is interrupted or overruns.
  let tornDown: Promise<void> | undefined;
  const teardown = () =>
    (tornDown ??= (async () => {
      if (child) await stopHost(child);
      await db.destroy().catch(() => undefined);
      const drop = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    })());
  const abort = (why: string) => {
    console.error(`district benchmark stopped: ${why}`);
    poolChild?.kill('SIGTERM');
    void teardown().finally(() => process.exit(1));
  };
  const watchdog = setTimeout(() => abort(`over ${LIMIT_MIN} minutes`), LIMIT_MIN * 60_000);
  process.once('SIGINT', () => abort('interrupted'));
  process.once('SIGTERM', () => abort('terminated'));
  try {
    console.log(
      `district benchmark — scale ${SCALE}: ${SCHOOLS} schools, ${STUDENTS} students, ${SUBJECTS} subjects × ${QUESTIONS} questions; load ${loadavg()}`,
    );
    const started = startHost(databaseUrl);
    child = started.child;
    const port = await started.port; // the host has migrated and seeded the database
    const profileStamp = new Date().toISOString().replace(/[:.]/g, '-');
    const fillStart = performance.now();
    const client = new pg.Client({ connectionString: databaseUrl });
    const second = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await second.connect();
    let filled: Awaited<ReturnType<typeof fill>>;
    try {
      await fillFunctions(client);
      const rebuild = await dropBulkIndexes(client);
      await skipTriggers(second);
      filled = await fill(db, [client, second]);
      const t0 = performance.now();
      filled.counts.mark_item_counts = await fillCounts(client);
      const countersS = (performance.now() - t0) / 1000;
      // Sorting in memory rather than on disk: this connection's sorts only (PostgreSQL's default is 64 MB).
      await client.query(`SET maintenance_work_mem = '512MB'`);
      const t2 = performance.now();
      for (const r of rebuild) await client.query(r.statement);
      const indexS = (performance.now() - t2) / 1000;
      const t1 = performance.now();
      await checkReferences(client);
      const sampled = await checkPacks(db);
      await checkCounters(db, filled.target.testIds);
      console.log(
        `  indexes, keys and references built in ${indexS.toFixed(1)} s (${rebuild.length} statements), task-list counters in ${countersS.toFixed(1)} s; references, ${sampled} packs and 演示学校's counters checked in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
      );
    } finally {
      await client.end();
      await second.end();
    }
    const { target, counts } = filled;
    // As autovacuum leaves a production database: statistics, and the visibility map index-only scans need.
    await sql`VACUUM (ANALYZE)`.execute(db);
    const fillS = (performance.now() - fillStart) / 1000;
    console.log(
      `filled in ${fillS.toFixed(1)} s: ${Object.entries(counts)
        .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
        .join(', ')}; load ${loadavg()}`,
    );

    const base = `http://127.0.0.1:${port}`;
    const tokenStart = performance.now();
    const login = await fetch(`${base}/oauth/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('zhzy-web:zhzy-web-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'password',
        username: 'demo-teacher',
        password: 'Demo@2026',
      }).toString(),
    });
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
    const { access_token } = (await login.json()) as { access_token: string };
    const tokenMs = performance.now() - tokenStart;
    // What the clients accept: a browser's `gzip, deflate, br` unless BENCH_ACCEPT_ENCODING says otherwise
    // (`identity`: nothing compressed).
    const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING || 'gzip, deflate, br';
    const headers: Record<string, string> = {
      authorization: `Bearer ${access_token}`,
      'accept-encoding': acceptEncoding,
    };
    const testId = target.testIds[1]!;
    const calls: [string, string][] = [
      ['profile (token reuse)', '/system/account/profile'],
      ['homework list', '/teacher/homework/list?page=1&size=20'],
      ['homework analysis (one test)', `/teacher/analysis/homework/${testId}`],
      ['class analysis', `/teacher/analysis/class?homeworkId=${testId}&classId=${target.classId}`],
      ['marking task list', '/teacher/mark/tasks'],
      [
        'question search',
        `/teacher/question/page?subjectId=subj-junior-math&keyword=${encodeURIComponent('函数')}&size=10`,
      ],
      ['basket read', '/teacher/paper/info/getQuestionBasket'],
    ];
    const rows: Row[] = [];
    /**
     * Waits until the host has finished the requests clients gave up on: a request that waits behind them takes
     * longer than the call alone, so the host counts as drained when three answers in a row come within twice the
     * call's time alone (+ 250 ms). One request queued behind them is not enough: each of their queries queues
     * again for a pooled connection. Returns the seconds spent (bounded by the run's limit).
     */
    const drain = async (url: string, aloneMs: number): Promise<number> => {
      const start = performance.now();
      for (let quick = 0; quick < 3;) {
        const t0 = performance.now();
        await fetch(url, { headers }).then((r) => r.text());
        quick = performance.now() - t0 <= 2 * aloneMs + 250 ? quick + 1 : 0;
      }
      return (performance.now() - start) / 1000;
    };
    for (const [title, pathname] of calls) {
      // The first call after the fill (caches cold), then one call alone: it must answer 200, and its time is the
      // figure without queueing. A call that takes longer than BENCH_DURATION alone is reported as such and not
      // loaded (200 clients could only time out).
      let firstMs: number | null = null;
      let aloneMs = 0;
      let failed = false;
      for (const pass of ['first', 'alone'] as const) {
        const t0 = performance.now();
        let check: Response;
        try {
          check = await fetch(`${base}${pathname}`, {
            headers,
            signal: AbortSignal.timeout(DURATION_S * 1000),
          });
        } catch (error) {
          if (!(error instanceof DOMException && error.name === 'TimeoutError')) throw error;
          failed = true;
          break;
        }
        const body = await check.text();
        if (check.status !== 200) throw new Error(`${title}: ${pathname} answered ${check.status} ${body}`);
        if (pass === 'first') firstMs = performance.now() - t0;
        else aloneMs = performance.now() - t0;
      }
      if (failed) {
        const row = {
          title,
          firstMs,
          cpuMs: null,
          queries: null,
          aloneMs: null,
          done: 0,
          timeouts: 0,
          rps: 0,
          p50: 0,
          p99: 0,
        };
        rows.push(row);
        // The abandoned request still runs in the host: wait until the first call answers as fast as it did alone.
        const drainedS = await drain(`${base}${calls[0]![1]}`, rows[0]?.aloneMs ?? 100);
        console.log(
          `  ${title}: no answer alone within ${DURATION_S} s, not loaded; drained in ${drainedS.toFixed(1)} s; load ${loadavg()}`,
        );
        continue;
      }
      const q0 = Number(await started.command('queries'));
      const cpu0 = cpuSeconds(child?.pid);
      const loaded = await load(title, { url: `${base}${pathname}`, headers });
      const cpu1 = cpuSeconds(child?.pid);
      const q1 = Number(await started.command('queries'));
      const cpuMs =
        cpu0 === null || cpu1 === null || loaded.done === 0 ? null : ((cpu1 - cpu0) * 1000) / loaded.done;
      const queries = loaded.done === 0 ? null : (q1 - q0) / loaded.done;
      const row = { ...loaded, firstMs, aloneMs, cpuMs, queries };
      rows.push(row);
      // Requests the clients gave up on are still running in the host; the next call starts once they are done.
      const drainedS = await drain(`${base}${pathname}`, aloneMs);
      console.log(
        `  ${title}: first ${firstMs!.toFixed(0)} ms, alone ${aloneMs.toFixed(0)} ms, ${row.done} answers, ${row.timeouts} timeouts, p50 ${row.p50} ms, p99 ${row.p99} ms, host CPU ${cpuMs?.toFixed(1) ?? '?'} ms/answer, ${queries?.toFixed(2) ?? '?'} statements/answer; drained in ${drainedS.toFixed(1)} s; load ${loadavg()}`,
      );
      if (profiled(title)) {
        // The same load again with the profiler on: the figures above stay free of its overhead.
        const file = path.resolve(
          PROFILE_DIR!,
          `district-${profileStamp}-${rows.length}-${title.replace(/[^a-z]+/gi, '-')}.cpuprofile`,
        );
        await started.command('profile-start');
        const again = await load(title, { url: `${base}${pathname}`, headers });
        await started.command(`profile-stop ${file}`);
        printSummary(title, JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, again.done);
        console.log(`    written to ${file}`);
        await drain(`${base}${pathname}`, aloneMs);
      }
    }
    console.log(
      `\n${CONNECTIONS} concurrent clients, ≤ ${REQUESTS} requests or ${DURATION_S} s per call, accept-encoding ${acceptEncoding}, loopback, PostgreSQL + pg-boss; scale ${SCALE} (${STUDENTS.toLocaleString('en')} students); sign-in ${tokenMs.toFixed(0)} ms`,
    );
    console.log(
      'call'.padEnd(32),
      'first ms'.padStart(9),
      'alone ms'.padStart(9),
      'answers'.padStart(8),
      'timeouts'.padStart(9),
      'req/s'.padStart(8),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'CPU ms/req'.padStart(11),
      'stmts/req'.padStart(10),
    );
    for (const r of rows)
      console.log(
        r.title.padEnd(32),
        (r.firstMs === null ? `> ${DURATION_S * 1000}` : r.firstMs.toFixed(0)).padStart(9),
        (r.aloneMs === null ? `> ${DURATION_S * 1000}` : r.aloneMs.toFixed(0)).padStart(9),
        String(r.done).padStart(8),
        String(r.timeouts).padStart(9),
        r.rps.toFixed(0).padStart(8),
        String(r.p50).padStart(8),
        String(r.p99).padStart(8),
        (r.cpuMs === null ? '?' : r.cpuMs.toFixed(1)).padStart(11),
        (r.queries === null ? '?' : r.queries.toFixed(2)).padStart(10),
      );
    console.log(`load average (1 / 5 / 15 min): ${loadavg()}, ${os.availableParallelism()} cores\n`);
  } finally {
    await teardown();
  }
  if (process.env.BENCH_DISTRICT_POOL !== '0') await runPool();
  clearTimeout(watchdog);
}

if (process.argv[2] === 'host') await host();
else await main();
