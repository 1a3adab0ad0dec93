import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AnswerKeySchema,
  HomeworkCardSchema,
  RecognitionExceptionSchema,
  RecognitionTallySchema,
  ReviewSheetSchema,
  SheetReviewSchema,
  UploadedScanPageSchema,
  type HomeworkDetail,
  type RecognitionException,
} from '@zhzy/contracts';
import { layoutCard } from '@zhzy/answer-card';
import {
  makeSheet,
  renderFixture,
  type CardFixture,
  type PagePlan,
} from '@zhzy/answer-card/recognise/testing';
import { DIALECTS } from './helpers/index.js';
import { Q, data, homeworkWorld, type Headers, type World } from './homework-fixtures.js';

// Recognition on the host, end to end: real cards of a published homework rendered to PDF, rasterised with
// pdftoppm, filled with pencil-like marks, uploaded through the scan intake and read by the worker pool. Every kind
// of exception is produced by a real page and fixed with its one-click fix.

const Exceptions = z.array(RecognitionExceptionSchema);
const KEY: Record<string, string> = {
  [Q.single3]: 'B',
  [Q.single4]: 'A',
  [Q.multi5]: 'ACE',
  [Q.truefalse]: 'F',
};
const FULL: Record<string, number> = { [Q.single3]: 30, [Q.single4]: 30, [Q.multi5]: 40, [Q.truefalse]: 20 };

/** What the answer key gives for the options a student meant (少选得一半, any wrong option 0). */
function expectedTenths(questionId: string, intended: string): number {
  const key = KEY[questionId]!;
  const full = FULL[questionId]!;
  if (intended === '') return 0;
  if (intended === key) return full;
  if ([...intended].some((o) => !key.includes(o))) return 0;
  return questionId === Q.multi5 ? full / 2 : 0;
}

function multipart(
  bytes: Buffer,
  filename: string,
  fields: Record<string, string> = {},
): { body: Buffer; type: string } {
  const boundary = `----zhzy${Math.random().toString(16).slice(2)}`;
  const texts = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const head = `${texts}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(DIALECTS)('recognition on %s', (dialect) => {
  let w: World;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-recognition-'));
  let hw: HomeworkDetail;
  let hwB: HomeworkDetail;
  let qrCard: CardFixture;
  let bubbleCard: CardFixture;
  let strangerCard: CardFixture;
  let foreignCard: CardFixture;
  let students: { id: string; name: string; student_no: string }[];
  let studentsB: { id: string; name: string; student_no: string }[];
  let batchId = '';
  let seq = 0;

  const upload = async (bytes: Buffer, fields: Record<string, string> = {}) => {
    seq += 1;
    const { body, type } = multipart(bytes, `p-${String(seq).padStart(4, '0')}.jpg`, fields);
    const res = await w.t.app.inject({
      method: 'POST',
      url: `/teacher/scan/batch/${batchId}/page`,
      headers: { ...w.me, 'content-type': type },
      payload: body,
    });
    return UploadedScanPageSchema.parse(data(res));
  };
  const sheetOf = (fixture: CardFixture, name: string, copy: number, plan: PagePlan, extra = {}, page = 0) =>
    makeSheet(tmp, { name, fixture, copy, page, dpi: 200, plan, seed: seq * 7 + copy + 1, ...extra });
  const scan = async (
    fixture: CardFixture,
    name: string,
    copy: number,
    plan: PagePlan,
    extra = {},
    page = 0,
  ) => {
    const sheet = await sheetOf(fixture, name, copy, plan, extra, page);
    const uploaded = await upload(sheet.bytes);
    await w.t.app.jobs.drain();
    return { sheet, page: uploaded };
  };
  const exceptions = async (h: Headers = w.me, status = 'open') =>
    Exceptions.parse(
      data(await w.call('GET', `/teacher/recognition/exceptions?batchId=${batchId}&status=${status}`, h)),
    );
  const ofPage = async (pageId: string) => (await exceptions()).filter((e) => e.pageId === pageId);
  const resolve = (id: string, body: object, h: Headers = w.me) =>
    w.call('POST', `/teacher/recognition/exception/${id}/resolve`, h, body);
  const tally = async () =>
    RecognitionTallySchema.parse(
      data(await w.call('GET', `/teacher/recognition/batch/${batchId}/tally`, w.me)),
    );
  const sheets = async (homeworkId: string) =>
    z
      .array(ReviewSheetSchema)
      .parse(data(await w.call('GET', `/teacher/recognition/homework/${homeworkId}/sheets`, w.me)));
  const review = async (sheetId: string) =>
    SheetReviewSchema.parse(data(await w.call('GET', `/teacher/recognition/sheet/${sheetId}`, w.me)));
  const sheetOfStudent = async (homeworkId: string, studentId: string) =>
    (await sheets(homeworkId)).find((s) => s.studentId === studentId);

  beforeAll(async () => {
    w = await homeworkWorld(dialect, undefined, { RECOGNITION_WORKERS: '1', DATA_DIR: tmp });
    const db = w.t.testDb.db.kysely;
    const paper = await w.createPaper(w.me);
    const classId = w.classesA[0]!.id;
    hw = await w.publish(w.me, {
      paperId: paper.id,
      type: 'test',
      title: '第一单元测验',
      classIds: [classId],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    });
    students = await db
      .selectFrom('students')
      .select(['id', 'name', 'student_no'])
      .where('class_id', '=', classId)
      .orderBy('student_no')
      .execute();
    const card = HomeworkCardSchema.parse(data(await w.call('GET', `/teacher/homework/card/${hw.id}`, w.me)));
    const asStudent = (s: { id: string; name: string; student_no: string }) => ({
      id: s.id,
      name: s.name,
      number: s.student_no,
      className: '七年级(1)班',
    });
    qrCard = await renderFixture(tmp, 'qr', card.layout, students.slice(0, 8).map(asStudent));
    strangerCard = await renderFixture(tmp, 'stranger', card.layout, [
      { id: 'not-a-student', name: '外校生', number: '99999999' },
    ]);

    // A second homework whose card is identified by the number bubbles and runs over two pages.
    const paperB = await w.createPaper(w.me, '七年级数学第二单元测验');
    const classB = w.classesA[1]!.id;
    hwB = await w.publish(w.me, {
      paperId: paperB.id,
      type: 'homework',
      title: '第二单元作业',
      classIds: [classB],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    });
    studentsB = await db
      .selectFrom('students')
      .select(['id', 'name', 'student_no'])
      .where('class_id', '=', classB)
      .orderBy('student_no')
      .execute();
    const edited = HomeworkCardSchema.parse(
      data(
        await w.call('PUT', `/teacher/homework/card/${hwB.id}`, w.me, {
          identity: 'bubbles',
          studentNumberDigits: studentsB[0]!.student_no.length,
          writtenHeights: { [Q.written]: 230 },
        }),
      ),
    );
    expect(edited.layout.pages.length).toBe(2);
    bubbleCard = await renderFixture(tmp, 'bubbles', edited.layout);

    // A card this host never printed.
    foreignCard = await renderFixture(
      tmp,
      'foreign',
      layoutCard(
        {
          id: 'paper-x',
          title: '别校试卷',
          sections: [
            { title: '一、单选题', questions: [{ id: 'x1', number: '1', kind: 'single', score: 3 }] },
          ],
        },
        { size: 'A4', identity: 'bubbles' },
        { cardId: 'card-of-another-school', version: 1 },
      ),
    );

    const year = data<{ id: string; isDefault: boolean }[]>(
      await w.call('GET', `/system/class?orgId=${w.orgA}&type=1`, w.me),
    ).find((y) => y.isDefault)!.id;
    batchId = data<{ batch: { id: string } }>(
      await w.call('POST', '/teacher/scan/batch', w.me, {
        schoolYearId: year,
        subjectTeacher: false,
        source: 'upload',
      }),
    ).batch.id;
  }, 120_000);
  afterAll(async () => {
    await w.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('reads a clean personalised sheet, opens the student sheet and scores every objective answer from the key', async () => {
    const { sheet, page } = await scan(qrCard, 'clean', 0, {
      mix: { fill: 2, dark: 1 },
      blankChance: 0,
      erasedChance: 0,
    });
    expect(await ofPage(page.id)).toEqual([]);
    const s = (await sheetOfStudent(hw.id, students[0]!.id))!;
    expect(s).toMatchObject({
      studentName: students[0]!.name,
      pagesReceived: 1,
      pagesExpected: 1,
      reviewStatus: 'pending',
    });
    const detail = await review(s.id);
    let total = 0;
    for (const m of sheet.truth.marks) {
      const a = detail.answers.find((x) => x.questionId === m.questionId)!;
      expect(a.response, m.questionId).toBe(m.intended);
      expect(a.score! * 10, m.questionId).toBe(expectedTenths(m.questionId, m.intended));
      total += expectedTenths(m.questionId, m.intended);
    }
    expect(s.objectiveScore * 10).toBe(total);
    // Written answers wait for a marker, with their crop stored.
    const written = detail.answers.find((a) => a.questionId === Q.written)!;
    expect(written).toMatchObject({ score: null, hasCrop: true });
    // The review shows the page with what was read where.
    expect(detail.pages).toHaveLength(1);
    expect(detail.pages[0]!.overlay.filter((o) => o.kind === 'bubble').length).toBeGreaterThan(10);
    expect(detail.pages[0]!.overlay.some((o) => o.kind === 'crop')).toBe(true);
    const img = await w.call('GET', detail.pages[0]!.imageUrl, w.me);
    expect(img.statusCode).toBe(200);
  });

  it('cuts a written answer from its page when it is first opened, and keeps the crop', async () => {
    const db = w.t.testDb.db.kysely;
    const row = await db
      .selectFrom('recognition_pages')
      .selectAll()
      .where('student_id', '=', students[0]!.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(row.result!) as {
      crops: { id: string; questionIds: string[]; width: number; height: number }[];
      cropPaths: Record<string, string>;
    };
    const crop = stored.crops.find((c) => c.questionIds.includes(Q.written))!;
    const file = path.join(tmp, stored.cropPaths[crop.id]!);
    // Workers read pages without cutting crops: none is stored until someone opens one.
    expect(fs.existsSync(file)).toBe(false);
    const url = `/teacher/analysis/crop/${hw.id}/${students[0]!.id}/${Q.written}`;
    const first = await w.call('GET', url, w.me);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(first.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([crop.width, crop.height]);
    // The box's printed frame runs along the crop's top: the crop is the box, cut from the page.
    const { data: px, info } = await sharp(first.rawPayload)
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rowDark = (y: number) => {
      let d = 0;
      for (let x = 0; x < info.width; x++) d += 255 - px[y * info.width + x]!;
      return d / info.width;
    };
    expect(Math.max(rowDark(0), rowDark(1), rowDark(2), rowDark(3))).toBeGreaterThan(60);
    // Every crop of the page was cut and stored at once; the next read is the stored file.
    for (const c of stored.crops)
      expect(fs.existsSync(path.join(tmp, stored.cropPaths[c.id]!)), c.id).toBe(true);
    const again = await w.call('GET', url, w.me);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('keeps every read page whole (identity, raw darkness, timings) and reading it again changes nothing', async () => {
    const db = w.t.testDb.db.kysely;
    const row = await db
      .selectFrom('recognition_pages')
      .selectAll()
      .where('student_id', '=', students[0]!.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(row.result!);
    expect(stored.identity).toMatchObject({ studentId: students[0]!.id, source: 'qr', page: 1 });
    expect(stored.marks[0].bubbles[0]).toHaveProperty('ratio');
    expect(stored.timings.total).toBeGreaterThan(0);
    expect(row.residual_mm).toBeLessThan(0.3);
    const changes = await db.selectFrom('score_changes').select('id').execute();
    // A queue may deliver a job twice: the page is left as it is.
    await w.t.app.jobs.enqueue('recognise-page', { pageId: row.page_id });
    await w.t.app.jobs.drain();
    expect((await db.selectFrom('score_changes').select('id').execute()).length).toBe(changes.length);
  });

  it('sends several marks on a single-choice question to a person, who chooses the answer', async () => {
    const { page } = await scan(qrCard, 'double', 1, {
      mix: { fill: 1 },
      blankChance: 0,
      doubleMarked: [Q.single3],
    });
    const [ex] = (await ofPage(page.id)).filter((e) => e.code === 'multipleMarks');
    expect(ex).toBeDefined();
    expect(ex!.message).toMatch(/单选题涂了多个选项/);
    expect(ex!.questionIds).toEqual([Q.single3]);
    expect(ex!.actions[0]).toBe('chooseMarks');
    expect(ex!.questions[0]!.options).toEqual(['A', 'B', 'C']);
    const s = (await sheetOfStudent(hw.id, students[1]!.id))!;
    let answer = (await review(s.id)).answers.find((a) => a.questionId === Q.single3)!;
    expect(answer).toMatchObject({ responseStatus: 'multiple', score: null });
    // Two options on single choice are refused with a clear message.
    const bad = await resolve(ex!.id, { action: 'chooseMarks', answers: { [Q.single3]: 'AB' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/只能选一个/);
    const done = RecognitionExceptionSchema.parse(
      data(await resolve(ex!.id, { action: 'chooseMarks', answers: { [Q.single3]: 'B' } })),
    );
    expect(done).toMatchObject({ status: 'resolved', resolution: 'chooseMarks' });
    answer = (await review(s.id)).answers.find((a) => a.questionId === Q.single3)!;
    expect(answer).toMatchObject({ response: 'B', responseStatus: 'ok', score: 3, scoreSource: 'override' });
  });

  it('sends a mark it cannot decide (rubbed out only half-way) to a person instead of guessing, and accepts what was read', async () => {
    const { page } = await scan(qrCard, 'tricky', 2, {
      mix: { light: 1, partial: 1, tick: 1 },
      rubbedOut: [Q.single3, Q.truefalse],
      blankChance: 0,
    });
    const found = (await ofPage(page.id)).filter((e) => e.code === 'uncertainMark');
    expect(found.length).toBe(1);
    const ex = found[0]!;
    expect(ex.message).toMatch(/请人工核对/);
    // Half-filled and ticked marks are read; the half-rubbed ones wait for a person, and so does the multiple
    // choice's light even mark: this student marks only lightly or in lines, so the sheet has no clear fill of their
    // own to tell a light fill from what a rubber left (ADR 0067).
    expect(ex.questionIds).toEqual([Q.single3, Q.multi5, Q.truefalse]);
    const s = (await sheetOfStudent(hw.id, students[2]!.id))!;
    for (const qid of ex.questionIds)
      expect((await review(s.id)).answers.find((a) => a.questionId === qid)!.score).toBeNull();
    data(await resolve(ex.id, { action: 'accept' }));
    for (const qid of ex.questionIds)
      expect((await review(s.id)).answers.find((a) => a.questionId === qid)!.score).not.toBeNull();
  });

  it('closes what a page raised when a rescan replaces it, and reads the rescan as that sheet, not a second one', async () => {
    const { page } = await scan(qrCard, 'smudged', 5, {
      mix: { light: 1, partial: 1, tick: 1 },
      rubbedOut: [Q.single4],
      blankChance: 0,
    });
    expect((await ofPage(page.id)).map((e) => e.code)).toContain('uncertainMark');
    const clean = await sheetOf(qrCard, 'smudged-again', 5, { mix: { fill: 1 }, blankChance: 0 });
    const rescan = await upload(clean.bytes, { seq: String(page.seq), replaces: 'true' });
    await w.t.app.jobs.drain();
    expect(await ofPage(page.id)).toEqual([]);
    expect(await ofPage(rescan.id)).toEqual([]);
    const resolved = (await exceptions(w.me, 'resolved')).filter((e) => e.pageId === page.id);
    expect(resolved.map((e) => e.resolution)).toEqual(resolved.map(() => 'rescanned'));
    const s = (await sheetOfStudent(hw.id, students[5]!.id))!;
    expect(s.pagesReceived).toBe(1);
    for (const a of (await review(s.id)).answers.filter((x) =>
      ['single', 'multiple', 'truefalse'].includes(x.kind),
    ))
      expect(a.score).not.toBeNull();
  });

  it('flags a blank page and lets the teacher accept it', async () => {
    const { page } = await scan(qrCard, 'empty', 3, { empty: true });
    const [ex] = (await ofPage(page.id)).filter((e) => e.code === 'blankPage');
    expect(ex!.message).toMatch(/没有任何作答/);
    expect(ex!.studentName).toBe(students[3]!.name);
    data(await resolve(ex!.id, { action: 'accept' }));
    expect(await ofPage(page.id)).toEqual([]);
    const s = (await sheetOfStudent(hw.id, students[3]!.id))!;
    expect(s.objectiveScore).toBe(0);
  });

  it('sets aside the blank back of a sheet scanned on both sides, but asks about blank paper fed as a front', async () => {
    // Sheets of plain paper at 200 dpi (two shades: the host takes the same bytes only once).
    const blank = (shade: number) =>
      sharp({
        create: { width: 1654, height: 2339, channels: 3, background: { r: shade, g: shade, b: 244 } },
      })
        .jpeg({ quality: 85 })
        .toBuffer();
    const back = await upload(await blank(246), { side: 'back', blank: '1' });
    await w.t.app.jobs.drain();
    expect(await ofPage(back.id)).toEqual([]);
    expect((await tally()).pages.find((p) => p.pageId === back.id)!.status).toBe('ignored');

    const front = await upload(await blank(248), { side: 'front', blank: '1' });
    await w.t.app.jobs.drain();
    expect((await ofPage(front.id)).length).toBeGreaterThan(0);
    expect((await tally()).pages.find((p) => p.pageId === front.id)!.status).toBe('failed');
  });

  it('finds two sheets for one student and keeps the first unless told otherwise', async () => {
    const { page } = await scan(qrCard, 'again', 0, { mix: { fill: 1 }, blankChance: 0 });
    const [ex] = (await ofPage(page.id)).filter((e) => e.code === 'duplicateSheet');
    expect(ex!.message).toMatch(new RegExp(`${students[0]!.name}已有一张第 1 页`));
    expect(ex!.actions).toEqual(['ignore', 'accept']);
    data(await resolve(ex!.id, { action: 'ignore' }));
    const t = await tally();
    expect(t.pages.find((p) => p.pageId === page.id)!.status).toBe('ignored');
  });

  it('says when the corners are not found, and the page is marked rescanned', async () => {
    const { page } = await scan(qrCard, 'torn', 4, { mix: { fill: 1 } }, { tearCorner: ['tl', 'br'] });
    const [ex] = await ofPage(page.id);
    expect(ex).toMatchObject({ code: 'anchorsNotFound', actions: ['rescanned', 'ignore'] });
    expect(ex!.message).toMatch(/未找到定位点/);
    data(await resolve(ex!.id, { action: 'rescanned' }));
    expect((await tally()).pages.find((p) => p.pageId === page.id)!.status).toBe('rescanned');
  });

  it('says when the QR code cannot be read', async () => {
    const { page } = await scan(qrCard, 'smudged', 5, { mix: { fill: 1 } }, { smudgeQr: true });
    const codes = (await ofPage(page.id)).map((e) => e.code);
    expect(codes).toContain('qrUnreadable');
    const ex = (await ofPage(page.id)).find((e) => e.code === 'qrUnreadable')!;
    expect(ex.message).toMatch(/二维码/);
    data(await resolve(ex.id, { action: 'ignore' }));
  });

  it('refuses a card of another paper', async () => {
    const { page } = await scan(foreignCard, 'foreign', 0, { mix: { fill: 1 }, number: '12345678' });
    const [ex] = await ofPage(page.id);
    expect(ex).toMatchObject({ code: 'cardUnknown', actions: ['ignore', 'rescanned'] });
    expect(ex!.message).toMatch(/不属于本次考试/);
    data(await resolve(ex!.id, { action: 'ignore' }));
  });

  it('asks who an unknown student is, and the assignment opens that student’s sheet', async () => {
    const { page } = await scan(strangerCard, 'stranger', 0, { mix: { fill: 1 }, blankChance: 0 });
    const [ex] = await ofPage(page.id);
    expect(ex).toMatchObject({ code: 'unknownStudent', actions: ['assignStudent', 'ignore'] });
    expect(ex!.message).toMatch(/不在本次考试名单中/);
    // A student of another class is refused; one of the homework's class is taken.
    const wrong = await resolve(ex!.id, { action: 'assignStudent', studentId: studentsB[0]!.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('该学生不在这份作业的班级中');
    data(await resolve(ex!.id, { action: 'assignStudent', studentId: students[6]!.id }));
    const s = (await sheetOfStudent(hw.id, students[6]!.id))!;
    expect(s.pagesReceived).toBe(1);
    expect(s.objectiveScore).toBeGreaterThanOrEqual(0);
  });

  it('identifies a student by the number bubbles, and sends an invalid number to a person', async () => {
    const first = await scan(bubbleCard, 'number-ok', 0, {
      mix: { fill: 1 },
      number: studentsB[0]!.student_no,
    });
    expect((await ofPage(first.page.id)).filter((e) => e.code !== 'blankPage')).toEqual([]);
    expect((await sheetOfStudent(hwB.id, studentsB[0]!.id))!.pagesReceived).toBe(1);

    const bad = await scan(bubbleCard, 'number-bad', 0, {
      mix: { fill: 1 },
      number: studentsB[1]!.student_no,
      numberExtra: { 2: (Number(studentsB[1]!.student_no[2]) + 3) % 10 },
    });
    const [ex] = await ofPage(bad.page.id);
    expect(ex).toMatchObject({ code: 'studentNumberInvalid', actions: ['assignStudent', 'ignore'] });
    expect(ex!.message).toMatch(/考号填涂有误/);
    data(await resolve(ex!.id, { action: 'assignStudent', studentId: studentsB[1]!.id }));
    expect((await sheetOfStudent(hwB.id, studentsB[1]!.id))!.pagesReceived).toBe(1);
  });

  it('finds missing pages when the batch is checked, and the teacher marks them rescanned', async () => {
    // Student B0 has page 1 only; page 2 of B1 arrives, page 2 of B0 never does.
    await scan(
      bubbleCard,
      'b0-page2-missing',
      0,
      { mix: { fill: 1 }, number: studentsB[1]!.student_no },
      {},
      1,
    );
    const t = RecognitionTallySchema.parse(
      data(await w.call('POST', `/teacher/recognition/batch/${batchId}/check`, w.me)),
    );
    const missing = (await exceptions()).filter((e) => e.code === 'missingPage');
    expect(missing.map((e) => [e.studentName, e.pageNo])).toEqual([[studentsB[0]!.name, 2]]);
    expect(missing[0]!.message).toMatch(/缺少第 2 页/);
    // Checking again raises nothing new.
    await w.call('POST', `/teacher/recognition/batch/${batchId}/check`, w.me);
    expect((await exceptions()).filter((e) => e.code === 'missingPage')).toHaveLength(1);
    expect(t.exceptionsOpen).toBeGreaterThan(0);
    data(await resolve(missing[0]!.id, { action: 'rescanned' }));
  });

  it('keeps a live tally: pages read, sheets read, exceptions and students still missing', async () => {
    const t = await tally();
    expect(t.pagesReceived).toBe(seq);
    expect(t.pagesQueued).toBe(0);
    const a = t.homework.find((h) => h.id === hw.id)!;
    expect(a.students).toBe(students.length);
    expect(a.sheetsRead).toBe(6);
    expect(a.missing).toHaveLength(students.length - 6);
    expect(a.missing.map((m) => m.id)).not.toContain(students[0]!.id);
    // Latest place first; the one rescan took the place of the page it replaced, so places end one short of uploads.
    expect(t.pages[0]!.seq).toBe(seq - 1);
  });

  it('re-scores everyone already scored when the key or the partial rule changes, recording why', async () => {
    const key = AnswerKeySchema.parse(
      data(await w.call('GET', `/teacher/recognition/homework/${hw.id}/key`, w.me)),
    );
    expect(key.partialRule).toBe('half');
    expect(key.questions.map((q) => [q.questionId, q.key])).toEqual([
      [Q.single3, 'B'],
      [Q.single4, 'A'],
      [Q.multi5, 'ACE'],
      [Q.truefalse, 'F'],
    ]);
    const bad = await w.call('PUT', `/teacher/recognition/homework/${hw.id}/key`, w.me, {
      questions: [{ questionId: Q.single3, answer: 'Z' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/第1题：答案格式不正确/);

    const s = (await sheetOfStudent(hw.id, students[0]!.id))!;
    const before = (await review(s.id)).answers.find((a) => a.questionId === Q.single3)!;
    const newKey = before.response === 'C' ? 'A' : 'C';
    const res = data<{ changed: number; sheets: number }>(
      await w.call('PUT', `/teacher/recognition/homework/${hw.id}/key`, w.me, {
        questions: [{ questionId: Q.single3, answer: newKey }],
        partialRule: 'zero',
      }),
    );
    expect(res.changed).toBeGreaterThan(0);
    const after = (await review(s.id)).answers.find((a) => a.questionId === Q.single3)!;
    expect(after.key).toBe(newKey);
    expect(after.score).toBe(before.response === newKey ? 3 : 0);
    const log = await w.t.testDb.db.kysely
      .selectFrom('score_changes')
      .selectAll()
      .where('reason', '=', '答案修改后重新评分')
      .execute();
    expect(log.length).toBe(res.changed);
  });

  it('lets the teacher page through every sheet, override a mark (recorded) and confirm it', async () => {
    const list = await sheets(hw.id);
    const s = list.find((x) => x.studentId === students[0]!.id)!;
    const detail = await review(s.id);
    expect(detail.prevId === null || list.some((x) => x.id === detail.prevId)).toBe(true);
    expect(detail.nextId).not.toBeNull();
    const q = detail.answers.find((a) => a.questionId === Q.truefalse)!;
    const flipped = q.response === 'T' ? 'F' : 'T';
    const updated = SheetReviewSchema.parse(
      data(
        await w.call('PUT', `/teacher/recognition/sheet/${s.id}/answers`, w.me, {
          answers: [{ questionId: Q.truefalse, response: flipped }],
        }),
      ),
    );
    expect(updated.answers.find((a) => a.questionId === Q.truefalse)).toMatchObject({
      response: flipped,
      score: flipped === 'F' ? 2 : 0,
      scoreSource: 'override',
    });
    const log = await w.t.testDb.db.kysely
      .selectFrom('score_changes')
      .selectAll()
      .where('sheet_id', '=', s.id)
      .where('question_id', '=', Q.truefalse)
      .where('reason', '=', '复核改判')
      .execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ before_response: q.response, after_response: flipped });
    const bad = await w.call('PUT', `/teacher/recognition/sheet/${s.id}/answers`, w.me, {
      answers: [{ questionId: Q.single3, response: 'G' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/选项不在这道题的范围内/);
    const confirmed = ReviewSheetSchema.parse(
      data(await w.call('POST', `/teacher/recognition/sheet/${s.id}/confirm`, w.me)),
    );
    expect(confirmed.reviewStatus).toBe('confirmed');
  });

  it('refuses to confirm a sheet with open exceptions; accepting two marks on a single choice scores it 0', async () => {
    const { page } = await scan(qrCard, 'double-again', 7, {
      mix: { fill: 1 },
      blankChance: 0,
      doubleMarked: [Q.single4],
    });
    const [ex] = (await ofPage(page.id)).filter((e) => e.code === 'multipleMarks');
    expect(ex).toBeDefined();
    const s = (await sheetOfStudent(hw.id, students[7]!.id))!;
    expect(s.openExceptions).toBe(1);
    const res = await w.call('POST', `/teacher/recognition/sheet/${s.id}/confirm`, w.me);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('请先处理这张答题卡的异常，再确认');
    // 确认无误: the student did mark two options; they stand as read and the question scores nothing.
    const read = (await review(s.id)).answers.find((a) => a.questionId === Q.single4)!.response;
    expect(read).toHaveLength(2);
    const done = RecognitionExceptionSchema.parse(data(await resolve(ex!.id, { action: 'accept' })));
    expect(done).toMatchObject({ status: 'resolved', resolution: 'accept' });
    const answer = (await review(s.id)).answers.find((a) => a.questionId === Q.single4)!;
    expect(answer).toMatchObject({ response: read, responseStatus: 'multiple', score: 0 });
    expect((await w.call('POST', `/teacher/recognition/sheet/${s.id}/confirm`, w.me)).statusCode).toBe(200);
  });

  it('keeps another school out', async () => {
    expect((await w.call('GET', `/teacher/recognition/batch/${batchId}/tally`, w.stranger)).statusCode).toBe(
      404,
    );
    expect(
      (await w.call('GET', `/teacher/recognition/homework/${hw.id}/sheets`, w.stranger)).statusCode,
    ).toBe(404);
    const [any] = await exceptions(w.me, 'all');
    expect((await resolve(any!.id, { action: 'ignore' }, w.stranger)).statusCode).toBe(404);
  });
});

export type { RecognitionException };
