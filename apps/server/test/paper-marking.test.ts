import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HomeworkCardSchema,
  PaperMarkingSchema,
  RecognitionExceptionSchema,
  PaperScoreSchema,
  UploadedScanPageSchema,
  type CardElementOf,
  type CardLayout,
  type HomeworkDetail,
} from '@zhzy/contracts';
import { renderFixture, type CardFixture } from '@zhzy/answer-card/recognise/testing';
import { DIALECTS } from './helpers/index.js';
import { Q, data, homeworkWorld, type World } from './homework-fixtures.js';

// 纸上批阅 (先阅后扫, ADR 0065) on the host, end to end: a homework's card designed with a score box on its written
// question, printed personalised, marked by a "teacher" in red on the box, scanned in colour and in grey, uploaded
// and read by the worker pool. A clear box scores the question in the results (no marking left for it); two ticks in
// a row go to a person, who types the score; a blank box is marked on screen as before.

const run = promisify(execFile);
const Scores = z.array(PaperScoreSchema);
const Exceptions = z.array(RecognitionExceptionSchema);

type Box = CardElementOf<'scoreBox'>;

/** The cells to tick for a score on a tick box (tens only when there are tens). */
function cellsFor(box: Box, score: number) {
  const row = (role: string) => box.rows.find((r) => r.role === role)?.cells ?? [];
  const whole = Math.floor(score);
  const out = [];
  if (whole >= 10) out.push(row('tens').find((c) => c.value === Math.floor(whole / 10) * 10)!);
  out.push(row('units').find((c) => c.value === whole % 10)!);
  if (score !== whole) out.push(row('half')[0]!);
  return out;
}

/** A red tick over a cell, as SVG at `k` px per mm. */
function tick(rect: { x: number; y: number; w: number; h: number }, k: number): string {
  const cx = (rect.x + rect.w / 2) * k;
  const cy = (rect.y + rect.h / 2) * k;
  const s = k;
  return `<path d="M${cx - 1.7 * s},${cy} L${cx - 0.5 * s},${cy + 1.4 * s} L${cx + 2 * s},${cy - 1.7 * s}" stroke="rgb(215,25,35)" stroke-width="${0.6 * k}" fill="none" stroke-linecap="round"/>`;
}

describe.each(DIALECTS)('纸上批阅 on %s', (dialect) => {
  let w: World;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-paper-marking-'));
  let hw: HomeworkDetail;
  let layout: CardLayout;
  let fixture: CardFixture;
  let box: Box;
  let boxPage = 0;
  let students: { id: string; name: string; student_no: string }[];
  /** A student of another class: the last printed copy, whose page a teacher assigns (unknownStudent). */
  let outsider: { id: string; name: string; student_no: string };
  let batchId = '';
  let seq = 0;

  /**
   * A student's page with the box: printed, ticked in red (`scores`: one tick set per score), scanned. `distorted`: its
   * two bottom anchors 1.2 mm closer together (a sheet warped in the feeder), which the recogniser flags as
   * 定位点位置异常 (anchorsDistorted: a teacher may accept the page or mark it 已重新扫描) while still reading it.
   */
  const scanned = async (copy: number, scores: number[], mode: 'colour' | 'grey', distorted = false) => {
    const n = copy * layout.pages.length + boxPage + 1;
    const prefix = path.join(tmp, `page-${copy}`);
    await run('pdftoppm', [
      '-r',
      '200',
      '-png',
      '-f',
      String(n),
      '-l',
      String(n),
      '-singlefile',
      fixture.pdf,
      prefix,
    ]);
    const k = 200 / 25.4;
    const meta = await sharp(`${prefix}.png`).metadata();
    const marks = scores.flatMap((s) => cellsFor(box, s).map((c) => tick(c.rect, k)));
    if (distorted)
      for (const a of layout.pages[boxPage]!.elements)
        if (a.type === 'anchor' && (a.corner === 'bl' || a.corner === 'br')) {
          const { x, y, w, h } = a.rect;
          const dx = a.corner === 'bl' ? 1.2 : -1.2;
          marks.push(
            `<rect x="${(x - 0.5) * k}" y="${(y - 0.5) * k}" width="${(w + 1) * k}" height="${(h + 1) * k}" fill="white"/>`,
            `<rect x="${(x + dx) * k}" y="${y * k}" width="${w * k}" height="${h * k}" fill="black"/>`,
          );
        }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}">${marks.join('')}</svg>`;
    const marked = sharp(
      await sharp(`${prefix}.png`)
        .composite([{ input: Buffer.from(svg) }])
        .png()
        .toBuffer(),
    );
    return (mode === 'grey' ? marked.greyscale() : marked)
      .withMetadata({ density: 200 })
      .jpeg({ quality: 88 })
      .toBuffer();
  };
  /** `fields`: form fields sent before the file (a rescan: `seq` of the page it replaces and `replaces`). */
  const upload = async (bytes: Buffer, fields: Record<string, string> = {}) => {
    seq += 1;
    const boundary = `----zhzy${seq}`;
    const head =
      Object.entries(fields)
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p-${seq}.jpg"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const res = await w.t.app.inject({
      method: 'POST',
      url: `/teacher/scan/batch/${batchId}/page`,
      headers: { ...w.me, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    });
    const page = UploadedScanPageSchema.parse(data(res));
    await w.t.app.jobs.drain();
    return page;
  };
  const exceptions = async (status = 'open') =>
    Exceptions.parse(
      data(await w.call('GET', `/teacher/recognition/exceptions?homeworkId=${hw.id}&status=${status}`, w.me)),
    );
  const paperScores = async (state = 'all') =>
    Scores.parse(data(await w.call('GET', `/teacher/homework/${hw.id}/paper-scores?state=${state}`, w.me)));
  const answerOf = (studentId: string) =>
    w.t.testDb.db.kysely
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .select(['a.score_tenths', 'a.score_source', 's.total_score_tenths', 's.unscored_count'])
      .where('s.homework_id', '=', hw.id)
      .where('s.student_id', '=', studentId)
      .where('a.question_id', '=', Q.written)
      .executeTakeFirst();

  beforeAll(async () => {
    w = await homeworkWorld(dialect, undefined, { RECOGNITION_WORKERS: '1', DATA_DIR: tmp });
    const db = w.t.testDb.db.kysely;
    const paper = await w.createPaper(w.me);
    const classId = w.classesA[0]!.id;
    hw = await w.publish(w.me, {
      paperId: paper.id,
      type: 'homework',
      title: '先阅后扫作业',
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
    outsider = (await db
      .selectFrom('students')
      .select(['id', 'name', 'student_no'])
      .where('class_id', '=', w.classesA[1]!.id)
      .orderBy('student_no')
      .executeTakeFirst())!;
    const card = HomeworkCardSchema.parse(
      data(
        await w.call('PUT', `/teacher/homework/card/${hw.id}`, w.me, {
          scoreBoxes: { [Q.written]: { kind: 'tick', half: true } },
        }),
      ),
    );
    layout = card.layout;
    layout.pages.forEach((p, i) => {
      const found = p.elements.find((e): e is Box => e.type === 'scoreBox');
      if (found) {
        box = found;
        boxPage = i;
      }
    });
    expect(box).toBeDefined();
    fixture = await renderFixture(
      tmp,
      'paper-marking',
      layout,
      [...students.slice(0, 6), outsider].map((s) => ({
        id: s.id,
        name: s.name,
        number: s.student_no,
        className: '七年级(1)班',
      })),
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

  it('offers 纸上批阅 for the questions with score boxes; only the publisher turns it on; a card without boxes cannot', async () => {
    const before = PaperMarkingSchema.parse(
      data(await w.call('GET', `/teacher/homework/${hw.id}/paper-marking`, w.me)),
    );
    expect(before.enabled).toBe(false);
    expect(before.questions).toEqual([
      { questionId: Q.written, number: box.number, fullScore: 12, kind: 'tick', half: true },
    ]);
    const refused = await w.call('PUT', `/teacher/homework/${hw.id}/paper-marking`, w.colleague, {
      enabled: true,
    });
    expect(refused.statusCode).toBe(403);
    const bad = await w.call('PUT', `/teacher/homework/${hw.id}/paper-marking`, w.me, { enabled: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/[\u4e00-\u9fff]/);
    const on = PaperMarkingSchema.parse(
      data(await w.call('PUT', `/teacher/homework/${hw.id}/paper-marking`, w.me, { enabled: true })),
    );
    expect(on.enabled).toBe(true);

    const plainPaper = await w.createPaper(w.me, '没有打分框的试卷');
    const plain = await w.publish(w.me, {
      paperId: plainPaper.id,
      title: '网上阅卷作业',
      classIds: [w.classesA[0]!.id],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    });
    const conflict = await w.call('PUT', `/teacher/homework/${plain.id}/paper-marking`, w.me, {
      enabled: true,
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json<{ message: string }>().message).toContain('打分框');
  });

  it.each([
    ['colour', 0, 11.5],
    ['grey', 1, 7],
  ] as const)(
    'takes the score a teacher ticked in red on a %s scan straight into the results',
    async (mode, copy, score) => {
      // The colour page is also warped (its anchors flagged): the page the test below sets aside.
      await upload(await scanned(copy, [score], mode, mode === 'colour'));
      const answer = await answerOf(students[copy]!.id);
      expect(answer).toMatchObject({ score_tenths: score * 10, score_source: 'paper' });
      const listed = (await paperScores()).find((p) => p.studentId === students[copy]!.id)!;
      expect(listed).toMatchObject({
        state: 'scored',
        score,
        reason: null,
        number: box.number,
        fullScore: 12,
      });
      // The crop for 讲评: the answer with its box, as a JPEG.
      const crop = await w.call('GET', listed.cropUrl!, w.me);
      expect(crop.statusCode).toBe(200);
      expect(crop.headers['content-type']).toBe('image/jpeg');
      const meta = await sharp(crop.rawPayload).metadata();
      expect(meta.width / meta.height).toBeGreaterThan(1);
    },
  );

  it('sends two ticks in one row to a person, who types the score; a blank box is left for on-screen marking', async () => {
    const student = students[2]!;
    await upload(await scanned(2, [3, 5], 'colour', true));
    expect(await answerOf(student.id)).toMatchObject({ score_tenths: null });
    const [doubt] = (await paperScores('doubtful')).filter((p) => p.studentId === student.id);
    expect(doubt).toMatchObject({ state: 'doubtful', score: null, reason: 'multipleTicks' });
    expect(doubt!.reasonText).toContain('多个格');

    const over = await w.call('POST', `/teacher/paper-scores/${doubt!.id}/resolve`, w.me, {
      action: 'enterScore',
      score: 13,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ message: string }>().message).toContain('满分');
    const resolved = PaperScoreSchema.parse(
      data(
        await w.call('POST', `/teacher/paper-scores/${doubt!.id}/resolve`, w.me, {
          action: 'enterScore',
          score: 5,
        }),
      ),
    );
    expect(resolved).toMatchObject({ state: 'resolved', score: 5 });
    expect(await answerOf(student.id)).toMatchObject({ score_tenths: 50, score_source: 'paper' });
    expect(await paperScores('doubtful')).toEqual([]);

    const blank = students[3]!;
    await upload(await scanned(3, [], 'colour'));
    expect(await answerOf(blank.id)).toMatchObject({ score_tenths: null });
    expect((await paperScores()).find((p) => p.studentId === blank.id)).toMatchObject({
      state: 'onScreen',
      score: null,
    });
  });

  it('lists a doubtful box in the scan exception queue, where the score is typed; both places clear', async () => {
    const student = students[4]!;
    await upload(await scanned(4, [2, 6], 'colour'));
    const [doubt] = (await paperScores('doubtful')).filter((p) => p.studentId === student.id);
    expect(doubt).toMatchObject({ state: 'doubtful', reason: 'multipleTicks' });
    const [ex] = (await exceptions()).filter((e) => e.code === 'scoreDoubtful' && e.studentId === student.id);
    expect(ex).toMatchObject({
      code: 'scoreDoubtful',
      questionIds: [Q.written],
      actions: ['enterScore', 'markOnScreen'],
      paperScore: { id: doubt!.id, number: box.number, fullScore: 12, cropUrl: doubt!.cropUrl },
    });
    expect(ex!.message).toBe(`第${box.number}题打分框：${doubt!.reasonText}`);

    const wrong = await w.call('POST', `/teacher/recognition/exception/${ex!.id}/resolve`, w.me, {
      action: 'accept',
    });
    expect(wrong.statusCode).toBe(400);
    const none = await w.call('POST', `/teacher/recognition/exception/${ex!.id}/resolve`, w.me, {
      action: 'enterScore',
    });
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toBe('请输入得分');
    const over = await w.call('POST', `/teacher/recognition/exception/${ex!.id}/resolve`, w.me, {
      action: 'enterScore',
      score: 12.5,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ message: string }>().message).toContain('满分');
    const done = RecognitionExceptionSchema.parse(
      data(
        await w.call('POST', `/teacher/recognition/exception/${ex!.id}/resolve`, w.me, {
          action: 'enterScore',
          score: 6.5,
        }),
      ),
    );
    expect(done).toMatchObject({ status: 'resolved', resolution: 'enterScore' });
    expect(await answerOf(student.id)).toMatchObject({ score_tenths: 65, score_source: 'paper' });
    expect((await paperScores()).find((p) => p.id === doubt!.id)).toMatchObject({
      state: 'resolved',
      score: 6.5,
    });
    expect((await paperScores('doubtful')).filter((p) => p.studentId === student.id)).toEqual([]);

    // Decided in 纸上批阅 instead: its exception leaves the queue.
    const other = students[5]!;
    await upload(await scanned(5, [1, 4], 'colour'));
    const [second] = (await paperScores('doubtful')).filter((p) => p.studentId === other.id);
    expect((await exceptions()).some((e) => e.paperScore?.id === second!.id)).toBe(true);
    await w.call('POST', `/teacher/paper-scores/${second!.id}/resolve`, w.me, { action: 'markOnScreen' });
    expect((await exceptions()).some((e) => e.paperScore?.id === second!.id)).toBe(false);
    expect((await exceptions('resolved')).find((e) => e.paperScore?.id === second!.id)).toMatchObject({
      resolution: 'markOnScreen',
    });
  });

  it('takes the boxes of a page a teacher assigned to a student, without reading it again', async () => {
    const student = students[6]!;
    const stored = await upload(await scanned(6, [9], 'colour'));
    const [ex] = (await exceptions()).filter(
      (e) => e.pageId === stored.id && e.actions.includes('assignStudent'),
    );
    expect(ex).toBeDefined();
    expect(await paperScores()).not.toContainEqual(expect.objectContaining({ studentId: student.id }));
    const reading = () =>
      w.t.testDb.db.kysely
        .selectFrom('recognition_pages')
        .select(['attempts', 'total_ms'])
        .where('page_id', '=', stored.id)
        .executeTakeFirstOrThrow();
    const before = await reading();
    const fixed = await w.call('POST', `/teacher/recognition/exception/${ex!.id}/resolve`, w.me, {
      action: 'assignStudent',
      studentId: student.id,
    });
    expect(fixed.statusCode).toBe(200);
    expect(await reading()).toEqual(before);
    expect(await answerOf(student.id)).toMatchObject({ score_tenths: 90, score_source: 'paper' });
    expect((await paperScores()).find((p) => p.studentId === student.id)).toMatchObject({
      state: 'scored',
      score: 9,
    });
  });

  it("does not keep the boxes of a page set aside: they wait for a person, a person's decision stands, a kept duplicate replaces them", async () => {
    // The warped pages' 定位点位置异常 offers 已重新扫描, which sets the page aside. (A page whose only ink is the
    // teacher's ticks no longer raises 空白页: its boxes are content.)
    const asideOffer = async (studentId: string) =>
      (await exceptions()).find(
        (e) => e.studentId === studentId && e.code === 'anchorsDistorted' && e.actions.includes('rescanned'),
      );
    expect(
      (await exceptions()).filter((e) => e.code === 'blankPage' && e.studentId === students[0]!.id),
    ).toEqual([]);

    // Set aside: the score its box gave leaves the results and the box waits for a person in 纸上批阅.
    const first = students[0]!;
    expect(await answerOf(first.id)).toMatchObject({ score_tenths: 115, score_source: 'paper' });
    const offer = await asideOffer(first.id);
    expect(offer).toBeDefined();
    const ignored = await w.call('POST', `/teacher/recognition/exception/${offer!.id}/resolve`, w.me, {
      action: 'rescanned',
    });
    expect(ignored.statusCode).toBe(200);
    expect(await answerOf(first.id)).toMatchObject({ score_tenths: null });
    const [aside] = (await paperScores('doubtful')).filter((p) => p.studentId === first.id);
    expect(aside).toMatchObject({ state: 'doubtful', score: null, reason: 'pageSetAside' });
    expect(aside!.reasonText).toContain('忽略');
    expect((await exceptions()).filter((e) => e.studentId === first.id)).toEqual([]);
    const decided = PaperScoreSchema.parse(
      data(
        await w.call('POST', `/teacher/paper-scores/${aside!.id}/resolve`, w.me, {
          action: 'enterScore',
          score: 11,
        }),
      ),
    );
    expect(decided).toMatchObject({ state: 'resolved', score: 11 });
    expect(await answerOf(first.id)).toMatchObject({ score_tenths: 110, score_source: 'paper' });

    // A box a person decided stands when its page is set aside.
    const typed = students[2]!;
    const typedOffer = await asideOffer(typed.id);
    expect(typedOffer).toBeDefined();
    await w.call('POST', `/teacher/recognition/exception/${typedOffer!.id}/resolve`, w.me, {
      action: 'rescanned',
    });
    expect(await answerOf(typed.id)).toMatchObject({ score_tenths: 50, score_source: 'paper' });
    expect((await paperScores()).find((p) => p.studentId === typed.id)).toMatchObject({
      state: 'resolved',
      score: 5,
    });

    // The same student's page scanned again and kept in place of the first: its box is what counts.
    const again = students[1]!;
    expect(await answerOf(again.id)).toMatchObject({ score_tenths: 70, score_source: 'paper' });
    const second = await upload(await scanned(1, [9], 'colour'));
    const [duplicate] = (await exceptions()).filter(
      (e) => e.pageId === second.id && e.code === 'duplicateSheet',
    );
    expect(duplicate).toBeDefined();
    expect(await answerOf(again.id)).toMatchObject({ score_tenths: 70 });
    const kept = await w.call('POST', `/teacher/recognition/exception/${duplicate!.id}/resolve`, w.me, {
      action: 'accept',
    });
    expect(kept.statusCode).toBe(200);
    expect(await answerOf(again.id)).toMatchObject({ score_tenths: 90, score_source: 'paper' });
    expect((await paperScores()).filter((p) => p.studentId === again.id)).toEqual([
      expect.objectContaining({ state: 'scored', score: 9, reason: null }),
    ]);
  });

  it('does not keep the boxes of a page a rescan replaced: an unreadable rescan leaves them to a person, a readable one gives its own score', async () => {
    // The student whose kept duplicate scored 9 in the test before: that page is the one rescanned now.
    const student = students[1]!;
    expect(await answerOf(student.id)).toMatchObject({ score_tenths: 90, score_source: 'paper' });
    const current = await w.t.testDb.db.kysely
      .selectFrom('recognition_pages as r')
      .innerJoin('scan_pages as p', 'p.id', 'r.page_id')
      .select(['p.id', 'p.seq'])
      .where('r.homework_id', '=', hw.id)
      .where('r.student_id', '=', student.id)
      .where('r.status', '=', 'done')
      .executeTakeFirstOrThrow();

    // A rescan the recogniser cannot read (a white sheet): the old page's score is no longer the student's.
    const white = await sharp({ create: { width: 1654, height: 2339, channels: 3, background: '#fff' } })
      .withMetadata({ density: 200 })
      .jpeg({ quality: 88 })
      .toBuffer();
    const unreadable = await upload(white, { seq: String(current.seq), replaces: 'true' });
    expect(unreadable.id).not.toBe(current.id);
    expect(await answerOf(student.id)).toMatchObject({ score_tenths: null });
    const waiting = (await paperScores('doubtful')).filter((p) => p.studentId === student.id);
    expect(waiting).toEqual([
      expect.objectContaining({ state: 'doubtful', score: null, reason: 'pageSetAside' }),
    ]);
    expect(waiting[0]!.reasonText).toContain('已重新扫描');

    // Rescanned again, legibly and marked 6: that reading is the box's, one row, in the results.
    await upload(await scanned(1, [6], 'colour'), { seq: String(current.seq), replaces: 'true' });
    expect(await answerOf(student.id)).toMatchObject({ score_tenths: 60, score_source: 'paper' });
    expect((await paperScores()).filter((p) => p.studentId === student.id)).toEqual([
      expect.objectContaining({ state: 'scored', score: 6, reason: null }),
    ]);
  });

  it('keeps another school out', async () => {
    const [one] = await paperScores();
    expect((await w.call('GET', `/teacher/homework/${hw.id}/paper-scores`, w.stranger)).statusCode).toBe(404);
    expect((await w.call('GET', `/teacher/paper-scores/${one!.id}/crop`, w.stranger)).statusCode).toBe(404);
    const res = await w.call('POST', `/teacher/paper-scores/${one!.id}/resolve`, w.stranger, {
      action: 'markOnScreen',
    });
    expect(res.statusCode).toBe(404);
  });
});
