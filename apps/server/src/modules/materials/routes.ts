import multipart from '@fastify/multipart';
import type { DocumentSandbox } from '../../lib/sandbox/pool.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MATERIAL_MESSAGES, MATERIAL_UPLOAD_MAX_BYTES, UploadMaterialSchema, calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { describeIssues, ok, registerCall, type CallGuards } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
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

/** Reads the one `file` part (with the name the browser gave it) and the text fields of a multipart body. */
async function readUpload(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  let filename: string | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: MATERIAL_UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 2_000, parts: 11 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'file' && !file) {
          file = data;
          filename = part.filename;
        }
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        MATERIAL_MESSAGES.tooLarge(MATERIAL_UPLOAD_MAX_BYTES / 1024 / 1024),
      );
    }
    throw new AppError('VALIDATION', MATERIAL_MESSAGES.noFile, {
      detail: `multipart: ${code ?? String(error)}`,
    });
  }
  if (!file || file.length === 0) throw new AppError('VALIDATION', MATERIAL_MESSAGES.noFile);
  return { file, filename, fields };
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

  // ── upload (multipart, in its own scope)
  await app.register(async (scope) => {
    await scope.register(multipart);
    scope.route({
      method: calls.uploadMaterial.method,
      url: calls.uploadMaterial.path,
      handler: async (request) => {
        // The bearer first: an anonymous upload is refused before a byte of it is read.
        const auth = await guards.authenticate(request);
        const { file, filename, fields } = await readUpload(request);
        const parsed = UploadMaterialSchema.safeParse({ ...fields, file });
        if (!parsed.success) throw describeIssues(parsed.error, 'body');
        const material = await service.upload(auth, {
          data: file,
          filename,
          folderId: parsed.data.folderId,
          name: parsed.data.name,
        });
        return ok(material, MATERIAL_MESSAGES.uploaded(`${material.name}.${material.ext}`));
      },
    });
  });

  // Expired recycle bins and preview links: now and daily (the timer never keeps the process alive).
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

  return service;
}
