import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCHOOL_MESSAGES,
  XLSX_MIME,
  type ClassInfo,
  type SchoolYearInfo,
  type Student,
} from '@zhzy/contracts';
import { readFirstSheet } from '../src/modules/school/xlsx.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import { call, dataOf, demoSchool, excelWorkbook, fileForm, type DemoSchool } from './school-fixtures.js';

type Page = { records: Student[]; total: number };

describe.each(DIALECTS)('students: Excel import and export, edits and moves on %s', (dialect) => {
  let t: TestApp;
  let demo: DemoSchool;
  let yearId = '';
  let class1 = '';

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    demo = await demoSchool(t);
    yearId = dataOf<SchoolYearInfo>(
      await call(t, 'POST', '/school/year', demo.admin, { name: '2027-2028学年' }),
    ).id;
    class1 = dataOf<ClassInfo>(
      await call(t, 'POST', '/school/class', demo.admin, { yearId, name: '七年级(1)班' }),
    ).id;
  });
  afterAll(() => t.close());

  const countStudents = async () =>
    Number(
      (
        await t.testDb.db.kysely
          .selectFrom('students')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const importFile = (file: Buffer, fields: Record<string, string> = { yearId }, h = demo.admin) =>
    call(t, 'POST', '/school/students/import', h, fileForm(file, '学生名单.xlsx', fields));

  it('downloads the template: an .xlsx whose first sheet has the headers 姓名, 学号, 班级, 性别', async () => {
    const res = await call(t, 'POST', '/school/students/template', demo.teacher, {});
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('学生导入模板.xlsx'));
    const zip = await JSZip.loadAsync(res.raw);
    expect(await zip.file('xl/workbook.xml')?.async('string')).toContain('学生名单');
    const rows = await readFirstSheet(res.raw, 10);
    expect(rows).toEqual([{ row: 1, cells: ['姓名', '学号', '班级', '性别'] }]);
  });

  it('refuses a file with broken rows with every row’s Chinese error, and imports nothing', async () => {
    const before = await countStudents();
    const file = await excelWorkbook([
      ['姓名', '学号', '班级', '性别'],
      ['陈小明', '2027070101', '七年级(1)班', '男'],
      ['王二', 2026070101, '七年级(1)班', '女'], // 学号 of a demo student: taken
      ['', '2027070103', '七年级(1)班', '男'],
      ['李四', '2027070101', '七年级(1)班', '男'], // repeats row 2
      ['赵五', '2027070105', '七年级(9)班', '未知'],
      ['孙六', '20270701#6', '七年级(1)班', ''],
    ]);
    const res = await importFile(file);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(SCHOOL_MESSAGES.importFailed(5));
    const errors = (res.body.data as { errors: { row: number; message: string }[] }).errors;
    expect(errors.map((e) => e.message)).toEqual([
      '第3行：学号 2026070101 已存在',
      '第4行：请输入学生姓名',
      '第5行：学号 2027070101 与第2行重复',
      '第6行：性别“未知”不正确，只能是男或女',
      '第6行：班级 七年级(9)班 在2027-2028学年中不存在',
      '第7行：学号 20270701#6 格式不正确（只能包含字母、数字和短横线，最多32位）',
    ]);
    expect(await countStudents()).toBe(before);
  });

  it('imports every row of a good file, creating missing classes when asked, numbers typed as numbers included', async () => {
    const file = await excelWorkbook([
      ['学号', '姓名', '性别', '班级'], // any column order
      [2027070101, '陈小明', '男', '七年级(1)班'],
      ['2027070102', '林小红', '女', '七年级(1)班'],
      ['2027070201', '黄小刚', '', '七年级(2)班'],
      ['', '', '', ''],
    ]);
    const refused = await importFile(file);
    expect(refused.status).toBe(400);
    expect((refused.body.data as { errors: { message: string }[] }).errors).toEqual([
      { row: 4, message: '第4行：班级 七年级(2)班 在2027-2028学年中不存在' },
    ]);
    const done = await importFile(file, { yearId, createMissingClasses: 'true' });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('成功导入3名学生');
    const result = done.body.data as {
      imported: number;
      createdClasses: { name: string }[];
      classes: { name: string; count: number }[];
    };
    expect(result.imported).toBe(3);
    expect(result.createdClasses.map((c) => c.name)).toEqual(['七年级(2)班']);
    expect(result.classes).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: '七年级(1)班', count: 2 })]),
    );
    const page = dataOf<Page>(await call(t, 'GET', `/school/students?yearId=${yearId}`, demo.teacher));
    expect(page.records.map((s) => [s.studentNo, s.name, s.gender, s.className])).toEqual([
      ['2027070101', '陈小明', '男', '七年级(1)班'],
      ['2027070102', '林小红', '女', '七年级(1)班'],
      ['2027070201', '黄小刚', null, '七年级(2)班'],
    ]);
    const created = dataOf<ClassInfo[]>(await call(t, 'GET', `/school/classes?yearId=${yearId}`, demo.admin));
    expect(created.find((c) => c.name === '七年级(2)班')).toMatchObject({ grade: '七年级', studentCount: 1 });
    // The same file again: every number is now taken, nothing changes.
    const again = await importFile(file, { yearId, createMissingClasses: 'true' });
    expect(again.status).toBe(400);
    expect((again.body.data as { errors: unknown[] }).errors).toHaveLength(3);
  });

  it('puts rows without a class into the chosen class', async () => {
    const file = await excelWorkbook([
      ['姓名', '学号'],
      ['周八', 'X-001'],
    ]);
    const refused = await importFile(file);
    expect(refused.body.message).toBe(SCHOOL_MESSAGES.importMissingHeader('班级'));
    const done = await importFile(file, { yearId, classId: class1 });
    expect(done.status).toBe(200);
    const page = dataOf<Page>(
      await call(t, 'GET', `/school/students?classId=${class1}&keyword=X-001`, demo.admin),
    );
    expect(page.records.map((s) => s.name)).toEqual(['周八']);
  });

  it('refuses what is not a workbook, an empty sheet, a teacher, and an anonymous upload', async () => {
    const text = await importFile(Buffer.from('姓名,学号\n张三,1\n'));
    expect(text.status).toBe(400);
    expect(text.body.message).toBe(SCHOOL_MESSAGES.importNotXlsx);
    const empty = await importFile(await excelWorkbook([['姓名', '学号', '班级', '性别']]));
    expect(empty.body.message).toBe(SCHOOL_MESSAGES.importEmpty);
    const teacher = await importFile(await excelWorkbook([['姓名']]), { yearId }, demo.teacher);
    expect(teacher.status).toBe(403);
    const anonymous = await call(
      t,
      'POST',
      '/school/students/import',
      {},
      fileForm(Buffer.from('x'), 'a.xlsx', { yearId }),
    );
    expect(anonymous.status).toBe(401);
    const noFile = await call(t, 'POST', '/school/students/import', demo.admin, { yearId });
    expect(noFile.status).toBe(400);
  });

  it('exports a class list in the import’s columns', async () => {
    const res = await call(t, 'POST', '/school/students/export', demo.teacher, { classId: class1 });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(
      encodeURIComponent('2027-2028学年-七年级(1)班-学生名单.xlsx'),
    );
    const rows = await readFirstSheet(res.raw, 100);
    expect(rows.map((r) => r.cells)).toEqual([
      ['姓名', '学号', '班级', '性别'],
      ['陈小明', '2027070101', '七年级(1)班', '男'],
      ['林小红', '2027070102', '七年级(1)班', '女'],
      ['周八', 'X-001', '七年级(1)班'],
    ]);
  });

  it('adds and edits a student; a number already taken is refused', async () => {
    const added = dataOf<Student>(
      await call(t, 'POST', '/school/student', demo.admin, {
        classId: class1,
        name: '吴九',
        studentNo: '2027070109',
        gender: '男',
      }),
    );
    expect(added).toMatchObject({ name: '吴九', className: '七年级(1)班', graduated: false });
    expect(
      (
        await call(t, 'POST', '/school/student', demo.teacher, {
          classId: class1,
          name: 'x',
          studentNo: 'x1',
        })
      ).status,
    ).toBe(403);
    const taken = await call(t, 'PUT', `/school/student/${added.id}`, demo.admin, {
      studentNo: '2027070101',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(SCHOOL_MESSAGES.studentNoTaken('2027070101'));
    const edited = dataOf<Student>(
      await call(t, 'PUT', `/school/student/${added.id}`, demo.admin, { name: '吴久', gender: null }),
    );
    expect(edited).toMatchObject({ name: '吴久', gender: null, studentNo: '2027070109' });
  });

  it('moves students between classes, answering per student', async () => {
    const page = dataOf<Page>(await call(t, 'GET', `/school/students?classId=${class1}`, demo.admin));
    const classes = dataOf<ClassInfo[]>(await call(t, 'GET', `/school/classes?yearId=${yearId}`, demo.admin));
    const class2 = classes.find((c) => c.name === '七年级(2)班')!.id;
    const [first, second] = page.records;
    const result = dataOf<{ moved: string[]; failed: { id: string; message: string }[] }>(
      await call(t, 'PUT', '/school/students/move', demo.admin, {
        studentIds: [first!.id, second!.id, 'no-such-student'],
        classId: class2,
      }),
    );
    expect(result.moved).toEqual([first!.id, second!.id]);
    expect(result.failed).toEqual([{ id: 'no-such-student', message: SCHOOL_MESSAGES.studentNotFound }]);
    const inClass2 = dataOf<Page>(await call(t, 'GET', `/school/students?classId=${class2}`, demo.admin));
    expect(inClass2.records.map((s) => s.id)).toEqual(expect.arrayContaining([first!.id, second!.id]));
    const same = dataOf<{ failed: { message: string }[] }>(
      await call(t, 'PUT', '/school/students/move', demo.admin, { studentIds: [first!.id], classId: class2 }),
    );
    expect(same.failed[0]?.message).toBe(SCHOOL_MESSAGES.sameClass);
    expect(
      (
        await call(t, 'PUT', '/school/students/move', demo.teacher, {
          studentIds: [first!.id],
          classId: class1,
        })
      ).status,
    ).toBe(403);
  });
});
