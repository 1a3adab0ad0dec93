import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchoolDetail, SchoolYearInfo } from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { SchoolSettingsScreen } from './school-settings';

const NOW = '2026-11-02T08:00:00.000Z';

function school(canManage: boolean): SchoolDetail {
  return {
    id: 'org1',
    name: '演示学校',
    logoUrl: null,
    logoPath: null,
    region: '北京',
    address: null,
    phone: null,
    intro: null,
    createdAt: NOW,
    creator: { userId: 'u9', nickname: '张校长' },
    me: {
      memberId: 'm1',
      isCreator: false,
      isAdministrator: canManage,
      isGradeDirector: false,
      canManage,
      isDefault: true,
      grades: [],
    },
    counts: { members: 3, years: 1, classes: 1, students: 40, groups: 0 },
    timeZone: 'Asia/Shanghai',
    defaultYear: { id: 'y1', name: '2026-2027学年' },
  };
}

const YEAR: SchoolYearInfo = {
  id: 'y1',
  name: '2026-2027学年',
  isDefault: true,
  archived: false,
  graduated: false,
  graduatedAt: null,
  classCount: 1,
  studentCount: 40,
  createdAt: NOW,
};

function host(canManage: boolean) {
  const imports: unknown[] = [];
  const fake = fakeHost({
    'GET /school/team/details': () => ok(school(canManage)),
    'GET /school/years': () => ok([YEAR]),
    'GET /school/classes': () =>
      ok([
        {
          id: 'c1',
          name: '七年级(1)班',
          grade: '七年级',
          stageId: 's1',
          stageName: '初中',
          yearId: 'y1',
          studentCount: 40,
        },
      ]),
    'GET /school/students': () =>
      ok({
        records: [
          {
            id: 'st1',
            name: '李明',
            studentNo: '2026070101',
            gender: '男',
            classId: 'c1',
            className: '七年级(1)班',
            yearId: 'y1',
            yearName: YEAR.name,
            graduated: false,
          },
        ],
        total: 1,
        page: 1,
        size: 50,
      }),
    'POST /school/students/import': (req) => {
      imports.push(req.body);
      return {
        status: 400,
        body: {
          code: 400,
          message: '导入失败：共2行有误，未导入任何学生',
          data: {
            errors: [
              { row: 3, message: '第3行：学号 2026070101 已存在' },
              { row: 5, message: '第5行：性别“男生”不正确，只能是男或女' },
            ],
          },
        },
      };
    },
  });
  return { imports, ...fake };
}

function renderScreen() {
  const router = createMemoryRouter(
    [{ path: '/team/details', element: <SchoolSettingsScreen orgId="org1" hasSchool /> }],
    { initialEntries: ['/team/details?orgId=org1'] },
  );
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <RouterProvider router={router} />
      <Toaster />
    </SWRConfig>,
  );
}

beforeEach(() => {
  localStorage.clear();
  signInAs();
});
afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('school settings', () => {
  it('shows a teacher the school read-only: no year, class or student buttons', async () => {
    host(false);
    renderScreen();
    await screen.findByRole('heading', { name: '演示学校' });
    expect(screen.getByText('您可以查看本校信息；修改需要学校管理员操作。')).toBeVisible();
    expect(screen.queryByRole('button', { name: '编辑信息' })).toBeNull();
    expect(screen.queryByRole('tab', { name: '操作日志' })).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: '学年与班级' }));
    await screen.findByRole('cell', { name: '七年级(1)班' });
    expect(screen.queryByRole('button', { name: '新建学年' })).toBeNull();
    expect(screen.queryByRole('button', { name: '新建班级' })).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: '学生' }));
    await screen.findByText('李明');
    expect(screen.queryByRole('button', { name: '导入 Excel' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: '选择李明' })).toBeNull();
  });

  it('lists every broken row of a refused import and keeps the dialog open', async () => {
    const { imports } = host(true);
    renderScreen();
    await screen.findByRole('heading', { name: '演示学校' });
    await userEvent.click(screen.getByRole('tab', { name: '学生' }));
    await screen.findByText('李明');
    await userEvent.click(screen.getByRole('button', { name: '导入 Excel' }));
    const dialog = await screen.findByRole('dialog', { name: '从 Excel 导入学生' });

    await userEvent.click(within(dialog).getByRole('button', { name: '开始导入' }));
    expect(within(dialog).getByText('请选择要导入的 Excel 文件（.xlsx）')).toBeVisible();

    const wrong = new File(['x'], '名单.xls', { type: 'application/vnd.ms-excel' });
    await userEvent.upload(within(dialog).getByLabelText('选择文件'), wrong, { applyAccept: false });
    expect(
      within(dialog).getByText('文件不是有效的 Excel 文件（.xlsx），请使用下载的模板填写'),
    ).toBeVisible();

    const file = new File(['PK'], '七年级(1)班.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    await userEvent.upload(within(dialog).getByLabelText('选择文件'), file);
    await userEvent.click(within(dialog).getByRole('button', { name: '开始导入' }));

    const alert = await within(dialog).findByText('导入失败：共2行有误，未导入任何学生');
    const box = alert.closest('[role="alert"]') as HTMLElement;
    expect(within(box).getByRole('cell', { name: '第3行' })).toBeVisible();
    expect(within(box).getByRole('cell', { name: '学号 2026070101 已存在' })).toBeVisible();
    expect(within(box).getByRole('cell', { name: '性别“男生”不正确，只能是男或女' })).toBeVisible();
    expect(imports).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: '从 Excel 导入学生' })).toBeVisible();
  });

  it('offers an administrator the year, class and student actions', async () => {
    host(true);
    renderScreen();
    await screen.findByRole('heading', { name: '演示学校' });
    expect(screen.getByRole('button', { name: '编辑信息' })).toBeVisible();
    expect(screen.getByRole('tab', { name: '操作日志' })).toBeVisible();
    await userEvent.click(screen.getByRole('tab', { name: '学年与班级' }));
    expect(await screen.findByRole('button', { name: '新建学年' })).toBeVisible();
    expect(await screen.findByRole('button', { name: '新建班级' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: '查看学生' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: '学生', selected: true })).toBeVisible());
    expect(await screen.findByRole('checkbox', { name: '选择李明' })).toBeVisible();
  });
});
