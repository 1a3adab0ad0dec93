// @vitest-environment node
/**
 * /scan without an agent offers 「下载扫描助手」 for the teacher's OS (the host serves the installer from
 * AGENT_PACKAGES_DIR with its SHA-256), and the agent's local pairing page shows the code in large digits; (ADR 0043). Screenshots in test-artifacts/screenshots/agent-*.png.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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

  it('says 扫描助手有新版本 and updates the installed agent in place when 更新 is clicked (ADR 0055)', async () => {
    if (process.platform !== 'linux' || process.arch !== 'x64') return;
    // The real Linux package, old and new, built as the host would serve them; the old one installed with install.sh.
    const agentDir = path.resolve(import.meta.dirname, '../../scan-agent');
    const { packageAgent } = (await import(path.join(agentDir, 'scripts', 'package.mjs'))) as {
      packageAgent: (o: { version: string; platforms: string[]; out: string }) => Promise<{
        packages: Record<string, { file: string; size: number; sha256: string; version: string }>;
      }>;
    };
    const built = async (version: string) => {
      const out = path.join(agentDir, 'dist', 'packages-test', 'web-e2e', version);
      const m = await packageAgent({ version, platforms: ['linux-x64'], out });
      return { ...m.packages['linux-x64']!, path: path.join(out, m.packages['linux-x64']!.file) };
    };
    const [OLD, NEW] = ['0.2.0', '0.2.1-test'];
    const old = await built(OLD);
    const next = await built(NEW);
    fs.copyFileSync(next.path, path.join(packages, next.file));
    const manifest = JSON.parse(fs.readFileSync(path.join(packages, 'manifest.json'), 'utf8'));
    manifest.packages['linux-x64'] = { version: NEW, file: next.file, size: next.size, sha256: next.sha256 };
    fs.writeFileSync(path.join(packages, 'manifest.json'), JSON.stringify(manifest));

    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-e2e-update-'));
    const prefix = path.join(home, 'zhzy-scan-agent');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ZHZY_AGENT_PREFIX: prefix };
    expect(spawnSync('tar', ['-xzf', old.path, '-C', home]).status).toBe(0);
    const unpacked = path.join(home, `zhzy-scan-agent-${OLD}-linux-x64`);
    expect(
      spawnSync(path.join(unpacked, 'install.sh'), ['--host', host.baseUrl, '--no-start'], { env }).status,
    ).toBe(0);
    const port = await deadPort();
    const installed: ChildProcess = spawn(path.join(prefix, 'zhzy-scan-agent'), ['start'], {
      env: {
        ...env,
        AGENT_PORT: String(port),
        LOG_LEVEL: 'warn',
        AGENT_ESCL_DISCOVERY: 'false',
        AGENT_DRIVERS: 'hotfolder',
      },
      stdio: 'ignore',
    });
    const dataDir = path.join(home, '.local', 'state', 'zhzy-scan-agent');
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'zh-CN',
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36',
    });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${host.baseUrl}/`);
      await page.getByRole('button', { name: '登录/注册' }).click();
      await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
      await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: '登录', exact: true }).last().click();
      await page.waitForURL((url) => url.pathname === '/paperList');
      await page.evaluate(
        (ws) => localStorage.setItem('scanAgentWsUrl', JSON.stringify(ws)),
        `ws://127.0.0.1:${port}/ws`,
      );
      for (let i = 0; i < 300; i++) {
        const up = await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await page.goto(`${host.baseUrl}/scan`);
      // 连接扫描助手 rather than 开始扫描: this agent has no scanner, and a scan request would open 扫描设置.
      await page.getByTestId('agent-status').getByRole('button', { name: '连接扫描助手' }).click();
      const pairing = page.getByRole('dialog', { name: '连接扫描助手' });
      await pairing.getByRole('button', { name: '连接', exact: true }).click();
      await pairing.getByRole('textbox', { name: '配对码' }).waitFor();
      const local = await context.newPage();
      await local.goto(`http://127.0.0.1:${port}/pair`);
      const code = (await local.locator('.code').textContent())!.replace(/\D/g, '');
      await local.close();
      await pairing.getByRole('textbox', { name: '配对码' }).fill(code);
      await pairing.getByRole('button', { name: '确认配对' }).click();
      await page.getByText(/已连接扫描助手/).waitFor();

      const notice = page.getByTestId('agent-update');
      await notice.getByText(`扫描助手有新版本 ${NEW}（这台电脑上是 ${OLD}）。`).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'agent-update-notice-1440.png') });
      await notice.getByRole('button', { name: '更新', exact: true }).click();
      await page.getByText(`扫描助手已更新到 ${NEW}`).first().waitFor({ timeout: 90_000 });
      await notice.waitFor({ state: 'detached' });
      await page.getByText(/已连接扫描助手/).waitFor();
      const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { version: string };
      expect(health.version).toBe(NEW);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'agent-updated-1440.png') });
    } finally {
      await context.close();
      installed.kill('SIGKILL');
      const pidFile = path.join(dataDir, 'agent.pid');
      const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').trim() || 0) : 0;
      if (pid > 0) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
