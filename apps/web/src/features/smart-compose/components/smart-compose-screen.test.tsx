import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SmartCompose, SmartResult } from '@zhzy/contracts';
import { setSelection } from '../../../lib/selection';
import { sessionChanged } from '../../../lib/session';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { SmartComposeScreen } from './smart-compose-screen';

const STAGES = [{ id: 'st', name: '初中', subjects: [{ id: 'm', stageId: 'st', name: '数学' }] }];
const TYPES = [
  { id: 't1', subjectId: 'm', name: '单选题', objective: true },
  { id: 't4', subjectId: 'm', name: '填空题', objective: false },
  { id: 't5', subjectId: 'm', name: '解答题', objective: false },
  { id: 't3', subjectId: 'm', name: '判断题', objective: true },
];
const CHAPTERS = [
  {
    id: 'c1',
    name: '第一章 有理数',
    children: [
      { id: 'c1-1', name: '1.1 正数和负数', children: [] },
      { id: 'c1-2', name: '1.2 数轴', children: [] },
    ],
  },
  { id: 'c2', name: '第二章 整式', children: [] },
];

const q = (id: string, difficulty: number) => ({
  id,
  typeId: 't1',
  typeName: '单选题',
  difficulty,
  stem: `<p>题 ${id}</p>`,
  options: [],
  answer: 'A',
  analysis: '',
  owner: 'system',
  knowledgePoints: [{ id: 'k1', name: '正数和负数' }],
});

function result(seed: number, paper: SmartResult['paper'] = null): SmartResult {
  return {
    selections: [
      {
        typeId: 't1',
        typeName: '单选题',
        requested: 2,
        score: 3,
        questions: [q(`a${seed}`, 3), q(`b${seed}`, 4)],
      },
    ],
    targetDifficulty: 0.9,
    achievedDifficulty: 0.62,
    withinTolerance: false,
    coverage: { covered: [{ id: 'k1', name: '正数和负数' }], missing: [{ id: 'k2', name: '数轴' }] },
    explanations: ['所选范围内的试题达不到目标难度 0.90，已选出最接近的组合，难度为 0.62'],
    totalScore: 6,
    paper,
  };
}

function host() {
  const bodies: SmartCompose[] = [];
  const fake = fakeHost({
    'GET /system/stage/list': () => ok(STAGES),
    'GET /teacher/textbook/list': () =>
      ok([{ id: 'tb', subjectId: 'm', publisher: '人教版', name: '七年级上册' }]),
    'GET /teacher/textbook/booknode': () => ok(CHAPTERS),
    'GET /teacher/question/types': () => ok(TYPES),
    'GET /system/class': (req) =>
      ok(
        req.query.get('type') === '1'
          ? [{ id: 'y1', name: '2026-2027学年', pid: null, isDefault: true }]
          : [
              { id: 'c-a', name: '七年级(1)班', pid: 'y1', isDefault: false },
              { id: 'c-b', name: '七年级(2)班', pid: 'y1', isDefault: false },
            ],
      ),
    'POST /teacher/paper/smart': (req) => {
      const body = req.body as SmartCompose;
      bodies.push(body);
      return ok(result(body.seed, body.createPaper ? ({ id: 'new-paper' } as SmartResult['paper']) : null));
    },
  });
  return { bodies, ...fake };
}

function renderScreen() {
  const router = createMemoryRouter(
    [
      { path: '/rehearse/intellectTestPaper', element: <SmartComposeScreen /> },
      { path: '/edit', element: <p>edit page</p> },
    ],
    { initialEntries: ['/rehearse/intellectTestPaper'] },
  );
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <RouterProvider router={router} />
    </SWRConfig>,
  );
  return router;
}

beforeEach(() => {
  signInAs();
  sessionChanged();
  setSelection({ stageId: 'st', subjectId: 'm' });
});
afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

describe('smart composition form', () => {
  it('starts from three types of the subject and keeps the totals of the rows', async () => {
    host();
    const user = userEvent.setup();
    renderScreen();
    const count = await screen.findByRole('textbox', { name: '单选题题量' });
    // 单选题 8 × 3, 填空题 6 × 4, 解答题 4 × 10.
    expect(screen.getByTestId('smart-totals')).toHaveTextContent('共 18 题，满分 88 分');
    await user.clear(count);
    await user.type(count, '10');
    expect(screen.getByTestId('smart-totals')).toHaveTextContent('共 20 题，满分 94 分');
    await user.click(screen.getByRole('button', { name: '删除解答题' }));
    expect(screen.getByTestId('smart-totals')).toHaveTextContent('共 16 题，满分 54 分');
    await user.click(screen.getByRole('button', { name: '添加题型' }));
    expect(await screen.findByRole('textbox', { name: '解答题题量' })).toHaveValue('2');
  });

  it('checks the rows before asking the host', async () => {
    const { bodies } = host();
    const user = userEvent.setup();
    renderScreen();
    const count = await screen.findByRole('textbox', { name: '单选题题量' });
    await user.clear(count);
    await user.type(count, '0');
    expect(count).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: '预览组卷结果' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('题量至少为1');
    expect(bodies).toHaveLength(0);
  });

  it('sends chapters, types, difficulty and classes; shows what could not be met; 换一批 takes the next seed', async () => {
    const { bodies } = host();
    const user = userEvent.setup();
    renderScreen();
    await screen.findByRole('textbox', { name: '单选题题量' });
    await user.click(await screen.findByRole('checkbox', { name: '第一章 有理数' }));
    expect(screen.getByRole('checkbox', { name: '1.1 正数和负数' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: '1.2 数轴' }));
    // Unchecking one section leaves the chapter half checked: only 1.1 is sent.
    expect(screen.getByRole('checkbox', { name: '第一章 有理数' })).not.toBeChecked();
    const slider = screen.getByRole('slider', { name: '难度系数（得分率，越高越容易）' });
    fireEvent.change(slider, { target: { value: '0.9' } });
    // ADR 0045: the 难度系数 is a score rate, so 0.90 reads 容易 (it read 困难 on the old scale).
    expect(slider).toHaveAttribute('aria-valuetext', '0.90 容易');
    await user.click(await screen.findByRole('checkbox', { name: '七年级(2)班' }));
    await user.click(screen.getByRole('button', { name: '预览组卷结果' }));

    await screen.findByText('组卷结果预览');
    expect(bodies[0]).toMatchObject({
      subjectId: 'm',
      booknodeIds: ['c1-1'],
      knowledgePointIds: [],
      types: [
        { typeId: 't1', count: 8, score: 3 },
        { typeId: 't4', count: 6, score: 4 },
        { typeId: 't5', count: 4, score: 10 },
      ],
      difficulty: 0.9,
      classIds: ['c-b'],
      seed: 1,
      createPaper: false,
    });
    const explanations = screen.getByRole('list', { name: '未能满足的要求' });
    expect(within(explanations).getByText(/达不到目标难度 0.90/)).toBeInTheDocument();
    expect(screen.getByText('1 / 2')).toBeInTheDocument();
    expect(screen.getByText('题 a1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '换一批' }));
    await screen.findByText('题 a2');
    expect(bodies[1]).toMatchObject({ seed: 2, createPaper: false });
  });

  it('generates the paper with the same seed and opens it in /edit', async () => {
    const { bodies } = host();
    const user = userEvent.setup();
    const router = renderScreen();
    await screen.findByRole('textbox', { name: '单选题题量' });
    await user.click(screen.getByRole('button', { name: '预览组卷结果' }));
    await screen.findByText('题 a1');
    await user.click(screen.getByRole('button', { name: '生成试卷并编辑' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/edit'));
    expect(router.state.location.search).toBe('?paperId=new-paper');
    expect(bodies[1]).toMatchObject({ seed: 1, createPaper: true });
  });
});
