import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HomeworkSummary, PublishHomework } from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { sessionChanged } from '../../../lib/session';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { HomeworkListScreen } from './homework-list';

const NOW = '2026-11-02T08:00:00.000Z';

function homework(over: Partial<HomeworkSummary> = {}): HomeworkSummary {
  return {
    id: 'h1',
    title: '第一单元作业',
    type: 'homework',
    typeName: '作业',
    state: 'toScan',
    stateName: '待扫描',
    paperId: 'p1',
    paperTitle: '第一单元',
    stageId: 'junior',
    stageName: '初中',
    subjectId: 'math',
    subjectName: '数学',
    schoolYearId: 'y1',
    classes: [{ id: 'c1', name: '七年级(1)班', studentCount: 40 }],
    startDate: '2026-11-02',
    dueDate: '2026-11-09',
    subjectTeacher: false,
    questionCount: 14,
    totalScore: 63,
    card: { cardId: 'p1', version: 1, identity: 'qr', size: 'A3', columns: 2, pageCount: 1 },
    createdBy: 'u1',
    createdByName: '王老师',
    mine: true,
    createdAt: NOW,
    updatedAt: NOW,
    permissions: { editCard: true, delete: true },
    ...over,
  };
}

const page = (records: HomeworkSummary[]) => ok({ records, total: records.length, page: 1, size: 10 });

const PAPERS = {
  records: [
    {
      id: 'p1',
      title: '第一单元',
      stageName: '初中',
      subjectName: '数学',
      questionCount: 14,
      totalScore: 63,
      status: 'final',
    },
    {
      id: 'p2',
      title: '空白试卷',
      stageName: '初中',
      subjectName: '数学',
      questionCount: 0,
      totalScore: 0,
      status: 'draft',
    },
  ],
  total: 2,
  page: 1,
  size: 50,
};

function host(records: HomeworkSummary[] = [homework()]) {
  const state = {
    records,
    published: [] as PublishHomework[],
    deleted: [] as string[],
    paperMarking: {
      homeworkId: 'h1',
      enabled: false,
      questions: [{ questionId: 'q13', number: '13', fullScore: 12, kind: 'tick', half: true }],
    },
    paperScores: [
      {
        id: 'ps1',
        questionId: 'q13',
        number: '13',
        fullScore: 12,
        studentId: 's1',
        studentName: '张三',
        className: '七年级(1)班',
        state: 'doubtful' as 'doubtful' | 'resolved',
        score: null as number | null,
        reason: 'multipleTicks',
        reasonText: '同一行勾了两个格子，请人工核对',
        cropUrl: '/teacher/paper-scores/ps1/crop',
      },
    ],
    resolved: [] as { action: string; score?: number }[],
  };
  const fake = fakeHost({
    'GET /teacher/homework/list': (req) =>
      page(
        req.query.get('state')
          ? state.records.filter((r) => r.state === req.query.get('state'))
          : state.records,
      ),
    'GET /system/stage/list': () =>
      ok([{ id: 'junior', name: '初中', subjects: [{ id: 'math', stageId: 'junior', name: '数学' }] }]),
    'GET /system/class': (req) =>
      req.query.get('type') === '1'
        ? ok([{ id: 'y1', name: '2026-2027学年', pid: null, isDefault: true }])
        : ok([
            { id: 'c1', name: '七年级(1)班', pid: 'y1', isDefault: false },
            { id: 'c2', name: '七年级(2)班', pid: 'y1', isDefault: false },
          ]),
    'GET /teacher/paper/mine': () => ok(PAPERS),
    'GET /teacher/paper/detail/p1': () => ok({ ...PAPERS.records[0] }),
    'POST /teacher/homework/publish': (req) => {
      const body = req.body as PublishHomework;
      state.published.push(body);
      const hw = homework({
        id: 'h2',
        title: body.title,
        classes: [{ id: 'c1', name: '七年级(1)班', studentCount: 40 }],
      });
      state.records = [hw, ...state.records];
      return ok({ ...hw, paper: {} });
    },
    'GET /teacher/homework/h1/paper-marking': () => ok(state.paperMarking),
    'PUT /teacher/homework/h1/paper-marking': (req) => {
      state.paperMarking = { ...state.paperMarking, enabled: (req.body as { enabled: boolean }).enabled };
      return ok(state.paperMarking);
    },
    'GET /teacher/homework/h1/paper-scores': (req) =>
      ok(
        req.query.get('state') === 'doubtful'
          ? state.paperScores.filter((s) => s.state === 'doubtful')
          : state.paperScores,
      ),
    'POST /teacher/paper-scores/ps1/resolve': (req) => {
      const body = req.body as { action: string; score?: number };
      state.resolved.push(body);
      if (body.action === 'enterScore' && (body.score ?? 0) > 12)
        return { status: 400, body: { code: 400, message: '得分不能超过该题满分', data: null } };
      const done = { ...state.paperScores[0]!, state: 'resolved' as const, score: body.score ?? null };
      state.paperScores = [done];
      return ok(done);
    },
    'DELETE /teacher/homework/detail/h1': () => {
      state.deleted.push('h1');
      state.records = state.records.filter((r) => r.id !== 'h1');
      return ok(null);
    },
  });
  return { state, ...fake };
}

function renderList(path = '/paperlist') {
  const printed: string[] = [];
  const router = createMemoryRouter(
    [
      {
        path: '/paperlist',
        element: (
          <HomeworkListScreen
            orgId="org1"
            renderPrintDialog={(hw) => {
              printed.push(hw.id);
              return <p>print dialog of {hw.title}</p>;
            }}
          />
        ),
      },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <RouterProvider router={router} />
      <Toaster />
    </SWRConfig>,
  );
  return { router, printed };
}

beforeEach(() => {
  signInAs();
  sessionChanged();
});
afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

describe('the homework list', () => {
  it('shows each homework with its state, classes, card and the actions it permits', async () => {
    host([
      homework(),
      homework({
        id: 'h3',
        title: '别人的作业',
        mine: false,
        createdByName: '李老师',
        state: 'marking',
        stateName: '阅卷中',
        permissions: { editCard: false, delete: false },
      }),
    ]);
    const user = userEvent.setup();
    renderList();
    const mine = await screen.findByRole('article', { name: '第一单元作业' });
    expect(within(mine).getByTestId('homework-state')).toHaveTextContent('待扫描');
    expect(mine).toHaveTextContent('七年级(1)班（共 40 人）');
    expect(mine).toHaveTextContent('答题卡：A3 双栏 · 1 页 · 第 1 版 · 二维码个性化');
    expect(within(mine).getByRole('link', { name: '扫描' })).toHaveAttribute('href', '/scan?homeworkId=h1');
    expect(within(mine).getByRole('link', { name: '阅卷' })).toHaveAttribute(
      'href',
      '/correct?homeworkId=h1',
    );
    expect(within(mine).getByRole('link', { name: '分析' })).toHaveAttribute(
      'href',
      '/analysis/grade?homeworkId=h1',
    );

    const theirs = screen.getByRole('article', { name: '别人的作业' });
    expect(theirs).toHaveTextContent('发布人：李老师');
    await user.click(within(theirs).getByRole('button', { name: '别人的作业的更多操作' }));
    expect(await screen.findByRole('menuitem', { name: '打印试卷' })).toHaveAttribute(
      'href',
      '/printing?homeworkId=h3',
    );
    expect(screen.queryByRole('menuitem', { name: '删除' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: '设计答题卡' })).toBeNull();
  });

  it('opens the print dialog of a homework', async () => {
    host();
    const user = userEvent.setup();
    const { printed } = renderList();
    const row = await screen.findByRole('article', { name: '第一单元作业' });
    await user.click(within(row).getByRole('button', { name: '打印答题卡' }));
    expect(screen.getByText('print dialog of 第一单元作业')).toBeInTheDocument();
    expect(printed).toContain('h1');
  });

  it('deletes only after confirmation', async () => {
    const { state } = host();
    const user = userEvent.setup();
    renderList();
    const row = await screen.findByRole('article', { name: '第一单元作业' });
    await user.click(within(row).getByRole('button', { name: '第一单元作业的更多操作' }));
    await user.click(await screen.findByRole('menuitem', { name: '删除' }));
    const dialog = await screen.findByRole('dialog', { name: '删除作业' });
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(state.deleted).toEqual([]);

    await user.click(within(row).getByRole('button', { name: '第一单元作业的更多操作' }));
    await user.click(await screen.findByRole('menuitem', { name: '删除' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: '删除作业' })).getByRole('button', { name: '删除' }),
    );
    await screen.findByText('已删除“第一单元作业”');
    expect(state.deleted).toEqual(['h1']);
    expect(await screen.findByText('还没有发布作业')).toBeInTheDocument();
  });

  it('filters by state and explains an empty result', async () => {
    const { log } = host();
    const user = userEvent.setup();
    renderList();
    await screen.findByRole('article', { name: '第一单元作业' });
    await user.click(screen.getByRole('button', { name: /^状态/ }));
    await user.click(await screen.findByRole('option', { name: '已完成' }));
    expect(await screen.findByText('没有符合条件的作业')).toBeInTheDocument();
    expect(log.some((r) => r.path === '/teacher/homework/list' && r.query.get('state') === 'done')).toBe(
      true,
    );
  });

  it('explains how to publish the first homework when there is none', async () => {
    host([]);
    renderList();
    expect(await screen.findByText('还没有发布作业')).toBeInTheDocument();
    expect(screen.getByText(/在“智能组卷”中选题组卷/)).toBeInTheDocument();
  });

  it('publishes a paper picked from 我的试卷 to a class of the default year', async () => {
    const { state } = host([]);
    const user = userEvent.setup();
    renderList();
    await screen.findByText('还没有发布作业');
    await user.click(screen.getAllByRole('button', { name: '发布作业' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: '发布作业' });
    // An empty paper cannot be chosen.
    expect(within(dialog).getByRole('radio', { name: /空白试卷/ })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: '发布' }));
    expect(within(dialog).getByText('请选择要发布的试卷')).toBeInTheDocument();

    await user.click(await within(dialog).findByRole('radio', { name: /第一单元/ }));
    expect(within(dialog).getByRole('textbox', { name: '作业名称' })).toHaveValue('第一单元');
    await user.click(within(dialog).getByRole('button', { name: '发布' }));
    expect(within(dialog).getByText('请选择班级')).toBeInTheDocument();

    await user.click(await within(dialog).findByRole('checkbox', { name: '七年级(1)班' }));
    await user.click(within(dialog).getByRole('radio', { name: '考试' }));
    await user.click(within(dialog).getByRole('radio', { name: '是' }));
    await user.click(within(dialog).getByRole('button', { name: '发布' }));
    await screen.findByText('已发布“第一单元”，可以在列表中打印答题卡了');
    expect(state.published).toHaveLength(1);
    expect(state.published[0]).toMatchObject({
      paperId: 'p1',
      title: '第一单元',
      type: 'test',
      classIds: ['c1'],
      subjectTeacher: true,
    });
    expect(state.published[0]!.dueDate >= state.published[0]!.startDate).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '发布作业' })).toBeNull());
    expect(await screen.findByRole('article', { name: '第一单元' })).toBeInTheDocument();
  });

  it('opens 发布作业 with the paper handed in by /paperlist?publish=', async () => {
    host([]);
    const { router } = renderList('/paperlist?publish=p1');
    const dialog = await screen.findByRole('dialog', { name: '发布作业' });
    expect(await within(dialog).findByText('第一单元')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: '作业名称' })).toHaveValue('第一单元'),
    );
    expect(router.state.location.search).toBe('');
  });

  it('turns 纸上批阅 on and lets a person type the score of a doubtful score box', async () => {
    const { state, log } = host();
    const user = userEvent.setup();
    renderList();
    const row = await screen.findByRole('article', { name: '第一单元作业' });
    await user.click(within(row).getByRole('button', { name: '第一单元作业的更多操作' }));
    await user.click(await screen.findByRole('menuitem', { name: '纸上批阅' }));
    const dialog = await screen.findByRole('dialog', { name: '纸上批阅 · 第一单元作业' });
    expect(
      await within(dialog).findByText('印有打分框的题：第13题（12分，勾选格，可打半分）'),
    ).toBeInTheDocument();
    const toggle = within(dialog).getByRole('switch', { name: '纸上批阅' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByText('已开启纸上批阅')).toBeInTheDocument();
    expect(state.paperMarking.enabled).toBe(true);
    await waitFor(() => expect(within(dialog).getByRole('switch', { name: '纸上批阅' })).toBeChecked());

    // The doubtful box, with the teacher's crop fetched with the session's token and the reason in words.
    const box = await within(dialog).findByTestId('paper-score');
    expect(box).toHaveTextContent('七年级(1)班 张三 · 第13题（满分12分）');
    expect(box).toHaveTextContent('待人工核对');
    expect(box).toHaveTextContent('同一行勾了两个格子，请人工核对');
    await waitFor(() =>
      expect(log.find((r) => r.path === '/teacher/paper-scores/ps1/crop')?.headers).toMatchObject({
        authorization: 'Bearer test-access',
      }),
    );
    const input = within(box).getByRole('textbox', { name: '张三第13题的得分' });
    await user.click(within(box).getByRole('button', { name: '确认得分' }));
    expect(within(box).getByText('请输入得分（整数或0.5分）')).toBeInTheDocument();
    expect(state.resolved).toEqual([]);
    await user.type(input, '13');
    await user.click(within(box).getByRole('button', { name: '确认得分' }));
    expect(await screen.findByText('得分不能超过该题满分')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '9.5{Enter}');
    expect(await screen.findByText('已录入张三的得分：9.5分')).toBeInTheDocument();
    expect(state.resolved).toEqual([
      { action: 'enterScore', score: 13 },
      { action: 'enterScore', score: 9.5 },
    ]);
    expect(await within(dialog).findByText('没有需要核对的打分框')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: '全部打分框' }));
    const all = await within(dialog).findByTestId('paper-score');
    expect(all).toHaveTextContent('已人工录入');
    expect(all).toHaveTextContent('9.5分');
  });

  it('says how to add score boxes when the card has none', async () => {
    const { state } = host();
    state.paperMarking = { ...state.paperMarking, questions: [] };
    const user = userEvent.setup();
    renderList();
    const row = await screen.findByRole('article', { name: '第一单元作业' });
    await user.click(within(row).getByRole('button', { name: '第一单元作业的更多操作' }));
    await user.click(await screen.findByRole('menuitem', { name: '纸上批阅' }));
    const dialog = await screen.findByRole('dialog', { name: '纸上批阅 · 第一单元作业' });
    expect(await within(dialog).findByText('这份作业的答题卡还没有打分框')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: '设计答题卡' })).toHaveAttribute(
      'href',
      '/answerCard?homeworkId=h1',
    );
    expect(within(dialog).queryByRole('switch')).toBeNull();
  });
});
