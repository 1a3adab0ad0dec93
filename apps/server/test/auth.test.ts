import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, TokenResponseSchema } from '@zhzy/contracts';
import { LOGIN_LIMITS, REFRESH_GRACE_SECONDS } from '../src/modules/auth/service.js';
import { DEMO_PASSWORD } from '../src/seed/demo.js';
import { DIALECTS, bearer, clientHeader, signIn, startTestApp, type TestApp } from './helpers/index.js';

const form = (fields: Record<string, string>) => ({
  headers: { authorization: clientHeader(), 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe.each(DIALECTS)('auth on %s', (dialect) => {
  let t: TestApp;
  let now = Date.parse('2026-11-21T08:00:00.000Z');

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      clock: () => now,
      makeCaptcha: () => ({ text: 'AbCd', svg: '<svg/>' }),
    });
  });
  afterAll(() => t.close());

  const token = (fields: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/oauth/oauth/token', ...form(fields) });
  const basket = (accessToken?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/teacher/paper/info/getQuestionBasket',
      headers: accessToken ? bearer(accessToken) : {},
    });

  it('gives demo-teacher a token with the password grant, and the basket answers 200 with code 200', async () => {
    const res = await token({ grant_type: 'password', username: 'demo-teacher', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    const answer = TokenResponseSchema.parse(res.json());
    expect(answer.expires_in).toBe(7200);
    const b = await basket(answer.access_token);
    expect(b.statusCode).toBe(200);
    expect(b.json()).toMatchObject({ code: 200, data: { sumCount: 0, paperInfo: [], questionIds: [] } });
  });

  it('answers 401 for the basket without a token, with a garbage token, and with a malformed header', async () => {
    expect((await basket()).statusCode).toBe(401);
    expect((await basket('garbage')).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'GET',
      url: '/teacher/paper/info/getQuestionBasket',
      headers: { authorization: 'Token x' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401, message: MESSAGES.unauthorized });
  });

  it('stores passwords as argon2id hashes', async () => {
    const row = await t.testDb.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', 'demo-teacher')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses the token call with a wrong client secret', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/oauth/token',
      headers: {
        authorization: clientHeader('zhzy-web', 'wrong'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=password&username=demo-teacher&password=x',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MESSAGES.badClient);
  });

  it('refuses an unknown grant type naming the field', async () => {
    const res = await token({ grant_type: 'client_credentials' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('grant_type');
  });

  it('expires access tokens after their lifetime', async () => {
    const { access_token } = await signIn(t.app, 'demo-director');
    expect((await basket(access_token)).statusCode).toBe(200);
    now += 7200 * 1000 + 1;
    try {
      expect((await basket(access_token)).statusCode).toBe(401);
    } finally {
      now -= 7200 * 1000 + 1;
    }
  });

  it('rotates the refresh token on every use, and reuse of a rotated one revokes the whole family', async () => {
    const first = await signIn(t.app, 'demo-admin');
    const second = TokenResponseSchema.parse(
      (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).json(),
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await basket(second.access_token)).statusCode).toBe(200);

    // Past the grace window in which a second tab gets the same pair (refresh-grace.test.ts).
    now += (REFRESH_GRACE_SECONDS + 1) * 1000;
    const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toBe(MESSAGES.refreshTokenInvalid);
    // The family is gone: the newest access and refresh tokens no longer work either.
    expect((await basket(second.access_token)).statusCode).toBe(401);
    const after = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token });
    expect(after.json().message).toBe(MESSAGES.refreshTokenInvalid);
  });

  it('signs out: the access token answers 401 and the refresh token is invalid', async () => {
    const s = await signIn(t.app, 'demo-teacher');
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/oauth/signout',
      headers: bearer(s.access_token),
    });
    expect(out.statusCode).toBe(200);
    expect((await basket(s.access_token)).statusCode).toBe(401);
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: s.refresh_token });
    expect(refresh.json().message).toBe(MESSAGES.refreshTokenInvalid);
  });

  it('asks for the image captcha after repeated failures, checks it, then slows the guessing address, never the owner', async () => {
    const wrong = () => token({ grant_type: 'password', username: 'demo-teacher', password: 'wrong' });
    for (let i = 1; i < LOGIN_LIMITS.captchaAfter; i++) {
      const res = await wrong();
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: MESSAGES.badCredentials,
        data: { captchaRequired: false },
      });
    }
    expect((await wrong()).json()).toMatchObject({
      message: MESSAGES.badCredentials,
      data: { captchaRequired: true },
    });

    // Now even the right password needs the captcha.
    const missing = await token({
      grant_type: 'password',
      username: 'demo-teacher',
      password: DEMO_PASSWORD,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: MESSAGES.captchaRequired,
      data: { captchaRequired: true },
    });

    const captcha = await t.app.inject({ method: 'GET', url: '/oauth/captcha' });
    const { captchaKey, image } = captcha.json().data as { captchaKey: string; image: string };
    expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
    const badCode = await token({
      grant_type: 'password',
      username: 'demo-teacher',
      password: DEMO_PASSWORD,
      captchaKey,
      captchaCode: 'zzzz',
    });
    expect(badCode.json().message).toBe(MESSAGES.captchaWrong);

    const fresh = (await t.app.inject({ method: 'GET', url: '/oauth/captcha' })).json().data
      .captchaKey as string;
    const good = await token({
      grant_type: 'password',
      username: 'demo-teacher',
      password: DEMO_PASSWORD,
      captchaKey: fresh,
      captchaCode: 'abcd',
    });
    expect(good.statusCode).toBe(200);

    // A success resets the count. Failures from one address go on with the captcha; from the tenth on, that address
    // waits before each further try (1 s, 2 s, 4 s …) — but the account itself is never locked.
    const guessAt = (password: string, remoteAddress: string) => async () => {
      const key = (await t.app.inject({ method: 'GET', url: '/oauth/captcha' })).json().data
        .captchaKey as string;
      return t.app.inject({
        method: 'POST',
        url: '/oauth/oauth/token',
        remoteAddress,
        ...form({
          grant_type: 'password',
          username: 'demo-teacher',
          password,
          captchaKey: key,
          captchaCode: 'abcd',
        }),
      });
    };
    const guess = guessAt('wrong', '127.0.0.1');
    expect((await wrong()).statusCode).toBe(400);
    for (let i = 2; i <= LOGIN_LIMITS.delayAfter; i++) expect((await guess()).statusCode).toBe(400);
    const slowed = await guess();
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().message).toBe(MESSAGES.loginDelayed(1));
    now += 1000;
    expect((await guess()).statusCode).toBe(400);
    const longer = await guess();
    expect(longer.json().message).toBe(MESSAGES.loginDelayed(2));

    // The owner, from the address they use, with the right password and the captcha, gets in at once.
    const owner = await guessAt(DEMO_PASSWORD, '10.1.2.3')();
    expect(owner.statusCode).toBe(200);

    // After the window the guesser's address signs in again without any captcha.
    now += LOGIN_LIMITS.windowSeconds * 1000 + 1;
    const later = await token({ grant_type: 'password', username: 'demo-teacher', password: DEMO_PASSWORD });
    expect(later.statusCode).toBe(200);
  });

  it('asks every sign-in from an address with many failures across accounts for the captcha, and locks nobody', async () => {
    let last;
    for (let i = 0; i < LOGIN_LIMITS.addressCaptchaAfter; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/oauth/oauth/token',
        remoteAddress: '10.9.8.7',
        ...form({ grant_type: 'password', username: `guess-${i}`, password: 'x' }),
      });
    }
    expect(last?.statusCode).toBe(400);
    expect(last?.json().data).toEqual({ captchaRequired: true });
    const challenged = await t.app.inject({
      method: 'POST',
      url: '/oauth/oauth/token',
      remoteAddress: '10.9.8.7',
      ...form({ grant_type: 'password', username: 'demo-director', password: DEMO_PASSWORD }),
    });
    expect(challenged.statusCode).toBe(400);
    expect(challenged.json().message).toBe(MESSAGES.captchaRequired);
    const key = (await t.app.inject({ method: 'GET', url: '/oauth/captcha' })).json().data
      .captchaKey as string;
    const solved = await t.app.inject({
      method: 'POST',
      url: '/oauth/oauth/token',
      remoteAddress: '10.9.8.7',
      ...form({
        grant_type: 'password',
        username: 'demo-director',
        password: DEMO_PASSWORD,
        captchaKey: key,
        captchaCode: 'abcd',
      }),
    });
    expect(solved.statusCode).toBe(200);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/oauth/oauth/token',
      remoteAddress: '10.9.8.8',
      ...form({ grant_type: 'password', username: 'demo-director', password: DEMO_PASSWORD }),
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('gives the same answer for an unknown user as for a wrong password', async () => {
    const res = await token({ grant_type: 'password', username: 'nobody-here', password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.badCredentials);
  });
});

describe.each(DIALECTS)('registration on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect, makeCaptcha: () => ({ text: 'WXYZ', svg: '<svg/>' }) });
  });
  afterAll(() => t.close());

  const captcha = async () =>
    (await t.app.inject({ method: 'GET', url: '/oauth/captcha' })).json().data.captchaKey as string;
  const register = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/oauth/register', payload: body });

  it('creates an account that can sign in, after the image captcha', async () => {
    const res = await register({
      username: 'new-teacher',
      password: 'Teach2026',
      password2: 'Teach2026',
      nickname: '陈老师',
      captchaKey: await captcha(),
      captchaCode: 'wxyz',
    });
    expect(res.statusCode).toBe(200);
    const s = await signIn(t.app, 'new-teacher', 'Teach2026');
    const info = await t.app.inject({
      method: 'GET',
      url: '/system/user/info',
      headers: bearer(s.access_token),
    });
    expect(info.json().data).toMatchObject({
      user: { nickname: '陈老师', orgName: null },
      gradeInfo: { orgDefaultId: null },
    });
  });

  it('refuses a taken username, a wrong captcha, weak passwords and mismatched passwords in Chinese', async () => {
    const base = { password: 'Teach2026', password2: 'Teach2026', nickname: '陈老师', captchaCode: 'wxyz' };
    const taken = await register({ ...base, username: 'demo-teacher', captchaKey: await captcha() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('该用户名已被注册');
    const wrong = await register({
      ...base,
      username: 'someone',
      captchaKey: await captcha(),
      captchaCode: 'nope',
    });
    expect(wrong.json().message).toBe(MESSAGES.captchaWrong);
    const weak = await register({
      ...base,
      username: 'someone',
      password: 'short',
      password2: 'short',
      captchaKey: await captcha(),
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toContain('密码至少8位');
    const mismatch = await register({
      ...base,
      username: 'someone',
      password2: 'Other2026',
      captchaKey: await captcha(),
    });
    expect(mismatch.json().message).toContain('两次输入的密码不一致');
    const noName = await register({ ...base, username: '', captchaKey: await captcha() });
    expect(noName.json().message).toContain('请输入用户名');
  });
});
