import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toast';
import { clearToasts, toast } from '../../../lib/toast';
import { HEALTH, ORIGIN, batchOf, fakeAgent, flush, pageOf, source, v } from '../testing/fake-agent';
import { ScanSession } from '../stores/scan-session';
import { DEFAULT_SCANNER_SETTING, resetScannerState, saveScannerSetting } from '../stores/scanner-settings';
import { ScanScreen } from './scan-screen';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);

function renderScreen(
  agent: ReturnType<typeof fakeAgent>,
  schoolYearId: string | null = 'y1',
  schoolYearLoading = false,
) {
  const session = new ScanSession({
    ...agent.deps,
    notify: {
      error: (m) => {
        agent.notify.error(m);
        toast.error(m);
      },
      success: (m) => {
        agent.notify.success(m);
        toast.success(m);
      },
      info: agent.notify.info,
    },
  });
  render(
    <MemoryRouter>
      <ScanScreen schoolYearId={schoolYearId} schoolYearLoading={schoolYearLoading} session={session} />
      <Toaster />
    </MemoryRouter>,
  );
  return session;
}

beforeEach(() => {
  resetScannerState();
  clearToasts();
});
afterEach(() => {
  resetScannerState();
  clearToasts();
});

describe('the /scan screen', () => {
  it('refuses to scan without a school year: 请选择学年后再进行扫描', async () => {
    const user = userEvent.setup();
    const agent = fakeAgent({}, { token: null });
    renderScreen(agent, null);
    await user.click(screen.getByRole('button', { name: '开始扫描' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('请选择学年后再进行扫描');
    expect(agent.calls).toEqual([]);
  });

  it('waits for the school years to load before 开始扫描 can be clicked', async () => {
    const agent = fakeAgent({}, { token: null });
    renderScreen(agent, null, true);
    const start = screen.getByTestId('start-scan');
    expect(start).toBeDisabled();
    expect(start).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(agent.calls).toEqual([]);
  });

  it('explains a missing agent and offers uploading files instead', async () => {
    const user = userEvent.setup();
    const agent = fakeAgent({ 'GET /health': () => new TypeError('Failed to fetch') }, { token: null });
    renderScreen(agent);
    await user.click(screen.getByRole('button', { name: '开始扫描' }));
    const status = await screen.findByRole('region', { name: '扫描助手' });
    expect(status).toHaveTextContent('未检测到扫描助手');
    expect(status).toHaveTextContent('如何安装并启动扫描助手');
    expect(within(status).getByRole('button', { name: '重新检测' })).toBeEnabled();
    expect(screen.getByRole('heading', { name: '从文件上传' })).toBeInTheDocument();
    expect(screen.getByLabelText('选择文件')).toHaveAttribute('type', 'file');
  });

  it('pairs step by step, then asks for a scanner when none is chosen', async () => {
    const user = userEvent.setup();
    const agent = fakeAgent(
      {
        'POST /pairing/request': () => ({ body: { expiresAt: '2026-05-01T08:05:00.000Z' } }),
        'POST /pairing/confirm': (req) =>
          (req.body as { code: string }).code === '123456'
            ? { body: { token: 'new-token-abcdefghijklmnopqrstuvwxyz', origin: ORIGIN } }
            : { status: 403, body: { code: 403, message: '配对码不正确，还可尝试 4 次', data: null } },
      },
      { token: null },
    );
    renderScreen(agent);
    await user.click(screen.getByRole('button', { name: '开始扫描' }));
    const dialog = await screen.findByRole('dialog', { name: '连接扫描助手' });
    expect(dialog).toHaveTextContent('http://127.0.0.1:17310/pair');
    await user.click(within(dialog).getByRole('button', { name: '连接' }));
    const code = await within(dialog).findByRole('textbox', { name: '配对码' });
    expect(dialog).toHaveTextContent('配对码已生成');
    await user.type(code, '999999');
    await user.click(within(dialog).getByRole('button', { name: '确认配对' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('配对码不正确，还可尝试 4 次');
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(within(dialog).getByRole('button', { name: '确认配对' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '连接扫描助手' })).toBeNull());
    await act(() => flush());
    expect(agent.socket().sent[0]).toMatchObject({
      type: 'auth',
      token: 'new-token-abcdefghijklmnopqrstuvwxyz',
    });

    act(() =>
      agent
        .socket()
        .deliver({ v, type: 'hello', agent: HEALTH, sources: [source(0, { text: 'Demo' })], batches: [] }),
    );
    expect(screen.getByRole('region', { name: '扫描助手', hidden: true })).toHaveTextContent(
      '已连接扫描助手 0.2.0',
    );
    // The scan that was asked for waits on a scanner: 请重新选择扫描仪 and the settings open.
    expect(await screen.findByText('请重新选择扫描仪')).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: '扫描设置' })).toBeInTheDocument();
  });

  it('shows pages as they stream in, with blank pages marked, upload states, counts and notices', async () => {
    const user = userEvent.setup();
    saveScannerSetting({ ...DEFAULT_SCANNER_SETTING, scannerIndex: 0, deviceId: 'virtual:dev0' });
    const agent = fakeAgent({
      'POST /scans': () => ({ body: batchOf() }),
      'GET /scans/b1/pages/1/image': () => ({ body: JPEG }),
      'GET /scans/b1/pages/2/image': () => ({ body: JPEG }),
    });
    renderScreen(agent);
    await act(() => flush());
    act(() => agent.socket().deliver({ v, type: 'hello', agent: HEALTH, sources: [source(0)], batches: [] }));
    const viewer = screen.getByRole('region', { name: '扫描预览' });
    expect(viewer).toHaveStyle({ width: '100%', height: '400px' });
    expect(viewer).toHaveTextContent('还没有扫描的页面');

    await user.click(screen.getByRole('button', { name: '开始扫描' }));
    await waitFor(() => expect(agent.calls.some((c) => c.path === '/scans')).toBe(true));
    expect(viewer).toHaveTextContent('正在扫描…');
    const ws = agent.socket();
    act(() => {
      ws.deliver({ v, type: 'batch', batch: batchOf({ pageCount: 1 }) });
      ws.deliver({ v, type: 'page', page: pageOf(1, { side: 'front' }) });
    });
    expect(within(viewer).getAllByTestId('scan-page')).toHaveLength(1);
    expect(viewer).not.toHaveTextContent('正在扫描…');
    act(() => {
      ws.deliver({ v, type: 'page', page: pageOf(2, { side: 'back', blank: true }) });
      ws.deliver({
        v,
        type: 'upload',
        page: pageOf(1, { upload: 'uploaded' }),
        duplicate: false,
        retryInMs: null,
      });
      ws.deliver({
        v,
        type: 'upload',
        page: pageOf(2, { side: 'back', blank: true, uploadError: '暂时无法连接服务器，稍后自动重试' }),
        duplicate: false,
        retryInMs: 8_000,
      });
      ws.deliver({
        v,
        type: 'batch',
        batch: batchOf({ state: 'paused', pageCount: 2, uploadedCount: 1, blankCount: 1 }),
      });
      ws.deliver({
        v,
        type: 'notice',
        batchId: 'b1',
        notice: {
          kind: 'feederEmpty',
          message: '进纸器已扫描完毕，可放入更多答题卡继续扫描',
          at: '2026-05-01T08:01:00.000Z',
        },
      });
    });
    const tiles = within(viewer).getAllByTestId('scan-page');
    expect(tiles.map((t) => [t.dataset.seq, t.dataset.upload, t.dataset.blank])).toEqual([
      ['1', 'uploaded', 'false'],
      ['2', 'pending', 'true'],
    ]);
    expect(tiles[1]).toHaveTextContent('空白页');
    expect(tiles[1]).toHaveTextContent(/\d+ 秒后重试/);
    expect(tiles[1]).toHaveTextContent('背面');
    await waitFor(() =>
      expect(within(tiles[0]!).getByRole('img')).toHaveAttribute('src', expect.stringMatching(/^blob:/)),
    );

    const panel = screen.getByRole('region', { name: '本批扫描' });
    expect(within(panel).getByTestId('count-scanned')).toHaveTextContent('2');
    expect(within(panel).getByTestId('count-uploaded')).toHaveTextContent('1');
    expect(within(panel).getByTestId('count-blank')).toHaveTextContent('1');
    expect(within(panel).getByTestId('batch-state')).toHaveTextContent('已暂停');
    expect(within(panel).getByTestId('scan-notice')).toHaveTextContent(
      '进纸器已扫描完毕，可放入更多答题卡继续扫描',
    );
    expect(within(panel).getByRole('button', { name: '继续扫描' })).toBeEnabled();
    expect(within(panel).getByRole('button', { name: '结束' })).toBeEnabled();
  });

  it('rescans a duplex sheet from a page: confirms both sides, marks them waiting, then swaps the new scans in', async () => {
    const user = userEvent.setup();
    saveScannerSetting({ ...DEFAULT_SCANNER_SETTING, scannerIndex: 0, deviceId: 'virtual:dev0' });
    const first = [
      pageOf(1, { side: 'front', upload: 'uploaded' }),
      pageOf(2, { side: 'back', upload: 'uploaded' }),
      pageOf(3, { side: 'front', upload: 'uploaded' }),
      pageOf(4, { side: 'back', upload: 'uploaded' }),
    ];
    const feederEmpty = {
      kind: 'feederEmpty' as const,
      message: '进纸器已扫描完毕，可放入更多答题卡继续扫描',
      at: '2026-05-01T08:01:00.000Z',
    };
    const paused = batchOf({ state: 'paused', pageCount: 4, uploadedCount: 4, lastNotice: feederEmpty });
    const agent = fakeAgent({
      'GET /scans/b1': () => ({ body: { batch: paused, pages: first } }),
      'POST /scans/b1/pages/4/rescan': () => ({
        body: batchOf({
          state: 'scanning',
          pageCount: 4,
          uploadedCount: 4,
          rescanSeq: 3,
          rescanSeqs: [3, 4],
        }),
      }),
      ...Object.fromEntries(
        [1, 2, 3, 4].map((n) => [`GET /scans/b1/pages/${n}/image`, () => ({ body: JPEG })]),
      ),
    });
    renderScreen(agent);
    await act(() => flush());
    act(() =>
      agent.socket().deliver({ v, type: 'hello', agent: HEALTH, sources: [source(0)], batches: [paused] }),
    );
    const viewer = screen.getByRole('region', { name: '扫描预览' });
    await waitFor(() => expect(within(viewer).getAllByTestId('scan-page')).toHaveLength(4));
    const panel = screen.getByRole('region', { name: '本批扫描' });
    expect(within(panel).getByTestId('scan-notice')).toHaveTextContent(feederEmpty.message);
    expect(within(viewer).queryByTestId('scanning-tile')).toBeNull();

    await user.click(within(viewer).getByRole('button', { name: '重扫第 4 页' }));
    const dialog = await screen.findByRole('dialog', { name: '重扫答题卡' });
    expect(dialog).toHaveTextContent('将重新扫描第 3、4 页所在的这张答题卡（正反两面）');
    expect(dialog).toHaveTextContent('请先把这张答题卡单独放入扫描仪进纸器');
    await user.click(within(dialog).getByRole('button', { name: '开始重扫' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '重扫答题卡' })).toBeNull());
    expect(agent.calls.filter((c) => c.path === '/scans/b1/pages/4/rescan')).toEqual([
      expect.objectContaining({ method: 'POST', body: {} }),
    ]);
    expect(agent.notify.info).toHaveBeenCalledWith('正在重扫，扫描后会替换原来的页面');

    let tiles = within(viewer).getAllByTestId('scan-page');
    expect(tiles.map((t) => t.dataset.rescan ?? null)).toEqual([null, null, 'waiting', 'waiting']);
    expect(tiles[2]).toHaveTextContent('等待重扫');
    // 正在扫描 sits where the rescan's first page will come back, not after the last page.
    expect(within(viewer).getAllByTestId('scanning-tile')).toHaveLength(1);
    expect(within(tiles[2]!).getByTestId('scanning-tile')).toHaveTextContent('正在扫描…');
    // The feeder notice of the run before no longer leads the batch; it stays in the list of earlier notices.
    expect(within(panel).queryByTestId('scan-notice')).toBeNull();
    expect(within(panel).getByTestId('older-notices')).toHaveTextContent(feederEmpty.message);
    // While the sheet is being scanned again, no other rescan can start.
    expect(within(tiles[0]!).getByRole('button', { name: '重扫第 1 页' })).toBeDisabled();
    const thumbsBefore = agent.calls.filter((c) => c.path.startsWith('/scans/b1/pages/3/image')).length;

    const ws = agent.socket();
    act(() => {
      ws.deliver({
        v,
        type: 'page',
        page: pageOf(3, { side: 'front', rescanned: true, sha256: 'a'.repeat(64) }),
      });
      ws.deliver({
        v,
        type: 'batch',
        batch: batchOf({ state: 'scanning', pageCount: 4, uploadedCount: 3, rescanSeq: 4, rescanSeqs: [4] }),
      });
    });
    // The front is back: the back is where the next page comes.
    expect(within(within(viewer).getAllByTestId('scan-page')[3]!).getByTestId('scanning-tile')).toBeVisible();
    expect(within(viewer).getAllByTestId('scanning-tile')).toHaveLength(1);
    act(() => {
      ws.deliver({
        v,
        type: 'page',
        page: pageOf(4, { side: 'back', rescanned: true, sha256: 'b'.repeat(64) }),
      });
      ws.deliver({
        v,
        type: 'batch',
        batch: batchOf({ state: 'paused', pageCount: 4, uploadedCount: 2, rescanSeq: null, rescanSeqs: [] }),
      });
    });
    tiles = within(viewer).getAllByTestId('scan-page');
    expect(tiles).toHaveLength(4);
    expect(tiles.map((t) => [t.dataset.seq, t.dataset.rescan ?? null, t.dataset.upload])).toEqual([
      ['1', null, 'uploaded'],
      ['2', null, 'uploaded'],
      ['3', 'done', 'pending'],
      ['4', 'done', 'pending'],
    ]);
    expect(tiles[3]).toHaveTextContent('已重扫');
    expect(within(viewer).queryByTestId('scanning-tile')).toBeNull();
    // The new scan's thumbnail is fetched, not the old one kept.
    await waitFor(() =>
      expect(agent.calls.filter((c) => c.path.startsWith('/scans/b1/pages/3/image')).length).toBe(
        thumbsBefore + 1,
      ),
    );
    expect(within(tiles[0]!).getByRole('button', { name: '重扫第 1 页' })).toBeEnabled();
  });
});
