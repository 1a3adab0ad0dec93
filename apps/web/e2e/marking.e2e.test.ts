// @vitest-environment node
/**
 * Marking on screen in Debian's Chromium against the real host (SQLite) with the marking demo seeded: demo-teacher
 * opens /correct, sees the scanned class test, and marks a whole 填空 question of 七年级(1)班 by keyboard alone —
 * digits, .5, the full-score key, Enter — including a blocked empty score. Every score is then in results.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '@zhzy/server/testing';
import { SCREENSHOT_DIR } from './browser';
import { poll, sheetShown, startMarkingRig, TEST_TITLE, type MarkingRig } from './marking-rig';

let rig: MarkingRig;
let host: TestApp;
let browser: Browser;
const api = <T>(url: string) => rig.api<T>(url);
const signIn = (page: Page) => rig.signIn(page);

beforeAll(async () => {
  rig = await startMarkingRig('marking');
  ({ host, browser } = rig);
}, 300_000);

afterAll(() => rig?.close());

describe('marking on screen', () => {
  it('marks a whole question of a class by keyboard alone, and every score reaches results', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page);

    await page.goto(`${host.baseUrl}/correct`);
    const task = page.getByRole('region', { name: TEST_TITLE });
    await poll(() => task.getByRole('listitem').count()).toBe(4);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'marking-correct-1440.png'), fullPage: true });

    // The first 填空 block: open it from the task list with the keyboard (focus on its link, Enter).
    const tasks =
      await api<{ homeworkId: string; homeworkTitle: string; blocks: { id: string; title: string }[] }[]>(
        '/teacher/mark/tasks',
      );
    const hw = tasks.find((t) => t.homeworkTitle === TEST_TITLE)!;
    const block = hw.blocks[hw.blocks.length - 4 + 0]!;
    const link = task.getByRole('link', { name: `${TEST_TITLE} ${block.title} 开始阅卷` });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/write');
    const box = page.getByRole('textbox', { name: /^第\d+题（满分 4）$/ });
    await poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByTestId('student-name').textContent()).toBe('姓名已隐藏');
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'marking-write-1440.png'), fullPage: true });

    // An empty score is blocked with a message, and nothing moves on.
    const first = await sheetShown(page);
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('alert').textContent()).toMatch(/^请给第\d+题打分$/);
    expect(await sheetShown(page)).toBe(first);

    // Then the whole class: 40 crops, scored by keys only.
    const given = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const sheet = (await sheetShown(page))!;
      let score: number;
      if (i % 5 === 0) {
        await page.keyboard.press('m');
        score = 4;
      } else if (i % 5 === 1) {
        await page.keyboard.type('2.5');
        score = 2.5;
      } else if (i % 5 === 2) {
        await page.keyboard.press('z');
        score = 0;
      } else {
        await page.keyboard.type(String(i % 4));
        score = i % 4;
      }
      await page.keyboard.press('Enter');
      given.set(sheet, score);
      if (i < 39) await poll(() => sheetShown(page)).not.toBe(sheet);
    }
    await poll(() => page.getByText('本题块您的答卷已全部批完').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'marking-done-1440.png'), fullPage: true });
    expect(given.size).toBe(40);

    // Every score is in results, from this marker.
    const detail = await api<{ blocks: { id: string; progress: { done: number; items: number } }[] }>(
      `/teacher/mark/homework/${hw.homeworkId}`,
    );
    expect(detail.blocks.find((b) => b.id === block.id)!.progress).toMatchObject({ done: 40, items: 40 });
    const db = host.testDb.db.kysely;
    const blockRow = await db
      .selectFrom('mark_blocks')
      .selectAll()
      .where('id', '=', block.id)
      .executeTakeFirstOrThrow();
    const [questionId] = JSON.parse(blockRow.question_ids) as string[];
    const answers = await db
      .selectFrom('sheet_answers')
      .select(['sheet_id', 'score_tenths', 'score_source'])
      .where('homework_id', '=', hw.homeworkId)
      .where('question_id', '=', questionId!)
      .execute();
    expect(answers).toHaveLength(40);
    for (const a of answers) {
      expect(a.score_source).toBe('marker');
      expect(a.score_tenths).toBe(Math.round(given.get(a.sheet_id)! * 10));
    }

    // 回评 lists the 40 marks (still no mouse: the button by the keyboard).
    await page.getByRole('button', { name: '回评' }).first().focus();
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('dialog').getByRole('listitem').count()).toBe(40);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'marking-history-1440.png') });
    await context.close();
  }, 240_000);
});
