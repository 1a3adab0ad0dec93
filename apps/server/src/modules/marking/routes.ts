import type { FastifyInstance } from 'fastify';
import { calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import { ResultsService } from '../results/service.js';
import { onSheetsWritten } from '../results/upkeep.js';
import type { ObjectStorage } from '../../lib/storage/index.js';
import { PageStorage } from '../scan/storage.js';
import { MarkingRepository } from './repository.js';
import { refreshSheetItems } from './repository/item-counts.js';
import { MarkingService } from './service.js';

const flag = (v: unknown) => v === true || v === 'true' || v === '1';

export function markingRoutes(app: FastifyInstance, guards: CallGuards, marking: MarkingService): void {
  registerCall(app, guards, calls.markTasks, async ({ auth }) => ok(await marking.tasks(auth)));
  registerCall(app, guards, calls.markHomework, async ({ auth, params }) =>
    ok(await marking.homeworkView(auth, params.id)),
  );
  registerCall(app, guards, calls.saveMarkBlocks, async ({ auth, params, body }) =>
    ok(await marking.saveBlocks(auth, params.id, body)),
  );
  registerCall(app, guards, calls.markBlock, async ({ auth, params }) =>
    ok(await marking.block(auth, params.id)),
  );
  registerCall(app, guards, calls.markNext, async ({ auth, params, query }) =>
    ok(await marking.next(auth, params.id, query.count, query.skip, flag(query.reveal))),
  );
  registerCall(app, guards, calls.submitMark, async ({ auth, params, body }) =>
    ok(await marking.submit(auth, params.id, body)),
  );
  registerCall(app, guards, calls.markItem, async ({ auth, params, query }) =>
    ok(await marking.item(auth, params.id, params.sheetId, flag(query.reveal))),
  );
  registerCall(app, guards, calls.markHistory, async ({ auth, params, query }) =>
    ok(await marking.history(auth, params.id, query.page, query.size)),
  );
  registerCall(app, guards, calls.flagProblem, async ({ auth, params, body }) => {
    await marking.flag(auth, params.id, body.sheetId, body.note);
    return ok(null);
  });
  registerCall(app, guards, calls.markProblems, async ({ auth, params }) =>
    ok(await marking.problems(auth, params.id)),
  );
  registerCall(app, guards, calls.markGroups, async ({ auth, params }) =>
    ok(await marking.groups(auth, params.id)),
  );
  registerCall(app, guards, calls.groupScore, async ({ auth, params, body }) =>
    ok(await marking.groupScore(auth, params.id, body)),
  );
  registerCall(app, guards, calls.markComments, async ({ auth, params, body }) =>
    ok(await marking.setComments(auth, params.id, body.comments)),
  );
  registerCall(app, guards, calls.saveRubricItems, async ({ auth, params, body }) =>
    ok(await marking.saveRubricItems(auth, params.id, body)),
  );
  registerCall(app, guards, calls.markCrop, async ({ auth, params, reply }) => {
    const { data, type } = await marking.crop(auth, params.sheetId, params.questionId);
    void reply.type(type).header('cache-control', 'private, max-age=3600');
    return data as unknown as Blob;
  });
}

export interface MarkingModuleOptions {
  db: Db;
  /** DATA_DIR: crops are read from its page store. */
  dataDir: string;
  /** The host's object store (crops are keys in it); else files under dataDir. */
  storage?: ObjectStorage;
  clock: () => number;
  /** Cuts a recognised page's crops when one is first read (recognition's `cropOnDemand`). */
  cropOnDemand?: (relative: string) => Promise<boolean>;
}

/** Wires marking on screen: blocks, assignment, the bench's calls and crops. */
export function registerMarking(
  app: FastifyInstance,
  guards: CallGuards,
  options: MarkingModuleOptions,
): MarkingService {
  // The task list's counters follow every write of the spine to a sheet's answers (ADR 0071), in its transaction.
  onSheetsWritten(refreshSheetItems);
  const service = new MarkingService(
    new MarkingRepository(options.db.kysely),
    new ResultsService(options.db.kysely, options.clock),
    new PageStorage(options.storage ?? options.dataDir, options.cropOnDemand),
    options.clock,
  );
  markingRoutes(app, guards, service);
  return service;
}
