import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { MESSAGES } from '@zhzy/contracts';
import { AppError } from '../lib/errors.js';
import { HTTP_TEXT } from '../i18n/messages.js';

/** Fastify's own client errors, answered in Chinese. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: HTTP_TEXT.unsupportedMediaType },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: HTTP_TEXT.bodyTooLarge },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: HTTP_TEXT.emptyJsonBody },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: HTTP_TEXT.invalidJsonBody },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: HTTP_TEXT.invalidContentLength },
  FST_ERR_BAD_URL: { status: 400, message: HTTP_TEXT.badUrl },
};

/** PostgreSQL's "connection gone" classes (admin shutdown, crash, cannot connect now) and the socket's own errors. */
const DATABASE_GONE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
]);

/**
 * True when a request failed because the database connection dropped (terminated, restarted, unreachable): the
 * pool replaces the connection, so the same request may pass when sent again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && DATABASE_GONE.has(code)) return true;
  return (
    typeof message === 'string' &&
    /^(Connection terminated|Client has encountered a connection error|Client was closed)/.test(message)
  );
}

/**
 * Errors Fastify raises before routing (a path with a broken percent-encoding): its default answer is English, so
 * they are answered in Chinese here. Passed to Fastify as `frameworkErrors`.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
  request.log.info({ err: error }, 'request refused before routing');
  void reply
    .code(known?.status ?? 400)
    .send({ code: known?.status ?? 400, message: known?.message ?? MESSAGES.invalidParams, data: null });
}

/**
 * One error handler for the host: AppErrors answer with their status and Chinese message;
 * anything unexpected is logged with the request id and answered as 系统内部异常 without detail.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error, detail: error.detail }, 'request failed');
      else if (error.detail) request.log.info({ code: error.code, detail: error.detail }, 'request refused');
      if (error.retryAfter) void reply.header('retry-after', String(error.retryAfter));
      return reply.code(error.status).send({ code: error.status, message: error.message, data: error.data });
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) {
      return reply.code(known.status).send({ code: known.status, message: known.message, data: null });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.code(400).send({ code: 400, message: MESSAGES.invalidParams, data: null });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database connection dropped; answered 503');
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({ code: 503, message: MESSAGES.databaseUnavailable, data: null });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ code: 500, message: MESSAGES.internal, data: null });
  });
}

/**
 * Errors of the HTTP parser, before Fastify sees a request (a 60 KB address overflows the header limit): answered
 * in the envelope and in Chinese instead of Fastify's English JSON. Passed to Fastify as `clientErrorHandler`.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', MESSAGES.requestTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', MESSAGES.timeout(0).replace(HTTP_TEXT.zeroDuration, '')]
        : [400, 'Bad Request', MESSAGES.invalidParams];
  const body = JSON.stringify({ code: status, message, data: null });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
