// npm run bench:district -w @zhzy/server: a generated district on PostgreSQL, driven like production.
// A fresh PostgreSQL database (created and dropped here) is migrated and seeded by the real host, started in a child
// process (buildApp + listen on 127.0.0.1, pg-boss queue) so the load generator does not share its event loop. The
// district is then filled with multi-row inserts in bounded chunks: 50 schools (演示学校 is the first), 100,000
// students in classes of ~45, six subject teachers per school, one test in six subjects published to every class,
// a sheet per student per subject with 20 scored answers. 200 concurrent clients (autocannon) on loopback then call a
// teacher's common reads; p50 / p99 and req/s per call are printed with os.loadavg(). Last, the recognition worker
// pool's pages/s on every core (recognition-pool.bench.ts) is printed beside.
// BENCH_DISTRICT_SCALE=0.1 generates a tenth of the students (default 1, the full district); each call stops after
// BENCH_REQUESTS answers (default 2,000) or BENCH_DURATION seconds (default 30), whichever comes first. Everything is closed and the database dropped at the end, also on failure.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/db/schema.js';
import { newId } from '../src/lib/ids.js';
import { TEST_PG_ADMIN_URL } from '../test/helpers/db.js';

const SCALE = Number(process.env.BENCH_DISTRICT_SCALE ?? 1);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 30);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONNECTIONS = 200;
const SCHOOLS = 50;
const STUDENTS = Math.max(SCHOOLS, Math.round(100_000 * SCALE));
const PER_CLASS = 45;
const QUESTIONS = 20;
const OBJECTIVE = 15;
const SUBJECTS = 6;
const CHUNK_ROWS = 2000;

// ───────────── child: the real host ─────────────

async function host(): Promise<void> {
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
  process.stdin.resume();
}

// ───────────── parent: fill, load, report ─────────────

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

interface Target {
  testIds: string[];
  classId: string;
}

async function fill(db: Kysely<Database>): Promise<{ target: Target; counts: Record<string, number> }> {
  const random = prng(42);
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
      'question_types.name as type_name',
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
        typeName: q.type_name,
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
    return { subject: s, items, total, snapshot: JSON.stringify(snapshot) };
  });

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
    students: new Buffered((rows: object[]) =>
      db
        .insertInto('students')
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
    sheets: new Buffered(async (rows: object[]) => {
      await b.students.flush(); // a sheet's student first
      await db
        .insertInto('sheets')
        .values(rows as never)
        .execute();
    }),
    sheet_answers: new Buffered(async (rows: object[]) => {
      await b.sheets.flush(); // an answer's sheet first
      await db
        .insertInto('sheet_answers')
        .values(rows as never)
        .execute();
    }),
  };
  let target: Target | undefined;
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
        card_id: `district-card-${p.subject.id}`,
        card_version: 1,
        created_by: teacherIds[s]!,
        created_at: now,
        updated_at: now,
        deleted_at: null,
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
    ] as const)
      await b[key].flush();
    for (let k = 0; k < studentsHere; k += 1) {
      const classId = classIds[k % classCount]!;
      const studentId = `district-student-${school}-${k}`;
      await b.students.push({
        id: studentId,
        org_id: orgId,
        class_id: classId,
        name: `学生${school}-${k}`,
        student_no: `D${String(school).padStart(2, '0')}${String(k).padStart(5, '0')}`,
        gender: null,
        created_at: now,
      });
      const ability = 0.3 + 0.6 * random();
      for (const [s, p] of papers.entries()) {
        const sheetId = newId();
        let objective = 0;
        let subjective = 0;
        const answers: object[] = [];
        for (const [i, it] of p.items.entries()) {
          const isObjective = i < OBJECTIVE;
          const score = isObjective
            ? random() < ability
              ? it.score * 10
              : 0
            : Math.round(Math.min(1, Math.max(0, ability + (random() - 0.5) * 0.4)) * it.score) * 10;
          if (isObjective) objective += score;
          else subjective += score;
          answers.push({
            sheet_id: sheetId,
            org_id: orgId,
            homework_id: testIds[s]!,
            question_id: it.questionId,
            kind: isObjective ? 'single' : 'written',
            response: isObjective ? (score > 0 ? 'B' : 'ACD'[Math.floor(random() * 3)]!) : null,
            response_status: isObjective ? 'ok' : null,
            crop_path: null,
            full_score_tenths: it.score * 10,
            score_tenths: score,
            score_source: isObjective ? 'auto' : 'marker',
            updated_by: null,
            updated_at: now,
          });
        }
        await b.sheets.push({
          id: sheetId,
          org_id: orgId,
          homework_id: testIds[s]!,
          student_id: studentId,
          class_id: classId,
          card_id: `district-card-${p.subject.id}`,
          card_version: 1,
          pages_expected: 1,
          pages_received: 1,
          review_status: 'confirmed',
          objective_score_tenths: objective,
          subjective_score_tenths: subjective,
          total_score_tenths: objective + subjective,
          unscored_count: 0,
          created_at: now,
          updated_at: now,
        });
        for (const answer of answers) await b.sheet_answers.push(answer);
      }
    }
    await b.sheet_answers.flush();
    await b.sheets.flush();
  }
  for (const [key, buffer] of Object.entries(b)) counts[key] = buffer.count;
  return { target: target!, counts };
}

function startHost(databaseUrl: string): { child: ChildProcess; port: Promise<number> } {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, 'host'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl },
  });
  const port = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`host exited with ${code}`)));
    readline
      .createInterface({ input: child.stdout })
      .once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  return { child, port };
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
  if (result.non2xx > 0 || result.errors > result.timeouts)
    throw new Error(`${title}: ${result.non2xx} non-2xx answers, ${result.errors - result.timeouts} errors`);
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

async function runPool(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'recognition-pool.bench.ts')],
      {
        stdio: 'inherit',
        env: { ...process.env, PAGES: process.env.PAGES ?? '32' },
      },
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`recognition pool bench exit ${code}`)),
    );
  });
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

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
  try {
    console.log(
      `district benchmark — scale ${SCALE}: ${SCHOOLS} schools, ${STUDENTS} students, ${SUBJECTS} subjects × ${QUESTIONS} questions; load ${loadavg()}`,
    );
    const started = startHost(databaseUrl);
    child = started.child;
    const port = await started.port; // the host has migrated and seeded the database
    const fillStart = performance.now();
    const { target, counts } = await fill(db);
    await sql`ANALYZE`.execute(db);
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
    const headers = { authorization: `Bearer ${access_token}` };
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
    const rows = [];
    for (const [title, pathname] of calls) {
      // One call alone first: it must answer 200, and its time is the figure without queueing.
      const t0 = performance.now();
      const check = await fetch(`${base}${pathname}`, { headers });
      const body = await check.text();
      const aloneMs = performance.now() - t0;
      if (check.status !== 200) throw new Error(`${title}: ${pathname} answered ${check.status} ${body}`);
      rows.push({ ...(await load(title, { url: `${base}${pathname}`, headers })), aloneMs });
    }
    console.log(
      `\n${CONNECTIONS} concurrent clients, ≤ ${REQUESTS} requests or ${DURATION_S} s per call, loopback, PostgreSQL + pg-boss; sign-in ${tokenMs.toFixed(0)} ms`,
    );
    console.log(
      'call'.padEnd(32),
      'alone ms'.padStart(9),
      'answers'.padStart(8),
      'timeouts'.padStart(9),
      'req/s'.padStart(8),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
    );
    for (const r of rows)
      console.log(
        r.title.padEnd(32),
        r.aloneMs.toFixed(0).padStart(9),
        String(r.done).padStart(8),
        String(r.timeouts).padStart(9),
        r.rps.toFixed(0).padStart(8),
        String(r.p50).padStart(8),
        String(r.p99).padStart(8),
      );
    console.log(`load average (1 / 5 / 15 min): ${loadavg()}, ${os.availableParallelism()} cores\n`);
  } finally {
    if (child) await stopHost(child);
    await db.destroy();
    const drop = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await drop.end();
  }
  await runPool();
}

if (process.argv[2] === 'host') await host();
else await main();
