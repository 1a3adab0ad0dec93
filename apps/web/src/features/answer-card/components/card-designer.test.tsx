import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { layoutCard } from '@zhzy/answer-card';
import { CardSettingsSchema, type CardPaper, type CardSettings, type PaperCard } from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { sessionChanged } from '../../../lib/session';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { CardDesigner } from './card-designer';

const PAPER: CardPaper = {
  id: 'p1',
  title: '七年级数学 单元测试',
  sections: [
    {
      title: '一、单选题',
      questions: Array.from({ length: 10 }, (_, i) => ({
        id: `s${i + 1}`,
        number: String(i + 1),
        score: 3,
        kind: 'single' as const,
        options: 4,
      })),
    },
    {
      title: '二、填空题',
      questions: [11, 12].map((n) => ({
        id: `b${n}`,
        number: String(n),
        score: 3,
        kind: 'blank' as const,
        blanks: 1,
      })),
    },
    {
      title: '三、解答题',
      questions: [13, 14, 15].map((n) => ({
        id: `w${n}`,
        number: String(n),
        score: 10,
        kind: 'written' as const,
      })),
    },
    {
      title: '四、选做题',
      questions: [16, 17].map((n) => ({
        id: `o${n}`,
        number: String(n),
        score: 10,
        kind: 'optional' as const,
        optionalGroup: 'g1',
      })),
    },
  ],
};

function paperCard(settings: Partial<CardSettings> = {}, editable = true): PaperCard {
  const s = CardSettingsSchema.parse(settings);
  return {
    paperId: 'p1',
    cardId: 'p1',
    settings: s,
    saved: false,
    updatedAt: null,
    latestVersion: 0,
    editable,
    paper: PAPER,
    layout: layoutCard(PAPER, s),
  };
}

function host(card = paperCard()) {
  const saves: CardSettings[] = [];
  const fake = fakeHost({
    'GET /teacher/homework/paper-card/p1': () => ok(card),
    'PUT /teacher/homework/paper-card/p1': (req) => {
      const body = CardSettingsSchema.parse(req.body);
      saves.push(body);
      return ok({ ...card, settings: body, saved: true, layout: layoutCard(PAPER, body) });
    },
  });
  return { saves, ...fake };
}

function renderDesigner(path = '/answerCard?paperId=p1') {
  const router = createMemoryRouter(
    [
      {
        path: '/answerCard',
        element: (
          <CardDesigner paperId={new URLSearchParams(path.split('?')[1]).get('paperId')} homeworkId={null} />
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
  return router;
}

const preview = () => screen.getByRole('group', { name: /答题卡预览/ });
const edge = (n: number) => screen.getByRole('separator', { name: `第${n}题答题区高度` });
const heightOf = (n: number) => Number(edge(n).getAttribute('aria-valuenow'));
const pageCount = () => screen.getByTestId('page-count').textContent;

beforeEach(() => {
  signInAs();
  sessionChanged();
});
afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the answer-card designer', () => {
  it('draws the card from the layout model: anchors, QR, objective blocks, blanks and written boxes', async () => {
    host();
    renderDesigner();
    await screen.findByRole('group', { name: /答题卡预览，第 1 页/ });
    const svg = preview();
    expect(svg.getAttribute('viewBox')).toBe('0 0 210 297');
    expect(svg.querySelectorAll('[data-element="anchor"]')).toHaveLength(4);
    expect(svg.querySelectorAll('[data-element="qr"]')).toHaveLength(1);
    expect(svg.querySelectorAll('[data-element="objective"]')).toHaveLength(2);
    expect(svg.querySelectorAll('[data-element="blank"]')).toHaveLength(2);
    expect(within(svg).getByText('七年级数学 单元测试')).toBeInTheDocument();
    expect(screen.getByText(/检查通过/)).toBeInTheDocument();
  });

  it('re-lays the card out when the size and the columns change', async () => {
    host();
    const user = userEvent.setup();
    renderDesigner();
    await screen.findByRole('group', { name: /答题卡预览/ });
    const a4Pages = pageCount();
    expect(screen.getByText('A4 答题卡为单栏')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'A3' }));
    expect(preview().getAttribute('viewBox')).toBe('0 0 420 297');
    expect(screen.getByRole('radio', { name: '双栏' })).toHaveAttribute('aria-checked', 'true');
    const xsOf = () =>
      [...preview().querySelectorAll('[data-testid="written-box"] rect:first-of-type')].map((r) =>
        Number(r.getAttribute('x')),
      );
    const twoColumns = new Set(xsOf().map(Math.round));
    await user.click(screen.getByRole('radio', { name: '三栏' }));
    expect(screen.getByRole('radio', { name: '三栏' })).toHaveAttribute('aria-checked', 'true');
    // Narrower columns: the boxes start at other places.
    expect(new Set(xsOf().map(Math.round))).not.toEqual(twoColumns);
    expect(pageCount()).toBe('共 1 页');
    expect(screen.getByTestId('pages-per-student')).toHaveTextContent('每名学生 1 页，用 A3 纸 1 张');
    expect(a4Pages).not.toBe('');

    // B4 allows two columns only: three falls back to two.
    await user.click(screen.getByRole('radio', { name: 'B4' }));
    expect(preview().getAttribute('viewBox')).toBe('0 0 353 250');
    expect(screen.getByText('B4 答题卡为双栏')).toBeInTheDocument();
  });

  it('resizes a written box with the arrow keys (2 mm a press) and saves the heights', async () => {
    const { saves } = host();
    const user = userEvent.setup();
    renderDesigner();
    await screen.findByRole('group', { name: /答题卡预览/ });
    const start = heightOf(13);
    fireEvent.keyDown(edge(13), { key: 'ArrowDown' });
    fireEvent.keyDown(edge(13), { key: 'ArrowDown' });
    expect(heightOf(13)).toBe(start + 4);
    fireEvent.keyDown(edge(13), { key: 'ArrowUp' });
    expect(heightOf(13)).toBe(start + 2);
    expect(screen.getByTestId('card-status')).toHaveTextContent('有未保存的修改');
    expect(screen.getByText('已调整 1 个答题区')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '保存答题卡' }));
    await screen.findByText('答题卡已保存');
    expect(saves).toHaveLength(1);
    expect(saves[0]!.writtenHeights).toEqual({ w13: start + 2 });
    await waitFor(() => expect(screen.getByTestId('card-status')).toHaveTextContent('已保存'));
  });

  it('prints a score box on a chosen written question (勾选格 with 半分) and saves it in the card settings', async () => {
    const { saves } = host();
    const user = userEvent.setup();
    renderDesigner();
    await screen.findByRole('group', { name: /答题卡预览/ });
    const panel = screen.getByTestId('score-box-panel');
    // Written questions only: 选做题 carry no box.
    expect(within(panel).getByText('第13题（满分10分）')).toBeInTheDocument();
    expect(within(panel).queryByText(/第16题/)).toBeNull();
    const group = within(panel).getByRole('radiogroup', { name: '第13题打分框' });
    await user.click(within(group).getByRole('radio', { name: '勾选格' }));
    await user.click(within(panel).getByRole('checkbox', { name: '半分' }));
    // The preview draws the box from the same layout the card prints.
    await waitFor(() => expect(preview().querySelector('[data-element="scoreBox"]')).not.toBeNull());
    await user.click(screen.getByRole('button', { name: '保存答题卡' }));
    await screen.findByText('答题卡已保存');
    expect(saves[0]!.scoreBoxes).toEqual({ w13: { kind: 'tick', half: true } });
  });

  it('resizes a written box by dragging its bottom edge, in millimetres of the page', async () => {
    host();
    renderDesigner();
    await screen.findByRole('group', { name: /答题卡预览/ });
    // The page is drawn 420 px wide: 2 px a millimetre.
    vi.spyOn(preview(), 'getBoundingClientRect').mockReturnValue({
      x: 0,
      y: 0,
      width: 420,
      height: 594,
      top: 0,
      left: 0,
      right: 420,
      bottom: 594,
      toJSON: () => ({}),
    });
    const start = heightOf(13);
    fireEvent.pointerDown(edge(13), { button: 0, clientY: 300, pointerId: 1 });
    fireEvent.pointerMove(edge(13), { clientY: 340, pointerId: 1 });
    expect(heightOf(13)).toBe(start + 20);
    fireEvent.pointerMove(edge(13), { clientY: 320, pointerId: 1 });
    expect(heightOf(13)).toBe(start + 10);
    fireEvent.pointerUp(edge(13), { clientY: 320, pointerId: 1 });
    fireEvent.pointerMove(edge(13), { clientY: 400, pointerId: 1 });
    expect(heightOf(13)).toBe(start + 10);
  });

  it('warns about a box too small to write in and about pages beyond the limit', async () => {
    host();
    const user = userEvent.setup();
    renderDesigner();
    await screen.findByRole('group', { name: /答题卡预览/ });
    for (let i = 0; i < 40; i++) fireEvent.keyDown(edge(13), { key: 'ArrowUp' });
    expect(heightOf(13)).toBe(10);
    const warnings = screen.getByTestId('card-warnings');
    expect(within(warnings).getByText(/第13题的答题区只有 10 毫米高，不便书写/)).toBeInTheDocument();
    expect(preview().querySelector('[data-box-key="w13"] rect')?.getAttribute('stroke')).toBe('#dc2626');

    await user.click(screen.getByRole('button', { name: '恢复默认高度' }));
    expect(screen.queryByTestId('card-warnings')).toBeNull();

    // Three written boxes take two A4 pages: a limit of one page is an overflow.
    expect(pageCount()).toBe('共 2 页');
    expect(screen.getByTestId('pages-per-student')).toHaveTextContent('每名学生 2 页，双面打印用 A4 纸 1 张');
    await user.click(screen.getByRole('button', { name: /页数上限/ }));
    await user.click(await screen.findByRole('option', { name: '1 页' }));
    expect(within(screen.getByTestId('card-warnings')).getByText(/超过设定的 1 页/)).toBeInTheDocument();
  });

  it('draws 选做题 with its choice bubbles and one shared box on the last page', async () => {
    host();
    const user = userEvent.setup();
    renderDesigner();
    await screen.findByRole('group', { name: /答题卡预览/ });
    await user.click(screen.getByRole('button', { name: '第 2 页' }));
    const svg = screen.getByRole('group', { name: /答题卡预览，第 2 页，共 2 页/ });
    expect(within(svg).getByText('所选题号')).toBeInTheDocument();
    expect(within(svg).getByText('16')).toBeInTheDocument();
    const edgeOf = () => screen.getByRole('separator', { name: '选做题答题区高度' });
    const start = Number(edgeOf().getAttribute('aria-valuenow'));
    fireEvent.keyDown(edgeOf(), { key: 'ArrowDown' });
    expect(Number(edgeOf().getAttribute('aria-valuenow'))).toBe(start + 2);
  });

  it('offers no saving when the paper is not the teacher’s', async () => {
    host(paperCard({}, false));
    renderDesigner();
    await screen.findByRole('group', { name: /答题卡预览/ });
    expect(screen.getByText(/只能查看答题卡/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '保存答题卡' })).toBeNull();
    expect(screen.queryByRole('button', { name: '发布作业' })).toBeNull();
  });

  it('asks for a paper when opened without one', async () => {
    host();
    render(
      <SWRConfig value={{ provider: () => new Map() }}>
        <RouterProvider
          router={createMemoryRouter([
            { path: '*', element: <CardDesigner paperId={null} homeworkId={null} /> },
          ])}
        />
      </SWRConfig>,
    );
    expect(await screen.findByText('请选择要设计答题卡的试卷')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: '答题卡设计' })).toBeInTheDocument();
  });
});
