// @vitest-environment node
/**
 * Issue 9's screens in Debian's Chromium against the real host (SQLite) with the demo results and the scanned demo
 * test seeded: every screen as demo-teacher and as demo-director (a screenshot of each under test-artifacts), the
 * data centre refused to demo-teacher (the guard, the host's 403, and the no-permission screen a stale record
 * meets), and a class set marked through the API showing up in the analysis with no step in between.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

const PASSWORD = 'Demo@2026';
/** A finished demo test (all written answers marked) and the scanned test still waiting for its marks. */
const DONE_TITLE = '期中模拟测试';
const FRESH_TITLE = '七年级数学 有理数单元测验';

type User = 'demo-teacher' | 'demo-director';

let host: TestApp;
let browser: Browser;
let dataDir: string;
const headers: Record<User, { authorization: string }> = {} as never;
let doneId = '';
let classId = '';
let studentId = '';

async function api<T>(user: User, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<T> {
  const res = await host.app.inject({
    method,
    url,
    headers: headers[user],
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json<{ data: T }>().data;
}

interface HomeworkItem {
  id: string;
  title: string;
}

async function homeworkId(title: string, withResults: boolean): Promise<string> {
  const page = await api<{ records: HomeworkItem[] }>(
    'demo-teacher',
    'GET',
    `/teacher/analysis/homeworks?page=1&size=50&withResults=${withResults}`,
  );
  const hw = page.records.find((h) => h.title === title);
  expect(hw, `${title} among ${page.records.map((h) => h.title).join(', ')}`).toBeDefined();
  return hw!.id;
}

beforeAll(async () => {
  ensureBuilt();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-analysis-e2e-'));
  host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, DATA_DIR: dataDir, SEED_DEMO_SCANS: 'true', SEED_DEMO_RESULTS: 'true' },
  });
  for (const user of ['demo-teacher', 'demo-director'] as const) {
    headers[user] = bearer((await apiSignIn(host.app, user)).access_token);
  }
  doneId = await homeworkId(DONE_TITLE, true);
  const filters = await api<{ classes: { id: string; name: string }[] }>(
    'demo-teacher',
    'GET',
    '/teacher/analysis/filters',
  );
  classId = filters.classes.find((c) => c.name === '七年级(1)班')!.id;
  const students = await api<{ id: string }[]>(
    'demo-teacher',
    'GET',
    `/teacher/analysis/students?classId=${classId}`,
  );
  studentId = students[0]!.id;
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function newPage(user: User, width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(`${host.baseUrl}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill(user);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');
  return { context, page };
}

/** expect.poll with room for a loaded machine. */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 60_000, interval: 250 });

/**
 * Waits until the screen has settled: no skeleton, no chart still loading, the network quiet; then checks the
 * screen is in Chinese (no English word outside the names of file formats) and says nothing failed.
 */
async function settled(page: Page): Promise<string> {
  await page.waitForLoadState('networkidle');
  await poll(() =>
    page.evaluate(
      () =>
        document.querySelectorAll('.animate-pulse').length +
        [...document.querySelectorAll('p')].filter((p) => /图表加载中|正在加载/.test(p.textContent ?? ''))
          .length,
    ),
  ).toBe(0);
  await page.waitForLoadState('networkidle');
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/加载失败|失败，请稍后重试|undefined|NaN|null/);
  // Option letters of multiple-choice answers (ABD) and file formats are not English.
  const english = (text.match(/[A-Za-z]{3,}/g) ?? []).filter(
    (w) => !/^(Excel|PDF|ICP)$/i.test(w) && !/^[A-H]+$/.test(w),
  );
  expect(english, `English on ${page.url()}`).toEqual([]);
  return text;
}

/** Every chart on the page was drawn (a canvas with pixels, not the failure message). */
async function chartsDrawn(page: Page): Promise<number> {
  await poll(() => page.locator('[role="img"] canvas').count()).toBeGreaterThan(0);
  expect(await page.getByText('图表加载失败').count()).toBe(0);
  return page.locator('[role="img"] canvas').count();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `analysis-${name}.png`), fullPage: true });
}

/** Issue 9's screens, with what each must show once settled. */
const SCREENS: { name: string; url: () => string; charts: boolean; director?: boolean; expect: RegExp }[] = [
  { name: 'paperlist', url: () => '/paperlist', charts: false, expect: new RegExp(DONE_TITLE) },
  {
    name: 'grade',
    url: () => `/analysis/grade?homeworkId=${doneId}`,
    charts: true,
    expect: /分数段分布[\s\S]*班级对比/,
  },
  {
    name: 'class',
    url: () => `/analysis/class?homeworkId=${doneId}&classId=${classId}`,
    charts: true,
    expect: /七年级\(1\)班/,
  },
  {
    name: 'person',
    url: () => `/analysis/person?classId=${classId}&studentId=${studentId}`,
    charts: true,
    expect: new RegExp(DONE_TITLE),
  },
  {
    name: 'assistant-analysis',
    url: () => `/assistant/analysis?homeworkId=${doneId}`,
    charts: true,
    expect: /得分率/,
  },
  {
    name: 'commentary',
    url: () => `/assistant/commentary?homeworkId=${doneId}`,
    charts: true,
    expect: /讲评/,
  },
  { name: 'details', url: () => `/assistant/details?homeworkId=${doneId}`, charts: false, expect: /总分/ },
  {
    name: 'report',
    url: () => `/assistant/papaerReport?homeworkId=${doneId}`,
    charts: true,
    expect: new RegExp(DONE_TITLE),
  },
  { name: 'printgrade', url: () => `/printgrade?homeworkId=${doneId}`, charts: false, expect: /成绩/ },
  {
    name: 'printgradetest',
    url: () => `/printgradetest?homeworkId=${doneId}`,
    charts: false,
    expect: /成绩/,
  },
  { name: 'bigdata', url: () => '/bigData', charts: true, expect: /数据概览[\s\S]*阅卷进度/ },
  { name: 'largescreen', url: () => '/largescreen', charts: true, expect: /教学数据大屏[\s\S]*阅卷进度/ },
  {
    name: 'datacenter-subject',
    url: () => '/dataCenter/subject',
    charts: true,
    director: true,
    expect: /各学科统计/,
  },
  {
    name: 'datacenter-correctscore',
    url: () => `/dataCenter/correctScore?homeworkId=${doneId}`,
    charts: false,
    director: true,
    expect: /阅卷老师/,
  },
  {
    name: 'datacenter-averagescore',
    url: () => `/dataCenter/averageScore?homeworkId=${doneId}`,
    charts: true,
    director: true,
    expect: /各班平均分/,
  },
];

describe('analysis screens in the browser', () => {
  for (const user of ['demo-teacher', 'demo-director'] as const) {
    it(`shows every screen of issue 9 to ${user}`, async () => {
      const { context, page } = await newPage(user);
      for (const screen of SCREENS.filter((s) => !s.director || user === 'demo-director')) {
        await page.goto(`${host.baseUrl}${screen.url()}`);
        const text = await settled(page);
        expect(text, `${screen.name} as ${user}`).toMatch(screen.expect);
        if (screen.charts) await chartsDrawn(page);
        await shot(page, `${user}-${screen.name}`);
      }
      await context.close();
    }, 600_000);
  }

  it('keeps the data centre from demo-teacher: the guard, the host’s 403 and a no-permission screen', async () => {
    // The host refuses every data-centre call to a teacher who is not a grade director.
    for (const url of [
      '/teacher/data-center/subject',
      `/teacher/data-center/correct-score?homeworkId=${doneId}`,
      `/teacher/data-center/average-score?homeworkId=${doneId}`,
    ]) {
      const res = await host.app.inject({ method: 'GET', url, headers: headers['demo-teacher'] });
      expect(res.statusCode, url).toBe(403);
      const director = await host.app.inject({ method: 'GET', url, headers: headers['demo-director'] });
      expect(director.statusCode, url).toBe(200);
    }

    const { context, page } = await newPage('demo-teacher');
    // No 数据中心 in the menu, and the guard sends a typed-in address back with the message.
    expect(
      await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '数据中心' }).count(),
    ).toBe(0);
    await page.goto(`${host.baseUrl}/dataCenter/subject`);
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');
    await page.getByText('很抱歉，您暂无该操作权限').first().waitFor();

    // A stored user record that still says grade director (the flag was taken away since sign-in) gets past the
    // web guard; the host's 403 then shows the no-permission screen in place of the report.
    await page.evaluate(() => {
      for (const key of Object.keys(localStorage)) {
        const value = localStorage.getItem(key) ?? '';
        if (!value.includes('"gradeDirector":false')) continue;
        localStorage.setItem(key, value.replace('"gradeDirector":false', '"gradeDirector":true'));
      }
    });
    await page.goto(`${host.baseUrl}/dataCenter/subject`);
    const refused = page.getByRole('alert').filter({ hasText: '数据中心仅对年级主任开放' });
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/403[\s\S]*数据中心仅对年级主任开放/);
    expect(await page.getByRole('table').count()).toBe(0);
    await shot(page, 'demo-teacher-datacenter-403');
    await context.close();
  }, 240_000);

  it('shows the analysis of a freshly marked class set without any manual step', async () => {
    const freshId = await homeworkId(FRESH_TITLE, false);
    const { context, page } = await newPage('demo-teacher');
    await page.goto(`${host.baseUrl}/analysis/grade?homeworkId=${freshId}`);
    await settled(page);
    await page.getByText('这次作业还没有出分的学生').waitFor();
    await shot(page, 'fresh-before');

    // Mark every written answer of the class set through the API, as a marker at the bench would.
    const tasks = await api<{ homeworkId: string; blocks: { id: string; canMark: boolean }[] }[]>(
      'demo-teacher',
      'GET',
      '/teacher/mark/tasks',
    );
    const task = tasks.find((t) => t.homeworkId === freshId)!;
    expect(task.blocks.length).toBeGreaterThan(0);
    let marked = 0;
    for (const b of task.blocks.filter((x) => x.canMark)) {
      const block = await api<{ questions: { questionId: string; fullScore: number }[] }>(
        'demo-teacher',
        'GET',
        `/teacher/mark/block/${b.id}`,
      );
      const full = new Map(block.questions.map((q) => [q.questionId, q.fullScore]));
      for (;;) {
        const next = await api<{ items: { sheetId: string; answers: { questionId: string }[] }[] }>(
          'demo-teacher',
          'GET',
          `/teacher/mark/block/${b.id}/next?count=10`,
        );
        if (next.items.length === 0) break;
        for (const item of next.items) {
          marked++;
          await api('demo-teacher', 'POST', `/teacher/mark/block/${b.id}/mark`, {
            sheetId: item.sheetId,
            // Scores spread over the range: every third student full marks, the others half or nothing.
            scores: item.answers.map((a) => {
              const f = full.get(a.questionId)!;
              return {
                questionId: a.questionId,
                score: marked % 3 === 0 ? f : marked % 3 === 1 ? Math.floor(f / 2) : 0,
              };
            }),
          });
        }
      }
    }
    expect(marked).toBeGreaterThan(0);

    // What the screen must now show, from the sheets' totals in results.
    const sheets = await host.testDb.db.kysely
      .selectFrom('sheets')
      .select(['total_score_tenths', 'unscored_count'])
      .where('homework_id', '=', freshId)
      .execute();
    const scored = sheets.filter((s) => s.unscored_count === 0);
    expect(scored.length).toBeGreaterThan(0);
    const average = scored.reduce((s, x) => s + x.total_score_tenths / 10, 0) / scored.length;

    // Opening the screen again is all it takes: no recompute, no refresh button.
    await page.goto(`${host.baseUrl}/paperlist`);
    await page.goto(`${host.baseUrl}/analysis/grade?homeworkId=${freshId}`);
    const text = await settled(page);
    await chartsDrawn(page);
    expect(text).not.toContain('这次作业还没有出分的学生');
    expect(text).toContain(`参考 ${scored.length}/`);
    const shown = await page.getByText('平均分', { exact: true }).first().locator('..').innerText();
    expect(shown).toContain(String(Math.round(average * 10) / 10));
    await shot(page, 'fresh-after');
    await context.close();
  }, 600_000);
});
