import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BASKET_POPOVER_WIDTH, EMPTY_BASKET, type Basket } from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { sessionChanged } from '../../../lib/api';
import { setSelection } from '../../../lib/selection';
import { clearToasts } from '../../../lib/toast';
import { basketOf, fakeHost, ok, signInAs, type Handler } from '../../../testing/fake-host';
import { BasketButton, BasketPanel } from './basket-popover';

const MATH = {
  id: 'p-math',
  stageId: 'stage-junior',
  subjectId: 'subj-math',
  stageName: '初中',
  subjectName: '数学',
};
const PHYS = {
  id: 'p-phys',
  stageId: 'stage-junior',
  subjectId: 'subj-phys',
  stageName: '初中',
  subjectName: '物理',
};
const FULL = basketOf([
  {
    ...MATH,
    rows: [
      { id: 'r1', typeId: 't1', dataName: '单选题', questionCount: 3 },
      { id: 'r2', typeId: 't5', dataName: '解答题', questionCount: 2 },
    ],
  },
  { ...PHYS, rows: [{ id: 'r3', typeId: 't9', dataName: '填空题', questionCount: 4 }] },
]);

const paperButton = () => screen.getByRole('button', { name: /试卷/ });

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderPanel(handlers: Record<string, Handler>, basket: Basket = FULL) {
  const host = fakeHost({ 'GET /teacher/paper/info/getQuestionBasket': () => ok(basket), ...handlers });
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <MemoryRouter initialEntries={['/paperlist']}>
        <Routes>
          <Route path="*" element={<BasketPanel />} />
        </Routes>
        <Where />
      </MemoryRouter>
      <Toaster />
    </SWRConfig>,
  );
  return host;
}

beforeEach(() => {
  signInAs();
  sessionChanged();
});
afterEach(() => {
  act(() => {
    clearToasts();
    setSelection(null);
  });
  vi.unstubAllGlobals();
});

describe('basket popover', () => {
  it('is 368 px wide and shows the paper matching the stage/subject selection', async () => {
    act(() => setSelection({ stageId: 'stage-junior', subjectId: 'subj-phys' }));
    renderPanel({});
    await waitFor(() => expect(paperButton()).toHaveTextContent('初中 - 物理'));
    expect(screen.getByTestId('basket-total')).toHaveTextContent('共 4 题');
    expect(screen.getByRole('cell', { name: '填空题' })).toBeInTheDocument();
    expect(screen.getByTestId('basket-total').closest('div[style]')).toHaveStyle({
      width: `${BASKET_POPOVER_WIDTH}px`,
    });
  });

  it('switches when the selection changes, and choosing a paper changes the selection', async () => {
    act(() => setSelection({ stageId: 'stage-junior', subjectId: 'subj-math' }));
    renderPanel({});
    await waitFor(() => expect(paperButton()).toHaveTextContent('初中 - 数学'));
    expect(screen.getByTestId('basket-total')).toHaveTextContent('共 5 题');
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual([expect.stringContaining('单选题3'), expect.stringContaining('解答题2')]);
    await userEvent.click(paperButton());
    await userEvent.click(await screen.findByRole('option', { name: '初中 - 物理' }));
    await waitFor(() => expect(paperButton()).toHaveTextContent('初中 - 物理'));
    expect(screen.getByTestId('basket-total')).toHaveTextContent('共 4 题');
  });

  it('shows 0 and nothing selected when the basket is empty', async () => {
    renderPanel({}, EMPTY_BASKET);
    expect(await screen.findByText('试题篮是空的')).toBeInTheDocument();
    expect(screen.getByTestId('basket-total')).toHaveTextContent('共 0 题');
    expect(paperButton()).toHaveTextContent('请选择试卷');
    expect(screen.getByRole('button', { name: '清空' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '进入组卷中心' })).toBeDisabled();
  });

  it('deletes a type row and takes the basket the answer carries in data', async () => {
    act(() => setSelection({ stageId: 'stage-junior', subjectId: 'subj-math' }));
    const after = basketOf([
      { ...MATH, rows: [{ id: 'r2', typeId: 't5', dataName: '解答题', questionCount: 2 }] },
      { ...PHYS, rows: [{ id: 'r3', typeId: 't9', dataName: '填空题', questionCount: 4 }] },
    ]);
    const { log } = renderPanel({ 'DELETE /teacher/paper/question/type/delQuestion/r1': () => ok(after) });
    await userEvent.click(await screen.findByRole('button', { name: '删除单选题' }));
    await waitFor(() => expect(screen.getByTestId('basket-total')).toHaveTextContent('共 2 题'));
    expect(screen.queryByRole('cell', { name: '单选题' })).toBeNull();
    expect(log.filter((r) => r.path === '/teacher/paper/info/getQuestionBasket')).toHaveLength(1);
  });

  it('keeps the basket when a delete answers without one', async () => {
    act(() => setSelection({ stageId: 'stage-junior', subjectId: 'subj-math' }));
    renderPanel({ 'DELETE /teacher/paper/question/type/delQuestion/r1': () => ok(null) });
    await userEvent.click(await screen.findByRole('button', { name: '删除单选题' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('basket-total')).toHaveTextContent('共 5 题');
  });

  it('clears the current paper and takes the basket the answer carries in message', async () => {
    act(() => setSelection({ stageId: 'stage-junior', subjectId: 'subj-math' }));
    const after = basketOf([
      { ...PHYS, rows: [{ id: 'r3', typeId: 't9', dataName: '填空题', questionCount: 4 }] },
    ]);
    const { log } = renderPanel({
      'DELETE /teacher/paper/info/p-math/clearBasket': () => ({
        body: { code: 200, message: after, data: null },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '清空' }));
    // The cleared paper is gone from the answer; the popover opens on the paper that still holds questions.
    expect(await screen.findByTestId('basket-fallback')).toHaveTextContent('初中 - 物理');
    expect(screen.getByTestId('basket-total')).toHaveTextContent('共 4 题');
    expect(screen.queryByRole('cell', { name: '单选题' })).toBeNull();
    expect(
      log.some((r) => r.method === 'DELETE' && r.path === '/teacher/paper/info/p-math/clearBasket'),
    ).toBe(true);
  });

  it('opens on the paper that holds questions when the selected stage/subject has none', async () => {
    act(() => setSelection({ stageId: 'stage-senior', subjectId: 'subj-chem' }));
    renderPanel({});
    expect(await screen.findByTestId('basket-fallback')).toHaveTextContent('初中 - 数学');
    expect(screen.getByTestId('basket-total')).toHaveTextContent('共 5 题');
    expect(screen.getByRole('cell', { name: '解答题' })).toBeInTheDocument();
    expect(screen.queryByText('试题篮是空的')).toBeNull();
  });

  it('enters the composition centre with paperId, subjectId, textbookId and type=2', async () => {
    act(() => setSelection({ stageId: 'stage-junior', subjectId: 'subj-math' }));
    renderPanel({});
    await userEvent.click(await screen.findByRole('button', { name: '进入组卷中心' }));
    expect(screen.getByTestId('where')).toHaveTextContent(
      '/edit?paperId=p-math&subjectId=subj-math&textbookId=tb1&type=2',
    );
  });

  it('shows an error from the host as a toast (SPEC §8)', async () => {
    act(() => setSelection({ stageId: 'stage-junior', subjectId: 'subj-math' }));
    renderPanel({
      'DELETE /teacher/paper/question/type/delQuestion/r1': () => ({
        status: 403,
        body: { code: 403, message: 'x', data: null },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '删除单选题' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('很抱歉，您暂无该操作权限');
  });
});

describe('basket button', () => {
  it('carries the count badge and opens the panel', async () => {
    fakeHost({ 'GET /teacher/paper/info/getQuestionBasket': () => ok(FULL) });
    render(
      <SWRConfig value={{ provider: () => new Map() }}>
        <MemoryRouter>
          <BasketButton />
        </MemoryRouter>
      </SWRConfig>,
    );
    const button = await screen.findByRole('button', { name: '试题篮，共 9 题' });
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('9');
    await userEvent.click(button);
    expect(await screen.findByRole('button', { name: '进入组卷中心' })).toBeInTheDocument();
  });
});
