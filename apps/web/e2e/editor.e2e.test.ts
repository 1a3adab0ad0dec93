// @vitest-environment node
/**
 * The question editor as a math teacher uses it, in Debian's Chromium against the real host (SQLite, demo school):
 * a formula built from the structure buttons with KaTeX's live preview, a table, Word content pasted with its table
 * and picture, and a screenshot pasted larger than the picture budget — all saved as the host keeps them.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, WEB_DIST } from './browser';
import { hostApi, newPage, shot, signIn, type HostApi } from './teacher';

let host: TestApp;
let browser: Browser;
let api: HostApi;
let paperId: string;

/** A small red square as Word would put it inline, and a noisy 1400×900 "screenshot" well over 140 KB as PNG. */
let dot: string;
let screenshot: Buffer;

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  api = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
  const stages = await api<{ name: string; subjects: { id: string; name: string }[] }[]>(
    'GET',
    '/system/stage/list',
  );
  const math = stages.find((s) => s.name === '初中')!.subjects.find((s) => s.name === '数学')!;
  paperId = (
    await api<{ id: string }>('POST', '/teacher/paper/create', { subjectId: math.id, title: '编辑器测验' })
  ).id;
  dot = `data:image/png;base64,${(
    await sharp({ create: { width: 24, height: 24, channels: 3, background: '#e11d48' } })
      .png()
      .toBuffer()
  ).toString('base64')}`;
  const noise = Buffer.alloc(1400 * 900 * 3);
  let seed = 20261128;
  for (let i = 0; i < noise.length; i += 1) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    noise[i] = seed >>> 24;
  }
  screenshot = await sharp(noise, { raw: { width: 1400, height: 900, channels: 3 } })
    .png()
    .toBuffer();
  expect(screenshot.length).toBeGreaterThan(140 * 1024);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** Dispatches a paste into the focused editor, with what the clipboard of Word or a screenshot tool holds. */
async function paste(page: Page, data: { html?: string; text?: string; png?: Buffer }) {
  await page.evaluate(
    ({ html, text, png }) => {
      const transfer = new DataTransfer();
      if (html) transfer.setData('text/html', html);
      if (text) transfer.setData('text/plain', text);
      if (png) {
        const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }));
      }
      const target = document.activeElement!;
      target.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    },
    { html: data.html, text: data.text, png: data.png?.toString('base64') },
  );
}

describe('the question editor', { timeout: 240_000 }, () => {
  it('builds a formula with a live preview, inserts a table, and keeps pasted Word tables, pictures and screenshots', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, host.baseUrl);
    await page.goto(`${host.baseUrl}/edit?paperId=${paperId}`);
    await page.getByRole('button', { name: '添加我的试题' }).first().click();
    const dialog = page.getByRole('dialog', { name: '添加我的试题' });
    await dialog.getByRole('button', { name: /题型/ }).click();
    await page.getByRole('option', { name: '解答题' }).click();
    const stem = dialog.getByRole('textbox', { name: '题干' });
    await stem.click();
    await page.keyboard.type('解方程：');

    // 公式: the structure buttons build the LaTeX, the preview typesets it, a mistake is explained.
    await dialog
      .getByRole('toolbar', { name: '题干格式' })
      .getByRole('button', { name: /插入公式/ })
      .click();
    const formula = page.getByRole('dialog', { name: '插入公式' });
    const latex = formula.getByRole('textbox', { name: '公式（LaTeX）' });
    await formula.getByRole('button', { name: '分数', exact: true }).click();
    await page.keyboard.type('x');
    await latex.press('ArrowRight');
    await latex.press('ArrowRight');
    await page.keyboard.type('2');
    await latex.press('End');
    await page.keyboard.type('-1=');
    await formula.getByRole('button', { name: '根号', exact: true }).click();
    await page.keyboard.type('9');
    expect(await latex.inputValue()).toBe('\\frac{x}{2}-1=\\sqrt{9}');
    const preview = formula.getByTestId('formula-preview');
    await preview.locator('.katex .mfrac').waitFor();
    await preview.locator('.katex .sqrt').waitFor();
    await latex.press('End');
    await page.keyboard.type('\\frac{');
    await preview.getByRole('alert').filter({ hasText: '公式有误' }).waitFor();
    expect(await formula.getByRole('button', { name: '插入' }).isDisabled()).toBe(true);
    for (let i = 0; i < 6; i += 1) await latex.press('Backspace');
    await preview.locator('.katex .mfrac').waitFor();
    await shot(page, 'editor-formula');
    await formula.getByRole('button', { name: '插入' }).click();
    await expect.poll(() => stem.innerText()).toContain('\\(\\frac{x}{2}-1=\\sqrt{9}\\)');
    // The editor's own preview typesets what was inserted.
    await dialog.locator('.katex .mfrac').first().waitFor();

    // 表格: two rows, three columns, a header row; the caret goes into the first cell.
    await stem.press('End');
    await dialog.getByRole('toolbar', { name: '题干格式' }).getByRole('button', { name: '插入表格' }).click();
    const table = page.getByRole('dialog', { name: '插入表格' });
    await table.getByRole('spinbutton', { name: '行数' }).fill('2');
    await table.getByRole('button', { name: '插入' }).click();
    await expect.poll(() => stem.locator('table tr').count()).toBe(2);
    expect(await stem.locator('table th').count()).toBe(3);

    // Word's clipboard: a table, emphasis, an inline picture and a picture Word keeps as a local file.
    await stem.locator('p').last().click();
    await paste(page, {
      html:
        '<html><head><style>p.MsoNormal{margin:0}</style></head><body><!--StartFragment-->' +
        '<p class="MsoNormal"><b>已知</b>下表：</p>' +
        '<table class="MsoTableGrid"><tr><td><p>x</p></td><td><p>1</p></td></tr><tr><td><p>y</p></td><td><p>3</p></td></tr></table>' +
        `<p><img src="${dot}" alt="图1"><img src="file:///C:/Users/wang/AppData/Local/Temp/msohtmlclip1/01/clip_image002.png"></p>` +
        '<!--EndFragment--></body></html>',
      text: '已知下表：',
    });
    await page.getByText('粘贴的内容中有 1 张图片无法直接读取').waitFor();
    await expect.poll(() => stem.locator('table').count()).toBe(2);
    expect(await stem.locator('b').filter({ hasText: '已知' }).count()).toBe(1);
    expect(await stem.locator('img[alt="图1"]').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await stem.locator('img[src^="file:"]').count()).toBe(0);
    expect(await stem.evaluate((el) => el.innerHTML)).not.toContain('MsoNormal');

    // A screenshot larger than the picture budget is drawn smaller and inserted, not refused.
    await stem.press('End');
    await paste(page, { png: screenshot });
    await page.getByText('图片较大，已自动压缩后插入').waitFor();
    await expect.poll(() => stem.locator('img[src^="data:image/jpeg"]').count()).toBe(1);
    const shrunk = await stem.locator('img[src^="data:image/jpeg"]').getAttribute('src');
    expect(((shrunk!.length - shrunk!.indexOf(',') - 1) * 3) / 4).toBeLessThanOrEqual(140 * 1024);

    await dialog.getByRole('textbox', { name: '答案' }).click();
    await page.keyboard.type('x=8');
    await shot(page, 'editor-question');
    await dialog.getByRole('button', { name: '添加到试卷' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: '保存草稿' }).click();

    // The host kept what the teacher sees: the formula as LaTeX, both tables, the pictures (the local one gone).
    const stems = async () =>
      (
        await api<{ sections: { items: { question: { stem: string } | null }[] }[] }>(
          'GET',
          `/teacher/paper/detail/${paperId}`,
        )
      ).sections.flatMap((s) => s.items.map((i) => i.question?.stem ?? ''));
    await expect.poll(stems, { timeout: 20_000 }).toHaveLength(1);
    const saved = (await stems())[0]!;
    expect(saved).toContain('\\(\\frac{x}{2}-1=\\sqrt{9}\\)');
    expect(saved.match(/<table>/g)).toHaveLength(2);
    expect(saved).toContain('<th>');
    expect(saved).toMatch(/<img src="data:image\/png;base64,[^"]+" alt="图1"/);
    expect(saved).toMatch(/<img src="data:image\/jpeg;base64,/);
    expect(saved).not.toContain('file:');
    // And /edit shows it typeset, with its tables.
    await page.locator('.katex .mfrac').first().waitFor();
    expect(await page.locator('main table').count()).toBeGreaterThanOrEqual(2);
    await shot(page, 'editor-paper');
    await context.close();
  });
});
