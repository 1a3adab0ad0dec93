import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Invitation } from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { InvitationsPanel } from './invitations-panel';

const NOW = '2026-11-02T08:00:00.000Z';
const invitation = (over: Partial<Invitation> = {}): Invitation => ({
  id: 'i1',
  orgId: 'org1',
  role: 'teacher',
  roleName: '教师',
  grade: null,
  maxUses: 50,
  usedCount: 1,
  expiresAt: '2026-11-09T08:00:00.000Z',
  revokedAt: null,
  status: 'active',
  statusName: '有效',
  createdBy: { userId: 'u9', nickname: '张校长' },
  createdAt: NOW,
  uses: [{ userId: 'u5', username: 'chen', nickname: '陈老师', at: NOW }],
  ...over,
});

function host() {
  const state = { list: [invitation()], created: [] as unknown[], revoked: [] as string[] };
  fakeHost({
    'GET /school/invites': () => ok(state.list),
    'POST /school/invite': (req) => {
      state.created.push(req.body);
      const inv = invitation({ id: 'i2', usedCount: 0, uses: [], maxUses: 5 });
      state.list = [inv, ...state.list];
      return ok({
        invitation: inv,
        token: 'tok',
        link: 'http://localhost/invite#token=tok',
        qrCode: 'data:image/png;base64,AAAA',
      });
    },
    'DELETE /school/invite/i1': () => {
      state.revoked.push('i1');
      state.list = state.list.map((i) =>
        i.id === 'i1' ? { ...i, status: 'revoked' as const, statusName: '已撤销' } : i,
      );
      return ok(state.list.find((i) => i.id === 'i1'));
    },
  });
  return state;
}

function renderPanel() {
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <MemoryRouter>
        <InvitationsPanel orgId="org1" />
      </MemoryRouter>
      <Toaster />
    </SWRConfig>,
  );
}

beforeEach(() => {
  localStorage.clear();
  signInAs();
});
afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('invitations', () => {
  it('creates an invitation and shows its link and QR code once; a refused count is explained', async () => {
    const state = host();
    renderPanel();
    await screen.findByRole('cell', { name: '陈老师' });
    await userEvent.click(screen.getByRole('button', { name: '邀请成员' }));
    const dialog = await screen.findByRole('dialog', { name: '邀请成员加入' });
    const uses = within(dialog).getByLabelText('最多可加入人数');
    await userEvent.clear(uses);
    await userEvent.type(uses, '0');
    await userEvent.click(within(dialog).getByRole('button', { name: '生成邀请' }));
    expect(within(dialog).getByText('邀请人数至少为1')).toBeVisible();
    expect(state.created).toHaveLength(0);

    await userEvent.clear(uses);
    await userEvent.type(uses, '5');
    await userEvent.click(within(dialog).getByRole('button', { name: '生成邀请' }));
    const created = await screen.findByRole('dialog', { name: '邀请已生成' });
    expect(within(created).getByRole('textbox', { name: '邀请链接' })).toHaveValue(
      'http://localhost/invite#token=tok',
    );
    expect(within(created).getByRole('img', { name: '邀请二维码' })).toHaveAttribute(
      'src',
      'data:image/png;base64,AAAA',
    );
    expect(state.created[0]).toMatchObject({ orgId: 'org1', role: 'teacher', maxUses: 5, expiresInDays: 7 });
  });

  it('revokes an active invitation after asking', async () => {
    const state = host();
    renderPanel();
    const row = (await screen.findByRole('cell', { name: '陈老师' })).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: '撤销' }));
    const confirm = await screen.findByRole('dialog', { name: '撤销邀请' });
    await userEvent.click(within(confirm).getByRole('button', { name: '撤销' }));
    expect(await screen.findByText('邀请已撤销')).toBeVisible();
    expect(state.revoked).toEqual(['i1']);
    expect(await screen.findByText('已撤销')).toBeVisible();
  });
});
