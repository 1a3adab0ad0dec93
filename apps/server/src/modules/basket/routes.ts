import type { FastifyInstance } from 'fastify';
import { MESSAGES, calls } from '@zhzy/contracts';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import type { BasketService } from './service.js';

export function basketRoutes(app: FastifyInstance, guards: CallGuards, basket: BasketService): void {
  registerCall(app, guards, calls.getQuestionBasket, async ({ auth }) => ok(await basket.get(auth)));

  registerCall(app, guards, calls.addBasket, async ({ auth, body }) =>
    ok(await basket.add(auth, body.questionIds), MESSAGES.addSuccess),
  );

  registerCall(app, guards, calls.removeBasket, async ({ auth, body }) =>
    ok(await basket.remove(auth, body.questionIds)),
  );

  // SPEC §7: clearBasket answers the updated basket in `message`.
  registerCall(app, guards, calls.clearBasket, async ({ auth, params }) => ({
    code: 200,
    message: await basket.clear(auth, params.id),
    data: null,
  }));

  registerCall(app, guards, calls.delQuestionType, async ({ auth, params }) =>
    ok(await basket.deleteType(auth, params.id)),
  );
}
