import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { layoutCard } from '@zhzy/answer-card';
import { MESSAGES, SCAN_MESSAGES, StartScanSchema } from '@zhzy/contracts';
import { HEALTH, ORIGIN, TOKEN, batchOf, fakeAgent, flush, pageOf, source, v } from '../testing/fake-agent';
import { ScanSession } from './scan-session';
import {
  readScannerState,
  resetScannerState,
  saveScannerSetting,
  DEFAULT_SCANNER_SETTING,
} from './scanner-settings';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);

const chooseScanner = (index: number, deviceId: string | null = `virtual:dev${index}`) =>
  saveScannerSetting({ ...DEFAULT_SCANNER_SETTING, scannerIndex: index, deviceId, virtualSheets: 4 });

/** A session whose agent is connected (hello seen) with the given sources. */
async function readySession(agent = fakeAgent(), sources = [source(0)]) {
  const session = new ScanSession(agent.deps);
  session.activate();
  await flush();
  agent.socket().deliver({ v, type: 'hello', agent: HEALTH, sources, batches: [] });
  await flush();
  return session;
}

beforeEach(() => resetScannerState());
afterEach(() => resetScannerState());

describe('loading the agent', () => {
  it('does not touch the agent until scanning is asked for when the page never paired', async () => {
    const agent = fakeAgent({}, { token: null });
    const session = new ScanSession(agent.deps);
    session.activate();
    await flush();
    expect(agent.calls).toEqual([]);
    expect(session.getState().status).toBe('idle');
  });

  it('reconnects at once when a token is stored, authenticating first on the websocket', async () => {
    const agent = fakeAgent();
    const session = new ScanSession(agent.deps);
    session.activate();
    await flush();
    expect(agent.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /health']);
    expect(agent.calls[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(session.getState().status).toBe('connecting');
    expect(agent.socket().url).toBe('ws://127.0.0.1:17310/ws');
    expect(agent.socket().sent[0]).toEqual({ v, type: 'auth', token: TOKEN });
    agent.socket().deliver({ v, type: 'hello', agent: HEALTH, sources: [source(0), source(1)], batches: [] });
    expect(session.getState().status).toBe('ready');
    expect(readScannerState().sources.map((s) => [s.id, s.text])).toEqual([
      [0, 'Scanner 0'],
      [1, 'Scanner 1'],
    ]);
  });

  it('says the agent cannot be reached', async () => {
    const agent = fakeAgent({ 'GET /health': () => new TypeError('Failed to fetch') }, { token: null });
    const session = new ScanSession(agent.deps);
    session.activate();
    await session.requestScan('y1');
    expect(session.getState().status).toBe('unreachable');
    expect(session.getState().scanRequested).toBe(false);
    expect(session.getState().loading).toBe(false);
  });

  it('tells an outdated agent (one that cannot print yet) by its protocol version', async () => {
    const agent = fakeAgent({ 'GET /health': () => ({ body: { ...HEALTH, protocolVersion: 1 } }) });
    const session = new ScanSession(agent.deps);
    session.activate();
    await flush();
    expect(session.getState().status).toBe('outdated');
    expect(session.getState().outdatedVersion).toBe(1);
    expect(agent.sockets).toHaveLength(0);
  });
});

describe('pairing', () => {
  it('walks from 连接 through the code to a stored token and an authenticated websocket', async () => {
    let confirmed: unknown = null;
    const agent = fakeAgent(
      {
        'POST /pairing/request': () => ({ body: { expiresAt: '2026-05-01T08:05:00.000Z' } }),
        'POST /pairing/confirm': (req) => {
          confirmed = req.body;
          return (req.body as { code: string }).code === '123456'
            ? { body: { token: 'new-token-abcdefghijklmnopqrstuvwxyz', origin: ORIGIN } }
            : { status: 403, body: { code: 403, message: '配对码不正确，还可尝试 4 次', data: null } };
        },
      },
      { token: null },
    );
    const session = new ScanSession(agent.deps);
    session.activate();
    await session.requestScan('y1');
    expect(session.getState()).toMatchObject({
      status: 'unpaired',
      pairingOpen: true,
      scanRequested: true,
      pairing: { step: 'start' },
    });

    await session.requestPairing();
    expect(session.getState().pairing).toMatchObject({ step: 'code', expiresAt: '2026-05-01T08:05:00.000Z' });

    await session.confirmPairing('12a');
    expect(session.getState().pairing.error).toBe('请输入扫描助手显示的6位配对码');
    expect(confirmed).toBeNull();

    await session.confirmPairing('654321');
    expect(session.getState().pairing.error).toBe('配对码不正确，还可尝试 4 次');
    expect(agent.token()).toBeNull();

    await session.confirmPairing('123456');
    expect(agent.token()).toBe('new-token-abcdefghijklmnopqrstuvwxyz');
    expect(agent.notify.success).toHaveBeenCalledWith('已与扫描助手配对');
    await flush();
    expect(agent.socket().sent[0]).toEqual({
      v,
      type: 'auth',
      token: 'new-token-abcdefghijklmnopqrstuvwxyz',
    });
    expect(session.getState().status).toBe('connecting');
  });

  it('shows a 403 of the pairing request as it comes', async () => {
    const agent = fakeAgent(
      {
        'POST /pairing/request': () => ({
          status: 403,
          body: { code: 403, message: '拒绝访问：该网页无权使用扫描助手', data: null },
        }),
      },
      { token: null },
    );
    const session = new ScanSession(agent.deps);
    session.activate();
    await session.ensureAgent();
    await session.requestPairing();
    expect(session.getState().pairing).toMatchObject({
      step: 'start',
      error: '拒绝访问：该网页无权使用扫描助手',
    });
  });

  it('pairs again when the agent no longer knows the token (health, websocket 4401, or a 401)', async () => {
    const stale = fakeAgent({ 'GET /health': () => ({ body: { ...HEALTH, authenticated: false } }) });
    const s1 = new ScanSession(stale.deps);
    s1.activate();
    await flush();
    expect(s1.getState().status).toBe('unpaired');
    expect(stale.token()).toBeNull();

    const closed = fakeAgent();
    const s2 = new ScanSession(closed.deps);
    s2.activate();
    await flush();
    closed.socket().drop(4401);
    expect(s2.getState()).toMatchObject({ status: 'unpaired', pairingOpen: true });
    expect(closed.token()).toBeNull();

    const refused = fakeAgent({
      'POST /scans': () => ({
        status: 401,
        body: { code: 401, message: '配对凭证与当前网页不符，请重新配对', data: null },
      }),
    });
    chooseScanner(0);
    const s3 = await readySession(refused);
    await s3.requestScan('y1');
    expect(s3.getState()).toMatchObject({
      status: 'unpaired',
      pairingOpen: true,
      pairing: { error: '配对凭证与当前网页不符，请重新配对' },
    });
    expect(refused.token()).toBeNull();
  });
});

describe('scan preconditions', () => {
  it('needs a school year: 请选择学年后再进行扫描, and the agent is not even loaded', async () => {
    const agent = fakeAgent({}, { token: null });
    const session = new ScanSession(agent.deps);
    session.activate();
    await session.requestScan(null);
    expect(agent.notify.error).toHaveBeenCalledWith(MESSAGES.scanNeedsYear);
    expect(agent.calls).toEqual([]);
    expect(session.getState().scanRequested).toBe(false);
  });

  it('needs at least one source: 请重新选择扫描仪', async () => {
    chooseScanner(0);
    const agent = fakeAgent();
    const session = await readySession(agent, []);
    await session.requestScan('y1');
    expect(agent.notify.error).toHaveBeenCalledWith(MESSAGES.scanReselect);
    expect(agent.host.createBatch).not.toHaveBeenCalled();
    expect(session.getState()).toMatchObject({ reselectTick: 1, loading: false, scanRequested: false });
  });

  it('needs a selectable index: none chosen, out of the list, or naming another device now', async () => {
    const agent = fakeAgent();
    const session = await readySession(agent, [source(0), source(1)]);
    await session.requestScan('y1');
    chooseScanner(5);
    await session.requestScan('y1');
    chooseScanner(1, 'sane:gone');
    await session.requestScan('y1');
    expect(agent.notify.error.mock.calls).toEqual([
      [MESSAGES.scanReselect],
      [MESSAGES.scanReselect],
      [MESSAGES.scanReselect],
    ]);
    expect(session.getState().reselectTick).toBe(3);
    expect(agent.calls.some((c) => c.path === '/scans')).toBe(false);
  });

  it('says 请重新选择扫描仪 on a 409 of the agent', async () => {
    chooseScanner(0);
    const agent = fakeAgent({
      'POST /scans': () => ({ status: 409, body: { code: 409, message: MESSAGES.scanReselect, data: null } }),
    });
    const session = await readySession(agent);
    await session.requestScan('y1');
    expect(agent.notify.error).toHaveBeenCalledWith(MESSAGES.scanReselect);
    expect(session.getState().reselectTick).toBe(1);
  });

  it('starts a requested scan as soon as the agent is ready: host batch first, then POST /scans', async () => {
    chooseScanner(0);
    saveScannerSetting({ ...readScannerState().setting, subjectTeacher: true, paperSize: 2, duplex: false });
    const agent = fakeAgent(
      { 'POST /scans': () => ({ body: batchOf({ hostBatchId: 'hb1' }) }) },
      { token: TOKEN },
    );
    const session = new ScanSession(agent.deps);
    session.activate();
    // Asked before the agent answered: the scan waits for hello.
    await session.requestScan('y1');
    expect(session.getState()).toMatchObject({ scanRequested: true, loading: true });
    await flush();
    expect(agent.calls.some((c) => c.path === '/scans')).toBe(false);
    agent.socket().deliver({ v, type: 'hello', agent: HEALTH, sources: [source(0)], batches: [] });
    await flush();
    expect(agent.host.createBatch).toHaveBeenCalledWith({
      schoolYearId: 'y1',
      subjectTeacher: true,
      source: 'agent',
      deviceName: 'Scanner 0',
      paperSize: 2,
      homeworkId: null,
    });
    const start = agent.calls.find((c) => c.method === 'POST' && c.path === '/scans')!;
    expect(start.body).toMatchObject({
      settings: {
        scannerIndex: 0,
        paperSize: 2,
        adaptive: false,
        duplex: false,
        subjectTeacher: true,
        colorMode: 'color',
      },
      host: { baseUrl: ORIGIN, batchId: 'hb1', uploadToken: expect.stringMatching(/^zus_/) },
      virtual: { sheets: 4 },
    });
    expect(session.getState()).toMatchObject({ currentBatchId: 'b1', scanRequested: false, loading: true });
  });

  it('bound to a homework: never offers another homework’s paused batch, and creates its scans for the homework', async () => {
    chooseScanner(0);
    const agent = fakeAgent(
      { 'POST /scans': () => ({ body: batchOf({ id: 'b9', hostBatchId: 'hb1', state: 'scanning' }) }) },
      { token: TOKEN },
    );
    const session = new ScanSession(agent.deps);
    session.setHomework('hw1', ['hb-mine']);
    session.activate();
    await flush();
    agent.socket().deliver({
      v,
      type: 'hello',
      agent: HEALTH,
      sources: [source(0)],
      batches: [
        batchOf({
          id: 'other',
          hostBatchId: 'hb-other',
          state: 'paused',
          createdAt: '2026-11-02T09:00:00.000Z',
        }),
        batchOf({ id: 'mine', hostBatchId: 'hb-mine', state: 'done', createdAt: '2026-11-01T09:00:00.000Z' }),
      ],
    });
    await flush();
    expect(session.getState().currentBatchId).toBe('mine');
    // A paused batch of another homework announced later is not taken up either.
    agent
      .socket()
      .deliver({ v, type: 'batch', batch: batchOf({ id: 'other2', hostBatchId: 'hb-x', state: 'paused' }) });
    expect(session.getState().currentBatchId).toBe('mine');

    await session.requestScan('y1');
    await flush();
    expect(agent.host.createBatch).toHaveBeenCalledWith(expect.objectContaining({ homeworkId: 'hw1' }));
    expect(session.getState().currentBatchId).toBe('b9');

    // Unbound again (扫描其他作业): every batch of this site is offered as before.
    const unbound = new ScanSession(agent.deps);
    unbound.setHomework(null, null);
    unbound.activate();
    await flush();
    agent.socket().deliver({
      v,
      type: 'hello',
      agent: HEALTH,
      sources: [source(0)],
      batches: [batchOf({ id: 'other', hostBatchId: 'hb-other', state: 'paused' })],
    });
    await flush();
    expect(unbound.getState().currentBatchId).toBe('other');
  });

  it('feeds the virtual scanner the card, the students and the answer key of the chosen homework, no more sheets than students', async () => {
    chooseScanner(0);
    saveScannerSetting({ ...readScannerState().setting, virtualSheets: 10, virtualHomeworkId: 'hw1' });
    const agent = fakeAgent(
      { 'POST /scans': () => ({ body: batchOf({ hostBatchId: 'hb1' }) }) },
      { token: TOKEN },
    );
    const layout = layoutCard(
      {
        id: 'p1',
        title: '单元测验',
        subtitle: '',
        sections: [
          {
            title: '一、单选题',
            questions: [{ id: 'q1', number: '1', score: 3, kind: 'single', options: 4 }],
          },
        ],
      },
      { size: 'A4', identity: 'qr' },
      { cardId: 'c1', version: 1 },
    );
    const students = [
      { id: 's1', name: '王子涵', number: '2026070101', className: '七年级(1)班' },
      { id: 's2', name: '李浩然', number: '2026070102', className: '七年级(1)班' },
    ];
    const key: Record<string, string> = { q1: 'C' };
    const difficulty: Record<string, number> = { q1: 0.25 };
    const virtualFeed = vi.fn(async () => ({ layout, students, key, difficulty }));
    const session = new ScanSession({ ...agent.deps, host: { ...agent.host, virtualFeed } });
    session.activate();
    await session.requestScan('y1');
    await flush();
    agent.socket().deliver({ v, type: 'hello', agent: HEALTH, sources: [source(0)], batches: [] });
    await flush();
    expect(virtualFeed).toHaveBeenCalledWith('hw1');
    const start = agent.calls.find((c) => c.method === 'POST' && c.path === '/scans')!;
    expect(start.body).toMatchObject({ virtual: { sheets: 2, layout, students, key, difficulty } });
    expect(StartScanSchema.safeParse(start.body).success).toBe(true);

    // No key could be read: the card and students go without one (the class answers at random).
    virtualFeed.mockResolvedValueOnce({ layout, students, key: {}, difficulty: {} });
    await session.requestScan('y1');
    await flush();
    const again = agent.calls.filter((c) => c.method === 'POST' && c.path === '/scans')[1]!;
    expect(again.body).toMatchObject({ virtual: { sheets: 2, layout, students } });
    expect(Object.keys((again.body as { virtual: object }).virtual)).not.toContain('key');
    expect(Object.keys((again.body as { virtual: object }).virtual)).not.toContain('teacherMarks');

    // 先阅后扫 (ADR 0065): with teacher marks on, the class's cards come ticked in red on their score boxes.
    saveScannerSetting({ ...readScannerState().setting, virtualTeacherMarks: true });
    await session.requestScan('y1');
    await flush();
    const marked = agent.calls.filter((c) => c.method === 'POST' && c.path === '/scans')[2]!;
    expect(marked.body).toMatchObject({ virtual: { sheets: 2, layout, students, teacherMarks: true } });
    expect(StartScanSchema.safeParse(marked.body).success).toBe(true);
  });
});

describe('a batch over the websocket', () => {
  it('appends pages as they come, clears the loading flag per page, and fetches each thumbnail', async () => {
    chooseScanner(0);
    const agent = fakeAgent({
      'POST /scans': () => ({ body: batchOf() }),
      'GET /scans/b1/pages/1/image': () => ({ body: JPEG }),
      'GET /scans/b1/pages/2/image': () => ({ body: JPEG }),
    });
    const session = await readySession(agent);
    await session.requestScan('y1');
    const ws = agent.socket();
    ws.deliver({ v, type: 'batch', batch: batchOf() });
    expect(session.getState().loading).toBe(true);
    ws.deliver({ v, type: 'page', page: pageOf(2, { side: 'back', blank: true }) });
    ws.deliver({ v, type: 'page', page: pageOf(1, { side: 'front' }) });
    expect(session.getState().loading).toBe(false);
    await flush(30);
    const pages = session.getState().pages.b1!;
    expect(pages.map((p) => [p.seq, p.blank, p.side])).toEqual([
      [1, false, 'front'],
      [2, true, 'back'],
    ]);
    expect(pages.every((p) => p.thumbUrl?.startsWith('blob:'))).toBe(true);
    const thumbCall = agent.calls.find((c) => c.path.startsWith('/scans/b1/pages/1/image'))!;
    expect(thumbCall.path).toBe('/scans/b1/pages/1/image?size=thumb');
    expect(thumbCall.headers.authorization).toBe(`Bearer ${TOKEN}`);

    // Upload states, a retry countdown, the batch counts and a notice.
    ws.deliver({
      v,
      type: 'upload',
      page: pageOf(1, { upload: 'uploaded', hostPageId: 'hp1' }),
      duplicate: false,
      retryInMs: null,
    });
    ws.deliver({
      v,
      type: 'upload',
      page: pageOf(2, { uploadError: '暂时无法连接服务器，稍后自动重试' }),
      duplicate: false,
      retryInMs: 4_000,
    });
    ws.deliver({
      v,
      type: 'batch',
      batch: batchOf({ state: 'paused', pageCount: 2, uploadedCount: 1, blankCount: 1 }),
    });
    ws.deliver({
      v,
      type: 'notice',
      batchId: 'b1',
      notice: { kind: 'jam', message: '扫描仪卡纸，请取出卡住的纸张', at: '2026-05-01T08:01:00.000Z' },
    });
    const state = session.getState();
    expect(state.pages.b1!.map((p) => p.upload)).toEqual(['uploaded', 'pending']);
    expect(state.pages.b1![1]!.retryAt).toBeGreaterThan(Date.now());
    expect(state.pages.b1![0]!.thumbUrl).toMatch(/^blob:/);
    expect(state.batches[0]).toMatchObject({ state: 'paused', pageCount: 2, uploadedCount: 1 });
    expect(state.notices[0]!.notice.message).toBe('扫描仪卡纸，请取出卡住的纸张');
  });

  it('ignores batches of other sites and of scripts', async () => {
    const agent = fakeAgent();
    const session = await readySession(agent);
    agent
      .socket()
      .deliver({ v, type: 'batch', batch: batchOf({ id: 'x', hostBaseUrl: 'https://other.example' }) });
    agent.socket().deliver({ v, type: 'batch', batch: batchOf({ id: 'y', hostBaseUrl: null }) });
    agent.socket().deliver({ v, type: 'page', page: pageOf(1, { batchId: 'x' }) });
    expect(session.getState().batches).toEqual([]);
    expect(session.getState().pages).toEqual({});
  });

  it('gets a new host batch and hands its token to the agent when the upload token expired', async () => {
    const agent = fakeAgent({ 'POST /scans/b1/host': () => ({ body: batchOf({ hostBatchId: 'hb1' }) }) });
    const session = await readySession(agent);
    session.setSchoolYear('y1');
    agent.socket().deliver({ v, type: 'batch', batch: batchOf() });
    agent.socket().deliver({ v, type: 'page', page: pageOf(1) });
    for (let i = 0; i < 2; i++)
      agent.socket().deliver({
        v,
        type: 'upload',
        page: pageOf(1, { upload: 'failed', uploadError: SCAN_MESSAGES.uploadTokenExpired }),
        duplicate: false,
        retryInMs: null,
      });
    await flush();
    expect(agent.host.createBatch).toHaveBeenCalledTimes(1);
    const renew = agent.calls.filter((c) => c.path === '/scans/b1/host');
    expect(renew).toHaveLength(1);
    expect(renew[0]!.body).toEqual({
      host: { baseUrl: ORIGIN, batchId: 'hb1', uploadToken: expect.stringMatching(/^zus_/) },
    });
  });

  it('rebuilds the batch after a reload from hello and GET /scans/:id', async () => {
    const agent = fakeAgent({
      'GET /scans/b1': () => ({
        body: {
          batch: batchOf({ state: 'paused', pageCount: 2, uploadedCount: 2 }),
          pages: [pageOf(1, { upload: 'uploaded' }), pageOf(2, { upload: 'uploaded' })],
        },
      }),
    });
    const session = new ScanSession(agent.deps);
    session.activate();
    await flush();
    const notice = {
      kind: 'interrupted' as const,
      message: '扫描助手重启，扫描已中断。',
      at: '2026-05-01T08:02:00.000Z',
    };
    agent.socket().deliver({
      v,
      type: 'hello',
      agent: HEALTH,
      sources: [source(0)],
      batches: [
        batchOf({ state: 'paused', lastNotice: notice }),
        batchOf({ id: 'old', state: 'done', hostBaseUrl: 'https://other.example' }),
      ],
    });
    await flush();
    const state = session.getState();
    expect(state.currentBatchId).toBe('b1');
    expect(state.batches.map((b) => b.id)).toEqual(['b1']);
    expect(state.pages.b1!.map((p) => [p.seq, p.upload])).toEqual([
      [1, 'uploaded'],
      [2, 'uploaded'],
    ]);
    expect(state.notices[0]!.notice.message).toBe('扫描助手重启，扫描已中断。');
  });

  it('pauses, resumes (继续扫描) and finishes (结束) the current batch', async () => {
    chooseScanner(0);
    const agent = fakeAgent({
      'POST /scans': () => ({ body: batchOf() }),
      'POST /scans/b1/pause': () => ({ body: batchOf({ state: 'paused' }) }),
      'POST /scans/b1/resume': () => ({ body: batchOf({ state: 'scanning' }) }),
      'POST /scans/b1/finish': () => ({ body: batchOf({ state: 'done' }) }),
    });
    const session = await readySession(agent);
    await session.requestScan('y1');
    await session.pause();
    expect(session.getState().batches[0]!.state).toBe('paused');
    await session.resume();
    expect(session.getState().batches[0]!.state).toBe('scanning');
    await session.finish();
    expect(session.getState().batches[0]!.state).toBe('done');
    expect(agent.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/scans',
      '/scans/b1/pause',
      '/scans/b1/resume',
      '/scans/b1/finish',
    ]);
  });
});
