// @vitest-environment node
/**
 * Issue 22 point 1's end in Debian's Chromium against the real host (SQLite) with the demo results seeded: demo-teacher
 * opens 错题重练, picks 七年级(1)班 and the marked 期中模拟测试, presses 「发布为作业」 and gets a homework of the class's
 * most-missed questions with its card and print links; the homework list shows it with its 答题卡 buttons. A student
 * without wrong questions gets the host's Chinese refusal.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR } from './browser';
import { newPage, shot, signIn, startDemoHost } from './teacher';

const DONE_TITLE = '期中模拟测试';
const CLASS_NAME = '七年级(1)班';

let host: TestApp;
let browser: Browser;
let demo: Awaited<ReturnType<typeof startDemoHost>> | undefined;

beforeAll(async () => {
  ensureBuilt();
  demo = await startDemoHost('rehearse');
  host = demo.host;
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

it(
  'publishes the class’s most-missed questions as a homework with its answer card',
  { timeout: 300_000 },
  async () => {
    const { context, page } = await newPage(browser, { timeout: 60_000 });
    await signIn(page, host.baseUrl);
    await page.goto(`${host.baseUrl}/rehearse/MistakesExercise`);
    const classPicker = page.getByLabel('班级', { exact: true });
    await expect.poll(() => classPicker.locator('option').count(), { timeout: 60_000 }).toBeGreaterThan(1);
    await classPicker.selectOption({ label: CLASS_NAME });
    const homeworkPicker = page.getByLabel('作业', { exact: true });
    const doneOption = homeworkPicker.locator('option', { hasText: DONE_TITLE });
    await doneOption.first().waitFor({ state: 'attached' });
    await homeworkPicker.selectOption((await doneOption.first().getAttribute('value')) ?? '');

    // Days without marked homework: the host's Chinese refusal, shown where the teacher pressed.
    await page.getByRole('radio', { name: '按日期' }).click();
    await page.getByLabel('开始日期', { exact: true }).fill('2020-01-01');
    await page.getByLabel('结束日期', { exact: true }).fill('2020-01-31');
    const emptyPanel = page.getByRole('region', { name: '发布为作业' });
    await emptyPanel.getByRole('button', { name: '发布为作业' }).click();
    await emptyPanel.getByRole('alert').waitFor();
    expect(await emptyPanel.getByRole('alert').innerText()).toBe('所选范围内没有错题，无需发布重练作业');
    await shot(page, 'rehearse-empty');
    await page.getByRole('radio', { name: '按作业' }).click();
    const panel = page.getByRole('region', { name: '发布为作业' });
    await panel.getByLabel('题数').waitFor();
    expect(await panel.getByRole('alert').count()).toBe(0);

    // The whole class: the 5 most-missed questions with a similar question each.
    await panel.getByLabel('题数').fill('5');
    await panel.getByLabel('含相似题').check();
    await panel.getByText('前 5 道题', { exact: false }).waitFor();
    await panel.getByRole('button', { name: '发布为作业' }).click();
    const status = panel.getByRole('status');
    await status.waitFor({ timeout: 120_000 });
    expect(await status.innerText()).toContain(`已发布“错题重练 · ${CLASS_NAME} · `);
    const title = /“(.+)”/.exec(await status.innerText())![1]!;
    const count = Number(/共 (\d+) 道题/.exec(await status.innerText())![1]);
    expect(count).toBeGreaterThanOrEqual(5);
    expect(count).toBeLessThanOrEqual(10);
    expect(await status.getByRole('link', { name: '答题卡', exact: true }).getAttribute('href')).toMatch(
      /\/answerCard\?homeworkId=/,
    );
    expect(await status.getByRole('link', { name: '打印试卷' }).getAttribute('href')).toMatch(
      /\/printing\?homeworkId=/,
    );
    expect(await page.locator('body').innerText()).not.toMatch(/加载失败|undefined|NaN/);
    await shot(page, 'rehearse-published');

    // The homework list has it, published to the class, with its 答题卡 buttons.
    await status.getByRole('link', { name: '去作业列表打印答题卡' }).click();
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');
    const row = page.getByRole('article', { name: title });
    await row.waitFor();
    expect(await row.innerText()).toContain(CLASS_NAME);
    await row.getByRole('button', { name: '打印答题卡' }).waitFor();
    await row.getByRole('button', { name: `${title}的更多操作` }).click();
    const design = page.getByRole('menuitem', { name: '设计答题卡' });
    await design.waitFor();
    expect(await design.getAttribute('href')).toMatch(/\/answerCard\?homeworkId=/);
    await shot(page, 'rehearse-homework-list');
    await context.close();
  },
);
