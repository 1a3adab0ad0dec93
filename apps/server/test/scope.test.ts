import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, calls } from '@zhzy/contracts';
import { hashPassword } from '../src/lib/passwords.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import { as, call, type Headers } from './school-fixtures.js';

// School scoping is one rule (lib/scope.ts, ADR 0052): whatever school-scoped call a caller without a school makes,
// they are refused with the same sentence.
describe.each(DIALECTS)('a caller without a school (%s)', (dialect) => {
  let t: TestApp;
  let loner: Headers;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const now = new Date().toISOString();
    await t.testDb.db.kysely
      .insertInto('users')
      .values({
        id: 'user-loner',
        username: 'loner',
        password_hash: await hashPassword('Loner2026'),
        nickname: '周老师',
        created_at: now,
        updated_at: now,
      })
      .execute();
    loner = await as(t, 'loner', 'Loner2026');
  });
  afterAll(() => t.close());

  it('is refused every school-scoped call with 403 「您尚未加入任何学校」', async () => {
    const urls = [
      calls.getQuestionBasket.path,
      `${calls.questionFilters.path}?subjectId=x`,
      calls.homeworkList.path,
      calls.listScanBatches.path,
      calls.markTasks.path,
      `${calls.listRecognitionExceptions.path}?batchId=x`,
    ];
    const answers = [];
    for (const url of urls) {
      const res = await call(t, 'GET', url, loner);
      answers.push([url, res.status, res.body.message]);
    }
    expect(answers).toEqual(urls.map((url) => [url, 403, MESSAGES.noSchool]));
  });
});
