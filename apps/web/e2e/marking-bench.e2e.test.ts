// @vitest-environment node
/**
 * The marking bench's tools against Gradescope and 智学网 (issue 22 point 9), in Debian's Chromium against the real
 * host (SQLite) with the marking demo seeded. demo-teacher, on a 解答 block of the scanned class test: clicks a
 * score button; defines rubric items and applies them with one key each; scores the blank group and sees the
 * counters follow without a reload; opens 回评, sees the crops with their scores and re-marks one; turns on 讲评 mode
 * and no name can be shown, also after a reload. Every score is checked in results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '@zhzy/server/testing';
import { poll, sheetShown, startMarkingRig, TEST_TITLE, type MarkingRig } from './marking-rig';
import { shot } from './teacher';

let rig: MarkingRig;
let host: TestApp;
let browser: Browser;
const api = <T>(url: string) => rig.api<T>(url);
const signIn = (page: Page) => rig.signIn(page);

beforeAll(async () => {
  rig = await startMarkingRig('marking-bench');
  ({ host, browser } = rig);
}, 300_000);

afterAll(() => rig?.close());

describe('the marking bench against Gradescope and 智学网', () => {
  it('score buttons, one-key rubric items, counters after a group, 回评 with crops, and 讲评 mode', async () => {
    const tasks =
      await api<{ homeworkId: string; homeworkTitle: string; blocks: { id: string; title: string }[] }[]>(
        '/teacher/mark/tasks',
      );
    const hw = tasks.find((t) => t.homeworkTitle === TEST_TITLE)!;
    const blockId = hw.blocks[hw.blocks.length - 1]!.id;
    const block = await api<{ questions: { questionId: string; no: string; fullScore: number }[] }>(
      `/teacher/mark/block/${blockId}`,
    );
    const q = block.questions[0]!;
    expect(q.fullScore).toBe(10);
    const db = host.testDb.db.kysely;
    const scoreOf = async (sheetId: string) =>
      (
        await db
          .selectFrom('sheet_answers')
          .select(['score_tenths'])
          .where('sheet_id', '=', sheetId)
          .where('question_id', '=', q.questionId)
          .executeTakeFirstOrThrow()
      ).score_tenths;

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page);
    await page.goto(`${host.baseUrl}/write?block=${blockId}`);
    const box = page.getByRole('textbox', { name: `第${q.no}题（满分 10）` });
    await poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    const counts = page.getByTestId('mark-counts');
    await poll(() => counts.textContent()).toMatch(/^已批 0 份 · 待批 40 份$/);

    // 1. Score buttons: 0, every ½ step, full; a click lands in the box like typing it, and Enter sends it.
    const buttons = page.getByRole('group', { name: `第${q.no}题点选分数` }).getByRole('button');
    expect(await buttons.allTextContents()).toEqual(Array.from({ length: 21 }, (_, k) => String(k / 2)));
    const clicked = (await sheetShown(page))!;
    await page.getByRole('button', { name: `第${q.no}题给 7.5 分` }).click();
    expect(await box.inputValue()).toBe('7.5');
    await box.press('Enter');
    await poll(() => sheetShown(page)).not.toBe(clicked);
    await poll(() => scoreOf(clicked)).toBe(75);

    // 2. Rubric items: defined once for the question, applied with one key each; the score is their sum.
    await page.getByRole('button', { name: '编辑评分项' }).click();
    const dialog = page.getByRole('dialog', { name: '编辑评分项' });
    await dialog.getByRole('button', { name: '添加评分项' }).click();
    await dialog.getByRole('button', { name: '添加评分项' }).click();
    await dialog.getByRole('textbox', { name: '评分项名称' }).nth(0).fill('列方程正确');
    await dialog.getByRole('textbox', { name: '分值（扣分填负数）' }).nth(0).fill('2');
    await dialog.getByRole('textbox', { name: '评分项名称' }).nth(1).fill('计算错误');
    await dialog.getByRole('textbox', { name: '分值（扣分填负数）' }).nth(1).fill('-1');
    await dialog.getByRole('button', { name: '保存设置' }).click();
    await poll(() => dialog.count()).toBe(0);
    const items = page.getByRole('group', { name: `第${q.no}题评分项` });
    await poll(() => items.getByRole('button').allTextContents()).toEqual(['A列方程正确+2', 'S计算错误−1']);
    await poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    const rubricSheet = (await sheetShown(page))!;
    await page.keyboard.press('a');
    expect(await box.inputValue()).toBe('2');
    await page.keyboard.press('s');
    expect(await box.inputValue()).toBe('1');
    expect(await page.getByTestId('rubric-applied').textContent()).toBe(
      '已选评分项：列方程正确 +2、计算错误 −1',
    );
    expect(await items.getByRole('button', { name: /列方程正确/ }).getAttribute('aria-pressed')).toBe('true');
    await shot(page, 'marking-rubric');
    await page.keyboard.press('Enter');
    await poll(() => sheetShown(page)).not.toBe(rubricSheet);
    await poll(() => scoreOf(rubricSheet)).toBe(10);
    const rubricIds = await db
      .selectFrom('mark_rubric_items')
      .select(['id', 'label'])
      .where('homework_id', '=', hw.homeworkId)
      .orderBy('sort')
      .execute();
    expect(rubricIds.map((r) => r.label)).toEqual(['列方程正确', '计算错误']);
    const markRow = await db
      .selectFrom('mark_marks')
      .select(['rubric'])
      .where('block_id', '=', blockId)
      .where('sheet_id', '=', rubricSheet)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(markRow.rubric)).toEqual({ [q.questionId]: rubricIds.map((r) => r.id) });
    await poll(() => counts.textContent()).toBe('已批 2 份 · 待批 38 份');

    // 3. Grouped marking: the blank answers scored 0 at once; the counters follow while the dialog is still open.
    await page.getByRole('button', { name: '分组批阅' }).click();
    const groups = page.getByRole('dialog', { name: '分组批阅' });
    const groupButton = groups.getByRole('button', { name: /^整组给分（\d+）$/ }).first();
    await poll(() => groupButton.count()).toBe(1);
    const n = Number(/（(\d+)）/.exec((await groupButton.textContent())!)![1]);
    expect(n).toBeGreaterThan(1);
    const progressBefore = (await page.getByTestId('block-progress').textContent())!;
    await groupButton.click();
    await poll(() => counts.textContent()).toBe(`已批 ${2 + n} 份 · 待批 ${38 - n} 份`);
    await poll(() => page.getByTestId('block-progress').textContent()).toBe(`全题块已完成 ${2 + n}/40`);
    expect(progressBefore).toBe('全题块已完成 2/40');
    await page.keyboard.press('Escape');
    await poll(() => groups.count()).toBe(0);
    expect(await counts.textContent()).toBe(`已批 ${2 + n} 份 · 待批 ${38 - n} 份`);
    await shot(page, 'marking-group-counters');

    // 4. 回评: every mark as its crop with its score; a click opens it again with its items, and re-marking revises.
    await page.getByRole('button', { name: '回评' }).first().click();
    const history = page.getByRole('dialog', { name: '回评' });
    await poll(() => history.getByRole('listitem').count()).toBe(2 + n);
    const card = history.getByRole('button', { name: '重新批阅第 2 份' });
    await poll(() =>
      card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    expect(await card.textContent()).toContain('1 分');
    expect(await card.textContent()).toContain('列方程正确 +2、计算错误 −1');
    expect(await history.getByRole('button', { name: '重新批阅第 1 份' }).textContent()).toContain('7.5 分');
    await poll(() =>
      history
        .locator('img')
        .evaluateAll((imgs: HTMLImageElement[]) => imgs.filter((i) => i.naturalWidth > 0).length),
    ).toBe(2 + n);
    await shot(page, 'marking-history-thumbnails');
    await card.click();
    await poll(() => sheetShown(page)).toBe(rubricSheet);
    await poll(() => box.inputValue()).toBe('1');
    expect(await items.getByRole('button', { name: /计算错误/ }).getAttribute('aria-pressed')).toBe('true');
    await poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    // Taking 「列方程正确」 back leaves the deduction alone: full marks minus one.
    await page.keyboard.press('a');
    expect(await box.inputValue()).toBe('9');
    await page.keyboard.press('Enter');
    await poll(() => scoreOf(rubricSheet)).toBe(90);
    await poll(() => page.getByText('已修改').count()).toBe(1);

    // 5. 讲评 mode: names cannot be shown (button gone, H does nothing), and it stays on after a reload.
    const name = page.getByTestId('student-name');
    expect(await name.textContent()).toBe('姓名已隐藏');
    await page.getByRole('button', { name: '讲评模式' }).click();
    expect(await name.textContent()).toBe('讲评模式：学生姓名和学号已隐藏');
    expect(await page.getByRole('button', { name: '显示姓名' }).count()).toBe(0);
    await box.focus();
    await page.keyboard.press('h');
    expect(await name.textContent()).toBe('讲评模式：学生姓名和学号已隐藏');
    await page.reload();
    await poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByRole('button', { name: '讲评模式' }).getAttribute('aria-pressed')).toBe('true');
    expect(await name.textContent()).toBe('讲评模式：学生姓名和学号已隐藏');
    const body = (await page.locator('body').textContent())!;
    expect(body).not.toMatch(/七年级\(1\)班|七年级（1）班/);
    await shot(page, 'marking-anonymous');
    await context.close();
  }, 240_000);
});
