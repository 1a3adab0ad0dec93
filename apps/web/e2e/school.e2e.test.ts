// @vitest-environment node
/**
 * Issue 10's screens in Debian's Chromium against the real host (SQLite, demo school seeded): demo-admin creates a
 * school year, imports a class from an Excel file built from the downloaded template, invites a teacher who accepts
 * with a new account and signs in; screenshots of every screen at 1440 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';

const PASSWORD = 'Demo@2026';
const YEAR = '2027-2028学年';
const CLASS = '七年级(9)班';
const STUDENTS = [
  ['赵一鸣', '2027070901', '男'],
  ['钱二丫', '2027070902', '女'],
  ['孙三立', '2027070903', '男'],
  ['李四海', '2027070904', '女'],
  ['周五洲', '2027070905', '男'],
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
    acceptDownloads: true,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

async function signIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: '登录/注册' }).click();
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).last().click();
  await page.waitForURL((url) => url.pathname === '/paperList');
  await page.getByTestId('top-nav').waitFor();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const width = page.viewportSize()?.width ?? 1440;
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `school-${name}-${width}.png`), fullPage: true });
}

/** The downloaded template with one row per student added to its first sheet (inline strings, as Excel may). */
async function fillTemplate(template: Buffer): Promise<Buffer> {
  const zip = await JSZip.loadAsync(template);
  const sheetPath = 'xl/worksheets/sheet1.xml';
  const xml = await zip.file(sheetPath)!.async('string');
  const cell = (col: string, row: number, value: string) =>
    `<c r="${col}${row}" t="inlineStr"><is><t>${value}</t></is></c>`;
  const rows = STUDENTS.map(([name, no, gender], i) => {
    const r = i + 2;
    return `<row r="${r}">${cell('A', r, name!)}${cell('B', r, no!)}${cell('C', r, CLASS)}${cell('D', r, gender!)}</row>`;
  }).join('');
  zip.file(sheetPath, xml.replace('</sheetData>', `${rows}</sheetData>`));
  return zip.generateAsync({ type: 'nodebuffer' });
}

describe('schools, teams and invitations in the browser', { timeout: 300_000 }, () => {
  let inviteLink = '';

  it('demo-admin creates a school year and imports a class from the template', async () => {
    const { context, page } = await newPage();
    await signIn(page, 'demo-admin');
    await page.goto(`${origin}/team/details?orgId=&isCreator=true&isAdministrator=true`);
    await page.getByRole('heading', { name: '演示学校' }).waitFor();
    await shot(page, 'details-info');

    await page.getByRole('tab', { name: '学年与班级' }).click();
    await page.getByRole('button', { name: '新建学年' }).click();
    const yearDialog = page.getByRole('dialog', { name: '新建学年' });
    await yearDialog.getByRole('button', { name: '保存' }).click();
    await yearDialog.getByText('请输入学年名称').waitFor();
    await yearDialog.getByRole('textbox', { name: '学年名称' }).fill(YEAR);
    await yearDialog.getByRole('button', { name: '保存' }).click();
    await page.getByText(`已创建学年“${YEAR}”`).waitFor();
    await page.getByRole('heading', { name: `${YEAR} 的班级` }).waitFor();
    await shot(page, 'details-years');

    await page.getByRole('tab', { name: '学生' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: '下载模板' }).click(),
    ]);
    const template = fs.readFileSync(await download.path());
    const filled = await fillTemplate(template);

    await page.getByRole('button', { name: '导入 Excel' }).click();
    const dialog = page.getByRole('dialog', { name: '从 Excel 导入学生' });
    await dialog.getByRole('button', { name: /导入到学年/ }).click();
    await page.getByRole('option', { name: YEAR }).click();
    await dialog.getByLabel('选择文件').setInputFiles({
      name: `${CLASS}.xlsx`,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: filled,
    });
    await dialog.getByText(`${CLASS}.xlsx`).waitFor();
    await shot(page, 'details-import');
    await dialog.getByRole('button', { name: '开始导入' }).click();
    await page.getByText(`成功导入${STUDENTS.length}名学生`).first().waitFor();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: /^学年/ }).click();
    await page.getByRole('option', { name: YEAR }).click();
    await page.getByRole('cell', { name: '赵一鸣', exact: true }).waitFor();
    await expect(page.getByRole('cell', { name: CLASS, exact: true }).count()).resolves.toBe(STUDENTS.length);
    await shot(page, 'details-students');

    // The same file again: every row's student number is taken, so nothing is imported and each row says why.
    await page.getByRole('button', { name: '导入 Excel' }).click();
    await dialog.getByRole('button', { name: /导入到学年/ }).click();
    await page.getByRole('option', { name: YEAR }).click();
    await dialog.getByLabel('选择文件').setInputFiles({
      name: 'again.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: filled,
    });
    await dialog.getByRole('button', { name: '开始导入' }).click();
    await dialog.getByText(`导入失败：共${STUDENTS.length}行有误，未导入任何学生`).waitFor();
    await dialog.getByRole('cell', { name: '学号 2027070901 已存在' }).waitFor();
    await shot(page, 'details-import-errors');
    await dialog.getByRole('button', { name: '取消' }).click();

    for (const [tab, name] of [
      ['开设学科', 'subjects'],
      ['年级主任', 'directors'],
      ['操作日志', 'audit'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await shot(page, `details-${name}`);
    }
    await page.getByRole('cell', { name: '导入学生' }).first().waitFor();
    await context.close();
  });

  it('demo-admin invites a teacher with a link and a QR code', async () => {
    const { context, page } = await newPage();
    await signIn(page, 'demo-admin');
    await page.goto(`${origin}/team/member`);
    await page.getByRole('cell', { name: /demo-teacher/ }).waitFor();
    await shot(page, 'member');
    await page.getByRole('tab', { name: '邀请' }).click();
    await page.getByRole('button', { name: '邀请成员' }).first().click();
    await page
      .getByRole('dialog', { name: '邀请成员加入' })
      .getByRole('button', { name: '生成邀请' })
      .click();
    const created = page.getByRole('dialog', { name: '邀请已生成' });
    await created.getByRole('img', { name: '邀请二维码' }).waitFor();
    inviteLink = await created.getByRole('textbox', { name: '邀请链接' }).inputValue();
    expect(inviteLink).toMatch(new RegExp(`^${origin}/invite#token=`));
    await shot(page, 'member-invite-created');
    await created.getByRole('button', { name: '关闭' }).click();
    await page.getByRole('cell', { name: '有效' }).waitFor();
    await shot(page, 'member-invites');
    await context.close();
  });

  it('the invited teacher registers from the link, joins the school and is signed in', async () => {
    const { context, page } = await newPage();
    await page.goto(inviteLink);
    await page.getByRole('heading', { name: '演示学校' }).waitFor();
    await page.getByText('加入后的身份：教师').waitFor();
    await shot(page, 'invite');
    await page.getByRole('button', { name: '注册并加入' }).click();
    await page.getByText('请输入用户名').waitFor();
    await page.getByRole('textbox', { name: '用户名' }).fill('new-teacher');
    await page.getByRole('textbox', { name: '昵称' }).fill('陈老师');
    await page.getByLabel('密码', { exact: true }).fill('Teach2027');
    await page.getByLabel('确认密码').fill('Teach2027');
    await page.getByRole('textbox', { name: '图形验证码' }).fill('k3y5');
    await page.getByRole('button', { name: '注册并加入' }).click();
    await page.getByRole('heading', { name: '您已加入演示学校' }).waitFor();
    await shot(page, 'invite-joined');
    await page.getByRole('link', { name: '进入作业列表' }).click();
    await page.getByTestId('top-nav').waitFor();
    await page.getByText('陈老师').first().waitFor();

    // A teacher sees the school read-only and only their own groups.
    await page.goto(`${origin}/team/group`);
    await page.getByRole('heading', { name: /我的团队/ }).waitFor();
    await page.getByText('您还没有加入任何教研组或备课组').waitFor();
    await page.goto(`${origin}/team/member`);
    await page.getByText('只有学校管理员可以管理成员').waitFor();
    await context.close();

    // Signing in again later with the new account works too.
    const again = await newPage();
    await signIn(again.page, 'new-teacher', 'Teach2027');
    await again.page.getByText('陈老师').first().waitFor();
    await again.context.close();
  });

  it('shows the personal centre, the feedback and the groups screens', async () => {
    const { context, page } = await newPage();
    await signIn(page, 'demo-admin');
    await page.goto(`${origin}/userset`);
    await page.getByRole('heading', { name: '个人资料' }).waitFor();
    await shot(page, 'userset-profile');
    await page.goto(`${origin}/userset?nav=2`);
    await page.getByRole('heading', { name: '问题反馈' }).waitFor();
    await page.getByRole('button', { name: '提交反馈' }).click();
    await page.getByText('请输入反馈内容').waitFor();
    await page.getByLabel('反馈内容').fill('扫描后希望能按学号排序显示。');
    await page.getByRole('button', { name: '提交反馈' }).click();
    await page.getByText('反馈已提交，感谢您的支持').waitFor();
    await shot(page, 'userset-feedback');
    await page.getByRole('button', { name: '学校反馈' }).click();
    await page.getByText('扫描后希望能按学号排序显示。').waitFor();
    await page.getByRole('textbox', { name: '输入回复内容' }).fill('已收到，下个版本支持。');
    await page.getByRole('button', { name: '发送回复' }).click();
    await page.getByText('回复已发送').waitFor();
    await shot(page, 'userset-school-feedback');
    await page.getByRole('button', { name: '修改密码' }).click();
    const passwordForm = page.getByRole('form', { name: '修改密码' });
    await passwordForm.waitFor();
    await passwordForm.getByRole('button', { name: '修改密码' }).click();
    await page.getByText('请输入原密码').waitFor();
    await shot(page, 'userset-password');
    await page.getByRole('button', { name: '我的任教' }).click();
    await page.getByRole('heading', { name: '任教学科与班级' }).waitFor();
    await shot(page, 'userset-teaching');

    await page.goto(`${origin}/team/group`);
    await page.getByRole('heading', { name: /我的团队/ }).waitFor();
    await page.getByRole('button', { name: '新建组' }).first().click();
    const dialog = page.getByRole('dialog', { name: '新建教研组 / 备课组' });
    await dialog.getByRole('textbox', { name: '组名' }).fill('初中数学教研组');
    await dialog.getByRole('button', { name: '保存' }).click();
    const card = page.getByRole('article', { name: '初中数学教研组' });
    await card.waitFor();
    await card.getByRole('button', { name: '设置组员' }).click();
    const members = page.getByRole('dialog', { name: '设置“初中数学教研组”的组员' });
    await members.getByRole('checkbox', { name: '王老师' }).check();
    await members.getByRole('button', { name: '保存' }).click();
    await page.getByText('组员已保存').waitFor();
    await shot(page, 'group');
    await context.close();
  });

  it('fits a phone: the school, team, materials and personal screens never scroll sideways', async () => {
    const { context, page } = await newPage(390);
    await signIn(page, 'demo-admin');
    const screens: [string, string | RegExp, string][] = [
      ['/team/details', '学校设置', 'details'],
      ['/team/member', '团队管理', 'member'],
      ['/team/group', /我的团队/, 'group'],
      ['/userset', '个人资料', 'userset'],
      ['/schoolmaterials', '校本资料', 'materials'],
    ];
    for (const [route, heading, name] of screens) {
      await page.goto(`${origin}${route}`);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      await shot(page, name);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${route} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    }
    await context.close();
  });
});
