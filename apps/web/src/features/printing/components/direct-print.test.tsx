import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AGENT_PROTOCOL_VERSION, type HomeworkSummary, type PrintJob, type Printer } from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { agentEndpoint, agentTokens } from '../../../lib/agent-endpoint';
import { sessionChanged } from '../../../lib/session';
import { clearToasts } from '../../../lib/toast';
import { signInAs } from '../../../testing/fake-host';
import { agentPrintDeps } from '../api/agent-print';
import { CardPrintDialog } from './card-print-dialog';

const NOW = '2026-11-02T08:00:00.000Z';

const homework = {
  id: 'h1',
  title: '第一单元作业',
  classes: [
    { id: 'c1', name: '七年级(1)班', studentCount: 40 },
    { id: 'c2', name: '七年级(2)班', studentCount: 38 },
  ],
  card: { cardId: 'p1', version: 2, identity: 'qr', size: 'A3', columns: 2, pageCount: 2 },
  permissions: { editCard: true, delete: true },
} as unknown as HomeworkSummary;

const PRINTERS: Printer[] = [
  {
    id: 'cups:office',
    name: '教务处 HP M404',
    driver: 'cups',
    isDefault: false,
    state: 'idle',
    stateMessage: null,
    duplex: true,
    papers: ['A4', 'A3'],
  },
  {
    id: 'cups:grade7',
    name: '七年级办公室 Canon',
    driver: 'cups',
    isDefault: true,
    state: 'idle',
    stateMessage: null,
    duplex: false,
    papers: ['A4', 'A3'],
  },
];

function job(over: Partial<PrintJob>): PrintJob {
  return {
    id: 'j1',
    printerId: 'cups:office',
    printerName: '教务处 HP M404',
    title: 't',
    state: 'queued',
    copies: 1,
    duplex: true,
    paper: 'auto',
    pages: null,
    bytes: 0,
    totalBytes: null,
    systemJobId: null,
    message: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

/** A fake agent behind agentPrintDeps.fetch: answers by "METHOD /path" and records the requests. */
function fakeAgent(routes: Record<string, (body: unknown) => { status?: number; body: unknown }>) {
  const log: { method: string; path: string; body: unknown; auth: string | undefined }[] = [];
  vi.spyOn(agentPrintDeps, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const auth = (init?.headers as Record<string, string> | undefined)?.authorization;
    log.push({ method, path: url.pathname + url.search, body, auth });
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) throw new TypeError('Failed to fetch');
    const answer = handler(body);
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  });
  return log;
}

const health =
  (authenticated: boolean, protocolVersion = AGENT_PROTOCOL_VERSION) =>
  () => ({
    body: { name: 'zhzy-scan-agent', version: '0.3.0', protocolVersion, authenticated, platform: 'linux' },
  });

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
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('直接打印 in the card print dialog', () => {
  it('prints the chosen classes’ cards on the chosen printer through the agent and follows the job to the end', async () => {
    agentTokens.set(agentEndpoint(), 'paired-token-0123456789');
    let polls = 0;
    const log = fakeAgent({
      'GET /health': health(true),
      'GET /printers': () => ({ body: { printers: PRINTERS, refreshedAt: NOW } }),
      'POST /print': () => ({ body: job({ state: 'downloading', bytes: 2048 }) }),
      'GET /print/jobs/j1': () => {
        polls++;
        return {
          body:
            polls === 1
              ? job({ state: 'printing', pages: 80, systemJobId: 'office-7' })
              : job({ state: 'done', pages: 80, copies: 2, systemJobId: 'office-7' }),
        };
      },
    });
    const user = userEvent.setup();
    renderIn(<CardPrintDialog homework={homework} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: '打印答题卡' });
    const panel = within(dialog).getByRole('region', { name: '直接打印' });
    const select = await within(panel).findByRole('combobox', { name: '打印机' });
    // The default printer is chosen first; it cannot print both sides, so duplex is off and disabled.
    expect(select).toHaveValue('cups:grade7');
    expect(within(panel).getByRole('checkbox', { name: '双面打印（长边翻转）' })).toBeDisabled();
    await user.selectOptions(select, 'cups:office');
    const duplex = within(panel).getByRole('checkbox', { name: '双面打印（长边翻转）' });
    expect(duplex).toBeEnabled();
    expect(duplex).toBeChecked();
    expect(panel).toHaveTextContent('始终按 100% 实际大小打印，不缩放');
    await user.click(within(dialog).getByRole('checkbox', { name: '七年级(2)班（38 人）' }));
    const copies = within(panel).getByRole('spinbutton', { name: '份数' });
    await user.clear(copies);
    await user.type(copies, '2');
    await user.click(within(panel).getByRole('button', { name: '直接打印' }));

    await within(panel).findByText('打印完成，请到打印机取件', {}, { timeout: 5_000 });
    const print = log.find((r) => r.method === 'POST' && r.path === '/print')!;
    expect(print.auth).toBe('Bearer paired-token-0123456789');
    expect(print.body).toEqual({
      printerId: 'cups:office',
      copies: 2,
      duplex: true,
      paper: 'auto',
      title: '第一单元作业-个性化答题卡',
      source: {
        baseUrl: window.location.origin,
        path: '/teacher/homework/card/h1/pdf',
        body: { kind: 'students', classIds: ['c1'] },
        accessToken: 'test-access',
      },
    });
    expect(within(panel).getByTestId('direct-print-status')).toHaveTextContent('共 80 页 × 2 份');
  });

  it('shows the agent’s reason when a job fails, and checks the choices before asking the agent', async () => {
    agentTokens.set(agentEndpoint(), 'paired-token-0123456789');
    const log = fakeAgent({
      'GET /health': health(true),
      'GET /printers': () => ({ body: { printers: PRINTERS, refreshedAt: NOW } }),
      'POST /print': () => ({
        body: job({
          state: 'failed',
          message: '打印机“教务处 HP M404”已暂停接收任务，请在打印机管理中恢复后重试',
        }),
      }),
    });
    const user = userEvent.setup();
    renderIn(<CardPrintDialog homework={homework} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: '打印答题卡' });
    const panel = within(dialog).getByRole('region', { name: '直接打印' });
    await within(panel).findByRole('combobox', { name: '打印机' });
    for (const name of ['七年级(1)班（40 人）', '七年级(2)班（38 人）'])
      await user.click(within(dialog).getByRole('checkbox', { name }));
    await user.click(within(panel).getByRole('button', { name: '直接打印' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('请至少选择一个班级');
    expect(log.some((r) => r.path === '/print')).toBe(false);
    await user.click(within(dialog).getByRole('checkbox', { name: '七年级(1)班（40 人）' }));
    const copies = within(panel).getByRole('spinbutton', { name: '份数' });
    await user.clear(copies);
    await user.type(copies, '120');
    await user.click(within(panel).getByRole('button', { name: '直接打印' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('份数应为 1 到 99 之间的整数');
    await user.clear(copies);
    await user.type(copies, '1');
    await user.click(within(panel).getByRole('button', { name: '直接打印' }));
    expect(await within(panel).findByTestId('direct-print-status')).toHaveTextContent(
      '打印失败：打印机“教务处 HP M404”已暂停接收任务',
    );
  });

  it('falls back to the download, saying why: no agent, not paired, or too old to print', async () => {
    for (const [routes, text] of [
      [{}, '未检测到扫描助手'],
      [{ 'GET /health': health(false) }, '扫描助手尚未与本网页配对'],
      [{ 'GET /health': health(true, 1) }, '扫描助手版本过旧，不支持直接打印'],
    ] as const) {
      vi.restoreAllMocks();
      fakeAgent(routes);
      const view = document.body.appendChild(document.createElement('div'));
      const router = createMemoryRouter([
        { path: '*', element: <CardPrintDialog homework={homework} open onClose={() => undefined} /> },
      ]);
      const { unmount } = render(<RouterProvider router={router} />, { container: view });
      const dialog = await screen.findByRole('dialog', { name: '打印答题卡' });
      expect(await within(dialog).findByTestId('direct-print-unavailable')).toHaveTextContent(text);
      expect(within(dialog).getByRole('button', { name: '下载 PDF' })).toBeEnabled();
      unmount();
      view.remove();
    }
  });
});
