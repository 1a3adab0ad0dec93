import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaperDocumentSchema } from '@zhzy/contracts';
import { PAPER_TEMPLATES } from '../src/modules/papers/templates.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

// The shipped template papers as a school gets them (the full system bank, SEED_CHECKED_BANK on): each is out of
// 100 分 and has every question its specification asks for, so a teacher never meets a 98-point 单元测试卷.
describe.each(DIALECTS)('the shipped template papers on %s', (dialect) => {
  let t: TestApp;
  let teacher: { authorization: string };

  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { SEED_CHECKED_BANK: 'true' } });
    teacher = bearer((await signIn(t.app, 'demo-teacher')).access_token);
  }, 240_000);
  afterAll(() => t?.close());

  it.each(PAPER_TEMPLATES.map((spec) => [spec.title, spec] as const))(
    '%s is out of 100 with every question it asks for',
    async (_title, spec) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/teacher/paper/detail/${spec.id}`,
        headers: teacher,
      });
      expect(res.statusCode, res.body).toBe(200);
      const paper = PaperDocumentSchema.parse(res.json<{ data: unknown }>().data);
      expect(paper.totalScore).toBe(100);
      expect(paper.sections.map((s) => [s.title, s.items.length, s.defaultScore])).toEqual(
        spec.types.map((type) => [type.name, type.count, type.score]),
      );
    },
  );
});
