// @vitest-environment node
/**
 * Word import into the question bank in Debian's Chromium against the real host (SQLite, demo school): demo-teacher
 * chooses two .docx at once, watches them read one by one, fixes one paper up beside its original (a missing answer
 * filled in), saves it into 我的题库 only, and finds the questions there.
 */
/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. （　　） */
import fs from 'node:fs';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';
import { hostApi, newPage, shot, signIn } from './teacher';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let host: TestApp;
let browser: Browser;
let origin: string;

/** A teacher's paper as Word writes it, one paragraph a line. */
async function docx(lines: string[]): Promise<Buffer> {
  const doc = new Document({
    sections: [{ children: lines.map((text) => new Paragraph({ children: [new TextRun(text)] })) }],
  });
  return Packer.toBuffer(doc);
}

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  origin = host.baseUrl;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe('Word import into the question bank', { timeout: 240_000 }, () => {
  it('reads two papers at once, fixes an answer side by side, saves into 我的题库 and finds the questions there', async () => {
    const unitTest = await docx([
      '七年级数学 有理数单元小测',
      '一、选择题（每小题 3 分）',
      '1. 导入小测甲：-2 的倒数是（　　）',
      'A. 2　　B. -2　　C. 1/2　　D. -1/2',
      '【解析】乘积是 1 的两个数互为倒数，-2 × (-1/2) = 1。',
      '2. 导入小测乙：下列各数中，是负数的是（　　）',
      'A. 0　　B. 3　　C. -4　　D. 1/3',
      '【答案】C',
      '二、填空题（每小题 4 分）',
      '3. 导入小测丙：|-6| = ____。',
      '【答案】6',
    ]);
    const homework = await docx([
      '七年级数学 课后练习',
      '一、填空题',
      '1. 课后练习甲：比 -3 大 5 的数是 ____。',
      '【答案】2',
    ]);

    const { context, page } = await newPage(browser);
    await signIn(page, origin);
    await page.goto(`${origin}/cloudResources/personPaper`);
    await page.getByRole('button', { name: '导入 Word' }).click();
    const dialog = page.getByRole('dialog', { name: '导入 Word 试卷' });
    await dialog.getByRole('button', { name: '学科' }).click();
    await page.getByRole('option', { name: '初中数学' }).click();
    await dialog.getByLabel('选择 Word 文件（.docx，可多选）').setInputFiles([
      { name: '有理数单元小测.docx', mimeType: DOCX_MIME, buffer: unitTest },
      { name: '课后练习.docx', mimeType: DOCX_MIME, buffer: homework },
      // A damaged file and one that is not Word at all: each gets its reason and does not stop the others.
      {
        name: '损坏的试卷.docx',
        mimeType: DOCX_MIME,
        buffer: Buffer.from('这不是 Word 文件'),
      },
      { name: '说明.txt', mimeType: 'text/plain', buffer: Buffer.from('导入说明') },
    ]);
    await dialog.getByText('已选择 4 个文件').waitFor();
    await dialog.getByRole('button', { name: '开始识别' }).click();

    // Read one by one: the progress names the file being read, then each paper is listed with its count.
    const list = page.getByRole('dialog', { name: '识别结果' });
    await list.getByText(/正在解析 [123]\/3：/).waitFor();
    // Reading runs in the host's document sandbox: allow for a busy machine.
    await list
      .getByText('已解析 4 个文件')
      .waitFor({ timeout: 120_000 })
      .catch(async (error: unknown) => {
        await shot(page, 'word-import-stuck');
        throw error;
      });
    const papers = list.getByTestId('import-paper');
    await expect(papers.count()).resolves.toBe(4);
    await papers
      .filter({ hasText: '损坏的试卷.docx' })
      .getByText('无法导入：无法读取该文件，请上传 .docx 格式的 Word 文档')
      .waitFor();
    await papers
      .filter({ hasText: '说明.txt' })
      .getByText(/无法导入：只支持 \.docx 格式/)
      .waitFor();
    const first = papers.filter({ hasText: '有理数单元小测.docx' });
    await first.getByText('3 道题').waitFor();
    await first.getByText('1 道题需要修改').waitFor();
    await papers.filter({ hasText: '课后练习.docx' }).getByText('1 道题').waitFor();
    await shot(page, 'word-import-batch');

    // Side by side: the original on the left, the questions on the right, the warning on the question it concerns.
    await first.getByRole('button', { name: '核对 有理数单元小测.docx' }).click();
    const review = page.getByRole('dialog', { name: '核对 有理数单元小测.docx' });
    const original = review.getByRole('region', { name: '原文' });
    await original.getByText('【解析】乘积是 1 的两个数互为倒数，-2 × (-1/2) = 1。').waitFor();
    const questions = review.getByRole('region', { name: '识别出的试题' });
    const q1 = questions.getByTestId('imported-question').filter({ hasText: '导入小测甲' });
    await q1.getByRole('note').filter({ hasText: '答案' }).first().waitFor();
    await shot(page, 'word-import-review');

    // Correct the answer: D.
    await q1.getByRole('button', { name: '修改第1题' }).click();
    await q1.getByRole('button', { name: 'D', exact: true }).click();
    await q1.getByRole('button', { name: '修改第1题', expanded: true }).click();
    await expect(q1.getByRole('note').count()).resolves.toBe(0);

    // Into 我的题库 only (not as a paper).
    await review.getByRole('checkbox', { name: '我的试卷（作为一份试卷）' }).uncheck();
    await review.getByRole('button', { name: '保存这份试卷' }).click();
    await page.getByText('已将 3 道题存入“我的题库”').waitFor();
    await list
      .getByTestId('import-paper')
      .filter({ hasText: '有理数单元小测.docx' })
      .getByText('已保存')
      .waitFor();
    await shot(page, 'word-import-saved');
    await list.getByRole('button', { name: '取消' }).click();

    // 我的题库 lists them; the host kept the corrected answer.
    await page.goto(`${origin}/cloudResources/schoolTestQuestions`);
    await page.getByRole('radio', { name: '我的题库' }).click();
    await page.getByRole('button', { name: '学科' }).click();
    await page.getByRole('option', { name: '初中数学' }).click();
    await page.getByText('导入小测甲').first().waitFor();
    await page.getByText('导入小测丙').first().waitFor();
    await shot(page, 'word-import-bank');
    const api = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
    const stages = await api<{ name: string; subjects: { id: string; name: string }[] }[]>(
      'GET',
      '/system/stage/list',
    );
    const math = stages.find((s) => s.name === '初中')!.subjects.find((s) => s.name === '数学')!;
    const mine = await api<{ records: { stem: string; answer: string }[] }>(
      'GET',
      `/teacher/question/page?subjectId=${math.id}&scope=mine&keyword=${encodeURIComponent('导入小测甲')}`,
    );
    expect(mine.records.map((q) => q.answer)).toEqual(['D']);
    // The other paper was not saved: nothing is saved before the teacher confirms.
    const other = await api<{ records: unknown[] }>(
      'GET',
      `/teacher/question/page?subjectId=${math.id}&scope=mine&keyword=${encodeURIComponent('课后练习甲')}`,
    );
    expect(other.records).toHaveLength(0);
    await context.close();
  });
});
