// @vitest-environment node
/**
 * /scan without an agent offers 「下载扫描助手」 for the teacher's OS (the host serves the installer from
 * AGENT_PACKAGES_DIR with its SHA-256), and the agent's local pairing page shows the code in large digits; (ADR 0043). Screenshots in test-artifacts/screenshots/agent-*.png.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '@zhzy/server/testing';
import { startTestAgent, type TestAgent } from '../../scan-agent/test/helpers';
import { VirtualScanner } from '../../scan-agent/src/scanners/virtual/virtual-driver';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

const PASSWORD = 'Demo@2026';
const packages = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-agent-packages-'));
let host: TestApp;
let agent: TestAgent;
let browser: Browser;

async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return address && typeof address === 'object' ? address.port : 1;
}

beforeAll(async () => {
  ensureBuilt();
  const bytes = crypto.randomBytes(1024);
  const file = 'zhzy-scan-agent-setup-0.3.0.exe';
  fs.writeFileSync(path.join(packages, file), bytes);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  fs.writeFileSync(
    path.join(packages, 'manifest.json'),
    JSON.stringify({
      version: '0.3.0',
      packages: { 'win32-x64': { version: '0.3.0', file, size: 36_400_000, sha256 } },
    }),
  );
  host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, AGENT_PACKAGES_DIR: packages },
  });
  agent = await startTestAgent({ scanners: [new VirtualScanner()] }, { AGENT_ALLOWED_ORIGINS: host.baseUrl });
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  await host?.close();
  fs.rmSync(packages, { recursive: true, force: true });
});

describe('the 扫描助手 download and pairing steps', { timeout: 180_000 }, () => {
  it('offers the Windows installer with three steps, pairs through the local page', async () => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'zh-CN',
      userAgent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${host.baseUrl}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await page.waitForURL((url) => url.pathname === '/paperList');
    await page.evaluate(
      (ws) => localStorage.setItem('scanAgentWsUrl', JSON.stringify(ws)),
      `ws://127.0.0.1:${await deadPort()}/ws`,
    );

    await page.goto(`${host.baseUrl}/scan`);
    await page.getByTestId('start-scan').click();
    const status = page.getByTestId('agent-status');
    const download = status.getByRole('link', { name: '下载扫描助手（Windows）' });
    await download.waitFor();
    expect(await download.getAttribute('href')).toBe('/agent/download/win32-x64');
    expect(await status.getByRole('listitem').count()).toBe(3);
    await status.getByText('版本 0.3.0 · 36.4 MB').waitFor();
    await status.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'agent-download-1440.png'), fullPage: true });

    // The agent is there now: pair with the code its local page shows.
    await page.evaluate(
      (ws) => localStorage.setItem('scanAgentWsUrl', JSON.stringify(ws)),
      `ws://127.0.0.1:${agent.port}/ws`,
    );
    await page.goto(`${host.baseUrl}/scan`);
    await page.getByTestId('start-scan').click();
    const pairing = page.getByRole('dialog', { name: '连接扫描助手' });
    await pairing.getByRole('button', { name: '连接', exact: true }).click();
    await pairing.getByRole('textbox', { name: '配对码' }).waitFor();
    await pairing
      .getByText(/扫描助手配对码/)
      .first()
      .waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'agent-pairing-dialog-1440.png') });

    const local = await context.newPage();
    await local.goto(`http://127.0.0.1:${agent.port}/pair`);
    const shown = (await local.locator('.code').textContent())!.replace(/\D/g, '');
    expect(shown).toBe(agent.pairing.current().code);
    await local.screenshot({ path: path.join(SCREENSHOT_DIR, 'agent-pair-page-1440.png') });
    await local.close();

    await pairing.getByRole('textbox', { name: '配对码' }).fill(shown);
    await pairing.getByRole('button', { name: '确认配对' }).click();
    await page.getByText(/已连接扫描助手/).waitFor();
    const tokenKey = `scanAgentToken:http://127.0.0.1:${agent.port}`;
    const before = await page.evaluate((k) => localStorage.getItem(k), tokenKey);
    expect(before).not.toBeNull();

    await context.close();
  });
});
