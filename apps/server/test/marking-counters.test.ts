import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarkTaskSchema, type HomeworkDetail } from '@zhzy/contracts';
import { down, up } from '../src/db/migrations/0033-mark-item-counts.js';
import { itemStates } from '../src/db/migrations/0033-judged-items.js';
import { recountBlocks, summaryOf } from '../src/modules/marking/repository/item-counts.js';
import { MarkingRepository, type ItemGroup } from '../src/modules/marking/repository.js';
import { writeSampleSheets } from '../src/modules/marking/sample-scans.js';
import { ResultsService } from '../src/modules/results/service.js';
import { PageStorage } from '../src/modules/scan/storage.js';
import { newId } from '../src/lib/ids.js';
import { seededRandom } from '../src/seed/data/generated/kit.js';
import { DIALECTS } from './helpers/index.js';
import { Q, data, homeworkWorld, type World } from './homework-fixtures.js';

// The task list's maintained counters (migration 0033, ADR 0071) against a recount from the tables: after every step
// of a random sequence of the writes that move an item — marks and revisions, arbitrations, problems flagged and
// resolved, answers scored, cleared, cropped or read blank by recognition and review, blocks switched between single
// and double marking, given another threshold, made, regrouped and deleted — and after writers racing on the same
// items, the counters hold what the grouped count of ADR 0031 finds, for every user; the migration's backfill
// finds the same.

const SEED = 20261129;

const sorted = (rows: ItemGroup[]) =>
  rows
    .filter((r) => r.items > 0)
    .map((r) => JSON.stringify([r.blockId, r.classId, r.done, r.problem, r.state, r.given, r.mine, r.items]))
    .sort();

describe.each(DIALECTS)('marking counters on %s', (dialect) => {
  let w: World;
  let dataDir: string;
  let hw: HomeworkDetail;
  let sheets: string[];
  let users: string[];
  let repo: MarkingRepository;
  let orgId: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-counters-'));
    w = await homeworkWorld(dialect, undefined, { DATA_DIR: dataDir });
    const db = w.t.testDb.db.kysely;
    repo = new MarkingRepository(db);
    users = (
      await db
        .selectFrom('users')
        .select('id')
        .where('username', 'in', ['demo-teacher', 'demo-director', 'demo-admin'])
        .orderBy('username')
        .execute()
    ).map((u) => u.id);
    const [c1, c2] = [w.classesA[0]!, w.classesA[1]!];
    const paper = await w.createPaper(w.me, '计数器');
    hw = await w.publish(w.me, {
      paperId: paper.id,
      title: '计数器',
      classIds: [c1.id, c2.id],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    });
    orgId = (
      await db.selectFrom('homework').select('org_id').where('id', '=', hw.id).executeTakeFirstOrThrow()
    ).org_id;
    const students = await db
      .selectFrom('students')
      .select(['id', 'class_id as classId'])
      .where('class_id', 'in', [c1.id, c2.id])
      .orderBy('student_no')
      .limit(8)
      .execute();
    // Some answers read blank, the rest hand-written: both make items.
    sheets = await writeSampleSheets(db, new PageStorage(dataDir), {
      homeworkId: hw.id,
      students,
      answer: (i) => (i % 3 === 2 ? { blank: true as const } : { text: `答案 ${i}` }),
    });
    // The first task list makes the default blocks.
    expect((await w.call('GET', '/teacher/mark/tasks', w.me)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await w.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const blocks = async () =>
    (
      await w.t.testDb.db.kysely
        .selectFrom('mark_blocks')
        .select(['id', 'homework_id', 'question_ids', 'mode', 'threshold_tenths'])
        .where('homework_id', '=', hw.id)
        .execute()
    ).map(summaryOf);

  /** The counters agree with a recount, for every user and per item. */
  async function agrees(step: string): Promise<void> {
    const summaries = await blocks();
    const ids = summaries.map((b) => b.id);
    for (const user of [...users, 'nobody']) {
      expect(sorted(await repo.countedGroups(ids, user)), `${step} (${user})`).toEqual(
        sorted(await repo.itemGroups(summaries, user)),
      );
    }
    const stored = await w.t.testDb.db.kysely
      .selectFrom('mark_items')
      .select(['block_id', 'sheet_id', 'class_id', 'done', 'problem', 'state', 'given'])
      .where('block_id', 'in', ids.length > 0 ? ids : [''])
      .execute();
    const key = (r: { block_id: string; sheet_id: string }) => `${r.block_id}/${r.sheet_id}`;
    expect(
      stored
        .map((r) => ({ ...r, done: Number(r.done), problem: Number(r.problem), given: Number(r.given) }))
        .sort((a, b) => key(a).localeCompare(key(b))),
      step,
    ).toEqual(
      (await itemStates(w.t.testDb.db.kysely, summaries)).sort((a, b) => key(a).localeCompare(key(b))),
    );
  }

  it(`hold a recount after every step of a random sequence of writes (seed ${SEED})`, async () => {
    const db = w.t.testDb.db.kysely;
    const results = new ResultsService(db);
    const next = seededRandom(SEED); // the seed is in the test's name, so a failing sequence can be run again
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    await agrees('scanned');
    expect((await blocks()).length).toBeGreaterThanOrEqual(3);
    let extraBlock: string | null = null;
    let t = 0;
    const at = () => new Date(Date.UTC(2026, 10, 3, 8, 0, t++)).toISOString();
    for (let step = 0; step < 60; step++) {
      const summaries = await blocks();
      const block = pick(summaries);
      const sheetId = pick(sheets);
      const op = Math.floor(next() * 9);
      let what = '';
      if (op <= 2) {
        what = 'mark';
        const user_id = pick(users);
        const kind = next() < 0.15 ? 'arbitration' : 'mark';
        const mine = await db
          .selectFrom('mark_marks')
          .select('id')
          .where('block_id', '=', block.id)
          .where('sheet_id', '=', sheetId)
          .where('user_id', '=', user_id)
          .where('kind', '=', kind)
          .executeTakeFirst();
        // One mark per user and kind on an item: a second one is a revision.
        if (mine)
          await repo.updateMark(mine.id, { totalTenths: Math.floor(next() * 4) * 10, updatedAt: at() });
        else
          await repo.insertMark({
            id: newId(),
            orgId,
            blockId: block.id,
            sheetId,
            userId: user_id,
            kind,
            scores: {},
            totalTenths: Math.floor(next() * 4) * 10,
            createdAt: at(),
            updatedAt: at(),
          });
      } else if (op === 3) {
        what = 'revise';
        const marks = await db
          .selectFrom('mark_marks')
          .select('id')
          .where('block_id', '=', block.id)
          .execute();
        if (marks.length > 0)
          await repo.updateMark(pick(marks).id, {
            totalTenths: Math.floor(next() * 4) * 10,
            updatedAt: at(),
          });
      } else if (op === 4) {
        what = 'problem';
        if (next() < 0.6)
          await repo.flagProblem({
            blockId: block.id,
            sheetId,
            userId: pick(users),
            note: '看不清',
            now: at(),
          });
        else await repo.resolveProblem(block.id, sheetId, at());
      } else if (op === 5) {
        what = 'answer';
        const questionId = pick(block.questionIds);
        const kind = Math.floor(next() * 4);
        await results.writeAnswers(
          sheetId,
          [
            kind === 0
              ? { questionId, scoreTenths: null }
              : kind === 1
                ? { questionId, scoreTenths: 0, source: 'marker' as const }
                : kind === 2
                  ? { questionId, cropPath: next() < 0.5 ? null : `crops/${sheetId}-${questionId}.png` }
                  : { questionId, blank: next() < 0.5 },
          ],
          { userId: null, reason: 'test' },
        );
      } else if (op === 6) {
        what = 'rules';
        await repo.updateBlock(block.id, {
          mode: next() < 0.5 ? 'double' : 'single',
          thresholdTenths: Math.floor(next() * 3) * 10,
        });
      } else if (op === 7) {
        what = 'regroup';
        const marked =
          extraBlock &&
          (await db
            .selectFrom('mark_marks')
            .select('id')
            .where('block_id', '=', extraBlock)
            .executeTakeFirst());
        // A block with marks is not deleted (saving blocks refuses it): its rules change instead.
        if (extraBlock && marked) {
          await repo.updateBlock(extraBlock, { mode: 'single' });
        } else if (extraBlock) {
          await repo.deleteBlock(extraBlock);
          extraBlock = null;
        } else {
          extraBlock = newId();
          await repo.insertBlock({
            id: extraBlock,
            orgId,
            homeworkId: hw.id,
            title: '合并',
            sort: 9,
            questionIds: [Q.written, Q.blank3],
            mode: 'double',
            thresholdTenths: 10,
            assignBy: 'question',
            arbiterId: null,
            createdAt: at(),
            updatedAt: at(),
          });
        }
      } else {
        what = 'regroup questions';
        await repo.updateBlock(block.id, {
          questionIds: next() < 0.5 ? [Q.written, Q.blank0] : block.questionIds.slice(0, 1),
        });
      }
      await agrees(`step ${step}: ${what}`);
    }
    // The counters still show on the task list.
    const tasks = MarkTaskSchema.array().parse(data(await w.call('GET', '/teacher/mark/tasks', w.me)));
    expect(tasks.find((x) => x.homeworkId === hw.id)?.blocks.length).toBe((await blocks()).length);
  });

  it('hold a recount when writers race on the same items', async () => {
    const db = w.t.testDb.db.kysely;
    // A new double-marked block over two questions, no marks yet.
    const block = { id: newId(), questionIds: [Q.written, Q.blank0] };
    await repo.insertBlock({
      id: block.id,
      orgId,
      homeworkId: hw.id,
      title: '并发',
      sort: 10,
      questionIds: block.questionIds,
      mode: 'double',
      thresholdTenths: 10,
      assignBy: 'question',
      arbiterId: null,
      createdAt: '2026-11-04T08:00:00.000Z',
      updatedAt: '2026-11-04T08:00:00.000Z',
    });
    // Each writer in its own transaction, all at once: marks by every user on every sheet, problems and scores.
    await Promise.all([
      ...sheets.flatMap((sheetId, i) =>
        users.map((user_id, j) =>
          repo.insertMark({
            id: newId(),
            orgId,
            blockId: block.id,
            sheetId,
            userId: user_id,
            kind: 'mark',
            scores: {},
            totalTenths: ((i + j) % 3) * 10,
            createdAt: new Date(Date.UTC(2026, 10, 4, 8, i, j)).toISOString(),
            updatedAt: new Date(Date.UTC(2026, 10, 4, 8, i, j)).toISOString(),
          }),
        ),
      ),
      ...sheets.map((sheetId) =>
        repo.flagProblem({
          blockId: block.id,
          sheetId,
          userId: users[0]!,
          note: '争议',
          now: '2026-11-04T09:00:00.000Z',
        }),
      ),
      ...sheets.map((sheetId) =>
        new ResultsService(db).writeAnswers(
          sheetId,
          block.questionIds.map((questionId) => ({ questionId, scoreTenths: 0, source: 'marker' as const })),
          { userId: null, reason: 'test' },
        ),
      ),
    ]);
    await agrees('raced');
  });

  it('the task list tells a teacher who marks some classes, an arbiter and an overseer what a recount finds', async () => {
    const db = w.t.testDb.db.kysely;
    const [admin, director, teacher] = users as [string, string, string]; // by username: admin, director, teacher
    const [c1, c2] = [w.classesA[0]!, w.classesA[1]!];
    // Three sheets at least in each class (the first eight students may sit in one): more students scanned.
    for (const c of [c1, c2]) {
      const scanned = await db
        .selectFrom('sheets')
        .select('student_id')
        .where('homework_id', '=', hw.id)
        .execute();
      const more = await db
        .selectFrom('students')
        .select(['id', 'class_id as classId'])
        .where('class_id', '=', c.id)
        .where('id', 'not in', [...scanned.map((r) => r.student_id), ''])
        .orderBy('student_no')
        .limit(3)
        .execute();
      sheets.push(
        ...(await writeSampleSheets(db, new PageStorage(dataDir), {
          homeworkId: hw.id,
          students: more,
          answer: (i) => ({ text: `答案 ${i}` }),
        })),
      );
    }
    const classOf = new Map(
      (await db.selectFrom('sheets').select(['id', 'class_id']).where('id', 'in', sheets).execute()).map(
        (r) => [r.id, r.class_id],
      ),
    );
    const inClass = (classId: string) => sheets.filter((id) => classOf.get(id) === classId);
    const [a1, a2] = inClass(c1.id);
    const [b1, b2] = inClass(c2.id);
    expect([a1, a2, b1, b2].every(Boolean)).toBe(true);
    // Every sheet's written answer unscored with a crop again (the steps above scored some): an item to mark each.
    const results = new ResultsService(db);
    for (const sheetId of sheets) {
      for (const answer of [
        { questionId: Q.written, scoreTenths: null },
        { questionId: Q.written, cropPath: `crops/${sheetId}-${Q.written}.png` },
      ])
        await results.writeAnswers(sheetId, [answer], { userId: null, reason: 'test' });
    }
    // A double-marked block by class: the director marks class 1 only, the teacher (the homework's creator, an
    // overseer) both classes; demo-admin (an administrator, an overseer too) is its arbiter and marks none.
    const block = newId();
    const now = '2026-11-05T08:00:00.000Z';
    await repo.insertBlock({
      id: block,
      orgId,
      homeworkId: hw.id,
      title: '按班双评',
      sort: 11,
      questionIds: [Q.written],
      mode: 'double',
      thresholdTenths: 10,
      assignBy: 'class',
      arbiterId: admin,
      createdAt: now,
      updatedAt: now,
    });
    await repo.setMarkers(block, [
      { userId: director, classId: c1.id },
      { userId: teacher, classId: c1.id },
      { userId: teacher, classId: c2.id },
    ]);
    const mark = (sheetId: string, userId: string, totalTenths: number) =>
      repo.insertMark({
        id: newId(),
        orgId,
        blockId: block,
        sheetId,
        userId,
        kind: 'mark',
        scores: {},
        totalTenths,
        createdAt: now,
        updatedAt: now,
      });
    await mark(a1!, teacher, 0);
    await mark(a1!, director, 30); // 3 points apart: to the arbiter
    await mark(a2!, teacher, 10); // one mark of two: the director's to give
    await mark(b1!, teacher, 10); // one mark of two, in a class nobody else marks
    await repo.flagProblem({ blockId: block, sheetId: b2!, userId: teacher, note: '看不清', now });

    const expected = Number(
      (
        await db
          .selectFrom('students')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('class_id', 'in', [c1.id, c2.id])
          .executeTakeFirstOrThrow()
      ).n,
    );
    /** A block's figures for a user, recounted item by item from the tables (not from the counters). */
    const recount = async (blockId: string, userId: string) => {
      const summary = (await blocks()).find((b) => b.id === blockId)!;
      const items = await itemStates(db, [summary]);
      const marked = await db
        .selectFrom('mark_marks')
        .select(['sheet_id', 'user_id'])
        .where('block_id', '=', blockId)
        .execute();
      const markers = await db
        .selectFrom('mark_markers')
        .select(['user_id', 'class_id'])
        .where('block_id', '=', blockId)
        .execute();
      const { arbiter_id } = await db
        .selectFrom('mark_blocks')
        .select('arbiter_id')
        .where('id', '=', blockId)
        .executeTakeFirstOrThrow();
      const mine = (i: { sheet_id: string }) =>
        marked.some((m) => m.sheet_id === i.sheet_id && m.user_id === userId);
      const marksClass = (classId: string) =>
        markers.some((m) => m.user_id === userId && (m.class_id === '' || m.class_id === classId));
      const waiting = items.filter((i) => !i.done && !i.problem);
      return {
        progress: {
          items: items.length,
          done: items.filter((i) => i.done).length,
          marks: items.reduce((sum, i) => sum + i.given, 0),
          marksNeeded: items.length * summary.required,
          arbitration: items.filter((i) => !i.done && i.state === 'arbitration').length,
          problems: items.filter((i) => !i.done && i.problem).length,
          expected,
        },
        myMarks: items.filter(mine).length,
        myRemaining: waiting.filter((i) => i.state === 'open' && !mine(i) && marksClass(i.class_id)).length,
        myArbitration:
          (arbiter_id ?? hw.createdBy) === userId
            ? waiting.filter((i) => i.state === 'arbitration').length
            : 0,
      };
    };
    const listed = async (headers: typeof w.me) =>
      MarkTaskSchema.array()
        .parse(data(await w.call('GET', '/teacher/mark/tasks', headers)))
        .find((t) => t.homeworkId === hw.id)!.blocks;
    const who: [string, typeof w.me][] = [
      [teacher, w.me],
      [director, w.colleague],
      [admin, w.admin],
    ];
    for (const [userId, headers] of who) {
      const shown = await listed(headers);
      for (const b of shown)
        expect(
          {
            progress: b.progress,
            myMarks: b.myMarks,
            myRemaining: b.myRemaining,
            myArbitration: b.myArbitration,
          },
          `${b.title} (${userId})`,
        ).toEqual(await recount(b.id, userId));
    }
    // The overseers see every block, the director only the one they mark.
    const all = (await blocks()).map((b) => b.id).sort();
    expect((await listed(w.me)).map((b) => b.id).sort()).toEqual(all);
    expect((await listed(w.admin)).map((b) => b.id).sort()).toEqual(all);
    expect((await listed(w.colleague)).map((b) => b.id)).toEqual([block]);
    // What each is asked to do in the new block.
    const figures = async (headers: typeof w.me) => {
      const b = (await listed(headers)).find((x) => x.id === block)!;
      return { myMarks: b.myMarks, myRemaining: b.myRemaining, myArbitration: b.myArbitration };
    };
    const open = (classId: string) => inClass(classId).length - 2; // less the two touched in each class
    expect(await figures(w.colleague)).toEqual({
      myMarks: 1,
      myRemaining: 1 + open(c1.id),
      myArbitration: 0,
    });
    expect(await figures(w.admin)).toEqual({ myMarks: 0, myRemaining: 0, myArbitration: 1 });
    expect(await figures(w.me)).toEqual({
      myMarks: 3,
      myRemaining: open(c1.id) + open(c2.id),
      myArbitration: 0,
    });
  });

  it('the migration backfills the same counters', async () => {
    const db = w.t.testDb.db.kysely;
    const ids = (await blocks()).map((b) => b.id);
    const before = async () => ({
      counts: (
        await db
          .selectFrom('mark_item_counts')
          .selectAll()
          .where('block_id', 'in', ids)
          .where('items', '<>', 0)
          .execute()
      )
        .map((r) =>
          JSON.stringify([
            r.block_id,
            r.class_id,
            r.user_id,
            Number(r.done),
            Number(r.problem),
            r.state,
            Number(r.given),
            Number(r.items),
          ]),
        )
        .sort(),
      items: (await db.selectFrom('mark_items').selectAll().where('block_id', 'in', ids).execute())
        .map((r) =>
          JSON.stringify([
            r.block_id,
            r.sheet_id,
            r.class_id,
            Number(r.done),
            Number(r.problem),
            r.state,
            Number(r.given),
            r.users,
          ]),
        )
        .sort(),
    });
    const maintained = await before();
    expect(maintained.items.length).toBeGreaterThan(0);
    await down(db);
    await up(db);
    expect(await before()).toEqual(maintained);
    await recountBlocks(db, ids);
    expect(await before()).toEqual(maintained);
  });
});
