import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dayInZone,
  PaperDocumentSchema,
  PaperSettingsSchema,
  PaperSummarySchema,
  page,
  type PaperDocument,
  type PaperSummary,
} from '@zhzy/contracts';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';
import { createSchool } from '../src/seed/school.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

type Headers = { authorization: string };
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PaperPage = page(PaperSummarySchema);

describe.each(DIALECTS)('papers on %s', (dialect) => {
  let t: TestApp;
  let now = Date.parse('2026-11-02T08:00:00.000Z');
  let me: Headers;
  let colleague: Headers;
  let stranger: Headers;
  let singles: string[];
  let blanks: string[];
  let answers: string[];

  beforeAll(async () => {
    t = await startTestApp({ dialect, clock: () => now });
    await createSchool(t.testDb.db.kysely, {
      name: '第二中学',
      years: [{ name: '2026-2027学年', isDefault: true, classes: [] }],
      users: [{ username: 'b-teacher', password: 'Other@2026', nickname: '赵老师' }],
    });
    me = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    colleague = bearer((await signIn(t.app, 'demo-director')).access_token);
    stranger = bearer((await signIn(t.app, 'b-teacher', 'Other@2026')).access_token);
    const ofType = async (name: string) =>
      (
        await t.testDb.db.kysely
          .selectFrom('questions')
          .select('id')
          .where('type_id', '=', typeId('数学', name))
          .where('owner', '=', 'system')
          .where('deleted_at', 'is', null)
          .orderBy('id')
          .limit(8)
          .execute()
      ).map((r) => r.id);
    singles = await ofType('单选题');
    blanks = await ofType('填空题');
    answers = await ofType('解答题');
  });
  afterAll(() => t.close());

  /** Moves the clock; access tokens live 2 hours, so everyone signs in again. */
  const advance = async (ms: number) => {
    now += ms;
    me = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    colleague = bearer((await signIn(t.app, 'demo-director')).access_token);
    stranger = bearer((await signIn(t.app, 'b-teacher', 'Other@2026')).access_token);
  };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const doc = (res: { statusCode: number; body: string; json(): unknown }): PaperDocument => {
    expect(res.statusCode, res.body).toBe(200);
    return PaperDocumentSchema.parse((res.json() as { data: unknown }).data);
  };
  const summary = (res: { statusCode: number; body: string; json(): unknown }): PaperSummary => {
    expect(res.statusCode, res.body).toBe(200);
    return PaperSummarySchema.parse((res.json() as { data: unknown }).data);
  };
  const list = async (kind: string, headers: Headers, query = '') => {
    const res = await call('GET', `/teacher/paper/${kind}?size=100${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return PaperPage.parse(res.json<{ data: unknown }>().data);
  };
  const basketPaperId = async () => {
    const basket = (await call('GET', '/teacher/paper/info/getQuestionBasket', me)).json<{
      data: { paperInfo: { id: string; subjectName: string }[] };
    }>();
    return basket.data.paperInfo.find((p) => p.subjectName === '数学')!.id;
  };
  const saveBody = (d: PaperDocument, change: (body: ReturnType<typeof bodyOf>) => void = () => {}) => {
    const body = bodyOf(d);
    change(body);
    return body;
  };
  function bodyOf(d: PaperDocument) {
    return {
      version: d.version,
      title: d.title,
      subtitle: d.subtitle,
      status: d.status,
      sections: d.sections.map((s) => ({
        id: s.id,
        typeId: s.typeId,
        title: s.title,
        note: s.note,
        defaultScore: s.defaultScore,
        items: s.items.map((i) => ({ questionId: i.questionId, score: i.scoreOverride })),
      })),
    };
  }

  let paper: PaperDocument;

  it('composes a draft from the basket with sections in the basket’s type order, numbered 一、二、三', async () => {
    // Blanks first: the basket keeps the order types were added in.
    await call('POST', '/teacher/paper/info/addBasket', me, { questionIds: [blanks[0]!, blanks[1]!] });
    await call('POST', '/teacher/paper/info/addBasket', me, {
      questionIds: [singles[0]!, singles[1]!, singles[2]!],
    });
    await call('POST', '/teacher/paper/info/addBasket', me, { questionIds: [answers[0]!] });
    const basketId = await basketPaperId();
    paper = doc(await call('POST', '/teacher/paper/compose', me, { basketPaperId: basketId }));
    expect(paper.status).toBe('draft');
    expect(paper.source).toBe('basket');
    expect(paper.basketPaperId).toBe(basketId);
    expect(paper.sections.map((s) => [s.number, s.title, s.questionCount])).toEqual([
      ['一', '填空题', 2],
      ['二', '单选题', 3],
      ['三', '解答题', 1],
    ]);
    expect(paper.sections.flatMap((s) => s.items.map((i) => i.no))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(paper.sections[1]!.heading).toBe('二、单选题（本大题共 3 小题，每小题 3 分，共 9 分）');
    expect(paper.totalScore).toBe(2 * 3 + 3 * 3 + 10);
    expect(paper.questionCount).toBe(6);
    expect(paper.sections[0]!.items[0]!.question?.stem).toBeTruthy();
    expect(paper.permissions).toEqual({ edit: true, delete: true, share: true, copy: true });
    expect(paper.settings).toEqual(PaperSettingsSchema.parse({}));
  });

  it('reopens the same draft and adds only what entered the basket since', async () => {
    const basketId = await basketPaperId();
    const again = doc(await call('POST', '/teacher/paper/compose', me, { basketPaperId: basketId }));
    expect(again.id).toBe(paper.id);
    expect(again.version).toBe(paper.version);

    // Removed in /edit, then a new question put in the basket: the removal sticks, the new one arrives.
    const removed = saveBody(paper, (b) => {
      b.sections[0]!.items = b.sections[0]!.items.slice(1);
    });
    paper = doc(await call('PUT', `/teacher/paper/detail/${paper.id}`, me, removed));
    await call('POST', '/teacher/paper/info/addBasket', me, { questionIds: [singles[3]!] });
    const reopened = doc(await call('POST', '/teacher/paper/compose', me, { basketPaperId: basketId }));
    expect(reopened.id).toBe(paper.id);
    expect(reopened.sections.map((s) => s.questionCount)).toEqual([1, 4, 1]);
    expect(reopened.sections[1]!.items.at(-1)!.questionId).toBe(singles[3]);
    paper = reopened;

    const fresh = doc(
      await call('POST', '/teacher/paper/compose', me, { basketPaperId: basketId, fresh: true }),
    );
    expect(fresh.id).not.toBe(paper.id);
    expect(fresh.questionCount).toBe(7);
    expect((await call('DELETE', `/teacher/paper/detail/${fresh.id}`, me)).statusCode).toBe(200);
  });

  it('refuses a basket paper of someone else with a Chinese 404', async () => {
    const res = await call('POST', '/teacher/paper/compose', colleague, {
      basketPaperId: await basketPaperId(),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('试题篮不存在或已清空');
  });

  it('saves the whole document: order, moves, section and per-question scores, totals always right', async () => {
    const body = saveBody(paper, (b) => {
      b.title = '七年级数学第一次月考';
      b.subtitle = '（满分 100 分）';
      // Sections reordered: single choice first.
      b.sections = [b.sections[1]!, b.sections[0]!, b.sections[2]!];
      b.sections[0]!.defaultScore = 4;
      b.sections[0]!.items.reverse();
      // One question moved from single choice into the last section, with its own score.
      const moved = b.sections[0]!.items.pop()!;
      b.sections[2]!.items.push({ ...moved, score: 5.5 });
    });
    const saved = doc(await call('PUT', `/teacher/paper/detail/${paper.id}`, me, body));
    expect(saved.version).toBe(paper.version + 1);
    expect(saved.title).toBe('七年级数学第一次月考');
    expect(saved.sections.map((s) => s.title)).toEqual(['单选题', '填空题', '解答题']);
    expect(saved.sections[0]!.heading).toBe('一、单选题（本大题共 3 小题，每小题 4 分，共 12 分）');
    expect(saved.sections[2]!.heading).toBe('三、解答题（本大题共 2 小题，共 15.5 分）');
    expect(saved.sections[2]!.items[1]).toMatchObject({ score: 5.5, scoreOverride: 5.5, no: 6 });
    expect(saved.totalScore).toBe(12 + 3 + 10 + 5.5);
    const listed = (await list('mine', me)).records.find((r) => r.id === paper.id)!;
    expect(listed.totalScore).toBe(saved.totalScore);
    expect(listed.questionCount).toBe(6);

    // A retried save of the same document answers the stored paper instead of refusing it.
    const retried = doc(await call('PUT', `/teacher/paper/detail/${paper.id}`, me, body));
    expect(retried.version).toBe(saved.version);
    // A stale version with other content is refused in Chinese.
    const stale = await call('PUT', `/teacher/paper/detail/${paper.id}`, me, { ...body, title: '别的标题' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('试卷已在其他页面或设备上修改，请刷新后再保存');
    paper = saved;
  });

  it('refuses a question twice, a score with two decimals and a foreign section type, naming the problem', async () => {
    const twice = saveBody(paper, (b) => b.sections[1]!.items.push(b.sections[0]!.items[0]!));
    const res = await call('PUT', `/teacher/paper/detail/${paper.id}`, me, twice);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('同一道试题不能在试卷中出现两次');
    const score = saveBody(paper, (b) => (b.sections[0]!.defaultScore = 2.25));
    const bad = await call('PUT', `/teacher/paper/detail/${paper.id}`, me, score);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('分值最多保留一位小数');
    const foreign = saveBody(paper, (b) => (b.sections[0]!.typeId = typeId('物理', '单选题')));
    expect((await call('PUT', `/teacher/paper/detail/${paper.id}`, me, foreign)).statusCode).toBe(400);
  });

  it('adds, replaces (e.g. with a similar question) and edits inline as a personal copy', async () => {
    const added = doc(
      await call('POST', `/teacher/paper/detail/${paper.id}/questions`, me, {
        version: paper.version,
        questionIds: [singles[4]!, answers[1]!],
      }),
    );
    expect(added.sections.map((s) => s.questionCount)).toEqual([4, 1, 3]);

    const old = added.sections[0]!.items[0]!;
    const replaced = doc(
      await call('PUT', `/teacher/paper/detail/${paper.id}/replace`, me, {
        version: added.version,
        questionId: old.questionId,
        newQuestionId: singles[5]!,
      }),
    );
    expect(replaced.sections[0]!.items[0]!.questionId).toBe(singles[5]);
    expect(replaced.sections[0]!.items[0]!.no).toBe(1);

    const target = replaced.sections[0]!.items[1]!;
    const edited = doc(
      await call('PUT', `/teacher/paper/detail/${paper.id}/edit-question`, me, {
        version: replaced.version,
        questionId: target.questionId,
        stem: '<p>改编：\\(2+3=\\)（　　）<script>alert(1)</script></p>',
        options: [
          { label: 'A', content: '4' },
          { label: 'B', content: '5' },
          { label: 'C', content: '6' },
          { label: 'D', content: '7' },
        ],
        answer: 'B',
        analysis: '<p onclick="x()">直接计算。</p>',
      }),
    );
    const copy = edited.sections[0]!.items[1]!;
    expect(copy.questionId).not.toBe(target.questionId);
    expect(copy.question).toMatchObject({ owner: 'personal', answer: 'B', analysis: '<p>直接计算。</p>' });
    expect(copy.question!.stem).not.toContain('script');
    expect(copy.question!.knowledgePoints).toEqual(target.question!.knowledgePoints);
    const original = await t.testDb.db.kysely
      .selectFrom('questions')
      .select(['stem', 'owner'])
      .where('id', '=', target.questionId)
      .executeTakeFirstOrThrow();
    expect(original.owner).toBe('system');
    expect(original.stem).not.toContain('改编');
    // A stale inline edit creates nothing.
    const stale = await call('PUT', `/teacher/paper/detail/${paper.id}/edit-question`, me, {
      version: replaced.version,
      questionId: copy.questionId,
      stem: '<p>再改</p>',
    });
    expect(stale.statusCode).toBe(409);
    paper = edited;
  });

  it('keeps paper settings with defaults, validates them in Chinese and saves them apart from the document', async () => {
    const got = await call('GET', `/teacher/paper/settings/${paper.id}`, me);
    expect(got.json().data).toEqual(PaperSettingsSchema.parse({}));
    const settings = PaperSettingsSchema.parse({
      paperSize: 'A3',
      margins: { left: 30 },
      header: { school: '演示学校', examMinutes: 90, showNotice: true },
      sealingLine: true,
      answers: 'end',
      numbering: 'perSection',
      fontSize: 12,
    });
    const saved = await call('PUT', `/teacher/paper/settings/${paper.id}`, me, settings);
    expect(saved.statusCode, saved.body).toBe(200);
    const reread = doc(await call('GET', `/teacher/paper/detail/${paper.id}`, me));
    expect(reread.settings).toEqual(settings);
    expect(reread.version).toBe(paper.version);
    expect(reread.sections[1]!.items[0]!.no).toBe(1);
    const bad = await call('PUT', `/teacher/paper/settings/${paper.id}`, me, {
      ...settings,
      margins: { top: 2 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('页边距不能小于5毫米');
    await call('PUT', `/teacher/paper/settings/${paper.id}`, me, PaperSettingsSchema.parse({}));
  });

  it('lists my papers with search, filters and paging', async () => {
    const final = doc(
      await call(
        'PUT',
        `/teacher/paper/detail/${paper.id}`,
        me,
        saveBody(paper, (b) => (b.status = 'final')),
      ),
    );
    paper = final;
    // 02:00 the next night in Beijing (18:00 UTC): date filters are the school's days, not UTC's.
    await advance(DAY + 10 * HOUR);
    const blank = doc(
      await call('POST', '/teacher/paper/create', me, {
        subjectId: SUBJECT_IDS.数学,
        title: '期中复习 空白卷',
      }),
    );
    expect(blank.sections).toEqual([]);
    const mine = await list('mine', me);
    expect(mine.records.map((r) => r.id).slice(0, 2)).toEqual([blank.id, paper.id]);
    expect(
      (await list('mine', me, `&keyword=${encodeURIComponent('月考')}`)).records.map((r) => r.id),
    ).toEqual([paper.id]);
    expect((await list('mine', me, '&status=final')).records.map((r) => r.id)).toEqual([paper.id]);
    expect((await list('mine', me, `&subjectId=${SUBJECT_IDS.物理}`)).total).toBe(0);
    expect(dayInZone(now)).toBe('2026-11-04');
    expect((await list('mine', me, '&from=2026-11-04')).records.map((r) => r.id)).toEqual([blank.id]);
    expect((await list('mine', me, '&to=2026-11-03')).records.map((r) => r.id)).toEqual([paper.id]);
    await advance(-10 * HOUR); // back to the afternoon the later tests count their days from
    const first = await call('GET', '/teacher/paper/mine?size=1&page=2', me);
    expect(PaperPage.parse(first.json().data)).toMatchObject({ total: 2, page: 2, size: 1 });
    expect((await call('GET', '/teacher/paper/mine?from=yesterday', me)).json().message).toContain(
      '日期格式应为 年-月-日（如 2026-09-01）',
    );
    const renamed = summary(
      await call('PUT', `/teacher/paper/rename/${blank.id}`, me, { title: '期中复习卷' }),
    );
    expect(renamed.title).toBe('期中复习卷');
    const empty = await call('PUT', `/teacher/paper/rename/${blank.id}`, me, { title: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('请输入试卷标题');
  });

  it('keeps an unshared paper to its owner: 403 for a colleague, 404 for another school', async () => {
    for (const [headers, status] of [
      [colleague, 403],
      [stranger, 404],
    ] as const) {
      const res = await call('GET', `/teacher/paper/detail/${paper.id}`, headers);
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(
        status === 403 ? '这是其他老师的个人试卷，您暂无查看权限' : '试卷不存在或已删除',
      );
    }
    expect((await list('mine', colleague)).total).toBe(0);
  });

  it('refuses every call on a paper of another school with 404 and changes nothing', async () => {
    const id = paper.id;
    const attempts = [
      call('GET', `/teacher/paper/detail/${id}`, stranger),
      call('PUT', `/teacher/paper/detail/${id}`, stranger, bodyOf(paper)),
      call('POST', `/teacher/paper/detail/${id}/questions`, stranger, {
        version: paper.version,
        questionIds: [singles[6]!],
      }),
      call('PUT', `/teacher/paper/detail/${id}/replace`, stranger, {
        version: paper.version,
        questionId: paper.sections[0]!.items[0]!.questionId,
        newQuestionId: singles[6]!,
      }),
      call('PUT', `/teacher/paper/detail/${id}/edit-question`, stranger, {
        version: paper.version,
        questionId: paper.sections[0]!.items[0]!.questionId,
        stem: '<p>x</p>',
      }),
      call('GET', `/teacher/paper/settings/${id}`, stranger),
      call('PUT', `/teacher/paper/settings/${id}`, stranger, PaperSettingsSchema.parse({})),
      call('PUT', `/teacher/paper/rename/${id}`, stranger, { title: '偷改' }),
      call('POST', `/teacher/paper/copy/${id}`, stranger),
      call('PUT', `/teacher/paper/share/${id}`, stranger, { shared: true }),
      call('DELETE', `/teacher/paper/detail/${id}`, stranger),
      call('PUT', `/teacher/paper/recycle/${id}/restore`, stranger),
      call('DELETE', `/teacher/paper/recycle/${id}`, stranger),
      call('POST', `/teacher/paper/export/${id}`, stranger, { copy: 'teacher' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe('试卷不存在或已删除');
    }
    const after = doc(await call('GET', `/teacher/paper/detail/${id}`, me));
    expect(after.version).toBe(paper.version);
    expect(after.title).toBe(paper.title);
  });

  it('shares a paper with the school: colleagues read and copy it, but cannot change it; other schools never see it', async () => {
    const shared = summary(await call('PUT', `/teacher/paper/share/${paper.id}`, me, { shared: true }));
    expect(shared.shared).toBe(true);
    const theirs = await list('school', colleague);
    expect(theirs.records.map((r) => r.id)).toEqual([paper.id]);
    expect(theirs.records[0]).toMatchObject({
      mine: false,
      ownerName: '王老师',
      permissions: { edit: false, copy: true },
    });
    expect((await list('school', stranger)).total).toBe(0);
    doc(await call('GET', `/teacher/paper/detail/${paper.id}`, colleague));
    const edit = await call('PUT', `/teacher/paper/detail/${paper.id}`, colleague, bodyOf(paper));
    expect(edit.statusCode).toBe(403);
    expect(edit.json().message).toBe('只能修改自己的试卷，请先复制到我的试卷再编辑');
    for (const res of [
      await call('DELETE', `/teacher/paper/detail/${paper.id}`, colleague),
      await call('PUT', `/teacher/paper/share/${paper.id}`, colleague, { shared: false }),
      await call('PUT', `/teacher/paper/settings/${paper.id}`, colleague, PaperSettingsSchema.parse({})),
    ]) {
      expect(res.statusCode).toBe(403);
    }
    const copy = summary(await call('POST', `/teacher/paper/copy/${paper.id}`, colleague));
    expect(copy).toMatchObject({
      title: '七年级数学第一次月考（副本）',
      mine: true,
      status: 'draft',
      shared: false,
    });
    expect(copy.totalScore).toBe(paper.totalScore);
    expect((await list('mine', colleague)).records.map((r) => r.id)).toEqual([copy.id]);

    // Shared as a school template: it joins the template papers of this school only.
    summary(await call('PUT', `/teacher/paper/share/${paper.id}`, me, { shared: true, asTemplate: true }));
    expect((await list('template', colleague)).records.map((r) => r.id)).toContain(paper.id);
    expect((await list('template', stranger)).records.map((r) => r.id)).not.toContain(paper.id);
  });

  it('offers the shipped 七年级数学 template papers to every school, to preview and copy', async () => {
    for (const headers of [me, stranger]) {
      const templates = await list('template', headers, `&subjectId=${SUBJECT_IDS.数学}`);
      const shipped = templates.records.filter((r) => r.owner === 'system');
      expect(shipped.map((r) => r.id).sort()).toEqual(['gp-m7a-midterm', 'gp-m7a-unit-1-2', 'gp-m7b-final']);
      expect(shipped.every((r) => r.questionCount >= 10 && r.permissions.edit === false)).toBe(true);
    }
    const preview = doc(await call('GET', '/teacher/paper/detail/gp-m7a-midterm', stranger));
    expect(preview.sections[0]!.title).toBe('单选题');
    expect(preview.sections.every((s) => s.items.every((i) => i.question !== null))).toBe(true);
    const copy = summary(await call('POST', '/teacher/paper/copy/gp-m7a-midterm', stranger));
    expect(copy).toMatchObject({
      title: preview.title,
      source: 'template',
      mine: true,
      questionCount: preview.questionCount,
    });
    const edit = await call('PUT', '/teacher/paper/detail/gp-m7a-midterm', stranger, bodyOf(preview));
    expect(edit.statusCode).toBe(403);
  });

  it('moves a paper to the recycle bin, restores it, deletes it for ever, and purges after 30 days', async () => {
    const a = doc(
      await call('POST', '/teacher/paper/create', me, { subjectId: SUBJECT_IDS.数学, title: '回收站测试甲' }),
    );
    const b = doc(
      await call('POST', '/teacher/paper/create', me, { subjectId: SUBJECT_IDS.数学, title: '回收站测试乙' }),
    );
    expect((await call('DELETE', `/teacher/paper/detail/${a.id}`, me)).statusCode).toBe(200);
    expect((await list('mine', me)).records.map((r) => r.id)).not.toContain(a.id);
    const bin = await list('recycle', me);
    expect(bin.records[0]).toMatchObject({ id: a.id, purgeInDays: 30 });
    expect(bin.records.map((r) => r.id)).not.toContain(b.id);
    expect((await list('recycle', colleague)).total).toBe(0);
    // In the bin: readable by the owner only, not editable until restored.
    expect((await call('GET', `/teacher/paper/detail/${a.id}`, me)).statusCode).toBe(200);
    const locked = await call('PUT', `/teacher/paper/rename/${a.id}`, me, { title: '改名' });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe('试卷在回收站中，请先还原');
    const notInBin = await call('DELETE', `/teacher/paper/recycle/${b.id}`, me);
    expect(notInBin.statusCode).toBe(409);
    expect(notInBin.json().message).toBe('只能彻底删除回收站中的试卷');

    const restored = summary(await call('PUT', `/teacher/paper/recycle/${a.id}/restore`, me));
    expect(restored.deletedAt).toBeNull();
    expect((await list('mine', me)).records.map((r) => r.id)).toContain(a.id);

    await call('DELETE', `/teacher/paper/detail/${a.id}`, me);
    expect((await call('DELETE', `/teacher/paper/recycle/${a.id}`, me)).statusCode).toBe(200);
    expect((await call('GET', `/teacher/paper/detail/${a.id}`, me)).statusCode).toBe(404);

    await call('DELETE', `/teacher/paper/detail/${b.id}`, me);
    await advance(29 * DAY);
    expect(await t.app.paperMaintenance.purgeExpired()).toBe(0);
    expect((await list('recycle', me)).records.find((r) => r.id === b.id)?.purgeInDays).toBe(1);
    await advance(DAY + 1000);
    // Past 30 days it is gone from the bin at once, and the purge removes it for good.
    expect((await list('recycle', me)).records.map((r) => r.id)).not.toContain(b.id);
    expect(await t.app.paperMaintenance.purgeExpired()).toBeGreaterThanOrEqual(1);
    const row = await t.testDb.db.kysely
      .selectFrom('papers')
      .select('id')
      .where('id', '=', b.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    expect(
      await t.testDb.db.kysely.selectFrom('paper_items').select('id').where('paper_id', '=', b.id).execute(),
    ).toEqual([]);
  });

  it('validates every body with the contracts and answers 401 without a token', async () => {
    const res = await call('POST', '/teacher/paper/compose', me, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('basketPaperId');
    const anon = await t.app.inject({ method: 'GET', url: '/teacher/paper/mine' });
    expect(anon.statusCode).toBe(401);
  });
  it('names a new paper with the day of the school’s own time zone (Asia/Shanghai unless it sets another)', async () => {
    // 2026-11-02T08:00Z and after: still 11-02 in Shanghai; in Pago Pago (UTC−11) it is the day before.
    const day = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(now));
    await call('POST', '/teacher/paper/info/addBasket', me, { questionIds: [singles[5]!] });
    const basketId = await basketPaperId();
    const shanghai = doc(
      await call('POST', '/teacher/paper/compose', me, { basketPaperId: basketId, fresh: true }),
    );
    expect(shanghai.title).toContain(`（${day('Asia/Shanghai')}）`);
    const admin = bearer((await signIn(t.app, 'demo-admin')).access_token);
    const set = await call('PUT', '/school/org', admin, { timeZone: 'Pacific/Pago_Pago' });
    expect(set.statusCode, set.body).toBe(200);
    const pago = doc(
      await call('POST', '/teacher/paper/compose', me, { basketPaperId: basketId, fresh: true }),
    );
    expect(pago.title).toContain(`（${day('Pacific/Pago_Pago')}）`);
    expect(day('Pacific/Pago_Pago')).not.toBe(day('Asia/Shanghai'));
    await call('PUT', '/school/org', admin, { timeZone: 'Asia/Shanghai' });
  });
});
