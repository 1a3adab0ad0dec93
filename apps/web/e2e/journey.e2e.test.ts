// @vitest-environment node
/**
 * The whole journey as a new teacher lives it, in Debian's Chromium, against a fresh host (SQLite, its own data
 * folder) and a real scan agent started as its own process with the virtual scanner:
 * sign in → compose a paper from the basket → design its card → publish it to 七年级(1)班 → download the
 * personalised cards → the virtual scanner feeds the filled cards of that homework through the agent into /scan →
 * recognition → the exception resolved on screen → marking by keyboard → the analysis and the commentary show the
 * new results → the Excel export. Every step leaves a screenshot under test-artifacts/journey.
 *
 * What the students wrote is the only thing the test scripts: the agent's start request gets a fixed seed and the
 * answers of each sheet (one sheet double-marks a single-choice question), as a class would fill the cards.
 */
import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '@zhzy/server/testing';
import { WEB_ROOT } from './browser';
import { drawFirstPage, pdfPageCount } from './teacher';
import { startScanRig, type ScanRig } from './scan-rig';

const PASSWORD = 'Demo@2026';
const TITLE = '七年级数学 旅程测验';
const CLASS = '七年级(1)班';
const SHEETS = 6;
const ARTIFACTS = path.resolve(WEB_ROOT, '../../test-artifacts/journey');

let rig: ScanRig;
let host: TestApp;
let agentPort = 0;
let browser: Browser;
let step = 0;

const pairingCode = () => rig.pairingCode();
const api = <T>(url: string) => rig.api<T>(url);

beforeAll(async () => {
  rig = await startScanRig('journey', { RECOGNITION_WORKERS: '1' }, ARTIFACTS);
  ({ host, browser, agentPort } = rig);
}, 240_000);

afterAll(() => rig?.close());

const waitForPath = (page: Page, wanted: string) =>
  page.waitForURL((url) => url.pathname.toLowerCase() === wanted.toLowerCase(), { timeout: 30_000 });

/** A numbered screenshot of the step, from the top of the page. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(300);
  step++;
  await page.screenshot({
    path: path.join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}.png`),
    fullPage,
    // A loaded CI machine can take long to paint a full page while recognition runs.
    timeout: 90_000,
  });
}

const poll = <T>(fn: () => Promise<T> | T, timeout = 30_000) => expect.poll(fn, { timeout, interval: 300 });

describe('the whole journey, as a new teacher', () => {
  it('composes, prints, scans through the agent, resolves, marks, analyses and exports', async () => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'zh-CN',
      deviceScaleFactor: 1,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);

    // ── Sign in.
    await page.goto(`${host.baseUrl}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await shot(page, 'sign-in', false);
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await waitForPath(page, '/paperList');
    await page.getByText('还没有发布作业').waitFor();
    await shot(page, 'paperlist-empty');

    // ── Compose: four single-choice questions and one worked problem into the basket, then /edit.
    await page.goto(`${host.baseUrl}/rehearse/SelectQuestionPaper`);
    await page.getByRole('button', { name: '数学', exact: true }).click();
    const cards = page.locator('article');
    const add = async (type: string, n: number) => {
      await page.getByRole('button', { name: type, exact: true }).click();
      await page.waitForLoadState('networkidle');
      await cards.first().waitFor();
      for (let i = 0; i < n; i++) {
        await cards.nth(i).getByRole('button', { name: '加入试题篮', exact: true }).click();
        await cards.nth(i).getByRole('button', { name: '移出试题篮', exact: true }).waitFor();
      }
    };
    await add('单选题', 4);
    await add('解答题', 1);
    await shot(page, 'bank');
    await page.getByRole('button', { name: '试题篮，共 5 题' }).click();
    await page.getByRole('button', { name: '进入组卷中心' }).click();
    await waitForPath(page, '/edit');
    await page.waitForURL((u) => u.searchParams.get('type') === null && u.searchParams.has('paperId'));
    const paperId = new URL(page.url()).searchParams.get('paperId')!;
    await poll(() => page.getByTestId('paper-count').textContent()).toBe('5');
    await page.getByRole('textbox', { name: '试卷标题' }).fill(TITLE);
    await page.getByRole('button', { name: '保存定稿' }).click();
    await page.getByRole('status').filter({ hasText: '已保存为定稿' }).waitFor();
    await shot(page, 'compose');

    // ── Design the card (from /edit's 答题卡), save it, publish it to the class.
    await page.getByRole('button', { name: '答题卡', exact: true }).click();
    await waitForPath(page, '/answerCard');
    expect(new URL(page.url()).searchParams.get('paperId')).toBe(paperId);
    await page.getByText(`试卷：${TITLE}`).waitFor();
    await page.getByRole('group', { name: /答题卡预览，第 1 页/ }).waitFor();
    expect(await page.getByRole('radio', { name: /二维码（个性化）/ }).isChecked()).toBe(true);
    // A taller box for the worked problem, by keyboard (↓ adds 2 mm).
    const edge = page.getByRole('separator', { name: /题答题区高度$/ }).first();
    const before = Number(await edge.getAttribute('aria-valuenow'));
    await edge.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
    expect(Number(await edge.getAttribute('aria-valuenow'))).toBe(before + 10);
    await page.getByRole('button', { name: '保存答题卡' }).click();
    await page.getByTestId('card-status').filter({ hasText: '已保存' }).waitFor();
    await shot(page, 'card-designer');
    await page.getByRole('button', { name: '发布作业' }).click();
    await waitForPath(page, '/paperlist');
    const publish = page.getByRole('dialog', { name: '发布作业' });
    await publish.getByRole('checkbox', { name: CLASS }).check();
    await shot(page, 'publish', false);
    await publish.getByRole('button', { name: '发布', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `已发布“${TITLE}”` })
      .waitFor();
    const row = page.getByTestId('homework-row').filter({ hasText: TITLE });
    expect(await row.getByTestId('homework-state').textContent()).toBe('待扫描');
    const homeworkId = (
      await api<{ records: { id: string; title: string }[] }>('/teacher/homework/list')
    ).records.find((r) => r.title === TITLE)!.id;

    // ── Download the personalised cards of the class.
    await row.getByRole('button', { name: '打印答题卡' }).click();
    const printDialog = page.getByRole('dialog', { name: '打印答题卡' });
    const card = await api<{
      layout: {
        pages: { elements: { type: string; rows?: { questionId: string; kind: string }[] }[] }[];
      };
    }>(`/teacher/homework/card/${homeworkId}`);
    const pages = card.layout.pages.length;
    expect(await printDialog.getByTestId('card-print-total').textContent()).toMatch(
      new RegExp(`^共 40 名学生，每名学生 ${pages} 页，合计 ${40 * pages} 页`),
    );
    await shot(page, 'print-cards', false);
    const download = page.waitForEvent('download', { timeout: 90_000 });
    await printDialog.getByRole('button', { name: '下载 PDF' }).click();
    const pdf = await download;
    expect(pdf.suggestedFilename()).toBe(`${TITLE}-个性化答题卡.pdf`);
    const pdfPath = path.join(ARTIFACTS, 'cards.pdf');
    await pdf.saveAs(pdfPath);
    expect(pdfPageCount(pdfPath)).toBe(40 * pages);
    step++;
    drawFirstPage(pdfPath, path.join(ARTIFACTS, `${String(step).padStart(2, '0')}-card-pdf`), {
      singleFile: true,
    });
    await page.keyboard.press('Escape');

    // What the students wrote: the key on every single choice, except a double mark on sheet 2's first question
    // and a wrong option on sheet 3's second.
    const rows = card.layout.pages.flatMap((p) =>
      p.elements.flatMap((e) => (e.type === 'objectiveBlock' ? (e.rows ?? []) : [])),
    );
    expect(rows.map((r) => r.kind)).toEqual(['single', 'single', 'single', 'single']);
    const detail = await api<{
      paper: { sections: { items: { questionId: string; question: { answer: string } }[] }[] };
    }>(`/teacher/homework/detail/${homeworkId}`);
    const key = new Map(
      detail.paper.sections.flatMap((s) =>
        s.items.map((i) => [
          i.questionId,
          /[A-D]/.exec(i.question.answer.replace(/<[^>]*>/g, ''))?.[0] ?? '',
        ]),
      ),
    );
    const wrong = (o: string) => (o === 'A' ? 'B' : 'A');
    const answers = Array.from({ length: SHEETS }, (_, sheet) =>
      Object.fromEntries(
        rows.map((r, q) => {
          const right = key.get(r.questionId)!;
          if (sheet === 1 && q === 0) return [r.questionId, 'AB'];
          if (sheet === 2 && q === 1) return [r.questionId, wrong(right)];
          return [r.questionId, right];
        }),
      ),
    );
    expect([...key.values()].filter((v) => /^[A-D]$/.test(v))).toHaveLength(4);

    // ── /scan: pair with the agent, choose the virtual scanner and this homework, scan the class set.
    await page.evaluate(
      (ws) => localStorage.setItem('scanAgentWsUrl', JSON.stringify(ws)),
      `ws://127.0.0.1:${agentPort}/ws`,
    );
    await page.route(
      (url) => url.port === String(agentPort) && url.pathname === '/scans',
      async (route) => {
        const req = route.request();
        if (req.method() !== 'POST') return route.continue();
        const body = JSON.parse(req.postData() ?? '{}') as { virtual?: Record<string, unknown> };
        expect(body.virtual).toMatchObject({ sheets: SHEETS });
        body.virtual = { ...body.virtual, seed: 20261121, answers };
        await route.continue({ postData: JSON.stringify(body) });
      },
    );
    await row.getByRole('link', { name: '扫描', exact: true }).click();
    await waitForPath(page, '/scan');
    await page.getByTestId('start-scan').click();
    const pairing = page.getByRole('dialog', { name: '连接扫描助手' });
    await pairing.getByRole('button', { name: '连接', exact: true }).click();
    // The page's 连接 makes a fresh code (replacing any older one): read the code only once the page has it.
    await pairing.getByText(/配对码已生成/).waitFor();
    await pairing.getByRole('textbox', { name: '配对码' }).fill(await pairingCode());
    await shot(page, 'scan-pairing', false);
    await pairing.getByRole('button', { name: '确认配对' }).click();
    await page.getByText(/已连接扫描助手/).waitFor();
    const settings = page.getByRole('dialog', { name: '扫描设置' });
    await settings.getByRole('button', { name: /扫描仪/ }).click();
    await page.getByRole('option', { name: '虚拟扫描仪（演示答题卡）' }).click();
    await settings.getByRole('radiogroup', { name: '双面扫描' }).getByRole('radio', { name: '否' }).click();
    await settings.getByLabel('演示扫描仪纸张数').fill(String(SHEETS));
    await settings.getByRole('button', { name: /^演示作业/ }).click();
    await page.getByRole('option', { name: `${TITLE}（${CLASS}）` }).click();
    await shot(page, 'scan-settings', false);
    await settings.getByRole('button', { name: '保存' }).click();
    await settings.waitFor({ state: 'detached' });
    await page.getByTestId('start-scan').click();
    await poll(() => page.getByTestId('count-uploaded').textContent(), 180_000).toBe(String(SHEETS));
    expect(await page.getByTestId('count-failed').textContent()).toBe('0');
    await page.getByTestId('scan-notice').filter({ hasText: '进纸器' }).waitFor();
    await page.getByRole('button', { name: '结束' }).click();
    await poll(() => page.getByTestId('batch-state').textContent()).toBe('已结束');
    await shot(page, 'scan-batch');

    // ── Recognition: every sheet read as this homework's; the double mark is the one exception, fixed on screen.
    const panel = page.getByTestId('recognition-panel');
    await poll(() => panel.getByTestId('tally').innerText(), 120_000).toMatch(
      new RegExp(`已读答卡\\s*${SHEETS}`),
    );
    const tallyOfHomework = panel.getByTestId('tally-homework').filter({ hasText: TITLE });
    await poll(() => tallyOfHomework.innerText()).toMatch(`已识别 ${SHEETS} / 40 名学生`);
    const exception = panel.getByTestId('exception').filter({ hasText: '单选题涂了多个选项' });
    await poll(() => exception.count()).toBe(1);
    expect(await panel.getByTestId('exception').count()).toBe(1);
    await shot(page, 'recognition');
    await exception.getByRole('button', { name: '选择答案' }).click();
    const firstKey = key.get(rows[0]!.questionId)!;
    await exception
      .getByRole('group', { name: /^第 \d+ 题$/ })
      .getByRole('button', { name: firstKey, exact: true })
      .click();
    await exception.getByRole('button', { name: '确定' }).click();
    await poll(() => panel.getByTestId('exception').count()).toBe(0);
    await tallyOfHomework.getByRole('button', { name: '复核答卡' }).click();
    const review = page.getByRole('dialog');
    await poll(() => review.getByTestId('review-total').innerText()).toMatch(/客观题 \d+(\.\d)? 分/);
    await poll(() => review.locator('img').count()).toBeGreaterThan(0);
    await shot(page, 'review', false);
    await page.keyboard.press('Escape');

    // ── Marking by keyboard: the worked problem of every scanned sheet.
    await page.getByRole('link', { name: '作业列表', exact: true }).first().click();
    await waitForPath(page, '/paperlist');
    await row.getByRole('link', { name: '阅卷', exact: true }).click();
    await waitForPath(page, '/correct');
    const task = page.getByRole('region', { name: TITLE });
    await task.waitFor();
    await shot(page, 'correct');
    const link = task.getByRole('link', { name: /开始阅卷$/ }).first();
    await link.focus();
    await page.keyboard.press('Enter');
    await waitForPath(page, '/write');
    const box = page.getByRole('textbox', { name: /^第\d+题（满分 [\d.]+）$/ });
    await poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    const full = Number(/满分 ([\d.]+)/.exec((await box.getAttribute('aria-label'))!)![1]);
    await shot(page, 'write');
    const sheetShown = () => page.getByTestId('crop-stack').getAttribute('data-sheet');
    const given = new Map<string, number>();
    for (let i = 0; i < SHEETS; i++) {
      const sheet = (await sheetShown())!;
      const score = i === 0 ? full : Math.min(full, i + 0.5);
      if (i === 0) await page.keyboard.press('m');
      else await page.keyboard.type(String(score));
      await page.keyboard.press('Enter');
      given.set(sheet, score);
      if (i < SHEETS - 1) await poll(() => sheetShown()).not.toBe(sheet);
    }
    await page.getByText('本题块您的答卷已全部批完').waitFor();
    await shot(page, 'marking-done');
    expect(given.size).toBe(SHEETS);

    // The host's totals: the objective score from the key plus the mark given, per sheet.
    const db = host.testDb.db.kysely;
    const sheets = await db
      .selectFrom('sheets')
      .innerJoin('students', 'students.id', 'sheets.student_id')
      .select(['sheets.id', 'students.name'])
      .where('sheets.homework_id', '=', homeworkId)
      .execute();
    expect(sheets).toHaveLength(SHEETS);
    const scoreRows = await db
      .selectFrom('sheet_answers')
      .select(['sheet_id', 'question_id', 'score_tenths'])
      .where('homework_id', '=', homeworkId)
      .execute();
    const totals = new Map<string, number>();
    for (const a of scoreRows) totals.set(a.sheet_id, (totals.get(a.sheet_id) ?? 0) + (a.score_tenths ?? 0));
    const objectiveOf = (sheetId: string) =>
      scoreRows
        .filter(
          (a) =>
            a.sheet_id === sheetId &&
            key.has(a.question_id) &&
            rows.some((r) => r.questionId === a.question_id),
        )
        .reduce((sum, a) => sum + (a.score_tenths ?? 0), 0);
    for (const s of sheets) {
      expect(totals.get(s.id)! - objectiveOf(s.id)).toBe(Math.round(given.get(s.id)! * 10));
    }
    const objective = sheets.map((s) => objectiveOf(s.id)).sort((a, b) => a - b);
    // Five sheets all right; the wrong option on one sheet costs one question.
    expect(objective[objective.length - 1]).toBeGreaterThan(objective[0]!);
    expect(new Set(objective.slice(1)).size).toBe(1);

    // ── The analysis of the homework, from its row on /paperlist.
    await page.getByRole('link', { name: '作业列表', exact: true }).first().click();
    await waitForPath(page, '/paperlist');
    // Six of forty students are in: the homework is still being scanned.
    expect(await row.getByTestId('homework-state').textContent()).toBe('扫描中');
    await row.getByRole('link', { name: '分析', exact: true }).click();
    await waitForPath(page, '/analysis/grade');
    expect(new URL(page.url()).searchParams.get('homeworkId')).toBe(homeworkId);
    await page
      .getByText(new RegExp(`${SHEETS}\\s*/\\s*40`))
      .first()
      .waitFor();
    const mean = [...totals.values()].reduce((a, b) => a + b, 0) / totals.size / 10;
    await page.getByText(fmtScore(mean)).first().waitFor();
    await shot(page, 'analysis-grade');

    // The Excel export: every scanned student with the total the host holds.
    const excel = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: '导出完整成绩（含 Z/T 分）' }).click();
    const xlsx = await excel;
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const xlsxPath = path.join(ARTIFACTS, 'scores.xlsx');
    await xlsx.saveAs(xlsxPath);
    const zip = await JSZip.loadAsync(fs.readFileSync(xlsxPath));
    const shared = (await zip.file('xl/sharedStrings.xml')?.async('string')) ?? '';
    const sheetXml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    for (const s of sheets) {
      expect(shared + sheetXml).toContain(s.name);
      expect(sheetXml).toContain(`<v>${totals.get(s.id)! / 10}</v>`);
    }

    // The commentary: what to go over in class, from the new results.
    await page.getByRole('link', { name: '作业讲评' }).first().click();
    await waitForPath(page, '/assistant/commentary');
    // The worked problem heads the list, with the points lost on average over the marks given by keyboard.
    const lost = [...given.values()].reduce((sum, g) => sum + (full - g), 0) / given.size;
    const worked = page.getByText(/^第\d+题 · 解答题$/).first();
    await worked.waitFor();
    await page
      .getByText(`人均失分 ${fmtScore(lost)}`)
      .first()
      .waitFor();
    await page.getByText('需讲评', { exact: true }).first().waitFor();
    await shot(page, 'commentary');
    await context.close();
  }, 480_000);
});

/** A score as the analysis prints it (one decimal at most). */
function fmtScore(v: number): string {
  return String(Math.round(v * 10) / 10);
}
