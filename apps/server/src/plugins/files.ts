import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@zhzy/contracts';
import type { AuthContext, CallGuards } from '../lib/call.js';
import { StorageArea } from '../lib/storage/area.js';
import type { ObjectStorage } from '../lib/storage/index.js';

/** Folders of DATA_DIR/files: avatars and logos are public by unguessable name; feedback screenshots are not. */
export const FILE_KINDS = ['avatars', 'logos', 'feedback'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
const PUBLIC_KINDS = new Set<FileKind>(['avatars', 'logos']);

const NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(webp|png)$/;
const CONTENT_TYPES = { webp: 'image/webp', png: 'image/png' } as const;

const isKind = (kind: string): kind is FileKind => (FILE_KINDS as readonly string[]).includes(kind);

/**
 * Stored images under key `files/<kind>/<uuid>.<ext>` of the host's object store (DATA_DIR on disk by default, an
 * S3 bucket in production), named by a random UUIDv4 (122 random bits), so a public file's URL cannot be guessed.
 * Stored paths are relative (`avatars/<uuid>.webp`) and become `/files/<path>` URLs.
 */
export class FileStore extends StorageArea {
  /** A DATA_DIR (embedded default) or the host's object store. */
  constructor(store: string | ObjectStorage) {
    super(store, {
      key: (relative) => {
        if (!FileStore.isStoredPath(relative)) throw new Error(`not a stored file path: ${relative}`);
        return `files/${relative}`;
      },
      contentType: (relative) => CONTENT_TYPES[relative.endsWith('.png') ? 'png' : 'webp'],
    });
  }

  /** A fresh relative path for a new file of the kind. */
  newPath(kind: FileKind, ext: 'webp' | 'png'): string {
    return `${kind}/${randomUUID()}.${ext}`;
  }

  /** Whether a relative path is one this store could have made (kind folder + UUID name). */
  static isStoredPath(relative: string): boolean {
    const [kind, name, ...rest] = relative.split('/');
    return rest.length === 0 && !!kind && isKind(kind) && !!name && NAME.test(name);
  }

  /** Removes a replaced file; a missing file, no file or a path this store never made is fine. */
  override async remove(relative: string | null | undefined): Promise<void> {
    if (!relative || !FileStore.isStoredPath(relative)) return;
    await super.remove(relative);
  }
}

/** Whether the caller may read a private file (e.g. a feedback screenshot: its author or their school's administrators). */
export type PrivateFileCheck = (relative: string, auth: AuthContext) => Promise<boolean>;

export interface FilesOptions {
  store: FileStore;
  /** The check for each private kind; a private kind without one is never served. */
  privateChecks: Partial<Record<FileKind, PrivateFileCheck>>;
}

/** Serves `GET /files/<kind>/<name>`: public kinds to anyone, private kinds to a signed-in caller who may read them. */
export function registerFiles(app: FastifyInstance, guards: CallGuards, options: FilesOptions): void {
  const notFound = { code: 404, message: MESSAGES.notFound, data: null };
  app.get<{ Params: { kind: string; name: string } }>('/files/:kind/:name', async (request, reply) => {
    const { kind, name } = request.params;
    const relative = `${kind}/${name}`;
    if (!isKind(kind) || !FileStore.isStoredPath(relative)) return reply.code(404).send(notFound);
    if (!PUBLIC_KINDS.has(kind)) {
      const auth = await guards.authenticate(request);
      const check = options.privateChecks[kind];
      if (!check || !(await check(relative, auth))) return reply.code(404).send(notFound);
    }
    const data = await options.store.read(relative);
    if (!data) return reply.code(404).send(notFound);
    const ext = name.endsWith('.png') ? 'png' : 'webp';
    return reply
      .type(CONTENT_TYPES[ext])
      .header('x-content-type-options', 'nosniff')
      .header(
        'cache-control',
        // A stored file never changes (a new upload gets a new name), so public ones are cached for good.
        PUBLIC_KINDS.has(kind) ? 'public, max-age=31536000, immutable' : 'private, max-age=3600',
      )
      .send(data);
  });
}
