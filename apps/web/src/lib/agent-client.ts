import type { z } from 'zod';
import { buildPath, type AgentCallDef } from '@zhzy/contracts';
import { zhCNScan } from '../i18n/zh-CN';

/** A failed agent call: `status` 0 when the agent could not be reached at all. */
export class AgentCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AgentCallError';
  }
}

export interface AgentCallInput {
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  /** This call's time limit (a printer search takes longer than a health check); else the client's. */
  timeoutMs?: number;
}

type Answer<C extends AgentCallDef> = z.output<C['response']>;

export interface AgentClient {
  /** One REST call of `agentCalls`: the answer parsed with its schema, or an `AgentCallError`. */
  call<C extends AgentCallDef>(call: C, input?: AgentCallInput): Promise<Answer<C>>;
  /** A page's JPEG (`thumb`: the 400-px-high preview). */
  pageImage(batchId: string, seq: number, thumb: boolean, signal?: AbortSignal): Promise<Blob>;
}

export interface AgentClientOptions {
  baseUrl: string;
  /** The pairing token, read at each call (it changes when the page pairs again). */
  token: () => string | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** What the teacher reads when the agent cannot be reached, or answers out of protocol (else /scan's words). */
  messages?: { unreachable?: string; badAnswer?: string };
}

async function messageOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON.
  }
  return `HTTP ${res.status}`;
}

/**
 * The REST client of the scan agent on 127.0.0.1 (Bearer token; success is HTTP 200 only; every answer parsed with
 * its `agentCalls` schema), used by /scan and by direct printing.
 */
export function createAgentClient(options: AgentClientOptions): AgentClient {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const unreachable = options.messages?.unreachable ?? zhCNScan.agent.unreachableMessage;
  const badAnswer = options.messages?.badAnswer ?? zhCNScan.agent.badAnswer;

  async function send(method: string, path: string, input: AgentCallInput = {}): Promise<Response> {
    const url = new URL(path, `${options.baseUrl}/`);
    for (const [k, v] of Object.entries(input.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    const token = options.token();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (input.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input.body);
    }
    const signals = [
      AbortSignal.timeout(input.timeoutMs ?? timeoutMs),
      ...(input.signal ? [input.signal] : []),
    ];
    let res: Response;
    try {
      res = await doFetch(url.href, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0]!,
      });
    } catch {
      throw new AgentCallError(0, unreachable);
    }
    if (res.status !== 200) throw new AgentCallError(res.status, await messageOf(res));
    return res;
  }

  return {
    async call(call, input = {}) {
      const res = await send(call.method, buildPath(call.path, input.params), input);
      let json: unknown;
      try {
        json = await res.json();
      } catch {
        throw new AgentCallError(200, badAnswer);
      }
      const parsed = call.response.safeParse(json);
      if (!parsed.success) throw new AgentCallError(200, badAnswer);
      return parsed.data as Answer<typeof call>;
    },
    async pageImage(batchId, seq, thumb, signal) {
      const res = await send('GET', buildPath('/scans/:id/pages/:seq/image', { id: batchId, seq }), {
        ...(thumb ? { query: { size: 'thumb' } } : {}),
        ...(signal ? { signal } : {}),
      });
      return res.blob();
    },
  };
}
