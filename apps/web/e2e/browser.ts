import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (scripts/lib/browser.mjs installs it); Playwright never downloads a browser here. */
export const CHROMIUM = process.env.ZHZY_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches headless Chromium; Playwright gives every launch a fresh temporary user-data-dir. `extraArgs` adds flags
 * (e.g. a fake camera fed from a file).
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: run \`apt-get install -y chromium fonts-noto-cjk\` (npm test does)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...extraArgs],
    timeout: 60_000,
  });
}

export const WEB_ROOT = path.resolve(import.meta.dirname, '..');
export const WEB_DIST = path.join(WEB_ROOT, 'dist');
export const SCREENSHOT_DIR = path.resolve(WEB_ROOT, '../../test-artifacts/screenshots');

/**
 * Builds the web app once when its dist is missing (the README's test command builds it before the tests). As a
 * production build: vitest sets NODE_ENV=test, which would otherwise give React's development build (and
 * StrictMode's double effects) to screens the tests mean to try as a teacher gets them.
 */
export function ensureBuilt(): void {
  if (fs.existsSync(path.join(WEB_DIST, '.vite', 'manifest.json'))) return;
  execFileSync(process.execPath, [path.join(WEB_ROOT, '../../node_modules/vite/bin/vite.js'), 'build'], {
    cwd: WEB_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
