// The bench data of the analysis bench (and of profiling scripts): the demo school filled with 50 classes of 40
// students (2,000), one test of 30 questions with a sheet and 30 scored answers per student (60,000 answers), and 19
// more homework of the same subject with a sheet per student. Written straight into the tables, as a large school's
// history would be after migration; deterministic (seeded pseudo-random scores).
import type { Kysely } from 'kysely';
import type { HomeworkPaper } from '@zhzy/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db, DialectName } from '../src/db/connect.js';
import type { Database } from '../src/db/schema.js';
import { newId } from '../src/lib/ids.js';
import { packAnswers } from '../src/modules/results/packing.js';
import { toSheetAnswer } from '../src/modules/results/repository/records.js';
import { ResultsService } from '../src/modules/results/service.js';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';

export const CLASSES = 50;
export const PER_CLASS = 40;
export const QUESTIONS = 30;
export const HOMEWORK = 20;

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
export async function fill(db: Kysely<Database>): Promise<{ testId: string }> {
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
      const first = answers.length;
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
            blank: 0,
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
        // What the results spine keeps beside the answers it writes (ADR 0033).
        answers_packed: packAnswers(answers.slice(first).map(toSheetAnswer)),
        created_at: now,
        updated_at: now,
      });
    }
    await insertChunks(sheets, 500, (rows) => db.insertInto('sheets').values(rows).execute());
    await insertChunks(answers, 1000, (rows) => db.insertInto('sheet_answers').values(rows).execute());
  }
  return { testId };
}

/**
 * One marker's score change on the test, through the results spine: a written answer goes from its score to zero,
 * then back on the next call. Returns the flip and whether the answer is now as it was.
 */
export async function scoreFlip(
  db: Kysely<Database>,
  testId: string,
): Promise<{ flip: () => Promise<void>; restored: () => boolean }> {
  const results = new ResultsService(db);
  const answer = await db
    .selectFrom('sheet_answers')
    .select(['sheet_id', 'question_id', 'score_tenths'])
    .where('homework_id', '=', testId)
    .where('kind', '=', 'written')
    .orderBy('sheet_id')
    .limit(1)
    .executeTakeFirstOrThrow();
  let zeroed = false;
  return {
    flip: async () => {
      zeroed = !zeroed;
      await results.transaction((r) =>
        r.writeAnswers(
          answer.sheet_id,
          [
            {
              questionId: answer.question_id,
              scoreTenths: zeroed ? 0 : answer.score_tenths,
              source: 'marker',
            },
          ],
          { userId: null, reason: 'bench' },
        ),
      );
    },
    restored: () => !zeroed,
  };
}

/** The host on a bench database, as the analysis benches run it: quiet, no web app, no demo results, ready. */
export async function benchHost(db: Db, dialect: DialectName, location: string) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST: '',
    DATA_DIR: dialect === 'sqlite' ? location : '',
    SEED_DEMO_RESULTS: 'false',
  });
  const app = await buildApp({ config, db });
  try {
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
