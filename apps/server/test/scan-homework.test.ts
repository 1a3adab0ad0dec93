import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedScanBatchSchema, SCAN_MESSAGES, ScanBatchInfoSchema } from '@zhzy/contracts';
import { z } from 'zod';
import { DIALECTS } from './helpers/index.js';
import { data, homeworkWorld, type World } from './homework-fixtures.js';

/** A scan started from a homework's 「扫描」 button is bound to it; /scan opened for it lists only its batches. */
describe.each(DIALECTS)('scan batches bound to a homework on %s', (dialect) => {
  let w: World;
  let first = '';
  let second = '';

  beforeAll(async () => {
    w = await homeworkWorld(dialect);
    const paper = await w.createPaper(w.me);
    const publish = (title: string) =>
      w.publish(w.me, {
        paperId: paper.id,
        type: 'homework',
        title,
        classIds: [w.classesA[0]!.id],
        startDate: '2026-11-02',
        dueDate: '2026-11-09',
      });
    first = (await publish('一元一次方程 课后作业')).id;
    second = (await publish('有理数 单元测验')).id;
  }, 120_000);

  afterAll(async () => {
    await w?.close();
  });

  const create = async (body: object) =>
    CreatedScanBatchSchema.parse(data(await w.call('POST', '/teacher/scan/batch', w.me, body))).batch;
  const list = async (query = '') =>
    z.array(ScanBatchInfoSchema).parse(data(await w.call('GET', `/teacher/scan/batch${query}`, w.me)));

  it('binds a batch to its homework and lists only that homework’s batches when asked', async () => {
    const a1 = await create({ schoolYearId: w.yearA, homeworkId: first });
    const b1 = await create({ schoolYearId: w.yearA, homeworkId: second });
    const loose = await create({ schoolYearId: w.yearA });
    expect(a1.homeworkId).toBe(first);
    expect(loose.homeworkId).toBeNull();

    const ofFirst = await list(`?homeworkId=${first}`);
    expect(ofFirst.map((b) => b.id)).toEqual([a1.id]);
    expect((await list(`?homeworkId=${second}`)).map((b) => b.id)).toEqual([b1.id]);
    const all = (await list()).map((b) => b.id);
    expect(all).toEqual(expect.arrayContaining([a1.id, b1.id, loose.id]));
    const one = ScanBatchInfoSchema.parse(data(await w.call('GET', `/teacher/scan/batch/${a1.id}`, w.me)));
    expect(one.homeworkId).toBe(first);
  });

  it('refuses to bind a batch to a homework of another school or one that does not exist', async () => {
    const res = await w.call('POST', '/teacher/scan/batch', w.stranger, { homeworkId: first });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toBe(SCAN_MESSAGES.homeworkNotFound);
    const missing = await w.call('POST', '/teacher/scan/batch', w.me, { homeworkId: 'no-such-homework' });
    expect(missing.statusCode).toBe(404);
  });
});
