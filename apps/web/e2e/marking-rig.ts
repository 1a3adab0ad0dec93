/**
 * The marking e2e tests' host: SQLite with the marking demo seeded (七年级(1)班's scanned 有理数单元测验 in 阅卷中),
 * listening for Chromium, its files in a folder of its own; and what those tests ask of it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';
import { signIn } from './teacher';

/** The seeded scanned test's title. */
export const TEST_TITLE = '七年级数学 有理数单元测验';

export interface MarkingRig {
  host: TestApp;
  browser: Browser;
  /** GET as demo-teacher; a non-200 answer fails the test with its body. */
  api<T>(url: string): Promise<T>;
  /** Signs demo-teacher in through the home page. */
  signIn(page: Page): Promise<void>;
  close(): Promise<void>;
}

export async function startMarkingRig(name: string): Promise<MarkingRig> {
  ensureBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `zhzy-${name}-e2e-`));
  const host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, DATA_DIR: dataDir, SEED_DEMO_SCANS: 'true' },
  });
  const headers = bearer((await apiSignIn(host.app, 'demo-teacher')).access_token);
  const browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    host,
    browser,
    async api<T>(url: string): Promise<T> {
      const res = await host.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, `GET ${url}: ${res.body}`).toBe(200);
      return res.json<{ data: T }>().data;
    },
    signIn: (page) => signIn(page, host.baseUrl),
    async close() {
      await browser.close();
      await host.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** expect.poll with room for a loaded machine. */
export const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000 });

/** The sheet whose answer the bench shows. */
export const sheetShown = (page: Page) => page.getByTestId('crop-stack').getAttribute('data-sheet');
