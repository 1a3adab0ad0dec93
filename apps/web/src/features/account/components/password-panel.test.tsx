import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { PasswordPanel } from './password-panel';

beforeEach(() => {
  localStorage.clear();
  signInAs();
  render(
    <>
      <PasswordPanel />
      <Toaster />
    </>,
  );
});
afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('change password', () => {
  it('says what is missing with SPEC §5 messages and sends nothing', async () => {
    const { log } = fakeHost({});
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(screen.getByText('请输入原密码')).toBeVisible();
    expect(screen.getAllByText('请输入密码')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('新密码'), 'abc');
    expect(screen.getByText('密码至少8位')).toBeVisible();
    await userEvent.type(screen.getByLabelText('确认新密码'), 'abd');
    expect(screen.getByText('两次输入的密码不一致')).toBeVisible();
    expect(log).toHaveLength(0);
  });

  it("shows the host's answer under the form, and confirms a change", async () => {
    let wrong = true;
    const { log } = fakeHost({
      'PUT /system/account/password': () =>
        wrong ? { status: 400, body: { code: 400, message: '原密码错误', data: null } } : ok(null),
    });
    await userEvent.type(screen.getByLabelText('原密码'), 'Wrong2026');
    await userEvent.type(screen.getByLabelText('新密码'), 'Better2027');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'Better2027');
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('原密码错误');
    wrong = false;
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('密码已修改，其他设备上的登录已退出')).toBeVisible();
    expect(log.at(-1)?.body).toEqual({
      oldPassword: 'Wrong2026',
      password: 'Better2027',
      password2: 'Better2027',
    });
    expect(screen.getByLabelText('原密码')).toHaveValue('');
  });
});
