import type { FastifyInstance } from 'fastify';
import { calls } from '@zhzy/contracts';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import type { Db } from '../../db/connect.js';
import type { ObjectStorage } from '../../lib/storage/index.js';
import { cardLayoutResolver } from '../homework/service.js';
import { PageStorage } from '../scan/storage.js';
import { PaperMarkingService, type CutCrops } from './service.js';

/** The calls of 纸上批阅 (ADR 0065): the homework's setting, its read score boxes, a person's decision, the crops. */
export function paperMarkingRoutes(
  app: FastifyInstance,
  guards: CallGuards,
  service: PaperMarkingService,
): void {
  registerCall(app, guards, calls.homeworkPaperMarking, async ({ auth, params }) =>
    ok(await service.setting(auth, params.id)),
  );
  registerCall(app, guards, calls.setHomeworkPaperMarking, async ({ auth, params, body }) =>
    ok(await service.setSetting(auth, params.id, body.enabled)),
  );
  registerCall(app, guards, calls.paperScores, async ({ auth, params, query }) =>
    ok(await service.list(auth, params.id, query)),
  );
  registerCall(app, guards, calls.resolvePaperScore, async ({ auth, params, body }) =>
    ok(await service.resolve(auth, params.id, body)),
  );
  registerCall(app, guards, calls.paperScoreCrop, async ({ auth, params, reply }) => {
    const { bytes, mime } = await service.crop(auth, params.id);
    void reply.header('content-type', mime).header('cache-control', 'private, max-age=3600').send(bytes);
    return reply as unknown as Uint8Array;
  });
}

export interface PaperMarkingModuleOptions {
  db: Db;
  dataDir: string;
  storage?: ObjectStorage;
  clock: () => number;
  /** Cuts crops from a page file in the recognition pool's workers. */
  cutCrops: CutCrops;
}

/** Wires 纸上批阅: its service (recognition hands it every page it applied) and its calls. */
export function registerPaperMarking(
  app: FastifyInstance,
  guards: CallGuards,
  options: PaperMarkingModuleOptions,
): PaperMarkingService {
  const service = new PaperMarkingService({
    db: options.db.kysely,
    storage: new PageStorage(options.storage ?? options.dataDir),
    findCard: cardLayoutResolver(options.db.kysely),
    cutCrops: options.cutCrops,
    clock: options.clock,
  });
  paperMarkingRoutes(app, guards, service);
  return service;
}
