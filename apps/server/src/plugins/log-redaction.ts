import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose values never reach the log (invitation links, old clients, mistakes). */
const SECRET_PARAMS = /([?&](?:token|access_token|refresh_token|password|code|smsCode|captchaCode)=)[^&#]*/gi;

/** A request address with its secret query values replaced by `[REDACTED]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[REDACTED]');
}

/**
 * The host's logger: credentials in headers are censored, secret query values masked in every logged address,
 * and the known secret fields of logged objects (a body logged by mistake, an error's context) censored.
 */
export function logOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.password2',
        '*.oldPassword',
        '*.token',
        '*.access_token',
        '*.refresh_token',
        '*.captchaCode',
        '*.smsCode',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req: (request: { method: string; url: string; host?: string; ip?: string; id?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        reqId: request.id,
      }),
    },
  };
}
