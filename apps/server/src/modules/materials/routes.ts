import multipart from '@fastify/multipart';
import type { DocumentSandbox } from '../../lib/sandbox/pool.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MATERIAL_MESSAGES, MATERIAL_UPLOAD_MAX_BYTES, calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { ok, registerCall, registerUploadCall, type CallGuards } from '../../lib/call.js';
import { attachmentHeader } from '../homework/card-pdf.js';
import type { SchoolModule } from '../school/routes.js';
import { AuditLog } from '../school/service.js';
import { MaterialsRepository } from './repository.js';
import { MaterialsService, type FileAnswer, type PaperSource } from './service.js';
import { MaterialStorage } from './storage.js';
import type { ObjectStorage } from '../../lib/storage/index.js';

const DAY_MS = 86_400_000;

export interface MaterialsModuleOptions {
  db: Db;
  dataDir: string;
  /** The host's object store; else files under dataDir. */
  storage?: ObjectStorage;
  clock: () => number;
  school: SchoolModule;
  papers: PaperSource;
  /** Where documents are parsed, converted and bound (child processes with limits). */
  documents: DocumentSandbox;
}

function sendFile(reply: FastifyReply, file: FileAnswer, disposition: 'attachment' | 'inline') {
  const header =
    disposition === 'attachment'
      ? attachmentHeader(file.filename, `material.${file.filename.split('.').pop() ?? 'bin'}`)
      : 'inline';
  void reply
    .header('content-type', file.mime)
    .header('content-disposition', header)
    .header('x-content-type-options', 'nosniff')
    // A file opened directly runs nothing (an SVG or HTML disguised as an image never gets this far, and this
    // keeps it that way).
    .header(
      'content-security-policy',
      "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
    )
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', disposition === 'inline' ? 'private, max-age=600' : 'no-store')
    .send(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
  return reply as unknown as Blob;
}

/** Folders, materials and their recycle bin. */
function libraryCalls(app: FastifyInstance, guards: CallGuards, service: MaterialsService): void {
  // ── folders
  registerCall(app, guards, calls.materialFolders, async ({ auth }) => ok(await service.folders(auth)));
  registerCall(app, guards, calls.createMaterialFolder, async ({ auth, body }) =>
    ok(await service.createFolder(auth, body)),
  );
  registerCall(app, guards, calls.updateMaterialFolder, async ({ auth, params, body }) =>
    ok(await service.updateFolder(auth, params.id, body)),
  );
  registerCall(app, guards, calls.deleteMaterialFolder, async ({ auth, params }) => {
    await service.deleteFolder(auth, params.id);
    return ok(null);
  });

  // ── materials
  registerCall(app, guards, calls.materials, async ({ auth, query }) => ok(await service.list(auth, query)));
  registerCall(app, guards, calls.materialDetail, async ({ auth, params }) =>
    ok(await service.detail(auth, params.id)),
  );
  registerCall(app, guards, calls.renameMaterial, async ({ auth, params, body }) =>
    ok(await service.rename(auth, params.id, body.name)),
  );
  registerCall(app, guards, calls.moveMaterial, async ({ auth, params, body }) =>
    ok(await service.move(auth, params.id, body.folderId)),
  );
  registerCall(app, guards, calls.deleteMaterial, async ({ auth, params }) => {
    await service.remove(auth, params.id);
    return ok(null, MATERIAL_MESSAGES.deleted);
  });
  registerCall(app, guards, calls.materialRecycleBin, async ({ auth, query }) =>
    ok(await service.recycleBin(auth, query.page, query.size)),
  );
  registerCall(app, guards, calls.restoreMaterial, async ({ auth, params }) =>
    ok(await service.restore(auth, params.id), MATERIAL_MESSAGES.restored),
  );
  registerCall(app, guards, calls.purgeMaterial, async ({ auth, params }) => {
    await service.purge(auth, params.id);
    return ok(null, MATERIAL_MESSAGES.purged);
  });
}

/** Reading files and binding them into a booklet. */
function fileCalls(app: FastifyInstance, guards: CallGuards, service: MaterialsService): void {
  // ── reading files
  registerCall(app, guards, calls.materialLink, async ({ auth, params }) =>
    ok(await service.link(auth, params.id)),
  );
  registerCall(app, guards, calls.materialFile, async ({ params, reply }) =>
    sendFile(reply, await service.fileByToken(params.token), 'inline'),
  );
  registerCall(app, guards, calls.materialHtml, async ({ auth, params }) =>
    ok(await service.html(auth, params.id)),
  );
  registerCall(app, guards, calls.downloadMaterial, async ({ auth, params, reply }) =>
    sendFile(reply, await service.download(auth, params.id), 'attachment'),
  );

  // ── binding
  registerCall(app, guards, calls.checkBinding, async ({ auth, body }) =>
    ok(await service.checkBinding(auth, body.items)),
  );
  registerCall(app, guards, calls.bindBooklet, async ({ auth, body, reply, request }) => {
    const { data, filename } = await service.bind(auth, body);
    request.log.info({ items: body.items.length, bytes: data.byteLength }, 'booklet bound');
    return sendFile(reply, { data, filename, mime: 'application/pdf' }, 'attachment');
  });
}

export function materialsRoutes(app: FastifyInstance, guards: CallGuards, service: MaterialsService): void {
  libraryCalls(app, guards, service);
  fileCalls(app, guards, service);
}

/** The upload: multipart, in its own scope. */
async function uploadRoutes(
  app: FastifyInstance,
  guards: CallGuards,
  service: MaterialsService,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart);
    registerUploadCall(
      scope,
      guards,
      calls.uploadMaterial,
      {
        maxBytes: MATERIAL_UPLOAD_MAX_BYTES,
        tooLarge: MATERIAL_MESSAGES.tooLarge(MATERIAL_UPLOAD_MAX_BYTES / 1024 / 1024),
        noFile: MATERIAL_MESSAGES.noFile,
        fields: 10,
      },
      async ({ auth, body, file, filename }) => {
        const material = await service.upload(auth, {
          data: file,
          filename,
          folderId: body.folderId,
          name: body.name,
        });
        return ok(material, MATERIAL_MESSAGES.uploaded(`${material.name}.${material.ext}`));
      },
    );
  });
}

/** Expired recycle bins and preview links: now and daily (the timer never keeps the process alive). */
async function scheduleUpkeep(app: FastifyInstance, service: MaterialsService): Promise<void> {
  const run = () =>
    service.purgeExpired().then(
      (n) => {
        if (n > 0) app.log.info({ purged: n }, 'purged materials from the recycle bins');
      },
      (err: unknown) => app.log.error({ err }, 'materials upkeep failed'),
    );
  await run();
  const timer = setInterval(() => void run(), DAY_MS);
  timer.unref();
  app.addHook('onClose', () => clearInterval(timer));
}

/** Wires school materials (/school/materials…) and binding (/school/binding…); purges expired recycle bins daily. */
export async function registerMaterials(
  app: FastifyInstance,
  guards: CallGuards,
  options: MaterialsModuleOptions,
): Promise<MaterialsService> {
  const service = new MaterialsService(
    new MaterialsRepository(options.db.kysely, options.db.dialect),
    new MaterialStorage(options.storage ?? options.dataDir),
    options.school.repository,
    new AuditLog(options.clock),
    options.papers,
    options.clock,
    options.documents,
  );
  materialsRoutes(app, guards, service);
  await uploadRoutes(app, guards, service);
  await scheduleUpkeep(app, service);
  return service;
}
