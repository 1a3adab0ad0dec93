import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MarkBlockSchema,
  MarkHomeworkSchema,
  MarkNextSchema,
  MarkTaskSchema,
  SubmitMarkResultSchema,
  type HomeworkDetail,
  type MarkBlock,
  type MarkHomework,
} from '@zhzy/contracts';
import { writeSampleSheets, type SampleAnswer } from '../src/modules/marking/sample-scans.js';
import { PageStorage } from '../src/modules/scan/storage.js';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';
import { Q, data, homeworkWorld, type Headers, type World } from './homework-fixtures.js';

// Marking on screen: blocks from the paper, assignment by question, by class and by the subject-teacher flag, single
// and double marking with the threshold and arbitration, grouped marking, problems, 回评 and who may see what.
// Sheets and crops are written the way recognition writes them.

describe.each(DIALECTS)('marking on %s', (dialect) => {
  let w: World;
  let dataDir: string;
  let pages: PageStorage;
  let users: { teacher: string; director: string; admin: string };
  let classStudents: Map<string, { id: string; classId: string }[]>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-marking-'));
    w = await homeworkWorld(dialect, undefined, { DATA_DIR: dataDir });
    pages = new PageStorage(dataDir);
    const db = w.t.testDb.db.kysely;
    const rows = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('username', 'in', ['demo-teacher', 'demo-director', 'demo-admin'])
      .execute();
    const id = (u: string) => rows.find((r) => r.username === u)!.id;
    users = { teacher: id('demo-teacher'), director: id('demo-director'), admin: id('demo-admin') };
    classStudents = new Map();
    for (const c of w.classesA) {
      const students = await db
        .selectFrom('students')
        .select(['id', 'class_id as classId'])
        .where('class_id', '=', c.id)
        .orderBy('student_no')
        .execute();
      classStudents.set(c.id, students);
    }
  });
  afterAll(async () => {
    await w.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function publish(title: string, classIds: string[], subjectTeacher = false): Promise<HomeworkDetail> {
    const paper = await w.createPaper(w.me, title);
    return w.publish(w.me, {
      paperId: paper.id,
      title,
      classIds,
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
      subjectTeacher,
    });
  }

  /** Scans students of a class: by default every answer is a different hand-written text. */
  function scan(
    hw: HomeworkDetail,
    students: { id: string; classId: string }[],
    answer: (i: number, questionId: string) => SampleAnswer & { hand?: string } = (i) => ({
      text: `答案 ${i + 1}`,
    }),
  ) {
    return writeSampleSheets(w.t.testDb.db.kysely, pages, {
      homeworkId: hw.id,
      students,
      answer: (i, questionId) => answer(i, questionId),
    });
  }

  const view = async (hwId: string, who: Headers = w.me): Promise<MarkHomework> =>
    MarkHomeworkSchema.parse(data(await w.call('GET', `/teacher/mark/homework/${hwId}`, who)));
  const blockOf = (h: MarkHomework, questionId: string): MarkBlock =>
    h.blocks.find((b) => b.questions.some((q) => q.questionId === questionId))!;
  const next = async (blockId: string, who: Headers, count = 3, skip: string[] = []) =>
    MarkNextSchema.parse(
      data(
        await w.call(
          'GET',
          `/teacher/mark/block/${blockId}/next?count=${count}${skip.length ? `&skip=${skip.join(',')}` : ''}`,
          who,
        ),
      ),
    );
  const submit = (blockId: string, who: Headers, sheetId: string, scores: Record<string, number | null>) =>
    w.call('POST', `/teacher/mark/block/${blockId}/mark`, who, {
      sheetId,
      scores: Object.entries(scores).map(([questionId, score]) => ({ questionId, score })),
    });
  const answerOf = (sheetId: string, questionId: string) =>
    w.t.testDb.db.kysely
      .selectFrom('sheet_answers')
      .select(['score_tenths', 'score_source'])
      .where('sheet_id', '=', sheetId)
      .where('question_id', '=', questionId)
      .executeTakeFirstOrThrow();
  const settingsOf = (b: MarkBlock) => ({
    id: b.id,
    questionIds: b.questions.map((q) => q.questionId),
    title: b.title,
    mode: b.mode,
    threshold: b.threshold,
    averageRule: b.averageRule,
    halfPoints: b.halfPoints,
    assignBy: b.assignBy,
    markers: b.markers.map((m) => ({ userId: m.userId, classIds: m.classIds })),
    arbiterId: b.arbiterId,
    rubric: b.rubric,
    comments: b.comments,
  });

  describe('blocks and single marking', () => {
    let hw: HomeworkDetail;
    let sheets: string[];
    let written: MarkBlock;

    beforeAll(async () => {
      const class1 = w.classesA[0]!.id;
      hw = await publish('单评测试', [class1]);
      sheets = await scan(hw, classStudents.get(class1)!.slice(0, 6));
    });

    it('makes one block per written question of the paper, marked by the creator until assigned', async () => {
      const h = await view(hw.id);
      expect(h.blocks.map((b) => b.title)).toEqual(['第5题', '第6题', '第7题']);
      written = blockOf(h, Q.written);
      expect(written.fullScore).toBe(12);
      expect(written.questions[0]!.answer).toContain('4');
      expect(written.markers.map((m) => m.userId)).toEqual([users.teacher]);
      expect(written.progress).toMatchObject({ items: 6, done: 0, marks: 0, marksNeeded: 6, expected: 40 });
      expect(h.permissions.edit).toBe(true);
      expect(h.candidates.length).toBeGreaterThan(2);
    });

    it('lists the task with my progress on /correct', async () => {
      const tasks = MarkTaskSchema.array().parse(data(await w.call('GET', '/teacher/mark/tasks', w.me)));
      const task = tasks.find((t) => t.homeworkId === hw.id)!;
      expect(task.mine).toBe(true);
      expect(task.blocks.find((b) => b.id === written.id)).toMatchObject({
        myRemaining: 6,
        myMarks: 0,
        canMark: true,
      });
    });

    it('hands out the next items anonymously, and hands the same ones back to resume', async () => {
      const first = await next(written.id, w.me, 3);
      expect(first.items).toHaveLength(3);
      expect(first.items.every((i) => i.student === null && i.task === 'mark')).toBe(true);
      expect(first.items[0]!.answers[0]!.cropUrl).toMatch(/^\/teacher\/mark\/crop\//);
      const again = await next(written.id, w.me, 3);
      expect(again.items.map((i) => i.sheetId)).toEqual(first.items.map((i) => i.sheetId));
      const skipping = await next(
        written.id,
        w.me,
        2,
        first.items.map((i) => i.sheetId),
      );
      expect(skipping.items.map((i) => i.sheetId)).not.toContain(first.items[0]!.sheetId);
    });

    it('refuses an empty score, one above full, and halves where the block allows none, with Chinese messages', async () => {
      const empty = await submit(written.id, w.me, sheets[0]!, { [Q.written]: null });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('请给第7题打分');
      const above = await submit(written.id, w.me, sheets[0]!, { [Q.written]: 13 });
      expect(above.statusCode).toBe(400);
      expect(above.json().message).toBe('第7题的得分不能超过满分 12 分');
      const tenth = await submit(written.id, w.me, sheets[0]!, { [Q.written]: 6.3 });
      expect(tenth.json().message).toBe('第7题只能给整数分或 0.5 分');
      expect((await answerOf(sheets[0]!, Q.written)).score_tenths).toBeNull();
    });

    it('puts a score into results at once, recomputes the total and logs who, before and after', async () => {
      const res = SubmitMarkResultSchema.parse(
        data(await submit(written.id, w.me, sheets[0]!, { [Q.written]: 9.5 })),
      );
      expect(res.outcome).toBe('final');
      expect(res.scores[Q.written]).toBe(9.5);
      expect(await answerOf(sheets[0]!, Q.written)).toEqual({ score_tenths: 95, score_source: 'marker' });
      const db = w.t.testDb.db.kysely;
      const sheet = await db
        .selectFrom('sheets')
        .selectAll()
        .where('id', '=', sheets[0]!)
        .executeTakeFirstOrThrow();
      expect(sheet.subjective_score_tenths).toBe(95);
      const log = await db
        .selectFrom('score_changes')
        .selectAll()
        .where('sheet_id', '=', sheets[0]!)
        .where('question_id', '=', Q.written)
        .execute();
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({
        user_id: users.teacher,
        before_score_tenths: null,
        after_score_tenths: 95,
      });
    });

    it('回评 lists my marks and a revision changes results and the log', async () => {
      const history = data<{
        records: { sheetId: string; total: number; finalTotal: number }[];
        total: number;
      }>(await w.call('GET', `/teacher/mark/block/${written.id}/history`, w.me));
      expect(history.total).toBe(1);
      expect(history.records[0]).toMatchObject({ sheetId: sheets[0], total: 9.5, finalTotal: 9.5 });
      const item = data<{ myMark: { scores: Record<string, number> }; task: string }>(
        await w.call('GET', `/teacher/mark/block/${written.id}/item/${sheets[0]}`, w.me),
      );
      expect(item.task).toBe('review');
      expect(item.myMark.scores[Q.written]).toBe(9.5);
      const revised = SubmitMarkResultSchema.parse(
        data(await submit(written.id, w.me, sheets[0]!, { [Q.written]: 8 })),
      );
      expect(revised.outcome).toBe('revised');
      expect((await answerOf(sheets[0]!, Q.written)).score_tenths).toBe(80);
      const log = await w.t.testDb.db.kysely
        .selectFrom('score_changes')
        .selectAll()
        .where('sheet_id', '=', sheets[0]!)
        .where('question_id', '=', Q.written)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      expect(log.map((l) => [l.before_score_tenths, l.after_score_tenths])).toEqual([
        [null, 95],
        [95, 80],
      ]);
    });

    it('saves vector marks and a comment with the score, and keeps the comment bank', async () => {
      const res = await w.call('POST', `/teacher/mark/block/${written.id}/mark`, w.me, {
        sheetId: sheets[1],
        scores: [{ questionId: Q.written, score: 12 }],
        annotations: [
          { type: 'check', x: 0.2, y: 0.3 },
          {
            type: 'pen',
            points: [
              [0.1, 0.1],
              [0.2, 0.25],
              [0.3, 0.2],
            ],
          },
          { type: 'text', x: 0.5, y: 0.5, text: '步骤完整' },
        ],
        comment: '书写工整',
      });
      expect(res.statusCode, res.body).toBe(200);
      const item = data<{ myMark: { annotations: { type: string }[]; comment: string } }>(
        await w.call('GET', `/teacher/mark/block/${written.id}/item/${sheets[1]}`, w.me),
      );
      expect(item.myMark.annotations.map((a) => a.type)).toEqual(['check', 'pen', 'text']);
      expect(item.myMark.comment).toBe('书写工整');
      const bank = data<string[]>(
        await w.call('PUT', `/teacher/mark/block/${written.id}/comments`, w.me, {
          comments: ['步骤完整', '计算错误'],
        }),
      );
      expect(bank).toEqual(['步骤完整', '计算错误']);
      expect(
        MarkBlockSchema.parse(data(await w.call('GET', `/teacher/mark/block/${written.id}`, w.me))).comments,
      ).toEqual(bank);
    });

    it('a flagged item leaves the queue until the creator scores it', async () => {
      const before = await next(written.id, w.me, 1);
      const flagged = sheets[2]!;
      const empty = await w.call('POST', `/teacher/mark/block/${written.id}/problem`, w.me, {
        sheetId: flagged,
        note: ' ',
      });
      expect(empty.json().message).toContain('请填写异常说明');
      expect(
        (
          await w.call('POST', `/teacher/mark/block/${written.id}/problem`, w.me, {
            sheetId: flagged,
            note: '字迹无法辨认',
          })
        ).statusCode,
      ).toBe(200);
      const after = await next(written.id, w.me, 10);
      expect(after.items.map((i) => i.sheetId)).not.toContain(flagged);
      expect(after.remaining).toBe(before.remaining - 1);
      const problems = data<{ sheetId: string; problem: { note: string } }[]>(
        await w.call('GET', `/teacher/mark/block/${written.id}/problems`, w.me),
      );
      expect(problems.map((p) => [p.sheetId, p.problem.note])).toEqual([[flagged, '字迹无法辨认']]);
      const res = SubmitMarkResultSchema.parse(
        data(await submit(written.id, w.me, flagged, { [Q.written]: 3 })),
      );
      expect(res.outcome).toBe('final');
      expect(await answerOf(flagged, Q.written)).toEqual({ score_tenths: 30, score_source: 'arbitration' });
      expect(
        data<unknown[]>(await w.call('GET', `/teacher/mark/block/${written.id}/problems`, w.me)),
      ).toEqual([]);
    });

    it('only assigned teachers mark: others of the school get 403, the administrator sees, another school 404', async () => {
      expect((await w.call('GET', `/teacher/mark/block/${written.id}`, w.colleague)).statusCode).toBe(403);
      expect((await w.call('GET', `/teacher/mark/homework/${hw.id}`, w.colleague)).statusCode).toBe(403);
      const refused = await submit(written.id, w.colleague, sheets[4]!, { [Q.written]: 5 });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('您没有被分配批阅这个题块');
      expect(
        (await w.call('GET', `/teacher/mark/crop/${sheets[4]}/${Q.written}`, w.colleague)).statusCode,
      ).toBe(403);
      expect((await w.call('GET', `/teacher/mark/homework/${hw.id}`, w.admin)).statusCode).toBe(200);
      const crop = await w.call('GET', `/teacher/mark/crop/${sheets[4]}/${Q.written}`, w.admin);
      expect(crop.statusCode).toBe(200);
      expect(crop.headers['content-type']).toBe('image/png');
      expect(crop.rawPayload.subarray(1, 4).toString()).toBe('PNG');
      expect((await w.call('GET', `/teacher/mark/homework/${hw.id}`, w.stranger)).statusCode).toBe(404);
      expect(
        (await w.call('GET', `/teacher/mark/crop/${sheets[4]}/${Q.written}`, w.stranger)).statusCode,
      ).toBe(404);
      const edit = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.admin, {
        blocks: (await view(hw.id)).blocks.map(settingsOf),
      });
      expect(edit.statusCode).toBe(403);
      expect(edit.json().message).toBe('只有布置作业的老师可以设置题块和阅卷分工');
    });

    it('whole points only when the creator turns halves off; regrouping a started block is refused', async () => {
      const h = await view(hw.id);
      const blocks = h.blocks.map(settingsOf);
      const res = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, {
        blocks: blocks.map((b) => (b.id === written.id ? { ...b, halfPoints: false } : b)),
      });
      expect(res.statusCode, res.body).toBe(200);
      const half = await submit(written.id, w.me, sheets[3]!, { [Q.written]: 6.5 });
      expect(half.json().message).toBe('第7题只能给整数分');
      const merged = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, {
        blocks: [
          { ...blocks[0]!, questionIds: [Q.blank3, Q.blank0], title: '填空题' },
          blocks.find((b) => b.id === written.id)!,
        ],
      });
      expect(merged.statusCode, merged.body).toBe(200);
      const after = await view(hw.id);
      expect(after.blocks.map((b) => [b.title, b.questions.map((q) => q.no)])).toEqual([
        ['填空题', ['5', '6']],
        ['第7题', ['7']],
      ]);
      const regroup = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, {
        blocks: [
          { ...settingsOf(after.blocks[0]!), questionIds: [Q.blank3, Q.blank0, Q.written], id: undefined },
        ],
      });
      expect(regroup.statusCode).toBe(409);
      expect(regroup.json().message).toBe('已开始批阅的题块不能重新分组');
    });

    it('a block of sub-questions takes one score per sub-question', async () => {
      const blanks = (await view(hw.id)).blocks[0]!;
      const [item] = (await next(blanks.id, w.me, 1)).items;
      const partial = await submit(blanks.id, w.me, item!.sheetId, { [Q.blank3]: 3 });
      expect(partial.json().message).toBe('提交的小题与题块不一致');
      const res = SubmitMarkResultSchema.parse(
        data(await submit(blanks.id, w.me, item!.sheetId, { [Q.blank3]: 2, [Q.blank0]: 3 })),
      );
      expect(res.scores).toEqual({ [Q.blank3]: 2, [Q.blank0]: 3 });
    });
  });

  describe('assignment by class and the subject-teacher flag', () => {
    it('routes each class to its subject teachers, and a teacher only gets their classes', async () => {
      const [c1, , c3] = w.classesA;
      const db = w.t.testDb.db.kysely;
      await db
        .insertInto('teaching_assignments')
        .values({ org_id: w.orgA, user_id: users.director, subject_id: SUBJECT_IDS.数学, class_id: c3!.id })
        .execute();
      const hw = await publish('按班分配', [c1!.id, c3!.id], true);
      const class3Sheets = await scan(hw, classStudents.get(c3!.id)!.slice(0, 3));
      await scan(hw, classStudents.get(c1!.id)!.slice(0, 2));
      const block = blockOf(await view(hw.id), Q.written);
      expect(block.assignBy).toBe('class');
      expect(block.markers.find((m) => m.userId === users.director)!.classIds).toEqual([c3!.id]);
      expect(block.markers.find((m) => m.userId === users.teacher)!.classIds).toEqual([c1!.id]);
      const mine = await next(block.id, w.colleague, 10);
      expect(mine.items.map((i) => i.sheetId).sort()).toEqual([...class3Sheets].sort());
      const tasks = MarkTaskSchema.array().parse(
        data(await w.call('GET', '/teacher/mark/tasks', w.colleague)),
      );
      expect(
        tasks.find((t) => t.homeworkId === hw.id)!.blocks.find((b) => b.id === block.id)!.myRemaining,
      ).toBe(3);
      const teacherItems = await next(block.id, w.me, 10);
      expect(teacherItems.items).toHaveLength(2);
      // The director may not mark a class-1 sheet.
      const c1Sheet = teacherItems.items[0]!.sheetId;
      expect((await submit(block.id, w.colleague, c1Sheet, { [Q.written]: 5 })).statusCode).toBe(403);
    });

    it('by question: the creator assigns a block to a colleague for every class', async () => {
      const c2 = w.classesA[1]!;
      const hw = await publish('按题分配', [c2.id]);
      const sheets = await scan(hw, classStudents.get(c2.id)!.slice(0, 2));
      const h = await view(hw.id);
      const res = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, {
        blocks: h.blocks.map((b) =>
          b.questions[0]!.questionId === Q.written
            ? { ...settingsOf(b), markers: [{ userId: users.director, classIds: [] }] }
            : settingsOf(b),
        ),
      });
      expect(res.statusCode, res.body).toBe(200);
      const block = blockOf(await view(hw.id), Q.written);
      const items = await next(block.id, w.colleague, 5);
      expect(items.items.map((i) => i.sheetId).sort()).toEqual([...sheets].sort());
      expect((await next(block.id, w.me, 5)).items).toEqual([]);
      const bad = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, {
        blocks: h.blocks.slice(0, 2).map(settingsOf),
      });
      expect(bad.json().message).toBe('第7题没有放入任何题块');
    });
  });

  describe('double marking', () => {
    let hw: HomeworkDetail;
    let sheets: string[];
    let block: MarkBlock;

    beforeAll(async () => {
      const c4 = w.classesA[3]!;
      hw = await publish('双评测试', [c4.id]);
      sheets = await scan(hw, classStudents.get(c4.id)!.slice(0, 4));
      const h = await view(hw.id);
      const needsTwo = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, {
        blocks: h.blocks.map((b) =>
          b.questions[0]!.questionId === Q.written ? { ...settingsOf(b), mode: 'double' } : settingsOf(b),
        ),
      });
      expect(needsTwo.json().message).toBe('“第7题”设为双评，至少需要两位阅卷老师');
      const res = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, {
        blocks: h.blocks.map((b) =>
          b.questions[0]!.questionId === Q.written
            ? {
                ...settingsOf(b),
                mode: 'double',
                threshold: 2,
                averageRule: 'mean',
                markers: [
                  { userId: users.teacher, classIds: [] },
                  { userId: users.director, classIds: [] },
                ],
                arbiterId: users.admin,
              }
            : settingsOf(b),
        ),
      });
      expect(res.statusCode, res.body).toBe(200);
      block = blockOf(MarkHomeworkSchema.parse(data(res)), Q.written);
    });

    it('keeps the first score out of results until the second marker scores within the threshold, then averages', async () => {
      const first = SubmitMarkResultSchema.parse(
        data(await submit(block.id, w.me, sheets[0]!, { [Q.written]: 8 })),
      );
      expect(first.outcome).toBe('waitingSecond');
      expect((await answerOf(sheets[0]!, Q.written)).score_tenths).toBeNull();
      // Both markers get the item; the first marker does not get it again.
      expect((await next(block.id, w.me, 10)).items.map((i) => i.sheetId)).not.toContain(sheets[0]);
      expect((await next(block.id, w.colleague, 10)).items.map((i) => i.sheetId)).toContain(sheets[0]);
      const second = SubmitMarkResultSchema.parse(
        data(await submit(block.id, w.colleague, sheets[0]!, { [Q.written]: 9 })),
      );
      expect(second.outcome).toBe('final');
      // (8 + 9) / 2 = 8.5 with half points.
      expect(await answerOf(sheets[0]!, Q.written)).toEqual({ score_tenths: 85, score_source: 'double' });
      const b = MarkBlockSchema.parse(data(await w.call('GET', `/teacher/mark/block/${block.id}`, w.me)));
      expect(b.progress).toMatchObject({ items: 4, done: 1, marks: 2, marksNeeded: 8 });
    });

    it('an overseer may still decide an item both markers settled', async () => {
      const res = await submit(block.id, w.admin, sheets[0]!, { [Q.written]: 1 });
      expect(res.statusCode).toBe(200);
      expect(await answerOf(sheets[0]!, Q.written)).toEqual({
        score_tenths: 10,
        score_source: 'arbitration',
      });
    });

    it('sends scores beyond the threshold to the arbiter, whose score is final', async () => {
      await submit(block.id, w.me, sheets[1]!, { [Q.written]: 2 });
      const beyond = SubmitMarkResultSchema.parse(
        data(await submit(block.id, w.colleague, sheets[1]!, { [Q.written]: 10 })),
      );
      expect(beyond.outcome).toBe('arbitration');
      expect((await answerOf(sheets[1]!, Q.written)).score_tenths).toBeNull();
      const b = MarkBlockSchema.parse(data(await w.call('GET', `/teacher/mark/block/${block.id}`, w.me)));
      expect(b.progress.arbitration).toBe(1);
      expect(b.arbiterName).toBeTruthy();
      // Neither marker is handed the item again, and only the arbiter (or an overseer) sees the problems list.
      expect((await next(block.id, w.colleague, 10)).items.map((i) => i.sheetId)).not.toContain(sheets[1]);
      expect((await next(block.id, w.me, 10)).items.map((i) => i.sheetId)).not.toContain(sheets[1]);
      expect((await w.call('GET', `/teacher/mark/block/${block.id}/problems`, w.colleague)).statusCode).toBe(
        403,
      );
      const queue = await next(block.id, w.admin, 5);
      expect(queue.items[0]).toMatchObject({ sheetId: sheets[1], task: 'arbitration' });
      expect(queue.items[0]!.marks.map((m) => m.total).sort((a, b) => a - b)).toEqual([2, 10]);
      const res = SubmitMarkResultSchema.parse(
        data(await submit(block.id, w.admin, sheets[1]!, { [Q.written]: 6 })),
      );
      expect(res.outcome).toBe('final');
      expect(await answerOf(sheets[1]!, Q.written)).toEqual({
        score_tenths: 60,
        score_source: 'arbitration',
      });
    });

    it('a marker revising into the threshold settles the item; the rule applies on change', async () => {
      await submit(block.id, w.me, sheets[2]!, { [Q.written]: 3 });
      await submit(block.id, w.colleague, sheets[2]!, { [Q.written]: 9 });
      expect((await answerOf(sheets[2]!, Q.written)).score_tenths).toBeNull();
      const revised = SubmitMarkResultSchema.parse(
        data(await submit(block.id, w.me, sheets[2]!, { [Q.written]: 8 })),
      );
      expect(revised.outcome).toBe('revised');
      expect(await answerOf(sheets[2]!, Q.written)).toEqual({ score_tenths: 85, score_source: 'double' });
      const h = await view(hw.id);
      const res = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, {
        blocks: h.blocks.map((b) =>
          b.id === block.id ? { ...settingsOf(b), averageRule: 'max' } : settingsOf(b),
        ),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await answerOf(sheets[2]!, Q.written)).score_tenths).toBe(90);
    });

    it('refuses grouped scores in double marking', async () => {
      const res = await w.call('POST', `/teacher/mark/block/${block.id}/group`, w.me, {
        sheetIds: [sheets[3]],
        scores: [{ questionId: Q.written, score: 0 }],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('双评题块不能整组给分');
    });

    it('the task list counts, for each teacher, what the homework view counts item by item', async () => {
      // An item waiting for the arbiter, one with a single mark of two, one flagged as a problem (and the rest of
      // this file's homework: single, by class, by question, problems) — the task list is counted in the
      // database, the view item by item: both must tell every teacher the same.
      await submit(block.id, w.me, sheets[3]!, { [Q.written]: 1 });
      await submit(block.id, w.colleague, sheets[3]!, { [Q.written]: 10 });
      const c5 = w.classesA[4]!;
      const open = await publish('双评进行中', [c5.id]);
      const openSheets = await scan(open, classStudents.get(c5.id)!.slice(0, 3));
      const h = await view(open.id);
      const res = await w.call('PUT', `/teacher/mark/homework/${open.id}`, w.me, {
        blocks: h.blocks.map((b) =>
          b.questions[0]!.questionId === Q.written
            ? {
                ...settingsOf(b),
                mode: 'double',
                threshold: 2,
                markers: [
                  { userId: users.teacher, classIds: [] },
                  { userId: users.director, classIds: [] },
                ],
              }
            : settingsOf(b),
        ),
      });
      expect(res.statusCode, res.body).toBe(200);
      const openBlock = blockOf(MarkHomeworkSchema.parse(data(res)), Q.written);
      await submit(openBlock.id, w.me, openSheets[0]!, { [Q.written]: 4 });
      const flagged = await w.call('POST', `/teacher/mark/block/${openBlock.id}/problem`, w.colleague, {
        sheetId: openSheets[1],
        note: '看不清',
      });
      expect(flagged.statusCode, flagged.body).toBe(200);

      const who = { [users.teacher]: w.me, [users.director]: w.colleague, [users.admin]: w.admin };
      for (const [userId, headers] of Object.entries(who)) {
        const tasks = MarkTaskSchema.array().parse(data(await w.call('GET', '/teacher/mark/tasks', headers)));
        expect(tasks.length).toBeGreaterThan(0);
        for (const task of tasks) {
          const v = await view(task.homeworkId, headers);
          expect(task.blocks.map((b) => b.id)).toEqual(v.blocks.map((b) => b.id));
          for (const b of task.blocks) {
            const vb = v.blocks.find((x) => x.id === b.id)!;
            expect(b.progress, `${task.homeworkTitle} ${b.title}`).toEqual(vb.progress);
            const me = vb.teachers.find((t) => t.userId === userId);
            expect(b.myMarks).toBe(me?.marks ?? 0);
            if (me) expect(b.myRemaining + b.myArbitration).toBe(me.remaining);
          }
        }
      }
      const blockFor = async (headers: typeof w.me, hwId: string, blockId: string) =>
        MarkTaskSchema.array()
          .parse(data(await w.call('GET', '/teacher/mark/tasks', headers)))
          .find((t) => t.homeworkId === hwId)!
          .blocks.find((b) => b.id === blockId)!;
      // The arbiter has the item beyond the threshold to decide; the markers have nothing left there.
      expect(await blockFor(w.admin, hw.id, block.id)).toMatchObject({ myArbitration: 1, myRemaining: 0 });
      expect(await blockFor(w.me, hw.id, block.id)).toMatchObject({ myArbitration: 0, myRemaining: 0 });
      expect((await blockFor(w.me, hw.id, block.id)).progress).toMatchObject({ items: 4, arbitration: 1 });
      // Double marking in progress: the teacher marked one item and has one left (the flagged one waits for the
      // creator); the director has two (the one the teacher marked still needs a second mark).
      expect(await blockFor(w.me, open.id, openBlock.id)).toMatchObject({ myMarks: 1, myRemaining: 1 });
      expect(await blockFor(w.colleague, open.id, openBlock.id)).toMatchObject({
        myMarks: 0,
        myRemaining: 2,
      });
      expect((await blockFor(w.me, open.id, openBlock.id)).progress).toMatchObject({
        items: 3,
        done: 0,
        marks: 1,
        marksNeeded: 6,
        arbitration: 0,
        problems: 1,
      });
    });
  });

  describe('the task list after writes', () => {
    it('follows every write that changes an item, however recently it was counted', async () => {
      // The task list reads counters that each write below must keep in step (ADR 0071), or the list would still
      // show what was counted before.
      const c5 = w.classesA[4]!;
      const students = classStudents.get(c5.id)!;
      const hw = await publish('任务列表跟随写入', [c5.id]);
      const sheets = await scan(hw, students.slice(0, 3));
      const agrees = async (step: string) => {
        const v = await view(hw.id);
        const task = MarkTaskSchema.array()
          .parse(data(await w.call('GET', '/teacher/mark/tasks', w.me)))
          .find((t) => t.homeworkId === hw.id)!;
        for (const b of task.blocks) {
          const vb = v.blocks.find((x) => x.id === b.id)!;
          expect(b.progress, `${step}: ${b.title}`).toEqual(vb.progress);
          expect(b.myMarks, `${step}: ${b.title}`).toBe(
            vb.teachers.find((t) => t.userId === users.teacher)?.marks ?? 0,
          );
        }
        return task.blocks.find((b) => b.id === blockOf(v, Q.written).id)!;
      };
      const block = blockOf(await view(hw.id), Q.written);
      expect((await agrees('scanned')).progress).toMatchObject({ items: 3, done: 0 });
      expect((await submit(block.id, w.me, sheets[0]!, { [Q.written]: 5 })).statusCode).toBe(200);
      expect((await agrees('marked')).progress).toMatchObject({ items: 3, done: 1, marks: 1 });
      const flagged = await w.call('POST', `/teacher/mark/block/${block.id}/problem`, w.me, {
        sheetId: sheets[1],
        note: '看不清',
      });
      expect(flagged.statusCode, flagged.body).toBe(200);
      expect((await agrees('flagged')).progress).toMatchObject({ problems: 1 });
      expect((await submit(block.id, w.me, sheets[1]!, { [Q.written]: 3 })).statusCode).toBe(200);
      expect((await agrees('marked the problem')).progress).toMatchObject({ done: 2, problems: 0 });
      await scan(hw, students.slice(3, 5));
      expect((await agrees('scanned more')).progress).toMatchObject({ items: 5, done: 2 });
      expect((await submit(block.id, w.me, sheets[0]!, { [Q.written]: 6 })).statusCode).toBe(200);
      expect((await agrees('revised')).progress).toMatchObject({ items: 5, done: 2, marks: 1 });
    });
  });

  describe('rubric items (评分项)', () => {
    it('a teacher defines items per question, applies them with a mark, and the score is their sum in results', async () => {
      const c3 = w.classesA[2]!;
      const hw = await publish('评分项', [c3.id]);
      const sheets = await scan(hw, classStudents.get(c3.id)!.slice(0, 4));
      const block = blockOf(await view(hw.id), Q.written);
      expect(block.rubricItems).toEqual([]);
      const put = (who: Headers, items: unknown[]) =>
        w.call('PUT', `/teacher/mark/block/${block.id}/rubric`, who, { items });
      const items = [
        { questionId: Q.written, label: '列方程正确', points: 2 },
        { questionId: Q.written, label: '计算正确', points: 8 },
        { questionId: Q.written, label: '计算错误', points: -1 },
      ];
      // Checked against the question: the block's step, its full score, its questions; only its markers save.
      const step = await put(w.me, [{ ...items[0], points: 0.3 }]);
      expect(step.statusCode).toBe(400);
      expect(step.json().message).toBe('评分项“列方程正确”的分值只能是 0.5 的整数倍');
      const above = await put(w.me, [{ ...items[0], points: 13 }]);
      expect(above.json().message).toBe('评分项“列方程正确”的分值不能超过该题满分 12 分');
      expect((await put(w.me, [{ ...items[0], questionId: Q.blank0 }])).json().message).toBe(
        '评分项只能属于这个题块中的题',
      );
      expect((await put(w.me, [{ ...items[0], label: ' ' }])).statusCode).toBe(400);
      expect((await put(w.colleague, items)).statusCode).toBe(403);

      const saved = data<{ id: string; label: string; points: number }[]>(await put(w.me, items));
      expect(saved.map((r) => [r.label, r.points])).toEqual([
        ['列方程正确', 2],
        ['计算正确', 8],
        ['计算错误', -1],
      ]);
      const [equation, correct, slip] = saved.map((r) => r.id) as [string, string, string];
      const bench = MarkBlockSchema.parse(data(await w.call('GET', `/teacher/mark/block/${block.id}`, w.me)));
      expect(bench.rubricItems.map((r) => r.id)).toEqual([equation, correct, slip]);

      const mark = (sheetId: string, score: number, rubric: string[]) =>
        w.call('POST', `/teacher/mark/block/${block.id}/mark`, w.me, {
          sheetId,
          scores: [{ questionId: Q.written, score }],
          rubric: { [Q.written]: rubric },
        });
      // 2 + 8 − 1 = 9 goes into results like any mark; a score the items do not give is refused.
      const wrong = await mark(sheets[0]!, 10, [equation, correct, slip]);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('第7题的得分与所选评分项不一致');
      expect((await answerOf(sheets[0]!, Q.written)).score_tenths).toBeNull();
      expect(
        SubmitMarkResultSchema.parse(data(await mark(sheets[0]!, 9, [equation, correct, slip]))).outcome,
      ).toBe('final');
      expect(await answerOf(sheets[0]!, Q.written)).toEqual({ score_tenths: 90, score_source: 'marker' });
      // Deductions alone count down from full marks; the sum never leaves 0..full.
      expect((await mark(sheets[1]!, 11, [slip])).statusCode).toBe(200);
      expect((await answerOf(sheets[1]!, Q.written)).score_tenths).toBe(110);
      expect((await mark(sheets[2]!, 10, [equation, correct, correct])).statusCode).toBe(200);
      expect((await mark(sheets[3]!, 0, ['no-such-item'])).statusCode).toBe(409);

      // The items applied come back with my mark (回评 and the item), with the crops to show.
      const item = data<{ myMark: { rubric: Record<string, string[]> } }>(
        await w.call('GET', `/teacher/mark/block/${block.id}/item/${sheets[0]}`, w.me),
      );
      expect(item.myMark.rubric).toEqual({ [Q.written]: [equation, correct, slip] });
      const history = data<{
        records: {
          sheetId: string;
          total: number;
          rubric: Record<string, string[]>;
          answers: { cropUrl: string | null }[];
        }[];
      }>(await w.call('GET', `/teacher/mark/block/${block.id}/history`, w.me));
      const first = history.records.find((r) => r.sheetId === sheets[0])!;
      expect(first).toMatchObject({ total: 9, rubric: { [Q.written]: [equation, correct, slip] } });
      expect(first.answers[0]!.cropUrl).toBe(`/teacher/mark/crop/${sheets[0]}/${Q.written}`);
      expect((await w.call('GET', first.answers[0]!.cropUrl!, w.me)).statusCode).toBe(200);

      // Saving again keeps the ids given back (marks still point at them) and drops the rest.
      const again = data<{ id: string; label: string }[]>(
        await put(w.me, [{ id: equation, questionId: Q.written, label: '方程正确', points: 2 }]),
      );
      expect(again).toEqual([{ id: equation, questionId: Q.written, label: '方程正确', points: 2 }]);
      const stored = await w.t.testDb.db.kysely
        .selectFrom('mark_rubric_items')
        .select(['id', 'homework_id', 'question_id', 'points_tenths'])
        .where('homework_id', '=', hw.id)
        .execute();
      expect(stored).toEqual([
        { id: equation, homework_id: hw.id, question_id: Q.written, points_tenths: 20 },
      ]);
    });
  });

  describe('grouped marking', () => {
    it('groups blank answers and identical crops, and scores a group at once into results', async () => {
      const c5 = w.classesA[4]!;
      const hw = await publish('分组给分', [c5.id]);
      // Students 0–2 left question 7 blank, 3–5 wrote the same answer in the same hand (copied), 6–7 wrote their own.
      const sheets = await scan(hw, classStudents.get(c5.id)!.slice(0, 8), (i, questionId) => {
        if (questionId !== Q.written) return { text: `填空 ${i}` };
        if (i < 3) return { blank: true };
        if (i < 6) return { text: '解：原式 = -8 + 12\n= 4', hand: 'copied' };
        return { text: i === 6 ? '解：原式 = 8 + 12 = 20' : '-8+12=4 答：4' };
      });
      const block = blockOf(await view(hw.id), Q.written);
      const groups = data<{ kind: string; sheetIds: string[] }[]>(
        await w.call('GET', `/teacher/mark/block/${block.id}/groups`, w.me),
      );
      // Only the block's markers see and score its groups.
      expect((await w.call('GET', `/teacher/mark/block/${block.id}/groups`, w.colleague)).statusCode).toBe(
        403,
      );
      const stranger = await w.call('POST', `/teacher/mark/block/${block.id}/group`, w.colleague, {
        sheetIds: sheets.slice(0, 3),
        scores: [{ questionId: Q.written, score: 0 }],
      });
      expect(stranger.statusCode).toBe(403);
      expect(stranger.json().message).toBe('您没有被分配批阅这个题块');
      expect((await answerOf(sheets[0]!, Q.written)).score_tenths).toBeNull();
      const blank = groups.find((g) => g.kind === 'blank')!;
      expect([...blank.sheetIds].sort()).toEqual(sheets.slice(0, 3).sort());
      const similar = groups.filter((g) => g.kind === 'similar');
      expect(similar).toHaveLength(1);
      expect([...similar[0]!.sheetIds].sort()).toEqual(sheets.slice(3, 6).sort());
      const res = data<{ results: { ok: boolean }[]; remaining: number; myMarks: number }>(
        await w.call('POST', `/teacher/mark/block/${block.id}/group`, w.me, {
          sheetIds: blank.sheetIds,
          scores: [{ questionId: Q.written, score: 0 }],
        }),
      );
      expect(res.results.every((r) => r.ok)).toBe(true);
      expect(res.remaining).toBe(5);
      // The bench's counter follows without asking again.
      expect(res.myMarks).toBe(3);
      for (const s of blank.sheetIds)
        expect(await answerOf(s, Q.written)).toEqual({ score_tenths: 0, score_source: 'group' });
      // Scored items answer per item when sent again.
      const again = data<{ results: { ok: boolean; message: string }[] }>(
        await w.call('POST', `/teacher/mark/block/${block.id}/group`, w.me, {
          sheetIds: [blank.sheetIds[0], similar[0]!.sheetIds[0]],
          scores: [{ questionId: Q.written, score: 12 }],
        }),
      );
      expect(again.results.map((r) => r.ok)).toEqual([true, true]);
      expect((await answerOf(blank.sheetIds[0]!, Q.written)).score_tenths).toBe(120);
    });
  });
});

describe.each(DIALECTS)('the marking demo on %s', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-marking-demo-'));
    t = await startTestApp({ dialect, env: { DATA_DIR: dataDir, SEED_DEMO_SCANS: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives demo-teacher a scanned class test in 阅卷中 to mark at once', async () => {
    const me = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    const list = await t.app.inject({
      method: 'GET',
      url: '/teacher/homework/list?page=1&size=50',
      headers: me,
    });
    const hw = data<{ records: { id: string; stateName: string; title: string }[] }>(list).records.find(
      (r) => r.title === '七年级数学 有理数单元测验',
    )!;
    expect(hw.stateName).toBe('阅卷中');
    const tasks = MarkTaskSchema.array().parse(
      data(await t.app.inject({ method: 'GET', url: '/teacher/mark/tasks', headers: me })),
    );
    const task = tasks.find((x) => x.homeworkId === hw.id)!;
    expect(task.blocks.length).toBe(4);
    expect(task.blocks.every((b) => b.canMark && b.myRemaining === 40 && b.progress.items === 40)).toBe(true);
    const next = MarkNextSchema.parse(
      data(
        await t.app.inject({
          method: 'GET',
          url: `/teacher/mark/block/${task.blocks[0]!.id}/next`,
          headers: me,
        }),
      ),
    );
    const crop = await t.app.inject({ method: 'GET', url: next.items[0]!.answers[0]!.cropUrl!, headers: me });
    expect(crop.statusCode).toBe(200);
    expect(crop.headers['content-type']).toBe('image/png');
  });
});
