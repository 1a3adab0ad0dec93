// Phone photos on the scan upload (issue #26, ADR 0060): `photo=1` checks the photo at once, refuses an unfit one
// with the reason in Chinese for a retake, and stores the flat 200 dpi page that recognition reads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HomeworkCardSchema,
  PHOTO_REFUSAL_MESSAGES,
  ReviewSheetSchema,
  SCAN_MESSAGES,
  ScanUploadErrorDataSchema,
  SheetReviewSchema,
  UploadedScanPageSchema,
  type HomeworkDetail,
} from '@zhzy/contracts';
import { renderFixture, type CardFixture } from '@zhzy/answer-card/recognise/testing';
import { makePhoto } from '@zhzy/answer-card/photo/testing';
import { DIALECTS } from './helpers/index.js';
import { data, homeworkWorld, type World } from './homework-fixtures.js';

function multipart(bytes: Buffer, filename: string, fields: Record<string, string>) {
  const boundary = `----zhzy${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  const head = `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(DIALECTS)('phone photos on %s', (dialect) => {
  let w: World;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-scan-photo-'));
  let hw: HomeworkDetail;
  let students: { id: string; name: string; student_no: string }[];
  let fixture: CardFixture;
  let batchId = '';

  const upload = (bytes: Buffer, name: string) => {
    const { body, type } = multipart(bytes, name, { name, photo: '1' });
    return w.t.app.inject({
      method: 'POST',
      url: `/teacher/scan/batch/${batchId}/page`,
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
      title: '手机拍照测验',
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
    fixture = await renderFixture(
      tmp,
      'photo-qr',
      card.layout,
      students
        .slice(0, 1)
        .map((s) => ({ id: s.id, name: s.name, number: s.student_no, className: '七年级(1)班' })),
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
  }, 180_000);
  afterAll(async () => {
    await w.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('stores a photographed card as a flat 200 dpi page and reads it onto the student sheet', async () => {
    const photo = await makePhoto(tmp, {
      fixture,
      seed: 12,
      megapixels: 12,
      plan: { mix: { fill: 2, dark: 1 }, blankChance: 0, erasedChance: 0 },
    });
    const res = await upload(photo.bytes, 'IMG_0001.jpg');
    expect(res.statusCode, res.body).toBe(200);
    const page = UploadedScanPageSchema.parse(data(res));
    expect(page).toMatchObject({ format: 'jpeg', dpi: 200, width: 1654, height: 2339, duplicate: false });
    await w.t.app.jobs.drain();
    const list = z
      .array(ReviewSheetSchema)
      .parse(data(await w.call('GET', `/teacher/recognition/homework/${hw.id}/sheets`, w.me)));
    const sheet = list.find((x) => x.studentId === students[0]!.id);
    expect(sheet).toBeDefined();
    const detail = SheetReviewSchema.parse(
      data(await w.call('GET', `/teacher/recognition/sheet/${sheet!.id}`, w.me)),
    );
    for (const m of photo.truth.marks) {
      const a = detail.answers.find((x) => x.questionId === m.questionId)!;
      expect(a.response, m.questionId).toBe(m.intended);
    }
  }, 180_000);

  it('refuses a dark photo at once with the reason to retake it, storing nothing', async () => {
    const photo = await makePhoto(tmp, { fixture, seed: 21, fault: 'tooDark', megapixels: 8 });
    const res = await upload(photo.bytes, 'IMG_0002.jpg');
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; data: unknown }>();
    expect(body.message).toBe(PHOTO_REFUSAL_MESSAGES.tooDark);
    expect(ScanUploadErrorDataSchema.parse(body.data)).toMatchObject({
      uploadError: 'photoRefused',
      photo: 'tooDark',
    });
  }, 120_000);

  it('checks a photo by its content: what is not an image is refused as such', async () => {
    const res = await upload(Buffer.from('%PDF-1.4 not a photo'), 'IMG_0003.jpg');
    expect(res.statusCode).toBe(415);
    expect(res.json<{ message: string }>().message).toBe(SCAN_MESSAGES.badImage);
  });
});
