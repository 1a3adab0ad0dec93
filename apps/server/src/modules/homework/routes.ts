import type { FastifyInstance } from 'fastify';
import { PDF_MIME, calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import { PapersRepository } from '../papers/repository.js';
import { PapersService } from '../papers/service.js';
import { SystemRepository } from '../system/repository.js';
import { attachmentHeader, streamCardPdf } from './card-pdf.js';
import { HomeworkRepository } from './repository.js';
import {
  HomeworkService,
  NO_SCANS_YET,
  type CardLayoutResolver,
  type HomeworkProgressSource,
} from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The recogniser's look-up of a frozen card layout by the (card id, version) of a page QR. */
    homework: { findCardLayout: CardLayoutResolver };
  }
}

export function homeworkRoutes(app: FastifyInstance, guards: CallGuards, homework: HomeworkService): void {
  registerCall(app, guards, calls.paperCard, async ({ auth, params }) =>
    ok(await homework.paperCard(auth, params.id)),
  );
  registerCall(app, guards, calls.previewPaperCard, async ({ auth, params, body }) =>
    ok(await homework.previewPaperCard(auth, params.id, body)),
  );
  registerCall(app, guards, calls.savePaperCard, async ({ auth, params, body }) =>
    ok(await homework.savePaperCard(auth, params.id, body)),
  );
  registerCall(app, guards, calls.publishHomework, async ({ auth, body }) =>
    ok(await homework.publish(auth, body)),
  );
  registerCall(app, guards, calls.homeworkList, async ({ auth, query }) =>
    ok(await homework.list(auth, query)),
  );
  registerCall(app, guards, calls.homeworkDetail, async ({ auth, params }) =>
    ok(await homework.detail(auth, params.id)),
  );
  registerCall(app, guards, calls.deleteHomework, async ({ auth, params }) => {
    await homework.remove(auth, params.id);
    return ok(null);
  });
  registerCall(app, guards, calls.homeworkCard, async ({ auth, params, query }) =>
    ok(await homework.card(auth, params.id, query.version)),
  );
  registerCall(app, guards, calls.editHomeworkCard, async ({ auth, params, body }) =>
    ok(await homework.editCard(auth, params.id, body)),
  );
  registerCall(app, guards, calls.downloadHomeworkCards, async ({ auth, params, body, request, reply }) => {
    // Everything that can be refused is checked before the first byte: after it the status is 200 for good.
    const { job, filename } = await homework.cardPdf(auth, params.id, body);
    const { stream, done } = streamCardPdf(job);
    done.then(
      (result) => request.log.info({ homeworkId: params.id, ...result }, 'answer-card PDF rendered'),
      (err: unknown) =>
        request.log.error({ err, homeworkId: params.id }, 'answer-card PDF failed mid-stream'),
    );
    void reply
      .header('content-type', PDF_MIME)
      .header('content-disposition', attachmentHeader(filename))
      .header('cache-control', 'no-store')
      .send(stream);
    return reply as unknown as Blob;
  });
}

export interface HomeworkModuleOptions {
  db: Db;
  clock: () => number;
  /** Scanning and marking progress, from which states are computed. */
  progress?: HomeworkProgressSource;
}

/** Wires the homework module: service, routes, and the card look-up the recognition module uses. */
export function registerHomework(
  app: FastifyInstance,
  guards: CallGuards,
  options: HomeworkModuleOptions,
): HomeworkService {
  const service = new HomeworkService(
    new HomeworkRepository(options.db.kysely),
    new PapersService(new PapersRepository(options.db.kysely, options.db.dialect), options.clock),
    new SystemRepository(options.db.kysely),
    options.clock,
    options.progress ?? NO_SCANS_YET,
  );
  homeworkRoutes(app, guards, service);
  app.decorate('homework', {
    findCardLayout: (cardId: string, version: number, orgId?: string) =>
      service.findCardLayout(cardId, version, orgId),
  });
  return service;
}
