import type { FastifyInstance } from 'fastify';
import { calls } from '@zhzy/contracts';
import { noStore, ok, registerCall, type CallGuards } from '../../lib/call.js';
import type { SignupLimit } from '../../plugins/rate-limit.js';
import type { AuthService } from './service.js';
import { AUTH_TEXT } from '../../i18n/messages.js';

export function authRoutes(
  app: FastifyInstance,
  guards: CallGuards,
  auth: AuthService,
  signups: SignupLimit,
): void {
  registerCall(app, guards, calls.token, async ({ body, request, reply }) => {
    const client = { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
    noStore(reply);
    return body.grant_type === 'password'
      ? auth.passwordGrant(body, client)
      : auth.refreshGrant(body.refresh_token);
  });

  registerCall(app, guards, calls.register, async ({ body, request }) => {
    signups.take(request.ip ?? null);
    await auth.register(body);
    return ok(null, AUTH_TEXT.registered);
  });

  registerCall(app, guards, calls.captcha, async () => ok(await auth.createCaptcha()));

  registerCall(app, guards, calls.signout, async ({ auth: caller }) => {
    await auth.signout(caller);
    return ok(null);
  });
}
