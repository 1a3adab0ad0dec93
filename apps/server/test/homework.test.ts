import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutCard } from '@zhzy/answer-card';
import {
  CardLayoutSchema,
  HomeworkCardSchema,
  HomeworkDetailSchema,
  HomeworkSummarySchema,
  PaperCardSchema,
  PaperDocumentSchema,
  page,
  type CardPaper,
  type HomeworkCard,
  type HomeworkDetail,
  type PaperCard,
  type PaperDocument,
} from '@zhzy/contracts';
import { HomeworkRepository } from '../src/modules/homework/repository.js';
import { recentHomeworkQuestions } from '../src/modules/homework/service.js';
import { newId } from '../src/lib/ids.js';
import { DIALECTS } from './helpers/index.js';
import { Q, data, homeworkWorld, type Headers, type World } from './homework-fixtures.js';

const HomeworkPage = page(HomeworkSummarySchema);

describe.each(DIALECTS)('homework on %s', (dialect) => {
  let w: World;
  let paper: PaperDocument;
  let class1: string;
  let class2: string;

  beforeAll(async () => {
    w = await homeworkWorld(dialect);
    paper = await w.createPaper(w.me);
    class1 = w.classesA[0]!.id;
    class2 = w.classesA[1]!.id;
  });
  afterAll(() => w.close());

  const publishBody = (over: Record<string, unknown> = {}) => ({
    paperId: paper.id,
    type: 'homework',
    title: '第一单元课后作业',
    classIds: [class1],
    startDate: '2026-11-02',
    dueDate: '2026-11-05',
    subjectTeacher: true,
    ...over,
  });
  const paperCard = async (headers: Headers = w.me, id = paper.id): Promise<PaperCard> =>
    PaperCardSchema.parse(data(await w.call('GET', `/teacher/homework/paper-card/${id}`, headers)));
  const homeworkCard = async (id: string, query = ''): Promise<HomeworkCard> =>
    HomeworkCardSchema.parse(data(await w.call('GET', `/teacher/homework/card/${id}${query}`, w.me)));
  const detail = async (id: string, headers: Headers = w.me): Promise<HomeworkDetail> =>
    HomeworkDetailSchema.parse(data(await w.call('GET', `/teacher/homework/detail/${id}`, headers)));
  const list = async (query = '', headers: Headers = w.me) =>
    HomeworkPage.parse(
      data(
        await w.call(
          'GET',
          `/teacher/homework/list?${query.includes('size=') ? query.slice(1) : `size=100${query}`}`,
          headers,
        ),
      ),
    );
  const refused = async (
    res: Promise<{ statusCode: number; body: string; json(): unknown }>,
    status: number,
    message?: string | RegExp,
  ) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
    if (message) expect((r.json() as { message: string }).message).toMatch(message);
  };

  describe('the card of a paper', () => {
    it('maps choices with their option counts, true/false, blanks counted from ＿＿ runs, and the rest as written', async () => {
      const card = await paperCard();
      const expected: CardPaper = {
        id: paper.id,
        title: '七年级数学第一单元测验',
        subtitle: '考试时间 45 分钟 · 满分 40 分',
        sections: [
          {
            title: '一、单选题（本大题共 2 小题，每小题 3 分，共 6 分）',
            questions: [
              { id: Q.single3, number: '1', score: 3, kind: 'single', options: 3 },
              { id: Q.single4, number: '2', score: 3, kind: 'single', options: 4 },
            ],
          },
          {
            title: '二、多选题（本大题共 1 小题，每小题 4 分，共 4 分）',
            questions: [{ id: Q.multi5, number: '3', score: 4, kind: 'multiple', options: 5 }],
          },
          {
            title: '三、判断题（本大题共 1 小题，每小题 2 分，共 2 分）',
            questions: [{ id: Q.truefalse, number: '4', score: 2, kind: 'truefalse' }],
          },
          {
            title: '四、填空题（本大题共 2 小题，每小题 3 分，共 6 分）',
            questions: [
              { id: Q.blank3, number: '5', score: 3, kind: 'blank', blanks: 3 },
              { id: Q.blank0, number: '6', score: 3, kind: 'blank', blanks: 1 },
            ],
          },
          {
            title: '五、解答题（本大题共 1 小题，共 12 分）',
            questions: [{ id: Q.written, number: '7', score: 12, kind: 'written' }],
          },
        ],
      };
      expect(card.paper).toEqual(expected);
      expect(card.cardId).toBe(paper.id);
      expect(card.saved).toBe(false);
      expect(card.latestVersion).toBe(0);
      expect(card.editable).toBe(true);
      // Defaults: A4, one column, personalised QR; the number grid as long as the school's student numbers.
      expect(card.settings).toMatchObject({ size: 'A4', identity: 'qr', studentNumberDigits: 10 });
      expect(card.layout.columns).toBe(1);
    });

    it('answers the very layout that layoutCard gives for the mapped paper (what the designer computes itself)', async () => {
      const card = await paperCard();
      const local = layoutCard(card.paper, card.settings, { cardId: card.cardId, version: 1 });
      expect(card.layout).toEqual(CardLayoutSchema.parse(local));
      const settings = {
        size: 'A3' as const,
        columns: 3 as const,
        identity: 'bubbles' as const,
        writtenHeights: { [Q.written]: 45 },
      };
      const preview = CardLayoutSchema.parse(
        data(await w.call('POST', `/teacher/homework/paper-card/${paper.id}/preview`, w.me, settings)),
      );
      expect(preview).toEqual(layoutCard(card.paper, settings, { cardId: paper.id, version: 1 }));
      expect(preview.size).toBe('A3');
      expect(preview.columns).toBe(3);
      // A preview stores nothing.
      expect((await paperCard()).settings.size).toBe('A4');
    });

    it('saves settings validated by CardSettingsSchema and passes the layout warnings through', async () => {
      await refused(
        w.call('PUT', `/teacher/homework/paper-card/${paper.id}`, w.me, { size: 'A4', columns: 2 }),
        400,
        /A4 答题卡只能分 1 栏/,
      );
      await refused(
        w.call('PUT', `/teacher/homework/paper-card/${paper.id}`, w.me, { studentNumberDigits: 30 }),
        400,
        /studentNumberDigits/,
      );
      const saved = PaperCardSchema.parse(
        data(
          await w.call('PUT', `/teacher/homework/paper-card/${paper.id}`, w.me, {
            identity: 'qr',
            objectiveGroupSize: 4,
            writtenHeights: { [Q.written]: 12 },
          }),
        ),
      );
      expect(saved.saved).toBe(true);
      expect(saved.settings.objectiveGroupSize).toBe(4);
      expect(saved.layout.warnings).toContainEqual(
        expect.objectContaining({ code: 'writtenBoxTooSmall', questionId: Q.written }),
      );
      expect((await paperCard()).settings.writtenHeights).toEqual({ [Q.written]: 12 });
      // Back to a comfortable box for what follows.
      data(
        await w.call('PUT', `/teacher/homework/paper-card/${paper.id}`, w.me, {
          identity: 'qr',
          writtenHeights: { [Q.written]: 60 },
        }),
      );
    });

    it('refuses a colleague the card of a private paper; the card of a template is read-only', async () => {
      await refused(w.call('GET', `/teacher/homework/paper-card/${paper.id}`, w.colleague), 403);
      const templates = data<{ records: { id: string }[] }>(
        await w.call('GET', '/teacher/paper/template?size=1', w.me),
      );
      const template = templates.records[0]!;
      const card = await paperCard(w.me, template.id);
      expect(card.editable).toBe(false);
      await refused(
        w.call('PUT', `/teacher/homework/paper-card/${template.id}`, w.me, {}),
        403,
        '系统模板试卷不能直接布置，请先复制到“我的试卷”',
      );
    });
  });

  describe('publishing', () => {
    let first: HomeworkDetail;
    let frozenLayout: HomeworkCard;

    it('publishes to classes of the default school year with the dates and the 学科老师 flag', async () => {
      first = await w.publish(w.me, publishBody({ classIds: [class1, class2] }));
      expect(first).toMatchObject({
        title: '第一单元课后作业',
        type: 'homework',
        typeName: '作业',
        state: 'toScan',
        stateName: '待扫描',
        paperId: paper.id,
        paperTitle: paper.title,
        subjectName: '数学',
        schoolYearId: w.yearA,
        startDate: '2026-11-02',
        dueDate: '2026-11-05',
        subjectTeacher: true,
        questionCount: 7,
        totalScore: 30,
        mine: true,
        createdByName: '王老师',
        permissions: { editCard: true, delete: true },
      });
      expect(first.classes).toEqual([
        { id: class1, name: w.classesA[0]!.name, studentCount: 40 },
        { id: class2, name: w.classesA[1]!.name, studentCount: 40 },
      ]);
      expect(first.card).toMatchObject({ cardId: paper.id, version: 1, identity: 'qr', size: 'A4' });
      // The snapshot holds the questions with their answers and scores.
      const items = first.paper.sections.flatMap((s) => s.items);
      expect(items.map((i) => [i.questionId, i.score, i.question?.answer])).toContainEqual([
        Q.multi5,
        4,
        'ACE',
      ]);
      frozenLayout = await homeworkCard(first.id);
      expect(frozenLayout.version).toBe(1);
      expect(frozenLayout.layout.title).toBe('第一单元课后作业');
      expect(frozenLayout.settings.writtenHeights).toEqual({ [Q.written]: 60 });
      expect(frozenLayout.layout).toEqual(
        CardLayoutSchema.parse(
          layoutCard(frozenLayout.paper, frozenLayout.settings, { cardId: paper.id, version: 1 }),
        ),
      );
    });

    it('freezes: editing the paper and its card settings afterwards changes neither the homework nor its card', async () => {
      const before = await detail(first.id);
      const current = PaperDocumentSchema.parse(
        data(await w.call('GET', `/teacher/paper/detail/${paper.id}`, w.me)),
      );
      const edited = PaperDocumentSchema.parse(
        data(
          await w.call('PUT', `/teacher/paper/detail/${paper.id}`, w.me, {
            version: current.version,
            title: '改过的标题',
            subtitle: '',
            status: 'final',
            sections: current.sections.slice(0, 2).map((s) => ({
              id: s.id,
              typeId: s.typeId,
              title: s.title,
              note: s.note,
              defaultScore: s.defaultScore + 1,
              items: s.items.map((i) => ({ questionId: i.questionId })),
            })),
          }),
        ),
      );
      expect(edited.questionCount).toBe(3);
      data(await w.call('PUT', `/teacher/homework/paper-card/${paper.id}`, w.me, { size: 'A3' }));

      const after = await detail(first.id);
      expect(after.paper).toEqual(before.paper);
      expect(after.questionCount).toBe(7);
      expect(after.totalScore).toBe(30);
      expect(after.paperTitle).toBe('七年级数学第一单元测验');
      const card = await homeworkCard(first.id);
      expect(card.layout).toEqual(frozenLayout.layout);
      expect(card.version).toBe(1);
    });

    it('makes version 2 when the card of a homework is edited, and version 1 stays readable and resolvable', async () => {
      const v2 = HomeworkCardSchema.parse(
        data(
          await w.call('PUT', `/teacher/homework/card/${first.id}`, w.me, {
            identity: 'bubbles',
            studentNumberDigits: 10,
            writtenHeights: { [Q.written]: 60 },
          }),
        ),
      );
      expect(v2.version).toBe(2);
      expect(v2.currentVersion).toBe(2);
      expect(v2.layout.identity).toBe('bubbles');
      // The paper stays as published: same questions, same title.
      expect(v2.paper).toEqual(frozenLayout.paper);
      expect(v2.versions.map((v) => [v.version, v.identity])).toEqual([
        [2, 'bubbles'],
        [1, 'qr'],
      ]);
      const v1 = await homeworkCard(first.id, '?version=1');
      expect(v1.layout).toEqual(frozenLayout.layout);
      expect(v1.currentVersion).toBe(2);
      expect((await detail(first.id)).card.version).toBe(2);

      // The recogniser's look-up: exactly the card id and version of the QR.
      const resolved1 = await w.t.app.homework.findCardLayout(paper.id, 1);
      expect(resolved1?.layout).toEqual(frozenLayout.layout);
      expect(resolved1).toMatchObject({ homeworkId: first.id, orgId: w.orgA, currentVersion: 2 });
      expect((await w.t.app.homework.findCardLayout(paper.id, 2))?.layout).toEqual(v2.layout);
      expect(await w.t.app.homework.findCardLayout(paper.id, 3)).toBeNull();
      expect(await w.t.app.homework.findCardLayout(paper.id, 1, w.orgB)).toBeNull();

      // The same settings again make no version 3.
      const again = HomeworkCardSchema.parse(
        data(
          await w.call('PUT', `/teacher/homework/card/${first.id}`, w.me, {
            writtenHeights: { [Q.written]: 60 },
            studentNumberDigits: 10,
            identity: 'bubbles',
          }),
        ),
      );
      expect(again.version).toBe(2);
      await refused(
        w.call('GET', `/teacher/homework/card/${first.id}?version=7`, w.me),
        404,
        '答题卡版本不存在',
      );
    });

    it('republishing the paper freezes the next version of its card, from the paper as it is now', async () => {
      const second = await w.publish(
        w.me,
        publishBody({ title: '第一单元复习', type: 'test', classIds: [class2] }),
      );
      expect(second.card.version).toBe(3);
      expect(second.typeName).toBe('考试');
      expect(second.questionCount).toBe(3);
      expect(second.card.size).toBe('A3');
      const card = await homeworkCard(second.id);
      expect(card.versions.map((v) => v.version)).toEqual([3]);
      expect((await w.t.app.homework.findCardLayout(paper.id, 1))?.homeworkId).toBe(first.id);
      expect((await w.t.app.homework.findCardLayout(paper.id, 3))?.homeworkId).toBe(second.id);
      // Only the publisher edits a homework's card.
      await refused(w.call('PUT', `/teacher/homework/card/${second.id}`, w.colleague, {}), 403);
    });
    it('gives two publications racing on one paper two different versions', async () => {
      const racer = await w.createPaper(w.me, '同时布置的试卷');
      const [a, b] = await Promise.all([
        w.publish(w.me, publishBody({ paperId: racer.id, title: '并发一', classIds: [w.classesA[4]!.id] })),
        w.publish(w.me, publishBody({ paperId: racer.id, title: '并发二', classIds: [w.classesA[5]!.id] })),
      ]);
      expect([a.card.version, b.card.version].sort()).toEqual([1, 2]);
      for (const h of [a, b]) {
        expect((await w.t.app.homework.findCardLayout(racer.id, h.card.version))?.homeworkId).toBe(h.id);
      }
      data(await w.call('DELETE', `/teacher/homework/detail/${a.id}`, w.me));
      data(await w.call('DELETE', `/teacher/homework/detail/${b.id}`, w.me));
    });
  });

  describe('validation and permissions', () => {
    it('refuses impossible or reversed dates, missing and repeated classes', async () => {
      const post = (over: Record<string, unknown>) =>
        w.call('POST', '/teacher/homework/publish', w.me, publishBody(over));
      await refused(post({ dueDate: '2026-11-01' }), 400, '截止日期不能早于开始日期（字段：dueDate）');
      await refused(post({ startDate: '2026-02-30' }), 400, /日期不存在/);
      await refused(post({ startDate: '2026/11/02' }), 400, /日期格式应为 年-月-日/);
      await refused(post({ classIds: [] }), 400, /请选择班级/);
      await refused(post({ classIds: [class1, class1] }), 400, /班级不能重复选择/);
      await refused(post({ title: '  ' }), 400, /请输入作业名称/);
      await refused(post({ type: 'exam' }), 400, /type/);
    });

    it('refuses classes of another school (403) and of another school year', async () => {
      const post = (classIds: string[]) =>
        w.call('POST', '/teacher/homework/publish', w.me, publishBody({ classIds }));
      await refused(post([class1, w.classB]), 403, '所选班级不属于您的学校');
      await refused(post(['no-such-class']), 403, '所选班级不属于您的学校');
      await refused(post([w.pastClassA]), 400, '只能布置给当前默认学年的班级');
    });

    it('publishes only your own papers or papers shared to your school', async () => {
      const mine = await w.createPaper(w.me, '王老师的私人试卷');
      const body = publishBody({ paperId: mine.id });
      await refused(w.call('POST', '/teacher/homework/publish', w.colleague, body), 403);
      await refused(w.call('POST', '/teacher/homework/publish', w.stranger, body), 404);
      data(await w.call('PUT', `/teacher/paper/share/${mine.id}`, w.me, { shared: true }));
      const byColleague = await w.publish(w.colleague, body);
      expect(byColleague.createdByName).toBe('李主任');
      expect(byColleague.mine).toBe(true);
      // The paper's owner sees it in the school's list but may not change its card.
      const seen = (await list(`&mine=false`)).records.find((h) => h.id === byColleague.id);
      expect(seen?.permissions).toEqual({ editCard: false, delete: false });

      const templates = data<{ records: { id: string }[] }>(
        await w.call('GET', '/teacher/paper/template?size=1', w.me),
      );
      await refused(
        w.call('POST', '/teacher/homework/publish', w.me, publishBody({ paperId: templates.records[0]!.id })),
        403,
        '系统模板试卷不能直接布置，请先复制到“我的试卷”',
      );
      const empty = PaperDocumentSchema.parse(
        data(
          await w.call('POST', '/teacher/paper/create', w.me, {
            subjectId: paper.subjectId,
            title: '空白试卷',
          }),
        ),
      );
      await refused(
        w.call('POST', '/teacher/homework/publish', w.me, publishBody({ paperId: empty.id })),
        400,
        '试卷中还没有试题，不能布置',
      );
      const binned = await w.createPaper(w.me, '回收站里的试卷');
      data(await w.call('DELETE', `/teacher/paper/detail/${binned.id}`, w.me));
      await refused(
        w.call('POST', '/teacher/homework/publish', w.me, publishBody({ paperId: binned.id })),
        409,
        '试卷在回收站中，请先还原后再布置',
      );
    });
  });

  describe('the list, details and deletion', () => {
    let ids: { math: string; test: string; old: string };

    beforeAll(async () => {
      const a = await w.publish(
        w.me,
        publishBody({
          title: '列表-作业',
          classIds: [w.classesA[2]!.id],
          startDate: '2026-11-10',
          dueDate: '2026-11-12',
        }),
      );
      const b = await w.publish(
        w.me,
        publishBody({
          title: '列表-考试',
          type: 'test',
          classIds: [w.classesA[3]!.id],
          startDate: '2026-11-20',
          dueDate: '2026-11-20',
        }),
      );
      const c = await w.publish(
        w.me,
        publishBody({
          title: '列表-旧作业',
          classIds: [w.classesA[2]!.id],
          startDate: '2026-09-01',
          dueDate: '2026-09-03',
        }),
      );
      ids = { math: a.id, test: b.id, old: c.id };
    });

    it('lists the school’s homework newest first, every one 待扫描 until pages are scanned', async () => {
      const all = await list();
      expect(all.total).toBe(all.records.length);
      expect(all.total).toBeGreaterThanOrEqual(6);
      const starts = all.records.map((r) => r.startDate);
      expect(starts).toEqual([...starts].sort().reverse());
      expect(new Set(all.records.map((r) => r.stateName))).toEqual(new Set(['待扫描']));
      const firstPage = await list('&size=2&page=2');
      expect(firstPage.records.map((r) => r.id)).toEqual(all.records.slice(2, 4).map((r) => r.id));
      expect(firstPage.total).toBe(all.total);
      // A page past the end lists nothing and still tells how many there are.
      const past = await list(`&size=2&page=${Math.ceil(all.total / 2) + 1}`);
      expect(past.records).toEqual([]);
      expect(past.total).toBe(all.total);
    });

    it('lists the school year the teacher chose, else the school’s default', async () => {
      const db = w.t.testDb.db.kysely;
      const all = await list();
      expect(all.total).toBeGreaterThan(0);
      const other = newId();
      await db
        .insertInto('school_years')
        .values({
          id: other,
          org_id: w.orgA,
          name: '2027-2028学年',
          sort: 99,
          created_at: '2026-11-01T00:00:00.000Z',
        })
        .execute();
      const me = await db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'demo-teacher')
        .executeTakeFirstOrThrow();
      const choose = (yearId: string | null) =>
        db
          .updateTable('memberships')
          .set({ default_year_id: yearId })
          .where('org_id', '=', w.orgA)
          .where('user_id', '=', me.id)
          .execute();
      const chosen = await db
        .selectFrom('memberships')
        .select('default_year_id')
        .where('org_id', '=', w.orgA)
        .where('user_id', '=', me.id)
        .executeTakeFirst();
      try {
        await choose(other);
        expect((await list()).total).toBe(0);
        await choose(null);
        expect((await list()).records.map((r) => r.id)).toEqual(all.records.map((r) => r.id));
      } finally {
        await choose(chosen?.default_year_id ?? null);
        await db.deleteFrom('school_years').where('id', '=', other).execute();
      }
    });

    it('filters by class, subject, type, state, dates and publisher', async () => {
      const byClass = await list(`&classId=${w.classesA[2]!.id}`);
      expect(byClass.records.map((r) => r.id)).toEqual([ids.math, ids.old]);
      const tests = await list('&type=test');
      expect(tests.records.every((r) => r.type === 'test')).toBe(true);
      expect(tests.records.map((r) => r.id)).toContain(ids.test);
      const range = await list('&from=2026-11-11&to=2026-11-19');
      expect(range.records.map((r) => r.id)).toEqual([ids.math]);
      const november = await list('&from=2026-11-06');
      expect(november.records.map((r) => r.id).sort()).toEqual([ids.math, ids.test].sort());
      expect((await list(`&subjectId=${paper.subjectId}`)).total).toBe((await list()).total);
      expect((await list('&subjectId=subj-junior-chinese')).total).toBe(0);
      expect((await list('&state=toScan&size=2')).total).toBe((await list()).total);
      expect((await list('&state=toScan&size=2')).records).toHaveLength(2);
      expect((await list('&state=done')).total).toBe(0);
      const colleagueOnly = await list('&mine=true', w.colleague);
      expect(colleagueOnly.records.every((r) => r.createdByName === '李主任')).toBe(true);
      await refused(w.call('GET', '/teacher/homework/list?from=2026-13-01', w.me), 400, /日期不存在/);
      await refused(w.call('GET', '/teacher/homework/list?state=later', w.me), 400);
    });

    it('deletes softly: only the publisher or an administrator, gone from lists and details, its cards still resolvable', async () => {
      await refused(
        w.call('DELETE', `/teacher/homework/detail/${ids.math}`, w.colleague),
        403,
        '只能修改或删除自己布置的作业',
      );
      const math = await detail(ids.math);
      // Resolved (and cached) before the deletion: the answer after it must still say the homework is gone.
      expect(
        (await w.t.app.homework.findCardLayout(math.card.cardId, math.card.version))?.homeworkDeletedAt,
      ).toBeNull();
      data(await w.call('DELETE', `/teacher/homework/detail/${ids.math}`, w.me));
      await refused(w.call('GET', `/teacher/homework/detail/${ids.math}`, w.me), 404, '作业不存在或已删除');
      await refused(w.call('DELETE', `/teacher/homework/detail/${ids.math}`, w.me), 404);
      expect((await list()).records.map((r) => r.id)).not.toContain(ids.math);
      const row = await w.t.testDb.db.kysely
        .selectFrom('homework')
        .select(['card_id', 'card_version', 'deleted_at'])
        .where('id', '=', ids.math)
        .executeTakeFirstOrThrow();
      expect(row.deleted_at).toBeTruthy();
      const resolved = await w.t.app.homework.findCardLayout(row.card_id, row.card_version);
      expect(resolved?.homeworkDeletedAt).toBe(row.deleted_at);
      // A school administrator may delete a colleague's homework.
      data(await w.call('DELETE', `/teacher/homework/detail/${ids.old}`, w.admin));
    });

    it('feeds smart composition the questions of each class’s latest homework', async () => {
      const port = recentHomeworkQuestions(new HomeworkRepository(w.t.testDb.db.kysely));
      // Class 4's latest homework is the test published from the paper after its edit (three questions).
      const ids4 = await port.questionIdsOf(w.orgA, [w.classesA[3]!.id]);
      expect(ids4.sort()).toEqual([Q.multi5, Q.single3, Q.single4].sort());
      expect(await port.questionIdsOf(w.orgB, [w.classesA[3]!.id])).toEqual([]);
      expect(await port.questionIdsOf(w.orgA, [w.classesA[5]!.id])).toEqual([]);
    });
  });

  describe('two schools', () => {
    let hw: HomeworkDetail;
    let theirPaper: PaperDocument;

    beforeAll(async () => {
      hw = await w.publish(w.me, publishBody({ title: '隔离测试作业' }));
      const blank = PaperDocumentSchema.parse(
        data(
          await w.call('POST', '/teacher/paper/create', w.stranger, {
            subjectId: paper.subjectId,
            title: '乙校试卷',
          }),
        ),
      );
      const system = await w.t.testDb.db.kysely
        .selectFrom('questions')
        .select('id')
        .where('owner', '=', 'system')
        .where('subject_id', '=', paper.subjectId)
        .orderBy('id')
        .limit(2)
        .execute();
      theirPaper = PaperDocumentSchema.parse(
        data(
          await w.call('PUT', `/teacher/paper/detail/${blank.id}`, w.stranger, {
            version: blank.version,
            title: '乙校试卷',
            subtitle: '',
            status: 'final',
            sections: [
              {
                typeId: null,
                title: '练习',
                note: '',
                defaultScore: 5,
                items: system.map((q) => ({ questionId: q.id })),
              },
            ],
          }),
        ),
      );
    });

    it('answers every homework call about another school’s homework with 404 and lists none of it', async () => {
      const s = w.stranger;
      await refused(w.call('GET', `/teacher/homework/detail/${hw.id}`, s), 404, '作业不存在或已删除');
      await refused(w.call('DELETE', `/teacher/homework/detail/${hw.id}`, s), 404);
      await refused(w.call('GET', `/teacher/homework/card/${hw.id}`, s), 404);
      await refused(w.call('PUT', `/teacher/homework/card/${hw.id}`, s, { identity: 'bubbles' }), 404);
      await refused(w.call('POST', `/teacher/homework/card/${hw.id}/pdf`, s, { kind: 'students' }), 404);
      await refused(w.call('GET', `/teacher/homework/paper-card/${paper.id}`, s), 404);
      await refused(w.call('POST', `/teacher/homework/paper-card/${paper.id}/preview`, s, {}), 404);
      await refused(w.call('PUT', `/teacher/homework/paper-card/${paper.id}`, s, {}), 404);
      await refused(
        w.call('POST', '/teacher/homework/publish', s, publishBody({ classIds: [w.classB] })),
        404,
      );
      expect((await list('', s)).total).toBe(0);
      expect((await list(`&schoolYearId=${w.yearA}`, s)).total).toBe(0);
      expect((await list(`&classId=${class1}`, s)).total).toBe(0);
      // Still there for its own school.
      expect((await detail(hw.id)).id).toBe(hw.id);
    });

    it('needs a current school year to publish into', async () => {
      const db = w.t.testDb.db.kysely;
      await db.updateTable('school_years').set({ archived: 1 }).where('org_id', '=', w.orgB).execute();
      await refused(
        w.call(
          'POST',
          '/teacher/homework/publish',
          w.stranger,
          publishBody({ paperId: theirPaper.id, classIds: [w.classB] }),
        ),
        400,
        '请先选择默认学年后再布置作业',
      );
      await db.updateTable('school_years').set({ archived: 0 }).where('org_id', '=', w.orgB).execute();
    });

    it('keeps the other school’s own homework to itself, and neither school publishes to the other’s classes', async () => {
      const theirs = await w.publish(
        w.stranger,
        publishBody({ paperId: theirPaper.id, classIds: [w.classB] }),
      );
      expect(theirs.classes).toEqual([{ id: w.classB, name: '七年级(1)班', studentCount: 1 }]);
      expect((await list('', w.stranger)).records.map((r) => r.id)).toEqual([theirs.id]);
      expect((await list()).records.map((r) => r.id)).not.toContain(theirs.id);
      await refused(w.call('GET', `/teacher/homework/detail/${theirs.id}`, w.me), 404);
      await refused(w.call('GET', `/teacher/homework/card/${theirs.id}`, w.me), 404);
      await refused(w.call('DELETE', `/teacher/homework/detail/${theirs.id}`, w.admin), 404);
      await refused(
        w.call('POST', `/teacher/homework/card/${theirs.id}/pdf`, w.me, { kind: 'students' }),
        404,
      );
      expect(await w.t.app.homework.findCardLayout(theirPaper.id, 1, w.orgA)).toBeNull();
      expect((await w.t.app.homework.findCardLayout(theirPaper.id, 1, w.orgB))?.homeworkId).toBe(theirs.id);
      await refused(
        w.call(
          'POST',
          '/teacher/homework/publish',
          w.stranger,
          publishBody({ paperId: theirPaper.id, classIds: [class1] }),
        ),
        403,
        '所选班级不属于您的学校',
      );
    });
  });
});
