import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InvitePreview } from '@zhzy/contracts';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { InviteScreen } from './invite-screen';

const preview = (over: Partial<InvitePreview> = {}): InvitePreview => ({
  schoolName: '演示学校',
  logoUrl: null,
  role: 'teacher',
  roleName: '教师',
  grade: null,
  inviter: '张校长',
  expiresAt: '2026-11-09T08:00:00.000Z',
  status: 'active',
  usable: true,
  message: null,
  ...over,
});

function renderScreen(token: string | null = 'tok') {
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <MemoryRouter>
        <InviteScreen token={token} />
      </MemoryRouter>
    </SWRConfig>,
  );
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('the invitation page', () => {
  it('says why a revoked invitation cannot be used and offers no form', async () => {
    fakeHost({
      'POST /school/invite/preview': () =>
        ok(preview({ status: 'revoked', usable: false, message: '邀请已被撤销，请向学校管理员重新获取' })),
    });
    renderScreen();
    expect(await screen.findByText('邀请已被撤销，请向学校管理员重新获取')).toBeVisible();
    expect(screen.queryByRole('button', { name: '注册并加入' })).toBeNull();
  });

  it('lets a visitor register, checking the form before anything is sent', async () => {
    const { log } = fakeHost({
      'POST /school/invite/preview': () => ok(preview()),
      'GET /oauth/captcha': () =>
        ok({ captchaKey: 'k', image: 'data:image/svg+xml;base64,AAAA', expiresIn: 300 }),
    });
    renderScreen();
    expect(await screen.findByText('张校长 邀请您加入')).toBeVisible();
    expect(screen.getByText('加入后的身份：教师')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: '注册并加入' }));
    expect(screen.getByText('请输入用户名')).toBeVisible();
    expect(screen.getByText('请输入昵称')).toBeVisible();
    expect(screen.getByText('请输入图形验证码')).toBeVisible();
    expect(log.filter((r) => r.method === 'POST' && r.path !== '/school/invite/preview')).toHaveLength(0);
  });

  it('joins with the signed-in account', async () => {
    signInAs();
    const { log } = fakeHost({
      'POST /school/invite/preview': () => ok(preview()),
      'POST /school/invite/accept': () =>
        ok({ orgId: 'org1', orgName: '演示学校', role: 'teacher', becameDefault: false }),
    });
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: '接受邀请并加入' }));
    expect(await screen.findByRole('heading', { name: '您已加入演示学校' })).toBeVisible();
    expect(log.find((r) => r.path === '/school/invite/accept')?.body).toEqual({ token: 'tok' });
  });
});
