import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES, calls } from '@zhzy/contracts';
import { ApiError, createApiClient, createMemoryStorage } from '../src/index.js';
import { recordingClient } from './helpers/client.js';
import { rejection } from './helpers/expect.js';
import { reply, startLocalServer, type LocalServer } from './helpers/local-server.js';

const USER = {
  id: 'u1',
  username: 'demo-teacher',
  nickname: '王老师',
  avatar: null,
  phone: null,
  orgLogo: null,
  logoPath: null,
  orgName: '演示学校',
  orgDefaultId: 'o1',
  gradeDirector: false,
  isCreator: false,
  isAdministrator: false,
  orgs: [],
};
const OK = { code: 200, message: '操作成功', data: null };

let host: LocalServer;
beforeAll(async () => {
  host = await startLocalServer();
});
afterAll(async () => {
  await host.close();
});
afterEach(() => {
  host.requests.length = 0;
  host.handle((_req, res) => reply(res, 200, OK));
});

/** A client with a stored session whose access token is good for another hour. */
function signedInClient(options: Parameters<typeof recordingClient>[1] = {}) {
  const rec = recordingClient(host.baseUrl, { validateResponses: false, ...options });
  rec.storage.set('access_token', 'tok-a');
  rec.storage.set('refresh_token', 'ref-a');
  rec.storage.set('expires_at', Date.now() + 3_600_000);
  rec.storage.set('user', USER);
  return rec;
}

const form = (body: Buffer) => Object.fromEntries(new URLSearchParams(body.toString('utf8')));

describe('how requests are encoded', () => {
  it('sends a form call form-encoded with the bearer token', async () => {
    const { client } = signedInClient();
    await client.call(calls.updateClassDefault, { body: { orgId: 'o1', classId: 'y2' } });
    const [req] = host.requests;
    expect(req?.method).toBe('PUT');
    expect(req?.url).toBe('/system/class/updateClassDefault');
    expect(req?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req?.headers.authorization).toBe('Bearer tok-a');
    expect(form(req!.body)).toEqual({ orgId: 'o1', classId: 'y2' });
  });

  it('sends a query call as a query string, skipping absent values', async () => {
    const { client } = signedInClient();
    await client.call(calls.classList, { query: { orgId: 'o1', type: '1', pid: undefined } });
    expect(host.requests[0]?.url).toBe('/system/class?orgId=o1&type=1');
    expect(host.requests[0]?.body.length).toBe(0);
  });

  it('sends a JSON call as JSON', async () => {
    const { client } = signedInClient();
    await client.call(calls.addBasket, { body: { questionIds: ['q1', 'q2'] } });
    const [req] = host.requests;
    expect(req?.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(req!.body.toString('utf8'))).toEqual({ questionIds: ['q1', 'q2'] });
  });

  it('fills path parameters URI-encoded and sends no body for a call without payload', async () => {
    const { client } = signedInClient();
    await client.call(calls.clearBasket, { params: { id: 'a b/c' } });
    const [req] = host.requests;
    expect(req?.method).toBe('DELETE');
    expect(req?.url).toBe('/teacher/paper/info/a%20b%2Fc/clearBasket');
    expect(req?.headers['content-type']).toBeUndefined();
    expect(req?.body.length).toBe(0);
  });

  it('sends no Authorization header for a bearer call when no token is stored', async () => {
    const { client } = recordingClient(host.baseUrl);
    host.handle((_req, res) => reply(res, 200, { code: 200, message: 'ok', data: [] }));
    await client.call(calls.stageList);
    expect(host.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('answers the parsed JSON body of a 200', async () => {
    const { client } = signedInClient();
    host.handle((_req, res) => reply(res, 200, { code: 200, message: '操作成功', data: [{ id: 's1' }] }));
    await expect(client.get('/anything')).resolves.toEqual({
      code: 200,
      message: '操作成功',
      data: [{ id: 's1' }],
    });
  });

  it('login sends the password grant form-encoded with the fixed Basic client header, without absent captcha fields', async () => {
    const { client, storage } = recordingClient(host.baseUrl, { validateResponses: false, now: () => 5_000 });
    host.handle((req, res) => {
      if (req.url === '/oauth/oauth/token') {
        reply(res, 200, {
          access_token: 'A',
          refresh_token: 'R',
          expires_in: 7200,
          token_type: 'bearer',
          scope: 'server',
        });
        return;
      }
      const { orgDefaultId, gradeDirector, isCreator, isAdministrator, orgs, ...user } = USER;
      reply(res, 200, {
        code: 200,
        message: '操作成功',
        data: { user, gradeInfo: { orgDefaultId, gradeDirector, isCreator, isAdministrator }, orgs },
      });
    });
    const info = await client.login({ username: 'demo-teacher', password: 'Demo@2026' });
    expect(info.user.username).toBe('demo-teacher');
    const [token, userInfo] = host.requests;
    expect(token?.headers.authorization).toBe(
      `Basic ${Buffer.from('zhzy-web:zhzy-web-secret').toString('base64')}`,
    );
    expect(token?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(form(token!.body)).toEqual({
      grant_type: 'password',
      username: 'demo-teacher',
      password: 'Demo@2026',
    });
    expect(userInfo?.url).toBe('/system/user/info');
    expect(userInfo?.headers.authorization).toBe('Bearer A');
    expect(storage.get('expires_at')).toBe(5_000 + 7_200_000);
    expect(client.isSignedIn()).toBe(true);
  });

  it('uses the configured client id and secret in the Basic header', async () => {
    const { client } = recordingClient(host.baseUrl, { clientId: '客户端', clientSecret: 's3cret' });
    host.handle((_req, res) => reply(res, 400, { code: 400, message: '用户名或密码错误', data: null }));
    await rejection(client.login({ username: 'x', password: 'y', captchaKey: 'k', captchaCode: 'c' }));
    const [req] = host.requests;
    expect(req?.headers.authorization).toBe(`Basic ${Buffer.from('客户端:s3cret').toString('base64')}`);
    expect(form(req!.body)).toMatchObject({ captchaKey: 'k', captchaCode: 'c' });
  });

  it('get and del put their parameters in the query string, skipping null and undefined', async () => {
    const { client } = signedInClient();
    await client.get('/system/class', {
      orgId: 'o1',
      type: 1,
      pid: '',
      skip: null,
      gone: undefined,
      ids: ['a', 'b'],
    });
    await client.del('teacher/thing', { id: 7, reason: null });
    expect(host.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /system/class?orgId=o1&type=1&pid=&ids=a&ids=b',
      'DELETE /teacher/thing?id=7',
    ]);
  });

  it('postForm, putForm, postJson and putJson encode their payloads', async () => {
    const { client } = signedInClient();
    await client.postForm('/f', { a: '中文', b: null, c: true });
    await client.putForm('/f', { n: 2 });
    await client.postJson('/j', { a: [1, null] });
    await client.putJson('/j', [1, 2]);
    const [pf, uf, pj, uj] = host.requests;
    expect([pf?.method, uf?.method, pj?.method, uj?.method]).toEqual(['POST', 'PUT', 'POST', 'PUT']);
    expect(form(pf!.body)).toEqual({ a: '中文', c: 'true' });
    expect(form(uf!.body)).toEqual({ n: '2' });
    expect(JSON.parse(pj!.body.toString())).toEqual({ a: [1, null] });
    expect(JSON.parse(uj!.body.toString())).toEqual([1, 2]);
    expect(pj?.headers['content-type']).toMatch(/^application\/json/);
  });

  it('upload posts multipart form data as given', async () => {
    const { client } = signedInClient();
    host.handle((req, res) =>
      reply(res, 200, { contentType: req.headers['content-type'], body: req.body.toString('utf8') }),
    );
    const data = new FormData();
    data.append('paperId', 'p1');
    data.append('file', new Blob(['JPEGDATA'], { type: 'image/jpeg' }), 'scan-001.jpg');
    const echo = await client.upload<{ contentType: string; body: string }>('/teacher/scan/upload', data);
    expect(host.requests[0]?.method).toBe('POST');
    expect(host.requests[0]?.headers.authorization).toBe('Bearer tok-a');
    expect(echo.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(echo.body).toContain('name="paperId"');
    expect(echo.body).toContain('p1');
    expect(echo.body).toContain('name="file"; filename="scan-001.jpg"');
    expect(echo.body).toContain('JPEGDATA');
  });

  it('putFile sends one file under "file" by default plus extra fields, as a multipart PUT', async () => {
    const { client } = signedInClient();
    host.handle((req, res) =>
      reply(res, 200, { contentType: req.headers['content-type'], body: req.body.toString('utf8') }),
    );
    const echo = await client.putFile<{ contentType: string; body: string }>(
      '/system/user/avatar',
      new Blob(['PNGDATA'], { type: 'image/png' }),
      undefined,
      { userId: 'u1', skip: null },
    );
    expect(host.requests[0]?.method).toBe('PUT');
    expect(echo.contentType).toMatch(/^multipart\/form-data/);
    expect(echo.body).toContain('name="file"');
    expect(echo.body).toContain('PNGDATA');
    expect(echo.body).toContain('name="userId"');
    expect(echo.body).not.toContain('name="skip"');
  });
});

describe('error catalogue (SPEC §8)', () => {
  it('treats any status but 200 as a failure, even 201 and 204', async () => {
    const { client, notes } = signedInClient();
    host.handle((_req, res) => reply(res, 201, { code: 201, message: '已创建', data: null }));
    const created = await rejection(client.postJson('/x', {}));
    expect(created).toMatchObject({ kind: 'http', status: 201, message: '已创建' });
    host.handle((_req, res) => reply(res, 204));
    const empty = await rejection(client.get('/x'));
    expect(empty).toMatchObject({ kind: 'http', status: 204, message: MESSAGES.internal });
    expect(notes).toEqual([
      { message: '已创建', kind: 'error' },
      { message: '系统内部异常，请联系网站管理员', kind: 'error' },
    ]);
  });

  it('shows 很抱歉，资源未找到 for a 404 whatever the body says', async () => {
    const { client, notes } = signedInClient();
    host.handle((_req, res) => reply(res, 404, { code: 404, message: '试题篮不存在', data: null }));
    const error = await rejection(client.get('/x'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 404, message: '很抱歉，资源未找到' });
    expect(error.bodyMessage).toBe('试题篮不存在');
    expect(notes).toEqual([{ message: '很抱歉，资源未找到', kind: 'error' }]);
  });

  it('shows 很抱歉，您暂无该操作权限 for a 403', async () => {
    const { client, notes } = signedInClient();
    host.handle((_req, res) => reply(res, 403, { code: 403, message: 'forbidden', data: null }));
    expect(await rejection(client.get('/x'))).toMatchObject({
      status: 403,
      message: '很抱歉，您暂无该操作权限',
    });
    expect(notes).toEqual([{ message: '很抱歉，您暂无该操作权限', kind: 'error' }]);
  });

  it('shows the body message of any other failure verbatim', async () => {
    const { client, notes } = signedInClient();
    host.handle((_req, res) =>
      reply(res, 409, { code: 409, message: '该学年已归档，不能设为默认', data: { field: 'classId' } }),
    );
    const error = await rejection(client.postForm('/x', {}));
    expect(error).toMatchObject({ status: 409, message: '该学年已归档，不能设为默认' });
    expect(error.data).toEqual({ field: 'classId' });
    expect(notes).toEqual([{ message: '该学年已归档，不能设为默认', kind: 'error' }]);
  });

  it.each([
    ['a JSON null body', 500, 'null'],
    ['an empty body', 500, ''],
    ['an HTML error page', 502, '<html>Bad Gateway</html>'],
    ['a body without message', 400, '{"code":400}'],
  ])('shows 系统内部异常，请联系网站管理员 for %s', async (_name, status, text) => {
    const { client, notes } = signedInClient();
    host.handle((_req, res) => {
      res.statusCode = status;
      res.end(text);
    });
    const error = await rejection(client.get('/x'));
    expect(error).toMatchObject({ kind: 'http', status, message: '系统内部异常，请联系网站管理员' });
    expect(notes).toEqual([{ message: '系统内部异常，请联系网站管理员', kind: 'error' }]);
  });

  it('on 401 clears the storage, reports the sign-out once and shows no message', async () => {
    const { client, storage, backing, notes, onSignedOut } = signedInClient();
    storage.set('scanner', { index: 1 });
    host.handle((_req, res) => reply(res, 401, { code: 401, message: '登录已过期，请重新登录', data: null }));
    const errors = await Promise.all([rejection(client.get('/a')), rejection(client.get('/b'))]);
    expect(errors.map((e) => e.status)).toEqual([401, 401]);
    expect(backing.map.size).toBe(0);
    expect(client.isSignedIn()).toBe(false);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(notes).toEqual([]);
  });

  it('treats a body message containing "refresh token无效" like a 401', async () => {
    const { client, backing, notes, onSignedOut } = signedInClient();
    host.handle((_req, res) => reply(res, 400, { code: 400, message: 'refresh token无效', data: null }));
    expect(await rejection(client.get('/x'))).toMatchObject({ status: 400, message: 'refresh token无效' });
    expect(backing.map.size).toBe(0);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(notes).toEqual([]);
  });

  it('a late 401 of an old session leaves a newer session alone', async () => {
    const { client, storage, onSignedOut } = signedInClient();
    let answer!: () => void;
    host.handle((_req, res) => {
      answer = () => reply(res, 401, { code: 401, message: '登录已过期，请重新登录', data: null });
    });
    const pending = rejection(client.get('/slow'));
    await vi.waitFor(() => expect(host.requests).toHaveLength(1));
    storage.set('access_token', 'tok-b'); // signed in again meanwhile
    answer();
    expect((await pending).status).toBe(401);
    expect(storage.get('access_token')).toBe('tok-b');
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('a silent request rejects without a toast', async () => {
    const { client, notes } = signedInClient();
    host.handle((_req, res) => reply(res, 400, { code: 400, message: '请求参数不正确', data: null }));
    expect(await rejection(client.get('/x', {}, { silent: true }))).toMatchObject({
      message: '请求参数不正确',
    });
    expect(notes).toEqual([]);
  });

  it('a failed login shows the message, carries the body data and does not sign anyone out', async () => {
    const { client, storage, notes, onSignedOut } = recordingClient(host.baseUrl);
    storage.set('theme', 'dark');
    host.handle((_req, res) =>
      reply(res, 400, { code: 400, message: '请输入图形验证码', data: { captchaRequired: true } }),
    );
    const error = await rejection(client.login({ username: 'demo-teacher', password: 'wrong' }));
    expect(error).toMatchObject({ status: 400, message: '请输入图形验证码' });
    expect(error.data).toEqual({ captchaRequired: true });
    expect(notes).toEqual([{ message: '请输入图形验证码', kind: 'error' }]);
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(storage.get('theme')).toBe('dark');
    expect(client.isSignedIn()).toBe(false);
  });
});

describe('network errors, aborts and timeouts', () => {
  it('a slow answer fails after timeoutMs with the Chinese timeout message', async () => {
    const { client, notes } = signedInClient();
    host.handle((_req, res) => {
      setTimeout(() => reply(res, 200, OK), 1_000);
    });
    const error = await rejection(client.get('/slow', undefined, { timeoutMs: 50 }));
    expect(error).toMatchObject({ kind: 'timeout', status: null, message: '请求超时（50毫秒），请稍后重试' });
    expect(notes).toEqual([{ message: '请求超时（50毫秒），请稍后重试', kind: 'error' }]);
  });

  it('a caller abort fails with 请求已取消', async () => {
    const { client, notes } = signedInClient();
    host.handle((_req, res) => {
      setTimeout(() => reply(res, 200, OK), 1_000);
    });
    const controller = new AbortController();
    const pending = rejection(client.get('/slow', undefined, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 30);
    expect(await pending).toMatchObject({ kind: 'aborted', status: null, message: MESSAGES.requestAborted });
    expect(notes).toEqual([{ message: '请求已取消', kind: 'error' }]);
  });

  it('an already aborted signal sends nothing', async () => {
    const { client } = signedInClient();
    const error = await rejection(client.get('/x', undefined, { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(host.requests).toHaveLength(0);
  });

  it('an unreachable host fails with the network message', async () => {
    const closed = await startLocalServer();
    await closed.close();
    const { client, notes } = recordingClient(closed.baseUrl);
    const error = await rejection(client.get('/x'));
    expect(error).toMatchObject({ kind: 'network', status: null, message: '网络连接失败，请检查网络后重试' });
    expect(notes).toEqual([{ message: MESSAGES.networkError, kind: 'error' }]);
  });

  describe('default timeouts', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A fetch that never answers until its signal aborts. */
    const hangingFetch: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });

    async function timeoutOf(run: (client: ReturnType<typeof createApiClient>) => Promise<unknown>) {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const client = createApiClient({
        baseUrl: 'http://h',
        storage: createMemoryStorage(),
        fetch: hangingFetch,
      });
      let settled: ApiError | null = null;
      run(client).catch((e: unknown) => {
        settled = e as ApiError;
      });
      await vi.advanceTimersByTimeAsync(99_999);
      const at100s = settled;
      await vi.advanceTimersByTimeAsync(1);
      const after100s = settled as ApiError | null;
      await vi.advanceTimersByTimeAsync(320_000);
      const after420s = settled as ApiError | null;
      return { at100s, after100s, after420s };
    }

    it('ordinary calls time out after 100000 ms', async () => {
      const t = await timeoutOf((c) => c.get('/x'));
      expect(t.at100s).toBeNull();
      expect(t.after100s).toMatchObject({ kind: 'timeout', message: '请求超时（100000毫秒），请稍后重试' });
    });

    it('uploads, file PUTs and downloads time out after 420000 ms', async () => {
      for (const run of [
        (c: ReturnType<typeof createApiClient>) => c.upload('/u', new FormData()),
        (c: ReturnType<typeof createApiClient>) => c.putFile('/u', new Blob(['x'])),
        (c: ReturnType<typeof createApiClient>) => c.download('/d', {}, 'a.pdf', { silent: true }),
      ]) {
        const t = await timeoutOf(run);
        expect(t.after100s).toBeNull();
        expect(t.after420s).toMatchObject({ kind: 'timeout', message: '请求超时（420000毫秒），请稍后重试' });
        vi.useRealTimers();
      }
    });
  });
});

describe('progress bar', () => {
  it('turns on when the first request starts and off when the last one finishes, failures included', async () => {
    const { client, progress } = signedInClient({ notify: () => undefined });
    host.handle((req, res) => {
      setTimeout(
        () => (req.url === '/fail' ? reply(res, 500, '') : reply(res, 200, OK)),
        req.url === '/slow' ? 80 : 10,
      );
    });
    await Promise.allSettled([client.get('/slow'), client.get('/fast'), client.get('/fail')]);
    expect(progress).toEqual([true, false]);
    await client.get('/fast');
    expect(progress).toEqual([true, false, true, false]);
  });
});

describe('download', () => {
  const bytes = Buffer.alloc(200_000, 7);

  it('posts JSON, reports progress against Content-Length and saves under the given name', async () => {
    const saved: { blob: Blob; filename: string }[] = [];
    const { client, notes } = signedInClient({
      saveFile: (blob, filename) => void saved.push({ blob, filename }),
    });
    host.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(bytes.length) });
      res.write(bytes.subarray(0, 100_000));
      setTimeout(() => res.end(bytes.subarray(100_000)), 30);
    });
    const seen: [number, number | null][] = [];
    const blob = await client.download('/teacher/print/paper', { paperId: 'p1' }, '七年级数学.pdf', {
      onProgress: (loaded, total) => seen.push([loaded, total]),
    });
    const [req] = host.requests;
    expect(req?.method).toBe('POST');
    expect(req?.headers.authorization).toBe('Bearer tok-a');
    expect(JSON.parse(req!.body.toString())).toEqual({ paperId: 'p1' });
    expect(blob.size).toBe(bytes.length);
    expect(blob.type).toBe('application/pdf');
    expect(seen.length).toBeGreaterThan(2);
    expect(seen[0]).toEqual([0, bytes.length]);
    expect(seen.at(-1)).toEqual([bytes.length, bytes.length]);
    expect(seen.every(([, total]) => total === bytes.length)).toBe(true);
    expect(seen.map(([loaded]) => loaded)).toEqual([...seen.map(([loaded]) => loaded)].sort((a, b) => a - b));
    expect(saved).toHaveLength(1);
    expect(saved[0]?.filename).toBe('七年级数学.pdf');
    expect(Buffer.from(await saved[0]!.blob.arrayBuffer()).equals(bytes)).toBe(true);
    expect(notes).toEqual([]);
  });

  it('reports a null total when the host streams without Content-Length', async () => {
    const { client } = signedInClient({ saveFile: () => undefined });
    host.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('abc');
      res.end('def');
    });
    const seen: [number, number | null][] = [];
    await client.download('/d', {}, 'x.bin', { onProgress: (l, t) => seen.push([l, t]) });
    expect(seen.at(-1)).toEqual([6, null]);
  });

  it('a failed download shows 下载失败 and rejects with the host message', async () => {
    const saveFile = vi.fn();
    const { client, notes } = signedInClient({ saveFile });
    host.handle((_req, res) => reply(res, 500, { code: 500, message: '导出失败：试卷为空', data: null }));
    const error = await rejection(client.download('/d', {}, 'x.pdf'));
    expect(error).toMatchObject({ kind: 'http', status: 500, message: '导出失败：试卷为空' });
    expect(notes).toEqual([{ message: '下载失败', kind: 'error' }]);
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('a 401 during a download signs out without a toast', async () => {
    const { client, notes, onSignedOut } = signedInClient({ saveFile: () => undefined });
    host.handle((_req, res) => reply(res, 401, { code: 401, message: '登录已过期，请重新登录', data: null }));
    await rejection(client.download('/d', {}, 'x.pdf'));
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(notes).toEqual([]);
  });

  it('a failure to save the file shows 下载失败', async () => {
    const { client, notes } = signedInClient({
      saveFile: () => {
        throw new Error('disk full');
      },
    });
    host.handle((_req, res) => reply(res, 200, 'content'));
    await expect(client.download('/d', {}, 'x.txt')).rejects.toThrow('disk full');
    expect(notes).toEqual([{ message: '下载失败', kind: 'error' }]);
  });

  it('by default clicks an <a download> on an object URL of the blob', async () => {
    const clicked: { href: string; download: string }[] = [];
    const anchor = {
      href: '',
      download: '',
      style: { display: '' },
      click() {
        clicked.push({ href: this.href, download: this.download });
      },
      remove: vi.fn(),
    };
    vi.stubGlobal('document', { createElement: () => anchor, body: { appendChild: vi.fn() } });
    try {
      const { client } = signedInClient();
      host.handle((_req, res) => reply(res, 200, 'content'));
      await client.download('/d', {}, '成绩单.xlsx');
      expect(clicked).toHaveLength(1);
      expect(clicked[0]?.download).toBe('成绩单.xlsx');
      expect(clicked[0]?.href).toMatch(/^blob:/);
      expect(anchor.remove).toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('token renewal against a fake host', () => {
  it('a refresh that fails on the network rejects every waiting request and shows one toast', async () => {
    const now = 1_000_000;
    const { client, storage, notes, onSignedOut, tokenCalls } = signedInClient({ now: () => now });
    storage.set('expires_at', now + 60_000);
    host.handle((req, res) => {
      if (req.url === '/oauth/oauth/token') res.socket?.destroy();
      else reply(res, 200, OK);
    });
    const errors = await Promise.all([
      rejection(client.get('/a')),
      rejection(client.get('/b')),
      rejection(client.get('/c')),
    ]);
    expect(errors.map((e) => e.kind)).toEqual(['network', 'network', 'network']);
    expect(tokenCalls()).toBe(1);
    expect(notes).toEqual([{ message: MESSAGES.networkError, kind: 'error' }]);
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(storage.get('access_token')).toBe('tok-a');
  });

  it('a refresh answer without tokens fails as 系统内部异常 and keeps the old tokens', async () => {
    const now = 1_000_000;
    const { client, storage, notes } = signedInClient({ now: () => now });
    storage.set('expires_at', now + 60_000);
    host.handle((req, res) => reply(res, 200, req.url === '/oauth/oauth/token' ? { nothing: true } : OK));
    expect(await rejection(client.get('/a'))).toMatchObject({ message: MESSAGES.internal });
    expect(notes).toEqual([{ message: MESSAGES.internal, kind: 'error' }]);
    expect(storage.get('refresh_token')).toBe('ref-a');
  });
});
