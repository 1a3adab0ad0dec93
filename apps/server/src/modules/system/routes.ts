import type { FastifyInstance } from 'fastify';
import { calls } from '@zhzy/contracts';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import type { SystemService } from './service.js';

export function systemRoutes(app: FastifyInstance, guards: CallGuards, system: SystemService): void {
  registerCall(app, guards, calls.userInfo, async ({ auth }) => ok(await system.userInfo(auth)));

  registerCall(app, guards, calls.classList, async ({ auth, query }) =>
    ok(await system.listClasses(auth, query)),
  );

  registerCall(app, guards, calls.updateClassDefault, async ({ auth, body }) => {
    await system.updateClassDefault(auth, body.orgId, body.classId);
    return ok(null);
  });
}
