import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { MESSAGES } from '@zhzy/contracts';
import { pendingMigrations } from '../db/migrate.js';
import { bearerToken } from '../lib/bearer.js';
import type { Metrics } from '../lib/metrics.js';
import { HTTP_TEXT } from '../i18n/messages.js';

/** 'ok', or what is wrong. */
type Check = string;
export interface Readiness {
  status: 'ready' | 'not ready';
  checks: { database: Check; storage: Check; migrations: Check; accepting: Check };
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]);
};

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/** Whether this instance can serve: database and object store answer, migrations done, not shutting down. */
export async function readiness(app: FastifyInstance, closing: boolean): Promise<Readiness> {
  const [database, storage, migrations] = await Promise.all([
    within(sql`select 1`.execute(app.db.kysely), 3000, 'database').then(
      () => 'ok',
      (e: unknown) => `unreachable: ${reason(e)}`,
    ),
    within(app.storage.check(), 3000, 'storage').then(
      () => 'ok',
      (e: unknown) => `unreachable: ${reason(e)}`,
    ),
    within(pendingMigrations(app.db), 3000, 'migrations').then(
      (pending) => (pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`),
      (e: unknown) => `unknown: ${reason(e)}`,
    ),
  ]);
  const checks = { database, storage, migrations, accepting: closing ? 'shutting down' : 'ok' };
  return { status: Object.values(checks).every((c) => c === 'ok') ? 'ready' : 'not ready', checks };
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export interface OperationsOptions {
  metrics: Metrics;
  /** `/metrics` on the main port needs `Authorization: Bearer <token>`; without a token it is not served there. */
  metricsToken?: string | undefined;
  /** True from the first moment of a shutdown. */
  isClosing: () => boolean;
}

/**
 * `/ready` for load balancers and orchestrators, `/metrics` (Prometheus text) behind a token, and the request
 * metrics of every route. `/health` (the process is up) stays in app.ts.
 */
export function registerOperations(app: FastifyInstance, options: OperationsOptions): void {
  const { metrics, isClosing } = options;
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL, so ids do not multiply the series.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  app.get('/ready', async (_request, reply) => {
    const answer = await readiness(app, isClosing());
    return reply.code(answer.status === 'ready' ? 200 : 503).send(answer);
  });

  app.get('/metrics', async (request, reply) => {
    const token = options.metricsToken;
    if (!token) return reply.code(404).send({ code: 404, message: MESSAGES.notFound, data: null });
    const given = bearerToken(request.headers.authorization) ?? '';
    if (!sameSecret(given, token))
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ code: 401, message: HTTP_TEXT.metricsToken, data: null });
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/**
 * The admin listener (METRICS_PORT, bound to METRICS_HOST): `/metrics`, `/health` and `/ready` without a token,
 * for a scraper on a private network. server.ts listens and closes it.
 */
export function buildAdminApp(
  app: FastifyInstance,
  metrics: Metrics,
  isClosing: () => boolean,
): FastifyInstance {
  const admin = Fastify({ logger: false });
  admin.get('/health', async () => ({ status: 'ok' }));
  admin.get('/ready', async (_request, reply) => {
    const answer = await readiness(app, isClosing());
    return reply.code(answer.status === 'ready' ? 200 : 503).send(answer);
  });
  admin.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  return admin;
}
