import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarkBlock, MarkItem, SubmitMark } from '@zhzy/contracts';
import { sessionChanged } from '../../../lib/session';
import { clearToasts } from '../../../lib/toast';
import { Toaster } from '../../../components/ui/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { Bench } from './bench';

// The marking bench (/write) against a fake host: the keyboard flow (digits, half points, M, Z, Tab, Enter, H) and
// the score checks that keep a wrong or empty score from being sent.

function blockOf(halfPoints = true, rubricItems: MarkBlock['rubricItems'] = []): MarkBlock {
  return {
    id: 'b1',
    homeworkId: 'hw1',
    title: '第5题',
    sort: 0,
    questions: [
      {
        questionId: 'q5',
        no: '5',
        typeName: '填空题',
        fullScore: 4,
        stem: '<p>计算 (-2)³ + 12</p>',
        answer: '<p>4</p>',
        analysis: '',
      },
      {
        questionId: 'q6',
        no: '6',
        typeName: '填空题',
        fullScore: 6,
        stem: '<p>3 的相反数</p>',
        answer: '<p>-3</p>',
        analysis: '',
      },
    ],
    fullScore: 10,
    mode: 'single',
    threshold: 0,
    averageRule: 'mean',
    halfPoints,
    assignBy: 'question',
    markers: [{ userId: 'u1', name: '王老师', classIds: [] }],
    arbiterId: null,
    arbiterName: '王老师',
    rubric: '步骤分：列式 2 分',
    rubricItems,
    comments: [],
    progress: { items: 3, done: 0, marks: 0, marksNeeded: 3, arbitration: 0, problems: 0, expected: 3 },
    teachers: [{ userId: 'u1', name: '王老师', marks: 0, remaining: 3 }],
    started: false,
    permissions: { mark: true, arbitrate: true, edit: true },
  };
}

const itemOf = (sheetId: string, student: MarkItem['student'] = null): MarkItem => ({
  sheetId,
  blockId: 'b1',
  task: 'mark',
  student,
  answers: ['q5', 'q6'].map((q) => ({
    questionId: q,
    cropUrl: `/teacher/mark/crop/${sheetId}/${q}`,
    blank: false,
    score: null,
  })),
  myMark: null,
  marks: [],
  problem: null,
});

/** A host with `sheets` open items: next hands out those not held and not marked; marks are logged. */
function host({
  sheets = ['s1', 's2', 's3'],
  halfPoints = true,
  rubricItems = [] as MarkBlock['rubricItems'],
} = {}) {
  const marked: SubmitMark[] = [];
  const open = () => sheets.filter((s) => !marked.some((m) => m.sheetId === s));
  const fake = fakeHost({
    'GET /teacher/mark/block/b1': () => ok(blockOf(halfPoints, rubricItems)),
    'GET /teacher/mark/block/b1/next': (req) => {
      const skip = (req.query.get('skip') ?? '').split(',');
      const count = Number(req.query.get('count') ?? 3);
      const items = open()
        .filter((s) => !skip.includes(s))
        .slice(0, count)
        .map((s) => itemOf(s));
      return ok({ items, remaining: open().length, myMarks: marked.length });
    },
    'POST /teacher/mark/block/b1/mark': (req) => {
      const body = req.body as SubmitMark;
      marked.push(body);
      return ok({
        sheetId: body.sheetId,
        outcome: 'final',
        scores: Object.fromEntries(body.scores.map((s) => [s.questionId, s.score])),
        remaining: open().length,
        myMarks: marked.length,
      });
    },
    ...Object.fromEntries(
      sheets.map((s) => [
        `GET /teacher/mark/block/b1/item/${s}`,
        () => ok(itemOf(s, { name: `学生${s}`, studentNo: `0${s.slice(1)}`, className: '七年级(1)班' })),
      ]),
    ),
    ...Object.fromEntries(
      sheets.flatMap((s) => ['q5', 'q6'].map((q) => [`GET /teacher/mark/crop/${s}/${q}`, () => ok(null)])),
    ),
  });
  return { marked, ...fake };
}

function renderBench({ strict = false } = {}) {
  const router = createMemoryRouter(
    [
      { path: '/write', element: <Bench blockId="b1" /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/write?block=b1'] },
  );
  const app = (
    <SWRConfig value={{ provider: () => new Map() }}>
      <RouterProvider router={router} />
      <Toaster />
    </SWRConfig>
  );
  render(strict ? <StrictMode>{app}</StrictMode> : app);
}

const box = (no: string, full: number) => screen.getByRole('textbox', { name: `第${no}题（满分 ${full}）` });
const shownSheet = () => screen.getByTestId('crop-stack').getAttribute('data-sheet');

/** Waits until the bench shows a sheet and its first box has the keys. */
async function ready(sheet: string) {
  await waitFor(() => expect(shownSheet()).toBe(sheet));
  await waitFor(() => expect(box('5', 4)).toHaveFocus());
}

let objectUrls = 0;
beforeEach(() => {
  signInAs();
  sessionChanged();
  objectUrls = 0;
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn(() => `blob:crop-${++objectUrls}`),
      revokeObjectURL: vi.fn(),
    }),
  );
});
afterEach(() => {
  localStorage.removeItem('markAnonymous');
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

describe('the marking bench', () => {
  it('applies rubric items with one key each: the score is their sum, shown, typed scores take them off', async () => {
    const { marked } = host({
      rubricItems: [
        { id: 'r1', questionId: 'q5', label: '列式正确', points: 2 },
        { id: 'r2', questionId: 'q6', label: '符号错误', points: -1 },
        { id: 'r3', questionId: 'q5', label: '结果正确', points: 2 },
      ],
    });
    const user = userEvent.setup();
    renderBench();
    await ready('s1');
    const items5 = screen.getByRole('group', { name: '第5题评分项' });
    expect(
      within(items5)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['A列式正确+2', 'D结果正确+2']);
    // A and D belong to question 5, S to question 6 (a deduction alone counts down from its full 6).
    await user.keyboard('a');
    expect(box('5', 4)).toHaveValue('2');
    await user.keyboard('s');
    expect(box('6', 6)).toHaveValue('5');
    await user.keyboard('d');
    expect(box('5', 4)).toHaveValue('4');
    expect(within(items5).getByRole('button', { name: /结果正确/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByTestId('rubric-applied').map((p) => p.textContent)).toEqual([
      '已选评分项：列式正确 +2、结果正确 +2',
      '已选评分项：符号错误 −1',
    ]);
    // Pressed again, an item comes off.
    await user.keyboard('d');
    expect(box('5', 4)).toHaveValue('2');
    await user.keyboard('{Enter}');
    await ready('s2');
    expect(marked[0]).toMatchObject({
      sheetId: 's1',
      scores: [
        { questionId: 'q5', score: 2 },
        { questionId: 'q6', score: 5 },
      ],
      rubric: { q5: ['r1'], q6: ['r2'] },
    });
    // A typed score wins: the question's items come off and none is sent.
    await user.keyboard('a');
    expect(box('5', 4)).toHaveValue('2');
    await user.keyboard('{Backspace}3{Tab}6{Enter}');
    await ready('s3');
    expect(marked[1]).toMatchObject({ scores: [{ score: 3 }, { score: 6 }], rubric: {} });
  });

  it('讲评 mode hides names and numbers: no 显示姓名, H does nothing, and it stays on for the next visit', async () => {
    host();
    const user = userEvent.setup();
    renderBench();
    await ready('s1');
    await user.click(screen.getByRole('button', { name: '讲评模式' }));
    expect(screen.getByTestId('student-name')).toHaveTextContent('讲评模式：学生姓名和学号已隐藏');
    expect(screen.queryByRole('button', { name: '显示姓名' })).toBeNull();
    box('5', 4).focus();
    await user.keyboard('h');
    expect(screen.getByTestId('student-name')).toHaveTextContent('讲评模式：学生姓名和学号已隐藏');
    expect(document.body.textContent).not.toContain('学生s1');
    expect(localStorage.getItem('markAnonymous')).toBe('true');
  });

  it('marks by keyboard alone: digits, half points, M, Z, Tab, Enter, and the next crop takes the keys', async () => {
    const { marked } = host();
    const user = userEvent.setup();
    renderBench();
    await ready('s1');
    expect(screen.getAllByRole('img', { name: /^第[56]题作答$/ })).toHaveLength(2);
    expect(screen.getByTestId('mark-counts')).toHaveTextContent('已批 0 份 · 待批 3 份');

    // s1: 2.5 in the first box, Tab, 5 in the second, Enter.
    await user.keyboard('2.5');
    expect(box('5', 4)).toHaveValue('2.5');
    await user.keyboard('{Tab}');
    expect(box('6', 6)).toHaveFocus();
    await user.keyboard('5{Enter}');
    await ready('s2');
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({
      sheetId: 's1',
      scores: [
        { questionId: 'q5', score: 2.5 },
        { questionId: 'q6', score: 5 },
      ],
    });
    // The boxes start empty for the next student.
    expect(box('5', 4)).toHaveValue('');
    expect(box('6', 6)).toHaveValue('');

    // s2: M gives full marks and moves on to the next box, Z gives zero; letters never reach a box.
    await user.keyboard('m');
    expect(box('5', 4)).toHaveValue('4');
    expect(box('6', 6)).toHaveFocus();
    await user.keyboard('az');
    expect(box('6', 6)).toHaveValue('0');
    await user.keyboard('{Enter}');
    await ready('s3');
    expect(marked[1]).toMatchObject({
      sheetId: 's2',
      scores: [
        { questionId: 'q5', score: 4 },
        { questionId: 'q6', score: 0 },
      ],
    });

    // s3, the last one: after it the bench says the block is done.
    await user.keyboard('1{Tab}6{Enter}');
    expect(await screen.findByText('本题块您的答卷已全部批完')).toBeInTheDocument();
    expect(marked.map((m) => m.sheetId)).toEqual(['s1', 's2', 's3']);
    await waitFor(() => expect(screen.getByTestId('mark-counts')).toHaveTextContent('已批 3 份 · 待批 0 份'));
  });

  it('marks by clicking score buttons: 0 to full in half steps, the clicked score lands in its box', async () => {
    const { marked } = host();
    const user = userEvent.setup();
    renderBench();
    await ready('s1');
    const q5 = screen.getByRole('group', { name: '第5题点选分数' });
    expect(
      within(q5)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['0', '0.5', '1', '1.5', '2', '2.5', '3', '3.5', '4']);
    await user.click(within(q5).getByRole('button', { name: '第5题给 3.5 分' }));
    expect(box('5', 4)).toHaveValue('3.5');
    await user.click(screen.getByRole('button', { name: '第6题给 0 分' }));
    expect(box('6', 6)).toHaveValue('0');
    await user.keyboard('{Enter}');
    await ready('s2');
    expect(marked[0]).toMatchObject({
      sheetId: 's1',
      scores: [
        { questionId: 'q5', score: 3.5 },
        { questionId: 'q6', score: 0 },
      ],
    });
  });

  it('blocks an empty score, one above full and a half where the block allows none, with no call sent', async () => {
    const { marked, log } = host({ halfPoints: false });
    const user = userEvent.setup();
    renderBench();
    await ready('s1');

    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('请给第5题打分');
    expect(box('5', 4)).toHaveFocus();

    await user.keyboard('3{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('请给第6题打分');
    expect(box('6', 6)).toHaveFocus();

    await user.keyboard('7{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('第6题的得分不能超过满分 6 分');

    await user.keyboard('{Backspace}5.5{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('第6题只能给整数分');

    expect(marked).toEqual([]);
    expect(log.some((r) => r.method === 'POST')).toBe(false);
    expect(shownSheet()).toBe('s1');

    // Fixed: the message goes away on typing and Enter moves on.
    await user.keyboard('{Backspace}{Backspace}{Backspace}6');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    await ready('s2');
    expect(marked[0]!.scores).toEqual([
      { questionId: 'q5', score: 3 },
      { questionId: 'q6', score: 6 },
    ]);
  });

  it('hides the name by default, and H shows and hides it without leaving the score box', async () => {
    const { log } = host();
    const user = userEvent.setup();
    renderBench();
    await ready('s1');
    expect(screen.getByTestId('student-name')).toHaveTextContent('姓名已隐藏');
    expect(log.some((r) => r.path.includes('/item/'))).toBe(false);

    await user.keyboard('h');
    await waitFor(() =>
      expect(screen.getByTestId('student-name')).toHaveTextContent('七年级(1)班 学生s1（01）'),
    );
    expect(box('5', 4)).toHaveValue('');
    expect(box('5', 4)).toHaveFocus();
    const reveal = log.find((r) => r.path === '/teacher/mark/block/b1/item/s1')!;
    expect(reveal.query.get('reveal')).toBe('1');

    await user.keyboard('h');
    expect(screen.getByTestId('student-name')).toHaveTextContent('姓名已隐藏');
  });

  it('shows the first sheet with its box ready when mounted twice over (StrictMode), and marks on', async () => {
    const { marked } = host();
    const user = userEvent.setup();
    renderBench({ strict: true });
    await ready('s1');
    expect(screen.getByTestId('mark-counts')).toHaveTextContent('已批 0 份 · 待批 3 份');
    await user.keyboard('1{Tab}1{Enter}');
    await ready('s2');
    expect(marked).toHaveLength(1);
  });

  it('prefetches the next crops, so Enter shows the next student without waiting for the host', async () => {
    const { log } = host();
    const user = userEvent.setup();
    renderBench();
    await ready('s1');
    // Every open item's crops were fetched before the first Enter.
    await waitFor(() =>
      expect(log.filter((r) => r.path.startsWith('/teacher/mark/crop/')).map((r) => r.path)).toEqual(
        expect.arrayContaining(['/teacher/mark/crop/s2/q5', '/teacher/mark/crop/s3/q6']),
      ),
    );
    const before = log.length;
    await user.keyboard('1{Tab}1{Enter}');
    await ready('s2');
    // Showing s2 needed no crop call: only the mark (and perhaps a refill of the queue) went out.
    expect(log.slice(before).filter((r) => r.path.startsWith('/teacher/mark/crop/'))).toEqual([]);
  });

  it('E opens 标记异常 from the score box; an empty note is refused; closing gives the keys back to the box', async () => {
    const { log } = host();
    const user = userEvent.setup();
    renderBench();
    await ready('s1');
    await user.keyboard('e');
    const dialog = await screen.findByRole('dialog', { name: '标记异常答卷' });
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('请填写异常说明');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(box('5', 4)).toHaveFocus());
    expect(log.some((r) => r.path.endsWith('/problem'))).toBe(false);
    await user.keyboard('2');
    expect(box('5', 4)).toHaveValue('2');
  });
});
