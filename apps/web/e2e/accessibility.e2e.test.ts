// @vitest-environment node
/**
 * Accessibility: axe-core (WCAG 2.1 A and AA rules) on every screen of the router, as a visitor, as demo-teacher
 * and as demo-director, in Debian's Chromium against the real host (SQLite, demo school with its scanned test and
 * results, so the screens show content). Serious and critical violations fail the test, all of them listed at once.
 */
import fs from 'node:fs';
import axe from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, WEB_DIST } from './browser';

/** The host's Content-Security-Policy allows no inline script, so the test lets its own axe-core in past it. */
const AXE_CONTEXT = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN', bypassCSP: true } as const;

const PASSWORD = 'Demo@2026';

/** Every path of `src/config/paths.ts` a signed-in teacher can open (parameters come from the screens' own data). */
const SIGNED_IN = [
  '/paperList',
  '/rehearse/SelectQuestionPaper',
  '/rehearse/intellectTestPaper',
  '/rehearse/SynchronizationClass',
  '/rehearse/GoodsPaper',
  '/rehearse/MistakesExercise',
  '/edit',
  '/paperset',
  '/answerCard',
  '/cloudResources/personPaper',
  '/cloudResources/schoolPaper',
  '/cloudResources/schoolTestQuestions',
  '/cloudResources/recycleBin',
  '/cloudResources/paperSetting',
  '/scan',
  '/correct',
  '/write',
  '/analysis/grade',
  '/analysis/class',
  '/analysis/person',
  '/assistant/analysis',
  '/assistant/commentary',
  '/assistant/details',
  '/assistant/papaerReport',
  '/schoolmaterials',
  '/paperbinding',
  '/userset',
  '/team/details',
  '/team/member',
  '/team/group',
  '/invite',
  '/printing',
  '/pringtingtest',
  '/printgrade',
  '/printanswer',
  '/printcode',
  '/printBarcode',
  '/printgradetest',
  '/protocol',
  '/aboutUs',
  '/bigData',
  '/largescreen',
];
/** The grade director's own screens, beside the teacher's. */
const DIRECTOR_ONLY = ['/dataCenter/subject', '/dataCenter/correctScore', '/dataCenter/averageScore'];

interface Finding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

let host: TestApp;
let browser: Browser;
const checked = new Set<string>();

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, SEED_DEMO_SCANS: 'true', SEED_DEMO_RESULTS: 'true' },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** Runs axe on what the page shows now; answers the serious and critical violations. */
async function audit(page: Page, screen: string): Promise<Finding[]> {
  await page.waitForLoadState('networkidle');
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    }),
  );
  checked.add(screen);
  const found = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      screen,
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  if (process.env.ZHZY_AXE_LOG)
    fs.appendFileSync(process.env.ZHZY_AXE_LOG, `${JSON.stringify({ screen, found })}\n`);
  return found;
}

async function signedInPage(username: string): Promise<Page> {
  const context = await browser.newContext(AXE_CONTEXT);
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${host.baseUrl}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname === '/paperList');
  return page;
}

describe('axe-core on every screen', { timeout: 600_000 }, () => {
  it('finds no serious or critical violation on the visitor screens, the sign-in dialog included', async () => {
    const context = await browser.newContext(AXE_CONTEXT);
    const page = await context.newPage();
    const findings: Finding[] = [];
    for (const p of ['/', '/404']) {
      await page.goto(`${host.baseUrl}${p}`);
      findings.push(...(await audit(page, `visitor ${p}`)));
    }
    await page.goto(`${host.baseUrl}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).waitFor();
    findings.push(...(await audit(page, 'visitor sign-in dialog')));
    await context.close();
    expect(findings).toEqual([]);
  });

  for (const [username, screens] of [
    ['demo-teacher', SIGNED_IN],
    ['demo-director', [...SIGNED_IN, ...DIRECTOR_ONLY]],
  ] as const) {
    it(`finds no serious or critical violation on any screen as ${username}`, async () => {
      const page = await signedInPage(username);
      const findings: Finding[] = [];
      for (const p of screens) {
        await page.goto(`${host.baseUrl}${p}`);
        findings.push(...(await audit(page, `${username} ${p}`)));
      }
      await page.context().close();
      expect(findings).toEqual([]);
    });
  }

  it('checked every screen', () => {
    console.info(`axe-core: ${checked.size} screen checks`);
    expect(checked.size).toBe(3 + SIGNED_IN.length * 2 + DIRECTOR_ONLY.length);
  });
});
