// npm run bench -w @zhzy/server (third part): learning analysis at scale on SQLite and on PostgreSQL.
// Each database is fresh, migrated and seeded like the product (演示学校), then filled here: 50 classes of 40 students
// (2,000), one test of 30 questions with a sheet and 30 scored answers per student (60,000 answers), and 19 more
// homework of the same subject with a sheet per student (the grade across 20 homework). The analysis calls run
// in-process through the host (authentication, validation, queries, computing, JSON). Reported per call: the cold
// read (computed: nothing in memory), the warm read (median of a fixed number of repeated reads, served from memory
// after the versions are checked in the database, ADR 0021) and the read right after one marker's score is written
// through the results spine (median of as many; the kept figures brought up to date from the changed sheet,
// ADR 0030). The target holds for the warm read and the read after a change. The load average is printed: on the
// shared machine every figure is pessimistic. Bounded: everything is closed and removed.
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { HomeworkPaper } from '@zhzy/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { DialectName } from '../src/db/connect.js';
import type { Database } from '../src/db/schema.js';
import { newId } from '../src/lib/ids.js';
import { ResultsRepository } from '../src/modules/results/repository.js';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';
import { bearer, signIn } from '../test/helpers/auth.js';
import { openTestDb } from '../test/helpers/db.js';

const CLASSES = 50;
const PER_CLASS = 40;
const QUESTIONS = 30;
const HOMEWORK = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET_ONE_MS = 200;
const TARGET_GRADE_MS = 500;

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function insertChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Fills the demo school with 2,000 students, a 30-question test with answers and 19 more homework with sheets. */
async function fill(db: Kysely<Database>): Promise<{ testId: string }> {
  const random = prng(42);
  const org = await db
    .selectFrom('orgs')
    .select('id')
    .where('name', '=', '演示学校')
    .executeTakeFirstOrThrow();
  const year = await db
    .selectFrom('school_years')
    .select('id')
    .where('org_id', '=', org.id)
    .where('is_default', '=', 1)
    .executeTakeFirstOrThrow();
  const teacher = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'demo-teacher')
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const classes = Array.from({ length: CLASSES }, (_, i) => ({
    id: `bench-class-${i}`,
    org_id: org.id,
    year_id: year.id,
    stage_id: 'stage-junior',
    name: `七年级(${i + 10})班`,
    sort: 100 + i,
    created_at: now,
  }));
  await db.insertInto('classes').values(classes).execute();
  const students = classes.flatMap((c, ci) =>
    Array.from({ length: PER_CLASS }, (_, k) => ({
      id: `bench-student-${ci}-${k}`,
      org_id: org.id,
      class_id: c.id,
      name: `学生${ci}-${k}`,
      student_no: `B${String(ci).padStart(2, '0')}${String(k).padStart(2, '0')}`,
      gender: null,
      created_at: now,
    })),
  );
  await insertChunks(students, 500, (rows) => db.insertInto('students').values(rows).execute());
  const questions = await db
    .selectFrom('questions')
    .select(['id', 'stem', 'answer', 'difficulty', 'type_id'])
    .where('subject_id', '=', SUBJECT_IDS.数学)
    .where('type_id', 'in', [typeId('数学', '单选题'), typeId('数学', '解答题')])
    .orderBy('id')
    .limit(QUESTIONS * 3)
    .execute();
  const single = questions.filter((q) => q.type_id === typeId('数学', '单选题')).slice(0, 20);
  const written = questions
    .filter((q) => q.type_id === typeId('数学', '解答题'))
    .slice(0, QUESTIONS - single.length);
  const item = (q: (typeof questions)[number], no: number, score: number, typeName: string) => ({
    id: `bench-item-${no}`,
    no,
    questionId: q.id,
    score,
    scoreOverride: null,
    question: {
      id: q.id,
      typeId: q.type_id,
      typeName,
      difficulty: q.difficulty,
      stem: q.stem,
      options: typeName === '单选题' ? ['A', 'B', 'C', 'D'].map((label) => ({ label, content: label })) : [],
      answer: typeName === '单选题' ? 'B' : q.answer,
      analysis: '',
      owner: 'system',
      knowledgePoints: [{ id: `kp-bench-${no % 6}`, name: `知识点${no % 6}` }],
    },
  });
  const paper = {
    paperId: 'bench-paper',
    paperVersion: 1,
    title: '大规模测试',
    subtitle: '',
    stageId: 'stage-junior',
    stageName: '初中',
    subjectId: SUBJECT_IDS.数学,
    subjectName: '数学',
    questionCount: QUESTIONS,
    totalScore: 20 * 3 + (QUESTIONS - 20) * 4,
    settings: {},
    sections: [
      {
        id: 's1',
        number: '一',
        typeId: typeId('数学', '单选题'),
        title: '单选题',
        note: '',
        defaultScore: 3,
        heading: '一、单选题',
        questionCount: single.length,
        totalScore: single.length * 3,
        items: single.map((q, i) => item(q, i + 1, 3, '单选题')),
      },
      {
        id: 's2',
        number: '二',
        typeId: typeId('数学', '解答题'),
        title: '解答题',
        note: '',
        defaultScore: 4,
        heading: '二、解答题',
        questionCount: written.length,
        totalScore: written.length * 4,
        items: written.map((q, i) => item(q, single.length + i + 1, 4, '解答题')),
      },
    ],
  } as unknown as HomeworkPaper;
  const items = paper.sections.flatMap((s) => s.items);
  const homework = Array.from({ length: HOMEWORK }, (_, h) => ({
    id: `bench-hw-${String(h).padStart(2, '0')}`,
    org_id: org.id,
    year_id: year.id,
    type: h === HOMEWORK - 1 ? 'test' : 'homework',
    title: `作业 ${h + 1}`,
    paper_id: 'bench-paper',
    paper_title: '大规模测试',
    stage_id: 'stage-junior',
    subject_id: SUBJECT_IDS.数学,
    start_date: new Date(Date.UTC(2026, 8, 1 + h * 4)).toISOString().slice(0, 10),
    due_date: new Date(Date.UTC(2026, 8, 3 + h * 4)).toISOString().slice(0, 10),
    question_count: QUESTIONS,
    total_score_tenths: paper.totalScore * 10,
    paper_snapshot: JSON.stringify(paper),
    card_id: 'bench-card',
    card_version: 1,
    created_by: teacher.id,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  }));
  await db.insertInto('homework').values(homework).execute();
  await insertChunks(
    homework.flatMap((h) => classes.map((c, i) => ({ homework_id: h.id, class_id: c.id, sort: i }))),
    500,
    (rows) => db.insertInto('homework_classes').values(rows).execute(),
  );
  const testId = homework.at(-1)!.id;
  for (const h of homework) {
    const sheets = [];
    const answers = [];
    for (const [si, s] of students.entries()) {
      const ability = (si % 97) / 97;
      const sheetId = newId();
      let objective = 0;
      let subjective = 0;
      for (const it of items) {
        const objectiveItem = it.question!.typeName === '单选题';
        const p = 0.3 + 0.6 * ability;
        const score = objectiveItem
          ? random() < p
            ? it.score * 10
            : 0
          : Math.round(Math.min(1, Math.max(0, p + (random() - 0.5) * 0.4)) * it.score) * 10;
        if (objectiveItem) objective += score;
        else subjective += score;
        if (h.id === testId)
          answers.push({
            sheet_id: sheetId,
            org_id: org.id,
            homework_id: h.id,
            question_id: it.questionId,
            kind: objectiveItem ? ('single' as const) : ('written' as const),
            response: objectiveItem ? (score > 0 ? 'B' : 'ACD'[Math.floor(random() * 3)]!) : null,
            response_status: objectiveItem ? ('ok' as const) : null,
            crop_path: null,
            full_score_tenths: it.score * 10,
            score_tenths: score,
            score_source: objectiveItem ? ('auto' as const) : ('marker' as const),
            updated_by: null,
            updated_at: now,
          });
      }
      sheets.push({
        id: sheetId,
        org_id: org.id,
        homework_id: h.id,
        student_id: s.id,
        class_id: s.class_id,
        card_id: 'bench-card',
        card_version: 1,
        pages_expected: 1,
        pages_received: 1,
        review_status: 'confirmed' as const,
        objective_score_tenths: objective,
        subjective_score_tenths: subjective,
        total_score_tenths: objective + subjective,
        unscored_count: 0,
        created_at: now,
        updated_at: now,
      });
    }
    await insertChunks(sheets, 500, (rows) => db.insertInto('sheets').values(rows).execute());
    await insertChunks(answers, 1000, (rows) => db.insertInto('sheet_answers').values(rows).execute());
  }
  return { testId };
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;

async function run(dialect: DialectName): Promise<boolean> {
  const testDb = await openTestDb(dialect);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST: '',
    DATA_DIR: dialect === 'sqlite' ? testDb.location : '',
    SEED_DEMO_RESULTS: 'false',
  });
  const app = await buildApp({ config, db: testDb.db });
  try {
    await app.ready();
    const fillStart = performance.now();
    const { testId } = await fill(testDb.db.kysely);
    const fillMs = performance.now() - fillStart;
    const headers = bearer((await signIn(app, 'demo-teacher')).access_token);
    const once = async (url: string) => {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200)
        throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      return ms;
    };
    const repeated = async (url: string) => {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i += 1) times.push(await once(url));
      return median(times);
    };
    // One marker's score changes: a written answer of the test goes from its score to zero and back.
    const results = new ResultsRepository(testDb.db.kysely);
    const answer = await testDb.db.kysely
      .selectFrom('sheet_answers')
      .select(['sheet_id', 'question_id', 'score_tenths'])
      .where('homework_id', '=', testId)
      .where('kind', '=', 'written')
      .orderBy('sheet_id')
      .limit(1)
      .executeTakeFirstOrThrow();
    let flip = false;
    const mark = () => {
      flip = !flip;
      return results.transaction((r) =>
        r.writeAnswers(
          answer.sheet_id,
          [{ questionId: answer.question_id, scoreTenths: flip ? 0 : answer.score_tenths, source: 'marker' }],
          { userId: null, reason: 'bench' },
        ),
      );
    };
    const measure = async (url: string) => {
      const first = await once(url);
      const warm = await repeated(url);
      const changed: number[] = [];
      for (let i = 0; i < ROUNDS; i += 1) {
        await mark();
        changed.push(await once(url));
      }
      return { first, warm, changed: median(changed) };
    };
    const one = await measure(`/teacher/analysis/homework/${testId}`);
    const grade = await measure(
      `/teacher/analysis/grade/trend?subjectId=${SUBJECT_IDS.数学}&limit=${HOMEWORK}`,
    );
    // The target holds for a read served from memory and for the read right after a score change (ADR 0030);
    // the cold read is reported beside them.
    const okOne = one.warm <= TARGET_ONE_MS && one.changed <= TARGET_ONE_MS;
    const okGrade = grade.warm <= TARGET_GRADE_MS && grade.changed <= TARGET_GRADE_MS;
    const fmt = (m: { first: number; warm: number; changed: number }, target: number, ok: boolean) =>
      `cold ${m.first.toFixed(0)} ms · warm ${m.warm.toFixed(0)} ms · after a score change ` +
      `${m.changed.toFixed(0)} ms (target ≤ ${target} warm and after a change) ${ok ? 'ok' : 'SLOW'}`;
    console.log(
      `${dialect.padEnd(8)} one test (2,000 students × 30 questions): ${fmt(one, TARGET_ONE_MS, okOne)}\n` +
        `${' '.repeat(9)}grade across ${HOMEWORK} homework: ${fmt(grade, TARGET_GRADE_MS, okGrade)}\n` +
        `${' '.repeat(9)}data generated in ${(fillMs / 1000).toFixed(1)} s · load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' / ')} on ${os.cpus().length} cores`,
    );
    return okOne && okGrade;
  } finally {
    await app.close();
    await testDb.cleanup();
  }
}

let ok = true;
for (const dialect of ['sqlite', 'postgres'] as const) ok = (await run(dialect)) && ok;
process.exitCode = ok ? 0 : 1;
