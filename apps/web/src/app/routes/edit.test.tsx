import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_BASKET, type SavePaper } from '@zhzy/contracts';
import { Toaster } from '../../components/ui/toast';
import { BasketButton } from '../../features/basket/components/basket-popover';
import { paperDoc } from '../../features/compose/testing/paper';
import { sessionChanged } from '../../lib/session';
import { clearToasts } from '../../lib/toast';
import { basketOf, fakeHost, ok, signInAs } from '../../testing/fake-host';
import { Component as EditRoute } from './edit';

const MATH = {
  id: 'bp-math',
  stageId: 'st-j',
  subjectId: 'subj-math',
  stageName: '初中',
  subjectName: '数学',
};
const PHYS = {
  id: 'bp-phys',
  stageId: 'st-j',
  subjectId: 'subj-phys',
  stageName: '初中',
  subjectName: '物理',
};
const MATH_ROWS = [{ id: 'r1', typeId: 'qt-1', dataName: '单选题', questionCount: 3 }];
const PHYS_ROWS = [{ id: 'r2', typeId: 'qt-9', dataName: '填空题', questionCount: 4 }];

/** A host with a basket of 数学 (3) and 物理 (4); /edit composes the 数学 basket paper into paper p1. */
function host() {
  const state = {
    basket: basketOf([
      { ...MATH, rows: MATH_ROWS },
      { ...PHYS, rows: PHYS_ROWS },
    ]),
    doc: paperDoc(
      [
        {
          id: 's1',
          title: '单选题',
          typeId: 'qt-1',
          defaultScore: 3,
          items: [{ q: 'q1' }, { q: 'q2' }, { q: 'q3' }],
        },
      ],
      { id: 'p1', basketPaperId: MATH.id },
    ),
    cleared: [] as string[],
    saves: 0,
  };
  fakeHost({
    'GET /teacher/paper/info/getQuestionBasket': () => ok(state.basket),
    'POST /teacher/paper/compose': () => ok(state.doc),
    'GET /teacher/paper/detail/p1': () => ok(state.doc),
    'GET /teacher/question/types': () => ok([]),
    'PUT /teacher/paper/detail/p1': (req) => {
      const body = req.body as SavePaper;
      state.saves++;
      state.doc = { ...state.doc, version: state.doc.version + 1, status: body.status, title: body.title };
      return ok(state.doc);
    },
    [`DELETE /teacher/paper/info/${MATH.id}/clearBasket`]: () => {
      state.cleared.push(MATH.id);
      state.basket = basketOf([{ ...PHYS, rows: PHYS_ROWS }]);
      return { body: { code: 200, message: state.basket, data: null } };
    },
    [`DELETE /teacher/paper/info/${PHYS.id}/clearBasket`]: () => {
      state.cleared.push(PHYS.id);
      state.basket = EMPTY_BASKET;
      return { body: { code: 200, message: state.basket, data: null } };
    },
  });
  return state;
}

function renderEdit(path: string) {
  const router = createMemoryRouter([{ path: '/edit', element: <EditRoute /> }], { initialEntries: [path] });
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <BasketButton />
      <RouterProvider router={router} />
      <Toaster />
    </SWRConfig>,
  );
  return router;
}

beforeEach(() => {
  signInAs();
  sessionChanged();
});
afterEach(() => clearToasts());

describe('/edit with a paper composed from the basket', () => {
  it('empties that basket paper once the paper is saved, and the basket badge follows', async () => {
    const user = userEvent.setup();
    const state = host();
    const router = renderEdit(`/edit?paperId=${MATH.id}&type=2`);
    await screen.findByRole('button', { name: '试题篮，共 7 题' });
    await waitFor(() => expect(router.state.location.search).toBe('?paperId=p1'));
    // Opening the composition leaves the basket alone.
    expect(state.cleared).toEqual([]);
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('7');

    await user.click(await screen.findByRole('button', { name: '保存草稿' }));
    await screen.findByText('已保存草稿');
    await screen.findByRole('button', { name: '试题篮，共 4 题' });
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('4');
    // Only the basket paper this paper came from; the 物理 questions stay.
    expect(state.cleared).toEqual([MATH.id]);

    // Saving again (定稿) has nothing more to clear.
    await user.click(screen.getByRole('button', { name: '保存定稿' }));
    await screen.findByText('已保存为定稿');
    expect(state.saves).toBe(2);
    expect(state.cleared).toEqual([MATH.id]);
  });

  it('leaves the basket alone when a paper not composed from it is saved', async () => {
    const user = userEvent.setup();
    const state = host();
    state.doc = { ...state.doc, basketPaperId: null };
    renderEdit('/edit?paperId=p1');
    await screen.findByRole('button', { name: '试题篮，共 7 题' });
    await user.click(await screen.findByRole('button', { name: '保存草稿' }));
    await screen.findByText('已保存草稿');
    expect(state.saves).toBe(1);
    expect(state.cleared).toEqual([]);
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('7');
  });
});
