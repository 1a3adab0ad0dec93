// @vitest-environment node
/**
 * 直接打印 in Debian's Chromium: a real host (SQLite) with a published homework, a private CUPS scheduler with a
 * cups-pdf queue, and a real scan agent that prints through it. The teacher pairs the agent on /scan, opens 打印答题卡
 * on /paperList, picks the printer and prints; the agent downloads the class's personalised cards from the host with
 * the teacher's token, CUPS prints them, and the PDF that comes out has every student's pages.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HomeworkCardSchema } from '@zhzy/contracts';
import { data, homeworkWorld, type World } from '../../server/test/homework-fixtures';
import { startTestCups, type TestCups } from '../../scan-agent/test/cups';
import { startTestAgent, type TestAgent } from '../../scan-agent/test/helpers';
import { CupsDriver } from '../../scan-agent/src/printers/cups/cups-driver';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

const TITLE = '第二单元测验';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-direct-print-e2e-'));
let w: World;
let cups: TestCups;
let agent: TestAgent;
let browser: Browser;
let origin = '';
let pagesPerStudent = 0;
let students = 0;

beforeAll(async () => {
  ensureBuilt();
  w = await homeworkWorld('sqlite', undefined, { DATA_DIR: tmp, WEB_DIST });
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = w.t.app.server.address();
  origin = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
  const paper = await w.createPaper(w.me, TITLE);
  const klass = w.classesA[0]!;
  const hw = await w.publish(w.me, {
    paperId: paper.id,
    type: 'test',
    title: TITLE,
    classIds: [klass.id],
    startDate: '2026-11-02',
    dueDate: '2026-11-09',
  });
  const card = HomeworkCardSchema.parse(data(await w.call('GET', `/teacher/homework/card/${hw.id}`, w.me)));
  pagesPerStudent = card.layout.pages.length;
  students = Number(
    (
      await w.t.testDb.db.kysely
        .selectFrom('students')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('class_id', '=', klass.id)
        .executeTakeFirstOrThrow()
    ).n,
  );
  cups = await startTestCups();
  agent = await startTestAgent(
    { printers: [new CupsDriver({ server: cups.server })], printPollMs: 200 },
    { AGENT_ALLOWED_ORIGINS: origin, AGENT_HOST_URLS: origin },
  );
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  await cups?.stop();
  await w?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

describe('直接打印 through the scan agent and CUPS', () => {
  it('pairs the agent, prints a class set of personalised cards at 100 %, and the printer gets every page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
    await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await page.waitForURL((url) => url.pathname === '/paperList');
    await page.evaluate(
      (ws) => localStorage.setItem('scanAgentWsUrl', JSON.stringify(ws)),
      `ws://127.0.0.1:${agent.port}/ws`,
    );

    // Not paired yet: the dialog says so and points to /scan; the PDF download stays available.
    const row = page.getByTestId('homework-row').filter({ hasText: TITLE });
    await row.getByRole('button', { name: '打印答题卡' }).click();
    let dialog = page.getByRole('dialog', { name: '打印答题卡' });
    await dialog.getByTestId('direct-print-unavailable').waitFor();
    await shot(page, 'direct-print-unpaired');
    await dialog.getByRole('link', { name: '前往扫描页面配对' }).click();

    await page.getByRole('heading', { name: '扫描', exact: true }).waitFor();
    await page.getByRole('button', { name: '连接扫描助手' }).click();
    const pairing = page.getByRole('dialog', { name: '连接扫描助手' });
    await pairing.getByRole('button', { name: '连接', exact: true }).click();
    await pairing.getByRole('textbox', { name: '配对码' }).fill(agent.pairing.current().code);
    await pairing.getByRole('button', { name: '确认配对' }).click();
    await page.getByText(/已连接扫描助手/).waitFor();

    await page.goto(`${origin}/paperList`);
    await row.getByRole('button', { name: '打印答题卡' }).click();
    dialog = page.getByRole('dialog', { name: '打印答题卡' });
    const printer = dialog.getByRole('combobox', { name: '打印机' });
    await printer.waitFor();
    // The queue by its description, with its state.
    expect(await printer.locator('option').allTextContents()).toEqual(['测试 PDF 打印机 · 就绪']);
    await shot(page, 'direct-print-ready');
    await dialog.getByRole('button', { name: '直接打印' }).click();
    await dialog.getByText('打印完成，请到打印机取件').waitFor({ timeout: 120_000 });
    await shot(page, 'direct-print-done');
    await context.close();

    const jobs = cups.client('lpstat', ['-W', 'completed', '-o', cups.queue]).stdout.trim().split('\n');
    const jobId = jobs.at(-1)!.split(/\s+/)[0]!;
    const out = await cups.output(jobId, 120_000);
    const info = execFileSync('pdfinfo', [out], { encoding: 'utf8' });
    expect(Number(/Pages:\s+(\d+)/.exec(info)![1])).toBe(students * pagesPerStudent);
    expect(info).toMatch(/Page size:\s+595(\.\d+)? x 842/);
  }, 300_000);
});
