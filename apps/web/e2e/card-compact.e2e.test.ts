// @vitest-environment node
/**
 * Compact answer cards (ADR 0050) in Debian's Chromium against the real host: a 12-question quiz (8 单选, 2 填空,
 * 2 解答 of 15 points) gets a one-page A4 card, and the teacher sees that before printing — on the card screen
 * (每名学生 1 页) and in the print dialog (the class's pages and sheets).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST, WEB_ROOT } from './browser';

const PASSWORD = 'Demo@2026';
const PAPER_TITLE = '七年级数学 第一单元小测';
const ARTIFACTS = path.resolve(WEB_ROOT, '../../test-artifacts/cards');

let host: TestApp;
let browser: Browser;
let origin: string;
let paperId: string;
let headers: { authorization: string };

async function api<T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object): Promise<T> {
  const res = await host.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json<{ data: T }>().data;
}

/** The quiz as /edit makes a final paper: basket → composeFromBasket → savePaper, 解答题 at 15 points each. */
async function composeQuiz(): Promise<string> {
  const stages = await api<{ name: string; subjects: { id: string; name: string }[] }[]>(
    'GET',
    '/system/stage/list',
  );
  const math = stages.find((s) => s.name === '初中')!.subjects.find((s) => s.name === '数学')!;
  const types = await api<{ id: string; name: string }[]>(
    'GET',
    `/teacher/question/types?subjectId=${math.id}`,
  );
  const pick = async (typeName: string, n: number) => {
    const type = types.find((t) => t.name === typeName)!;
    const page = await api<{ records: { id: string }[] }>(
      'GET',
      `/teacher/question/page?subjectId=${math.id}&typeId=${type.id}&size=${n}`,
    );
    return page.records.slice(0, n).map((q) => q.id);
  };
  const questionIds = [
    ...(await pick('单选题', 8)),
    ...(await pick('填空题', 2)),
    ...(await pick('解答题', 2)),
  ];
  expect(questionIds).toHaveLength(12);
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
    title: PAPER_TITLE,
    subtitle: '课堂小测',
    status: 'final',
    sections: draft.sections.map((s) => ({
      id: s.id,
      typeId: s.typeId,
      title: s.title,
      note: s.note,
      defaultScore: s.title.includes('解答') ? 15 : s.defaultScore,
      items: s.items.map((i) => ({ questionId: i.questionId, score: i.scoreOverride })),
    })),
  });
  return draft.id;
}

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  origin = host.baseUrl;
  headers = bearer((await apiSignIn(host.app, 'demo-teacher')).access_token);
  paperId = await composeQuiz();
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
}

describe('a compact card for a small quiz', { timeout: 240_000 }, () => {
  it('lays the quiz out on one A4 page and says so on the card screen and in the print dialog', async () => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'zh-CN',
      deviceScaleFactor: 1,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page);

    // The card screen: one page, and what that means for each student.
    await page.goto(`${origin}/answerCard?paperId=${paperId}`);
    await page.getByText(`试卷：${PAPER_TITLE}`).waitFor();
    const preview = page.getByRole('group', { name: /答题卡预览，第 1 页，共 1 页/ });
    await preview.waitFor();
    expect(await preview.getAttribute('viewBox')).toBe('0 0 210 297');
    expect(await page.getByTestId('page-count').textContent()).toBe('共 1 页');
    expect(await page.getByTestId('pages-per-student').textContent()).toBe('每名学生 1 页，用 A4 纸 1 张');
    await page.getByText('检查通过：共 1 页，答题区大小合适。').waitFor();
    // Both written boxes are on the page, sized by their 15 points rather than a fixed large height.
    const boxes = page.getByRole('separator', { name: /题答题区高度$/ });
    expect(await boxes.count()).toBe(2);
    for (const h of [
      Number(await boxes.nth(0).getAttribute('aria-valuenow')),
      Number(await boxes.nth(1).getAttribute('aria-valuenow')),
    ]) {
      expect(h).toBeGreaterThanOrEqual(39);
      expect(h).toBeLessThanOrEqual(79);
    }
    await shot(page, 'card-compact-designer');

    // Publish to 七年级(1)班 from the card screen.
    await page.getByRole('button', { name: '发布作业' }).click();
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');
    const publish = page.getByRole('dialog', { name: '发布作业' });
    await publish.getByRole('checkbox', { name: '七年级(1)班' }).check();
    await publish.getByRole('button', { name: '发布', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `已发布“${PAPER_TITLE}”` })
      .waitFor();

    // The print dialog: 40 students, one page and one sheet of A4 each.
    const row = page.getByTestId('homework-row').filter({ hasText: PAPER_TITLE });
    await row.getByRole('button', { name: '打印答题卡' }).click();
    const dialog = page.getByRole('dialog', { name: '打印答题卡' });
    await dialog.getByText(/A4 单栏 · 每份 1 页/).waitFor();
    expect(await dialog.getByTestId('card-print-total').textContent()).toBe(
      '共 40 名学生，每名学生 1 页，合计 40 页（用 A4 纸 40 张）',
    );
    await shot(page, 'card-compact-print-dialog');

    // The class's PDF: 40 pages, one per student; its first page as an image to look at.
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await dialog.getByRole('button', { name: '下载 PDF' }).click();
    const pdfPath = path.join(ARTIFACTS, 'compact-quiz-cards.pdf');
    await (await download).saveAs(pdfPath);
    const info = execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' });
    expect(Number(/Pages:\s+(\d+)/.exec(info)![1])).toBe(40);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '60',
      '-f',
      '1',
      '-l',
      '1',
      pdfPath,
      path.join(SCREENSHOT_DIR, 'card-compact-pdf'),
    ]);
    await context.close();
  });
});
