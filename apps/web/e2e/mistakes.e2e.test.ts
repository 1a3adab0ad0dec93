// @vitest-environment node
/**
 * Issue 22 point 1 in Debian's Chromium against the real host (SQLite) with the demo results seeded: demo-teacher
 * opens 错题重练, picks 七年级(1)班 and the marked 期中模拟测试, sees a student's wrong questions (answer given,
 * key, score) with similar questions, downloads that student's 错题本 and the whole class's as PDF (checked with
 * pdfinfo, first page drawn with pdftoppm), and puts the wrong and similar questions into the basket to compose
 * and publish a redo paper.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR } from './browser';
import { drawFirstPage, pdfPageCount, startDemoHost } from './teacher';

const PASSWORD = 'Demo@2026';
const DONE_TITLE = '期中模拟测试';
const CLASS_NAME = '七年级(1)班';

let host: TestApp;
let browser: Browser;
let demo: Awaited<ReturnType<typeof startDemoHost>> | undefined;

beforeAll(async () => {
  ensureBuilt();
  demo = await startDemoHost('mistakes');
  host = demo.host;
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `mistakes-${name}.png`), fullPage: true });
}

/** Saves a download, checks it is a PDF of at least one page and draws its first page to look at. */
async function checkPdf(page: Page, click: () => Promise<void>, name: string): Promise<string> {
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await click();
  const file = await download;
  const pdfPath = path.join(demo!.dataDir, `${name}.pdf`);
  await file.saveAs(pdfPath);
  expect(fs.readFileSync(pdfPath).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdfPageCount(pdfPath)).toBeGreaterThan(0);
  drawFirstPage(pdfPath, path.join(SCREENSHOT_DIR, `mistakes-${name}`), { singleFile: true });
  return file.suggestedFilename();
}

describe('错题重练 from marked homework', { timeout: 300_000 }, () => {
  it('shows wrong questions with similar ones, prints the 错题本 and fills the basket for a redo paper', async () => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'zh-CN',
      acceptDownloads: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(`${host.baseUrl}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');

    await page.goto(`${host.baseUrl}/rehearse/MistakesExercise`);
    const classPicker = page.getByLabel('班级', { exact: true });
    await expect
      .poll(() => classPicker.locator('option').count(), { timeout: 60_000 })
      .toBeGreaterThan(1)
      .catch(async (e: unknown) => {
        await shot(page, 'failed');
        throw e;
      });
    await page.getByText('请先选择班级').waitFor();
    await page.getByRole('link', { name: '作业列表' }).first().waitFor();
    await page.waitForLoadState('networkidle');
    await shot(page, 'start');

    await classPicker.selectOption({ label: CLASS_NAME });
    const homeworkPicker = page.getByLabel('作业', { exact: true });
    const doneOption = homeworkPicker.locator('option', { hasText: DONE_TITLE });
    await doneOption.first().waitFor({ state: 'attached' });
    await homeworkPicker.selectOption((await doneOption.first().getAttribute('value')) ?? '');
    await page.getByText('请选择学生，查看他的错题与相似题').waitFor();
    const studentPicker = page.getByLabel('学生', { exact: true });
    await expect.poll(() => studentPicker.locator('option').count(), { timeout: 60_000 }).toBeGreaterThan(1);

    // The class's 错题本 as one PDF.
    const classFile = await checkPdf(
      page,
      () => page.getByRole('button', { name: '下载全班错题本 PDF' }).click(),
      'class-book',
    );
    expect(classFile).toContain('错题本');

    // The first student with wrong questions in this homework.
    const names = await studentPicker.locator('option').allTextContents();
    let found = false;
    for (const name of names.slice(1)) {
      await studentPicker.selectOption({ label: name });
      const article = page.locator('article');
      await article.waitFor();
      await expect
        .poll(async () => (await article.innerText()).match(/这位学生没有错题|第 \S+ 题/)?.[0] ?? '', {
          timeout: 60_000,
        })
        .not.toBe('');
      if ((await article.getByText('这位学生没有错题').count()) === 0) {
        found = true;
        break;
      }
    }
    expect(found, 'a student of 七年级(1)班 with wrong questions').toBe(true);
    const article = page.locator('article');
    const text = await article.innerText();
    expect(text).toContain(DONE_TITLE);
    expect(text).toMatch(/得分 [\d.]+\/[\d.]+/);
    expect(text).toContain('答案：');
    expect(text).toContain('举一反三');
    expect(await page.locator('body').innerText()).not.toMatch(/加载失败|undefined|NaN/);
    await shot(page, 'student');

    // That student's 错题本 as PDF.
    const personal = await checkPdf(
      page,
      () => page.getByRole('button', { name: '下载 PDF' }).click(),
      'student-book',
    );
    expect(personal).toMatch(/-错题本\.pdf$/);

    // Wrong and similar questions into the basket, then on to compose and publish.
    await page.getByRole('button', { name: '错题与相似题加入试题篮' }).click();
    await page.getByText('添加成功').first().waitFor();
    await page.getByRole('link', { name: '去试题篮组卷布置' }).click();
    await page.waitForURL((url) => url.pathname === '/rehearse/SelectQuestionPaper');
    await shot(page, 'compose');
    await context.close();
  });
  it('picks a date range instead of one homework and prints the 错题本 of several students in one PDF', async () => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'zh-CN',
      acceptDownloads: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(`${host.baseUrl}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');

    await page.goto(`${host.baseUrl}/rehearse/MistakesExercise`);
    const classPicker = page.getByLabel('班级', { exact: true });
    await expect.poll(() => classPicker.locator('option').count(), { timeout: 60_000 }).toBeGreaterThan(1);
    await classPicker.selectOption({ label: CLASS_NAME });
    await page.getByRole('radio', { name: '按日期' }).click();
    // The last 30 days as the school counts them, in Chinese form.
    const from = page.getByLabel('开始日期', { exact: true });
    const to = page.getByLabel('结束日期', { exact: true });
    expect(await from.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await to.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.getByText('为多名学生生成错题本').waitFor();

    // Three students at once: one PDF with their own books.
    const boxes = page.getByRole('group', { name: '为多名学生生成错题本' }).getByRole('checkbox');
    await expect.poll(() => boxes.count(), { timeout: 60_000 }).toBeGreaterThan(3);
    for (let i = 0; i < 3; i += 1) await boxes.nth(i).check();
    const button = page.getByRole('button', { name: '下载所选 3 名学生的错题本 PDF' });
    await shot(page, 'range-several');
    const file = await checkPdf(page, () => button.click(), 'several-books');
    expect(file).toMatch(/^3名学生-\d{4}-\d{2}-\d{2}至\d{4}-\d{2}-\d{2}-错题本\.pdf$/);

    // One student's book over the range: wrong questions from the homework of those days.
    const studentPicker = page.getByLabel('学生', { exact: true });
    const names = await studentPicker.locator('option').allTextContents();
    let found = false;
    for (const name of names.slice(1)) {
      await studentPicker.selectOption({ label: name });
      const article = page.locator('article');
      await article.waitFor();
      await expect
        .poll(async () => (await article.innerText()).match(/这位学生没有错题|第 \S+ 题/)?.[0] ?? '', {
          timeout: 60_000,
        })
        .not.toBe('');
      if ((await article.getByText('这位学生没有错题').count()) === 0) {
        found = true;
        break;
      }
    }
    expect(found, 'a student of 七年级(1)班 with wrong questions in the last 30 days').toBe(true);
    const text = await page.locator('article').innerText();
    expect(text).toContain(DONE_TITLE);
    expect(text).toContain('举一反三');
    expect(await page.locator('body').innerText()).not.toMatch(/加载失败|undefined|NaN/);
    await shot(page, 'range-student');
    await context.close();
  });
});
