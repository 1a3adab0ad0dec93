import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SWRConfig } from 'swr';
import { PAPER_SIZE_CODES, type HomeworkSummary } from '@zhzy/contracts';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { dialogWidthFor } from '../../../components/ui/breakpoint-dialog';
import { source } from '../testing/fake-agent';
import { readScannerState, resetScannerState, setScannerSources } from '../stores/scanner-settings';
import { ScanSettingsDialog } from './scan-settings-dialog';

const setWidth = (width: number) => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  window.dispatchEvent(new Event('resize'));
};

function renderDialog(onClose = vi.fn()) {
  render(<ScanSettingsDialog open onClose={onClose} />);
  return onClose;
}

const group = (name: string) => screen.queryByRole('radiogroup', { name });
const checked = (name: string) => within(group(name)!).getByRole('radio', { checked: true }).textContent;

beforeEach(() => {
  resetScannerState();
  setScannerSources([
    source(0, { text: '虚拟扫描仪（演示答题卡）' }),
    source(1, { text: 'Canon DR-C230', driver: 'sane' }),
  ]);
  setWidth(1440);
});
afterEach(() => resetScannerState());

describe('the scan settings dialog', () => {
  it('is titled 扫描设置 and starts from the defaults: adaptive 否, A4, duplex 是, subject teacher 否', () => {
    renderDialog();
    expect(screen.getByRole('dialog', { name: '扫描设置' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /扫描仪/ })).toHaveTextContent('请选择扫描仪');
    expect(checked('自适应')).toBe('否');
    expect(checked('纸张大小')).toBe('A4');
    expect(checked('双面扫描')).toBe('是');
    expect(checked('是否分配给学科老师')).toBe('否');
    expect(checked('色彩模式')).toBe('彩色');
    expect(
      within(group('色彩模式')!)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual(['彩色', '灰度', '黑白']);
    expect(
      within(group('纸张大小')!)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual(['A4', 'A3', 'B5', 'B4', '16开']);
  });

  it('shows the paper size only when adaptive is 否', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.click(within(group('自适应')!).getByRole('radio', { name: '是' }));
    expect(group('纸张大小')).toBeNull();
    await user.click(within(group('自适应')!).getByRole('radio', { name: '否' }));
    expect(group('纸张大小')).not.toBeNull();
  });

  it('cannot be closed by Escape or a click on the backdrop, only by its own buttons', async () => {
    const user = userEvent.setup();
    const onClose = renderDialog();
    await user.keyboard('{Escape}');
    const backdrop = document.querySelector('[aria-hidden="true"].fixed.inset-0');
    expect(backdrop).not.toBeNull();
    await user.click(backdrop as Element);
    await user.click(document.body);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: '扫描设置' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '关闭' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('is 80 % of the window under 550 px, 30 % under 1400 px, otherwise 25 %', () => {
    expect([549, 550, 1399, 1400].map(dialogWidthFor)).toEqual(['80vw', '30vw', '30vw', '25vw']);
    renderDialog();
    const panel = () => screen.getByRole('dialog').querySelector<HTMLElement>('[data-width]')!;
    expect(panel().style.width).toBe('25vw');
    act(() => setWidth(390));
    expect(panel().style.width).toBe('80vw');
    act(() => setWidth(1024));
    expect(panel().style.width).toBe('30vw');
  });

  it('saving writes scanner, paper size, colour mode and the scan-subject flag to the shared state and closes', async () => {
    const user = userEvent.setup();
    const onClose = renderDialog();
    // A scanner must be chosen when there are any.
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(screen.getByRole('alert')).toHaveTextContent('请选择扫描仪');
    expect(onClose).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: /扫描仪/ }));
    await user.click(await screen.findByRole('option', { name: 'Canon DR-C230' }));
    await user.click(within(group('纸张大小')!).getByRole('radio', { name: 'B5' }));
    await user.click(within(group('双面扫描')!).getByRole('radio', { name: '否' }));
    await user.click(within(group('是否分配给学科老师')!).getByRole('radio', { name: '是' }));
    await user.click(within(group('色彩模式')!).getByRole('radio', { name: '灰度' }));
    await user.click(screen.getByRole('button', { name: '保存' }));

    expect(onClose).toHaveBeenCalledTimes(1);
    expect(readScannerState().setting).toMatchObject({
      scannerIndex: 1,
      deviceId: 'virtual:dev1',
      paperSize: PAPER_SIZE_CODES.B5,
      adaptive: false,
      duplex: false,
      subjectTeacher: true,
      colorMode: 'grey',
    });
    expect(JSON.parse(localStorage.getItem('scannerSetting')!)).toMatchObject({
      scannerIndex: 1,
      paperSize: 2,
      colorMode: 'grey',
    });
  });

  it('offers the demo scanner a sheet count', async () => {
    const user = userEvent.setup();
    renderDialog();
    expect(screen.queryByLabelText('演示扫描仪纸张数')).toBeNull();
    expect(screen.queryByText('老师红笔批改（先阅后扫）')).toBeNull();
    await user.click(screen.getByRole('button', { name: /扫描仪/ }));
    await user.click(await screen.findByRole('option', { name: '虚拟扫描仪（演示答题卡）' }));
    const sheets = screen.getByLabelText('演示扫描仪纸张数');
    await user.clear(sheets);
    await user.type(sheets, '4');
    // 先阅后扫 (ADR 0065): the demo scanner's sheets may come marked by a teacher in red; off unless chosen.
    const marks = screen.getByRole('radiogroup', { name: '老师红笔批改（先阅后扫）' });
    expect(within(marks).getByRole('radio', { name: '否' })).toHaveAttribute('aria-checked', 'true');
    await user.click(within(marks).getByRole('radio', { name: '是' }));
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(readScannerState().setting).toMatchObject({
      scannerIndex: 0,
      virtualSheets: 4,
      virtualTeacherMarks: true,
    });
  });

  it('opened for a homework (/scan?homeworkId=), starts the 演示作业 picker on it', async () => {
    signInAs();
    const hw = (id: string, title: string): HomeworkSummary => ({
      id,
      title,
      type: 'homework',
      typeName: '作业',
      state: 'toScan',
      stateName: '待扫描',
      paperId: 'p1',
      paperTitle: title,
      stageId: 'junior',
      stageName: '初中',
      subjectId: 'math',
      subjectName: '数学',
      schoolYearId: 'y1',
      classes: [{ id: 'c1', name: '七年级(1)班', studentCount: 40 }],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
      subjectTeacher: false,
      questionCount: 8,
      totalScore: 40,
      card: { cardId: `card-${id}`, version: 1, identity: 'qr', size: 'A4', columns: 1, pageCount: 2 },
      createdBy: 'u1',
      createdByName: '王老师',
      mine: true,
      createdAt: '2026-11-02T08:00:00.000Z',
      updatedAt: '2026-11-02T08:00:00.000Z',
      permissions: { editCard: true, delete: true },
    });
    const records = [hw('h1', '第一单元作业'), hw('h2', '一元一次方程 随堂练习')];
    fakeHost({
      'GET /teacher/homework/list': () => ok({ records, total: records.length, page: 1, size: 50 }),
    });
    const user = userEvent.setup();
    const draw = (homeworkId: string | null) => (
      <SWRConfig value={{ provider: () => new Map() }}>
        <ScanSettingsDialog open onClose={vi.fn()} homeworkId={homeworkId} />
      </SWRConfig>
    );
    const view = render(draw('h2'));
    await user.click(screen.getByRole('button', { name: /扫描仪/ }));
    await user.click(await screen.findByRole('option', { name: '虚拟扫描仪（演示答题卡）' }));
    const picker = () => screen.getByRole('button', { name: /^演示作业/ });
    await vi.waitFor(() => expect(picker()).toHaveTextContent('一元一次方程 随堂练习（七年级(1)班）'));
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(readScannerState().setting.virtualHomeworkId).toBe('h2');
    view.unmount();

    // A homework the list does not show (deleted, another school's) leaves the picker as it was.
    localStorage.removeItem('scannerSetting');
    resetScannerState();
    setScannerSources([source(0, { text: '虚拟扫描仪（演示答题卡）' })]);
    render(draw('gone'));
    await user.click(screen.getByRole('button', { name: /扫描仪/ }));
    await user.click(await screen.findByRole('option', { name: '虚拟扫描仪（演示答题卡）' }));
    await user.click(picker());
    await screen.findByRole('option', { name: '第一单元作业（七年级(1)班）' });
    await user.keyboard('{Escape}');
    expect(picker()).toHaveTextContent('内置演示卡（不属于任何作业）');
  });
});
