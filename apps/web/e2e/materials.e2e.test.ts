// @vitest-environment node
/**
 * School materials and binding in Debian's Chromium against the real host (SQLite, demo school): demo-teacher uploads
 * a PDF into a folder, previews and downloads it, then binds one of their papers with it into a booklet, which is
 * rendered with pdftoppm to look at.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST, WEB_ROOT } from './browser';
import { hostApi, newPage, shot, signIn } from './teacher';

const PAPER_TITLE = '浮力单元检测';
const ARTIFACTS = path.resolve(WEB_ROOT, '../../test-artifacts/materials');

let host: TestApp;
let browser: Browser;
let origin: string;
let handout: Buffer;

/** A two-page handout drawn with pdf-lib (Latin text: its standard fonts have no CJK). */
async function handoutPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let n = 1; n <= 2; n++) {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 60, y: 640, width: 475, height: 140, color: rgb(0.86, 0.92, 1) });
    page.drawText(`Buoyancy handout - page ${n}`, {
      x: 80,
      y: 700,
      size: 26,
      font,
      color: rgb(0.1, 0.2, 0.5),
    });
  }
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  origin = host.baseUrl;
  const api = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
  const stages = await api<{ name: string; subjects: { id: string; name: string }[] }[]>(
    'GET',
    '/system/stage/list',
  );
  const math = stages.find((s) => s.name === '初中')!.subjects.find((s) => s.name === '数学')!;
  const page = await api<{ records: { id: string }[] }>(
    'GET',
    `/teacher/question/page?subjectId=${math.id}&size=5`,
  );
  const blank = await api<{ id: string; version: number }>('POST', '/teacher/paper/create', {
    subjectId: math.id,
    title: PAPER_TITLE,
  });
  await api('POST', `/teacher/paper/detail/${blank.id}/questions`, {
    version: blank.version,
    questionIds: page.records.map((q) => q.id),
  });
  handout = await handoutPdf();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe('school materials and binding against the real host', { timeout: 240_000 }, () => {
  it('uploads a PDF into a folder, previews and downloads it, and binds it with a paper into a booklet', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, origin);

    // The demo folders are there at first start.
    await page.goto(`${origin}/schoolmaterials`);
    await page.getByRole('heading', { name: '校本资料' }).waitFor();
    await page.getByText('校园平面示意图.png').waitFor();
    await shot(page, 'materials-root');

    // Into 七年级数学 › 单元复习, upload the handout.
    await page
      .getByRole('complementary', { name: '文件夹' })
      .getByRole('button', { name: /单元复习/ })
      .click();
    await page
      .getByRole('navigation', { name: '当前位置' })
      .getByRole('button', { name: '单元复习' })
      .waitFor();
    await page.getByTestId('material-file-input').setInputFiles({
      name: '浮力讲义.pdf',
      mimeType: 'application/pdf',
      buffer: handout,
    });
    await page.getByText('“浮力讲义.pdf”上传成功').waitFor();
    const row = page.getByTestId('material-row').filter({ hasText: '浮力讲义.pdf' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('2 页');

    // A file that is not what its name says is refused with the reason.
    await page.getByTestId('material-file-input').setInputFiles({
      name: '假装是讲义.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('MZ this is not a PDF at all'),
    });
    await page
      .getByText('不支持的文件类型，仅支持 PDF、Word（.docx）和图片（JPG、PNG、GIF、WebP）')
      .waitFor();
    await expect(page.getByTestId('material-row').filter({ hasText: '假装是讲义' }).count()).resolves.toBe(0);
    await shot(page, 'materials-folder');

    // Preview: the pages drawn by pdf.js.
    await row.getByRole('button', { name: '预览' }).click();
    const dialog = page.getByRole('dialog', { name: '预览：浮力讲义.pdf' });
    await dialog.getByRole('img', { name: '第 1 / 2 页' }).waitFor();
    await dialog.getByRole('img', { name: '第 2 / 2 页' }).waitFor();
    await shot(page, 'materials-preview');

    // Download from the preview: the same bytes.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: '下载' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('浮力讲义.pdf');
    const saved = path.join(ARTIFACTS, 'downloaded.pdf');
    await download.saveAs(saved);
    expect(Buffer.compare(fs.readFileSync(saved), handout)).toBe(0);
    await dialog.getByRole('button', { name: '关闭' }).first().click();

    // Word is shown as HTML.
    await page
      .getByRole('complementary', { name: '文件夹' })
      .getByRole('button', { name: /通知与制度/ })
      .click();
    await page
      .getByTestId('material-row')
      .filter({ hasText: '作业批改与反馈规范.docx' })
      .getByRole('button', { name: '预览' })
      .click();
    const word = page.getByRole('dialog', { name: '预览：作业批改与反馈规范.docx' });
    await word.getByText('当天布置的书面作业原则上在次日上课前批改完毕').waitFor();
    await word.getByRole('button', { name: '关闭' }).first().click();

    // Binding: the paper first, then the handout; Word cannot be added.
    await page.getByRole('link', { name: '装订成册' }).click();
    await page.getByRole('heading', { name: '资料装订' }).waitFor();
    await page.getByRole('button', { name: `加入 ${PAPER_TITLE}` }).click();
    await page.getByRole('tab', { name: '校本资料' }).click();
    await page.getByRole('button', { name: '加入 浮力讲义.pdf' }).click();
    await expect(
      page.getByRole('button', { name: '加入 作业批改与反馈规范.docx' }).isDisabled(),
    ).resolves.toBe(true);
    await page.getByRole('button', { name: '加入 校园平面示意图.png' }).click();
    // The image goes before the handout.
    await page.getByRole('button', { name: '上移 校园平面示意图.png' }).click();
    const items = page.getByTestId('binding-item');
    await expect(items.allTextContents()).resolves.toEqual([
      expect.stringContaining(PAPER_TITLE),
      expect.stringContaining('校园平面示意图.png'),
      expect.stringContaining('浮力讲义.pdf'),
    ]);
    await page.getByRole('textbox', { name: '装订册名称' }).fill('浮力专题复习册');
    await shot(page, 'binding');

    const [booklet] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.getByRole('button', { name: '生成装订册' }).click(),
    ]);
    expect(booklet.suggestedFilename()).toBe('浮力专题复习册.pdf');
    const bookletPath = path.join(ARTIFACTS, 'booklet.pdf');
    await booklet.saveAs(bookletPath);
    await page.getByText('装订册已生成并开始下载').waitFor();

    const info = execFileSync('pdfinfo', [bookletPath], { encoding: 'utf8' });
    const pages = Number(/Pages:\s+(\d+)/.exec(info)![1]);
    // cover + the paper (≥ 1 page) + the image + 2 handout pages
    expect(pages).toBeGreaterThanOrEqual(5);
    const text = execFileSync('pdftotext', ['-layout', bookletPath, '-'], { encoding: 'utf8' });
    expect(text).toContain('浮力专题复习册');
    expect(text).toContain(PAPER_TITLE);
    expect(text).toContain('Buoyancy handout - page 2');
    expect(text.indexOf(PAPER_TITLE)).toBeLessThan(text.indexOf('Buoyancy handout - page 1'));
    execFileSync('pdftoppm', ['-png', '-r', '40', bookletPath, path.join(ARTIFACTS, 'booklet')]);
    const pngs = fs.readdirSync(ARTIFACTS).filter((f) => f.startsWith('booklet') && f.endsWith('.png'));
    expect(pngs).toHaveLength(pages);
    await context.close();
  });
});
