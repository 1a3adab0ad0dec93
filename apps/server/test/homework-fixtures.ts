import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  HomeworkDetailSchema,
  PaperDocumentSchema,
  type HomeworkDetail,
  type PaperDocument,
} from '@zhzy/contracts';
import type { DialectName } from '../src/db/connect.js';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';
import { createSchool } from '../src/seed/school.js';
import { bearer, signIn, startTestApp, type TestApp, type TestAppOptions } from './helpers/index.js';

// A host with two schools for the homework and card tests: 演示学校 (demo accounts, six classes of 40 in the default
// school year) and 第二中学 (one class, one teacher), plus questions of known shape in 演示学校's bank.

export type Headers = { authorization: string };
type Res = LightMyRequestResponse;

export const OTHER_PASSWORD = 'Other@2026';

/** Questions of 演示学校 whose card shape is known: option counts, blank runs. */
export const Q = {
  single3: 'hw-single-3',
  single4: 'hw-single-4',
  multi5: 'hw-multi-5',
  truefalse: 'hw-truefalse',
  blank3: 'hw-blank-3',
  blank0: 'hw-blank-0',
  written: 'hw-written',
} as const;

export interface World {
  t: TestApp;
  me: Headers;
  colleague: Headers;
  admin: Headers;
  stranger: Headers;
  orgA: string;
  orgB: string;
  /** 演示学校's default school year and its classes (七年级(1)班 first). */
  yearA: string;
  classesA: { id: string; name: string }[];
  /** A class of 演示学校's previous school year. */
  pastClassA: string;
  classB: string;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Headers,
    payload?: object,
  ): Promise<Res>;
  /** A final paper of the caller with one section per kind of question. */
  createPaper(headers: Headers, title?: string): Promise<PaperDocument>;
  publish(headers: Headers, body: Record<string, unknown>): Promise<HomeworkDetail>;
  close(): Promise<void>;
}

export function data<T = unknown>(res: Res): T {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: T }>().data;
}

const options = (n: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({ label: 'ABCDEFG'[i]!, content: `<p>选项${i + 1}</p>` })),
  );

export async function homeworkWorld(
  dialect: DialectName,
  clock: () => number = () => Date.parse('2026-11-02T08:00:00.000Z'),
  env?: Record<string, string>,
  host: Pick<TestAppOptions, 'jobs'> = {},
): Promise<World> {
  const t = await startTestApp({ dialect, clock, ...(env ? { env } : {}), ...host });
  const db = t.testDb.db.kysely;
  const other = await createSchool(db, {
    name: '第二中学',
    years: [
      {
        name: '2026-2027学年',
        isDefault: true,
        classes: [
          { name: '七年级(1)班', students: [{ name: '周一鸣', studentNo: '30000001', gender: '男' }] },
        ],
      },
    ],
    users: [{ username: 'b-teacher', password: OTHER_PASSWORD, nickname: '赵老师' }],
  });
  const me = bearer((await signIn(t.app, 'demo-teacher')).access_token);
  const colleague = bearer((await signIn(t.app, 'demo-director')).access_token);
  const admin = bearer((await signIn(t.app, 'demo-admin')).access_token);
  const stranger = bearer((await signIn(t.app, 'b-teacher', OTHER_PASSWORD)).access_token);

  const call: World['call'] = (method, url, headers, payload) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  const info = data<{ gradeInfo: { orgDefaultId: string } }>(await call('GET', '/system/user/info', me));
  const orgA = info.gradeInfo.orgDefaultId;
  const years = data<{ id: string; name: string; isDefault: boolean }[]>(
    await call('GET', `/system/class?orgId=${orgA}&type=1`, me),
  );
  const yearA = years.find((y) => y.isDefault)!.id;
  const pastYear = years.find((y) => !y.isDefault)!.id;
  const classesA = data<{ id: string; name: string }[]>(
    await call('GET', `/system/class?orgId=${orgA}&type=2&pid=${yearA}`, me),
  );
  const now = new Date(clock()).toISOString();
  const pastClassA = 'hw-past-class';
  await db
    .insertInto('classes')
    .values({
      id: pastClassA,
      org_id: orgA,
      year_id: pastYear,
      stage_id: 'stage-junior',
      name: '七年级(9)班',
      sort: 9,
      created_at: now,
    })
    .execute();

  const question = (id: string, type: string, stem: string, opts: string, answer: string) => ({
    id,
    subject_id: SUBJECT_IDS.数学,
    type_id: typeId('数学', type),
    owner: 'school',
    org_id: orgA,
    owner_user_id: null,
    difficulty: 3,
    stem,
    options: opts,
    answer,
    analysis: '<p>略</p>',
    year: 2026,
    source: '校本',
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  await db
    .insertInto('questions')
    .values([
      question(Q.single3, '单选题', '<p>\\(2+3=\\)（　　）</p>', options(3), 'B'),
      question(Q.single4, '单选题', '<p>下列各数中最小的是（　　）</p>', options(4), 'A'),
      question(Q.multi5, '多选题', '<p>下列说法正确的有（　　）</p>', options(5), 'ACE'),
      question(Q.truefalse, '判断题', '<p>0 是最小的有理数。</p>', '[]', '错误'),
      question(
        Q.blank3,
        '填空题',
        '<p>\\(-3\\) 的相反数是＿＿＿＿，倒数是＿＿＿＿，绝对值是＿＿＿＿。</p>',
        '[]',
        '3；\\(-\\frac13\\)；3',
      ),
      question(Q.blank0, '填空题', '<p>写出一个比 \\(-1\\) 小的整数。</p>', '[]', '\\(-2\\)'),
      question(Q.written, '解答题', '<p>计算：\\((-2)^3 + 4 \\times 3\\)。</p>', '[]', '<p>4</p>'),
    ])
    .execute();

  const createPaper: World['createPaper'] = async (headers, title = '七年级数学第一单元测验') => {
    const created = PaperDocumentSchema.parse(
      data(await call('POST', '/teacher/paper/create', headers, { subjectId: SUBJECT_IDS.数学, title })),
    );
    const section = (type: string, score: number, ids: string[]) => ({
      typeId: typeId('数学', type),
      title: type,
      note: '',
      defaultScore: score,
      items: ids.map((questionId) => ({ questionId })),
    });
    return PaperDocumentSchema.parse(
      data(
        await call('PUT', `/teacher/paper/detail/${created.id}`, headers, {
          version: created.version,
          title,
          subtitle: '考试时间 45 分钟 · 满分 40 分',
          status: 'final',
          sections: [
            section('单选题', 3, [Q.single3, Q.single4]),
            section('多选题', 4, [Q.multi5]),
            section('判断题', 2, [Q.truefalse]),
            section('填空题', 3, [Q.blank3, Q.blank0]),
            { ...section('解答题', 10, [Q.written]), items: [{ questionId: Q.written, score: 12 }] },
          ],
        }),
      ),
    );
  };

  const publish: World['publish'] = async (headers, body) =>
    HomeworkDetailSchema.parse(data(await call('POST', '/teacher/homework/publish', headers, body)));

  return {
    t,
    me,
    colleague,
    admin,
    stranger,
    orgA,
    orgB: other.orgId,
    yearA,
    classesA,
    pastClassA,
    classB: other.classIds[0]!,
    call,
    createPaper,
    publish,
    close: () => t.close(),
  };
}
