import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, calls } from '@zhzy/contracts';
import { startTestApp, type TestApp } from '@zhzy/server/testing';
import { SESSION_KEYS, type ApiClient } from '../src/index.js';
import { recordingClient, testClock, type TestClock } from './helpers/client.js';
import { rejection } from './helpers/expect.js';

const PASSWORD = 'Demo@2026';
const TTL_MS = 600_000;
const THRESHOLD_MS = 300_000;

type Dialect = 'sqlite' | 'postgres';

/** A host on a fresh database whose clock is the test clock, with 600 s access tokens. */
function useHost(dialect: Dialect) {
  const ctx = {} as { host: TestApp; clock: TestClock };
  beforeAll(async () => {
    ctx.clock = testClock();
    ctx.host = await startTestApp({
      dialect,
      listen: true,
      env: { ACCESS_TOKEN_TTL_SECONDS: String(TTL_MS / 1000) },
      clock: () => ctx.clock.now(),
    });
  });
  afterAll(async () => {
    await ctx.host?.close();
  });
  return ctx;
}

/** Question ids of the first subject that has questions. */
async function someQuestionIds(
  client: ApiClient,
  count: number,
): Promise<{ subjectId: string; ids: string[] }> {
  const stages = await client.call(calls.stageList);
  for (const subject of stages.data.flatMap((s) => s.subjects)) {
    const page = await client.call(calls.questionPage, { query: { subjectId: subject.id, size: count } });
    if (page.data.records.length >= count)
      return { subjectId: subject.id, ids: page.data.records.map((q) => q.id) };
  }
  throw new Error('the seeded catalogue has no subject with questions');
}

describe.each<Dialect>(['sqlite', 'postgres'])('key behaviour against the real host on %s', (dialect) => {
  const ctx = useHost(dialect);
  const client = (overrides = {}) =>
    recordingClient(ctx.host.baseUrl, { now: () => ctx.clock.now(), ...overrides });

  it('login stores both tokens, the expiry (now + expires_in s) and the user with its grade info', async () => {
    const rec = client();
    const info = await rec.client.login({ username: 'demo-teacher', password: PASSWORD });
    expect(info.user.username).toBe('demo-teacher');
    expect(info.gradeInfo.orgDefaultId).toEqual(expect.any(String));
    expect(rec.storage.get(SESSION_KEYS.accessToken)).toEqual(expect.any(String));
    expect(rec.storage.get(SESSION_KEYS.refreshToken)).toEqual(expect.any(String));
    expect(rec.storage.get(SESSION_KEYS.expiresAt)).toBe(ctx.clock.now() + TTL_MS);
    expect(rec.storage.get(SESSION_KEYS.user)).toEqual({ ...info.user, ...info.gradeInfo, orgs: info.orgs });
    expect(rec.client.getUser()).toMatchObject({
      username: 'demo-teacher',
      nickname: '王老师',
      gradeDirector: false,
    });
    expect(rec.client.isSignedIn()).toBe(true);
    expect(rec.progress).toEqual([true, false]);
    expect(rec.notes).toEqual([]);
  });

  it('renews the token once for concurrent calls near expiry and continues with the new token', async () => {
    const rec = client();
    await rec.client.login({ username: 'demo-teacher', password: PASSWORD });
    const before = { access: rec.client.session.accessToken, refresh: rec.client.session.refreshToken };
    ctx.clock.advance(TTL_MS - THRESHOLD_MS + 1); // 299.999 s left
    const tokenCallsBefore = rec.tokenCalls();
    const answers = await Promise.all([
      rec.client.call(calls.stageList),
      rec.client.call(calls.getQuestionBasket),
      rec.client.call(calls.userInfo),
      rec.client.call(calls.stageList),
      rec.client.call(calls.classList, { query: { orgId: rec.client.getUser()!.orgDefaultId!, type: '1' } }),
    ]);
    expect(answers.every((a) => a.code === 200)).toBe(true);
    expect(rec.tokenCalls() - tokenCallsBefore).toBe(1);
    const after = { access: rec.client.session.accessToken, refresh: rec.client.session.refreshToken };
    expect(after.access).not.toBe(before.access);
    expect(after.refresh).not.toBe(before.refresh);
    expect(rec.client.session.expiresAt).toBe(ctx.clock.now() + TTL_MS);
    const bearerCalls = rec.sent.slice(-5);
    expect(bearerCalls.map((r) => r.headers.get('authorization'))).toEqual(
      Array(5).fill(`Bearer ${after.access}`),
    );
    expect(rec.notes).toEqual([]);
  });

  it('after another client signed the session out, a call answers 401: storage cleared, signed out, no toast', async () => {
    const a = client();
    await a.client.login({ username: 'demo-director', password: PASSWORD });
    const b = client();
    for (const [key, value] of a.backing.map) b.backing.setItem(key, value);
    await b.client.signOut();
    expect(b.sent.at(-1)).toMatchObject({ method: 'DELETE', url: `${ctx.host.baseUrl}/oauth/signout` });
    expect(b.backing.map.size).toBe(0);
    expect(b.onSignedOut).toHaveBeenCalledTimes(1);

    const error = await rejection(a.client.call(calls.getQuestionBasket));
    expect(error).toMatchObject({ kind: 'http', status: 401 });
    expect(a.backing.map.size).toBe(0);
    expect(a.client.isSignedIn()).toBe(false);
    expect(a.onSignedOut).toHaveBeenCalledTimes(1);
    expect(a.notes).toEqual([]);
  });

  it('addBasket then getQuestionBasket shows the questions; clearBasket answers the basket in message', async () => {
    const rec = client();
    await rec.client.login({ username: 'demo-teacher', password: PASSWORD });
    const { subjectId, ids } = await someQuestionIds(rec.client, 2);

    const added = await rec.client.call(calls.addBasket, { body: { questionIds: ids } });
    expect(added.message).toBe(MESSAGES.addSuccess);
    expect(added.data.questionIds).toEqual(expect.arrayContaining(ids));

    const basket = (await rec.client.call(calls.getQuestionBasket)).data;
    expect(basket.questionIds).toEqual(expect.arrayContaining(ids));
    expect(basket.sumCount).toBe(basket.questionIds.length);
    const paper = basket.paperInfo.find((p) => p.subjectId === subjectId)!;
    expect(paper.questionCount).toBe(2);
    expect(basket.type[paper.id]?.reduce((n, row) => n + row.questionCount, 0)).toBe(2);

    const cleared = await rec.client.call(calls.clearBasket, { params: { id: paper.id } });
    expect(cleared.data).toBeNull();
    expect(cleared.message.paperInfo.find((p) => p.id === paper.id)).toBeUndefined();
    expect(cleared.message.questionIds).not.toEqual(expect.arrayContaining(ids));
    expect((await rec.client.call(calls.getQuestionBasket)).data).toEqual(cleared.message);
    expect(rec.notes).toEqual([]);
  });
});

describe('against the real host on sqlite', () => {
  const ctx = useHost('sqlite');
  const client = (overrides = {}) =>
    recordingClient(ctx.host.baseUrl, { now: () => ctx.clock.now(), ...overrides });
  const signedIn = async (username = 'demo-teacher') => {
    const rec = client();
    const info = await rec.client.login({ username, password: PASSWORD });
    return { ...rec, info };
  };

  it('stores the grade director flag of a grade director', async () => {
    const { client: c } = await signedIn('demo-director');
    expect(c.getUser()).toMatchObject({ username: 'demo-director', gradeDirector: true });
  });

  it('a bearer call sends the stored access token', async () => {
    const rec = await signedIn();
    const stages = await rec.client.call(calls.stageList);
    expect(stages.data.length).toBeGreaterThan(0);
    const last = rec.sent.at(-1)!;
    expect(new URL(last.url).pathname).toBe('/system/stage/list');
    expect(last.headers.get('authorization')).toBe(`Bearer ${rec.client.session.accessToken}`);
  });

  it('does not renew while the token has 300000 ms or more left', async () => {
    const rec = await signedIn();
    const token = rec.client.session.accessToken;
    const calls0 = rec.tokenCalls();
    ctx.clock.advance(TTL_MS - THRESHOLD_MS); // exactly 300 s left
    await rec.client.call(calls.stageList);
    expect(rec.tokenCalls()).toBe(calls0);
    expect(rec.client.session.accessToken).toBe(token);
  });

  it('renews a token that has already expired and the call still succeeds', async () => {
    const rec = await signedIn();
    ctx.clock.advance(TTL_MS + 60_000);
    const basket = await rec.client.call(calls.getQuestionBasket);
    expect(basket.code).toBe(200);
    expect(rec.tokenCalls()).toBe(2);
    const refresh = rec.sent.find((r, i) => i > 0 && new URL(r.url).pathname === '/oauth/oauth/token')!;
    expect(refresh.headers.get('authorization')).toMatch(/^Basic /);
    expect(refresh.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(String(refresh.body)))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: expect.any(String),
    });
    expect(rec.notes).toEqual([]);
  });

  it('saves the new refresh token, and reusing the old one gets "refresh token无效": signed out without a toast', async () => {
    const rec = await signedIn();
    const oldRefresh = rec.client.session.refreshToken!;
    ctx.clock.advance(TTL_MS - 60_000);
    await rec.client.call(calls.stageList);
    expect(rec.client.session.refreshToken).not.toBe(oldRefresh);

    // A stale copy (e.g. another tab) still holds the old refresh token, past the host's grace window for
    // concurrent refreshes (ADR 0042): a reuse.
    ctx.clock.advance(11_000);
    rec.storage.set(SESSION_KEYS.refreshToken, oldRefresh);
    rec.storage.set(SESSION_KEYS.expiresAt, ctx.clock.now() + 1_000);
    const error = await rejection(rec.client.call(calls.stageList));
    expect(error).toMatchObject({ kind: 'http', status: 400, message: MESSAGES.refreshTokenInvalid });
    expect(rec.backing.map.size).toBe(0);
    expect(rec.onSignedOut).toHaveBeenCalledTimes(1);
    expect(rec.notes).toEqual([]);
  });

  it('a garbage access token answers 401: storage cleared, signed out, no toast', async () => {
    const rec = await signedIn();
    rec.storage.set(SESSION_KEYS.accessToken, 'garbage');
    expect((await rejection(rec.client.call(calls.stageList))).status).toBe(401);
    expect(rec.backing.map.size).toBe(0);
    expect(rec.onSignedOut).toHaveBeenCalledTimes(1);
    expect(rec.notes).toEqual([]);
  });

  it('signOut revokes the session on the host, clears the storage and reports the sign-out', async () => {
    const rec = await signedIn();
    const backup = new Map(rec.backing.map);
    rec.storage.set('scanSettings', { scanner: 0 });
    await rec.client.signOut();
    expect(rec.backing.map.size).toBe(0);
    expect(rec.onSignedOut).toHaveBeenCalledTimes(1);
    expect(rec.client.isSignedIn()).toBe(false);

    const stale = client();
    for (const [k, v] of backup) stale.backing.setItem(k, v);
    expect((await rejection(stale.client.call(calls.stageList))).status).toBe(401);
  });

  it('shows 很抱歉，资源未找到 for clearBasket of an unknown basket', async () => {
    const rec = await signedIn();
    const error = await rejection(rec.client.call(calls.clearBasket, { params: { id: 'no-such-basket' } }));
    expect(error).toMatchObject({ kind: 'http', status: 404, message: '很抱歉，资源未找到' });
    expect(error.bodyMessage).toBe('试题篮不存在');
    expect(rec.notes).toEqual([{ message: '很抱歉，资源未找到', kind: 'error' }]);
    expect(rec.client.isSignedIn()).toBe(true);
  });

  it('shows the host message of a 400 verbatim', async () => {
    const rec = await signedIn();
    const error = await rejection(rec.client.call(calls.addBasket, { body: { questionIds: [] } }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('请选择要加入试题篮的试题');
    expect(error.message).toBe(error.bodyMessage);
    expect(rec.notes).toEqual([{ message: error.message, kind: 'error' }]);
  });

  it('shows 很抱歉，您暂无该操作权限 when listing the school years of another school', async () => {
    const rec = await signedIn();
    const error = await rejection(
      rec.client.call(calls.classList, { query: { orgId: 'another-school', type: '1' } }),
    );
    expect(error).toMatchObject({ status: 403, message: '很抱歉，您暂无该操作权限' });
    expect(rec.notes).toEqual([{ message: '很抱歉，您暂无该操作权限', kind: 'error' }]);
  });

  it('a failed login rejects with the host body (captchaRequired after 3 failures) and signs nobody out', async () => {
    const rec = client();
    rec.storage.set('theme', 'dark');
    const first = await rejection(rec.client.login({ username: 'no-such-user', password: 'wrong' }));
    expect(first).toMatchObject({ status: 400, message: '用户名或密码错误' });
    expect(first.data).toEqual({ captchaRequired: false });
    await rejection(rec.client.login({ username: 'no-such-user', password: 'wrong' }));
    const third = await rejection(rec.client.login({ username: 'no-such-user', password: 'wrong' }));
    expect(third.data).toEqual({ captchaRequired: true });
    const fourth = await rejection(rec.client.login({ username: 'no-such-user', password: 'wrong' }));
    expect(fourth).toMatchObject({ status: 400, message: MESSAGES.captchaRequired });
    expect(rec.notes.map((n) => n.message)).toEqual([
      '用户名或密码错误',
      '用户名或密码错误',
      '用户名或密码错误',
      '请输入图形验证码',
    ]);
    expect(rec.onSignedOut).not.toHaveBeenCalled();
    expect(rec.storage.get('theme')).toBe('dark');
    expect(rec.client.isSignedIn()).toBe(false);
  });

  it('a wrong client secret fails the login with the host message and no sign-out', async () => {
    const rec = client({ clientSecret: 'wrong' });
    const error = await rejection(rec.client.login({ username: 'demo-teacher', password: PASSWORD }));
    expect(error).toMatchObject({ status: 401, message: MESSAGES.badClient });
    expect(rec.notes).toEqual([{ message: MESSAGES.badClient, kind: 'error' }]);
    expect(rec.onSignedOut).not.toHaveBeenCalled();
  });

  it('lists school years and saves the default one form-encoded', async () => {
    const rec = await signedIn('demo-admin');
    const orgId = rec.info.gradeInfo.orgDefaultId!;
    const years = (await rec.client.call(calls.classList, { query: { orgId, type: '1', pid: '' } })).data;
    expect(years.length).toBeGreaterThanOrEqual(2);
    const other = years.find((y) => !y.isDefault)!;
    await rec.client.call(calls.updateClassDefault, { body: { orgId, classId: other.id } });
    expect(rec.sent.at(-1)?.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    const after = (await rec.client.call(calls.classList, { query: { orgId, type: '1' } })).data;
    expect(after.find((y) => y.isDefault)?.id).toBe(other.id);
    const info = await rec.client.refreshUser();
    expect(rec.client.getUser()).toMatchObject({ username: info.user.username, orgDefaultId: orgId });
  });

  it('delQuestionType removes one type row and answers the basket in data', async () => {
    const rec = await signedIn('demo-director');
    const { ids } = await someQuestionIds(rec.client, 3);
    const basket = (await rec.client.call(calls.addBasket, { body: { questionIds: ids } })).data;
    const paper = basket.paperInfo[0]!;
    const row = basket.type[paper.id]![0]!;
    const after = await rec.client.call(calls.delQuestionType, { params: { id: row.id } });
    expect(after.data.sumCount).toBe(basket.sumCount - row.questionCount);
    expect(
      Object.values(after.data.type)
        .flat()
        .find((r) => r.id === row.id),
    ).toBeUndefined();
  });

  it('a call without any session answers 401 and reports the sign-out', async () => {
    const rec = client();
    expect((await rejection(rec.client.call(calls.getQuestionBasket))).status).toBe(401);
    expect(rec.onSignedOut).toHaveBeenCalledTimes(1);
    expect(rec.notes).toEqual([]);
  });

  it('the generic get helper reaches a host call with query parameters', async () => {
    const rec = await signedIn();
    const orgId = rec.info.gradeInfo.orgDefaultId!;
    const answer = await rec.client.get<{ data: { id: string }[] }>('/system/class', {
      orgId,
      type: 1,
      pid: null,
    });
    expect(answer.data.length).toBeGreaterThan(0);
    expect(new URL(rec.sent.at(-1)!.url).search).toBe(`?orgId=${orgId}&type=1`);
  });
});
