// @vitest-environment node
/**
 * Issue #22's points 3 and 11 in Debian's Chromium against the real host (SQLite, demo school): the 阅卷/考试 menu
 * opens the product's own marking, 使用说明 its own help pages, directors see 数据大屏; and in an English browser the
 * publish dialog's dates stay in Chinese form with a Chinese calendar.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

let host: TestApp;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  ensureBuilt();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-first-week-e2e-'));
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST, DATA_DIR: dataDir } });
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signedIn(user: string, locale = 'zh-CN'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${host.baseUrl}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill(user);
  await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOT_DIR, `first-week-${name}.png`), fullPage: true });

it('opens the product’s own marking from 阅卷/考试 and its own help from 使用说明', async () => {
  const page = await signedIn('demo-teacher');
  const nav = page.getByRole('navigation', { name: '主导航' });
  await nav.getByRole('link', { name: '阅卷/考试' }).click();
  await page.waitForURL((url) => url.pathname === '/correct');
  expect(page.context().pages()).toHaveLength(1);
  await shot(page, 'menu-correct');
  await page.getByTestId('side-bar').getByRole('link', { name: '使用说明' }).click();
  await page.waitForURL((url) => url.pathname === '/help');
  await expect
    .poll(() => page.locator('section[id] > h2').allInnerTexts(), { timeout: 60_000 })
    .toEqual([
      '一、组卷',
      '二、答题卡',
      '三、发布与打印',
      '四、扫描',
      '五、没有扫描仪时用手机拍照',
      '六、先阅后扫：在纸上批改后再扫描',
      '七、阅卷',
      '八、学情分析',
    ]);
  // Every picture of the journey is there and loads (no broken image on the teacher's help page).
  const figures = page.locator('section[id] figure img');
  await expect.poll(() => figures.count()).toBe(8);
  for (const img of await figures.all()) {
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 60_000 })
      .toBeGreaterThan(600);
  }
  await shot(page, 'help');
  await page.context().close();
}, 180_000);

it('gives a grade director 数据大屏 in the menu, and keeps it from a plain teacher', async () => {
  const teacher = await signedIn('demo-teacher');
  expect(
    await teacher.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '数据大屏' }).count(),
  ).toBe(0);
  await teacher.context().close();
  const director = await signedIn('demo-director');
  await director.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '数据大屏' }).click();
  await director.waitForURL((url) => url.pathname === '/bigData');
  await shot(director, 'bigdata-menu');
  await director.context().close();
}, 180_000);

it('shows the publish dialog’s dates in Chinese form in an English browser, today as Beijing counts it', async () => {
  const page = await signedIn('demo-teacher', 'en-US');
  await page.getByRole('button', { name: '发布作业' }).first().click();
  const start = page.getByLabel('开始日期', { exact: true });
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  await expect.poll(() => start.inputValue(), { timeout: 60_000 }).toBe(today);
  await page.getByRole('button', { name: '开始日期：打开日历' }).click();
  const calendar = page.getByTestId('date-calendar');
  await expect
    .poll(() => calendar.innerText(), { timeout: 60_000 })
    .toContain(`${Number(today.slice(0, 4))}年${Number(today.slice(5, 7))}月`);
  expect(await calendar.innerText()).toMatch(/一\s*二\s*三\s*四\s*五\s*六\s*日/);
  await shot(page, 'dates-en-browser');
  await page.context().close();
}, 180_000);
