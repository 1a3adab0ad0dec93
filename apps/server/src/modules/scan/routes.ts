import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SCAN_MESSAGES, SCAN_PAGE_MAX_BYTES, SCAN_UPLOAD_TOKEN_PREFIX, calls } from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { bearerToken } from '../../lib/bearer.js';
import { ok, registerCall, registerUploadCall, type CallGuards, type MultipartBody } from '../../lib/call.js';
import type { ObjectStorage } from '../../lib/storage/index.js';
import { ScanRepository, type ScanPage } from './repository.js';
import { ScanService, type Uploader } from './service.js';
import { PageStorage } from './storage.js';
import { uploadError, withUploadReason } from './upload-errors.js';

const FILE_LIMITS = { fileSize: SCAN_PAGE_MAX_BYTES, files: 1, fields: 12, fieldSize: 1024, parts: 14 };

/** Reads the one file part (fields must come before it) and its text fields. */
async function readUpload(request: FastifyRequest): Promise<MultipartBody> {
  let part;
  try {
    part = await request.file({ limits: FILE_LIMITS });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw uploadError('tooLarge', 'PAYLOAD_TOO_LARGE', SCAN_MESSAGES.tooLarge);
    throw uploadError('noFile', 'VALIDATION', SCAN_MESSAGES.noFile);
  }
  if (!part) throw uploadError('noFile', 'VALIDATION', SCAN_MESSAGES.noFile);
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw uploadError('tooLarge', 'PAYLOAD_TOO_LARGE', SCAN_MESSAGES.tooLarge);
    throw error;
  }
  if (data.length === 0) throw uploadError('noFile', 'VALIDATION', SCAN_MESSAGES.noFile);
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(part.fields)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v && v.type === 'field' && typeof v.value === 'string') fields[key] = v.value;
  }
  return { file: data, fields };
}

export interface ScanModuleOptions {
  db: Db;
  /** DATA_DIR: page images go under `pages/` (when no object store is given). */
  dataDir: string;
  /** The host's object store (`app.storage`); page images are keys `pages/…` in it. */
  storage?: ObjectStorage;
  clock: () => number;
  /** Called for every page newly stored (recognition queues it), with the page a rescan set aside. */
  onPageStored?: (page: ScanPage, replaced?: ScanPage) => Promise<void>;
}

/** Wires the scan intake: batch calls, the multipart page upload (user or upload token), page lists and images. */
export async function registerScan(
  app: FastifyInstance,
  guards: CallGuards,
  options: ScanModuleOptions,
): Promise<ScanService> {
  const service = new ScanService(
    new ScanRepository(options.db.kysely),
    new PageStorage(options.storage ?? options.dataDir),
    options.clock,
    options.onPageStored,
  );

  registerCall(app, guards, calls.createScanBatch, async ({ auth, body }) =>
    ok(await service.createBatch(auth, body)),
  );
  registerCall(app, guards, calls.listScanBatches, async ({ auth, query }) =>
    ok(await service.listBatches(auth, query)),
  );
  registerCall(app, guards, calls.getScanBatch, async ({ auth, params }) =>
    ok(await service.getBatch(auth, params.id)),
  );
  registerCall(app, guards, calls.listScanPages, async ({ auth, params }) =>
    ok(await service.listPages(auth, params.id)),
  );
  registerCall(app, guards, calls.scanPageImage, async ({ auth, params, reply }) => {
    const { data, format } = await service.pageImage(auth, params.id);
    void reply.type(`image/${format}`).header('cache-control', 'private, max-age=86400');
    return data;
  });

  // The upload reads a multipart stream in its own scope; its bearer is a user's access token or an upload token.
  await app.register(async (scope) => {
    if (!scope.hasContentTypeParser('multipart/form-data'))
      await scope.register(multipart, { limits: FILE_LIMITS });
    registerUploadCall(
      scope,
      guards,
      calls.uploadScanPage,
      {
        maxBytes: SCAN_PAGE_MAX_BYTES,
        tooLarge: SCAN_MESSAGES.tooLarge,
        noFile: SCAN_MESSAGES.noFile,
        // The bearer is a user's access token or the batch's upload token.
        authenticate: async (request): Promise<Uploader> => {
          const token = bearerToken(request.headers.authorization) ?? '';
          return token.startsWith(SCAN_UPLOAD_TOKEN_PREFIX)
            ? { kind: 'token', batch: await service.batchForToken(token) }
            : { kind: 'user', auth: await guards.authenticate(request) };
        },
        read: readUpload,
        invalidBody: (refusal) => withUploadReason(refusal, 'invalidFields'),
      },
      async ({ auth, params, body, file }) => ok(await service.upload(auth, params.id, file, body)),
    );
  });
  return service;
}
