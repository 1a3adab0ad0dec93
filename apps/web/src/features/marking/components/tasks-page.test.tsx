import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MarkTask } from '@zhzy/contracts';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { TasksPage } from './tasks-page';

const task = (homeworkId: string, homeworkTitle: string): MarkTask => ({
  homeworkId,
  homeworkTitle,
  subjectName: '数学',
  createdAt: '2026-11-02T08:00:00.000Z',
  mine: false,
  blocks: [
    {
      id: `${homeworkId}-b1`,
      title: '第9题',
      mode: 'single',
      fullScore: 10,
      progress: { items: 40, done: 5, marks: 5, marksNeeded: 40, arbitration: 0, problems: 0, expected: 40 },
      myMarks: 5,
      myRemaining: 35,
      myArbitration: 0,
      canMark: true,
    },
  ],
});

const TASKS = [
  task('h1', '有理数 单元作业'),
  task('h2', '一元一次方程 课后作业'),
  task('h3', '期中模拟测试'),
];

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/correct', element: <TasksPage /> }], {
    initialEntries: [url],
  });
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <RouterProvider router={router} />
    </SWRConfig>,
  );
  return router;
}

const shown = () => screen.queryAllByRole('region').map((r) => r.getAttribute('aria-label'));

beforeEach(() => {
  signInAs();
  fakeHost({ 'GET /teacher/mark/tasks': () => ok(TASKS) });
});

describe('the marking tasks page', () => {
  it('lists every task without a homework in the address', async () => {
    renderAt('/correct');
    await screen.findByRole('region', { name: '期中模拟测试' });
    expect(shown()).toEqual(['有理数 单元作业', '一元一次方程 课后作业', '期中模拟测试']);
    expect(screen.queryByRole('button', { name: '显示全部阅卷任务' })).toBeNull();
  });

  it('opened from 阅卷 of a homework, shows only its tasks, and 显示全部阅卷任务 shows them all again', async () => {
    const user = userEvent.setup();
    const router = renderAt('/correct?homeworkId=h2');
    const region = await screen.findByRole('region', { name: '一元一次方程 课后作业' });
    expect(shown()).toEqual(['一元一次方程 课后作业']);
    expect(
      within(region).getByRole('link', { name: '一元一次方程 课后作业 第9题 继续阅卷' }),
    ).toHaveAttribute('href', '/write?block=h2-b1');
    expect(screen.getByTestId('task-filter')).toHaveTextContent('只显示“一元一次方程 课后作业”的阅卷任务');

    await user.click(screen.getByRole('button', { name: '显示全部阅卷任务' }));
    await screen.findByRole('region', { name: '期中模拟测试' });
    expect(shown()).toEqual(['有理数 单元作业', '一元一次方程 课后作业', '期中模拟测试']);
    expect(router.state.location.search).toBe('');
  });

  it('says so when the homework has no task of mine, and still offers all of them', async () => {
    const user = userEvent.setup();
    renderAt('/correct?homeworkId=h9');
    await screen.findByText('答题卡扫描并识别后，分配给您的题块会出现在这里。');
    expect(shown()).toEqual([]);
    await user.click(screen.getByRole('button', { name: '显示全部阅卷任务' }));
    await screen.findByRole('region', { name: '有理数 单元作业' });
    expect(shown()).toHaveLength(3);
  });
});
