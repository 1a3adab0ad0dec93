// @vitest-environment node
/**
 * Issue #22's points 3, 5, 6 and 11 in Debian's Chromium against the real host (SQLite, demo school with marked
 * homework): a director opens 大屏展示 from the menu; a teacher opens a homework's 打印学号二维码 and gets the class's
 * roster; the basket popover opens on the paper its count belongs to; the compose screen and the analysis name 难度
 * the same way (难度系数 = 得分率, higher is easier); the school administrator sets the school's time zone and the
 * publish dialog's "today" follows it; ≥ 10 classes are listed 七年级(1), (2) … (10), (11).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { compareClassNames, dayInZone, difficultyBand, DIFFICULTY_BAND_NAMES } from '@zhzy/contracts';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';
import { composeMathPaper, hostApi, newPage, signIn, type HostApi } from './teacher';

let host: TestApp;
let browser: Browser;
let dataDir: string;
let teacherApi: HostApi;
let adminApi: HostApi;

beforeAll(async () => {
  ensureBuilt();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-first-week-more-e2e-'));
  host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, DATA_DIR: dataDir, SEED_DEMO_SCANS: 'true', SEED_DEMO_RESULTS: 'true' },
  });
  teacherApi = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
  adminApi = hostApi(host, bearer((await apiSignIn(host.app, 'demo-admin')).access_token));
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 60_000, interval: 250 });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOT_DIR, `first-week-${name}.png`), fullPage: true });

describe('a teacher’s first week, points 3, 5, 6 and 11', { timeout: 240_000 }, () => {
  it('point 3: a director opens 大屏展示 from the menu; a homework’s 打印学生二维码 lists the school’s roster', async () => {
    // The director's browser runs on Los Angeles time; the wall clock still reads the school's (Asia/Shanghai).
    const { context: dc, page: director } = await newPage(browser, { timezoneId: 'America/Los_Angeles' });
    await signIn(director, host.baseUrl, 'demo-director');
    await director
      .getByRole('navigation', { name: '主导航' })
      .getByRole('link', { name: '大屏展示' })
      .click();
    await director.waitForURL((url) => url.pathname === '/largescreen');
    await director
      .getByText(/演示学校/)
      .first()
      .waitFor();
    const clock = director.locator('header p[aria-live="off"]');
    const schoolDate = (d: Date) =>
      d.toLocaleDateString('zh-CN', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        weekday: 'long',
        timeZone: 'Asia/Shanghai',
      });
    const schoolHour = (d: Date) =>
      d.toLocaleTimeString('zh-CN', { hour12: false, timeZone: 'Asia/Shanghai' }).slice(0, 2);
    const before = new Date();
    const [time, date] = await clock.locator('span').allInnerTexts();
    const after = new Date();
    expect([schoolDate(before), schoolDate(after)]).toContain(date);
    expect([schoolHour(before), schoolHour(after)]).toContain(time!.slice(0, 2));
    // Sanity: the browser's own clock is 15 or 16 hours behind, so its day or hour would differ.
    expect(
      await director.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    ).toBe('America/Los_Angeles');
    await shot(director, 'largescreen-menu');
    await dc.close();

    const { context, page } = await newPage(browser);
    await signIn(page, host.baseUrl);
    await page.getByRole('button', { name: '更多' }).first().click();
    await page.getByRole('menuitem', { name: '打印学生二维码' }).click();
    await page.waitForURL(
      (url) => url.pathname.toLowerCase() === '/printcode' && url.searchParams.has('homeworkId'),
    );
    await page.getByText(/名单取自本校学生名册（七年级\(\d+\)班）/).waitFor();
    // No list to paste from Excel: the labels carry the roster's numbers and names.
    expect(await page.locator('textarea').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain('从 Excel 复制');
    await poll(() => page.getByText(/^\d{10} · 七年级\(\d+\)班$/).count()).toBeGreaterThan(10);
    await shot(page, 'printcode-from-homework');
    await context.close();
  });

  it('point 5: the basket popover opens on the paper its count belongs to when the selection has none', async () => {
    const stages = await teacherApi<{ id: string; name: string; subjects: { id: string; name: string }[] }[]>(
      'GET',
      '/system/stage/list',
    );
    const math = stages.find((s) => s.name === '初中')!.subjects.find((s) => s.name === '数学')!;
    const questions = await teacherApi<{ records: { id: string }[] }>(
      'GET',
      `/teacher/question/page?subjectId=${math.id}&size=4`,
    );
    await teacherApi('POST', '/teacher/paper/info/addBasket', {
      questionIds: questions.records.map((q) => q.id),
    });
    // The teacher's selection is on another subject (初中语文), which has nothing in the basket.
    const high = stages.find((s) => s.name === '初中')!;
    const chinese = high.subjects.find((s) => s.name === '语文')!;
    const { context, page } = await newPage(browser);
    await signIn(page, host.baseUrl);
    await page.evaluate((v) => localStorage.setItem('subjectSelection', JSON.stringify(v)), {
      stageId: high.id,
      subjectId: chinese.id,
    });
    await page.reload();
    const badge = page.getByTestId('basket-badge');
    await poll(async () => Number(await badge.innerText())).toBeGreaterThan(0);
    const count = Number(await badge.innerText());
    await page.getByRole('button', { name: /^试题篮，共 \d+ 题$/ }).click();
    await page.getByTestId('basket-fallback').waitFor();
    expect(await page.getByTestId('basket-fallback').innerText()).toContain('数学');
    expect(await page.getByTestId('basket-total').innerText()).toContain(String(count));
    expect(await page.getByText('试题篮是空的').count()).toBe(0);
    await shot(page, 'basket-popover');
    await context.close();
  });

  it('point 6: compose and analysis both say 难度系数 = 得分率, higher is easier', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, host.baseUrl);
    // Compose: the predicted figure is labelled, 0–1, and its level agrees with the score-rate convention.
    const paperId = await composeMathPaper(teacherApi, {
      title: '第一周 难度',
      subtitle: '',
      counts: { 单选题: 4, 解答题: 1 },
      essayScore: 12,
    });
    await page.goto(`${host.baseUrl}/edit?paperId=${paperId}`);
    const figure = page.getByTestId('paper-difficulty');
    await figure.waitFor();
    const text = await figure.innerText();
    const m = /难度系数（得分率预估，越高越容易）：(\d\.\d\d)（(容易|较易|适中|较难|困难)）/.exec(text);
    expect(m, text).not.toBeNull();
    const value = Number(m![1]);
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(1);
    // Low figures read as hard, high as easy (never 0.18（较易）).
    if (value < 0.375) expect(m![2]).toMatch(/难/);
    if (value > 0.625) expect(m![2]).toMatch(/易/);
    await shot(page, 'difficulty-compose');

    // Analysis of a marked homework: each question's 难度 agrees with its 得分率 by the same rule.
    const list = await teacherApi<{ records: { id: string; title: string }[] }>(
      'GET',
      '/teacher/analysis/homeworks?page=1&size=50&withResults=true',
    );
    const marked = list.records.find((r) => r.title.includes('期中模拟测试')) ?? list.records[0]!;
    await page.goto(`${host.baseUrl}/assistant/analysis?homeworkId=${marked.id}`);
    await page
      .getByText('难度系数 = 得分率 = 平均分 ÷ 满分（0–1，越高越容易）', { exact: false })
      .first()
      .waitFor();
    const table = page
      .locator('table', { has: page.getByRole('columnheader', { name: '区分度评价' }) })
      .first();
    await poll(() => table.locator('tbody tr').count()).toBeGreaterThan(0);
    const headers = await table.locator('thead th').allInnerTexts();
    const rateAt = headers.findIndex((h) => h.trim() === '得分率');
    const diffAt = headers.findIndex((h) => h.trim() === '难度');
    expect(rateAt).toBeGreaterThanOrEqual(0);
    expect(diffAt).toBeGreaterThanOrEqual(0);
    const rows = await table.locator('tbody tr').all();
    for (const row of rows) {
      const cells = await row.locator('td').allInnerTexts();
      const rate = Number(/([\d.]+)%/.exec(cells[rateAt]!)![1]) / 100;
      expect(cells[diffAt]!.trim(), `得分率 ${rate}`).toBe(DIFFICULTY_BAND_NAMES[difficultyBand(rate)]);
    }
    await shot(page, 'difficulty-analysis');
    await context.close();
  });

  it('point 11: the administrator sets the school’s time zone; publish’s today follows it; classes in natural order', async () => {
    // Ten and more classes in 七年级 (the demo school has (1) and (2)).
    const detail = await adminApi<{ defaultYear: { id: string } }>('GET', '/school/team/details');
    const existing = await adminApi<{ name: string }[]>(
      'GET',
      `/school/classes?yearId=${detail.defaultYear.id}`,
    );
    const have = new Set(existing.map((c) => c.name));
    for (const n of [11, 10, 3, 9, 4, 8, 5, 7, 6]) {
      if (have.has(`七年级(${n})班`)) continue;
      await adminApi('POST', '/school/class', { yearId: detail.defaultYear.id, name: `七年级(${n})班` });
    }
    const { context: ac, page: admin } = await newPage(browser);
    await signIn(admin, host.baseUrl, 'demo-admin');
    await admin.goto(`${host.baseUrl}/team/details`);
    await admin.getByRole('button', { name: '编辑信息' }).click();
    await admin.getByRole('button', { name: /^时区/ }).click();
    await admin.getByRole('option', { name: '洛杉矶时间（America/Los_Angeles）' }).click();
    await admin.getByRole('button', { name: '保存' }).click();
    await admin.getByText('学校信息已保存').first().waitFor();
    await admin.getByText('洛杉矶时间（America/Los_Angeles）').first().waitFor();
    await shot(admin, 'school-time-zone');
    // The classes of the year, in natural order.
    await admin.getByRole('tab', { name: '学年与班级' }).click();
    const names = admin.locator('table').last().locator('tbody tr td:first-child');
    await poll(() => names.count()).toBeGreaterThanOrEqual(11);
    const listed = (await names.allInnerTexts()).map((s) => s.trim()).filter((s) => s.startsWith('七年级'));
    expect(listed.slice(0, 11)).toEqual(Array.from({ length: 11 }, (_, i) => `七年级(${i + 1})班`));
    await shot(admin, 'classes-natural-order');
    await ac.close();

    const { context, page } = await newPage(browser);
    await signIn(page, host.baseUrl);
    await page.getByRole('button', { name: '发布作业' }).first().click();
    const today = dayInZone(new Date(), 'America/Los_Angeles');
    await poll(() => page.getByLabel('开始日期', { exact: true }).inputValue()).toBe(today);
    const dialogClasses = page.getByRole('dialog').locator('label', { hasText: /^七年级\(\d+\)班$/ });
    await poll(() => dialogClasses.count()).toBeGreaterThanOrEqual(11);
    const inDialog = (await dialogClasses.allInnerTexts()).map((s) => s.trim());
    expect(inDialog).toEqual([...inDialog].sort(compareClassNames));
    expect(inDialog.indexOf('七年级(2)班')).toBeLessThan(inDialog.indexOf('七年级(10)班'));
    await shot(page, 'publish-school-today');
    await context.close();
  });
});
