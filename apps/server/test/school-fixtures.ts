import JSZip from 'jszip';
import { expect } from 'vitest';
import { createSchool, type CreatedSchool } from '../src/seed/school.js';
import { DEMO_ACCOUNTS } from '../src/seed/demo.js';
import { bearer, signIn, type TestApp } from './helpers/index.js';

// Shared by the school, students, team, invite and account tests: calls through app.inject, a second school, and
// workbooks built the way Excel writes them (shared strings), independently of the host's own writer.

export type Headers = Record<string, string>;

export interface Answer {
  status: number;
  body: { code?: number; message?: string; data?: unknown } & Record<string, unknown>;
  raw: Buffer;
  headers: Record<string, unknown>;
}

/** One call through app.inject: JSON bodies for objects, FormData as multipart. */
export async function call(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Headers = {},
  payload?: object | FormData,
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url,
    headers:
      payload && !(payload instanceof FormData)
        ? { ...headers, 'content-type': 'application/json' }
        : headers,
    ...(payload !== undefined ? { payload: payload as never } : {}),
  });
  const type = String(res.headers['content-type'] ?? '');
  return {
    status: res.statusCode,
    body: type.includes('json') ? res.json<Answer['body']>() : {},
    raw: res.rawPayload,
    headers: res.headers,
  };
}

/** The answer's data, after checking it is a 200. */
export function dataOf<T>(answer: Answer): T {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as T;
}

export const FORBIDDEN = '很抱歉，您暂无该操作权限';

export async function as(t: TestApp, username: string, password?: string): Promise<Headers> {
  return bearer((await signIn(t.app, username, password)).access_token);
}

export interface SecondSchool extends CreatedSchool {
  admin: Headers;
  teacher: Headers;
  yearId: string;
  classId: string;
  studentId: string;
  teacherMemberId: string;
}

/** 第二中学: an administrator (its creator), a teacher, one year with one class of one student. */
export async function secondSchool(t: TestApp): Promise<SecondSchool> {
  const school = await createSchool(t.testDb.db.kysely, {
    name: '第二中学',
    years: [
      {
        name: '2026-2027学年',
        isDefault: true,
        classes: [{ name: '七年级(1)班', students: [{ name: '周一鸣', studentNo: 'B0001', gender: '男' }] }],
      },
    ],
    users: [
      {
        username: 'b-admin',
        password: 'Other@2026',
        nickname: '钱校长',
        isCreator: true,
        isAdministrator: true,
      },
      { username: 'b-teacher', password: 'Other@2026', nickname: '赵老师' },
    ],
  });
  const student = await t.testDb.db.kysely
    .selectFrom('students')
    .select('id')
    .where('org_id', '=', school.orgId)
    .executeTakeFirstOrThrow();
  const member = await t.testDb.db.kysely
    .selectFrom('memberships')
    .select('id')
    .where('user_id', '=', school.userIds['b-teacher']!)
    .executeTakeFirstOrThrow();
  return {
    ...school,
    admin: await as(t, 'b-admin', 'Other@2026'),
    teacher: await as(t, 'b-teacher', 'Other@2026'),
    yearId: school.yearIds[0]!,
    classId: school.classIds[0]!,
    studentId: student.id,
    teacherMemberId: member.id,
  };
}

export interface DemoSchool {
  orgId: string;
  admin: Headers;
  teacher: Headers;
  director: Headers;
  yearId: string;
  classIds: Record<string, string>;
  memberIds: Record<string, string>;
}

/** 演示学校 as seeded: its id, the default year, classes by name, members by username. */
export async function demoSchool(t: TestApp): Promise<DemoSchool> {
  const db = t.testDb.db.kysely;
  const org = await db
    .selectFrom('orgs')
    .select('id')
    .where('name', '=', '演示学校')
    .executeTakeFirstOrThrow();
  const year = await db
    .selectFrom('school_years')
    .select('id')
    .where('org_id', '=', org.id)
    .where('is_default', '=', 1)
    .executeTakeFirstOrThrow();
  const classes = await db
    .selectFrom('classes')
    .select(['id', 'name'])
    .where('year_id', '=', year.id)
    .execute();
  const members = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'u.username'])
    .where('m.org_id', '=', org.id)
    .execute();
  return {
    orgId: org.id,
    admin: await as(t, DEMO_ACCOUNTS.admin),
    teacher: await as(t, DEMO_ACCOUNTS.teacher),
    director: await as(t, DEMO_ACCOUNTS.director),
    yearId: year.id,
    classIds: Object.fromEntries(classes.map((c) => [c.name, c.id])),
    memberIds: Object.fromEntries(members.map((m) => [m.username, m.id])),
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * An .xlsx as Excel writes it: every text in xl/sharedStrings.xml, cells with `t="s"`; cells given as numbers are
 * number cells (a 学号 typed into a general column), empty strings leave the cell out.
 */
export async function excelWorkbook(rows: (string | number)[][], sheetName = 'Sheet1'): Promise<Buffer> {
  const strings: string[] = [];
  const index = (s: string) => {
    const i = strings.indexOf(s);
    if (i >= 0) return i;
    strings.push(s);
    return strings.length - 1;
  };
  const letters = 'ABCDEFGHIJ';
  const sheetRows = rows
    .map((cells, r) => {
      const xml = cells
        .map((v, c) => {
          const ref = `${letters[c]}${r + 1}`;
          if (typeof v === 'number') return `<c r="${ref}"><v>${v}</v></c>`;
          if (v === '') return '';
          return `<c r="${ref}" t="s"><v>${index(v)}</v></c>`;
        })
        .join('');
      return `<row r="${r + 1}" spans="1:${cells.length}">${xml}</row>`;
    })
    .join('');
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="${esc(sheetName)}" sheetId="1" r:id="rId7"/></sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId7" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId8" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  );
  zip.file(
    'xl/sharedStrings.xml',
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${main}" count="${strings.length}" uniqueCount="${strings.length}">${strings
      .map((s) => `<si><t>${esc(s)}</t></si>`)
      .join('')}</sst>`,
  );
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${main}"><sheetData>${sheetRows}</sheetData></worksheet>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A multipart form with a file part named `file` and text fields. */
export function fileForm(data: Buffer, filename: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(data)]), filename);
  return form;
}
