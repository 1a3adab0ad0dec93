import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import {
  AGENT_BODY_LIMIT_BYTES,
  AGENT_PAIRING,
  AGENT_PRINT_MAX_BYTES,
  AGENT_PROTOCOL_VERSION,
  AGENT_WS_AUTH_TIMEOUT_MS,
  AGENT_WS_CLOSE,
  PrintUploadQuerySchema,
  VirtualScanSchema,
  WsClientMessageSchema,
  agentCalls,
  buildPath,
  type AgentCallDef,
  type AgentHealth,
  type WsServerMessage,
} from '@zhzy/contracts';
import { dataDirOf, type AgentConfig } from './config.js';
import { T } from './i18n/zh-CN.js';
import { AgentError, ScanManager } from './scan/manager.js';
import { printersFromConfig } from './printers/drivers.js';
import type { PrinterDriverPort } from './printers/port.js';
import { PrintManager } from './printers/print-manager.js';
import { driversFromConfig } from './scanners/drivers.js';
import type { Scanner } from './scanners/port.js';
import { PairingCodes, RateLimiter, TokenStore, type Caller } from './security/tokens.js';
import { bundleDir, bundleFacts } from './runtime.js';
import { agentLogFile } from './service/control.js';
import { launchFinisher, stageUpdate, type UpdateContext } from './service/update.js';
import { pairingPage } from './service/pairing-page.js';
import { Spool } from './spool/spool.js';
import { Uploader, type UploaderOptions } from './spool/uploader.js';

/** The version the package build stamped, else the source's. */
export const AGENT_VERSION = bundleFacts()?.version ?? '0.2.0';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const MAX_SOCKETS = 32;

export interface AgentDeps {
  /** Drivers to use (tests); otherwise from the configuration. */
  scanners?: Scanner[];
  uploader?: Omit<UploaderOptions, 'onEvent' | 'log'>;
  /** Print drivers to use (tests); otherwise from the configuration. */
  printers?: PrinterDriverPort[];
  /** How often print jobs are followed in the print system (tests shorten it). */
  printPollMs?: number;
  /** Where a pairing code is shown besides the log (the console of `scan-agent start`). */
  showPairingCode?: (text: string) => void;
  /**
   * Ends this process after `POST /update` staged a new build and started the finisher (`scan-agent start` closes
   * the agent and exits). Without it the agent cannot update itself.
   */
  exitForUpdate?: () => Promise<void>;
}

export interface Agent {
  app: FastifyInstance;
  manager: ScanManager;
  tokens: TokenStore;
  uploader: Uploader;
  pairing: PairingCodes;
  printing: PrintManager;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

const errorBody = (code: number, message: string) => ({ code, message, data: null });

/** The Host header names this machine (DNS rebinding sends a foreign name to 127.0.0.1). */
function hostAllowed(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return LOOPBACK_HOSTS.has(name.toLowerCase());
}

const bearer = (request: FastifyRequest): string | undefined => {
  const h = request.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
};

/**
 * Builds the agent: loopback-only guards (Host 421, Origin 403, Private Network Access preflight), token checks,
 * the REST calls of `agentCalls` and the websocket at /ws. Listening is the caller's job (127.0.0.1 only).
 */
export async function buildAgent(config: AgentConfig, deps: AgentDeps = {}): Promise<Agent> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] },
    bodyLimit: AGENT_BODY_LIMIT_BYTES,
    requestTimeout: 60_000,
    connectionTimeout: 60_000,
    // Closing the agent ends every connection, upgrade requests that were refused included.
    forceCloseConnections: true,
    // Start-up work (migrations, worker pools, spool recovery) may be slow on a busy machine; never abort it at 10 s.
    pluginTimeout: 120_000,
  });
  const dataDir = dataDirOf(config);
  const tokens = new TokenStore(dataDir, app.log);
  tokens.load();
  const pairing = new PairingCodes();
  const pairingLimiter = new RateLimiter(10, 60_000);
  const allowedOrigins = new Set(config.AGENT_ALLOWED_ORIGINS);
  const allowedHosts = () => [
    ...new Set([...config.AGENT_ALLOWED_ORIGINS, ...config.AGENT_HOST_URLS].map((u) => new URL(u).origin)),
  ];

  const sockets = new Set<WebSocket>();
  const broadcast = (message: WsServerMessage) => {
    const text = JSON.stringify(message);
    for (const s of sockets) if (s.readyState === s.OPEN) s.send(text);
  };
  const uploader = new Uploader({
    ...deps.uploader,
    log: app.log,
    onEvent: (e) => {
      broadcast({
        v: AGENT_PROTOCOL_VERSION,
        type: 'upload',
        page: e.page,
        duplicate: e.duplicate,
        retryInMs: e.retryInMs,
      });
      const batch = manager.list().find((b) => b.id === e.page.batchId);
      if (batch) broadcast({ v: AGENT_PROTOCOL_VERSION, type: 'batch', batch });
    },
  });
  const manager = new ScanManager({
    scanners: deps.scanners ?? (await driversFromConfig(config)),
    spool: new Spool(dataDir),
    uploader,
    allowedHosts,
    log: app.log,
  });
  manager.on('message', broadcast);
  await manager.init();
  const printing = new PrintManager({
    drivers: deps.printers ?? printersFromConfig(config),
    dataDir,
    allowedHosts,
    log: app.log,
    ...(deps.printPollMs ? { pollMs: deps.printPollMs } : {}),
  });
  printing.on('job', (job) => broadcast({ v: AGENT_PROTOCOL_VERSION, type: 'print', job }));
  uploader.start();

  const bundled = bundleDir();
  const updateContext: UpdateContext = {
    dataDir,
    allowedHosts,
    version: AGENT_VERSION,
    facts: bundleFacts(),
    installDir: bundled ? path.dirname(bundled) : null,
  };
  let updating = false;

  const health = (request: FastifyRequest): AgentHealth => ({
    name: 'zhzy-scan-agent',
    version: AGENT_VERSION,
    protocolVersion: AGENT_PROTOCOL_VERSION,
    authenticated: Boolean(tokens.verify(bearer(request), request.headers.origin)),
    platform: process.platform,
    ...(bundleFacts() ? { packagePlatform: bundleFacts()!.platform } : {}),
    canUpdate: Boolean(updateContext.installDir && deps.exitForUpdate),
  });

  /** Refuses a request; a refused websocket upgrade gets its answer on the raw socket, which is then closed. */
  const refuse = (request: FastifyRequest, reply: FastifyReply, code: number, message: string) => {
    if (request.headers.upgrade) {
      const body = JSON.stringify(errorBody(code, message));
      request.raw.socket.end(
        `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return reply.hijack();
    }
    return reply.code(code).send(errorBody(code, message));
  };

  // Guards for every request, the websocket upgrade included.
  app.addHook('onRequest', async (request, reply) => {
    if (!hostAllowed(request.headers.host)) return refuse(request, reply, 421, T.hostRefused);
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin))
      return refuse(request, reply, 403, T.originRefused);
    if (origin) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
    if (request.method === 'OPTIONS') {
      // CORS and Chrome's Private Network Access preflight: a public page may reach 127.0.0.1 only if we say so.
      reply.header('access-control-allow-methods', 'GET, POST, DELETE');
      reply.header('access-control-allow-headers', 'authorization, content-type');
      reply.header('access-control-max-age', '600');
      if (request.headers['access-control-request-private-network'] === 'true')
        reply.header('access-control-allow-private-network', 'true');
      // Chrome's Local Network Access (142+) names it differently; the user's permission prompt still decides.
      if (request.headers['access-control-request-local-network'] === 'true')
        reply.header('access-control-allow-local-network', 'true');
      return reply.code(204).send();
    }
  });

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof AgentError)
      return reply.code(error.status).send(errorBody(error.status, error.message));
    if (error instanceof z.ZodError) {
      const first = error.issues[0];
      const message = first ? `${first.message}（字段：${first.path.join('.') || 'body'}）` : T.invalidParams;
      return reply.code(400).send(errorBody(400, message));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send(errorBody(413, T.bodyTooLarge));
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return reply.code(400).send(errorBody(400, T.invalidParams));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(500, T.internal));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody(404, T.notFound)));

  const authorise = (call: AgentCallDef, request: FastifyRequest): void => {
    if (call.auth === 'none') return;
    const token = bearer(request);
    const caller = tokens.verify(token, request.headers.origin);
    if (!caller)
      throw new AgentError(401, tokens.isForeignPageToken(token) ? T.tokenWrongOrigin : T.unauthorized);
    if (call.auth === 'script' && caller.kind !== 'script') throw new AgentError(403, T.scriptOnly);
    request.caller = caller;
  };

  /** Registers one call of the protocol: auth, body validation against its schema, handler. */
  function route<C extends AgentCallDef>(
    call: C,
    handler: (input: {
      request: FastifyRequest;
      reply: FastifyReply;
      body: C['body'] extends z.ZodType ? z.output<C['body']> : undefined;
      params: Record<string, string>;
    }) => Promise<unknown>,
  ): void {
    app.route({
      method: call.method,
      url: call.path,
      handler: async (request, reply) => {
        authorise(call, request);
        const body = (
          call.body ? call.body.parse(request.body ?? {}) : undefined
        ) as C['body'] extends z.ZodType ? z.output<C['body']> : undefined;
        return handler({ request, reply, body, params: request.params as Record<string, string> });
      },
    });
  }

  const index = (s: string | undefined) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 0) throw new AgentError(409, T.reselectScanner);
    return n;
  };

  route(agentCalls.health, async ({ request }) => health(request));

  // The teacher's pairing page, opened from the Start menu: the code in large digits. Only a navigation reaches it
  // (a page of another origin is refused above and could not read it anyway: no CORS answer without an Origin).
  app.get('/pair', async (request, reply) => {
    if (request.headers.origin !== undefined) throw new AgentError(403, T.originRefused);
    const code = pairing.peek();
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-frame-options', 'DENY')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .send(pairingPage(code ? { code: code.code, expiresAt: code.expiresAt } : null, AGENT_VERSION));
  });

  route(agentCalls.pairingRequest, async ({ request }) => {
    const origin = request.headers.origin;
    if (!origin) throw new AgentError(400, T.pairingNeedsOrigin);
    if (!pairingLimiter.allow(origin)) throw new AgentError(429, T.rateLimited);
    const code = pairing.create(origin);
    const text = T.pairingShown(origin, code.code, AGENT_PAIRING.ttlMs / 60_000);
    app.log.warn({ origin }, text);
    deps.showPairingCode?.(text);
    return { expiresAt: new Date(code.expiresAt).toISOString() };
  });

  route(agentCalls.pairingConfirm, async ({ request, body }) => {
    const origin = request.headers.origin;
    if (!origin) throw new AgentError(400, T.pairingNeedsOrigin);
    if (!pairingLimiter.allow(`confirm:${origin}`)) throw new AgentError(429, T.rateLimited);
    const result = pairing.confirm(body.code, origin);
    if (!result.ok) {
      const message =
        result.reason === 'noCode'
          ? T.pairingNoCode
          : result.reason === 'tooMany'
            ? T.pairingTooMany
            : T.pairingWrongCode(result.left);
      throw new AgentError(403, message);
    }
    return { token: await tokens.issue(origin), origin };
  });

  route(agentCalls.pairingCode, async () => {
    const code = pairing.current();
    return { code: code.code, expiresAt: new Date(code.expiresAt).toISOString() };
  });

  route(agentCalls.unpair, async ({ request }) => {
    const token = bearer(request);
    if (token && request.caller?.kind === 'page') await tokens.revoke(token);
    return { ok: true as const };
  });

  route(agentCalls.scanners, async ({ request }) => {
    const refresh = (request.query as Record<string, string | undefined>).refresh === '1';
    const sources = await manager.sources(refresh);
    return { sources, refreshedAt: manager.refreshed };
  });

  route(agentCalls.scanner, async ({ params }) => manager.capabilities(index(params.index)));

  route(agentCalls.startScan, async ({ body }) => manager.start(body));
  route(agentCalls.batches, async () => ({ batches: manager.list() }));
  route(agentCalls.batch, async ({ params }) => manager.detail(params.id ?? ''));
  route(agentCalls.pause, async ({ params }) => manager.pause(params.id ?? ''));
  route(agentCalls.resume, async ({ params, request }) => {
    const raw = (request.body ?? {}) as { virtual?: unknown };
    const virtual = raw.virtual === undefined ? undefined : VirtualScanSchema.parse(raw.virtual);
    return manager.resume(params.id ?? '', virtual);
  });
  route(agentCalls.finish, async ({ params }) => manager.finish(params.id ?? ''));
  route(agentCalls.updateHost, async ({ params, body }) => manager.updateHost(params.id ?? '', body.host));
  route(agentCalls.retryUploads, async ({ params }) => manager.retry(params.id ?? ''));
  route(agentCalls.pageImage, async ({ params, request, reply }) => {
    const seq = Number(params.seq);
    if (!Number.isInteger(seq) || seq < 1) throw new AgentError(404, T.pageNotFound);
    const thumb = (request.query as Record<string, string | undefined>).size === 'thumb';
    const data = await manager.pageImage(params.id ?? '', seq, thumb);
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=3600').send(data);
  });

  route(agentCalls.rescanPage, async ({ params, body }) => {
    const seq = Number(params.seq);
    if (!Number.isInteger(seq) || seq < 1) throw new AgentError(404, T.pageNotFound);
    return manager.rescan(params.id ?? '', seq, body.virtual);
  });

  // Self-update (ADR 0055): verified and staged before answering; the agent ends right after the answer is sent.
  route(agentCalls.update, async ({ body, reply }) => {
    if (!deps.exitForUpdate) throw new AgentError(409, T.updateNotInstalled);
    if (updating) throw new AgentError(409, T.updateBusy);
    updating = true;
    try {
      const staged = await stageUpdate(body, updateContext);
      app.log.warn({ from: staged.from, to: staged.to }, 'update staged: restarting into the new build');
      reply.raw.once('finish', () => {
        launchFinisher(staged, updateContext, agentLogFile(config));
        void deps.exitForUpdate!();
      });
      return { from: staged.from, to: staged.to, restarting: true as const };
    } catch (error) {
      updating = false;
      throw error;
    }
  });

  route(agentCalls.printers, async ({ request }) => {
    const refresh = (request.query as Record<string, string | undefined>).refresh === '1';
    const printers = await printing.list(refresh);
    return { printers, refreshedAt: printing.refreshed };
  });
  route(agentCalls.print, async ({ body }) => printing.fromHost(body));
  route(agentCalls.printJobs, async () => ({ jobs: printing.listJobs() }));
  route(agentCalls.printJob, async ({ params }) => printing.job(params.id ?? ''));
  route(agentCalls.cancelPrintJob, async ({ params }) => printing.cancel(params.id ?? ''));
  // The page's own PDF: the raw body (application/pdf) with a larger limit than JSON; options in the query.
  app.addContentTypeParser(
    'application/pdf',
    { parseAs: 'buffer', bodyLimit: AGENT_PRINT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.route({
    method: agentCalls.printUpload.method,
    url: agentCalls.printUpload.path,
    bodyLimit: AGENT_PRINT_MAX_BYTES,
    handler: async (request) => {
      authorise(agentCalls.printUpload, request);
      const options = PrintUploadQuerySchema.parse(request.query ?? {});
      if (!Buffer.isBuffer(request.body) || request.body.length === 0)
        throw new AgentError(415, T.printNotPdf);
      return printing.fromUpload(options, request.body);
    },
  });

  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  app.get('/ws', { websocket: true }, (socket, request) => {
    if (sockets.size >= MAX_SOCKETS) {
      socket.close(AGENT_WS_CLOSE.protocol, 'too many connections');
      return;
    }
    const origin = request.headers.origin;
    let authed = false;
    const timer = setTimeout(() => {
      if (!authed) socket.close(AGENT_WS_CLOSE.unauthorized, 'auth timeout');
    }, AGENT_WS_AUTH_TIMEOUT_MS);
    socket.on('close', () => {
      clearTimeout(timer);
      sockets.delete(socket);
    });
    socket.on('message', (raw: Buffer) => {
      let parsed: ReturnType<typeof WsClientMessageSchema.safeParse>;
      try {
        parsed = WsClientMessageSchema.safeParse(JSON.parse(raw.toString('utf8')));
      } catch {
        socket.close(AGENT_WS_CLOSE.protocol, 'bad message');
        return;
      }
      if (!parsed.success) {
        const send: WsServerMessage = { v: AGENT_PROTOCOL_VERSION, type: 'error', message: T.invalidParams };
        socket.send(JSON.stringify(send));
        return;
      }
      const message = parsed.data;
      if (!authed) {
        if (message.type !== 'auth' || !tokens.verify(message.token, origin)) {
          socket.close(AGENT_WS_CLOSE.unauthorized, 'unauthorized');
          return;
        }
        authed = true;
        clearTimeout(timer);
        sockets.add(socket);
        void manager.sources().then((sources) => {
          const hello: WsServerMessage = {
            v: AGENT_PROTOCOL_VERSION,
            type: 'hello',
            agent: health(request),
            sources,
            batches: manager.list(),
          };
          socket.send(JSON.stringify({ ...hello, agent: { ...hello.agent, authenticated: true } }));
        });
        return;
      }
      if (message.type === 'ping')
        socket.send(
          JSON.stringify({
            v: AGENT_PROTOCOL_VERSION,
            type: 'pong',
            ...(message.id !== undefined ? { id: message.id } : {}),
          }),
        );
    });
  });

  app.addHook('onClose', async () => {
    for (const s of sockets) s.close(AGENT_WS_CLOSE.shuttingDown, 'agent stopping');
    printing.close();
    await uploader.stop();
    await manager.close();
  });

  return {
    app,
    manager,
    tokens,
    uploader,
    pairing,
    printing,
    close: () => app.close(),
  };
}

/** The path of a call with its parameters filled (tests and the CLI). */
export const agentPath = (call: AgentCallDef, params?: Record<string, string | number>) =>
  buildPath(call.path, params);
