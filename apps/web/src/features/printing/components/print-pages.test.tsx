import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PaperSettingsSchema,
  type HomeworkDetail,
  type HomeworkSummary,
  type PrintGrade,
  type PrintGradeRow,
} from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { sessionChanged } from '../../../lib/session';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { BarcodePage } from './barcode-page';
import { CalibrationPage } from './calibration-page';
import { CardPrintDialog } from './card-print-dialog';
import { GradeSheetPage } from './grade-sheet';
import { LabelPage } from './label-page';
import { browserPrint } from './print-frame';

const NOW = '2026-11-02T08:00:00.000Z';

function summary(over: Partial<HomeworkSummary> = {}): HomeworkSummary {
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
    classes: [
      { id: 'c1', name: '七年级(1)班', studentCount: 40 },
      { id: 'c2', name: '七年级(2)班', studentCount: 38 },
    ],
    startDate: '2026-11-02',
    dueDate: '2026-11-09',
    subjectTeacher: false,
    questionCount: 3,
    totalScore: 16,
    card: { cardId: 'p1', version: 2, identity: 'qr', size: 'A3', columns: 2, pageCount: 2 },
    createdBy: 'u1',
    createdByName: '王老师',
    mine: true,
    createdAt: NOW,
    updatedAt: NOW,
    permissions: { editCard: true, delete: true },
    ...over,
  };
}

function detail(over: Partial<HomeworkSummary> = {}): HomeworkDetail {
  const q = (id: string, no: number, score: number) => ({
    id: `i${id}`,
    no,
    questionId: id,
    score,
    scoreOverride: null,
    question: null,
  });
  return {
    ...summary(over),
    paper: {
      paperId: 'p1',
      paperVersion: 1,
      title: '第一单元',
      subtitle: '',
      stageId: 'junior',
      stageName: '初中',
      subjectId: 'math',
      subjectName: '数学',
      questionCount: 3,
      totalScore: 16,
      settings: PaperSettingsSchema.parse({}),
      sections: [
        {
          id: 's1',
          number: '一',
          typeId: 't1',
          title: '单选题',
          note: '',
          defaultScore: 3,
          heading: '一、单选题',
          questionCount: 2,
          totalScore: 6,
          items: [q('a', 1, 3), q('b', 2, 3)],
        },
        {
          id: 's2',
          number: '二',
          typeId: 't2',
          title: '解答题',
          note: '',
          defaultScore: 10,
          heading: '二、解答题',
          questionCount: 1,
          totalScore: 10,
          items: [q('c', 3, 10)],
        },
      ],
    },
  };
}

/** The host's score sheet of h1: questions a, b, c (3, 3, 10 points); rows given per class, else everyone absent. */
function printGrade(rows: Record<string, Partial<PrintGradeRow>[]> = {}, showRank = false): PrintGrade {
  const d = detail();
  const stats = (list: PrintGradeRow[]) => {
    const totals = list.filter((r) => r.total !== null).map((r) => r.total!);
    const avg = totals.length ? totals.reduce((a, b) => a + b, 0) / totals.length : 0;
    return {
      studentCount: list.length,
      scoredCount: totals.length,
      pendingCount: list.filter((r) => r.status === 'pending').length,
      absentCount: list.filter((r) => r.status === 'absent').length,
      fullScore: 16,
      average: Math.round(avg * 100) / 100,
      max: totals.length ? Math.max(...totals) : 0,
      min: totals.length ? Math.min(...totals) : 0,
      median: 0,
      standardDeviation: 0,
      scoreRate: 0,
      passCount: totals.filter((t) => t >= 9.6).length,
      passRate: totals.length ? totals.filter((t) => t >= 9.6).length / totals.length : 0,
      goodCount: 0,
      goodRate: 0,
      excellentCount: 0,
      excellentRate: 0,
      failCount: 0,
    };
  };
  return {
    homework: {
      id: 'h1',
      title: d.title,
      type: d.type,
      typeName: d.typeName,
      state: 'marking',
      stateName: '阅卷中',
      stageName: d.stageName,
      subjectId: d.subjectId,
      subjectName: d.subjectName,
      schoolYearId: d.schoolYearId,
      startDate: d.startDate,
      dueDate: d.dueDate,
      fullScore: 16,
      questionCount: 3,
      classes: d.classes,
      createdByName: '王老师',
    },
    showRank,
    columns: [
      { questionId: 'a', no: '1', fullScore: 3 },
      { questionId: 'b', no: '2', fullScore: 3 },
      { questionId: 'c', no: '3', fullScore: 10 },
    ],
    classes: d.classes.map((c) => {
      const given = rows[c.id];
      const list: PrintGradeRow[] = Array.from({ length: given?.length ?? c.studentCount }, (_, i) => ({
        index: i + 1,
        studentId: `${c.id}-s${i}`,
        name: `学生${i + 1}`,
        studentNo: `2026${String(i + 1).padStart(2, '0')}`,
        status: 'absent' as const,
        statusName: '缺考',
        objective: null,
        subjective: null,
        total: null,
        classRank: null,
        gradeRank: null,
        zScore: null,
        tScore: null,
        scores: [null, null, null],
        ...given?.[i],
      }));
      return { classId: c.id, className: c.name, summary: stats(list), rows: list };
    }),
    printedAt: NOW,
  };
}

function renderIn(node: ReactNode) {
  const router = createMemoryRouter([{ path: '*', element: node }]);
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <RouterProvider router={router} />
      <Toaster />
    </SWRConfig>,
  );
}

beforeEach(() => {
  signInAs();
  sessionChanged();
});
afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/printBarcode', () => {
  it('refuses an EAN-13 with a wrong check digit, naming the right one, and draws the valid codes', async () => {
    const user = userEvent.setup();
    renderIn(<BarcodePage />);
    await user.click(screen.getByRole('button', { name: /^码制/ }));
    await user.click(await screen.findByRole('option', { name: 'EAN-13' }));
    await user.type(
      screen.getByRole('textbox', { name: '条码内容（每行一个）' }),
      '6901234567890{enter}6901234567892',
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      '第 1 行：EAN-13 校验位不正确：按前面的数字计算，最后一位应为 2，而不是 0',
    );
    await waitFor(() => expect(screen.getAllByTestId('barcode')).toHaveLength(1));
    expect(screen.getByTestId('barcode')).toHaveAttribute('data-value', '6901234567892');
    expect(
      screen.getByRole('img', { name: 'EAN-13 条码：6901234567892' }).querySelector('svg'),
    ).not.toBeNull();
  });

  it('keeps pharmacode within 3 to 131070 and uses SPEC’s defaults', async () => {
    const user = userEvent.setup();
    renderIn(<BarcodePage />);
    expect(screen.getByRole('spinbutton', { name: '条宽' })).toHaveValue(2);
    expect(screen.getByRole('spinbutton', { name: '高度' })).toHaveValue(100);
    expect(screen.getByRole('spinbutton', { name: '字号' })).toHaveValue(20);
    expect(screen.getByRole('spinbutton', { name: '边距' })).toHaveValue(10);
    await user.click(screen.getByRole('button', { name: /^码制/ }));
    await user.click(await screen.findByRole('option', { name: /Pharmacode/ }));
    await user.type(
      screen.getByRole('textbox', { name: '条码内容（每行一个）' }),
      '2{enter}131071{enter}abc{enter}3',
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('第 1 行：Pharmacode 的取值范围是 3 到 131070，2 超出了范围');
    expect(alert).toHaveTextContent('第 2 行：Pharmacode 的取值范围是 3 到 131070，131071 超出了范围');
    expect(alert).toHaveTextContent('第 3 行：Pharmacode 只能是整数');
    await waitFor(() => expect(screen.getAllByTestId('barcode')).toHaveLength(1));
  });

  it('prints through the browser only when there is something to print', async () => {
    const print = vi.spyOn(browserPrint, 'run').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderIn(<BarcodePage />);
    expect(screen.getByRole('button', { name: '打印' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: '条码内容（每行一个）' }), '20260101');
    await waitFor(() => expect(screen.getByRole('button', { name: '打印' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: '打印' }));
    expect(print).toHaveBeenCalledOnce();
    expect(screen.getByTestId('page-style').textContent).toContain(
      '@page { size: A4 portrait; margin: 10mm; }',
    );
  });
});

describe('/printcode', () => {
  it('lays the class roster out on label sheets: 24 to an A4 3 × 8 sheet, 10 to a 2 × 5 one', async () => {
    fakeHost({
      'GET /system/class': (req) =>
        req.query.get('type') === '1'
          ? ok([{ id: 'y1', name: '2026-2027学年', pid: null, isDefault: true }])
          : ok([{ id: 'c1', name: '七年级(1)班', pid: 'y1', isDefault: false }]),
      'GET /teacher/analysis/students': () =>
        ok(
          Array.from({ length: 30 }, (_, i) => ({
            id: `s${i}`,
            name: `学生${i + 1}`,
            studentNo: String(20260101 + i),
            classId: 'c1',
            className: '七年级(1)班',
          })),
        ),
    });
    const user = userEvent.setup();
    renderIn(<LabelPage orgId="org1" homeworkId={null} />);
    // No pasting: the first class's students come from the school's roster.
    await screen.findAllByTestId('label');
    expect(screen.getAllByTestId('label-page')).toHaveLength(2);
    expect(screen.getAllByTestId('label')).toHaveLength(30);
    expect(screen.getByTestId('label-summary')).toHaveTextContent(
      '共 30 名学生，需要 2 张标签纸（每张 24 张标签）。',
    );
    const first = screen.getAllByTestId('label')[0]!;
    expect(first).toHaveStyle({ left: '0mm', top: '0.5mm', width: '70mm', height: '37mm' });
    expect(within(first).getByRole('img', { name: '学号 20260101 的二维码' })).toBeInTheDocument();
    expect(first).toHaveTextContent('学生1');

    await user.click(screen.getByRole('radio', { name: /A4 2×5/ }));
    expect(screen.getAllByTestId('label-page')).toHaveLength(3);
    await user.clear(screen.getByRole('spinbutton', { name: '跳过已用标签' }));
    await user.type(screen.getByRole('spinbutton', { name: '跳过已用标签' }), '5');
    expect(screen.getAllByTestId('label-page')).toHaveLength(4);
    expect(screen.getByTestId('page-style').textContent).toContain('@page { size: 210mm 297mm; margin: 0; }');
  });
});

describe('the card print dialog', () => {
  it('downloads the personalised cards of the chosen classes and never offers a generic QR card', async () => {
    const { log } = fakeHost({ 'POST /teacher/homework/card/h1/pdf': () => ok(null) });
    const created = vi.fn(() => 'blob:cards');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderIn(<CardPrintDialog homework={summary()} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: '打印答题卡' });
    expect(within(dialog).getByRole('radio', { name: /通用答题卡/ })).toBeDisabled();
    expect(dialog).toHaveTextContent('A3 双栏 · 每份 2 页 · 第 2 版 · 二维码个性化');
    expect(within(dialog).getByTestId('card-print-total')).toHaveTextContent(
      '共 78 名学生，每名学生 2 页，合计 156 页（双面打印用 A3 纸 78 张）',
    );
    await user.click(within(dialog).getByRole('checkbox', { name: '七年级(2)班（38 人）' }));
    expect(within(dialog).getByTestId('card-print-total')).toHaveTextContent(
      '共 40 名学生，每名学生 2 页，合计 80 页（双面打印用 A3 纸 40 张）',
    );
    expect(within(dialog).getByRole('link', { name: '打印校准页' })).toHaveAttribute(
      'href',
      '/pringtingtest?size=A3',
    );

    await user.click(within(dialog).getByRole('button', { name: '下载 PDF' }));
    await within(dialog).findByText('已下载“第一单元作业-个性化答题卡.pdf”。');
    const post = log.find((r) => r.method === 'POST')!;
    expect(post.path).toBe('/teacher/homework/card/h1/pdf');
    expect(post.body).toEqual({ kind: 'students', classIds: ['c1'] });
    expect(within(dialog).getByRole('link', { name: '在浏览器中打开并打印' })).toHaveAttribute(
      'href',
      'blob:cards',
    );
  });

  it('offers the generic card when students fill in their number, and asks for a class', async () => {
    const { log } = fakeHost({ 'POST /teacher/homework/card/h1/pdf': () => ok(null) });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    const hw = summary({
      card: { cardId: 'p1', version: 1, identity: 'bubbles', size: 'A4', columns: 1, pageCount: 1 },
    });
    renderIn(<CardPrintDialog homework={hw} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: '打印答题卡' });
    for (const name of ['七年级(1)班（40 人）', '七年级(2)班（38 人）'])
      await user.click(within(dialog).getByRole('checkbox', { name }));
    await user.click(within(dialog).getByRole('button', { name: '下载 PDF' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('请至少选择一个班级');
    await user.click(within(dialog).getByRole('radio', { name: /通用答题卡/ }));
    await user.click(within(dialog).getByRole('button', { name: '下载 PDF' }));
    await within(dialog).findByText('已下载“第一单元作业-通用答题卡.pdf”。');
    expect(log.find((r) => r.method === 'POST')!.body).toEqual({ kind: 'generic' });
  });
});

describe('the score sheets', () => {
  it('prints one sheet per class with a row per student and empty score columns, saying scores come after marking', async () => {
    fakeHost({
      'GET /teacher/homework/detail/h1': () => ok(detail()),
      'GET /teacher/analysis/print-grade/h1': () => ok(printGrade()),
    });
    renderIn(<GradeSheetPage homeworkId="h1" variant="questions" />);
    const sheets = await screen.findAllByTestId('grade-sheet');
    expect(sheets).toHaveLength(2);
    expect(
      screen.getByText(/还没有成绩：阅卷完成后，学生姓名与各题得分会自动填入成绩单/),
    ).toBeInTheDocument();
    const table = within(sheets[0]!).getByTestId('grade-table');
    expect(table.querySelectorAll('tbody tr')).toHaveLength(40);
    // 序号, 学号, 姓名, three questions, 总分.
    expect(table.querySelectorAll('thead th')).toHaveLength(7);
    expect(within(sheets[1]!).getByTestId('grade-table').querySelectorAll('tbody tr')).toHaveLength(38);
  });

  it('sums a test by section with objective, written and rank columns', async () => {
    fakeHost({
      'GET /teacher/homework/detail/h1': () => ok(detail({ type: 'test', typeName: '考试' })),
      'GET /teacher/analysis/print-grade/h1': () => ok(printGrade()),
    });
    renderIn(<GradeSheetPage homeworkId="h1" variant="test" />);
    const [sheet] = await screen.findAllByTestId('grade-sheet');
    const heads = [...within(sheet!).getByTestId('grade-table').querySelectorAll('thead th')].map(
      (th) => th.textContent,
    );
    expect(heads).toEqual([
      '序号',
      '考号',
      '姓名',
      '一6分',
      '二10分',
      '客观题',
      '主观题',
      '总分16分',
      '名次',
    ]);
  });
});

describe('the score sheets with results', () => {
  const scored = (over: Partial<PrintGradeRow>): Partial<PrintGradeRow> => ({
    status: 'scored',
    statusName: '已出分',
    ...over,
  });
  const rows = {
    c1: [
      scored({
        name: '李明',
        studentNo: '20260101',
        scores: [3, 3, 8.5],
        objective: 6,
        subjective: 8.5,
        total: 14.5,
        classRank: 1,
      }),
      scored({
        name: '王芳',
        studentNo: '20260102',
        scores: [0, 3, 6],
        objective: 3,
        subjective: 6,
        total: 9,
        classRank: 2,
      }),
      {
        name: '赵强',
        studentNo: '20260103',
        status: 'pending' as const,
        statusName: '阅卷中',
        scores: [3, 0, null],
        objective: 3,
        subjective: 0,
      },
      { name: '孙丽', studentNo: '20260104' },
    ],
  };

  it('fills each student’s real scores per question, the total, and the class summary', async () => {
    const { log } = fakeHost({
      'GET /teacher/homework/detail/h1': () => ok(detail()),
      'GET /teacher/analysis/print-grade/h1': () => ok(printGrade(rows)),
    });
    renderIn(<GradeSheetPage homeworkId="h1" variant="questions" />);
    await screen.findByText(/成绩取自阅卷结果/);
    expect(screen.getByText(/其中 1 名学生还有题目未阅完/)).toBeInTheDocument();
    const [sheet] = screen.getAllByTestId('grade-sheet');
    const cells = [...within(sheet!).getByTestId('grade-table').querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(cells).toEqual([
      ['1', '20260101', '李明', '3', '3', '8.5', '14.5'],
      ['2', '20260102', '王芳', '0', '3', '6', '9'],
      ['3', '20260103', '赵强', '3', '0', '', '阅卷中'],
      ['4', '20260104', '孙丽', '', '', '', '缺考'],
    ]);
    expect(within(sheet!).getByTestId('grade-summary')).toHaveTextContent(
      '平均分 11.75 · 最高分 14.5 · 最低分 9 · 及格率 50% · 已出分 2 人 · 阅卷中 1 人 · 缺考 1 人',
    );
    // The pasted-roster box is for blank sheets only.
    expect(screen.queryByLabelText(/填入学生名单/)).not.toBeInTheDocument();
    expect(log.find((r) => r.path.includes('print-grade'))!.query.get('order')).toBe('number');
  });

  it('sums a test’s sections and shows class ranks only where the school shows ranks', async () => {
    const test = detail({ type: 'test', typeName: '考试' });
    fakeHost({
      'GET /teacher/homework/detail/h1': () => ok(test),
      'GET /teacher/analysis/print-grade/h1': () => ok(printGrade(rows, true)),
    });
    renderIn(<GradeSheetPage homeworkId="h1" variant="test" />);
    await screen.findByText(/成绩取自阅卷结果/);
    const [sheet] = screen.getAllByTestId('grade-sheet');
    const first = [...within(sheet!).getByTestId('grade-table').querySelectorAll('tbody tr')][0]!;
    // 一 = 3 + 3, 二 = 8.5, 客观题, 主观题, 总分, 名次.
    expect([...first.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      '1',
      '20260101',
      '李明',
      '6',
      '8.5',
      '6',
      '8.5',
      '14.5',
      '1',
    ]);
  });

  it('leaves the 名次 column out when the school hides ranks', async () => {
    fakeHost({
      'GET /teacher/homework/detail/h1': () => ok(detail({ type: 'test', typeName: '考试' })),
      'GET /teacher/analysis/print-grade/h1': () => ok(printGrade(rows, false)),
    });
    renderIn(<GradeSheetPage homeworkId="h1" variant="test" />);
    await screen.findByText(/成绩取自阅卷结果/);
    const [sheet] = screen.getAllByTestId('grade-sheet');
    const heads = [...within(sheet!).getByTestId('grade-table').querySelectorAll('thead th')].map(
      (th) => th.textContent,
    );
    expect(heads).not.toContain('名次');
  });
});

describe('/pringtingtest', () => {
  it('draws 100 mm rulers and the four anchors at the card’s place on a page of real size', () => {
    renderIn(<CalibrationPage size="A4" onSize={() => undefined} />);
    const sheet = screen.getByRole('img', { name: /A4 校准页（210 × 297 毫米）/ });
    expect(sheet).toHaveAttribute('width', '210mm');
    expect(sheet).toHaveAttribute('viewBox', '0 0 210 297');
    const anchors = screen
      .getAllByTestId('calibration-anchor')
      .map((a) => [a.getAttribute('x'), a.getAttribute('y')]);
    expect(anchors).toEqual([
      ['10', '10'],
      ['194', '10'],
      ['10', '281'],
      ['194', '281'],
    ]);
    expect(screen.getByTestId('ruler-horizontal').querySelectorAll('line')).toHaveLength(102);
    expect(screen.getByText(/请按 100% 打印：在打印设置中选择“实际大小”（不缩放）/)).toBeInTheDocument();
    expect(screen.getByTestId('page-style').textContent).toContain('@page { size: 210mm 297mm; margin: 0; }');
  });
});
