// @vitest-environment node
/**
 * 先阅后扫 from /scan (issue #26, ADR 0065) as a teacher does it: a fresh host (SQLite, the demo school) and a real
 * scan agent with the virtual scanner. The demo homework that waits for scanning gets a tick score box on every
 * 解答题 and 纸上批阅 on; from /scan the virtual scanner feeds its personalised cards, filled by the class and marked
 * by the teacher in red on the boxes — two sheets scanned in colour, the next two in grey (扫描设置 → 色彩模式). The
 * boxes' scores arrive in the results with no marking task left for those questions; once the 填空题 are marked on
 * screen the sheets are complete, and 讲评 shows each 解答题's crops with the teacher's marks.
 *
 * The teacher's scores are scripted (the agent's `virtual.scores`, added to the page's start-scan call) so the test
 * knows what the red pen meant; the grey run's feeder holds the two sheets not yet scanned.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import type { CardElementOf, CardLayout, Commentary, HomeworkSummary, PaperScore } from '@zhzy/contracts';
import { WEB_ROOT } from './browser';
import { startScanRig, type ScanRig } from './scan-rig';
import { hostApi, shot as shotIn, signIn } from './teacher';

const TITLE = '一元一次方程 随堂练习';
const ARTIFACTS = path.resolve(WEB_ROOT, '../../test-artifacts/paper-marking-scan');
/** Sheets per run: colour first, then grey. */
const PER_RUN = 2;
/** The teacher's scores, handed out in turn over the sheets and their 解答题 (13 points each, halves allowed). */
const SCORES = [13, 9.5, 0, 7, 12, 4.5, 10, 3];

let rig: ScanRig;

beforeAll(async () => {
  rig = await startScanRig(
    'paper-marking-scan',
    { RECOGNITION_WORKERS: '1', SEED_DEMO_RESULTS: 'true' },
    ARTIFACTS,
  );
}, 600_000);

afterAll(() => rig?.close());

// Outcomes are waited for with a generous bound (2 cores shared by several runs); it only limits how long a real
// failure takes to report.
const poll = <T>(fn: () => Promise<T>, timeout = 300_000) => expect.poll(fn, { timeout, interval: 250 });

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

it(
  'scores ticked in red reach the analysis from /scan, in colour and in grey, and 讲评 shows the crops',
  { timeout: 2_400_000 },
  async () => {
    const { host, browser, agentPort } = rig;
    const call = hostApi(host, rig.headers);

    // The card designer's 「打分框（先阅后扫）」: 勾选格 with 半分 on every 解答题; 纸上批阅 on.
    const list = await call<{ records: HomeworkSummary[] }>('GET', '/teacher/homework/list?page=1&size=50');
    const hw = list.records.find((h) => h.title === TITLE)!;
    const before = await call<{ layout: CardLayout }>('GET', `/teacher/homework/card/${hw.id}`);
    const written = before.layout.pages
      .flatMap((p) => p.elements)
      .filter((e): e is CardElementOf<'writtenBox'> => e.type === 'writtenBox' && !e.optionalGroup)
      .flatMap((e) => e.questionIds);
    expect(written).toHaveLength(4);
    const card = await call<{ layout: CardLayout }>('PUT', `/teacher/homework/card/${hw.id}`, {
      scoreBoxes: Object.fromEntries(written.map((q) => [q, { kind: 'tick', half: true }])),
    });
    const boxes = card.layout.pages
      .flatMap((p) => p.elements)
      .filter((e): e is CardElementOf<'scoreBox'> => e.type === 'scoreBox');
    expect(boxes.map((b) => b.questionId).sort()).toEqual([...written].sort());
    await call('PUT', `/teacher/homework/${hw.id}/paper-marking`, { enabled: true });
    const cardPages = card.layout.pages.length;
    const duplex = cardPages > 1;
    const sides = duplex ? cardPages + (cardPages % 2) : Math.ceil(cardPages / 2);

    // What the teacher's red pen says on each student's sheet, scripted into the virtual scanner's start call.
    const meant = new Map<string, Record<string, number>>();
    let skip = 0;
    const script = async (route: Route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      const body = JSON.parse(request.postData() ?? '{}') as {
        virtual?: { students?: { id: string }[]; sheets?: number; scores?: Record<string, number>[] };
      };
      const virtual = body.virtual;
      if (!virtual?.students) return route.continue();
      // The feeder holds the sheets not scanned yet.
      virtual.students = virtual.students.slice(skip, skip + PER_RUN);
      virtual.sheets = virtual.students.length;
      virtual.scores = virtual.students.map((s) => {
        const n = meant.size;
        const scores = Object.fromEntries(
          written.map((q, j) => [q, SCORES[(n * written.length + j) % SCORES.length]!]),
        );
        meant.set(s.id, scores);
        return scores;
      });
      skip += PER_RUN;
      return route.continue({ postData: JSON.stringify(body) });
    };

    const { context, page } = await (async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
      const page = await context.newPage();
      page.setDefaultTimeout(120_000);
      return { context, page };
    })();
    await page.route((url) => url.port === String(agentPort) && url.pathname === '/scans', script);
    await signIn(page, host.baseUrl);
    await page.evaluate(
      (ws) => localStorage.setItem('scanAgentWsUrl', JSON.stringify(ws)),
      `ws://127.0.0.1:${agentPort}/ws`,
    );
    await page.goto(`${host.baseUrl}/scan?homeworkId=${hw.id}`);
    await page.getByTestId('start-scan').click();
    const pairing = page.getByRole('dialog', { name: '连接扫描助手' });
    await pairing.getByRole('button', { name: '连接', exact: true }).click();
    await pairing.getByText(/配对码已生成/).waitFor();
    await pairing.getByRole('textbox', { name: '配对码' }).fill(await rig.pairingCode());
    await pairing.getByRole('button', { name: '确认配对' }).click();
    await page.getByText(/已连接扫描助手/).waitFor();

    /** One run of the feeder in a colour mode; the settings dialog is open when it starts. */
    const run = async (mode: '彩色' | '灰度', first: boolean) => {
      const settings = page.getByRole('dialog', { name: '扫描设置' });
      if (first) {
        await settings.getByRole('button', { name: /扫描仪/ }).click();
        await page.getByRole('option', { name: '虚拟扫描仪（演示答题卡）' }).click();
        await settings
          .getByRole('radiogroup', { name: '双面扫描' })
          .getByRole('radio', { name: duplex ? '是' : '否' })
          .click();
        await settings.getByLabel('演示扫描仪纸张数').fill(String(PER_RUN));
        await settings
          .getByRole('radiogroup', { name: '老师红笔批改（先阅后扫）' })
          .getByRole('radio', { name: '是' })
          .click();
      }
      await settings.getByRole('radiogroup', { name: '色彩模式' }).getByRole('radio', { name: mode }).click();
      await shot(page, `settings-${mode}`);
      await settings.getByRole('button', { name: '保存' }).click();
      await settings.waitFor({ state: 'detached' });
      await page.getByTestId('start-scan').click();
      await poll(() => page.getByTestId('count-uploaded').textContent()).toBe(String(PER_RUN * sides));
      await poll(() => page.getByTestId('batch-state').textContent()).toBe('已暂停');
    };
    await run('彩色', true);
    expect(meant.size).toBe(PER_RUN);
    // The grey run: a new batch (结束 the colour one), 色彩模式 灰度.
    await page.getByRole('button', { name: '结束', exact: true }).click();
    await page.getByRole('button', { name: '扫描设置' }).click();
    await run('灰度', false);
    expect(meant.size).toBe(2 * PER_RUN);
    // Every page read (an upload's reading can trail the count on a busy machine): a row per box and sheet.
    const order = [...meant.keys()];
    const boxesRead = () =>
      host.testDb.db.kysely
        .selectFrom('paper_scores')
        .select(['student_id', 'colour'])
        .where('homework_id', '=', hw.id)
        .execute();
    await poll(async () => {
      await host.app.jobs.drain();
      return (await boxesRead()).length;
    }).toBe(order.length * written.length);
    // The first run's boxes were read on colour scans (the red channel), the second's on grey ones.
    const colour = await boxesRead();
    for (const row of colour)
      expect(row.colour, `colour of ${row.student_id}`).toBe(order.indexOf(row.student_id) < PER_RUN ? 1 : 0);

    // Every box read as the teacher ticked it, into the results from paper; none waits for a person.
    const answers = await host.testDb.db.kysely
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .select(['s.student_id', 'a.question_id', 'a.score_tenths', 'a.score_source'])
      .where('s.homework_id', '=', hw.id)
      .where('a.question_id', 'in', written)
      .execute();
    const read = Object.fromEntries(
      [...meant.keys()].map((id) => [
        id,
        Object.fromEntries(
          answers
            .filter((a) => a.student_id === id)
            .map((a) => [a.question_id, a.score_source === 'paper' ? (a.score_tenths ?? NaN) / 10 : null]),
        ),
      ]),
    );
    expect(read).toEqual(Object.fromEntries(meant));
    expect(await call<PaperScore[]>('GET', `/teacher/homework/${hw.id}/paper-scores?state=doubtful`)).toEqual(
      [],
    );

    // No marking task for the 解答题: their blocks are done; the 填空题 are left to mark on screen.
    type Block = {
      id: string;
      questions: { questionId: string }[];
      progress: { items: number; done: number };
    };
    const marking = await call<{ blocks: Block[] }>('GET', `/teacher/mark/homework/${hw.id}`);
    const onPaper = (b: Block) => b.questions.every((q) => written.includes(q.questionId));
    const paperBlocks = marking.blocks.filter(onPaper);
    expect(paperBlocks.length).toBeGreaterThan(0);
    for (const b of paperBlocks) expect(b.progress).toMatchObject({ items: 2 * PER_RUN, done: 2 * PER_RUN });
    // The other questions marked on screen (full marks), and what the scan left to confirm confirmed: complete sheets.
    for (const b of marking.blocks.filter((x) => !onPaper(x))) {
      for (;;) {
        const next = await call<{ items: { sheetId: string }[] }>(
          'GET',
          `/teacher/mark/block/${b.id}/next?count=5`,
        );
        if (next.items.length === 0) break;
        for (const item of next.items)
          await call('POST', `/teacher/mark/block/${b.id}/mark`, {
            sheetId: item.sheetId,
            scores: b.questions.map((q) => ({ questionId: q.questionId, score: 3 })),
          });
      }
    }
    const open = await call<{ id: string; actions: string[] }[]>(
      'GET',
      `/teacher/recognition/exceptions?homeworkId=${hw.id}&status=open`,
    );
    for (const ex of open.filter((e) => e.actions.includes('accept')))
      await call('POST', `/teacher/recognition/exception/${ex.id}/resolve`, { action: 'accept' });
    const commentary = await call<Commentary>('GET', `/teacher/analysis/commentary/${hw.id}`);
    expect(commentary.summary.scoredCount).toBe(2 * PER_RUN);

    // 讲评: under each 解答题, the crops of the boxes and answers as the teacher marked them, lowest score first.
    await page.goto(`${host.baseUrl}/assistant/commentary?homeworkId=${hw.id}`);
    const only = page.getByRole('checkbox', { name: '只看需讲评的题' });
    if (await only.isChecked()) await only.uncheck();
    const marked = page.getByTestId('paper-marked');
    await poll(() => marked.count(), 120_000).toBe(written.length);
    const crops = marked.getByRole('img');
    await poll(() => crops.count()).toBe(written.length * Math.min(4, 2 * PER_RUN));
    await poll(() =>
      crops.evaluateAll((imgs) =>
        imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
      ),
    ).toBe(true);
    // Each crop under its student and the score the teacher gave, lowest first: every box of every sheet.
    const captions = await marked.evaluateAll((sections) =>
      sections.map((el) =>
        [...el.querySelectorAll('figcaption')].map((c) =>
          Number(/([\d.]+)\/13/.exec(c.textContent ?? '')?.[1]),
        ),
      ),
    );
    for (const scores of captions) expect(scores).toEqual([...scores].sort((x, y) => x - y));
    const given = [...meant.values()].flatMap((m) => Object.values(m));
    expect(captions.flat().sort((x, y) => x - y)).toEqual(given.sort((x, y) => x - y));
    await shotIn(page, 'paper-marking-commentary');
    await context.close();
  },
);
