// @vitest-environment node
/**
 * Answer cards and printing in Debian's Chromium against the real host (SQLite, demo school): demo-teacher designs
 * the card of a composed paper, publishes it to 七年级(1)班, downloads the personalised cards of the class and looks
 * at the print pages.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST, WEB_ROOT } from './browser';
import {
  composeMathPaper,
  drawFirstPage,
  hostApi,
  newPage,
  pdfPageCount,
  shot,
  signIn,
  waitForPath,
  type HostApi,
} from './teacher';

const PAPER_TITLE = '七年级数学 答题卡演示卷';
const ARTIFACTS = path.resolve(WEB_ROOT, '../../test-artifacts/cards');

let host: TestApp;
let browser: Browser;
let origin: string;
let paperId: string;
let api: HostApi;

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  origin = host.baseUrl;
  api = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
  paperId = await composeMathPaper(api, {
    title: PAPER_TITLE,
    subtitle: '第一单元',
    counts: { 单选题: 8, 填空题: 3, 解答题: 3 },
    essayScore: 10,
  });
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

const heightOf = async (page: Page, name: string) =>
  Number(await page.getByRole('separator', { name }).getAttribute('aria-valuenow'));

describe('answer cards and printing against the real host', { timeout: 240_000 }, () => {
  let homeworkId = '';

  it('designs the card: size and columns re-lay it out, boxes resize by mouse and keyboard, warnings show, it saves', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, origin);
    await page.goto(`${origin}/answerCard?paperId=${paperId}`);
    await page.getByRole('heading', { name: '答题卡设计' }).waitFor();
    await page.getByText(`试卷：${PAPER_TITLE}`).waitFor();
    // The top nav is hidden here (SPEC §2).
    expect(await page.getByTestId('top-nav').count()).toBe(0);
    const preview = page.getByRole('group', { name: /答题卡预览，第 1 页/ });
    await preview.waitFor();
    expect(await preview.getAttribute('viewBox')).toBe('0 0 210 297');
    await shot(page, 'card-designer-a4');

    // A3: landscape, two columns by default, three on demand.
    await page.getByRole('radio', { name: 'A3' }).click();
    expect(await preview.getAttribute('viewBox')).toBe('0 0 420 297');
    await page.getByRole('radio', { name: '双栏' }).waitFor();
    await page.getByRole('radio', { name: '三栏' }).click();
    expect(await page.getByRole('radio', { name: '三栏' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('radio', { name: '双栏' }).click();
    await page.getByRole('radio', { name: /考号填涂/ }).check();
    await page.getByText('考号（用2B铅笔填涂）').first().waitFor();

    // Drag the bottom edge of the first written box down by 60 px.
    const edges = page.getByRole('separator', { name: /题答题区高度$/ });
    const name = (await edges.first().getAttribute('aria-label'))!;
    const before = await heightOf(page, name);
    const box = (await edges.first().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 30, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 60, { steps: 4 });
    await page.mouse.up();
    const dragged = await heightOf(page, name);
    expect(dragged).toBeGreaterThan(before + 5);
    // Keyboard: ↓ adds 2 mm, ↑ takes 2 mm.
    await page.getByRole('separator', { name }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await heightOf(page, name)).toBe(dragged + 2);
    for (let i = 0; i < 60; i++) await page.keyboard.press('ArrowUp');
    expect(await heightOf(page, name)).toBe(10);
    await page
      .getByTestId('card-warnings')
      .getByText(/答题区只有 10 毫米高，不便书写/)
      .waitFor();
    await shot(page, 'card-designer-warning');
    await page.getByRole('button', { name: '恢复默认高度' }).click();
    await page.getByText(/检查通过：共 \d+ 页/).waitFor();

    await page.getByRole('button', { name: '保存答题卡' }).click();
    await page.getByRole('status').filter({ hasText: '答题卡已保存' }).waitFor();
    expect(await page.getByTestId('card-status').textContent()).toBe('已保存');
    const saved = await api<{ settings: { size: string; columns: number; identity: string } }>(
      'GET',
      `/teacher/homework/paper-card/${paperId}`,
    );
    expect(saved.settings).toMatchObject({ size: 'A3', columns: 2, identity: 'bubbles' });
    // Back to personalised QR cards, the way most teachers print.
    await page.getByRole('radio', { name: /二维码（个性化）/ }).check();
    await page.getByRole('button', { name: '保存答题卡' }).click();
    await page.getByTestId('card-status').filter({ hasText: '已保存' }).waitFor();
    await shot(page, 'card-designer-a3');
    await context.close();
  });

  it('shows the designer on a phone', async () => {
    const { context, page } = await newPage(browser, { width: 390 });
    await signIn(page, origin);
    await page.goto(`${origin}/answerCard?paperId=${paperId}`);
    await page.getByRole('group', { name: /答题卡预览，第 1 页/ }).waitFor();
    await shot(page, 'card-designer');
    await context.close();
  });

  it('publishes the paper to 七年级(1)班 from the designer and lists it on /paperlist', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, origin);
    // The empty list explains how to publish the first homework.
    await page.getByText('还没有发布作业').waitFor();
    await shot(page, 'paperlist-empty');

    await page.goto(`${origin}/answerCard?paperId=${paperId}`);
    await page.getByRole('button', { name: '发布作业' }).click();
    await waitForPath(page, '/paperlist');
    const dialog = page.getByRole('dialog', { name: '发布作业' });
    await dialog.getByText(PAPER_TITLE).waitFor();
    expect(await dialog.getByRole('textbox', { name: '作业名称' }).inputValue()).toBe(PAPER_TITLE);
    // Nothing chosen yet: the class rule speaks first.
    await dialog.getByRole('button', { name: '发布', exact: true }).click();
    await dialog.getByText('请选择班级').waitFor();
    await dialog.getByRole('checkbox', { name: '七年级(1)班' }).check();
    await shot(page, 'publish-dialog');
    await dialog.getByRole('button', { name: '发布', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `已发布“${PAPER_TITLE}”` })
      .waitFor();

    const row = page.getByTestId('homework-row').filter({ hasText: PAPER_TITLE });
    await row.waitFor();
    expect(await row.getByTestId('homework-state').textContent()).toBe('待扫描');
    expect(await row.textContent()).toContain('七年级(1)班（共 40 人）');
    expect(await row.textContent()).toContain('A3 双栏');
    const list = await api<{ records: { id: string; title: string }[] }>('GET', '/teacher/homework/list');
    homeworkId = list.records.find((r) => r.title === PAPER_TITLE)!.id;
    // Filters: 已完成 has none of it.
    await page.getByRole('button', { name: /^状态/ }).click();
    await page.getByRole('option', { name: '已完成' }).click();
    await page.getByText('没有符合条件的作业').waitFor();
    await page.getByRole('button', { name: '清除筛选' }).first().click();
    await row.waitFor();
    await shot(page, 'paperlist');
    await context.close();

    const phone = await newPage(browser, { width: 390 });
    await signIn(phone.page, origin);
    await phone.page.getByTestId('homework-row').first().waitFor();
    await shot(phone.page, 'paperlist');
    await phone.context.close();
  });

  it('downloads the personalised cards of 七年级(1)班 as one PDF of 40 students × the card’s pages', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, origin);
    const row = page.getByTestId('homework-row').filter({ hasText: PAPER_TITLE });
    await row.getByRole('button', { name: '打印答题卡' }).click();
    const dialog = page.getByRole('dialog', { name: '打印答题卡' });
    // A QR card prints personalised only.
    expect(await dialog.getByRole('radio', { name: /通用答题卡/ }).isDisabled()).toBe(true);
    const card = await api<{ layout: { pages: unknown[] } }>('GET', `/teacher/homework/card/${homeworkId}`);
    const pages = card.layout.pages.length;
    const sheets = pages === 1 ? '用 A3 纸 40 张' : `双面打印用 A3 纸 ${40 * Math.ceil(pages / 2)} 张`;
    expect(await dialog.getByTestId('card-print-total').textContent()).toBe(
      `共 40 名学生，每名学生 ${pages} 页，合计 ${40 * pages} 页（${sheets}）`,
    );
    await shot(page, 'card-print-dialog');
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await dialog.getByRole('button', { name: '下载 PDF' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${PAPER_TITLE}-个性化答题卡.pdf`);
    const pdfPath = path.join(ARTIFACTS, 'class-cards.pdf');
    await file.saveAs(pdfPath);
    const bytes = fs.readFileSync(pdfPath);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfPageCount(pdfPath)).toBe(40 * pages);
    // The first page as an image, to look at.
    drawFirstPage(pdfPath, path.join(SCREENSHOT_DIR, 'card-pdf'));
    await dialog.getByText(/已下载“/).waitFor();
    await context.close();
  });

  it('edits the published card as a new version, after which a generic card can be printed', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, origin);
    const row = page.getByTestId('homework-row').filter({ hasText: PAPER_TITLE });
    await row.getByRole('button', { name: `${PAPER_TITLE}的更多操作` }).click();
    await page.getByRole('menuitem', { name: '设计答题卡' }).click();
    await waitForPath(page, '/answerCard');
    await page.getByText(`作业：${PAPER_TITLE} · 当前为第 1 版答题卡`).waitFor();
    await page.getByRole('radio', { name: /条形码粘贴/ }).check();
    await page.getByText('条形码粘贴区').first().waitFor();
    // Printing waits until the change is saved.
    expect(await page.getByRole('button', { name: '打印答题卡' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: '保存为新版本' }).click();
    await page.getByRole('status').filter({ hasText: '已保存为第 2 版答题卡' }).waitFor();
    await page.getByText(`作业：${PAPER_TITLE} · 当前为第 2 版答题卡`).waitFor();
    await shot(page, 'card-designer-homework');

    await page.getByRole('button', { name: '打印答题卡' }).click();
    const dialog = page.getByRole('dialog', { name: '打印答题卡' });
    await dialog.getByRole('radio', { name: /通用答题卡/ }).check();
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await dialog.getByRole('button', { name: '下载 PDF' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${PAPER_TITLE}-通用答题卡.pdf`);
    const pdfPath = path.join(ARTIFACTS, 'generic-card.pdf');
    await file.saveAs(pdfPath);
    const card = await api<{ version: number; layout: { pages: unknown[] } }>(
      'GET',
      `/teacher/homework/card/${homeworkId}`,
    );
    expect(card.version).toBe(2);
    expect(pdfPageCount(pdfPath)).toBe(card.layout.pages.length);
    drawFirstPage(pdfPath, path.join(SCREENSHOT_DIR, 'card-pdf-generic'));
    await context.close();
  });

  it('opens the calibration page and the barcode page, whose rules refuse bad input in Chinese', async () => {
    for (const width of [1440, 390]) {
      const { context, page } = await newPage(browser, { width: width });
      await signIn(page, origin);
      await page.goto(`${origin}/pringtingtest?size=A3`);
      await page.getByRole('heading', { name: '打印校准页' }).waitFor();
      expect(await page.getByTestId('top-nav').count()).toBe(0);
      expect(await page.getByTestId('calibration-anchor').count()).toBe(4);
      const sheet = page.getByRole('img', { name: /A3 校准页（420 × 297 毫米）/ });
      expect(await sheet.getAttribute('width')).toBe('420mm');
      await page
        .getByText(/实际大小/)
        .first()
        .waitFor();
      await shot(page, 'print-test');
      if (width === 1440) {
        // Printed through Chromium's own print path: the @page rule makes the sheet exactly A3 landscape.
        const pdfPath = path.join(ARTIFACTS, 'calibration-a3.pdf');
        await page.pdf({ path: pdfPath, preferCSSPageSize: true, printBackground: true });
        const info = execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' });
        expect(/Pages:\s+(\d+)/.exec(info)![1]).toBe('1');
        const [w, h] = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!.slice(1).map(Number);
        expect(Math.abs(w! - (420 / 25.4) * 72)).toBeLessThan(1);
        expect(Math.abs(h! - (297 / 25.4) * 72)).toBeLessThan(1);
        execFileSync('pdftoppm', ['-png', '-r', '40', pdfPath, path.join(SCREENSHOT_DIR, 'print-test-pdf')]);
      }

      await page.goto(`${origin}/printBarcode`);
      await page.getByRole('heading', { name: '打印条形码' }).waitFor();
      await page.getByRole('button', { name: /^码制/ }).click();
      await page.getByRole('option', { name: 'EAN-13' }).click();
      const input = page.getByRole('textbox', { name: '条码内容（每行一个）' });
      await input.fill('6901234567890\n690123456789\n6901234567892');
      await page
        .getByRole('alert')
        .getByText('第 1 行：EAN-13 校验位不正确：按前面的数字计算，最后一位应为 2，而不是 0')
        .waitFor();
      await page
        .getByRole('alert')
        .getByText(/第 2 行：EAN-13 需要 13 位数字.*完整号码应为 6901234567892/)
        .waitFor();
      await page.getByTestId('barcode').first().waitFor();
      expect(await page.getByTestId('barcode').count()).toBe(1);
      await shot(page, 'print-barcode-ean13');

      await page.getByRole('button', { name: /^码制/ }).click();
      await page.getByRole('option', { name: /Pharmacode/ }).click();
      await input.fill('2\n131070\n131071');
      await page
        .getByRole('alert')
        .getByText('第 1 行：Pharmacode 的取值范围是 3 到 131070，2 超出了范围')
        .waitFor();
      await page
        .getByRole('alert')
        .getByText(/第 3 行：.*131071 超出了范围/)
        .waitFor();
      expect(await page.getByTestId('barcode').count()).toBe(1);

      await page.getByRole('button', { name: /^码制/ }).click();
      await page.getByRole('option', { name: 'CODE128' }).click();
      await input.fill('20260101\n20260102\n20260103\n20260104');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="barcode"] svg').length === 4);
      await shot(page, 'print-barcode');
      await context.close();
    }
  });

  it('prints the paper, its answers, student QR labels and the empty score sheet of the homework', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, origin);
    await page.goto(`${origin}/printing?homeworkId=${homeworkId}`);
    await page.getByRole('article', { name: PAPER_TITLE }).waitFor();
    expect(await page.getByTestId('print-question').count()).toBe(14);
    expect(await page.getByTestId('page-style').textContent()).toContain('@page { size: 210mm 297mm');
    await shot(page, 'print-paper');
    const paperPdf = path.join(ARTIFACTS, 'paper.pdf');
    await page.pdf({ path: paperPdf, preferCSSPageSize: true, printBackground: true });
    expect(execFileSync('pdfinfo', [paperPdf], { encoding: 'utf8' })).toMatch(
      /Page size:\s+59[45]\.\d+ x 841\.\d+ pts \(A4\)/,
    );
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '50',
      '-f',
      '1',
      '-l',
      '1',
      paperPdf,
      path.join(SCREENSHOT_DIR, 'print-paper-pdf'),
    ]);

    await page.goto(`${origin}/printanswer?homeworkId=${homeworkId}`);
    await page.getByText('参考答案与解析').waitFor();
    expect(await page.getByTestId('quick-answer').count()).toBe(8);
    await shot(page, 'print-answer');

    // Opened from the homework, the labels are that homework's class, filled from the school's roster.
    await page.goto(`${origin}/printcode?homeworkId=${homeworkId}`);
    await page.getByRole('heading', { name: '打印学生二维码' }).waitFor();
    await page.getByText('共 40 名学生，需要 2 张标签纸（每张 24 张标签）。').waitFor();
    expect(await page.getByTestId('label-page').count()).toBe(2);
    expect(await page.getByTestId('label').count()).toBe(40);
    expect(await page.getByRole('img', { name: /^学号 / }).count()).toBe(40);
    await shot(page, 'print-code');

    await page.goto(`${origin}/printgrade?homeworkId=${homeworkId}`);
    await page.getByText(/还没有成绩：阅卷完成后/).waitFor();
    const table = page.getByTestId('grade-table');
    expect(await table.locator('tbody tr').count()).toBe(40);
    await shot(page, 'print-grade');
    const gradePdf = path.join(ARTIFACTS, 'grade.pdf');
    await page.pdf({ path: gradePdf, preferCSSPageSize: true, printBackground: true });
    // One class, one A4 page.
    expect(pdfPageCount(gradePdf)).toBe(1);
    execFileSync('pdftoppm', ['-png', '-r', '50', gradePdf, path.join(SCREENSHOT_DIR, 'print-grade-pdf')]);
    await context.close();
  });
});
