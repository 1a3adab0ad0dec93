// @vitest-environment node
/**
 * 纸上批阅 (先阅后扫, issue #26, ADR 0065) in Debian's Chromium against the real host (SQLite, the demo school): the
 * demo homework that waits for scanning gets a tick score box on its first 解答题 (as the card designer saves it), its
 * personalised cards are printed by the real renderer, a "teacher" ticks scores in red pen, and the sheets are scanned
 * in colour and in grey and uploaded. The teacher opens 作业列表 → 更多 → 纸上批阅, turns it on, the sheets are read:
 * a clear box scores the question in the results with no marking left for it, and a box with two ticks in one row
 * waits in the window with its crop for the teacher to type the score.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { CardElementOf, CardLayout, HomeworkSummary } from '@zhzy/contracts';
import { renderFixture } from '@zhzy/answer-card/recognise/testing';
import { bearer, multipart, signIn as apiSignIn, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR } from './browser';
import { newPage, shot, signIn, startDemoHost } from './teacher';

const TITLE = '一元一次方程 随堂练习';
const run = promisify(execFile);
type Box = CardElementOf<'scoreBox'>;

let host: TestApp;
let browser: Browser;
let demo: Awaited<ReturnType<typeof startDemoHost>> | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-paper-marking-e2e-'));

beforeAll(async () => {
  ensureBuilt();
  demo = await startDemoHost('paper-marking');
  host = demo.host;
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The cells a teacher ticks for a score on a tick box: tens (when ≥ 10), units, and the half cell. */
function cellsFor(box: Box, score: number) {
  const row = (role: string) => box.rows.find((r) => r.role === role)?.cells ?? [];
  const whole = Math.floor(score);
  return [
    ...(whole >= 10 ? [row('tens').find((c) => c.value === Math.floor(whole / 10) * 10)!] : []),
    row('units').find((c) => c.value === whole % 10)!,
    ...(score !== whole ? [row('half')[0]!] : []),
  ];
}

/** A red-pen tick over a cell, as SVG at `k` px per mm. */
const redTick = ({ x, y, w, h }: { x: number; y: number; w: number; h: number }, k: number) => {
  const cx = (x + w / 2) * k;
  const cy = (y + h / 2) * k;
  return `<path d="M${cx - 1.7 * k},${cy} L${cx - 0.5 * k},${cy + 1.4 * k} L${cx + 2 * k},${cy - 1.7 * k}" stroke="rgb(210,30,40)" stroke-width="${0.6 * k}" fill="none" stroke-linecap="round"/>`;
};

it(
  'reads the scores a teacher ticked in red into the results, and lets a person settle a doubtful box',
  { timeout: 600_000 },
  async () => {
    const token = (await apiSignIn(host.app, 'demo-teacher')).access_token;
    const call = async <T>(method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown): Promise<T> => {
      const res = await host.app.inject({
        method,
        url,
        headers: bearer(token),
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
      return res.json<{ data: T }>().data;
    };
    const list = await call<{ records: HomeworkSummary[] }>('GET', '/teacher/homework/list?page=1&size=50');
    const hw = list.records.find((h) => h.title === TITLE)!;
    const before = await call<{ layout: CardLayout }>('GET', `/teacher/homework/card/${hw.id}`);
    const written = before.layout.pages
      .flatMap((p) => p.elements)
      .find((e): e is CardElementOf<'writtenBox'> => e.type === 'writtenBox' && !e.optionalGroup)!;
    const questionId = written.questionIds[0]!;
    // What the designer's 「打分框（先阅后扫）」 saves for 勾选格 with 半分.
    const card = await call<{ layout: CardLayout }>('PUT', `/teacher/homework/card/${hw.id}`, {
      scoreBoxes: { [questionId]: { kind: 'tick', half: true } },
    });
    const layout = card.layout;
    const boxPage = layout.pages.findIndex((p) => p.elements.some((e) => e.type === 'scoreBox'));
    const box = layout.pages[boxPage]!.elements.find((e): e is Box => e.type === 'scoreBox')!;
    expect(box.questionId).toBe(questionId);

    // The teacher turns 纸上批阅 on from the homework list.
    const { context, page } = await newPage(browser, { timeout: 60_000 });
    await signIn(page, host.baseUrl);
    const row = page.getByRole('article', { name: TITLE });
    await row.getByRole('button', { name: `${TITLE}的更多操作` }).click();
    await page.getByRole('menuitem', { name: '纸上批阅' }).click();
    const dialog = page.getByRole('dialog', { name: `纸上批阅 · ${TITLE}` });
    await dialog
      .getByText(`印有打分框的题：第${box.number}题（${box.fullScore}分，勾选格，可打半分）`)
      .waitFor();
    const toggle = dialog.getByRole('switch', { name: '纸上批阅' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await page.getByText('已开启纸上批阅').waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await dialog.getByText('没有需要核对的打分框').waitFor();
    await shot(page, 'paper-marking-on');

    // Three students' personalised cards, printed, marked in red and scanned: 11.5 in colour, 7 in grey, and a
    // corrected box (two ticks in the units row) in colour.
    const classId = hw.classes[0]!.id;
    const roster = await call<{ id: string; name: string; studentNo: string }[]>(
      'GET',
      `/teacher/analysis/students?classId=${classId}`,
    );
    const students = roster.slice(0, 3);
    expect(students).toHaveLength(3);
    const fixture = await renderFixture(
      tmp,
      'paper-marking',
      layout,
      students.map((s) => ({ id: s.id, name: s.name, number: s.studentNo, className: hw.classes[0]!.name })),
    );
    const k = 200 / 25.4;
    const scanned = async (copy: number, scores: number[], mode: 'colour' | 'grey') => {
      const n = copy * layout.pages.length + boxPage + 1;
      const prefix = path.join(tmp, `page-${copy}`);
      await run('pdftoppm', [
        '-r',
        '200',
        '-png',
        '-f',
        String(n),
        '-l',
        String(n),
        '-singlefile',
        fixture.pdf,
        prefix,
      ]);
      const meta = await sharp(`${prefix}.png`).metadata();
      const ticks = scores.flatMap((s) => cellsFor(box, s).map((c) => redTick(c.rect, k))).join('');
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}">${ticks}</svg>`;
      const marked = sharp(
        await sharp(`${prefix}.png`)
          .composite([{ input: Buffer.from(svg) }])
          .png()
          .toBuffer(),
      );
      return (mode === 'grey' ? marked.greyscale() : marked)
        .withMetadata({ density: 200 })
        .jpeg({ quality: 88 })
        .toBuffer();
    };
    const info = await call<{ gradeInfo: { orgDefaultId: string } }>('GET', '/system/user/info');
    const years = await call<{ id: string; isDefault: boolean }[]>(
      'GET',
      `/system/class?orgId=${info.gradeInfo.orgDefaultId}&type=1`,
    );
    const { batch } = await call<{ batch: { id: string } }>('POST', '/teacher/scan/batch', {
      schoolYearId: years.find((y) => y.isDefault)!.id,
      subjectTeacher: false,
      source: 'upload',
    });
    const sheets: [number, number[], 'colour' | 'grey'][] = [
      [0, [11.5], 'colour'],
      [1, [7], 'grey'],
      [2, [3, 5], 'colour'],
    ];
    for (const [copy, scores, mode] of sheets) {
      const form = await multipart({ file: new Blob([await scanned(copy, scores, mode)]) });
      const res = await host.app.inject({
        method: 'POST',
        url: `/teacher/scan/batch/${batch.id}/page`,
        headers: { ...bearer(token), 'content-type': form.contentType },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await host.app.jobs.drain();

    // The clear boxes are in the results, read from paper; nothing is left to mark for them.
    const answers = await host.testDb.db.kysely
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .select(['s.student_id', 'a.score_tenths', 'a.score_source'])
      .where('s.homework_id', '=', hw.id)
      .where('a.question_id', '=', questionId)
      .execute();
    const scoreOf = (i: number) => answers.find((a) => a.student_id === students[i]!.id);
    expect(scoreOf(0)).toMatchObject({ score_tenths: 115, score_source: 'paper' });
    expect(scoreOf(1)).toMatchObject({ score_tenths: 70, score_source: 'paper' });
    expect(scoreOf(2)?.score_tenths ?? null).toBeNull();

    // The doubtful box waits in the window with its crop; the teacher types what the red pen meant.
    await dialog.getByRole('radio', { name: '全部打分框' }).click();
    await dialog.getByRole('radio', { name: '待人工核对' }).click();
    const doubtful = dialog.getByTestId('paper-score');
    await expect.poll(() => doubtful.count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => doubtful.innerText()).toContain(students[2]!.name);
    await doubtful.getByRole('img').waitFor();
    await shot(page, 'paper-marking-doubtful');
    await doubtful.getByRole('textbox').fill('5');
    await doubtful.getByRole('button', { name: '确认得分' }).click();
    await page.getByText(`已录入${students[2]!.name}的得分：5分`).waitFor();
    await dialog.getByText('没有需要核对的打分框').waitFor();
    await dialog.getByRole('radio', { name: '全部打分框' }).click();
    await expect.poll(() => dialog.getByTestId('paper-score').count()).toBe(3);
    await shot(page, 'paper-marking-all');
    const settled = await host.testDb.db.kysely
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .select(['a.score_tenths'])
      .where('s.homework_id', '=', hw.id)
      .where('s.student_id', '=', students[2]!.id)
      .where('a.question_id', '=', questionId)
      .executeTakeFirst();
    expect(settled?.score_tenths).toBe(50);
    await context.close();
  },
);
