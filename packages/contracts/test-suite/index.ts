/**
 * The contract suite: drives calls of the contracts over real HTTP against a running host and checks each answer
 * against its schema. Every bearer call is driven once without a token (401); the calls driven to a checked answer
 * are listed in DRIVEN, and every other call is in not-driven.ts with the reason (a test below keeps the two lists
 * true). It takes a base URL, so it runs against the server on SQLite, on PostgreSQL, or any deployed host (see
 * vitest.config.ts beside this file).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BasketSchema,
  ErrorBodySchema,
  FORM_MESSAGES,
  MESSAGES,
  TokenResponseSchema,
  buildPath,
  calls,
  type CallDef,
} from '../src/index.js';
import { NOT_DRIVEN } from './not-driven.js';

/** The calls this suite drives to a checked answer (`register` to its refusals only). */
export const DRIVEN: readonly string[] = [
  'token',
  'captcha',
  'register',
  'userInfo',
  'classList',
  'updateClassDefault',
  'stageList',
  'textbookList',
  'booknodeTree',
  'knowledgeTree',
  'questionTypeList',
  'questionPage',
  'addBasket',
  'getQuestionBasket',
  'removeBasket',
  'delQuestionType',
  'clearBasket',
  'signout',
  'paperSettingDefaults',
  'myPapers',
  'templatePapers',
  'schoolPapers',
  'recycleBin',
  'homeworkList',
  'profile',
  'myTeaching',
  'schoolYears',
  'schoolSubjects',
  'myQuestionShares',
  'questionRecycleBin',
  'materialFolders',
  'myFeedback',
];

/** Reads of the signed-in teacher that need no data the suite would have to make first. */
const TEACHER_READS = [
  calls.paperSettingDefaults,
  calls.myPapers,
  calls.templatePapers,
  calls.schoolPapers,
  calls.recycleBin,
  calls.homeworkList,
  calls.profile,
  calls.myTeaching,
  calls.schoolYears,
  calls.schoolSubjects,
  calls.myQuestionShares,
  calls.questionRecycleBin,
  calls.materialFolders,
  calls.myFeedback,
] as const;

export interface ContractTarget {
  baseUrl: string;
  /** A teacher account with a school and a default school year. */
  username: string;
  password: string;
  clientId?: string;
  clientSecret?: string;
}

interface Sent {
  status: number;
  body: unknown;
}

function encode(call: CallDef, body: unknown): { headers: Record<string, string>; payload?: string } {
  if (body === undefined) return { headers: {} };
  if (call.encoding === 'form') {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(
      body as Record<string, string | number | boolean | null | undefined>,
    )) {
      if (v !== undefined && v !== null) form.set(k, String(v));
    }
    return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() };
  }
  return { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) };
}

/** Registers the contract tests for one target (call inside a describe or at top level). */
export function contractSuite(target: () => ContractTarget): void {
  let token = '';
  let refresh = '';
  let orgId = '';
  let yearId = '';

  const basic = () => {
    const t = target();
    return `Basic ${Buffer.from(`${t.clientId ?? 'zhzy-web'}:${t.clientSecret ?? 'zhzy-web-secret'}`).toString('base64')}`;
  };

  async function send(
    call: CallDef,
    input: {
      params?: Record<string, string>;
      query?: Record<string, string>;
      body?: unknown;
      auth?: string | null;
    } = {},
  ): Promise<Sent> {
    const url = new URL(buildPath(call.path, input.params), target().baseUrl);
    for (const [k, v] of Object.entries(input.query ?? {})) url.searchParams.set(k, v);
    const { headers, payload } = encode(call, input.body);
    const auth =
      input.auth === undefined ? (call.auth === 'client' ? basic() : `Bearer ${token}`) : input.auth;
    if (auth) headers.authorization = auth;
    const res = await fetch(url, {
      method: call.method,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  }

  function expectOk<S extends z.ZodType>(sent: Sent, schema: S): z.output<S> {
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const parsed = schema.safeParse(sent.body);
    expect(parsed.error?.issues ?? [], 'answer matches its schema').toEqual([]);
    return parsed.data as z.output<S>;
  }

  async function currentBasket() {
    const sent = await send(calls.getQuestionBasket);
    return BasketSchema.parse((sent.body as { data: unknown }).data);
  }

  function expectError(sent: Sent, status: number, message?: string | RegExp) {
    expect(sent.status).toBe(status);
    const body = ErrorBodySchema.parse(sent.body);
    if (typeof message === 'string') expect(body.message).toBe(message);
    else if (message) expect(body.message).toMatch(message);
    return body;
  }

  describe('contract: auth', () => {
    it('POST /oauth/oauth/token (password grant, form-encoded) answers the token fields', async () => {
      const t = target();
      const sent = await send(calls.token, {
        body: { grant_type: 'password', username: t.username, password: t.password },
      });
      const answer = expectOk(sent, TokenResponseSchema);
      token = answer.access_token;
      refresh = answer.refresh_token;
    });

    it('refuses the token call without the client header', async () => {
      const t = target();
      const sent = await send(calls.token, {
        body: { grant_type: 'password', username: t.username, password: t.password },
        auth: null,
      });
      expectError(sent, 401, MESSAGES.badClient);
    });

    it('refuses an empty username with 请输入用户名', async () => {
      const sent = await send(calls.token, { body: { grant_type: 'password', username: '', password: 'x' } });
      expectError(sent, 400, new RegExp(FORM_MESSAGES.username));
    });

    it('POST /oauth/oauth/token (refresh_token grant) rotates the tokens', async () => {
      const sent = await send(calls.token, { body: { grant_type: 'refresh_token', refresh_token: refresh } });
      const answer = expectOk(sent, TokenResponseSchema);
      expect(answer.refresh_token).not.toBe(refresh);
      token = answer.access_token;
      refresh = answer.refresh_token;
    });

    it('answers refresh token无效 for an unknown refresh token', async () => {
      const sent = await send(calls.token, { body: { grant_type: 'refresh_token', refresh_token: 'nope' } });
      expectError(sent, 400, MESSAGES.refreshTokenInvalid);
    });

    it('GET /oauth/captcha answers an image', async () => {
      expectOk(await send(calls.captcha, { auth: null }), calls.captcha.response);
    });

    it('POST /oauth/register (JSON) refuses a wrong image code in Chinese and a missing nickname naming it', async () => {
      const captcha = expectOk(await send(calls.captcha, { auth: null }), calls.captcha.response).data;
      const body = {
        username: `contract-${Date.now().toString(36)}`,
        password: 'Contract2026',
        password2: 'Contract2026',
        nickname: '契约测试',
        captchaKey: captcha.captchaKey,
        captchaCode: '!!!!',
      };
      expectError(await send(calls.register, { body, auth: null }), 400, MESSAGES.captchaWrong);
      const noNickname = await send(calls.register, { body: { ...body, nickname: '' }, auth: null });
      expectError(noNickname, 400, new RegExp(FORM_MESSAGES.nickname));
    });
  });

  describe('contract: bearer calls refuse a missing token with 401', () => {
    const bearerCalls = Object.values(calls).filter((c) => c.auth === 'bearer');
    it.each(bearerCalls.map((c) => [c.name, c] as const))('%s', async (_name, call) => {
      // Every path parameter filled with a placeholder: the token check comes before any look-up.
      const names = [...call.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const params = names.length > 0 ? Object.fromEntries(names.map((n) => [n, 'x'])) : undefined;
      const sent = await send(call, { auth: null, ...(params ? { params } : {}) });
      expectError(sent, 401);
    });
  });

  describe('contract: what the suite drives', () => {
    it('lists every call once: driven here, or in not-driven.ts with the reason', () => {
      const all: string[] = Object.values(calls).map((c) => c.name);
      expect(all.filter((n) => !DRIVEN.includes(n) && !(n in NOT_DRIVEN))).toEqual([]);
      expect(DRIVEN.filter((n) => n in NOT_DRIVEN)).toEqual([]);
      expect([...DRIVEN, ...Object.keys(NOT_DRIVEN)].filter((n) => !all.includes(n))).toEqual([]);
    });
  });

  describe('contract: reads of the signed-in teacher', () => {
    beforeAll(async () => {
      if (!token) {
        const t = target();
        const sent = await send(calls.token, {
          body: { grant_type: 'password', username: t.username, password: t.password },
        });
        token = TokenResponseSchema.parse(sent.body).access_token;
      }
    });

    it.each(TEACHER_READS.map((c) => [c.name, c] as const))('%s answers its schema', async (_name, call) => {
      expectOk(await send(call), call.response);
    });
  });

  describe('contract: school and basket', () => {
    let subjectId = '';
    let questionIds: string[] = [];

    beforeAll(async () => {
      if (!token) {
        const t = target();
        const sent = await send(calls.token, {
          body: { grant_type: 'password', username: t.username, password: t.password },
        });
        token = TokenResponseSchema.parse(sent.body).access_token;
      }
    });

    it('GET /system/user/info answers the user record and grade info', async () => {
      const info = expectOk(await send(calls.userInfo), calls.userInfo.response);
      expect(info.data.user.username).toBe(target().username);
      expect(info.data.gradeInfo.orgDefaultId).toBeTruthy();
      orgId = info.data.gradeInfo.orgDefaultId ?? '';
    });

    it('GET /system/class with type=1 lists the school years in data', async () => {
      const answer = expectOk(
        await send(calls.classList, { query: { orgId, type: '1', pid: '' } }),
        calls.classList.response,
      );
      expect(answer.data.length).toBeGreaterThan(0);
      yearId = (answer.data.find((y) => y.isDefault) ?? answer.data[0])!.id;
    });

    it('GET /system/class with type=2 lists the classes of a school year', async () => {
      expectOk(
        await send(calls.classList, { query: { orgId, type: '2', pid: yearId } }),
        calls.classList.response,
      );
    });

    it('PUT /system/class/updateClassDefault takes a form and answers 200', async () => {
      expectOk(
        await send(calls.updateClassDefault, { body: { orgId, classId: yearId } }),
        calls.updateClassDefault.response,
      );
    });

    it('GET /system/class refuses a missing orgId naming the field', async () => {
      const body = expectError(await send(calls.classList, { query: { type: '1' } }), 400);
      expect(body.message).toContain('orgId');
    });

    it('GET /system/stage/list answers stages with subjects', async () => {
      const answer = expectOk(await send(calls.stageList), calls.stageList.response);
      subjectId =
        answer.data[0]!.subjects.find((s) => s.name === '数学')?.id ?? answer.data[0]!.subjects[0]!.id;
    });

    it('GET /teacher/textbook/list, /teacher/textbook/booknode, /teacher/knowledge/tree, /teacher/question/types answer', async () => {
      const books = expectOk(
        await send(calls.textbookList, { query: { subjectId } }),
        calls.textbookList.response,
      );
      if (books.data[0]) {
        expectOk(
          await send(calls.booknodeTree, { query: { textbookId: books.data[0].id } }),
          calls.booknodeTree.response,
        );
      }
      expectOk(await send(calls.knowledgeTree, { query: { subjectId } }), calls.knowledgeTree.response);
      expectOk(await send(calls.questionTypeList, { query: { subjectId } }), calls.questionTypeList.response);
    });

    it('GET /teacher/question/page answers a page of questions', async () => {
      const answer = expectOk(
        await send(calls.questionPage, { query: { subjectId, page: '1', size: '5' } }),
        calls.questionPage.response,
      );
      expect(answer.data.records.length).toBeGreaterThan(0);
      questionIds = answer.data.records.map((q) => q.id);
    });

    it('POST /teacher/paper/info/addBasket (JSON) then GET getQuestionBasket answers the basket in data', async () => {
      expectOk(await send(calls.addBasket, { body: { questionIds } }), calls.addBasket.response);
      const basket = expectOk(await send(calls.getQuestionBasket), calls.getQuestionBasket.response).data;
      for (const id of questionIds) expect(basket.questionIds).toContain(id);
    });

    it('POST /teacher/paper/info/removeBasket answers the basket', async () => {
      const answer = expectOk(
        await send(calls.removeBasket, { body: { questionIds: [questionIds[0]] } }),
        calls.removeBasket.response,
      );
      expect(answer.data.questionIds).not.toContain(questionIds[0]);
    });

    it('DELETE /teacher/paper/question/type/delQuestion/{id} answers the basket in data', async () => {
      const basket = await currentBasket();
      const paper = basket.paperInfo[0]!;
      const row = basket.type[paper.id]![0]!;
      const answer = expectOk(
        await send(calls.delQuestionType, { params: { id: row.id } }),
        calls.delQuestionType.response,
      );
      expect(answer.data.sumCount).toBe(basket.sumCount - row.questionCount);
    });

    it('DELETE /teacher/paper/info/{id}/clearBasket answers the basket in message', async () => {
      await send(calls.addBasket, { body: { questionIds } });
      const basket = await currentBasket();
      const answer = expectOk(
        await send(calls.clearBasket, { params: { id: basket.paperInfo[0]!.id } }),
        calls.clearBasket.response,
      );
      expect(answer.message.paperInfo.map((p) => p.id)).not.toContain(basket.paperInfo[0]!.id);
    });

    it('answers 404 with 很抱歉，资源未找到 for an unknown basket paper', async () => {
      expectError(await send(calls.clearBasket, { params: { id: 'no-such-paper' } }), 404);
    });

    it('DELETE /oauth/signout revokes the token', async () => {
      expectOk(await send(calls.signout), calls.signout.response);
      expectError(await send(calls.getQuestionBasket), 401);
    });
  });
}
