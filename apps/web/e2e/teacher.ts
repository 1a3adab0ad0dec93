/**
 * What the browser tests do again and again as a teacher: open a page, sign in through the home page's dialog, keep
 * a screenshot, check a downloaded PDF and draw its first page, call the host's API as the signed-in teacher, and
 * compose a final mathematics paper the way /edit does.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '@zhzy/server/testing';
import { SCREENSHOT_DIR, WEB_DIST } from './browser';

/** The host the demo school runs on (SQLite, its own data folder, scans and results seeded) serving the built web. */
export async function startDemoHost(
  name: string,
): Promise<{ host: TestApp; dataDir: string; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `zhzy-${name}-e2e-`));
  const host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, DATA_DIR: dataDir, SEED_DEMO_SCANS: 'true', SEED_DEMO_RESULTS: 'true' },
  });
  return {
    host,
    dataDir,
    close: async () => {
      await host.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The demo school's password (README). */
export const DEMO_PASSWORD = 'Demo@2026';

export interface PageOptions {
  /** Viewport width; below 600 px the height is a phone's. */
  width?: number;
  /** Default timeout of every locator and wait. */
  timeout?: number;
  /** The browser's own time zone (IANA id); the machine's when left out. */
  timezoneId?: string;
}

/** A new Chinese-locale context and page, downloads accepted. */
export async function newPage(
  browser: Browser,
  { width = 1440, timeout = 20_000, timezoneId }: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    locale: 'zh-CN',
    deviceScaleFactor: 1,
    acceptDownloads: true,
    ...(timezoneId ? { timezoneId } : {}),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  return { context, page };
}

/** Waits until the address is `wanted` (routes are matched whatever their letter case). */
export const waitForPath = (page: Page, wanted: string) =>
  page.waitForURL((url) => url.pathname.toLowerCase() === wanted.toLowerCase());

/** Signs in through the home page's 登录/注册 dialog and waits for the homework list, where a teacher lands. */
export async function signIn(
  page: Page,
  origin: string,
  username = 'demo-teacher',
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await waitForPath(page, '/paperList');
}

/**
 * Keeps a full-page screenshot `<name>-<width>.png` once the page is idle, and on a phone width its first screen
 * too. `fromTop` scrolls up first: sticky bars are drawn where the page is scrolled to.
 */
export async function shot(page: Page, name: string, { fromTop = false } = {}): Promise<void> {
  await page.waitForLoadState('networkidle');
  if (fromTop) await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  if (width < 600)
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-first-screen.png`) });
}

/** The page count pdfinfo reads from a PDF file. */
export function pdfPageCount(pdfPath: string): number {
  const info = execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' });
  return Number(/Pages:\s+(\d+)/.exec(info)![1]);
}

/**
 * Draws a PDF's first page at 60 dpi with pdftoppm, to look at: `<outPrefix>-1.png` (or `-01`, pdftoppm pads to the
 * page count), or exactly `<outPrefix>.png` with `singleFile`.
 */
export function drawFirstPage(pdfPath: string, outPrefix: string, { singleFile = false } = {}): void {
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '60',
    '-f',
    '1',
    '-l',
    '1',
    ...(singleFile ? ['-singlefile'] : []),
    pdfPath,
    outPrefix,
  ]);
}

export type HostApi = <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => Promise<T>;

/** Calls the host in-process with the given headers; a non-200 answer fails the test with its body. */
export function hostApi(host: TestApp, headers: Record<string, string>): HostApi {
  return async <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object): Promise<T> => {
    const res = await host.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json<{ data: T }>().data;
  };
}

export interface MathPaper {
  title: string;
  subtitle: string;
  /** How many questions of each type, in order (e.g. `{ 单选题: 8, 填空题: 2, 解答题: 2 }`). */
  counts: Record<string, number>;
  /** The score of each question of the 解答 section (the others keep their section's default). */
  essayScore: number;
}

/** A final 初中数学 paper made the way /edit makes one: basket → composeFromBasket → savePaper (final). */
export async function composeMathPaper(api: HostApi, paper: MathPaper): Promise<string> {
  const stages = await api<{ name: string; subjects: { id: string; name: string }[] }[]>(
    'GET',
    '/system/stage/list',
  );
  const math = stages.find((s) => s.name === '初中')!.subjects.find((s) => s.name === '数学')!;
  const types = await api<{ id: string; name: string }[]>(
    'GET',
    `/teacher/question/types?subjectId=${math.id}`,
  );
  const questionIds: string[] = [];
  for (const [typeName, n] of Object.entries(paper.counts)) {
    const type = types.find((t) => t.name === typeName)!;
    const page = await api<{ records: { id: string }[] }>(
      'GET',
      `/teacher/question/page?subjectId=${math.id}&typeId=${type.id}&size=${n}`,
    );
    questionIds.push(...page.records.slice(0, n).map((q) => q.id));
  }
  expect(questionIds).toHaveLength(Object.values(paper.counts).reduce((a, b) => a + b, 0));
  const basket = await api<{ paperInfo: { id: string; subjectId: string }[] }>(
    'POST',
    '/teacher/paper/info/addBasket',
    { questionIds },
  );
  const basketPaperId = basket.paperInfo.find((p) => p.subjectId === math.id)!.id;
  const draft = await api<{
    id: string;
    version: number;
    sections: {
      id: string;
      typeId: string | null;
      title: string;
      note: string;
      defaultScore: number;
      items: { questionId: string; scoreOverride: number | null }[];
    }[];
  }>('POST', '/teacher/paper/compose', { basketPaperId, fresh: true });
  await api('PUT', `/teacher/paper/detail/${draft.id}`, {
    version: draft.version,
    title: paper.title,
    subtitle: paper.subtitle,
    status: 'final',
    sections: draft.sections.map((s) => ({
      id: s.id,
      typeId: s.typeId,
      title: s.title,
      note: s.note,
      defaultScore: s.typeId && s.title.includes('解答') ? paper.essayScore : s.defaultScore,
      items: s.items.map((i) => ({ questionId: i.questionId, score: i.scoreOverride })),
    })),
  });
  return draft.id;
}
