import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaperDocument, SavePaper } from '@zhzy/contracts';
import { sessionChanged } from '../../../lib/session';
import { clearToasts } from '../../../lib/toast';
import { Toaster } from '../../../components/ui/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { TWO_SECTIONS, paperDoc } from '../testing/paper';
import { ComposeScreen } from './compose-screen';

function renderEdit(path = '/edit?paperId=p1') {
  const router = createMemoryRouter(
    [
      { path: '/edit', element: <ComposeScreen /> },
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
  return router;
}

/** A host holding one paper: saves bump the version; `conflict` answers the next save with 409. */
function host(doc: PaperDocument = TWO_SECTIONS()) {
  const state = { doc, saves: [] as SavePaper[], conflict: false };
  const fake = fakeHost({
    'GET /teacher/paper/detail/p1': () => ok(state.doc),
    'GET /teacher/question/types': () => ok([]),
    'PUT /teacher/paper/detail/p1': (req) => {
      const body = req.body as SavePaper;
      state.saves.push(body);
      if (state.conflict || body.version !== state.doc.version) {
        return {
          status: 409,
          body: { code: 409, message: '试卷已在其他页面或设备上修改，请刷新后再保存', data: null },
        };
      }
      state.doc = paperDoc(
        body.sections.map((s, i) => ({
          id: s.id ?? `new-${i}`,
          title: s.title,
          typeId: s.typeId ?? 'qt-x',
          defaultScore: s.defaultScore,
          items: s.items.map((it) => ({ q: it.questionId, score: it.score ?? null })),
        })),
        { version: state.doc.version + 1, title: body.title, status: body.status },
      );
      return ok(state.doc);
    },
  });
  return { state, ...fake };
}

const itemIds = () => screen.getAllByTestId('paper-item').map((el) => el.getAttribute('data-question-id'));
const total = () => screen.getByTestId('paper-total').textContent;

beforeEach(() => {
  signInAs();
  sessionChanged();
});
afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

describe('the composition centre', () => {
  it('reorders by keyboard alone: move buttons keep the focus and announce the new place', async () => {
    host();
    const user = userEvent.setup();
    renderEdit();
    await screen.findByRole('button', { name: '下移第1题' });
    expect(itemIds()).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);

    screen.getByRole('button', { name: '下移第1题' }).focus();
    await user.keyboard('{Enter}');
    expect(itemIds()).toEqual(['q2', 'q1', 'q3', 'q4', 'q5']);
    // The question keeps its button under the focus; it is question 2 now.
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('下移第2题'));
    await user.keyboard('{Enter}');
    expect(itemIds()).toEqual(['q2', 'q3', 'q1', 'q4', 'q5']);
    // At the end of its section: the focus moves to 上移, which still works.
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('上移第3题'));
    expect(screen.getByText('已移动，现在是第3题')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '上移第二大题' }));
    expect(itemIds()).toEqual(['q4', 'q5', 'q2', 'q3', 'q1']);
    expect(screen.getAllByTestId('paper-section')[0]).toHaveAccessibleName(
      '一、written（本大题共 2 小题，每小题 10 分，共 20 分）',
    );
  });

  it('keeps the totals right while scores are typed, per question and per section', async () => {
    host();
    const user = userEvent.setup();
    renderEdit();
    const q2 = await screen.findByRole('textbox', { name: '第2题分值' });
    expect(total()).toBe('29');

    await user.click(q2);
    await user.keyboard('{Control>}a{/Control}5');
    expect(total()).toBe('31');
    expect(screen.getAllByTestId('paper-section')[0]).toHaveAccessibleName(
      '一、single（本大题共 3 小题，共 11 分）',
    );

    const each = screen.getByRole('textbox', { name: '第一大题每小题分值' });
    await user.click(each);
    await user.keyboard('{Control>}a{/Control}2.5');
    // q1 and q3 follow 每小题 (2.5 each), q2 keeps 5.
    expect(total()).toBe('30');

    // An invalid value is marked and never counted: the last valid one (2.2) stays, and shows again on leaving.
    await user.clear(q2);
    await user.type(q2, '2.25');
    expect(q2).toHaveAttribute('aria-invalid', 'true');
    expect(total()).toBe('27.2');
    await user.tab();
    expect(q2).toHaveValue('2.2');
    expect(q2).not.toHaveAttribute('aria-invalid');

    // ↑ adds a point.
    const q4 = screen.getByRole('textbox', { name: '第4题分值' });
    await user.click(q4);
    await user.keyboard('{ArrowUp}');
    expect(total()).toBe('28.2');
  });

  it('undoes and redoes with the buttons and with Ctrl+Z / Ctrl+Shift+Z', async () => {
    host();
    const user = userEvent.setup();
    renderEdit();
    await user.click(await screen.findByRole('button', { name: '删除第1题' }));
    expect(itemIds()).toEqual(['q2', 'q3', 'q4', 'q5']);
    expect(total()).toBe('26');
    expect(screen.getByTestId('save-state')).toHaveTextContent('有未保存的修改');

    await user.keyboard('{Control>}z{/Control}');
    expect(itemIds()).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    expect(screen.getByTestId('save-state')).toHaveTextContent('已全部保存');
    await user.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    expect(itemIds()).toEqual(['q2', 'q3', 'q4', 'q5']);
    await user.click(screen.getByRole('button', { name: '撤销' }));
    expect(total()).toBe('29');
    await user.click(screen.getByRole('button', { name: '重做' }));
    expect(total()).toBe('26');
  });

  it('saves the whole document with its version, as draft or final', async () => {
    const { state } = host();
    const user = userEvent.setup();
    renderEdit();
    await user.click(await screen.findByRole('button', { name: '下移第1题' }));
    await user.click(screen.getByRole('button', { name: '保存定稿' }));
    await screen.findByText('已保存为定稿');
    expect(state.saves).toHaveLength(1);
    expect(state.saves[0]).toMatchObject({
      version: 3,
      status: 'final',
      sections: [
        { id: 's1', items: [{ questionId: 'q2' }, { questionId: 'q1' }, { questionId: 'q3' }] },
        { id: 's2' },
      ],
    });
    expect(screen.getByTestId('save-state')).toHaveTextContent('已全部保存');
    expect(screen.getByText('定稿')).toBeInTheDocument();

    // The next save carries the new version.
    await user.click(screen.getByRole('button', { name: '下移第1题' }));
    await user.click(screen.getByRole('button', { name: '保存草稿' }));
    await screen.findByText('已保存草稿');
    expect(state.saves[1]).toMatchObject({ version: 4, status: 'draft' });
  });

  it('answers a 409 with the host’s message and offers to reload', async () => {
    const { state } = host();
    const user = userEvent.setup();
    renderEdit();
    await user.click(await screen.findByRole('button', { name: '删除第5题' }));
    state.conflict = true;
    await user.click(screen.getByRole('button', { name: '保存草稿' }));
    const dialog = await screen.findByRole('dialog', { name: '试卷已在别处修改' });
    expect(within(dialog).getByText('试卷已在其他页面或设备上修改，请刷新后再保存')).toBeInTheDocument();
    state.conflict = false;
    state.doc = paperDoc(
      [{ id: 's1', title: 'single', typeId: 'qt-1', defaultScore: 3, items: [{ q: 'q1' }] }],
      { version: 9 },
    );
    await user.click(within(dialog).getByRole('button', { name: '重新加载' }));
    await waitFor(() => expect(itemIds()).toEqual(['q1']));
    expect(total()).toBe('3');
  });

  it('says what to do when no paper is named', async () => {
    host();
    renderEdit('/edit');
    expect(await screen.findByRole('heading', { level: 1, name: '组卷中心' })).toBeInTheDocument();
    expect(screen.getByText('还没有打开试卷')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '去选题' })).toHaveAttribute(
      'href',
      '/rehearse/SelectQuestionPaper',
    );
  });

  it('composes from the basket with type=2, then names the paper itself in the URL', async () => {
    const composed = { ...TWO_SECTIONS(), id: 'p1' };
    fakeHost({
      'POST /teacher/paper/compose': () => ok(composed),
      'GET /teacher/paper/detail/p1': () => ok(composed),
      'GET /teacher/question/types': () => ok([]),
    });
    const router = renderEdit('/edit?paperId=bp1&subjectId=subj-1&textbookId=&type=2');
    await screen.findByRole('button', { name: '下移第1题' });
    await waitFor(() => expect(router.state.location.search).toBe('?paperId=p1'));
  });
});
