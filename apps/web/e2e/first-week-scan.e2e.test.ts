// @vitest-environment node
/**
 * Issue #22 points 4 and 2 in Debian's Chromium with a real host: the teacher opens /scan from a homework's 「扫描」
 * button and sees that homework named and only its batches (another homework's newer batch is not offered); then
 * opens 「查看原图」 on a double-marked question and looks into the page (enlarged on the question, bubbles outlined
 * with what was read, wheel and keys zoom), fixes it from the buttons beside the image, and in 复核答卡 zooms the
 * page and confirms the whole class with 「全部确认」.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HomeworkCardSchema } from '@zhzy/contracts';
import { makeSheet, renderFixture } from '@zhzy/answer-card/recognise/testing';
import { Q, data, homeworkWorld, type World } from '../../server/test/homework-fixtures';
import { ensureBuilt, launchBrowser, WEB_DIST } from './browser';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../../test-artifacts/first-week');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-first-week-scan-'));
const TITLE = '第一单元测验';
const OTHER = '第二单元测验';
let w: World;
let browser: Browser;
let origin = '';
let homeworkId = '';

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
  const publish = (title: string) =>
    w.publish(w.me, {
      paperId: paper.id,
      type: 'test',
      title,
      classIds: [classId],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    });
  const hw = await publish(TITLE);
  homeworkId = hw.id;
  const other = await publish(OTHER);
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
  const batchId = data<{ batch: { id: string } }>(
    await w.call('POST', '/teacher/scan/batch', w.me, {
      schoolYearId: w.yearA,
      source: 'upload',
      homeworkId,
    }),
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
  // Another homework's batch, started later: /scan without a homework would open on it.
  await new Promise((r) => setTimeout(r, 5));
  data(
    await w.call('POST', '/teacher/scan/batch', w.me, {
      schoolYearId: w.yearA,
      source: 'upload',
      homeworkId: other.id,
    }),
  );
  browser = await launchBrowser();
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await w?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function signIn(page: Page) {
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
  await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname === '/paperList');
}

/** Waits for what the teacher sees (the machine is shared and busy). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 200 });

const scaleOf = async (page: Page) =>
  Number(await page.getByTestId('zoomable-page').getAttribute('data-scale'));

describe('a teacher’s first week: scanning', () => {
  it('opens /scan from the homework’s 扫描 button: the homework is named and only its batches are shown', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page);
    const row = page.getByTestId('homework-row').filter({ hasText: TITLE });
    await row.getByRole('link', { name: '扫描', exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname === '/scan' && url.searchParams.get('homeworkId') === homeworkId,
    );
    await poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(`扫描 · ${TITLE}`);
    await page.getByText('本次扫描的答题卡都归入这份作业').waitFor();
    const panel = page.getByTestId('recognition-panel');
    await poll(() => panel.getByTestId('tally').innerText()).toMatch(/已读答卡\s*4/);
    const homeworkLines = panel.getByTestId('tally-homework');
    await poll(() => homeworkLines.allInnerTexts()).toEqual([expect.stringContaining(TITLE)]);
    // The batch picker offers this homework's batch only (the other homework's newer batch is left out).
    await panel
      .getByRole('button', { name: /扫描批次|批次/ })
      .first()
      .click();
    await poll(() => page.getByRole('option').count()).toBe(1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'scan-bound-to-homework.png') });
    await page.keyboard.press('Escape');

    // 扫描其他作业: the screen unbinds and the newest batch (the other homework's, empty) is offered first.
    await page.getByRole('link', { name: '扫描其他作业' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('扫描');
    await panel
      .getByRole('button', { name: /扫描批次|批次/ })
      .first()
      .click();
    await poll(() => page.getByRole('option').count()).toBe(2);
    await context.close();
  }, 180_000);

  it('looks into the flagged question: enlarged, bubbles outlined, zoom by wheel and keys, fixes beside it; 复核答卡 zooms and 全部确认', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page);
    await page.goto(`${origin}/scan?homeworkId=${homeworkId}`);
    const panel = page.getByTestId('recognition-panel');
    const exception = panel.getByTestId('exception').filter({ hasText: '单选题涂了多个选项' });
    await poll(() => exception.count()).toBe(1);
    await exception.getByRole('button', { name: '查看原图' }).click();

    const viewer = exception.getByTestId('zoomable-page');
    await viewer.locator('img').waitFor();
    // Opened enlarged on the question, with every option of it outlined and the two read as filled in green.
    await poll(() => scaleOf(page)).toBeGreaterThan(2);
    await poll(() => viewer.locator('g[data-focus="true"]').count()).toBeGreaterThanOrEqual(3);
    await poll(() =>
      viewer.locator('g[data-focus="true"][data-state="filled"]').count(),
    ).toBeGreaterThanOrEqual(2);
    await poll(() => viewer.locator('g[data-focus="true"] text').allTextContents()).toEqual(
      expect.arrayContaining(['A', 'B', 'C']),
    );
    // The fixes sit beside the image, not under it.
    const fixes = exception.getByTestId('exception-fixes');
    const [imageBox, fixesBox] = [await viewer.boundingBox(), await fixes.boundingBox()];
    expect(fixesBox!.x).toBeGreaterThan(imageBox!.x + imageBox!.width - 1);
    expect(fixesBox!.y).toBeLessThan(imageBox!.y + imageBox!.height);
    await viewer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, 'exception-viewer-question.png') });

    // Keys: 0 shows the whole page, + zooms in; the wheel zooms where the pointer is.
    await viewer.focus();
    await page.keyboard.press('0');
    await poll(() => scaleOf(page)).toBe(1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'exception-viewer-whole-page.png') });
    await page.keyboard.press('+');
    await poll(() => scaleOf(page)).toBeCloseTo(1.25, 2);
    await page.mouse.move(imageBox!.x + imageBox!.width / 2, imageBox!.y + imageBox!.height / 3);
    await page.mouse.wheel(0, -300);
    await poll(() => scaleOf(page)).toBeGreaterThan(1.3);

    await fixes.getByRole('button', { name: '选择答案' }).click();
    await fixes
      .getByRole('group', { name: '第 1 题' })
      .getByRole('button', { name: 'B', exact: true })
      .click();
    await fixes.getByRole('button', { name: '确定' }).click();
    await poll(() => panel.getByTestId('exception').count()).toBe(0);

    await panel.getByRole('button', { name: '复核答卡' }).click();
    const dialog = page.getByRole('dialog', { name: `复核答卡 · ${TITLE}` });
    const reviewPage = dialog.getByTestId('zoomable-page').first();
    await reviewPage.locator('img').waitFor();
    await poll(async () => Number(await reviewPage.getAttribute('data-scale'))).toBe(1);
    await reviewPage.focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await poll(async () => Number(await reviewPage.getAttribute('data-scale'))).toBeCloseTo(1.5625, 2);
    await page.keyboard.press('ArrowDown');
    await page.screenshot({ path: path.join(ARTIFACTS, 'review-zoomed.png') });

    const confirmAll = dialog.getByRole('button', { name: '全部确认' });
    await poll(() => confirmAll.isEnabled()).toBe(true);
    await confirmAll.click();
    const ask = page.getByRole('dialog', { name: '确认全部答卡' });
    await ask.getByText('还有 4 份答卡待确认').waitFor();
    await ask.getByRole('button', { name: '全部确认' }).click();
    await poll(() => dialog.getByTestId('confirm-all-state').innerText()).toBe('全部答卡已确认');
    await poll(() => dialog.getByText('待确认').count()).toBe(0);
    await poll(() => dialog.getByText('已确认', { exact: false }).count()).toBeGreaterThanOrEqual(4);
    await page.screenshot({ path: path.join(ARTIFACTS, 'review-all-confirmed.png') });
    await context.close();
  }, 240_000);
});
