// @vitest-environment node
/**
 * Compact answer cards (ADR 0050) in Debian's Chromium against the real host: a 12-question quiz (8 单选, 2 填空,
 * 2 解答 of 15 points) gets a one-page A4 card, and the teacher sees that before printing — on the card screen
 * (每名学生 1 页) and in the print dialog (the class's pages and sheets).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST, WEB_ROOT } from './browser';
import { composeMathPaper, drawFirstPage, hostApi, newPage, pdfPageCount, shot, signIn } from './teacher';

const PAPER_TITLE = '七年级数学 第一单元小测';
const ARTIFACTS = path.resolve(WEB_ROOT, '../../test-artifacts/cards');

let host: TestApp;
let browser: Browser;
let origin: string;
let paperId: string;

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  origin = host.baseUrl;
  const api = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
  // The quiz as /edit makes a final paper, 解答题 at 15 points each.
  paperId = await composeMathPaper(api, {
    title: PAPER_TITLE,
    subtitle: '课堂小测',
    counts: { 单选题: 8, 填空题: 2, 解答题: 2 },
    essayScore: 15,
  });
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe('a compact card for a small quiz', { timeout: 240_000 }, () => {
  it('lays the quiz out on one A4 page and says so on the card screen and in the print dialog', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, origin);

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
    expect(pdfPageCount(pdfPath)).toBe(40);
    drawFirstPage(pdfPath, path.join(SCREENSHOT_DIR, 'card-compact-pdf'));
    await context.close();
  });
});
