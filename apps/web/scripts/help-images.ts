/**
 * Takes the pictures of 使用说明 (/help) from the product itself: a demo host with demo results, Debian's Chromium,
 * one screenshot per step of the journey, written to public/help-images/. Run after a UI change that the pictures
 * show: `npm run help-images -w @zhzy/web` (the first-week e2e test checks that every picture the page names loads).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { CardElementOf, CardLayout } from '@zhzy/contracts';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { zhCNHelp } from '../src/i18n/help';
import { ensureBuilt, launchBrowser, WEB_DIST, WEB_ROOT } from '../e2e/browser';
import { cameraFlags, cameraScene } from '../e2e/fake-camera';
import { hostApi, signIn } from '../e2e/teacher';

const OUT = path.join(WEB_ROOT, 'public', 'help-images');

/** 手机拍照 on a phone-sized /scan, the camera showing a photographed demo card (the e2e test's fake camera). */
async function phonePicture(host: TestApp, dataDir: string, file: string): Promise<void> {
  const api = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
  const scene = await cameraScene(host, api, '一元一次方程 随堂练习', dataDir);
  const browser = await launchBrowser(cameraFlags(scene.stream));
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      // A phone's screen, drawn at its pixel density so the help page shows it sharp.
      deviceScaleFactor: 2,
      locale: 'zh-CN',
      permissions: ['camera'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await signIn(page, host.baseUrl);
    await page.goto(`${host.baseUrl}/scan?homeworkId=${scene.homework.id}`);
    await page.getByTestId('photo-capture-open').click();
    await page.locator('[data-testid="photo-shot"][data-status="accepted"]').waitFor();
    await page.screenshot({ path: file });
  } finally {
    await browser.close();
  }
}

/**
 * 纸上批阅 (先阅后扫, ADR 0065): the demo homework waiting for scanning gets a tick score box on its written questions
 * (what the card designer's 「打分框（先阅后扫）」 saves), and its 纸上批阅 window is opened from the homework list
 * with the switch on.
 */
async function paperMarkingView(host: TestApp, p: Page): Promise<void> {
  const title = '一元一次方程 随堂练习';
  const api = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
  const list = await api<{ records: { id: string; title: string }[] }>(
    'GET',
    '/teacher/homework/list?page=1&size=50',
  );
  const hw = list.records.find((h) => h.title === title);
  if (!hw) throw new Error(`no demo homework ${title} to picture`);
  const card = await api<{ layout: CardLayout }>('GET', `/teacher/homework/card/${hw.id}`);
  const written = card.layout.pages
    .flatMap((pg) => pg.elements)
    .filter((e): e is CardElementOf<'writtenBox'> => e.type === 'writtenBox' && !e.optionalGroup);
  await api('PUT', `/teacher/homework/card/${hw.id}`, {
    scoreBoxes: Object.fromEntries(
      written.map((w, i) => [w.questionIds[0]!, { kind: 'tick', half: i === 0 }]),
    ),
  });
  await api('PUT', `/teacher/homework/${hw.id}/paper-marking`, { enabled: true });
  await p.goto(`${host.baseUrl}/paperlist`);
  const row = p.getByRole('article', { name: title });
  await row.getByRole('button', { name: `${title}的更多操作` }).click();
  await p.getByRole('menuitem', { name: '纸上批阅' }).click();
  const dialog = p.getByRole('dialog', { name: `纸上批阅 · ${title}` });
  await dialog.getByText(/印有打分框的题/).waitFor();
  await dialog.getByRole('radio', { name: '全部打分框' }).click();
}

async function main(): Promise<void> {
  ensureBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-help-images-'));
  const host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, DATA_DIR: dataDir, SEED_DEMO_RESULTS: 'true', SEED_DEMO_SCANS: 'true' },
  });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(`${host.baseUrl}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
    await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/paperlist');
    await page.getByTestId('homework-row').first().waitFor();
    const scanHref = await page
      .getByTestId('homework-row')
      .first()
      .getByRole('link', { name: '扫描' })
      .getAttribute('href');
    const homeworkId = new URL(scanHref ?? '', host.baseUrl).searchParams.get('homeworkId');
    if (!homeworkId) throw new Error('no homework on /paperlist to picture');

    const views: Record<string, (p: Page) => Promise<void>> = {
      compose: async (p) => {
        await p.goto(`${host.baseUrl}/rehearse/SelectQuestionPaper`);
        await p.getByText('加入试题篮').first().waitFor();
      },
      card: async (p) => {
        await p.goto(`${host.baseUrl}/answerCard?homeworkId=${homeworkId}`);
        await p
          .locator('main')
          .getByText(/答题卡/)
          .first()
          .waitFor();
      },
      print: async (p) => {
        await p.goto(`${host.baseUrl}/paperlist`);
        await p.getByTestId('homework-row').first().waitFor();
      },
      scan: async (p) => {
        await p.goto(`${host.baseUrl}/scan?homeworkId=${homeworkId}`);
        await p.getByRole('heading', { name: /扫描/ }).first().waitFor();
      },
      mark: async (p) => {
        await p.goto(`${host.baseUrl}/correct`);
        await p.locator('main').waitFor();
      },
      paperMarking: (p) => paperMarkingView(host, p),
      analyse: async (p) => {
        await p.goto(`${host.baseUrl}/analysis/grade`);
        await p
          .locator('main')
          .getByText(/得分率|平均分/)
          .first()
          .waitFor();
      },
    };
    fs.mkdirSync(OUT, { recursive: true });
    // HELP_IMAGES_ONLY=paperMarking,phone takes only those steps' pictures.
    const only = process.env.HELP_IMAGES_ONLY?.split(',').filter(Boolean);
    for (const step of zhCNHelp.steps) {
      if (!('image' in step)) continue;
      if (only && !only.includes(step.id)) continue;
      if (step.id === 'phone') {
        await phonePicture(host, dataDir, path.join(OUT, step.image));
        console.log(`[help-images] ${step.image}`);
        continue;
      }
      const view = views[step.id];
      if (!view) throw new Error(`no view for help step ${step.id}`);
      await view(page);
      // Fonts, charts and lazy images settle after the data: wait for the network to go quiet.
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(OUT, step.image) });
      console.log(`[help-images] ${step.image}`);
    }
    await context.close();
  } finally {
    await browser.close();
    await host.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
