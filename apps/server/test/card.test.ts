import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { layoutCard } from '@zhzy/answer-card';
import { resolveCardFonts } from '@zhzy/answer-card/render';
import {
  HomeworkCardSchema,
  decodeCardQr,
  type CardQrPayload,
  type HomeworkCard,
  type HomeworkDetail,
} from '@zhzy/contracts';
import { AppError } from '../src/lib/errors.js';
import {
  attachmentHeader,
  cardFonts,
  forwardingSink,
  streamCardPdf,
} from '../src/modules/homework/card-pdf.js';
import { DIALECTS } from './helpers/index.js';
import { data, homeworkWorld, type World } from './homework-fixtures.js';

const run = promisify(execFile);

/** Where the PDFs and the rendered page of these tests are kept for a person to look at. */
const ARTIFACTS = path.resolve(import.meta.dirname, '../../../test-artifacts/cards');

async function pdfPages(file: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [file]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/** Renders one page at `dpi` to PNG and returns its path. */
async function renderPage(file: string, pageNo: number, dpi: number, outBase: string): Promise<string> {
  await run('pdftoppm', [
    '-r',
    String(dpi),
    '-f',
    String(pageNo),
    '-l',
    String(pageNo),
    '-png',
    '-singlefile',
    file,
    outBase,
  ]);
  return `${outBase}.png`;
}

/** The card QR codes zbarimg reads on a PNG. */
async function pageQrs(png: string): Promise<CardQrPayload[]> {
  const { stdout } = await run('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', png]);
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => decodeCardQr(l))
    .flatMap((r) => (r.ok ? [r.payload] : []));
}

/** The filename* of a Content-Disposition header, decoded. */
function dispositionName(header: string): string {
  const m = /filename\*=UTF-8''([^;]+)/.exec(header);
  return m ? decodeURIComponent(m[1]!) : '';
}

describe('card downloads: the pieces', () => {
  it('encodes a Chinese file name per RFC 5987, parentheses included, with an ASCII fallback', () => {
    const header = attachmentHeader('期中考试-七年级(1)班-答题卡.pdf');
    expect(header).toMatch(/^attachment; filename="answer-cards\.pdf"; filename\*=UTF-8''/);
    expect(header).not.toMatch(/filename\*=[^;]*[()]/);
    expect(dispositionName(header)).toBe('期中考试-七年级(1)班-答题卡.pdf');
  });

  it('turns a missing CJK font into a 500 whose log detail names the package to install', () => {
    vi.stubEnv('ZHZY_CJK_FONT', '/nowhere/missing-font.ttc');
    try {
      let error: unknown;
      try {
        cardFonts();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      const appError = error as AppError;
      expect(appError.status).toBe(500);
      expect(appError.message).toBe('服务器缺少打印答题卡所需的中文字体，请联系网站管理员');
      expect(appError.detail).toMatch(/fonts-noto-cjk/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  const oneQuestionCard = () =>
    layoutCard({
      id: 'stream-card',
      title: '流式下载',
      sections: [{ title: '一、解答题', questions: [{ id: 'q1', number: '1', score: 10, kind: 'written' }] }],
    });
  const someStudents = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `s${i}`, name: `学生${i}`, number: String(10_000_000 + i) }));

  it('streams the whole PDF to a reader that stays', async () => {
    const { stream, done } = streamCardPdf({
      layout: oneQuestionCard(),
      students: someStudents(30),
      fonts: resolveCardFonts(),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-8).toString()).toContain('%%EOF');
    expect(await done).toEqual({ pages: 30, aborted: false });
  });

  it('stops rendering when the reader leaves before the end, and settles', async () => {
    const { stream, done } = streamCardPdf({
      layout: oneQuestionCard(),
      students: someStudents(2000),
      fonts: resolveCardFonts(),
    });
    stream.destroy();
    expect(await done).toEqual({ pages: 0, aborted: true });
  });

  it('releases a writer waiting for the reader to drain as soon as the reader is gone, then swallows the rest', async () => {
    const body = new PassThrough({ highWaterMark: 16 });
    const { sink, aborted } = forwardingSink(body);
    let written = false;
    sink.write(Buffer.alloc(1024), () => {
      written = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    // Nobody reads the body: the write waits for a drain.
    expect(written).toBe(false);
    body.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(true);
    await new Promise<void>((resolve) => sink.end(Buffer.alloc(4096), resolve));
    expect(aborted()).toBe(true);
  });
});

describe.each(DIALECTS)('card PDFs on %s', (dialect) => {
  let w: World;
  let hw: HomeworkDetail;
  let card: HomeworkCard;
  let tmp: string;

  beforeAll(async () => {
    w = await homeworkWorld(dialect);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-card-'));
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const paper = await w.createPaper(w.me, '七年级数学第一单元测验');
    hw = await w.publish(w.me, {
      paperId: paper.id,
      type: 'test',
      title: '第一单元测验',
      classIds: [w.classesA[0]!.id, w.classesA[1]!.id],
      startDate: '2026-11-02',
      dueDate: '2026-11-02',
    });
    card = HomeworkCardSchema.parse(data(await w.call('GET', `/teacher/homework/card/${hw.id}`, w.me)));
  });
  afterAll(async () => {
    await w.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const download = (body: object, headers = w.me) =>
    w.call('POST', `/teacher/homework/card/${hw.id}/pdf`, headers, body);

  it('streams one personalised card per student of a class of 40 as one PDF, the first page’s QR naming the first student', async () => {
    const class1 = w.classesA[0]!;
    const res = await download({ kind: 'students', classIds: [class1.id] });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(dispositionName(String(res.headers['content-disposition']))).toBe(
      `第一单元测验-${class1.name}-答题卡.pdf`,
    );
    const file = path.join(tmp, 'class1.pdf');
    fs.writeFileSync(file, res.rawPayload);
    const pagesPerCard = card.layout.pages.length;
    expect(await pdfPages(file)).toBe(40 * pagesPerCard);

    const students = await w.t.testDb.db.kysely
      .selectFrom('students')
      .select(['id', 'name', 'student_no'])
      .where('class_id', '=', class1.id)
      .orderBy('student_no')
      .execute();
    const first = students[0]!;
    const last = students.at(-1)!;
    const png = await renderPage(file, 1, 200, path.join(tmp, 'class1-p1'));
    expect(await pageQrs(png)).toEqual([
      { cardId: hw.card.cardId, version: card.version, page: 1, studentId: first.id },
    ]);
    const lastPng = await renderPage(file, 40 * pagesPerCard, 200, path.join(tmp, 'class1-last'));
    expect(await pageQrs(lastPng)).toEqual([
      { cardId: hw.card.cardId, version: card.version, page: pagesPerCard, studentId: last.id },
    ]);
    // The name is printed on the card: the text layer of page one carries it.
    const { stdout } = await run('pdftotext', ['-f', '1', '-l', '1', file, '-']);
    expect(stdout).toContain(first.name);
    expect(stdout).toContain(first.student_no);

    if (dialect === 'sqlite') {
      fs.copyFileSync(file, path.join(ARTIFACTS, 'personalised-class1.pdf'));
      await renderPage(file, 1, 100, path.join(ARTIFACTS, 'personalised-class1-page1'));
    }
  });

  it('prints every class of the homework when none is chosen, class by class', async () => {
    const res = await download({ kind: 'students' });
    expect(res.statusCode).toBe(200);
    const file = path.join(tmp, 'all.pdf');
    fs.writeFileSync(file, res.rawPayload);
    expect(await pdfPages(file)).toBe(80 * card.layout.pages.length);
    expect(dispositionName(String(res.headers['content-disposition']))).toBe(
      `第一单元测验-${w.classesA[0]!.name}、${w.classesA[1]!.name}-答题卡.pdf`,
    );
    const secondClassFirst = await w.t.testDb.db.kysely
      .selectFrom('students')
      .select('id')
      .where('class_id', '=', w.classesA[1]!.id)
      .orderBy('student_no')
      .executeTakeFirstOrThrow();
    const png = await renderPage(file, 40 * card.layout.pages.length + 1, 150, path.join(tmp, 'all-41'));
    expect((await pageQrs(png))[0]?.studentId).toBe(secondClassFirst.id);
  });

  it('refuses classes outside the homework and classes without students', async () => {
    const outside = await download({ kind: 'students', classIds: [w.classesA[4]!.id] });
    expect(outside.statusCode).toBe(400);
    expect(outside.json<{ message: string }>().message).toBe('所选班级不属于这次作业');
    const nobody = await download({
      kind: 'students',
      classIds: [w.classesA[0]!.id],
      studentIds: ['nobody'],
    });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json<{ message: string }>().message).toBe('所选班级还没有学生，无法打印个性化答题卡');
    const bad = await download({ kind: 'everyone' });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses an anonymous print of a QR card, and prints a generic card once the card asks for number bubbles', async () => {
    const refused = await download({ kind: 'generic' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(
      '这份答题卡按二维码识别学生，只能打印个性化答题卡；如需通用答题卡，请在答题卡设计中把学生识别方式改为“考号填涂”或“条形码”',
    );
    const v2 = HomeworkCardSchema.parse(
      data(
        await w.call('PUT', `/teacher/homework/card/${hw.id}`, w.me, {
          ...card.settings,
          identity: 'bubbles',
        }),
      ),
    );
    expect(v2.version).toBe(card.version + 1);
    const res = await download({ kind: 'generic' });
    expect(res.statusCode).toBe(200);
    expect(dispositionName(String(res.headers['content-disposition']))).toBe('第一单元测验-通用答题卡.pdf');
    const file = path.join(tmp, 'generic.pdf');
    fs.writeFileSync(file, res.rawPayload);
    expect(await pdfPages(file)).toBe(v2.layout.pages.length);
    const png = await renderPage(file, 1, 150, path.join(tmp, 'generic-p1'));
    expect(await pageQrs(png)).toEqual([{ cardId: hw.card.cardId, version: v2.version, page: 1 }]);
    if (dialect === 'sqlite') await renderPage(file, 1, 100, path.join(ARTIFACTS, 'generic-page1'));
  });

  it('answers 500 with a Chinese message when the host has no CJK font, before any byte of PDF', async () => {
    vi.stubEnv('ZHZY_CJK_FONT', '/nowhere/missing-font.ttc');
    try {
      const res = await download({ kind: 'students' });
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.json<{ message: string }>().message).toBe(
        '服务器缺少打印答题卡所需的中文字体，请联系网站管理员',
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('lets every teacher of the school print, and nobody of another school', async () => {
    const colleague = await download({ kind: 'students', classIds: [w.classesA[1]!.id] }, w.colleague);
    expect(colleague.statusCode).toBe(200);
    const stranger = await download({ kind: 'students' }, w.stranger);
    expect(stranger.statusCode).toBe(404);
    const strangerGeneric = await download({ kind: 'generic' }, w.stranger);
    expect(strangerGeneric.statusCode).toBe(404);
  });
});
