// @vitest-environment node
/**
 * /scan in Debian's Chromium with a real host (SQLite, demo school) AND a real scan agent in this process (the virtual
 * scanner on 127.0.0.1, a random port, the host's origin allowed): pair, choose the scanner, scan a small batch, watch
 * the pages arrive and reach the host; reload and rebuild; and the file-upload fallback without an agent.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import UTIF from 'utif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bearer, signIn as hostSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { startTestAgent, type TestAgent } from '../../scan-agent/test/helpers';
import { VirtualScanner } from '../../scan-agent/src/scanners/virtual/virtual-driver';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

const PASSWORD = 'Demo@2026';
const SHEETS = 4;

let host: TestApp;
let agent: TestAgent;
let browser: Browser;
let origin: string;
let agentWs: string;

/** A port nothing listens on (the "no agent installed" case). */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return address && typeof address === 'object' ? address.port : 1;
}

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  origin = host.baseUrl;
  agent = await startTestAgent({ scanners: [new VirtualScanner()] }, { AGENT_ALLOWED_ORIGINS: origin });
  agentWs = `ws://127.0.0.1:${agent.port}/ws`;
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  await host?.close();
});

async function newPage(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    locale: 'zh-CN',
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

async function signIn(page: Page, agentUrl: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname === '/paperList');
  // Point this browser at the test's agent (the override IT uses for an agent on another port).
  await page.evaluate((ws) => localStorage.setItem('scanAgentWsUrl', JSON.stringify(ws)), agentUrl);
}

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.waitForTimeout(300);
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage });
  if (width < 600 && fullPage)
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-first-screen.png`) });
}

async function hostPagesOfNewestBatch(source: 'agent' | 'upload') {
  const { access_token } = await hostSignIn(host.app, 'demo-teacher');
  const list = await host.app.inject({
    method: 'GET',
    url: '/teacher/scan/batch',
    headers: bearer(access_token),
  });
  const batches = list
    .json<{ data: { id: string; source: string; createdAt: string }[] }>()
    .data.filter((b) => b.source === source)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  if (!batches[0]) return [];
  const pages = await host.app.inject({
    method: 'GET',
    url: `/teacher/scan/batch/${batches[0].id}/pages`,
    headers: bearer(access_token),
  });
  return pages.json<{ data: { seq: number; name: string; source: string; blank: boolean }[] }>().data;
}

/** A two-page PDF, written by hand (offsets computed) so the test needs no PDF library. */
function twoPagePdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 7 0 R >> >> >>',
    null,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 6 0 R /Resources << /Font << /F1 7 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const stream = (text: string) => {
    const body = `BT /F1 48 Tf 72 700 Td (${text}) Tj ET`;
    return `<< /Length ${body.length} >>\nstream\n${body}\nendstream`;
  };
  objects[3] = stream('Answer card 1');
  objects[5] = stream('Answer card 2');
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A one-page RGB TIFF (a grey sheet with a dark band). */
function tiff(): Buffer {
  const w = 240;
  const h = 320;
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const dark = Math.floor(i / w) % 80 < 10;
    rgba.set(dark ? [40, 40, 40, 255] : [235, 235, 230, 255], i * 4);
  }
  return Buffer.from(UTIF.encodeImage(rgba, w, h));
}

describe('/scan with a real agent and a real host', { timeout: 240_000 }, () => {
  let token: { key: string; value: string } | null = null;

  it('pairs, scans a small batch on the virtual scanner, and every page reaches the host', async () => {
    const { context, page } = await newPage(1440);
    await signIn(page, agentWs);
    await page.goto(`${origin}/scan`);
    await page.getByRole('heading', { name: '扫描', exact: true }).waitFor();
    await page.getByRole('region', { name: '扫描预览' }).getByText('还没有扫描的页面').waitFor();
    // Lazy: nothing has talked to the agent yet.
    await page.getByRole('button', { name: '连接扫描助手' }).waitFor();

    await page.getByTestId('start-scan').click();
    const pairing = page.getByRole('dialog', { name: '连接扫描助手' });
    await pairing.getByRole('button', { name: '连接', exact: true }).click();
    const codeBox = pairing.getByRole('textbox', { name: '配对码' });
    await codeBox.waitFor();
    await shot(page, 'scan-pairing', false);
    // The code the agent shows in its console (scan-agent pair shows the same).
    await codeBox.fill(agent.pairing.current().code);
    await pairing.getByRole('button', { name: '确认配对' }).click();
    await page.getByText(/已连接扫描助手/).waitFor();

    // No scanner chosen yet: 请重新选择扫描仪, and the settings open.
    const settings = page.getByRole('dialog', { name: '扫描设置' });
    await settings.getByRole('button', { name: '保存' }).waitFor();

    // The pairing toast shows beside the settings, not over their title or buttons, and closes there (the dialog
    // stays open).
    const paired = page
      .getByRole('region', { name: '通知' })
      .getByRole('status')
      .filter({ hasText: '已与扫描助手配对' });
    await paired.waitFor();
    await shot(page, 'scan-settings-toast', false);
    const toastBox = (await paired.boundingBox())!;
    const panelBox = (await settings.locator('[data-width]').boundingBox())!;
    const apart =
      toastBox.x >= panelBox.x + panelBox.width ||
      panelBox.x >= toastBox.x + toastBox.width ||
      toastBox.y >= panelBox.y + panelBox.height ||
      panelBox.y >= toastBox.y + toastBox.height;
    expect(apart, `toast ${JSON.stringify(toastBox)} over dialog ${JSON.stringify(panelBox)}`).toBe(true);
    await paired.getByRole('button', { name: '关闭通知' }).click();
    await paired.waitFor({ state: 'detached' });
    expect(await settings.getByRole('heading', { name: '扫描设置' }).isVisible()).toBe(true);
    await page.getByText('请重新选择扫描仪').first().waitFor();
    await page.keyboard.press('Escape');
    await page.mouse.click(10, 450);
    expect(await settings.getByRole('button', { name: '保存' }).isVisible()).toBe(true);
    const width = await settings.evaluate(
      (el) => (el.querySelector('[data-width]') as HTMLElement).getBoundingClientRect().width,
    );
    expect(Math.round(width)).toBe(Math.round(1440 * 0.25));

    await settings.getByRole('button', { name: /扫描仪/ }).click();
    await page.getByRole('option', { name: '虚拟扫描仪（演示答题卡）' }).click();
    await settings.getByRole('radiogroup', { name: '双面扫描' }).getByRole('radio', { name: '否' }).click();
    await settings.getByLabel('演示扫描仪纸张数').fill(String(SHEETS));
    await shot(page, 'scan-settings', false);
    await settings.getByRole('button', { name: '保存' }).click();
    await settings.waitFor({ state: 'detached' });
    await expect(page.getByTestId('settings-summary').textContent()).resolves.toContain(
      '虚拟扫描仪（演示答题卡）',
    );

    await page.getByTestId('start-scan').click();
    const viewer = page.getByRole('region', { name: '扫描预览' });
    await expect.poll(() => viewer.getByTestId('scan-page').count(), { timeout: 120_000 }).toBe(SHEETS);
    await expect
      .poll(() => page.getByTestId('count-uploaded').textContent(), { timeout: 120_000 })
      .toBe(String(SHEETS));
    await expect(page.getByTestId('count-scanned').textContent()).resolves.toBe(String(SHEETS));
    await expect(page.getByTestId('count-failed').textContent()).resolves.toBe('0');
    // Every thumbnail came from the agent with the pairing token, as a blob URL that decoded.
    await expect
      .poll(
        () =>
          viewer
            .locator('img')
            .evaluateAll(
              (imgs) =>
                imgs.filter(
                  (i) =>
                    (i as HTMLImageElement).src.startsWith('blob:') &&
                    (i as HTMLImageElement).naturalWidth > 0,
                ).length,
            ),
        { timeout: 30_000 },
      )
      .toBe(SHEETS);
    // The feeder ran empty: its notice is shown verbatim.
    await page.getByTestId('scan-notice').filter({ hasText: '进纸器' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('batch-state').textContent()).toBe('已暂停');

    const hostPages = await hostPagesOfNewestBatch('agent');
    expect(hostPages.map((p) => [p.seq, p.name, p.source])).toEqual(
      Array.from({ length: SHEETS }, (_, i) => [
        i + 1,
        `virtual-${String(i + 1).padStart(4, '0')}.jpg`,
        'agent',
      ]),
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'scan-batch');

    // A reload rebuilds the batch from hello and GET /scans/:id.
    await page.reload();
    await expect.poll(() => viewer.getByTestId('scan-page').count(), { timeout: 30_000 }).toBe(SHEETS);
    await expect(page.getByTestId('count-uploaded').textContent()).resolves.toBe(String(SHEETS));

    // 结束 closes the batch.
    await page.getByRole('button', { name: '结束' }).click();
    await expect.poll(() => page.getByTestId('batch-state').textContent()).toBe('已结束');

    token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('scanAgentToken:'));
      return key ? { key, value: localStorage.getItem(key)! } : null;
    });
    expect(token?.key).toBe(`scanAgentToken:http://127.0.0.1:${agent.port}`);
    await context.close();
  });

  it('shows the batch on a phone (390 px), reconnecting with the stored pairing', async () => {
    const { context, page } = await newPage(390);
    await signIn(page, agentWs);
    await page.evaluate((t) => localStorage.setItem(t!.key, t!.value), token);
    await page.goto(`${origin}/scan`);
    const viewer = page.getByRole('region', { name: '扫描预览' });
    await expect.poll(() => viewer.getByTestId('scan-page').count(), { timeout: 30_000 }).toBe(SHEETS);
    const box = await viewer.boundingBox();
    expect(Math.round(box!.height)).toBe(400);
    await shot(page, 'scan-batch');
    await page.getByRole('button', { name: '扫描设置' }).first().click();
    const settings = page.getByRole('dialog', { name: '扫描设置' });
    await settings.getByRole('button', { name: '保存' }).waitFor();
    const width = await settings.evaluate(
      (el) => (el.querySelector('[data-width]') as HTMLElement).getBoundingClientRect().width,
    );
    expect(Math.round(width)).toBe(Math.round(390 * 0.8));
    await shot(page, 'scan-settings', false);
    await context.close();
  });

  it('without an agent: explains how to start one and uploads PDF and TIFF files page by page', async () => {
    const { context, page } = await newPage(1440);
    await signIn(page, `ws://127.0.0.1:${await deadPort()}/ws`);
    await page.goto(`${origin}/scan`);
    await page.getByTestId('start-scan').click();
    const status = page.getByRole('region', { name: '扫描助手' });
    await status.getByText('未检测到扫描助手').waitFor();
    await status.getByText('如何安装并启动扫描助手').waitFor();

    const upload = page.getByTestId('file-upload');
    await page.getByTestId('scan-file-input').setInputFiles([
      { name: '三班答题卡.pdf', mimeType: 'application/pdf', buffer: twoPagePdf() },
      { name: 'late.tif', mimeType: 'image/tiff', buffer: tiff() },
    ]);
    await expect
      .poll(() => upload.locator('[data-testid="scan-page"][data-upload="uploaded"]').count(), {
        timeout: 60_000,
      })
      .toBe(3);
    const hostPages = await hostPagesOfNewestBatch('upload');
    expect(hostPages.map((p) => [p.seq, p.name, p.source])).toEqual([
      [1, '三班答题卡-001.jpg', 'upload'],
      [2, '三班答题卡-002.jpg', 'upload'],
      [3, 'late.jpg', 'upload'],
    ]);
    await shot(page, 'scan-no-agent');
    await context.close();
  });
});
