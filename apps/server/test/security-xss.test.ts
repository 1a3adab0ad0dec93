import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import { call, dataOf, demoSchool, type DemoSchool } from './school-fixtures.js';
import { RICH_PAYLOADS, SHORT_NAME_PAYLOADS, NAME_PAYLOADS } from './helpers/xss-payloads.js';

// Script payloads in every rich-text and name field (issue #12, ADR 0027). Rich text (question stem, options,
// answer, analysis — also when edited inside a paper) is stored sanitised: no script, no event handler, no
// javascript: URL, no SVG or frame. Names (school years, classes, students, groups, papers, nicknames) are plain
// text: stored exactly as typed, and the web app shows them as text (apps/web/e2e/xss.e2e.test.ts).

/** What must never survive in stored rich text. */
const ACTIVE = /<\s*(script|svg|iframe|object|embed|style)|\son[a-z]+\s*=|javascript:|srcdoc/i;

/** A value as it appears inside a JSON answer. */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

describe.each(DIALECTS)('script payloads in names and rich text on %s', (dialect) => {
  let t: TestApp;
  let a: DemoSchool;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    a = await demoSchool(t);
  });
  afterAll(() => t?.close());

  it('stores rich question content without anything that runs, keeping its text', async () => {
    const created = dataOf<{ id: string }>(
      await call(t, 'POST', '/teacher/question/personal', a.teacher, {
        subjectId: SUBJECT_IDS.数学,
        typeId: typeId('数学', '单选题'),
        difficulty: 2,
        stem: `<p>题干甲${RICH_PAYLOADS.join('')}</p>`,
        options: RICH_PAYLOADS.slice(0, 4).map((p, i) => ({ label: 'ABCD'[i], content: `选项${i}${p}` })),
        answer: 'A',
        analysis: `<p>解析乙</p>${RICH_PAYLOADS.join('<br>')}`,
      }),
    );
    const detail = await call(t, 'GET', `/teacher/question/info/${created.id}`, a.teacher);
    const question = dataOf<{
      stem: string;
      options: { content: string }[];
      answer: string;
      analysis: string;
    }>(detail);
    for (const text of [
      question.stem,
      question.answer,
      question.analysis,
      ...question.options.map((o) => o.content),
    ])
      expect(text).not.toMatch(ACTIVE);
    expect(question.stem).toContain('题干甲');
    expect(question.analysis).toContain('解析乙');
    expect(question.options.map((o) => o.content.slice(0, 3))).toEqual(['选项0', '选项1', '选项2', '选项3']);
    expect(detail.raw.toString('utf8')).not.toMatch(ACTIVE);
  });

  it('keeps a paper title as typed, like any name', async () => {
    const paper = dataOf<{ id: string; version: number }>(
      await call(t, 'POST', '/teacher/paper/create', a.teacher, {
        subjectId: SUBJECT_IDS.数学,
        title: NAME_PAYLOADS[0],
      }),
    );
    const rename = await call(t, 'PUT', `/teacher/paper/rename/${paper.id}`, a.teacher, {
      title: NAME_PAYLOADS[1],
    });
    expect(rename.status).toBe(200);
    const detail = await call(t, 'GET', `/teacher/paper/detail/${paper.id}`, a.teacher);
    expect(detail.status).toBe(200);
    // A paper title is a name: kept as typed.
    expect(detail.raw.toString('utf8')).toContain(inJson(NAME_PAYLOADS[1]));
  });

  it('stores every name exactly as typed (school years, classes, students, groups, nicknames)', async () => {
    const classA = a.classIds['七年级(1)班']!;
    for (const [i, name] of NAME_PAYLOADS.entries()) {
      expect((await call(t, 'POST', '/school/year', a.admin, { name })).status, name).toBe(200);
      expect((await call(t, 'POST', '/school/class', a.admin, { yearId: a.yearId, name })).status, name).toBe(
        200,
      );
      expect(
        (await call(t, 'POST', '/school/team/group', a.admin, { name: `${name}${i}`, kind: 'research' }))
          .status,
        name,
      ).toBe(200);
    }
    for (const [i, name] of SHORT_NAME_PAYLOADS.entries()) {
      const student = await call(t, 'POST', '/school/student', a.admin, {
        classId: classA,
        name,
        studentNo: `XSS-${i}`,
      });
      expect(student.status, name).toBe(200);
    }
    const years = (await call(t, 'GET', '/school/years', a.admin)).raw.toString('utf8');
    const classes = (await call(t, 'GET', `/school/classes?yearId=${a.yearId}`, a.admin)).raw.toString(
      'utf8',
    );
    const groups = (await call(t, 'GET', '/school/team/groups', a.admin)).raw.toString('utf8');
    const students = (
      await call(t, 'GET', `/school/students?classId=${classA}&size=100`, a.admin)
    ).raw.toString('utf8');
    for (const name of NAME_PAYLOADS) {
      expect(years, name).toContain(inJson(name));
      expect(classes, name).toContain(inJson(name));
      expect(groups, name).toContain(inJson(name));
    }
    for (const name of SHORT_NAME_PAYLOADS) expect(students, name).toContain(inJson(name));

    for (const nickname of SHORT_NAME_PAYLOADS) {
      expect((await call(t, 'PUT', '/system/account/nickname', a.teacher, { nickname })).status).toBe(200);
      const profile = dataOf<{ nickname: string }>(
        await call(t, 'GET', '/system/account/profile', a.teacher),
      );
      expect(profile.nickname).toBe(nickname);
    }
  });
});
