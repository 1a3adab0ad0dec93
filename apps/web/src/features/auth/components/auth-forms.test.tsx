import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORM_MESSAGES } from '@zhzy/contracts';
import { TEACHER, fakeHost, ok } from '../../../testing/fake-host';
import { clearToasts } from '../../../lib/toast';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';
import { registerErrors } from './register-rules';

const CAPTCHA = { captchaKey: 'ck1', image: 'data:image/svg+xml;base64,PHN2Zy8+', expiresIn: 300 };

afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

const field = (name: string) => screen.getByLabelText(name, { selector: 'input' });

describe('register form (SPEC §5)', () => {
  it('says 请输入用户名 when the username is left empty (on blur, not before)', async () => {
    fakeHost({ 'GET /oauth/captcha': () => ok(CAPTCHA) });
    render(<RegisterForm onRegistered={vi.fn()} />);
    const username = field('用户名');
    await userEvent.click(username);
    expect(screen.queryByText(FORM_MESSAGES.username)).toBeNull();
    await userEvent.tab();
    expect(await screen.findByText(FORM_MESSAGES.username)).toBeInTheDocument();
  });

  it('says 请输入密码 on change for the password and the second password', async () => {
    fakeHost({ 'GET /oauth/captcha': () => ok(CAPTCHA) });
    render(<RegisterForm onRegistered={vi.fn()} />);
    const password = field('密码');
    await userEvent.type(password, 'a');
    expect(screen.queryByText(FORM_MESSAGES.password)).toBeNull();
    await userEvent.clear(password);
    expect(await screen.findByText(FORM_MESSAGES.password)).toBeInTheDocument();
    const password2 = field('确认密码');
    await userEvent.type(password2, 'x');
    await userEvent.clear(password2);
    expect(await screen.findAllByText(FORM_MESSAGES.password)).toHaveLength(2);
    // Blur alone does not check the password (only change does).
    fireEvent.blur(password2);
    expect(screen.getAllByText(FORM_MESSAGES.password)).toHaveLength(2);
  });

  it('says 请输入昵称 and 请输入图形验证码 on blur, and does not require the SMS code', async () => {
    fakeHost({ 'GET /oauth/captcha': () => ok(CAPTCHA) });
    render(<RegisterForm onRegistered={vi.fn()} />);
    fireEvent.blur(field('昵称'));
    expect(await screen.findByText(FORM_MESSAGES.nickname)).toBeInTheDocument();
    fireEvent.blur(field('图形验证码'));
    expect(await screen.findByText(FORM_MESSAGES.captcha)).toBeInTheDocument();
    fireEvent.blur(field('短信验证码'));
    expect(field('短信验证码')).toHaveAttribute('placeholder', FORM_MESSAGES.sms);
    expect(screen.queryByText(FORM_MESSAGES.sms, { selector: '[role=alert]' })).toBeNull();
  });

  it('checks the contracts rules on submit and sends nothing while they fail', async () => {
    const { log } = fakeHost({ 'GET /oauth/captcha': () => ok(CAPTCHA) });
    render(<RegisterForm onRegistered={vi.fn()} />);
    await userEvent.type(field('用户名'), 'ab');
    await userEvent.type(field('密码'), 'abcdefgh');
    await userEvent.type(field('确认密码'), 'abcdefgx');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('用户名至少4位')).toBeInTheDocument();
    expect(screen.getByText('密码须包含数字')).toBeInTheDocument();
    expect(screen.getByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(screen.getByText(FORM_MESSAGES.nickname)).toBeInTheDocument();
    expect(log.some((r) => r.path === '/oauth/register')).toBe(false);
  });

  it('registers with the image code and hands the username back', async () => {
    const onRegistered = vi.fn();
    const { log } = fakeHost({
      'GET /oauth/captcha': () => ok(CAPTCHA),
      'POST /oauth/register': () => ok(null),
    });
    render(<RegisterForm onRegistered={onRegistered} />);
    await screen.findByAltText('图形验证码，点击换一张');
    await userEvent.type(field('用户名'), 'new-teacher');
    await userEvent.type(field('昵称'), '赵老师');
    await userEvent.type(field('密码'), 'Teach2026');
    await userEvent.type(field('确认密码'), 'Teach2026');
    await userEvent.type(field('图形验证码'), 'abcd');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    await waitFor(() => expect(onRegistered).toHaveBeenCalledWith('new-teacher'));
    expect(log.find((r) => r.path === '/oauth/register')?.body).toEqual({
      username: 'new-teacher',
      password: 'Teach2026',
      password2: 'Teach2026',
      nickname: '赵老师',
      captchaKey: 'ck1',
      captchaCode: 'abcd',
    });
  });

  it('rules: an empty form names every required field with SPEC messages', () => {
    const errors = registerErrors({
      username: '',
      password: '',
      password2: '',
      nickname: '',
      captchaKey: '',
      captchaCode: '',
      smsCode: '',
    });
    expect(errors).toEqual({
      username: FORM_MESSAGES.username,
      password: FORM_MESSAGES.password,
      password2: FORM_MESSAGES.password,
      nickname: FORM_MESSAGES.nickname,
      captchaCode: FORM_MESSAGES.captcha,
    });
  });
});

describe('login form', () => {
  it('says 请输入用户名 on blur and 请输入密码 on submit', async () => {
    fakeHost({});
    render(<LoginForm onSignedIn={vi.fn()} />);
    fireEvent.blur(field('用户名'));
    expect(await screen.findByText(FORM_MESSAGES.username)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText(FORM_MESSAGES.password)).toBeInTheDocument();
  });

  it('shows the host message and asks for the image code when the host says so', async () => {
    let attempts = 0;
    const { log } = fakeHost({
      'POST /oauth/oauth/token': (req) => {
        attempts += 1;
        const body = req.body as Record<string, string>;
        if (attempts === 1)
          return {
            status: 400,
            body: { code: 400, message: '用户名或密码错误', data: { captchaRequired: true } },
          };
        if (!body.captchaCode)
          return {
            status: 400,
            body: { code: 400, message: '请输入图形验证码', data: { captchaRequired: true } },
          };
        return {
          body: {
            access_token: 'a',
            refresh_token: 'r',
            expires_in: 7200,
            token_type: 'bearer',
            scope: 'server',
          },
        };
      },
      'GET /oauth/captcha': () => ok(CAPTCHA),
      'GET /system/user/info': () => ok(TEACHER),
    });
    const onSignedIn = vi.fn();
    render(<LoginForm onSignedIn={onSignedIn} />);
    expect(screen.queryByLabelText('图形验证码')).toBeNull();
    await userEvent.type(field('用户名'), 'demo-teacher');
    await userEvent.type(field('密码'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('用户名或密码错误')).toBeInTheDocument();
    expect(await screen.findByAltText('图形验证码，点击换一张')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText(FORM_MESSAGES.captcha)).toBeInTheDocument();
    await userEvent.type(field('图形验证码'), 'k3y5');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    const last = log.filter((r) => r.path === '/oauth/oauth/token').at(-1)!.body as Record<string, string>;
    expect(last).toMatchObject({
      grant_type: 'password',
      username: 'demo-teacher',
      captchaKey: 'ck1',
      captchaCode: 'k3y5',
    });
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({
      username: 'demo-teacher',
      gradeDirector: false,
    });
  });
});
