import type { FastifyInstance } from 'fastify';
import { calls } from '@zhzy/contracts';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import type { CatalogService } from './service.js';

export function catalogRoutes(app: FastifyInstance, guards: CallGuards, catalog: CatalogService): void {
  registerCall(app, guards, calls.stageList, async () => ok(await catalog.stages()));
  registerCall(app, guards, calls.textbookList, async ({ query }) =>
    ok(await catalog.textbooks(query.subjectId)),
  );
  registerCall(app, guards, calls.booknodeTree, async ({ query }) =>
    ok(await catalog.booknodeTree(query.textbookId)),
  );
  registerCall(app, guards, calls.knowledgeTree, async ({ query }) =>
    ok(await catalog.knowledgeTree(query.subjectId)),
  );
  registerCall(app, guards, calls.questionTypeList, async ({ query }) =>
    ok(await catalog.questionTypes(query.subjectId)),
  );
  registerCall(app, guards, calls.questionPage, async ({ auth, query }) =>
    ok(await catalog.questionPage(auth, query)),
  );
  registerCall(app, guards, calls.similarQuestions, async ({ auth, params, query }) =>
    ok(await catalog.similar(auth, params.id, query)),
  );
  registerCall(app, guards, calls.questionFilters, async ({ auth, query }) =>
    ok(await catalog.filters(auth, query.subjectId)),
  );
}
