import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeworkSummarySchema, page, type HomeworkDetail } from '@zhzy/contracts';
import { receivedQuery, resultsProgress } from '../src/modules/results/progress.js';
import { ResultsService } from '../src/modules/results/service.js';
import { DIALECTS } from './helpers/index.js';
import { data, homeworkWorld, type World } from './homework-fixtures.js';

// The results spine every writer goes through: a sheet per student, totals that follow the answers, a change log
// of every score, and the homework states computed from them.

describe.each(DIALECTS)('results on %s', (dialect) => {
  let w: World;
  let hw: HomeworkDetail;
  let repo: ResultsService;
  let classId: string;
  let students: { id: string }[];

  beforeAll(async () => {
    w = await homeworkWorld(dialect);
    const paper = await w.createPaper(w.me);
    classId = w.classesA[0]!.id;
    hw = await w.publish(w.me, {
      paperId: paper.id,
      type: 'homework',
      title: '结果测试',
      classIds: [classId],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    });
    const db = w.t.testDb.db.kysely;
    repo = new ResultsService(db, () => Date.parse('2026-11-03T08:00:00.000Z'));
    students = await db
      .selectFrom('students')
      .select('id')
      .where('class_id', '=', classId)
      .orderBy('student_no')
      .execute();
  });
  afterAll(() => w.close());

  const questions = () =>
    hw.paper.sections.flatMap((s) =>
      s.items.map((i) => ({
        questionId: i.questionId,
        kind: s.title.includes('单选') ? ('single' as const) : ('written' as const),
        fullScoreTenths: Math.round(i.score * 10),
      })),
    );

  const open = (studentId: string) =>
    repo.openSheet({
      orgId: w.orgA,
      homeworkId: hw.id,
      studentId,
      classId,
      cardId: hw.card.cardId,
      cardVersion: hw.card.version,
      pagesExpected: hw.card.pageCount,
      questions: questions(),
    });

  async function stateOfHomework(): Promise<string> {
    const res = await w.call('GET', `/teacher/homework/list?page=1&size=50`, w.me);
    const list = page(HomeworkSummarySchema).parse(data(res));
    return list.records.find((r) => r.id === hw.id)!.stateName;
  }

  it('a homework is 待扫描 until a sheet has pages', async () => {
    expect(await stateOfHomework()).toBe('待扫描');
  });

  it('opens one sheet per student with an unscored answer per question, and opening again returns it', async () => {
    const first = await open(students[0]!.id);
    const again = await open(students[0]!.id);
    expect(again.id).toBe(first.id);
    const answers = await repo.listAnswers(first.id);
    expect(answers).toHaveLength(questions().length);
    expect(first.unscoredCount).toBe(questions().length);
  });

  it('totals follow every score written, and every change is logged with who, why, before and after', async () => {
    const sheet = await open(students[0]!.id);
    const [q1, q2] = questions();
    await repo.writeAnswers(
      sheet.id,
      [
        {
          questionId: q1!.questionId,
          response: 'B',
          responseStatus: 'ok',
          scoreTenths: q1!.fullScoreTenths,
          source: 'auto',
        },
        { questionId: q2!.questionId, scoreTenths: 5, source: 'marker' },
      ],
      { userId: null, reason: 'recognised' },
    );
    let now = (await repo.findSheet(sheet.id))!;
    expect(now.totalScoreTenths).toBe(q1!.fullScoreTenths + 5);
    expect(now.unscoredCount).toBe(questions().length - 2);

    await repo.writeAnswers(sheet.id, [{ questionId: q2!.questionId, scoreTenths: 0, source: 'override' }], {
      userId: null,
      reason: 'override',
    });
    now = (await repo.findSheet(sheet.id))!;
    expect(now.totalScoreTenths).toBe(q1!.fullScoreTenths);
    const log = await repo.listChanges(sheet.id, q2!.questionId);
    expect(log.map((c) => [c.reason, c.beforeScoreTenths, c.afterScoreTenths])).toEqual([
      ['recognised', null, 5],
      ['override', 5, 0],
    ]);
  });

  it('refuses a score above full marks or one without its source', async () => {
    const sheet = await open(students[0]!.id);
    const q = questions()[0]!;
    await expect(
      repo.writeAnswers(
        sheet.id,
        [{ questionId: q.questionId, scoreTenths: q.fullScoreTenths + 1, source: 'marker' }],
        {
          userId: null,
          reason: 'x',
        },
      ),
    ).rejects.toThrow(/above full/);
    await expect(
      repo.writeAnswers(sheet.id, [{ questionId: q.questionId, scoreTenths: 1 }], {
        userId: null,
        reason: 'x',
      }),
    ).rejects.toThrow(/source/);
  });

  it('moves the homework through 扫描中, 阅卷中 and 已完成 as pages arrive and answers are scored', async () => {
    const sheet = await open(students[0]!.id);
    await repo.setPagesReceived(sheet.id, hw.card.pageCount);
    expect(await stateOfHomework()).toBe('扫描中');

    const progress = await resultsProgress(w.t.testDb.db.kysely).progressOf(w.orgA, [hw.id]);
    expect(progress.get(hw.id)!.expectedPages).toBe(students.length * hw.card.pageCount);

    for (const s of students) {
      const sh = await open(s.id);
      await repo.setPagesReceived(sh.id, hw.card.pageCount);
    }
    expect(await stateOfHomework()).toBe('阅卷中');

    for (const s of students) {
      const sh = await open(s.id);
      await repo.writeAnswers(
        sh.id,
        questions().map((q) => ({ questionId: q.questionId, scoreTenths: 0, source: 'marker' as const })),
        { userId: null, reason: 'marked' },
      );
    }
    expect(await stateOfHomework()).toBe('已完成');
  });

  it('reads the homework list’s progress from the sheets’ progress index alone, not from the table', async () => {
    const db = w.t.testDb.db.kysely;
    const query = receivedQuery(db, w.orgA, [hw.id]).compile();
    if (dialect === 'sqlite') {
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(
        /USING COVERING INDEX sheets_homework_progress/,
      );
    } else {
      // A few test rows would be read sequentially whatever the indexes: forbid that, as at a district's size,
      // and set the visibility map as autovacuum does, so the plan shows whether the index alone can answer.
      await sql`vacuum sheets`.execute(db);
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        return trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain (costs off) ${query.sql}`, [...query.parameters]),
        );
      });
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(
        /Index Only Scan using sheets_homework_progress on sheets/,
      );
    }
    const progress = await resultsProgress(db).progressOf(w.orgA, [hw.id]);
    expect(progress.get(hw.id)).toEqual({
      pages: students.length * hw.card.pageCount,
      expectedPages: students.length * hw.card.pageCount,
      answersToMark: 0,
    });
  });
});
