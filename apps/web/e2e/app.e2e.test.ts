// @vitest-environment node
/**
 * The web app in Debian's Chromium against the real host (SQLite, demo school seeded), serving apps/web/dist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

const PASSWORD = 'Demo@2026';
const PRINTING = [
  '/printing',
  '/pringtingtest',
  '/printgrade',
  '/printanswer',
  '/printcode',
  '/printBarcode',
  '/printgradetest',
];
const TOP_HIDDEN_SIGNED_IN = [
  '/invite',
  ...PRINTING,
  '/team/group',
  '/bigData',
  '/largescreen',
  '/answerCard',
];
const SIDE_HIDDEN_SIGNED_IN = ['/paperset', '/team/details', '/edit', '/largescreen', '/write'];
const SHOWN_BOTH = [
  '/paperlist',
  '/userset',
  '/protocol',
  '/scan',
  '/team/member',
  '/schoolmaterials',
  '/paperbinding',
  '/analysis/grade',
  '/correct',
  '/aboutUs',
  '/assistant/papaerReport',
  '/rehearse/GoodsPaper',
  '/cloudResources/recycleBin',
  '/cloudResources/paperSetting',
];

let host: TestApp;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST },
    makeCaptcha: () => ({
      text: 'k3y5',
      svg: '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40"><text x="10" y="28">k3y5</text></svg>',
    }),
  });
  origin = host.baseUrl;
  browser = await launchBrowser();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

async function newPage(width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    locale: 'zh-CN',
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function waitForPath(page: Page, wanted: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === wanted);
}

async function signIn(page: Page, username = 'demo-teacher'): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await waitForPath(page, '/paperList');
  await page.getByTestId('top-nav').waitFor();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(250);
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  // Phones: also the first screen, as a teacher sees it without scrolling.
  if (width < 600)
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-first-screen.png`) });
}

describe('the web app against the real host', { timeout: 180_000 }, () => {
  it('sends a visitor to / from every other path, and keeps / and /404', async () => {
    const { context, page } = await newPage();
    for (const p of [
      '/paperlist',
      '/login',
      '/rehearse/SelectQuestionPaper',
      '/dataCenter',
      '/aboutUs',
      '/no/such',
    ]) {
      await page.goto(`${origin}${p}`);
      await waitForPath(page, '/');
      await expect(page.getByText('让每一份作业都有回音').isVisible()).resolves.toBe(true);
    }
    await page.goto(`${origin}/404`);
    await page.getByRole('heading', { name: '页面不存在' }).waitFor();
    expect(pathOf(page)).toBe('/404');
    await context.close();
  });

  it('signs in through the login box, which hides page scrolling while open', async () => {
    const { context, page } = await newPage();
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('tab', { name: '登录' }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await page.getByText('请输入用户名').waitFor();
    await page.getByRole('textbox', { name: '用户名' }).fill('demo-teacher');
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await waitForPath(page, '/paperList');
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
    await page.getByRole('button', { name: '默认学年' }).filter({ hasText: '2026-2027学年' }).waitFor();
    await page.getByTestId('side-bar').waitFor();
    const nav = page.getByRole('navigation', { name: '主导航' });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      '作业列表',
      '学情分析',
      '智能组卷',
      '校本资源',
      '阅卷/考试',
    ]);
    // The marking menu is the product's own /correct, not an external site.
    expect(await nav.getByRole('link', { name: '阅卷/考试' }).getAttribute('href')).toBe('/correct');
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('access_token'),
      user: localStorage.getItem('user'),
    }));
    expect(stored.token).toMatch(/^".+"$/);
    expect(JSON.parse(stored.user!)).toMatchObject({ username: 'demo-teacher', nickname: '王老师' });
    await context.close();
  });

  it('asks for the image code after three failed sign-ins, then signs in with it', async () => {
    const { context, page } = await newPage();
    // A fresh account so the demo accounts keep a clean sign-in record.
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: '登录/注册' }).click();
    await page.getByRole('tab', { name: '注册' }).click();
    await page.getByRole('textbox', { name: '用户名' }).fill('zhao-laoshi');
    await page.getByRole('textbox', { name: '昵称' }).fill('赵老师');
    await page.getByLabel('密码', { exact: true }).fill('Teach2026');
    await page.getByLabel('确认密码').fill('Teach2026');
    await page.getByAltText('图形验证码，点击换一张').waitFor();
    await page.getByRole('textbox', { name: '图形验证码' }).fill('k3y5');
    await page.getByRole('button', { name: '注册', exact: true }).last().click();
    await page.getByText('注册成功，请登录').waitFor();
    await expect(page.getByRole('textbox', { name: '用户名' }).inputValue()).resolves.toBe('zhao-laoshi');
    for (let i = 0; i < 3; i++) {
      await page.getByLabel('密码', { exact: true }).fill('Wrong1234');
      await page.getByRole('button', { name: '登录', exact: true }).last().click();
      await page.getByRole('dialog').getByText('用户名或密码错误').waitFor();
    }
    await page.getByAltText('图形验证码，点击换一张').waitFor();
    await page.getByLabel('密码', { exact: true }).fill('Teach2026');
    await page.getByRole('textbox', { name: '图形验证码' }).fill('k3y5');
    await page.getByRole('button', { name: '登录', exact: true }).last().click();
    await waitForPath(page, '/paperList');
    // A new account has no school yet: no default year, no 学校设置.
    await page.getByRole('button', { name: '默认学年' }).filter({ hasText: '暂无默认学年' }).waitFor();
    await page.getByRole('button', { name: /，用户菜单$/ }).click();
    await page.getByRole('menuitem', { name: '个人中心' }).waitFor();
    expect(await page.getByRole('menuitem', { name: '学校设置' }).count()).toBe(0);
    await context.close();
  });

  it('redirects a signed-in teacher from / and /404, and keeps /dataCenter for grade directors', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    for (const p of ['/', '/404']) {
      await page.goto(`${origin}${p}`);
      await waitForPath(page, '/paperList');
    }
    await page.goto(`${origin}/dataCenter`);
    await waitForPath(page, '/paperList');
    await page.getByText('很抱歉，您暂无该操作权限').waitFor();
    expect(
      await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '数据中心' }).count(),
    ).toBe(0);
    for (const [from, to] of [
      ['/analysis', '/analysis/grade'],
      ['/assistant', '/assistant/analysis'],
      ['/rehearse', '/rehearse/SelectQuestionPaper'],
      ['/cloudResources', '/cloudResources/personPaper'],
    ] as const) {
      await page.goto(`${origin}${from}`);
      await waitForPath(page, to);
    }
    await context.close();

    const director = await newPage();
    await signIn(director.page, 'demo-director');
    await director.page
      .getByRole('navigation', { name: '主导航' })
      .getByRole('link', { name: '数据中心' })
      .click();
    await waitForPath(director.page, '/dataCenter');
    await director.page.getByRole('link', { name: '班级均分对比' }).first().click();
    await waitForPath(director.page, '/dataCenter/averageScore');
    await shot(director.page, 'data-center');
    await director.context.close();
  });

  it('shows the top nav, scan bar and side bar on exactly the routes SPEC §2 says', async () => {
    const { context, page } = await newPage();
    await page.goto(`${origin}/`);
    for (const p of ['/', '/404']) {
      await page.goto(`${origin}${p}`);
      await page.locator('main').waitFor();
      expect(await page.getByTestId('top-nav').count(), p).toBe(0);
      expect(await page.getByTestId('side-bar').count(), p).toBe(0);
    }
    await signIn(page);
    /** Opens a route and checks which parts show: the expected ones are waited for, then the others counted. */
    const check = async (p: string, want: { top: boolean; side: boolean }) => {
      await page.goto(`${origin}${p}`);
      await page
        .getByRole('heading', { level: 1 })
        .first()
        .waitFor()
        .catch((error: unknown) => {
          throw new Error(`${p}: no heading`, { cause: error });
        });
      if (want.top) await page.getByTestId('top-nav').waitFor();
      if (want.top) await page.getByTestId('scan-bar').waitFor();
      if (want.side) await page.getByTestId('side-bar').waitFor();
      if (!want.top || !want.side) await page.waitForTimeout(300);
      const got = {
        top: (await page.getByTestId('top-nav').count()) > 0,
        scan: (await page.getByTestId('scan-bar').count()) > 0,
        side: (await page.getByTestId('side-bar').count()) > 0,
      };
      expect({ p, ...got }).toEqual({ p, top: want.top, scan: want.top, side: want.side });
    };
    for (const p of TOP_HIDDEN_SIGNED_IN) await check(p, { top: false, side: p !== '/largescreen' });
    for (const p of SIDE_HIDDEN_SIGNED_IN) await check(p, { top: p !== '/largescreen', side: false });
    for (const p of SHOWN_BOTH) await check(p, { top: true, side: true });
    await context.close();
  });

  it('adds questions to the basket, deletes a type row and clears the paper', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '智能组卷' }).click();
    await waitForPath(page, '/rehearse/SelectQuestionPaper');
    await page.getByRole('button', { name: '数学', exact: true }).click();
    await page.getByText(/共 \d+ 道试题/).waitFor();
    const badge = page.getByTestId('basket-badge');
    expect(await badge.textContent()).toBe('0');

    await page.getByRole('button', { name: '单选题', exact: true }).click();
    const cards = page.locator('article');
    await cards.first().waitFor();
    await cards.nth(0).getByRole('button', { name: '加入试题篮' }).click();
    await page.getByRole('status').filter({ hasText: '添加成功' }).waitFor();
    await cards.nth(1).getByRole('button', { name: '加入试题篮' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=basket-badge]')?.textContent === '2',
    );
    await cards.nth(0).getByRole('button', { name: '移出试题篮' }).waitFor();
    expect(await page.locator('.katex').count()).toBeGreaterThan(0);

    await page
      .getByRole('group', { name: '题型' })
      .getByRole('button', { name: '全部', exact: true })
      .click();
    await page.getByRole('button', { name: '解答题', exact: true }).click();
    await cards.first().getByRole('button', { name: '加入试题篮' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=basket-badge]')?.textContent === '3',
    );

    await page.getByRole('button', { name: '试题篮，共 3 题' }).click();
    const panel = page
      .getByRole('dialog', { name: '试题篮' })
      .or(page.locator('[aria-label="试题篮"]'))
      .first();
    await panel.getByText('共 3 题').waitFor();
    expect(await panel.getByRole('button', { name: /试卷/ }).textContent()).toContain('初中 - 数学');
    expect(await panel.getByRole('row').allTextContents()).toEqual([
      expect.stringContaining('题型'),
      expect.stringMatching(/^单选题2/),
      expect.stringMatching(/^解答题1/),
    ]);
    await shot(page, 'basket-popover');
    await panel.getByRole('button', { name: '删除解答题' }).click();
    await panel.getByText('共 2 题').waitFor();
    expect(await badge.textContent()).toBe('2');
    await panel.getByRole('button', { name: '清空' }).click();
    await panel.getByText('试题篮是空的').waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=basket-badge]')?.textContent === '0',
    );
    await context.close();
  });

  it('saves the chosen default school year and reloads the page', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    const select = page.getByRole('button', { name: '默认学年' });
    await select.filter({ hasText: '2026-2027学年' }).waitFor();
    await select.click();
    const reloaded = page.waitForEvent('load');
    await page.getByRole('option', { name: '2025-2026学年' }).click();
    await reloaded;
    await select.filter({ hasText: '2025-2026学年' }).waitFor();
    // Put it back for the other tests.
    await select.click();
    const again = page.waitForEvent('load');
    await page.getByRole('option', { name: '2026-2027学年' }).click();
    await again;
    await select.filter({ hasText: '2026-2027学年' }).waitFor();
    await context.close();
  });

  it('signs out from the user menu: storage cleared, back on /', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    await page.getByRole('button', { name: /，用户菜单$/ }).click();
    const settings = page.getByRole('menuitem', { name: '学校设置' });
    expect(await settings.getAttribute('href')).toMatch(
      /^\/team\/details\?orgId=.+&isCreator=false&isAdministrator=false$/,
    );
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await waitForPath(page, '/');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.goto(`${origin}/paperlist`);
    await waitForPath(page, '/');
    await context.close();
  });

  it('goes to / silently when the host answers 401 (session revoked on the server)', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('access_token')!) as string);
    const revoked = await fetch(`${origin}/oauth/signout`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);
    // Any request the page makes next meets the 401, a background revalidation included: that
    // one may take the page to / before the click lands, and removes the menu being clicked.
    await page
      .getByRole('navigation', { name: '主导航' })
      .getByRole('link', { name: '智能组卷' })
      .click({ timeout: 10_000 })
      .catch((error: unknown) => {
        if (new URL(page.url()).pathname !== '/') throw error;
      });
    await waitForPath(page, '/');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('saves screenshots of the main screens at 1440, 1024 and 390 px', async () => {
    for (const width of [1440, 1024, 390]) {
      const { context, page } = await newPage(width);
      await page.goto(`${origin}/`);
      await shot(page, 'home');
      await page.goto(`${origin}/404`);
      await shot(page, 'not-found');
      await page.goto(`${origin}/`);
      await page.getByRole('button', { name: '登录/注册' }).first().click();
      await page.getByRole('tab', { name: '登录' }).waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `login-${width}.png`) });
      await page.getByRole('tab', { name: '注册' }).click();
      await page.getByRole('button', { name: '注册', exact: true }).last().click();
      await page.waitForTimeout(200);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `register-${width}.png`) });
      await page.keyboard.press('Escape');
      await signIn(page, 'demo-director');
      await shot(page, 'paperlist');
      await page.goto(`${origin}/rehearse/SelectQuestionPaper`);
      await page.getByRole('button', { name: '数学', exact: true }).click();
      await page.locator('.katex').first().waitFor();
      await shot(page, 'select-question-paper');
      if (width < 1024) {
        await page.getByRole('button', { name: '菜单', exact: true }).click();
        await page.getByRole('menuitem', { name: '数据中心' }).waitFor();
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `menu-${width}.png`) });
        await page.keyboard.press('Escape');
      }
      await page.goto(`${origin}/analysis/grade`);
      await shot(page, 'analysis');
      await page.goto(`${origin}/aboutUs`);
      await shot(page, 'about-us');
      await page.goto(`${origin}/protocol`);
      await shot(page, 'protocol');
      await page.goto(`${origin}/printBarcode`);
      await shot(page, 'print-barcode');
      await context.close();
    }
    expect(fs.readdirSync(SCREENSHOT_DIR).filter((f) => f.endsWith('.png')).length).toBeGreaterThanOrEqual(
      27,
    );
  });
});
