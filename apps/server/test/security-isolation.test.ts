import fc from 'fast-check';
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, type Basket, type CallDef } from '@zhzy/contracts';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';
import { arbitraryOf } from './helpers/zod-arbitrary.js';
import { call, dataOf, demoSchool, fileForm, secondSchool, type DemoSchool } from './school-fixtures.js';

// School isolation for every call of the contracts (issue #12, ADR 0027). 演示学校 (A) is filled through its own
// calls and the demo seeds (papers, homework with scanned sheets and results, questions, classes, students, groups,
// invitations, feedback, materials, a basket, a scan batch); then 第二中学 (B) is created. B's teacher makes every
// signed-in call with A's ids: path parameters take a row of A of the kind the path names, query and body fields
// named like ids take A's ids. No answer may carry any of A's names, titles or texts; a call on a row of A answers
// 403 or 404 (a request refused earlier for its shape answers 400), and at least one request per such call gets
// past validation to that refusal. A new call is covered by itself; a path parameter of a kind not listed in
// TABLE_OF_PARAM fails the test until it is added.

const SEED = 20_261_121;
const SAMPLES = 12;

/** Which table a path parameter's id comes from, by the path it is in. */
const TABLE_OF_PARAM: [RegExp, string, string][] = [
  [/./, 'sheetId', 'sheets'],
  [/./, 'studentId', 'students'],
  [/./, 'homeworkId', 'homework'],
  [/./, 'questionId', 'questions'],
  [/^\/teacher\/paper\/info\/:id\/clearBasket$/, 'id', 'basket_papers'],
  [/^\/teacher\/paper\/question\/type\/delQuestion\//, 'id', 'basket_sections'],
  [/^\/(teacher|school)\/question\//, 'id', 'questions'],
  [/^\/teacher\/scan\/batch\//, 'id', 'scan_batches'],
  [/^\/teacher\/scan\/page\//, 'id', 'scan_pages'],
  [/^\/teacher\/homework\/paper-card\//, 'id', 'papers'],
  [/^\/teacher\/paper\//, 'id', 'papers'],
  [/^\/teacher\/homework\//, 'id', 'homework'],
  [/^\/teacher\/paper-scores\//, 'id', 'paper_scores'],
  [/^\/teacher\/recognition\/batch\//, 'id', 'scan_batches'],
  [/^\/teacher\/recognition\/exception\//, 'id', 'recognition_exceptions'],
  [/^\/teacher\/recognition\/homework\//, 'id', 'homework'],
  [/^\/teacher\/recognition\/sheet\//, 'id', 'sheets'],
  [/^\/teacher\/mark\/homework\//, 'id', 'homework'],
  [/^\/teacher\/mark\/block\//, 'id', 'mark_blocks'],
  [/^\/teacher\/analysis\//, 'id', 'homework'],
  [/^\/school\/feedback\//, 'id', 'feedback'],
  [/^\/school\/year\//, 'id', 'school_years'],
  [/^\/school\/class\//, 'id', 'classes'],
  [/^\/school\/student\//, 'id', 'students'],
  [/^\/school\/team\/member\//, 'id', 'memberships'],
  [/^\/school\/team\/group\//, 'id', 'teaching_groups'],
  [/^\/school\/invite\//, 'id', 'invitations'],
  [/^\/school\/materials\/folders\//, 'id', 'material_folders'],
  [/^\/school\/materials\//, 'id', 'materials'],
];

/** Tables every school shares (the catalogue): their ids are nobody's secret. */
const SHARED_TABLES = new Set([
  'stages',
  'subjects',
  'textbooks',
  'booknodes',
  'knowledge_points',
  'question_types',
  'meta',
]);

const ALL = Object.values(calls as Record<string, CallDef>).filter((c) => c.auth === 'bearer');

function tableOf(c: CallDef, param: string): string | undefined {
  return TABLE_OF_PARAM.find(([path, name]) => name === param && path.test(c.path))?.[2];
}

function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value) ?? '';
}

function queryString(query: unknown): string {
  if (typeof query !== 'object' || query === null) return '';
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v) search.append(k, toText(item));
    else if (v !== undefined) search.set(k, toText(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

describe.each(DIALECTS)('two schools: every call of B with the ids of A on %s', (dialect) => {
  let t: TestApp;
  let a: DemoSchool;
  let bTeacher: Record<string, string>;
  const rowsOfA = new Map<string, string[]>();
  let idsOfA: string[] = [];
  let markers: string[] = [];
  const tally = { calls: 0, requests: 0, refusedOnRows: 0 };
  const png = sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
    .png()
    .toBuffer();

  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { SEED_DEMO_SCANS: 'true', SEED_DEMO_RESULTS: 'true' } });
    a = await demoSchool(t);
    const db = t.testDb.db.kysely;

    // Rows of A that the seeds do not make: a personal question, a basket, a scan batch, feedback, an invitation,
    // a shared material link, and the marking blocks of the scanned demo homework.
    const question = dataOf<{ id: string }>(
      await call(t, 'POST', '/teacher/question/personal', a.teacher, {
        subjectId: SUBJECT_IDS.数学,
        typeId: typeId('数学', '单选题'),
        difficulty: 3,
        stem: '<p>甲校机密题干：小明有几个苹果？</p>',
        options: [
          { label: 'A', content: '甲校选项一' },
          { label: 'B', content: '甲校选项二' },
        ],
        answer: 'A',
        analysis: '<p>甲校机密解析</p>',
      }),
    );
    await call(t, 'POST', '/teacher/paper/info/addBasket', a.teacher, { questionIds: [question.id] });
    const basket = dataOf<Basket>(await call(t, 'GET', '/teacher/paper/info/getQuestionBasket', a.teacher));
    expect(basket.sumCount).toBe(1);
    dataOf(await call(t, 'POST', '/teacher/scan/batch', a.teacher, {}));
    const batch = await db
      .selectFrom('scan_batches')
      .select('id')
      .where('org_id', '=', a.orgId)
      .executeTakeFirstOrThrow();
    // A scanned page of that batch and a recognition exception on it, written as recognition would.
    const now = new Date().toISOString();
    const teacherId = (
      await db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'demo-teacher')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('scan_pages')
      .values({
        id: 'a-scan-page',
        org_id: a.orgId,
        batch_id: batch.id,
        seq: 1,
        name: '甲校扫描页.png',
        content_hash: 'a'.repeat(64),
        format: 'png',
        file_path: 'pages/a-scan-page.png',
        size: 1,
        width: 64,
        height: 64,
        dpi: 200,
        side: null,
        source: 'upload',
        status: 'received',
        created_by: teacherId,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('recognition_exceptions')
      .values({
        id: 'a-recognition-exception',
        org_id: a.orgId,
        batch_id: batch.id,
        page_id: 'a-scan-page',
        homework_id: null,
        sheet_id: null,
        student_id: null,
        page_no: 1,
        code: 'no_card',
        message: '甲校机密异常：未识别到答题卡',
        question_ids: '[]',
        resolution: null,
        resolved_by: null,
        resolved_at: null,
        created_at: now,
      })
      .execute();
    // A score box read on one of A's scanned sheets (纸上批阅), written as its service would.
    const answer = await db
      .selectFrom('sheet_answers as sa')
      .innerJoin('sheets as s', 's.id', 'sa.sheet_id')
      .select(['s.id as sheet_id', 's.homework_id', 's.student_id', 'sa.question_id'])
      .where('s.org_id', '=', a.orgId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('paper_scores')
      .values({
        id: 'a-paper-score',
        org_id: a.orgId,
        homework_id: answer.homework_id,
        sheet_id: answer.sheet_id,
        student_id: answer.student_id,
        question_id: answer.question_id,
        page_id: 'a-scan-page',
        state: 'doubtful',
        read_tenths: null,
        reason: 'multipleTicks',
        colour: 1,
        crop_path: null,
        exception_id: null,
        resolved_by: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await call(t, 'POST', '/system/account/feedback', a.teacher, { type: '其他', content: '甲校机密反馈' });
    await call(t, 'POST', '/school/invite', a.admin, {});
    const material = await db.selectFrom('materials').select('id').executeTakeFirstOrThrow();
    await call(t, 'POST', `/school/materials/${material.id}/link`, a.admin, {});
    for (const hw of await db.selectFrom('homework').select('id').execute())
      await call(t, 'GET', `/teacher/mark/homework/${hw.id}`, a.admin);

    // A's people get names no generated input can hit by chance (the arbitraries draw 王老师 and the like).
    await db
      .updateTable('users')
      .set({ nickname: sql<string>`${'甲校'} || nickname` })
      .execute();

    // Everything in the database now is A's, apart from the shared catalogue and the system's own questions
    // and template papers.
    for (const table of await db.introspection.getTables()) {
      if (SHARED_TABLES.has(table.name) || !table.columns.some((c) => c.name === 'id')) continue;
      let query = sql<{ id: unknown }>`select id from ${sql.table(table.name)}`;
      if (table.name === 'questions' || table.name === 'papers')
        query = sql<{ id: unknown }>`select id from ${sql.table(table.name)} where owner <> 'system'`;
      const ids = (await query.execute(db)).rows.map((r) => toText(r.id));
      rowsOfA.set(table.name, ids);
    }
    idsOfA = [...new Set([...rowsOfA.values()].flat())];

    // What must never reach B: A's name, people, students, classes' students, papers, questions and feedback.
    const texts = [
      '演示学校',
      '甲校机密',
      ...(await db.selectFrom('users').select('nickname').execute()).map((u) => u.nickname),
      ...(await db.selectFrom('students').select('name').execute()).map((s) => s.name),
      ...(await db.selectFrom('papers').select('title').where('owner', '<>', 'system').execute()).map(
        (p) => p.title,
      ),
    ];
    const b = await secondSchool(t);
    bTeacher = b.teacher;
    // B's own names may of course come back to B.
    const ofB = new Set([
      '第二中学',
      ...(await db.selectFrom('students').select('name').where('org_id', '=', b.orgId).execute()).map(
        (s) => s.name,
      ),
      '钱校长',
      '赵老师',
    ]);
    markers = [...new Set(texts)].filter((m) => m && m.length >= 2 && !ofB.has(m));
    expect(markers.length).toBeGreaterThan(100);
  }, 600_000);

  afterAll(async () => {
    console.log(
      `[isolation ${dialect}] calls: ${tally.calls}, requests of B with A's ids: ${tally.requests}, ` +
        `refused on A's rows (403/404): ${tally.refusedOnRows}, markers of A: ${markers.length}`,
    );
    await t?.close();
  });

  it('has rows of school A for every kind of path parameter', () => {
    const empty = [...new Set(TABLE_OF_PARAM.map(([, , table]) => table))].filter(
      (table) => (rowsOfA.get(table) ?? []).length === 0,
    );
    expect(empty).toEqual([]);
  });

  it.each(ALL.map((c) => [c.name, c] as const))('%s', async (name, c) => {
    const params = [...c.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const paramArb = fc.record(
      Object.fromEntries(
        params.map((p) => {
          const table = tableOf(c, p);
          if (!table) throw new Error(`${name}: which table does :${p} name? Add it to TABLE_OF_PARAM.`);
          return [p, fc.constantFrom(...rowsOfA.get(table)!)];
        }),
      ),
    );
    const options = { ids: idsOfA };
    const samples = fc.sample(
      fc.record({
        params: paramArb,
        query: c.query ? arbitraryOf(c.query, options) : fc.constant(undefined),
        body: c.body ? arbitraryOf(c.body, options) : fc.constant(undefined),
      }),
      { seed: SEED, numRuns: SAMPLES },
    );
    let pastValidation = 0;
    for (const sample of samples) {
      const url =
        c.path.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(toText(sample.params[p]))) +
        queryString(sample.query);
      let payload: object | FormData | undefined;
      if (c.encoding === 'multipart') {
        const form = fileForm(await png, 'a.png');
        if (sample.body && typeof sample.body === 'object')
          for (const [k, v] of Object.entries(sample.body)) if (v !== undefined) form.set(k, toText(v));
        payload = form;
      } else if (c.encoding === 'form') {
        payload = undefined;
      } else if (c.encoding === 'json' && sample.body !== undefined) {
        payload = sample.body as object;
      }
      let res =
        c.encoding === 'form'
          ? await (async () => {
              const r = await t.app.inject({
                method: c.method,
                url,
                headers: { ...bTeacher, 'content-type': 'application/x-www-form-urlencoded' },
                payload: queryString(sample.body).slice(1),
              });
              return { status: r.statusCode, raw: r.rawPayload };
            })()
          : await call(t, c.method, url, bTeacher, payload);
      if (res.status === 401) {
        // A call of B's own signed B out (signout, a changed password): sign in again and retry once.
        bTeacher = bearer((await signIn(t.app, 'b-teacher', 'Other@2026')).access_token);
        res = await call(t, c.method, url, bTeacher, payload);
      }
      tally.requests += 1;
      const text = res.raw.toString('utf8');
      const where = `${name} ${c.method} ${url} → ${res.status} ${text.slice(0, 200)}`;
      expect(res.status, where).toBeLessThan(500);
      const leaked = markers.filter((m) => text.includes(m));
      expect(leaked, where).toEqual([]);
      if (params.length > 0) {
        expect([400, 403, 404], where).toContain(res.status);
        if (res.status !== 400) {
          pastValidation += 1;
          tally.refusedOnRows += 1;
        }
      }
    }
    if (params.length > 0)
      expect(pastValidation, `${name}: no request got past validation to the row check`).toBeGreaterThan(0);
    tally.calls += 1;
  });
});
