import sharp from 'sharp';
import { readBarcodes } from 'zxing-wasm/reader';
import { loadZxing } from '@zhzy/answer-card/recognise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGES,
  SCHOOL_MESSAGES,
  type CreatedInvitation,
  type Invitation,
  type InvitePreview,
  type Member,
  type UserInfo,
} from '@zhzy/contracts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import {
  FORBIDDEN,
  as,
  call,
  dataOf,
  demoSchool,
  secondSchool,
  type DemoSchool,
  type Headers,
} from './school-fixtures.js';

describe.each(DIALECTS)('invitations on %s', (dialect) => {
  let t: TestApp;
  let demo: DemoSchool;
  let now = Date.parse('2026-09-01T08:00:00.000Z');

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      clock: () => now,
      makeCaptcha: () => ({ text: 'AbCd', svg: '<svg/>' }),
    });
    demo = await demoSchool(t);
  });
  afterAll(() => t.close());

  const captcha = async () =>
    dataOf<{ captchaKey: string }>(await call(t, 'GET', '/oauth/captcha')).captchaKey;
  const invite = async (body: object = {}, h: Headers = demo.admin) =>
    dataOf<CreatedInvitation>(
      await call(t, 'POST', '/school/invite', h, { origin: 'https://zy.example.cn', ...body }),
    );
  const preview = (token: string) => call(t, 'POST', '/school/invite/preview', undefined, { token });
  /** A new account with no school, signed in. */
  const newAccount = async (username: string) => {
    const res = await call(
      t,
      'POST',
      '/oauth/register',
      {},
      {
        username,
        password: 'Teach2026',
        password2: 'Teach2026',
        nickname: `${username}老师`,
        captchaKey: await captcha(),
        captchaCode: 'abcd',
      },
    );
    expect(res.status).toBe(200);
    return as(t, username, 'Teach2026');
  };
  const info = async (h: Headers) => dataOf<UserInfo>(await call(t, 'GET', '/system/user/info', h));

  it('creates an invitation with a link and a QR code; teachers get 403', async () => {
    const refused = await call(t, 'POST', '/school/invite', demo.teacher, {});
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(FORBIDDEN);
    const created = await invite({ maxUses: 2, expiresInDays: 3 });
    expect(created.link).toBe(`https://zy.example.cn/invite#token=${created.token}`);
    expect(created.invitation).toMatchObject({
      role: 'teacher',
      roleName: '教师',
      maxUses: 2,
      usedCount: 0,
      status: 'active',
      expiresAt: '2026-09-04T08:00:00.000Z',
      createdBy: { nickname: '张校长' },
    });
    const png = Buffer.from(created.qrCode.slice('data:image/png;base64,'.length), 'base64');
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    // The picture is a code a phone reads as the link itself.
    await loadZxing();
    const [read] = await readBarcodes(new Uint8Array(png), { formats: ['QRCode'] });
    expect(read?.text).toBe(created.link);
    // Only a digest of the token is stored.
    const stored = await t.testDb.db.kysely.selectFrom('invitations').select('token_hash').execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(created.token);
    const needsGrade = await call(t, 'POST', '/school/invite', demo.admin, { role: 'gradeDirector' });
    expect(needsGrade.status).toBe(400);
    expect(needsGrade.body.message).toContain(SCHOOL_MESSAGES.inviteGradeRequired);
    // Without an origin (and no PUBLIC_URL), the link is on this site: never on the request's Host header.
    const local = dataOf<CreatedInvitation>(await call(t, 'POST', '/school/invite', demo.admin, {}));
    expect(local.link).toMatch(/^\/invite#token=/);
  });

  it('runs the lifecycle: preview, accept with an existing account, register with a new one, used up', async () => {
    const created = await invite({ maxUses: 2 });
    const seen = dataOf<InvitePreview>(await preview(created.token));
    expect(seen).toMatchObject({
      schoolName: '演示学校',
      roleName: '教师',
      inviter: '张校长',
      usable: true,
      message: null,
    });

    // An existing account without a school joins; the school becomes theirs.
    const existing = await newAccount('joiner1');
    expect((await info(existing)).gradeInfo.orgDefaultId).toBeNull();
    const accepted = await call(t, 'POST', '/school/invite/accept', existing, { token: created.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.message).toBe('已加入演示学校');
    expect(accepted.body.data).toMatchObject({ orgId: demo.orgId, role: 'teacher', becameDefault: true });
    expect((await info(existing)).gradeInfo).toMatchObject({
      orgDefaultId: demo.orgId,
      isAdministrator: false,
    });
    const twice = await call(t, 'POST', '/school/invite/accept', existing, { token: created.token });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(SCHOOL_MESSAGES.alreadyMember);

    // A new account registered on the invitation page (registration form + image captcha).
    const wrongCaptcha = await call(
      t,
      'POST',
      '/school/invite/register',
      {},
      {
        token: created.token,
        username: 'joiner2',
        password: 'Teach2026',
        password2: 'Teach2026',
        nickname: '新老师',
        captchaKey: await captcha(),
        captchaCode: 'zzzz',
      },
    );
    expect(wrongCaptcha.body.message).toBe(MESSAGES.captchaWrong);
    const registered = await call(
      t,
      'POST',
      '/school/invite/register',
      {},
      {
        token: created.token,
        username: 'joiner2',
        password: 'Teach2026',
        password2: 'Teach2026',
        nickname: '新老师',
        captchaKey: await captcha(),
        captchaCode: 'AbCd',
      },
    );
    expect(registered.status).toBe(200);
    expect(registered.body.message).toBe('注册成功，已加入演示学校');
    const joiner2 = await as(t, 'joiner2', 'Teach2026');
    expect((await info(joiner2)).gradeInfo.orgDefaultId).toBe(demo.orgId);
    const members = dataOf<Member[]>(await call(t, 'GET', '/school/team/members', demo.admin));
    expect(members.map((m) => m.username)).toEqual(expect.arrayContaining(['joiner1', 'joiner2']));

    // Used up: the preview says so and nobody else joins.
    const full = dataOf<InvitePreview>(await preview(created.token));
    expect(full).toMatchObject({ status: 'usedUp', usable: false, message: SCHOOL_MESSAGES.inviteUsedUp });
    const third = await newAccount('joiner3');
    const refused = await call(t, 'POST', '/school/invite/accept', third, { token: created.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(SCHOOL_MESSAGES.inviteUsedUp);
    const late = await call(
      t,
      'POST',
      '/school/invite/register',
      {},
      {
        token: created.token,
        username: 'joiner4',
        password: 'Teach2026',
        password2: 'Teach2026',
        nickname: '晚来的老师',
        captchaKey: await captcha(),
        captchaCode: 'AbCd',
      },
    );
    expect(late.body.message).toBe(SCHOOL_MESSAGES.inviteUsedUp);
    // Nothing of the refused registration was kept.
    expect(
      await t.testDb.db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'joiner4')
        .executeTakeFirst(),
    ).toBeUndefined();

    const listed = dataOf<Invitation[]>(await call(t, 'GET', '/school/invites', demo.admin));
    const row = listed.find((i) => i.id === created.invitation.id)!;
    expect(row).toMatchObject({ status: 'usedUp', statusName: '已用完', usedCount: 2 });
    expect(row.uses.map((u) => u.username)).toEqual(['joiner1', 'joiner2']);
    expect((await call(t, 'GET', '/school/invites', demo.teacher)).status).toBe(403);
  });

  it('answers clear messages for revoked, expired and unknown invitations', async () => {
    const revoked = await invite();
    expect((await call(t, 'DELETE', `/school/invite/${revoked.invitation.id}`, demo.teacher)).status).toBe(
      403,
    );
    const after = dataOf<Invitation>(
      await call(t, 'DELETE', `/school/invite/${revoked.invitation.id}`, demo.admin),
    );
    expect(after).toMatchObject({ status: 'revoked', statusName: '已撤销' });
    expect(dataOf<InvitePreview>(await preview(revoked.token)).message).toBe(SCHOOL_MESSAGES.inviteRevoked);
    const someone = await newAccount('joiner5');
    const refused = await call(t, 'POST', '/school/invite/accept', someone, { token: revoked.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(SCHOOL_MESSAGES.inviteRevoked);

    const expiring = await invite({ expiresInDays: 1 });
    now += 24 * 3_600_000 + 1;
    try {
      expect(dataOf<InvitePreview>(await preview(expiring.token)).status).toBe('expired');
      const later = await newAccount('joiner8');
      const expired = await call(t, 'POST', '/school/invite/accept', later, { token: expiring.token });
      expect(expired.body.message).toBe(SCHOOL_MESSAGES.inviteExpired);
    } finally {
      now -= 24 * 3_600_000 + 1;
    }

    const unknown = await preview('no-such-token');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(SCHOOL_MESSAGES.inviteInvalid);
    const unknownAccept = await call(t, 'POST', '/school/invite/accept', someone, { token: 'no-such-token' });
    expect(unknownAccept.body.message).toBe(SCHOOL_MESSAGES.inviteInvalid);
  });

  it('gives the invited role: administrator, or grade director of the grade; a second school stays the default', async () => {
    const admins = await invite({ role: 'administrator' });
    const directors = await invite({ role: 'gradeDirector', grade: '九年级' });
    expect(directors.invitation).toMatchObject({ roleName: '年级主任', grade: '九年级' });
    const a = await newAccount('joiner6');
    dataOf(await call(t, 'POST', '/school/invite/accept', a, { token: admins.token }));
    expect((await info(a)).gradeInfo).toMatchObject({ isAdministrator: true, gradeDirector: false });
    const d = await newAccount('joiner7');
    dataOf(await call(t, 'POST', '/school/invite/accept', d, { token: directors.token }));
    const members = dataOf<Member[]>(await call(t, 'GET', '/school/team/members', demo.admin));
    expect(members.find((m) => m.username === 'joiner7')).toMatchObject({
      isGradeDirector: true,
      grades: ['九年级'],
    });

    // A teacher of another school joins too; their current school does not change.
    const other = await secondSchool(t);
    const joined = dataOf<{ becameDefault: boolean }>(
      await call(t, 'POST', '/school/invite/accept', other.teacher, { token: admins.token }),
    );
    expect(joined.becameDefault).toBe(false);
    expect((await info(other.teacher)).gradeInfo.orgDefaultId).toBe(other.orgId);
    expect((await info(other.teacher)).orgs.map((o) => o.name).sort()).toEqual(
      ['演示学校', '第二中学'].sort(),
    );
  });

  it('records invitations in the audit log', async () => {
    const log = dataOf<{ records: { action: string }[] }>(
      await call(t, 'GET', '/school/audit?size=100', demo.admin),
    );
    expect(log.records.map((r) => r.action)).toEqual(
      expect.arrayContaining(['invite.create', 'invite.revoke', 'invite.accept']),
    );
  });
});
