import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { DOCX_MIME, calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { ok, registerCall, type CallGuards } from '../../lib/call.js';
import type { DocumentSandbox } from '../../lib/sandbox/pool.js';
import { PapersRepository } from './repository.js';
import { NO_HOMEWORK_YET, PapersService, type RecentHomeworkQuestions } from './service.js';

/** Word files and inline edits carry images as data URLs: these calls take bodies up to this size. */
const LARGE_BODY_LIMIT = 20 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The recycle-bin purge (run at boot and daily); tests run it after moving the clock. */
    paperMaintenance: { purgeExpired(): Promise<number> };
  }
}

/** Composing and editing a paper, its settings and their defaults. */
function editingCalls(app: FastifyInstance, guards: CallGuards, papers: PapersService): void {
  registerCall(app, guards, calls.composeFromBasket, async ({ auth, body }) =>
    ok(await papers.composeFromBasket(auth, body)),
  );
  registerCall(app, guards, calls.createPaper, async ({ auth, body }) =>
    ok(await papers.createBlank(auth, body)),
  );
  registerCall(app, guards, calls.paperDetail, async ({ auth, params }) =>
    ok(await papers.detail(auth, params.id)),
  );
  registerCall(app, guards, calls.savePaper, async ({ auth, params, body }) =>
    ok(await papers.save(auth, params.id, body)),
  );
  registerCall(app, guards, calls.addPaperQuestions, async ({ auth, params, body }) =>
    ok(await papers.addQuestions(auth, params.id, body)),
  );
  registerCall(app, guards, calls.replacePaperQuestion, async ({ auth, params, body }) =>
    ok(await papers.replaceQuestion(auth, params.id, body)),
  );
  registerCall(app, guards, calls.paperSettings, async ({ auth, params }) =>
    ok(await papers.settings(auth, params.id)),
  );
  registerCall(app, guards, calls.savePaperSettings, async ({ auth, params, body }) =>
    ok(await papers.saveSettings(auth, params.id, body)),
  );
  registerCall(app, guards, calls.paperSettingDefaults, async ({ auth }) =>
    ok(await papers.settingDefaults(auth)),
  );
  registerCall(app, guards, calls.savePaperSettingDefaults, async ({ auth, body }) =>
    ok(await papers.saveSettingDefaults(auth, body)),
  );
  registerCall(app, guards, calls.resetPaperSettingDefaults, async ({ auth }) =>
    ok(await papers.resetSettingDefaults(auth)),
  );
}

/** A paper's life: rename, copy, share, recycle bin, the lists, smart composition and Word export. */
function lifecycleCalls(app: FastifyInstance, guards: CallGuards, papers: PapersService): void {
  registerCall(app, guards, calls.renamePaper, async ({ auth, params, body }) =>
    ok(await papers.rename(auth, params.id, body.title)),
  );
  registerCall(app, guards, calls.copyPaper, async ({ auth, params }) =>
    ok(await papers.copy(auth, params.id)),
  );
  registerCall(app, guards, calls.sharePaper, async ({ auth, params, body }) =>
    ok(await papers.share(auth, params.id, body)),
  );
  registerCall(app, guards, calls.deletePaper, async ({ auth, params }) => {
    await papers.remove(auth, params.id);
    return ok(null);
  });
  registerCall(app, guards, calls.restorePaper, async ({ auth, params }) =>
    ok(await papers.restore(auth, params.id)),
  );
  registerCall(app, guards, calls.purgePaper, async ({ auth, params }) => {
    await papers.purge(auth, params.id);
    return ok(null);
  });
  registerCall(app, guards, calls.myPapers, async ({ auth, query }) =>
    ok(await papers.list(auth, 'mine', query)),
  );
  registerCall(app, guards, calls.schoolPapers, async ({ auth, query }) =>
    ok(await papers.list(auth, 'school', query)),
  );
  registerCall(app, guards, calls.recycleBin, async ({ auth, query }) =>
    ok(await papers.list(auth, 'recycle', query)),
  );
  registerCall(app, guards, calls.templatePapers, async ({ auth, query }) =>
    ok(await papers.list(auth, 'template', query)),
  );
  registerCall(app, guards, calls.smartCompose, async ({ auth, body }) =>
    ok(await papers.smartCompose(auth, body)),
  );
  registerCall(app, guards, calls.exportPaperWord, async ({ auth, params, body, reply }) => {
    const { buffer, filename } = await papers.exportWord(auth, params.id, body.copy);
    void reply
      .header('content-type', DOCX_MIME)
      .header(
        'content-disposition',
        `attachment; filename="paper.docx"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      )
      .send(buffer);
    return reply as unknown as Blob;
  });
}

export function papersRoutes(app: FastifyInstance, guards: CallGuards, papers: PapersService): void {
  editingCalls(app, guards, papers);
  lifecycleCalls(app, guards, papers);
}

/** Calls whose bodies may be large (Word files, images): their own scope with multipart and a higher limit. */
async function largeBodyRoutes(app: FastifyInstance, guards: CallGuards, papers: PapersService) {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = LARGE_BODY_LIMIT;
    });
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: LARGE_BODY_LIMIT, files: 1, fields: 10 },
    });
    registerCall(scope, guards, calls.importWordPreview, async ({ auth, body }) =>
      ok(await papers.importPreview(auth, body.subjectId, toBytes(body.file))),
    );
    registerCall(scope, guards, calls.importWordSave, async ({ auth, body }) =>
      ok(await papers.importSave(auth, body)),
    );
    registerCall(scope, guards, calls.editPaperQuestion, async ({ auth, params, body }) =>
      ok(await papers.editQuestion(auth, params.id, body)),
    );
  });
}

function toBytes(file: Blob | Uint8Array): Uint8Array {
  // Multipart fields arrive as Buffers on the host; a Blob only exists in the browser.
  return file instanceof Uint8Array ? file : new Uint8Array();
}

export interface PapersModuleOptions {
  db: Db;
  clock: () => number;
  recentHomework?: RecentHomeworkQuestions;
  /** Where Word files are imported and exported (child processes with limits). */
  documents: DocumentSandbox;
}

/** Wires the papers module: service, routes, and the recycle-bin purge at boot and then daily. */
export async function registerPapers(
  app: FastifyInstance,
  guards: CallGuards,
  options: PapersModuleOptions,
): Promise<PapersService> {
  const service = new PapersService(
    new PapersRepository(options.db.kysely, options.db.dialect),
    options.clock,
    options.recentHomework ?? NO_HOMEWORK_YET,
    options.documents,
  );
  papersRoutes(app, guards, service);
  await largeBodyRoutes(app, guards, service);

  app.decorate('paperMaintenance', { purgeExpired: () => service.purgeExpired() });
  const purged = await service.purgeExpired();
  if (purged > 0) app.log.info({ purged }, 'purged papers kept 30 days in recycle bins');
  const timer = setInterval(() => {
    service
      .purgeExpired()
      .then((n) => n > 0 && app.log.info({ purged: n }, 'purged papers kept 30 days in recycle bins'))
      .catch((err: unknown) => app.log.warn({ err }, 'recycle-bin purge failed; it runs again tomorrow'));
  }, DAY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  return service;
}
