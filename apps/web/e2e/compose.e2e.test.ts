// @vitest-environment node
/**
 * Question bank, composition and cloud resources in Debian's Chromium against the real host (SQLite, demo school).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';
import { newPage, shot, signIn, waitForPath } from './teacher';

let host: TestApp;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  origin = host.baseUrl;
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** The accessible name of the focused element, roughly as a screen reader reads it. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    const by = el.getAttribute('aria-labelledby');
    const labelled = by
      ? by
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
      : '';
    const labels = (el as HTMLInputElement).labels;
    return (
      el.getAttribute('aria-label') ??
      (labelled ||
        (labels?.length ? labels[0]!.textContent : null) ||
        el.textContent ||
        el.getAttribute('title') ||
        '')
    ).trim();
  });

/** Presses Tab (or Shift+Tab) until the focus is on a control named `name`; keys only, as a keyboard user would. */
async function tabTo(page: Page, name: string | RegExp, back = false, max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focusedName(page);
    if (typeof name === 'string' ? now === name : name.test(now)) return;
  }
  throw new Error(`the Tab key never reached ${String(name)}`);
}

/** Waits until the keyboard focus is on the control with this accessible label. */
const focusOn = (page: Page, label: string) =>
  page.waitForFunction((l) => document.activeElement?.getAttribute('aria-label') === l, label);

/** The question ids of /edit, in order. */
const order = (page: Page) =>
  page.getByTestId('paper-item').evaluateAll((els) => els.map((el) => el.getAttribute('data-question-id')));

/** Empties the teacher's basket through the host (each test starts from an empty basket). */
async function clearBasket(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const token = JSON.parse(localStorage.getItem('access_token')!) as string;
    const headers = { authorization: `Bearer ${token}` };
    const basket = (await (await fetch('/teacher/paper/info/getQuestionBasket', { headers })).json()) as {
      data: { paperInfo: { id: string }[] } | null;
    };
    for (const p of basket.data?.paperInfo ?? []) {
      await fetch(`/teacher/paper/info/${p.id}/clearBasket`, { method: 'DELETE', headers });
    }
  });
}

/** Puts the first `n` single-choice questions of 数学 into an empty basket and opens /edit from the basket. */
async function composeFromBasket(page: Page, n: number): Promise<void> {
  await clearBasket(page);
  await page.goto(`${origin}/rehearse/SelectQuestionPaper`);
  await page.getByRole('button', { name: '数学', exact: true }).click();
  await page.getByRole('button', { name: '单选题', exact: true }).click();
  const cards = page.locator('article');
  await cards.first().waitFor();
  for (let i = 0; i < n; i++) {
    await cards.nth(i).getByRole('button', { name: '加入试题篮', exact: true }).click();
    await cards.nth(i).getByRole('button', { name: '移出试题篮', exact: true }).waitFor();
  }
  await page.getByRole('button', { name: /^试题篮，共 \d+ 题$/ }).click();
  await page.getByRole('button', { name: '进入组卷中心' }).click();
  await waitForPath(page, '/edit');
  await page.getByTestId('paper-item').first().waitFor();
}

describe('composition against the real host', { timeout: 180_000 }, () => {
  it('goes basket → /edit → /paperset → save, and finds the paper in 我的试卷', async () => {
    const { context, page } = await newPage(browser, { timeout: 15_000 });
    await signIn(page, origin);
    await page.goto(`${origin}/rehearse/SelectQuestionPaper`);
    await page.getByRole('button', { name: '数学', exact: true }).click();
    // Similar questions open under a card.
    await page.locator('article').first().getByRole('button', { name: '相似题' }).click();
    await page.getByText(/举一反三：\d+ 道相似题/).waitFor();
    await page.locator('.katex').first().waitFor();
    await shot(page, 'bank-similar', { fromTop: true });

    await composeFromBasket(page, 4);
    // The URL names the paper itself once it is composed.
    await page.waitForURL((u) => u.searchParams.get('type') === null && u.searchParams.has('paperId'));
    const paperId = new URL(page.url()).searchParams.get('paperId')!;
    expect(await page.getByTestId('paper-count').textContent()).toBe('4');
    expect(await page.getByTestId('paper-total').textContent()).toBe('12');
    await page.getByText('一、单选题（本大题共 4 小题，每小题 3 分，共 12 分）').first().waitFor();

    await page.getByRole('textbox', { name: '试卷标题' }).fill('七年级数学 第一单元测试');
    await page.getByRole('textbox', { name: '第一大题每小题分值' }).fill('5');
    expect(await page.getByTestId('paper-total').textContent()).toBe('20');
    await page.getByRole('textbox', { name: '第2题分值' }).fill('8');
    expect(await page.getByTestId('paper-total').textContent()).toBe('23');
    await page.getByText('有未保存的修改').waitFor();
    await shot(page, 'compose-edit', { fromTop: true });

    // 试卷设置 saves first, then opens the settings of this paper.
    await page.getByRole('button', { name: '试卷设置' }).click();
    await waitForPath(page, '/paperset');
    expect(new URL(page.url()).searchParams.get('paperId')).toBe(paperId);
    await page.getByRole('radio', { name: 'A3' }).click();
    await page.getByText('A3 · 双栏').waitFor();
    await page.getByRole('checkbox', { name: '印密封线（左侧装订边）' }).check();
    await page.getByRole('textbox', { name: '学校名称' }).fill('演示学校');
    await page.getByRole('textbox', { name: '考试时间' }).fill('90');
    await page
      .getByRole('img', { name: /^第 1 页/ })
      .getByText('考试时间：90 分钟')
      .waitFor();
    await shot(page, 'paperset', { fromTop: true });
    await page.getByRole('button', { name: '保存并返回组卷' }).click();
    await waitForPath(page, '/edit');
    await page.getByTestId('paper-item').first().waitFor();
    // Saved before leaving: the title, the scores and the settings came back from the host.
    expect(await page.getByRole('textbox', { name: '试卷标题' }).inputValue()).toBe(
      '七年级数学 第一单元测试',
    );
    expect(await page.getByTestId('paper-total').textContent()).toBe('23');

    await page.getByRole('button', { name: '保存定稿' }).click();
    await page.getByRole('status').filter({ hasText: '已保存为定稿' }).waitFor();

    // Word export: the teacher copy downloads.
    await page.getByRole('button', { name: '导出 Word' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: '教师版（含答案与解析）' }).click();
    expect((await download).suggestedFilename()).toBe('七年级数学 第一单元测试（教师版）.docx');

    await page.goto(`${origin}/cloudResources/personPaper`);
    const row = page.getByRole('row').filter({ hasText: '七年级数学 第一单元测试' });
    await row.waitFor();
    expect(await row.textContent()).toContain('定稿');
    expect(await row.textContent()).toContain('4 题 · 23 分');
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('access_token')!) as string);
    const settings = await host.app.inject({
      method: 'GET',
      url: `/teacher/paper/settings/${paperId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(settings.json()).toMatchObject({
      data: { paperSize: 'A3', sealingLine: true, header: { school: '演示学校', examMinutes: 90 } },
    });
    await shot(page, 'my-papers', { fromTop: true });
    await context.close();
  });

  it('reorders and scores by keyboard alone in /edit, with undo, and keeps it after a reload', async () => {
    const { context, page } = await newPage(browser, { timeout: 15_000 });
    await signIn(page, origin);
    await composeFromBasket(page, 3);
    const before = await order(page);
    expect(before).toHaveLength(3);

    // Programmatic focus on the first move button; from here on only keys.
    await page.getByRole('button', { name: '下移第1题' }).focus();
    await page.keyboard.press('Enter');
    expect(await order(page)).toEqual([before[1], before[0], before[2]]);
    // The focus followed the question: Enter again moves it once more.
    await focusOn(page, '下移第2题');
    await page.keyboard.press('Enter');
    expect(await order(page)).toEqual([before[1], before[2], before[0]]);
    // At the bottom 下移 is disabled, so the focus is on 上移; Shift+Tab reaches the score box.
    await focusOn(page, '上移第3题');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('第3题分值');
    await page.keyboard.type('6');
    expect(await page.getByTestId('paper-total').textContent()).toBe('12');
    await page.keyboard.press('ArrowUp');
    expect(await page.getByTestId('paper-total').textContent()).toBe('13');
    await page.keyboard.press('Control+z');
    expect(await page.getByTestId('paper-total').textContent()).toBe('9');
    await page.keyboard.press('Control+Shift+z');
    expect(await page.getByTestId('paper-total').textContent()).toBe('13');
    await page.keyboard.press('Control+s');
    await page.getByRole('status').filter({ hasText: '已保存草稿' }).waitFor();

    // Mouse users drag by the handle; the first question back to the top.
    await page
      .getByTitle('按住拖动第3题')
      .dragTo(page.getByTestId('paper-item').first(), { targetPosition: { x: 40, y: 4 } });
    expect(await order(page)).toEqual([before[0], before[1], before[2]]);
    await page.keyboard.press('Control+z');
    expect(await order(page)).toEqual([before[1], before[2], before[0]]);

    await page.reload();
    await page.getByTestId('paper-item').first().waitFor();
    expect(await order(page)).toEqual([before[1], before[2], before[0]]);
    expect(await page.getByRole('textbox', { name: '第3题分值' }).inputValue()).toBe('7');
    expect(await page.getByTestId('paper-total').textContent()).toBe('13');
    await context.close();
  });

  it('goes basket → /edit → /paperset → save by keyboard alone', async () => {
    const { context, page } = await newPage(browser, { timeout: 15_000 });
    await signIn(page, origin);
    await clearBasket(page);
    await page.goto(`${origin}/rehearse/SelectQuestionPaper`);
    await page.locator('article').first().waitFor();
    // From here on only keys: Tab to a control, Enter or Space to use it, typing into boxes.
    await tabTo(page, '数学');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: '数学', exact: true, pressed: true }).waitFor();
    for (let added = 1; added <= 2; added++) {
      await tabTo(page, '加入试题篮');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: `试题篮，共 ${added} 题` }).waitFor();
    }
    await tabTo(page, /^试题篮，共 2 题$/, true);
    await page.keyboard.press('Enter');
    await tabTo(page, '进入组卷中心');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/edit');
    await page.getByTestId('paper-item').first().waitFor();
    expect(await page.getByTestId('paper-count').textContent()).toBe('2');

    await tabTo(page, '试卷标题');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('键盘组卷 单元测试');
    await tabTo(page, '试卷设置');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/paperset');
    await tabTo(page, 'A4');
    // A radio group: the arrow key chooses the next size.
    await page.keyboard.press('ArrowRight');
    expect(await focusedName(page)).toBe('A3');
    await page.getByText('A3 · 双栏').waitFor();
    await tabTo(page, '学校名称');
    await page.keyboard.type('演示学校');
    await tabTo(page, '保存并返回组卷');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/edit');
    await page.getByTestId('paper-item').first().waitFor();
    expect(await page.getByRole('textbox', { name: '试卷标题' }).inputValue()).toBe('键盘组卷 单元测试');

    await tabTo(page, '保存定稿');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: '已保存为定稿' }).waitFor();
    const paperId = new URL(page.url()).searchParams.get('paperId')!;
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('access_token')!) as string);
    const settings = await host.app.inject({
      method: 'GET',
      url: `/teacher/paper/settings/${paperId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(settings.json()).toMatchObject({ data: { paperSize: 'A3', header: { school: '演示学校' } } });
    await context.close();
  });

  it('composes by smart composition, explains the result, and opens it in /edit', async () => {
    const { context, page } = await newPage(browser, { timeout: 15_000 });
    await signIn(page, origin);
    await page.goto(`${origin}/rehearse/intellectTestPaper`);
    await page.getByRole('button', { name: '学科' }).click();
    await page.getByRole('option', { name: '初中数学' }).click();
    await page.getByRole('checkbox', { name: '第一章 有理数' }).check();
    await page.getByRole('checkbox', { name: '第二章 有理数的运算' }).check();
    await page.getByRole('textbox', { name: '单选题题量' }).fill('10');
    await page.getByRole('textbox', { name: '填空题每题分值' }).fill('3');
    await page.getByRole('button', { name: '预览组卷结果' }).click();
    await page.getByRole('heading', { name: '组卷结果预览' }).waitFor();
    await page
      .getByText(/知识点覆盖/)
      .first()
      .waitFor();
    const picked = () => page.locator('[id^="sm-"]').evaluateAll((els) => els.map((el) => el.id));
    const first = await picked();
    // 20 asked for; one question per template, so a small bank may give fewer, and then the screen says so.
    expect(new Set(first).size).toBe(first.length);
    expect(first.length).toBeGreaterThanOrEqual(15);
    if (first.length < 20) {
      await page.getByText(`${first.length} / 20`, { exact: true }).first().waitFor();
      expect(
        await page.getByRole('list', { name: '未能满足的要求' }).getByRole('listitem').count(),
      ).toBeGreaterThan(0);
    }
    await shot(page, 'smart-compose', { fromTop: true });

    await page.getByRole('button', { name: '换一批' }).click();
    await page.getByText('第 2 批').waitFor();
    const second = await picked();
    expect(second).not.toEqual(first);

    await page.getByRole('button', { name: '生成试卷并编辑' }).click();
    await waitForPath(page, '/edit');
    await page.getByTestId('paper-item').first().waitFor();
    expect(await page.getByTestId('paper-count').textContent()).toBe(String(second.length));
    await context.close();
  });

  it('deletes a paper to the recycle bin, restores it, and deletes it for ever after confirming', async () => {
    const { context, page } = await newPage(browser, { timeout: 15_000 });
    await signIn(page, origin);
    // A template copied into 我的试卷 is the paper to delete.
    await page.goto(`${origin}/rehearse/GoodsPaper`);
    await page.getByRole('button', { name: /^预览七年级上册 期中测试卷/ }).click();
    await page.getByRole('dialog', { name: '预览模板试卷' }).getByText(/^一、/).first().waitFor();
    await shot(page, 'templates-preview', { fromTop: true });
    await page.getByRole('dialog').getByRole('button', { name: '复制到我的试卷' }).click();
    await waitForPath(page, '/edit');
    await page.getByTestId('paper-item').first().waitFor();

    await page.goto(`${origin}/cloudResources/personPaper`);
    const row = page.getByRole('row').filter({ hasText: '七年级上册 期中测试卷' });
    await row.getByRole('button', { name: /更多操作$/ }).click();
    await page.getByRole('menuitem', { name: '删除' }).click();
    await page.getByText('已移到回收站，30 天内可以还原').waitFor();
    await row.waitFor({ state: 'detached' });

    await page.goto(`${origin}/cloudResources/recycleBin`);
    const binRow = page.getByRole('row').filter({ hasText: '七年级上册 期中测试卷' });
    await binRow.getByText(/^\d+ 天后彻底删除$/).waitFor();
    await shot(page, 'recycle-bin', { fromTop: true });
    await binRow.getByRole('button', { name: /^还原/ }).click();
    await page.getByText('回收站里没有试卷').waitFor();

    await page.goto(`${origin}/cloudResources/personPaper`);
    await row.getByRole('button', { name: /更多操作$/ }).click();
    await page.getByRole('menuitem', { name: '删除' }).click();
    await row.waitFor({ state: 'detached' });
    await page.goto(`${origin}/cloudResources/recycleBin`);
    await binRow.getByRole('button', { name: /^彻底删除/ }).click();
    const confirm = page.getByRole('dialog', { name: '彻底删除？' });
    await confirm.getByText('将被永久删除，无法再还原', { exact: false }).waitFor();
    // The safe choice has the focus: Enter cancels.
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await binRow.waitFor();
    await binRow.getByRole('button', { name: /^彻底删除/ }).click();
    await confirm.getByRole('button', { name: '彻底删除' }).click();
    await page.getByText('回收站里没有试卷').waitFor();
    await context.close();
  });

  it('saves screenshots of the screens at 1440 and 390 px', async () => {
    for (const width of [1440, 390]) {
      const { context, page } = await newPage(browser, { width, timeout: 15_000 });
      await signIn(page, origin);
      await page.goto(`${origin}/rehearse/SelectQuestionPaper`);
      await page.getByRole('button', { name: '数学', exact: true }).click();
      await page.locator('.katex').first().waitFor();
      await shot(page, 'bank', { fromTop: true });
      await page.goto(`${origin}/rehearse/intellectTestPaper`);
      await page.getByRole('checkbox').first().waitFor();
      await shot(page, 'smart-form', { fromTop: true });
      await page.goto(`${origin}/rehearse/SynchronizationClass`);
      await page.getByRole('heading', { name: '单元测试' }).waitFor();
      await shot(page, 'sync-class', { fromTop: true });
      await page.goto(`${origin}/rehearse/GoodsPaper`);
      await page.getByRole('button', { name: '复制到我的试卷' }).first().waitFor();
      await shot(page, 'templates', { fromTop: true });
      await page.goto(`${origin}/rehearse/MistakesExercise`);
      await page.getByText(/错题重练会从已批阅的作业中找出/).waitFor();
      await shot(page, 'mistakes', { fromTop: true });
      await page.goto(`${origin}/cloudResources/schoolTestQuestions`);
      await page.getByRole('radiogroup', { name: '校本题库分类' }).waitFor();
      await shot(page, 'school-questions', { fromTop: true });
      await page.goto(`${origin}/cloudResources/paperSetting`);
      await page.getByTestId('paper-preview').waitFor();
      await shot(page, 'paper-setting', { fromTop: true });
      await composeFromBasket(page, 2);
      await shot(page, 'compose-edit', { fromTop: true });
      if (width < 768) {
        // Phones keep the less used actions under 更多.
        await page.getByRole('button', { name: '更多操作' }).click();
        await page.getByRole('menuitem', { name: '试卷设置' }).click();
      } else {
        await page.getByRole('button', { name: '试卷设置' }).click();
      }
      await waitForPath(page, '/paperset');
      await page.getByTestId('paper-preview').waitFor();
      await shot(page, 'paperset', { fromTop: true });
      await context.close();
    }
  });
});
