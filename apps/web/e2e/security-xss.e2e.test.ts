// @vitest-environment node
/**
 * Issue #12: script payloads in names and rich text, shown on their screens in Debian's Chromium, run nothing.
 * The names go in through the API (stored as typed); a school question's rich text is written straight into the
 * database unsanitised, as if the host's own sanitiser had been bypassed, so the browser's sanitiser and the
 * Content-Security-Policy are what keep it inert. On every screen: no dialog fired, no element carries an event
 * handler attribute or a javascript: URL, no script, frame, object or embed was injected, and the payloads show as
 * text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  NAME_PAYLOADS,
  RICH_PAYLOADS,
  SHORT_NAME_PAYLOADS,
  bearer,
  signIn as signInApi,
  startTestApp,
  type TestApp,
} from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, WEB_DIST } from './browser';

const PASSWORD = 'Demo@2026';

let host: TestApp;
let browser: Browser;
let origin: string;
const dialogs: string[] = [];
const violations: string[] = [];

async function api(method: string, url: string, token: string, body?: object) {
  const res = await host.app.inject({
    method: method as 'GET',
    url,
    headers: { ...bearer(token), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: body } : {}),
  });
  expect(res.statusCode, `${method} ${url} ${res.body.slice(0, 200)}`).toBe(200);
  return res.json<{ data: Record<string, unknown> }>().data;
}

beforeAll(async () => {
  ensureBuilt();
  host = await startTestApp({ dialect: 'sqlite', listen: true, env: { WEB_DIST } });
  origin = host.baseUrl;
  const admin = (await signInApi(host.app, 'demo-admin')).access_token;
  const db = host.testDb.db.kysely;
  const org = await db
    .selectFrom('orgs')
    .select('id')
    .where('name', '=', '演示学校')
    .executeTakeFirstOrThrow();
  const year = await db
    .selectFrom('school_years')
    .select('id')
    .where('org_id', '=', org.id)
    .where('is_default', '=', 1)
    .executeTakeFirstOrThrow();
  for (const [i, name] of NAME_PAYLOADS.entries()) {
    await api('POST', '/school/class', admin, { yearId: year.id, name });
    await api('POST', '/school/team/group', admin, { name: `${name}${i}`, kind: 'research' });
  }
  const subject = await db
    .selectFrom('subjects')
    .select('id')
    .where('name', '=', '数学')
    .executeTakeFirstOrThrow();
  for (const title of NAME_PAYLOADS)
    await api('POST', '/teacher/paper/create', admin, { subjectId: subject.id, title });
  await api('PUT', '/system/account/nickname', admin, { nickname: SHORT_NAME_PAYLOADS[2] });

  // An approved school question whose rich text was never sanitised by the host.
  const type = await db
    .selectFrom('question_types')
    .select('id')
    .where('subject_id', '=', subject.id)
    .where('name', '=', '单选题')
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  await db
    .insertInto('questions')
    .values({
      id: 'xss-school-question',
      subject_id: subject.id,
      type_id: type.id,
      owner: 'school',
      org_id: org.id,
      owner_user_id: null,
      difficulty: 3,
      stem: `<p>脚本题干${RICH_PAYLOADS.join('')}</p>`,
      options: JSON.stringify(
        RICH_PAYLOADS.slice(0, 4).map((p, i) => ({ label: 'ABCD'[i], content: `选项${p}` })),
      ),
      answer: 'A',
      analysis: RICH_PAYLOADS.join(''),
      year: 2026,
      source: '校本',
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .execute();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(90_000);
  page.on('dialog', (dialog) => {
    dialogs.push(`${page.url()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return page;
}

async function signIn(page: Page, username: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname === '/paperList');
  await page.getByTestId('top-nav').waitFor();
}

/** Anything on the page that could run script: handler attributes, javascript: URLs, injected active elements. */
async function activeContent(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of Array.from(document.querySelectorAll('*'))) {
      for (const attr of el.getAttributeNames()) {
        const value = (el.getAttribute(attr) ?? '').trim().toLowerCase();
        if (/^on/i.test(attr)) found.push(`${el.tagName.toLowerCase()}[${attr}]`);
        if (
          ['href', 'src', 'action', 'formaction', 'xlink:href', 'data'].includes(attr) &&
          value.startsWith('javascript:')
        )
          found.push(`${el.tagName.toLowerCase()}[${attr}=${value}]`);
      }
    }
    for (const el of Array.from(
      document.querySelectorAll('#root script, #root iframe, #root object, #root embed, #root style'),
    ))
      found.push(el.outerHTML.slice(0, 120));
    return found;
  });
}

async function expectInert(page: Page, where: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  expect(await activeContent(page), where).toEqual([]);
  expect(dialogs, where).toEqual([]);
}

describe('script payloads on their screens', { timeout: 480_000 }, () => {
  it('shows class, group, paper and user names as text and runs none of them', async () => {
    const page = await newPage();
    await signIn(page, 'demo-admin');
    // The administrator's nickname in the top bar.
    await page.getByTestId('top-nav').getByText(SHORT_NAME_PAYLOADS[2], { exact: false }).first().waitFor();
    await expectInert(page, 'top bar');

    await page.goto(`${origin}/team/details?orgId=&isCreator=true&isAdministrator=true`);
    await page.getByRole('tab', { name: '学年与班级' }).click();
    for (const name of NAME_PAYLOADS) await page.getByText(name, { exact: true }).first().waitFor();
    await expectInert(page, 'classes');

    await page.goto(`${origin}/team/group`);
    await page.getByText(`${NAME_PAYLOADS[0]}0`, { exact: false }).first().waitFor();
    await expectInert(page, 'groups');

    await page.goto(`${origin}/cloudResources/personPaper`);
    for (const title of NAME_PAYLOADS) await page.getByText(title, { exact: false }).first().waitFor();
    await expectInert(page, 'papers');
    await page.context().close();
  });

  it('shows a school question whose stored HTML was never sanitised, with nothing of it running', async () => {
    const page = await newPage();
    await signIn(page, 'demo-admin');
    await page.goto(`${origin}/cloudResources/schoolTestQuestions`);
    await page.getByText('脚本题干', { exact: false }).first().waitFor();
    await expectInert(page, 'school questions');
    // Its harmless parts are still there: the link text, the paragraph.
    await expect(page.getByText('点我').first().isVisible()).resolves.toBe(true);
    await page.context().close();
    expect(violations.filter((v) => !/inline|eval/i.test(v))).toEqual([]);
  });
});
