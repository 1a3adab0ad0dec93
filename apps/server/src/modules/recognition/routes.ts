import type { FastifyInstance } from 'fastify';
import { calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import type { JobQueue } from '../../lib/jobs.js';
import type { ObjectStorage } from '../../lib/storage/index.js';
import { cardLayoutResolver } from '../homework/service.js';
import { ResultsService } from '../results/service.js';
import { ScanRepository, type ScanPage } from '../scan/repository.js';
import { PageStorage } from '../scan/storage.js';
import { RecognitionPool } from './pool.js';
import { RecognitionRepository } from './repository.js';
import type { PaperScoresPort } from './context.js';
import { RECOGNISE_PAGE_JOB, RecognitionService } from './service.js';

export interface RecognitionModuleOptions {
  db: Db;
  jobs: JobQueue;
  dataDir: string;
  /** The host's object store (page images and crops are keys in it); else files under dataDir. */
  storage?: ObjectStorage;
  clock: () => number;
  /** Worker processes; 0 = one per core. */
  workers: number;
  /** Resident memory of a worker past which it is killed and its page sent to a person, MB. */
  workerMemoryMb?: number;
  /** 纸上批阅 (ADR 0065): takes the score boxes of every applied page and decides their exceptions. */
  paperScores?: () => PaperScoresPort | undefined;
}

export interface RecognitionModule {
  service: RecognitionService;
  pool: RecognitionPool;
  /** The scan intake calls this for every page it stores. */
  onPageStored: (page: ScanPage, replaced?: ScanPage) => Promise<void>;
  /** Cuts the crops of a recognised page when one of them is first read (give it to the crops' readers). */
  cropOnDemand: (relative: string) => Promise<boolean>;
}

/** Wires recognition: the worker pool, the `recognise-page` job, and the exception, review and key calls. */
export async function registerRecognition(
  app: FastifyInstance,
  guards: CallGuards,
  options: RecognitionModuleOptions,
): Promise<RecognitionModule> {
  const pool = new RecognitionPool({
    ...(options.workers > 0 ? { size: options.workers } : {}),
    ...(options.workerMemoryMb ? { memoryLimitMb: options.workerMemoryMb } : {}),
  });
  const scanRepo = new ScanRepository(options.db.kysely);
  const service = new RecognitionService({
    repo: new RecognitionRepository(options.db.kysely),
    results: new ResultsService(options.db.kysely, options.clock),
    storage: new PageStorage(options.storage ?? options.dataDir),
    pool,
    findCard: cardLayoutResolver(options.db.kysely),
    findBatch: (id) => scanRepo.findBatch(id),
    enqueue: (pageId, priority) => options.jobs.enqueue(RECOGNISE_PAGE_JOB, { pageId }, { priority }),
    clock: options.clock,
    ...(options.paperScores ? { paperScores: options.paperScores } : {}),
  });
  options.jobs.work(
    RECOGNISE_PAGE_JOB,
    async (payload) => {
      const pageId = typeof payload.pageId === 'string' ? payload.pageId : '';
      try {
        await service.recognise(pageId);
      } catch (err) {
        app.log.error({ err, pageId }, 'recognising a page failed');
        throw err;
      }
    },
    { concurrency: pool.size },
  );
  // Jobs drain before the database closes (app.ts), then the workers stop.
  app.addHook('onClose', () => pool.close());
  app.addHook('onReady', async () => {
    const n = await service.requeueUnfinished();
    if (n > 0) app.log.info({ pages: n }, 'queued unfinished page recognition again');
  });

  registerCall(app, guards, calls.recognitionTally, async ({ auth, params }) =>
    ok(await service.tally(auth, params.id)),
  );
  registerCall(app, guards, calls.checkRecognitionBatch, async ({ auth, params }) =>
    ok(await service.check(auth, params.id)),
  );
  registerCall(app, guards, calls.listRecognitionExceptions, async ({ auth, query }) =>
    ok(await service.listExceptions(auth, query)),
  );
  registerCall(app, guards, calls.resolveRecognitionException, async ({ auth, params, body }) =>
    ok(await service.resolve(auth, params.id, body)),
  );
  registerCall(app, guards, calls.reviewSheets, async ({ auth, params }) =>
    ok(await service.reviewSheets(auth, params.id)),
  );
  registerCall(app, guards, calls.reviewSheet, async ({ auth, params }) =>
    ok(await service.reviewSheet(auth, params.id)),
  );
  registerCall(app, guards, calls.overrideSheetAnswers, async ({ auth, params, body }) =>
    ok(await service.override(auth, params.id, body.answers)),
  );
  registerCall(app, guards, calls.confirmSheet, async ({ auth, params }) =>
    ok(await service.confirm(auth, params.id)),
  );
  registerCall(app, guards, calls.answerKey, async ({ auth, params }) =>
    ok(await service.answerKey(auth, params.id)),
  );
  registerCall(app, guards, calls.updateAnswerKey, async ({ auth, params, body }) =>
    ok(await service.updateAnswerKey(auth, params.id, body)),
  );

  return {
    service,
    pool,
    onPageStored: (page, replaced) => service.pageStored(page, replaced),
    cropOnDemand: (relative) => service.cropOnDemand(relative),
  };
}
