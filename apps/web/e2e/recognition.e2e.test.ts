// @vitest-environment node
/**
 * Recognition on /scan in Debian's Chromium with a real host: a class set of filled personalised cards (rendered,
 * rasterised with pdftoppm, pencil-filled) is uploaded and read by the worker pool; the teacher sees the tally and
 * the students still missing, fixes a double-marked question from the exception queue, and reads the objective
 * scores in the review.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { HomeworkCardSchema } from '@zhzy/contracts';
import { makeSheet, renderFixture } from '@zhzy/answer-card/recognise/testing';
import { Q, data, homeworkWorld, type World } from '../../server/test/homework-fixtures';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-recognition-e2e-'));
let w: World;
let browser: Browser;
let origin = '';

function multipart(bytes: Buffer, filename: string) {
  const boundary = `----zhzy${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

beforeAll(async () => {
  ensureBuilt();
  w = await homeworkWorld('sqlite', undefined, { RECOGNITION_WORKERS: '1', DATA_DIR: tmp, WEB_DIST });
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = w.t.app.server.address();
  origin = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
  const paper = await w.createPaper(w.me);
  const classId = w.classesA[0]!.id;
  const hw = await w.publish(w.me, {
    paperId: paper.id,
    type: 'test',
    title: '第一单元测验',
    classIds: [classId],
    startDate: '2026-11-02',
    dueDate: '2026-11-09',
  });
  const students = await w.t.testDb.db.kysely
    .selectFrom('students')
    .select(['id', 'name', 'student_no'])
    .where('class_id', '=', classId)
    .orderBy('student_no')
    .limit(4)
    .execute();
  const card = HomeworkCardSchema.parse(data(await w.call('GET', `/teacher/homework/card/${hw.id}`, w.me)));
  const fixture = await renderFixture(
    tmp,
    'class',
    card.layout,
    students.map((s) => ({ id: s.id, name: s.name, number: s.student_no })),
  );
  const year = data<{ id: string; isDefault: boolean }[]>(
    await w.call('GET', `/system/class?orgId=${w.orgA}&type=1`, w.me),
  ).find((y) => y.isDefault)!.id;
  const batchId = data<{ batch: { id: string } }>(
    await w.call('POST', '/teacher/scan/batch', w.me, { schoolYearId: year, source: 'upload' }),
  ).batch.id;
  for (let i = 0; i < students.length; i++) {
    const sheet = await makeSheet(tmp, {
      name: `s${i}`,
      fixture,
      copy: i,
      dpi: 200,
      plan: { mix: { fill: 2, dark: 1 }, blankChance: 0, ...(i === 1 ? { doubleMarked: [Q.single3] } : {}) },
      distortion: { rotateDeg: i - 1.5, format: 'jpeg', quality: 85, density: true },
      seed: i + 3,
    });
    const { body, type } = multipart(sheet.bytes, `p-${i + 1}.jpg`);
    const res = await w.t.app.inject({
      method: 'POST',
      url: `/teacher/scan/batch/${batchId}/page`,
      headers: { ...w.me, 'content-type': type },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
  }
  await w.t.app.jobs.drain();
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await w?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('recognition on /scan', () => {
  it('shows the tally, fixes a double mark from the queue and shows the objective scores', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
    await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await page.waitForURL((url) => url.pathname === '/paperList');
    await page.goto(`${origin}/scan`);

    const panel = page.getByTestId('recognition-panel');
    await expect.poll(() => panel.getByTestId('tally').innerText()).toMatch(/已读答卡\s*4/);
    await expect.poll(() => panel.getByTestId('tally-homework').innerText()).toMatch(/已识别 4 \/ 40 名学生/);
    const exception = panel.getByTestId('exception').filter({ hasText: '单选题涂了多个选项' });
    await expect.poll(() => exception.count()).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'recognition-panel.png'), fullPage: true });

    await exception.getByRole('button', { name: '选择答案' }).click();
    const options = exception.getByRole('group', { name: '第 1 题' });
    await options.getByRole('button', { name: 'B', exact: true }).click();
    await exception.getByRole('button', { name: '确定' }).click();
    await expect.poll(() => panel.getByTestId('exception').count()).toBe(0);

    await panel.getByRole('button', { name: '复核答卡' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('review-total').innerText()).toMatch(/客观题 \d+(\.\d)? 分/);
    await expect.poll(() => dialog.locator('img').count()).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'recognition-review.png') });
    await context.close();
  }, 120_000);
});
