import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HomeworkCardSchema,
  RecognitionExceptionSchema,
  ReviewSheetSchema,
  SCAN_MESSAGES,
  SCAN_PDF_DPI,
  SCAN_PDF_MAX_PAGES,
  ScanPageInfoSchema,
  SheetReviewSchema,
  UploadedScanPageSchema,
  type HomeworkDetail,
} from '@zhzy/contracts';
import {
  makeSheet,
  renderFixture,
  scansToPdf,
  type CardFixture,
  type Sheet,
} from '@zhzy/answer-card/recognise/testing';
import { DIALECTS } from './helpers/index.js';
import { data, homeworkWorld, type World } from './homework-fixtures.js';

// PDF scans (many scanners save one file for the whole stack): the intake splits the PDF into page images within
// bounds (page count, page size), each page is recognised like an uploaded image and lands on its student's sheet.
// And batches without a target homework: a page whose code cannot be read is taken for the card the rest of its
// batch agrees on when its number bubbles name the student, else it goes to the exception queue.

function multipart(bytes: Buffer, filename: string, fields: Record<string, string> = {}) {
  const boundary = `----zhzy${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  const head = `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(DIALECTS)('PDF scans on %s', (dialect) => {
  let w: World;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-scan-pdf-'));
  let hw: HomeworkDetail;
  let students: { id: string; name: string; student_no: string }[];
  let sheets: Sheet[];
  let batchId = '';
  let year = '';
  let hwB: HomeworkDetail;
  let studentsB: { id: string; name: string; student_no: string }[];
  let bubbleCard: CardFixture;

  const upload = (bytes: Buffer, name: string, fields: Record<string, string> = {}, batch = batchId) => {
    const { body, type } = multipart(bytes, name, { name, ...fields });
    return w.t.app.inject({
      method: 'POST',
      url: `/teacher/scan/batch/${batch}/page`,
      headers: { ...w.me, 'content-type': type },
      payload: body,
    });
  };

  beforeAll(async () => {
    w = await homeworkWorld(dialect, undefined, { RECOGNITION_WORKERS: '1', DATA_DIR: tmp });
    const db = w.t.testDb.db.kysely;
    const paper = await w.createPaper(w.me);
    const classId = w.classesA[0]!.id;
    hw = await w.publish(w.me, {
      paperId: paper.id,
      type: 'test',
      title: 'PDF 扫描测验',
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
    const fixture = await renderFixture(
      tmp,
      'pdf-qr',
      card.layout,
      students
        .slice(0, 3)
        .map((s) => ({ id: s.id, name: s.name, number: s.student_no, className: '七年级(1)班' })),
    );
    // Three students' filled cards as a scanner would save them: 200 dpi JPEG pages, skewed a little.
    sheets = await Promise.all(
      [0, 1, 2].map((copy) =>
        makeSheet(tmp, {
          name: `pdf-${copy}`,
          fixture,
          copy,
          dpi: 200,
          seed: 40 + copy,
          plan: { mix: { fill: 2, dark: 1 }, blankChance: 0, erasedChance: 0 },
          distortion: { rotateDeg: copy - 1, quality: 90 },
        }),
      ),
    );
    // A second homework whose card is identified by the number bubbles (not personalised).
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
        }),
      ),
    );
    bubbleCard = await renderFixture(tmp, 'bubbles', edited.layout);
    year = data<{ id: string; isDefault: boolean }[]>(
      await w.call('GET', `/system/class?orgId=${w.orgA}&type=1`, w.me),
    ).find((y) => y.isDefault)!.id;
    batchId = data<{ batch: { id: string } }>(
      await w.call('POST', '/teacher/scan/batch', w.me, {
        schoolYearId: year,
        subjectTeacher: false,
        source: 'upload',
      }),
    ).batch.id;
  }, 180_000);
  afterAll(async () => {
    await w.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('splits a PDF into its pages, reads each one like an image and puts it on its student sheet', async () => {
    const pdf = await scansToPdf(
      sheets.map((s) => s.bytes),
      200,
    );
    const res = await upload(pdf, '七年级1班.pdf');
    expect(res.statusCode).toBe(200);
    const first = UploadedScanPageSchema.parse(data(res));
    expect(first.pages).toHaveLength(3);
    expect(first.pages!.map((p) => p.name)).toEqual([
      '七年级1班 第1页',
      '七年级1班 第2页',
      '七年级1班 第3页',
    ]);
    expect(first.pages!.every((p) => p.format === 'jpeg' && p.dpi === SCAN_PDF_DPI && !p.duplicate)).toBe(
      true,
    );
    expect(first.id).toBe(first.pages![0]!.id);
    // An A4 page at 300 dpi.
    expect(first.width).toBeGreaterThan(2400);
    const listed = z
      .array(ScanPageInfoSchema)
      .parse(data(await w.call('GET', `/teacher/scan/batch/${batchId}/pages`, w.me)));
    expect(listed.map((p) => p.seq)).toEqual([1, 2, 3]);

    await w.t.app.jobs.drain();
    const open = z
      .array(RecognitionExceptionSchema)
      .parse(
        data(await w.call('GET', `/teacher/recognition/exceptions?batchId=${batchId}&status=open`, w.me)),
      );
    expect(open).toEqual([]);
    const list = z
      .array(ReviewSheetSchema)
      .parse(data(await w.call('GET', `/teacher/recognition/homework/${hw.id}/sheets`, w.me)));
    for (const [copy, sheet] of sheets.entries()) {
      const s = list.find((x) => x.studentId === students[copy]!.id);
      expect(s, students[copy]!.name).toBeDefined();
      const detail = SheetReviewSchema.parse(
        data(await w.call('GET', `/teacher/recognition/sheet/${s!.id}`, w.me)),
      );
      expect(detail.pages.map((p) => p.pageId)).toEqual([first.pages![copy]!.id]);
      for (const m of sheet.truth.marks) {
        const a = detail.answers.find((x) => x.questionId === m.questionId)!;
        expect(a.response, `${copy}:${m.questionId}`).toBe(m.intended);
      }
    }
  }, 180_000);

  it('answers the same PDF again with its pages as duplicates, stored once', async () => {
    const pdf = await scansToPdf(
      sheets.map((s) => s.bytes),
      200,
    );
    const again = UploadedScanPageSchema.parse(data(await upload(pdf, 'again.pdf')));
    expect(again.duplicate).toBe(true);
    expect(again.pages!.every((p) => p.duplicate)).toBe(true);
    const listed = z
      .array(ScanPageInfoSchema)
      .parse(data(await w.call('GET', `/teacher/scan/batch/${batchId}/pages`, w.me)));
    expect(listed).toHaveLength(3);
  }, 120_000);

  it('refuses a PDF beyond the limits or unreadable with a clear reason, storing nothing', async () => {
    const refused = async (bytes: Buffer, status: number, message: string, code: string, fields = {}) => {
      const res = await upload(bytes, 'x.pdf', fields);
      expect(res.statusCode).toBe(status);
      const body = res.json<{ message: string; data: { uploadError: string } }>();
      expect(body.message).toBe(message);
      expect(body.data.uploadError).toBe(code);
    };
    const blank = await makeBlankJpeg();
    // One page more than allowed: refused from the page count, before anything is rendered.
    await refused(
      await scansToPdf(
        Array.from({ length: SCAN_PDF_MAX_PAGES + 1 }, () => blank),
        10,
      ),
      413,
      SCAN_MESSAGES.pdfTooManyPages,
      'pdfTooManyPages',
    );
    expect(SCAN_MESSAGES.pdfTooManyPages).toContain(String(SCAN_PDF_MAX_PAGES));
    // A poster-sized page is no answer card.
    await refused(await scansToPdf([blank], 4), 400, SCAN_MESSAGES.pdfPageTooLarge, 'pdfPageTooLarge');
    // A damaged file.
    const pdf = await scansToPdf([sheets[0]!.bytes], 200);
    await refused(pdf.subarray(0, 400), 415, SCAN_MESSAGES.pdfUnreadable, 'pdfUnreadable');
    // A rescan replaces one page only.
    await refused(await scansToPdf([blank, blank], 20), 400, SCAN_MESSAGES.pdfReplace, 'invalidFields', {
      seq: '1',
      replaces: '1',
    });
    const listed = z
      .array(ScanPageInfoSchema)
      .parse(data(await w.call('GET', `/teacher/scan/batch/${batchId}/pages`, w.me)));
    expect(listed).toHaveLength(3);
  }, 120_000);

  it('takes a page whose code cannot be read for the card its batch agrees on when its number bubbles are read', async () => {
    const batch = data<{ batch: { id: string } }>(
      await w.call('POST', '/teacher/scan/batch', w.me, { schoolYearId: year, source: 'upload' }),
    ).batch.id;
    const sheet = (copy: number, extra: object = {}, number = studentsB[copy]!.student_no) =>
      makeSheet(tmp, {
        name: `b-${copy}-${Object.keys(extra).join('')}`,
        fixture: bubbleCard,
        dpi: 200,
        seed: 70 + copy,
        plan: { mix: { fill: 2, dark: 1 }, blankChance: 0, erasedChance: 0, number },
        ...extra,
      });
    const send = async (s: Sheet) => {
      const res = await upload(s.bytes, `${s.name}.jpg`, {}, batch);
      expect(res.statusCode).toBe(200);
      await w.t.app.jobs.drain();
      return UploadedScanPageSchema.parse(data(res));
    };
    const open = async (pageId: string) =>
      z
        .array(RecognitionExceptionSchema)
        .parse(
          data(await w.call('GET', `/teacher/recognition/exceptions?batchId=${batch}&status=open`, w.me)),
        )
        .filter((e) => e.pageId === pageId);

    // The first page of the batch has a smudged code and nothing to agree with yet: an exception with its kind.
    const early = await send(await sheet(2, { smudgeQr: true }));
    expect((await open(early.id)).map((e) => e.code)).toEqual(['qrUnreadable']);

    // Two clean pages: the batch now agrees on the second homework's card.
    for (const copy of [0, 1]) expect(await open((await send(await sheet(copy))).id)).toEqual([]);

    // A smudged code, number bubbles read: the page lands on its student's sheet of that homework.
    const smudged = await sheet(3, { smudgeQr: true });
    const page = await send(smudged);
    expect(await open(page.id)).toEqual([]);
    const list = z
      .array(ReviewSheetSchema)
      .parse(data(await w.call('GET', `/teacher/recognition/homework/${hwB.id}/sheets`, w.me)));
    const s = list.find((x) => x.studentId === studentsB[3]!.id)!;
    expect(s).toBeDefined();
    const detail = SheetReviewSchema.parse(
      data(await w.call('GET', `/teacher/recognition/sheet/${s.id}`, w.me)),
    );
    expect(detail.pages.map((p) => p.pageId)).toEqual([page.id]);
    for (const m of smudged.truth.marks) {
      const a = detail.answers.find((x) => x.questionId === m.questionId)!;
      expect(a.response, m.questionId).toBe(m.intended);
    }

    // A smudged code and no number filled in: nothing names the student, so it waits for a person.
    const nameless = await send(await sheet(4, { smudgeQr: true }, ''));
    const ex = await open(nameless.id);
    expect(ex.map((e) => e.code)).toEqual(['qrUnreadable']);
    expect(ex[0]!.message).toMatch(/二维码/);
  }, 240_000);
});

/** A small white JPEG (its size in the PDF comes from the dpi it is placed at). */
async function makeBlankJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 80, height: 100, channels: 3, background: '#fff' } })
    .jpeg()
    .toBuffer();
}
