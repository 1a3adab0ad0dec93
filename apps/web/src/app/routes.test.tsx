import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_BASKET, MESSAGES } from '@zhzy/contracts';
import { clearToasts } from '../lib/toast';
import { sessionChanged } from '../lib/api';
import { DIRECTOR, TEACHER, fakeHost, ok, signInAs } from '../testing/fake-host';
import { AppProvider } from './provider';
import { routes } from './routes';

const YEARS = [
  { id: 'y1', name: '2026-2027学年', pid: null, isDefault: true },
  { id: 'y2', name: '2025-2026学年', pid: null, isDefault: false },
];

function host(overrides = {}) {
  return fakeHost({
    'GET /system/class': () => ok(YEARS),
    'GET /teacher/paper/info/getQuestionBasket': () => ok(EMPTY_BASKET),
    'DELETE /oauth/signout': () => ok(null),
    // /paperlist (the signed-in home) lists homework with its filters.
    'GET /teacher/homework/list': () => ok({ records: [], total: 0, page: 1, size: 10 }),
    'GET /system/stage/list': () => ok([]),
    ...overrides,
  });
}

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const onSignedOut = vi.fn(() => void router.navigate('/', { replace: true }));
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <AppProvider onSignedOut={onSignedOut}>
        <RouterProvider router={router} />
      </AppProvider>
    </SWRConfig>,
  );
  return router;
}

const pathOf = (router: ReturnType<typeof createMemoryRouter>) => router.state.location.pathname;

beforeEach(() => {
  sessionChanged();
});
afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

describe('guard and redirects in the app', () => {
  it('shows the visitor home page with the question-type demo grid', async () => {
    host();
    renderAt('/');
    const grid = await screen.findByTestId('question-type-demo');
    for (const [name, count] of [
      ['单选题', '6'],
      ['多选题', '3'],
      ['应用题', '2'],
      ['解答题', '5'],
    ] as const) {
      expect(within(grid).getByText(name).parentElement).toHaveTextContent(`${name}${count}题`);
    }
    expect(screen.queryByTestId('top-nav')).toBeNull();
    expect(screen.queryByTestId('side-bar')).toBeNull();
    expect(screen.getByTestId('footer')).toHaveTextContent('宿舍睡眠系统');
  });

  it.each(['/paperlist', '/analysis', '/dataCenter', '/login', '/no/such/page'])(
    'sends a visitor from %s to /login and on to /',
    async (path) => {
      host();
      const router = renderAt(path);
      await waitFor(() => expect(pathOf(router)).toBe('/'));
      expect(await screen.findByText('让每一份作业都有回音')).toBeInTheDocument();
    },
  );

  it('lets a visitor see /404', async () => {
    host();
    const router = renderAt('/404');
    expect(await screen.findByRole('heading', { name: '页面不存在' })).toBeInTheDocument();
    expect(pathOf(router)).toBe('/404');
  });

  it.each(['/', '/404'])('sends a signed-in teacher from %s to /paperList', async (path) => {
    signInAs(TEACHER);
    host();
    const router = renderAt(path);
    await waitFor(() => expect(pathOf(router)).toBe('/paperList'));
    expect(await screen.findByRole('heading', { name: '作业列表' })).toBeInTheDocument();
  });

  it('sends an unknown path of a signed-in teacher to / and so to /paperList', async () => {
    signInAs(TEACHER);
    host();
    const router = renderAt('/nowhere');
    await waitFor(() => expect(pathOf(router)).toBe('/paperList'));
  });

  it.each([
    ['/analysis', '/analysis/grade', '年级分析'],
    ['/assistant', '/assistant/analysis', '数据分析'],
    ['/rehearse', '/rehearse/SelectQuestionPaper', '选题组卷'],
    ['/cloudResources', '/cloudResources/personPaper', '我的试卷'],
  ])('redirects %s to %s', async (from, to, title) => {
    signInAs(TEACHER);
    host({ 'GET /system/stage/list': () => ok([]) });
    const router = renderAt(from);
    await waitFor(() => expect(pathOf(router)).toBe(to));
    expect((await screen.findAllByText(title)).length).toBeGreaterThan(0);
  });

  it('opens the relative child /assistant/papaerReport', async () => {
    signInAs(TEACHER);
    host();
    renderAt('/assistant/papaerReport');
    expect(await screen.findByRole('heading', { name: '报告' })).toBeInTheDocument();
  });

  it('keeps /dataCenter for grade directors', async () => {
    signInAs(TEACHER);
    host();
    const router = renderAt('/dataCenter/subject');
    await waitFor(() => expect(pathOf(router)).toBe('/paperList'));
    expect(await screen.findByText(MESSAGES.forbidden)).toBeInTheDocument();
  });

  it('opens /dataCenter and shows 数据中心 in the menu for a grade director', async () => {
    signInAs(DIRECTOR);
    host();
    const router = renderAt('/dataCenter');
    expect(await screen.findByRole('link', { name: '学科统计' })).toBeInTheDocument();
    expect(pathOf(router)).toBe('/dataCenter');
    const nav = await screen.findByRole('navigation', { name: '主导航' });
    expect(within(nav).getByRole('link', { name: '数据中心' })).toBeInTheDocument();
  });
});

describe('layout visibility in the app', () => {
  it.each([
    ['/paperlist', true, true],
    ['/paperset', true, false],
    ['/team/details', true, false],
    ['/edit', true, false],
    ['/write', true, false],
    ['/printing', false, true],
    ['/printBarcode', false, true],
    ['/team/group', false, true],
    ['/largescreen', false, false],
    ['/answerCard', false, true],
  ])('%s: top nav %s, side bar %s', async (path, topNav, sideBar) => {
    signInAs(TEACHER);
    host();
    renderAt(path);
    await screen.findByRole('heading', { level: 1 });
    if (topNav) expect(await screen.findByTestId('top-nav')).toBeInTheDocument();
    if (sideBar) expect(await screen.findByTestId('side-bar')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    if (!topNav) expect(screen.queryByTestId('top-nav')).toBeNull();
    if (!sideBar) expect(screen.queryByTestId('side-bar')).toBeNull();
  });
});

describe('top bar', () => {
  it('shows the default school year, the user and the menu without 数据中心 for a teacher', async () => {
    signInAs(TEACHER);
    host();
    renderAt('/paperlist');
    expect(await screen.findByText('2026-2027学年')).toBeInTheDocument();
    expect(screen.getByTestId('user-name')).toHaveTextContent('王老师');
    const nav = screen.getByRole('navigation', { name: '主导航' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['作业列表', '学情分析', '智能组卷', '校本资源', '阅卷/考试']);
    // Issue #22: the product's own marking, not an external site that dies offline.
    const exam = within(nav).getByRole('link', { name: '阅卷/考试' });
    expect(exam).toHaveAttribute('href', '/correct');
    expect(exam).not.toHaveAttribute('target');
  });

  it('shows 暂无默认学年 when no school year is the default', async () => {
    signInAs(TEACHER);
    host({ 'GET /system/class': () => ok(YEARS.map((y) => ({ ...y, isDefault: false }))) });
    renderAt('/paperlist');
    expect(await screen.findByText('暂无默认学年')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '扫描答题卡' }));
    expect(await screen.findByText(MESSAGES.scanNeedsYear)).toBeInTheDocument();
  });

  it('offers 学校设置 with isCreator and isAdministrator, and signs out to /', async () => {
    signInAs({ ...TEACHER, gradeInfo: { ...TEACHER.gradeInfo, isCreator: true, isAdministrator: true } });
    const { log } = host();
    const router = renderAt('/paperlist');
    await userEvent.click(await screen.findByRole('button', { name: '王老师，用户菜单' }));
    expect(await screen.findByRole('menuitem', { name: '个人中心' })).toHaveAttribute('href', '/userset');
    expect(screen.getByRole('menuitem', { name: '学校设置' })).toHaveAttribute(
      'href',
      '/team/details?orgId=org1&isCreator=true&isAdministrator=true',
    );
    await userEvent.click(screen.getByRole('menuitem', { name: '退出登录' }));
    await waitFor(() => expect(pathOf(router)).toBe('/'));
    expect(log.some((r) => r.method === 'DELETE' && r.path === '/oauth/signout')).toBe(true);
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('hides 学校设置 without a default school', async () => {
    signInAs({ ...TEACHER, gradeInfo: { ...TEACHER.gradeInfo, orgDefaultId: null } });
    host();
    renderAt('/paperlist');
    await userEvent.click(await screen.findByRole('button', { name: '王老师，用户菜单' }));
    expect(await screen.findByRole('menuitem', { name: '个人中心' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: '学校设置' })).toBeNull();
  });

  it('goes to / without a message when the host answers 401', async () => {
    signInAs(TEACHER);
    host({
      'GET /system/class': () => ({
        status: 401,
        body: { code: 401, message: '登录已过期，请重新登录', data: null },
      }),
    });
    const router = renderAt('/paperlist');
    await waitFor(() => expect(pathOf(router)).toBe('/'));
    expect(localStorage.getItem('user')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('links 问题反馈 to /userset?nav=2, which opens feedback', async () => {
    signInAs(TEACHER);
    host();
    const router = renderAt('/paperlist');
    await userEvent.click(await screen.findByRole('link', { name: '问题反馈' }));
    await waitFor(() => expect(router.state.location.search).toBe('?nav=2'));
    expect(await screen.findByRole('heading', { name: '问题反馈' })).toBeInTheDocument();
  });
});
