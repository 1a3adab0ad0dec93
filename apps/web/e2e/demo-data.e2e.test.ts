// @vitest-environment node
/**
 * Issue #22 points 10 and 7 in Chromium against the real host (SQLite, demo results and the scanned demo test
 * seeded): 「一元一次方程 课后作业」 is analysed under 一元一次方程's knowledge points only, its typical-error crops load
 * as images, and the grade trend draws it as 「阅卷中」 (it is still being marked), not as 0 %.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

const TITLE = '一元一次方程 课后作业';
let host: TestApp;
let browser: Browser;
let dataDir: string;
let homeworkId = '';

beforeAll(async () => {
  ensureBuilt();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-demo-e2e-'));
  host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, DATA_DIR: dataDir, SEED_DEMO_SCANS: 'true', SEED_DEMO_RESULTS: 'true' },
  });
  const headers = bearer((await apiSignIn(host.app, 'demo-teacher')).access_token);
  const res = await host.app.inject({
    method: 'GET',
    url: '/teacher/analysis/homeworks?page=1&size=50&withResults=true',
    headers,
  });
  const records = res.json<{ data: { records: { id: string; title: string }[] } }>().data.records;
  homeworkId = records.find((r) => r.title === TITLE)!.id;
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 60_000, interval: 250 });

async function signedIn(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(`${host.baseUrl}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
  await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOT_DIR, `demo-data-${name}.png`), fullPage: true });

describe('the demo homework in the browser', () => {
  it('analyses 一元一次方程 课后作业 under its own knowledge points and draws it 阅卷中 in the trend', async () => {
    const page = await signedIn();
    await page.goto(`${host.baseUrl}/analysis/grade?homeworkId=${homeworkId}`);
    // The trend table's row of the homework still being marked says 阅卷中, not 0%.
    const row = page.locator('tr', { hasText: TITLE }).filter({ hasText: '阅卷中' });
    await poll(() => row.count()).toBeGreaterThan(0);
    const cells = await row.first().innerText();
    expect(cells).toContain('阅卷中');
    expect(cells).not.toMatch(/(^|\s)0(\.0)?%/);
    // No knowledge point of another chapter anywhere on the homework's analysis.
    expect(await page.locator('body').innerText()).not.toMatch(/近似数|一元一次不等式组|科学记数法/);
    await shot(page, 'grade-trend');
    await page.context().close();
  }, 180_000);

  it('shows the typical-error crops of 一元一次方程 课后作业 as images', async () => {
    const page = await signedIn();
    await page.goto(`${host.baseUrl}/assistant/commentary?homeworkId=${homeworkId}`);
    const images = page.locator('figure img');
    await poll(() => images.count()).toBeGreaterThan(0);
    await poll(() =>
      images.evaluateAll((list) =>
        (list as HTMLImageElement[]).every((img) => img.complete && img.naturalWidth > 0),
      ),
    ).toBe(true);
    expect(await page.locator('body').innerText()).not.toContain('无作答图片');
    await shot(page, 'commentary-crops');
    await page.context().close();
  }, 180_000);
});
