import type { FastifyInstance } from 'fastify';
import { calls } from '@zhzy/contracts';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import type { QuestionsService } from './service.js';

/** As papers' large-body routes (Word import). */
const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

export function questionRoutes(app: FastifyInstance, guards: CallGuards, questions: QuestionsService): void {
  registerCall(app, guards, calls.questionDetail, async ({ auth, params }) =>
    ok(await questions.detail(auth, params.id)),
  );
  registerCall(app, guards, calls.createQuestion, async ({ auth, body }) =>
    ok(await questions.create(auth, body)),
  );
  registerCall(app, guards, calls.editQuestion, async ({ auth, params, body }) =>
    ok(await questions.edit(auth, params.id, body)),
  );
  registerCall(app, guards, calls.deleteQuestion, async ({ auth, params }) => {
    await questions.remove(auth, params.id);
    return ok(null);
  });
  registerCall(app, guards, calls.shareQuestion, async ({ auth, params }) =>
    ok(await questions.share(auth, params.id)),
  );
  // A paper's questions (images as data URLs) may be large: their own scope with the Word import's body limit.
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = IMPORT_BODY_LIMIT;
    });
    registerCall(scope, guards, calls.importQuestions, async ({ auth, body }) =>
      ok(await questions.importMany(auth, body)),
    );
  });
  registerCall(app, guards, calls.myQuestionShares, async ({ auth, query }) =>
    ok(await questions.myShares(auth, query)),
  );
  registerCall(app, guards, calls.schoolQuestions, async ({ auth, query }) =>
    ok(await questions.schoolQuestions(auth, query)),
  );
  registerCall(app, guards, calls.reviewQuestion, async ({ auth, params, body }) =>
    ok(await questions.review(auth, params.id, body)),
  );
  registerCall(app, guards, calls.withdrawSchoolQuestion, async ({ auth, params }) => {
    await questions.withdraw(auth, params.id);
    return ok(null);
  });
  registerCall(app, guards, calls.questionRecycleBin, async ({ auth, query }) =>
    ok(await questions.recycleBin(auth, query)),
  );
  registerCall(app, guards, calls.restoreQuestions, async ({ auth, body }) =>
    ok(await questions.restore(auth, body.ids)),
  );
  registerCall(app, guards, calls.deleteQuestionsForever, async ({ auth, body }) =>
    ok(await questions.deleteForever(auth, body.ids)),
  );
}
