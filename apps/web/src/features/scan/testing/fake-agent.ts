import { vi } from 'vitest';
import { z } from 'zod';
import {
  AGENT_PROTOCOL_VERSION,
  type AgentBatch,
  type AgentPage,
  type CreateScanBatch,
  type ScannerSource,
  type WsServerMessage,
} from '@zhzy/contracts';
import type { AgentEndpoint } from '../api/agent-endpoint';
import type { ScanSessionDeps, SocketLike } from '../stores/scan-session';

/** A message the page sent: every field kept as sent (the tests compare them whole). */
const SentSchema = z.looseObject({ type: z.string() });

/** A websocket the test drives by hand: it records what the page sends and delivers what the "agent" says. */
export class FakeSocket implements SocketLike {
  sent: { type: string; [k: string]: unknown }[] = [];
  closedWith: number | null = null;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {
    queueMicrotask(() => this.onopen?.({}));
  }

  send(data: string): void {
    this.sent.push(SentSchema.parse(JSON.parse(data)));
  }

  close(code = 1000): void {
    this.closedWith = code;
  }

  /** The agent sends a message. */
  deliver(message: WsServerMessage | Record<string, unknown>): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  /** The agent closes the connection. */
  drop(code: number): void {
    this.onclose?.({ code });
  }
}

export type AgentReply = { status?: number; body: unknown } | Error;
export type AgentRoute = (req: {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}) => AgentReply | Promise<AgentReply>;

export const ENDPOINT: AgentEndpoint = {
  wsUrl: 'ws://127.0.0.1:17310/ws',
  baseUrl: 'http://127.0.0.1:17310',
  tokenKey: 'scanAgentToken:http://127.0.0.1:17310',
};
export const ORIGIN = 'http://localhost:3000';
export const TOKEN = 'paired-token-0123456789abcdef';

export const HEALTH = {
  name: 'zhzy-scan-agent',
  version: '0.2.0',
  protocolVersion: AGENT_PROTOCOL_VERSION,
  authenticated: true,
  platform: 'linux',
} as const;

export function source(id: number, over: Partial<ScannerSource> = {}): ScannerSource {
  return {
    id,
    text: `Scanner ${id}`,
    deviceId: `virtual:dev${id}`,
    driver: 'virtual',
    feeder: true,
    duplex: true,
    ...over,
  };
}

const AT = '2026-05-01T08:00:00.000Z';

export function batchOf(over: Partial<AgentBatch> = {}): AgentBatch {
  return {
    id: 'b1',
    state: 'scanning',
    settings: {
      scannerIndex: 0,
      paperSize: 1,
      adaptive: false,
      duplex: true,
      subjectTeacher: false,
      resolution: 300,
      colorMode: 'color',
      feeder: true,
      autoScan: true,
      autoDeskew: true,
    },
    source: source(0),
    hostBatchId: 'hb1',
    hostBaseUrl: ORIGIN,
    pageCount: 0,
    uploadedCount: 0,
    failedCount: 0,
    blankCount: 0,
    rescanSeq: null,
    rescanSeqs: [],
    lastNotice: null,
    createdAt: AT,
    updatedAt: AT,
    ...over,
  };
}

export function pageOf(seq: number, over: Partial<AgentPage> = {}): AgentPage {
  return {
    batchId: 'b1',
    seq,
    name: `virtual-${String(seq).padStart(4, '0')}.jpg`,
    side: null,
    width: 2480,
    height: 3507,
    dpi: 300,
    bytes: 123_456,
    sha256: String(seq % 10).repeat(64),
    blank: false,
    skewDeg: 0,
    rescanned: false,
    upload: 'pending',
    hostPageId: null,
    uploadError: null,
    createdAt: AT,
    ...over,
  };
}

export const v = AGENT_PROTOCOL_VERSION;

/**
 * A fake agent behind `fetch` (REST by `METHOD /path`, unknown paths 404) and a socket factory, plus the other
 * dependencies of a session: token store, host, notifications. Everything is recorded for assertions.
 */
export function fakeAgent(routes: Record<string, AgentRoute> = {}, options: { token?: string | null } = {}) {
  let token: string | null = options.token === undefined ? TOKEN : options.token;
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
  const sockets: FakeSocket[] = [];
  const table: Record<string, AgentRoute> = {
    'GET /health': () => ({ body: { ...HEALTH, authenticated: token !== null } }),
    ...routes,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const req = { method, path: url.pathname + url.search, body, headers };
    calls.push(req);
    const route = table[`${method} ${url.pathname}`];
    const reply: AgentReply = route
      ? await route(req)
      : { status: 404, body: { code: 404, message: 'not found', data: null } };
    if (reply instanceof Error) throw reply;
    if (reply.body instanceof Uint8Array)
      return new Response(new Uint8Array(reply.body), { status: reply.status ?? 200 });
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  const notify = {
    error: vi.fn<(m: string) => void>(),
    success: vi.fn<(m: string) => void>(),
    info: vi.fn<(m: string) => void>(),
  };
  const host = {
    createBatch: vi.fn(async (input: CreateScanBatch) => ({
      batch: {
        id: `hb${host.createBatch.mock.calls.length}`,
        schoolYearId: 'y1',
        subjectTeacher: false,
        source: 'agent' as const,
        deviceName: null,
        paperSize: 1,
        pageCount: 0,
        homeworkId: input.homeworkId ?? null,
        createdBy: 'u1',
        createdAt: AT,
      },
      uploadToken: `zus_${'t'.repeat(30)}${host.createBatch.mock.calls.length}`,
      uploadTokenExpiresAt: AT,
    })),
  };
  let urlCount = 0;
  const deps: ScanSessionDeps = {
    endpoint: ENDPOINT,
    origin: ORIGIN,
    tokens: {
      get: () => token,
      set: (t) => {
        token = t;
      },
      clear: () => {
        token = null;
      },
    },
    host,
    notify,
    fetch: fetchMock,
    socket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    objectUrl: { create: () => `blob:thumb-${++urlCount}`, revoke: () => undefined },
  };
  return {
    deps,
    calls,
    sockets,
    notify,
    host,
    routes: table,
    token: () => token,
    /** The newest socket. */
    socket: () => sockets[sockets.length - 1]!,
  };
}

/** Lets pending promises and microtasks run. */
export const flush = async (times = 5) => {
  for (let i = 0; i < times; i++) await new Promise((r) => setTimeout(r, 0));
};
