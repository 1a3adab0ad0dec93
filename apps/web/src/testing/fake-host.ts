import { vi } from 'vitest';
import { EMPTY_BASKET, type Basket, type UserInfo } from '@zhzy/contracts';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}
export type FakeAnswer = { status?: number; body: unknown };
export type Handler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/** Replaces `fetch` with a table of `METHOD /path` handlers; unknown calls answer 404. Returns the call log. */
export function fakeHost(handlers: Record<string, Handler>) {
  const log: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw0 = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw0, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const raw = init?.body;
    let body: unknown = raw;
    if (typeof raw === 'string') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = Object.fromEntries(new URLSearchParams(raw));
      }
    }
    const req: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    log.push(req);
    const handler = handlers[`${method} ${url.pathname}`];
    const answer = handler
      ? await handler(req)
      : { status: 404, body: { code: 404, message: '很抱歉，资源未找到', data: null } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { log, fetchMock };
}

export const ok = (data: unknown, message = '操作成功'): FakeAnswer => ({
  body: { code: 200, message, data },
});

export const TEACHER: UserInfo = {
  user: {
    id: 'u1',
    username: 'demo-teacher',
    nickname: '王老师',
    avatar: null,
    phone: null,
    orgLogo: null,
    logoPath: null,
    orgName: '演示学校',
  },
  gradeInfo: { orgDefaultId: 'org1', gradeDirector: false, isCreator: false, isAdministrator: false },
  orgs: [{ id: 'org1', name: '演示学校', logoPath: null }],
};

export const DIRECTOR: UserInfo = {
  ...TEACHER,
  user: { ...TEACHER.user, id: 'u2', username: 'demo-director', nickname: '李主任' },
  gradeInfo: { ...TEACHER.gradeInfo, gradeDirector: true },
};

/** Stores a session the way the client does after a sign-in (token valid for an hour). */
export function signInAs(info: UserInfo = TEACHER): void {
  localStorage.setItem('access_token', JSON.stringify('test-access'));
  localStorage.setItem('refresh_token', JSON.stringify('test-refresh'));
  localStorage.setItem('expires_at', JSON.stringify(Date.now() + 3_600_000));
  localStorage.setItem('user', JSON.stringify({ ...info.user, ...info.gradeInfo, orgs: info.orgs }));
}

export function basketOf(
  papers: {
    id: string;
    stageId: string;
    subjectId: string;
    stageName: string;
    subjectName: string;
    rows: { id: string; typeId: string; dataName: string; questionCount: number }[];
  }[],
): Basket {
  if (papers.length === 0) return EMPTY_BASKET;
  const type: Basket['type'] = {};
  let sum = 0;
  const paperInfo = papers.map((p) => {
    type[p.id] = p.rows;
    const count = p.rows.reduce((s, r) => s + r.questionCount, 0);
    sum += count;
    return {
      id: p.id,
      stageId: p.stageId,
      subjectId: p.subjectId,
      stageName: p.stageName,
      subjectName: p.subjectName,
      testPaperTextbook: 'tb1',
      questionCount: count,
    };
  });
  return { sumCount: sum, paperInfo, type, questionIds: Array.from({ length: sum }, (_, i) => `q${i}`) };
}
