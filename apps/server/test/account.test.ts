import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_MESSAGES,
  FORM_MESSAGES,
  MESSAGES,
  SMS_LIMITS,
  TokenResponseSchema,
  type Feedback,
  type MyTeaching,
  type Profile,
  type SmsInboxEntry,
  type UserInfo,
} from '@zhzy/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { SmsMessage } from '../src/modules/account/sms.js';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { DIALECTS, bearer, clientHeader, openTestDb, startTestApp, type TestApp } from './helpers/index.js';
import { bombPng } from './helpers/hostile-files.js';
import { as, call, dataOf, demoSchool, fileForm, type DemoSchool, type Headers } from './school-fixtures.js';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();

describe.each(DIALECTS)('accounts and the personal centre on %s', (dialect) => {
  let t: TestApp;
  let demo: DemoSchool;
  let now = Date.parse('2026-10-08T08:00:00.000Z');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-account-files-'));

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      clock: () => now,
      makeCaptcha: () => ({ text: 'AbCd', svg: '<svg/>' }),
      env: { DATA_DIR: dataDir },
    });
    demo = await demoSchool(t);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const captchaKey = async () =>
    dataOf<{ captchaKey: string }>(await call(t, 'GET', '/oauth/captcha')).captchaKey;
  const sendSms = async (phone: string, purpose: string, remoteAddress = '127.0.0.1') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/sms/send',
      remoteAddress,
      payload: { phone, purpose, captchaKey: await captchaKey(), captchaCode: 'abcd' },
    });
    return { status: res.statusCode, body: res.json<{ message: string; data: unknown }>() };
  };
  const inbox = async (phone: string) =>
    dataOf<SmsInboxEntry[]>(await call(t, 'GET', `/system/dev/sms-inbox?phone=${phone}`));
  const lastCode = async (phone: string) => (await inbox(phone))[0]!.code;
  const tick = (seconds = SMS_LIMITS.resendSeconds + 1) => {
    now += seconds * 1000;
  };
  const profile = async (h: Headers) => dataOf<Profile>(await call(t, 'GET', '/system/account/profile', h));
  const signInWith = async (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/oauth/token',
      headers: { authorization: clientHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
    });

  it('answers the profile and changes the nickname (请输入昵称 when empty)', async () => {
    const me = await profile(demo.teacher);
    expect(me).toMatchObject({
      username: 'demo-teacher',
      nickname: '王老师',
      avatar: null,
      phone: null,
      defaultOrgId: demo.orgId,
      schools: [{ id: demo.orgId, name: '演示学校', isDefault: true, isAdministrator: false }],
    });
    const empty = await call(t, 'PUT', '/system/account/nickname', demo.teacher, { nickname: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain(FORM_MESSAGES.nickname);
    const changed = dataOf<Profile>(
      await call(t, 'PUT', '/system/account/nickname', demo.teacher, { nickname: '王明老师' }),
    );
    expect(changed.nickname).toBe('王明老师');
    expect(dataOf<UserInfo>(await call(t, 'GET', '/system/user/info', demo.teacher)).user.nickname).toBe(
      '王明老师',
    );
  });

  it('takes an avatar by its content (a PNG named .jpg is fine), crops it square and resizes it to 256 px', async () => {
    const upload = (data: Buffer, name: string, fields: Record<string, string> = {}, h = demo.teacher) =>
      call(t, 'POST', '/system/account/avatar', h, fileForm(data, name, fields));
    const first = dataOf<{ avatar: string }>(await upload(await photo(640, 480), 'me.jpg'));
    expect(first.avatar).toMatch(/^\/files\/avatars\/[0-9a-f-]{36}\.webp$/);
    const served = await t.app.inject({ method: 'GET', url: first.avatar });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);

    const cropped = dataOf<{ avatar: string }>(
      await upload(await photo(640, 480), 'me.png', { x: '100', y: '50', size: '300' }),
    );
    expect((await t.app.inject({ method: 'GET', url: first.avatar })).statusCode).toBe(404);
    expect((await profile(demo.teacher)).avatar).toBe(cropped.avatar);
    expect(dataOf<UserInfo>(await call(t, 'GET', '/system/user/info', demo.teacher)).user.avatar).toBe(
      cropped.avatar,
    );

    const outside = await upload(await photo(640, 480), 'me.png', { x: '400', y: '0', size: '300' });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe(ACCOUNT_MESSAGES.cropOutside);
    const text = await upload(Buffer.from('我不是图片'), 'me.png');
    expect(text.status).toBe(415);
    expect(text.body.message).toBe(ACCOUNT_MESSAGES.badImage);
    const svg = await upload(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>'),
      'a.png',
    );
    expect(svg.status).toBe(415);
    const bomb = await upload(bombPng(), 'bomb.png');
    expect(bomb.status).toBe(413);
    expect(bomb.body.message).toBe(ACCOUNT_MESSAGES.imageTooManyPixels);
    const huge = await upload(Buffer.alloc(5 * 1024 * 1024 + 10, 1), 'huge.png');
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe(ACCOUNT_MESSAGES.imageTooLarge);
    const anonymous = await upload(await photo(64, 64), 'a.png', {}, {});
    expect(anonymous.status).toBe(401);
    const noFile = await call(t, 'POST', '/system/account/avatar', demo.teacher, { x: 1 });
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe(ACCOUNT_MESSAGES.noFile);

    const removed = dataOf<{ avatar: null }>(await call(t, 'DELETE', '/system/account/avatar', demo.teacher));
    expect(removed.avatar).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: cropped.avatar })).statusCode).toBe(404);
  });

  it('registers by phone with an SMS code sent after the image captcha', async () => {
    const noCaptcha = await call(
      t,
      'POST',
      '/oauth/sms/send',
      {},
      {
        phone: '13800000001',
        purpose: 'register',
        captchaKey: await captchaKey(),
        captchaCode: 'zzzz',
      },
    );
    expect(noCaptcha.body.message).toBe(MESSAGES.captchaWrong);
    const badPhone = await sendSms('1380000', 'register');
    expect(badPhone.body.message).toContain(ACCOUNT_MESSAGES.phoneInvalid);
    const sent = await sendSms('13800000001', 'register');
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ expiresIn: 300, resendAfter: 60 });
    const [message] = await inbox('13800000001');
    expect(message).toMatchObject({ phone: '13800000001', purpose: 'register' });
    expect(message!.code).toMatch(/^\d{6}$/);
    expect(message!.text).toContain(message!.code);
    const body = {
      username: 'phone-user',
      password: 'Phone2026',
      password2: 'Phone2026',
      nickname: '手机用户',
      phone: '13800000001',
    };
    const wrong = await call(
      t,
      'POST',
      '/oauth/register/phone',
      {},
      { ...body, smsCode: '000000' === message!.code ? '111111' : '000000' },
    );
    expect(wrong.body.message).toBe(ACCOUNT_MESSAGES.smsWrong);
    const missing = await call(t, 'POST', '/oauth/register/phone', {}, { ...body, smsCode: '' });
    expect(missing.body.message).toContain(FORM_MESSAGES.sms);
    const done = await call(t, 'POST', '/oauth/register/phone', {}, { ...body, smsCode: message!.code });
    expect(done.status).toBe(200);
    const user = await as(t, 'phone-user', 'Phone2026');
    expect((await profile(user)).phone).toBe('138****0001');
    tick();
    const again = await sendSms('13800000001', 'register');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(ACCOUNT_MESSAGES.phoneTaken);
  });

  it('binds a phone with a code sent to it; a phone of another account is refused', async () => {
    const taken = await call(t, 'POST', '/system/account/phone/sms', demo.director, { phone: '13800000001' });
    expect(taken.status).toBe(409);
    dataOf(await call(t, 'POST', '/system/account/phone/sms', demo.director, { phone: '13900000002' }));
    const code = await lastCode('13900000002');
    const bound = await call(t, 'PUT', '/system/account/phone', demo.director, {
      phone: '13900000002',
      smsCode: code,
    });
    expect(bound.status).toBe(200);
    expect(bound.body.message).toBe(ACCOUNT_MESSAGES.phoneBound);
    expect((bound.body.data as Profile).phone).toBe('139****0002');
    // A code is good once.
    const reuse = await call(t, 'PUT', '/system/account/phone', demo.director, {
      phone: '13900000002',
      smsCode: code,
    });
    expect(reuse.body.message).toBe(ACCOUNT_MESSAGES.smsWrong);
  });

  it('signs in with an SMS code, answering the token call’s tokens', async () => {
    tick();
    expect((await sendSms('13700000009', 'login')).body.message).toBe(ACCOUNT_MESSAGES.phoneNotBound);
    expect((await sendSms('13900000002', 'login')).status).toBe(200);
    const code = await lastCode('13900000002');
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/sms/token',
      headers: { authorization: clientHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ phone: '13900000002', smsCode: code }).toString(),
    });
    expect(res.statusCode).toBe(200);
    const tokens = TokenResponseSchema.parse(res.json());
    expect((await profile(bearer(tokens.access_token))).username).toBe('demo-director');
  });

  it('resets a password with an SMS code and signs the account out everywhere', async () => {
    tick();
    const session = await as(t, 'phone-user', 'Phone2026');
    expect((await sendSms('13800000001', 'reset')).status).toBe(200);
    const code = await lastCode('13800000001');
    const mismatch = await call(
      t,
      'POST',
      '/oauth/password/reset',
      {},
      {
        phone: '13800000001',
        smsCode: code,
        password: 'Reset2026',
        password2: 'Reset2027',
      },
    );
    expect(mismatch.body.message).toContain(ACCOUNT_MESSAGES.passwordsDiffer);
    const weak = await call(
      t,
      'POST',
      '/oauth/password/reset',
      {},
      {
        phone: '13800000001',
        smsCode: code,
        password: 'short',
        password2: 'short',
      },
    );
    expect(weak.body.message).toContain('密码至少8位');
    const reset = await call(
      t,
      'POST',
      '/oauth/password/reset',
      {},
      {
        phone: '13800000001',
        smsCode: code,
        password: 'Reset2026',
        password2: 'Reset2026',
      },
    );
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe(ACCOUNT_MESSAGES.passwordReset);
    expect((await call(t, 'GET', '/system/account/profile', session)).status).toBe(401);
    expect((await signInWith('phone-user', 'Phone2026')).statusCode).toBe(400);
    expect((await signInWith('phone-user', 'Reset2026')).statusCode).toBe(200);
  });

  it('changes the password with the old one; other sessions are signed out, this one stays', async () => {
    const other = await as(t, 'phone-user', 'Reset2026');
    const current = await as(t, 'phone-user', 'Reset2026');
    const wrong = await call(t, 'PUT', '/system/account/password', current, {
      oldPassword: 'Nope2026',
      password: 'Change2026',
      password2: 'Change2026',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(ACCOUNT_MESSAGES.oldPasswordWrong);
    const same = await call(t, 'PUT', '/system/account/password', current, {
      oldPassword: 'Reset2026',
      password: 'Reset2026',
      password2: 'Reset2026',
    });
    expect(same.body.message).toContain(ACCOUNT_MESSAGES.passwordUnchanged);
    const changed = await call(t, 'PUT', '/system/account/password', current, {
      oldPassword: 'Reset2026',
      password: 'Change2026',
      password2: 'Change2026',
    });
    expect(changed.status).toBe(200);
    expect((await call(t, 'GET', '/system/account/profile', current)).status).toBe(200);
    expect((await call(t, 'GET', '/system/account/profile', other)).status).toBe(401);
    expect((await signInWith('phone-user', 'Change2026')).statusCode).toBe(200);
  });

  it('limits SMS codes: one a minute per phone, ten a day per phone, twenty an hour per address', async () => {
    const phone = '13600000003';
    expect((await sendSms(phone, 'register', '10.0.0.1')).status).toBe(200);
    const soon = await sendSms(phone, 'register', '10.0.0.1');
    expect(soon.status).toBe(429);
    expect(soon.body.message).toBe(ACCOUNT_MESSAGES.smsTooSoon(60));
    tick(30);
    expect((await sendSms(phone, 'register', '10.0.0.1')).body.message).toBe(ACCOUNT_MESSAGES.smsTooSoon(30));
    for (let i = 1; i < SMS_LIMITS.perPhonePerDay; i++) {
      tick();
      expect((await sendSms(phone, 'register', `10.0.1.${i}`)).status).toBe(200);
    }
    tick();
    const daily = await sendSms(phone, 'register', '10.0.2.1');
    expect(daily.status).toBe(429);
    expect(daily.body.message).toBe(ACCOUNT_MESSAGES.smsPhoneDailyLimit);

    for (let i = 0; i < SMS_LIMITS.perAddressPerHour; i++) {
      expect((await sendSms(`1350000${String(i).padStart(4, '0')}`, 'register', '10.9.9.9')).status).toBe(
        200,
      );
    }
    const address = await sendSms('13599999999', 'register', '10.9.9.9');
    expect(address.status).toBe(429);
    expect(address.body.message).toBe(ACCOUNT_MESSAGES.smsAddressLimit);
    tick(3_601);
    expect((await sendSms('13599999999', 'register', '10.9.9.9')).status).toBe(200);
  });

  it('ends a code after five wrong tries, and a new code replaces the old one', async () => {
    tick();
    const phone = '13500000000';
    const right = await lastCode(phone);
    const body = (smsCode: string) => ({
      username: 'try-user',
      password: 'Tries2026',
      password2: 'Tries2026',
      nickname: '试试',
      phone,
      smsCode,
    });
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < SMS_LIMITS.maxAttempts; i++) {
      expect((await call(t, 'POST', '/oauth/register/phone', {}, body(wrongCode))).body.message).toBe(
        ACCOUNT_MESSAGES.smsWrong,
      );
    }
    expect((await call(t, 'POST', '/oauth/register/phone', {}, body(right))).body.message).toBe(
      ACCOUNT_MESSAGES.smsWrong,
    );
    expect((await sendSms(phone, 'register', '10.8.8.8')).status).toBe(200);
    const fresh = await lastCode(phone);
    expect((await call(t, 'POST', '/oauth/register/phone', {}, body(fresh))).status).toBe(200);
  });

  it('answers my classes and subjects, groups and directed grades', async () => {
    const mine = dataOf<MyTeaching>(await call(t, 'GET', '/system/account/teaching', demo.teacher));
    expect(mine).toMatchObject({
      orgId: demo.orgId,
      orgName: '演示学校',
      subjects: [{ id: SUBJECT_IDS.数学, name: '数学', stageName: '初中' }],
      classes: [
        { name: '七年级(1)班', grade: '七年级', yearName: '2026-2027学年' },
        { name: '七年级(2)班', grade: '七年级' },
      ],
      gradeDirectorOf: [],
    });
    expect(mine.teaching[0]?.classes).toHaveLength(2);
    expect(mine.groups.map((g) => `${g.name}/${g.kindName}/${g.isLeader}`)).toEqual([
      '七年级数学备课组/备课组/true',
      '数学教研组/教研组/false',
    ]);
    const director = dataOf<MyTeaching>(await call(t, 'GET', '/system/account/teaching', demo.director));
    expect(director.gradeDirectorOf).toEqual(['七年级']);
    const none = dataOf<MyTeaching>(
      await call(t, 'GET', '/system/account/teaching', await as(t, 'phone-user', 'Change2026')),
    );
    expect(none).toMatchObject({ orgId: null, subjects: [], classes: [] });
  });

  it('takes feedback with screenshots; administrators list and answer their school’s feedback', async () => {
    const shot = dataOf<{ id: string; url: string }>(
      await call(
        t,
        'POST',
        '/system/account/feedback/image',
        demo.teacher,
        fileForm(await photo(1200, 800), 's.png'),
      ),
    );
    expect(shot.url).toMatch(/^\/files\/feedback\/[0-9a-f-]{36}\.webp$/);
    const text = await call(
      t,
      'POST',
      '/system/account/feedback/image',
      demo.teacher,
      fileForm(Buffer.from('x'), 's.png'),
    );
    expect(text.status).toBe(415);
    const empty = await call(t, 'POST', '/system/account/feedback', demo.teacher, {
      type: '问题反馈',
      content: '',
    });
    expect(empty.body.message).toContain(ACCOUNT_MESSAGES.feedbackContent);
    const tooMany = await call(t, 'POST', '/system/account/feedback', demo.teacher, {
      type: '问题反馈',
      content: 'x',
      imageIds: ['a', 'b', 'c', 'd'],
    });
    expect(tooMany.body.message).toContain(ACCOUNT_MESSAGES.feedbackTooManyImages);
    const notMine = await call(t, 'POST', '/system/account/feedback', demo.director, {
      type: '问题反馈',
      content: '借用别人的截图',
      imageIds: [shot.id],
    });
    expect(notMine.body.message).toBe(ACCOUNT_MESSAGES.feedbackImageNotFound);
    const sent = dataOf<Feedback>(
      await call(t, 'POST', '/system/account/feedback', demo.teacher, {
        type: '问题反馈',
        content: '扫描后页面没有刷新',
        contact: '微信 wang-teacher',
        imageIds: [shot.id],
      }),
    );
    expect(sent).toMatchObject({
      status: 'pending',
      statusName: '待回复',
      reply: null,
      orgId: demo.orgId,
      images: [shot],
    });

    // The screenshot: its author and the school's administrators, nobody else.
    expect((await call(t, 'GET', shot.url, demo.teacher)).status).toBe(200);
    expect((await call(t, 'GET', shot.url, demo.admin)).status).toBe(200);
    expect((await call(t, 'GET', shot.url, demo.director)).status).toBe(404);
    expect((await call(t, 'GET', shot.url)).status).toBe(401);

    expect((await call(t, 'GET', '/school/feedback', demo.teacher)).status).toBe(403);
    const inbox = dataOf<{ records: Feedback[]; total: number }>(
      await call(t, 'GET', '/school/feedback?status=pending', demo.admin),
    );
    expect(inbox.records.map((f) => f.id)).toEqual([sent.id]);
    expect(inbox.records[0]?.author.username).toBe('demo-teacher');
    expect(
      (await call(t, 'PUT', `/school/feedback/${sent.id}/reply`, demo.teacher, { reply: '好的' })).status,
    ).toBe(403);
    const replied = dataOf<Feedback>(
      await call(t, 'PUT', `/school/feedback/${sent.id}/reply`, demo.admin, {
        reply: '已修复，请刷新后再试',
      }),
    );
    expect(replied).toMatchObject({ status: 'replied', reply: '已修复，请刷新后再试', repliedBy: '张校长' });
    const mine = dataOf<{ records: Feedback[] }>(
      await call(t, 'GET', '/system/account/feedback', demo.teacher),
    );
    expect(mine.records[0]).toMatchObject({
      id: sent.id,
      statusName: '已回复',
      reply: '已修复，请刷新后再试',
    });
    expect(
      dataOf<{ records: Feedback[] }>(await call(t, 'GET', '/system/account/feedback', demo.director))
        .records,
    ).toEqual([]);
  });

  it('switches the current school among the caller’s own schools only', async () => {
    const other = await t.testDb.db.kysely
      .selectFrom('orgs')
      .select('id')
      .where('name', '!=', '演示学校')
      .executeTakeFirst();
    if (other) {
      const refused = await call(t, 'PUT', '/system/account/default-school', demo.teacher, {
        orgId: other.id,
      });
      expect(refused.status).toBe(403);
    }
    const same = dataOf<Profile>(
      await call(t, 'PUT', '/system/account/default-school', demo.teacher, { orgId: demo.orgId }),
    );
    expect(same.defaultOrgId).toBe(demo.orgId);
  });
});

describe('the SMS provider and the development inbox', () => {
  it('sends through a plugged-in provider, and then the development inbox is off', async () => {
    const sent: SmsMessage[] = [];
    const testDb = await openTestDb('sqlite');
    const app = await buildApp({
      // No demo school: seeding it is most of a test's time on a loaded machine, and a sign-up needs none.
      config: loadConfig({
        LOG_LEVEL: 'silent',
        WEB_DIST: '',
        DATA_DIR: testDb.location,
        SEED_DEMO: 'false',
      }),
      db: testDb.db,
      makeCaptcha: () => ({ text: 'AbCd', svg: '<svg/>' }),
      smsProvider: { name: 'test', send: (m) => Promise.resolve(void sent.push(m)) },
    });
    try {
      const captcha = (await app.inject({ method: 'GET', url: '/oauth/captcha' })).json().data
        .captchaKey as string;
      const res = await app.inject({
        method: 'POST',
        url: '/oauth/sms/send',
        payload: { phone: '13812345678', purpose: 'register', captchaKey: captcha, captchaCode: 'abcd' },
      });
      expect(res.statusCode).toBe(200);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ phone: '13812345678', purpose: 'register' });
      expect((await app.inject({ method: 'GET', url: '/system/dev/sms-inbox' })).statusCode).toBe(404);
    } finally {
      await app.close();
      await testDb.cleanup();
    }
  });

  it('withdraws the code and says so when the provider fails', async () => {
    const testDb = await openTestDb('sqlite');
    const app = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        WEB_DIST: '',
        DATA_DIR: testDb.location,
        SEED_DEMO: 'false',
      }),
      db: testDb.db,
      makeCaptcha: () => ({ text: 'AbCd', svg: '<svg/>' }),
      smsProvider: { name: 'down', send: () => Promise.reject(new Error('gateway down')) },
    });
    try {
      const captcha = (await app.inject({ method: 'GET', url: '/oauth/captcha' })).json().data
        .captchaKey as string;
      const res = await app.inject({
        method: 'POST',
        url: '/oauth/sms/send',
        payload: { phone: '13812345678', purpose: 'register', captchaKey: captcha, captchaCode: 'abcd' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).toBe(ACCOUNT_MESSAGES.smsSendFailed);
      const live = await testDb.db.kysely.selectFrom('sms_codes').select('consumed_at').execute();
      expect(live.every((r) => r.consumed_at !== null)).toBe(true);
    } finally {
      await app.close();
      await testDb.cleanup();
    }
  });
});
