import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaperSettingDefaultsSchema, PaperSettingsSchema } from '@zhzy/contracts';
import { DIALECTS } from './helpers/index.js';
import { Q, data, homeworkWorld, type World } from './homework-fixtures.js';

// A teacher's default paper settings live on the host (they follow the teacher to any browser) and every new
// paper starts with them; publishing counts a use of each question.

describe.each(DIALECTS)('paper setting defaults and question use on %s', (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await homeworkWorld(dialect);
  });
  afterAll(() => w.close());

  const defaults = async (headers = w.me) =>
    PaperSettingDefaultsSchema.parse(data(await w.call('GET', '/teacher/paper/setting-defaults', headers)));

  it('answers the standard settings until the teacher saves their own', async () => {
    expect(await defaults()).toEqual({ settings: PaperSettingsSchema.parse({}), saved: false });
  });

  it('saves defaults for the caller only, and a new paper starts with them', async () => {
    const mine = PaperSettingsSchema.parse({ paperSize: 'A3', sealingLine: true, scoreTable: true });
    const saved = PaperSettingDefaultsSchema.parse(
      data(await w.call('PUT', '/teacher/paper/setting-defaults', w.me, mine)),
    );
    expect(saved).toEqual({ settings: mine, saved: true });
    expect(await defaults()).toEqual({ settings: mine, saved: true });
    expect((await defaults(w.colleague)).saved).toBe(false);

    const paper = await w.createPaper(w.me, '默认设置试卷');
    expect(paper.settings).toEqual(mine);
    const colleagues = await w.createPaper(w.colleague, '同事的试卷');
    expect(colleagues.settings).toEqual(PaperSettingsSchema.parse({}));
  });

  it('refuses settings that break the rules, with a Chinese message, and keeps the saved ones', async () => {
    const res = await w.call('PUT', '/teacher/paper/setting-defaults', w.me, { paperSize: 'A5' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/[\u4e00-\u9fff]/);
    expect((await defaults()).settings.paperSize).toBe('A3');
  });

  it('resets to the standard settings', async () => {
    const reset = PaperSettingDefaultsSchema.parse(
      data(await w.call('DELETE', '/teacher/paper/setting-defaults', w.me)),
    );
    expect(reset.saved).toBe(false);
    const paper = await w.createPaper(w.me, '标准设置试卷');
    expect(paper.settings).toEqual(PaperSettingsSchema.parse({}));
  });

  it('counts one use of every question of a paper each time it is published', async () => {
    const db = w.t.testDb.db.kysely;
    const usage = async () =>
      Number(
        (
          await db
            .selectFrom('questions')
            .select('usage_count')
            .where('id', '=', Q.single3)
            .executeTakeFirstOrThrow()
        ).usage_count,
      );
    const before = await usage();
    const paper = await w.createPaper(w.me, '使用次数试卷');
    const body = {
      paperId: paper.id,
      title: '使用次数',
      classIds: [w.classesA[0]!.id],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    };
    await w.publish(w.me, body);
    await w.publish(w.me, { ...body, title: '使用次数（二）' });
    expect(await usage()).toBe(before + 2);
  });
});
