import { createHash } from 'node:crypto';
import {
  MATERIAL_FOLDER_MAX_DEPTH,
  MATERIAL_MESSAGES,
  MATERIAL_RECYCLE_DAYS,
  MaterialHtmlSchema,
  type BindingItem,
  type BindingRequestSchema,
  type CreateFolder,
  type Material,
  type MaterialFolder,
  type MaterialKind,
} from '@zhzy/contracts';
import type { z } from 'zod';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { hashToken, newId, randomToken } from '../../lib/ids.js';
import { limitRefusal, type DocumentSandbox } from '../../lib/sandbox/pool.js';
import { SchoolAccess, type SchoolActor } from '../school/policy.js';
import type { SchoolRepository } from '../school/repository.js';
import type { AuditLog } from '../school/service.js';
import type { MaterialRecord, MaterialsRepository } from './repository.js';
import type { MaterialStorage } from './storage.js';
import type { WordPreview } from './word.js';
import { bind, checkBinding, type BindingDeps, type PaperSource } from './binding.js';
import {
  depthOf,
  fullName,
  mayManage,
  nameFromFilename,
  presentFolder,
  presentMaterial,
  subtreeDepth,
  validName,
} from './present.js';
import { MATERIAL_TEXT } from '../../i18n/messages.js';

export { nameFromFilename } from './present.js';
export type { PaperSource } from './binding.js';

// Who may do what with materials — the one place these rules live:
//  - everyone in the school reads (lists, searches, previews, downloads, binds);
//  - a teacher uploads into any folder, creates folders, and renames, moves or deletes what they uploaded or created;
//  - administrators (the creator is one) do all of that to everything, and empty the recycle bin;
//  - a row of another school answers 404, a row the caller may not change 403.

/** Minutes a preview link stays valid. */
export const LINK_TTL_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

export interface UploadInput {
  data: Buffer;
  /** The file name the browser sent, if any. */
  filename: string | undefined;
  folderId: string | null;
  name: string | undefined;
}

export interface FileAnswer {
  data: Buffer | Uint8Array;
  mime: string;
  filename: string;
}

export class MaterialsService {
  private readonly access: SchoolAccess;

  constructor(
    private readonly repo: MaterialsRepository,
    private readonly storage: MaterialStorage,
    private readonly schoolRepo: SchoolRepository,
    private readonly audit: AuditLog,
    private readonly papers: PaperSource,
    private readonly clock: () => number,
    private readonly documents: DocumentSandbox,
  ) {
    this.access = new SchoolAccess(schoolRepo);
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  // ───────────── presenters ─────────────

  private async folderMap(orgId: string) {
    return new Map((await this.repo.folders(orgId)).map((f) => [f.id, f]));
  }

  private async presentOne(actor: SchoolActor, id: string): Promise<Material> {
    const row = await this.repo.findMaterial(id);
    if (!row) throw notFound(MATERIAL_MESSAGES.materialNotFound);
    return presentMaterial(actor, row, await this.folderMap(row.orgId));
  }

  // ───────────── folders ─────────────

  async folders(auth: AuthContext): Promise<MaterialFolder[]> {
    const actor = await this.access.member(auth);
    return (await this.repo.folders(actor.orgId)).map((f) => presentFolder(actor, f));
  }

  /** A folder of the actor's school, or 404. */
  private async folderIn(actor: SchoolActor, id: string) {
    const folder = await this.repo.findFolder(id);
    if (!folder || folder.orgId !== actor.orgId) throw notFound(MATERIAL_MESSAGES.folderNotFound);
    return folder;
  }

  async createFolder(auth: AuthContext, body: CreateFolder): Promise<MaterialFolder> {
    const actor = await this.access.member(auth);
    const parentId = body.parentId ?? null;
    const folders = await this.folderMap(actor.orgId);
    if (parentId) await this.folderIn(actor, parentId);
    if (depthOf(folders, parentId) + 1 > MATERIAL_FOLDER_MAX_DEPTH) {
      throw new AppError('VALIDATION', MATERIAL_MESSAGES.folderTooDeep);
    }
    if (await this.repo.folderNameTaken(actor.orgId, parentId, body.name)) {
      throw new AppError('CONFLICT', MATERIAL_MESSAGES.folderExists(body.name));
    }
    const id = newId();
    const now = this.now();
    await this.repo.insertFolder({
      id,
      orgId: actor.orgId,
      parentId,
      name: body.name,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    });
    await this.audit.record(this.schoolRepo, actor, 'folder.create', id, `“${body.name}”`);
    const created = (await this.repo.folders(actor.orgId)).find((f) => f.id === id)!;
    return presentFolder(actor, created);
  }

  /** The caller in the folder's school and the folder; 404 outside their schools, 403 when not theirs to change. */
  private async managedFolder(auth: AuthContext, id: string) {
    const folder = await this.repo.findFolder(id);
    const actor = await this.access.memberOfRow(auth, folder?.orgId, MATERIAL_MESSAGES.folderNotFound);
    if (!mayManage(actor, folder!.createdBy)) throw forbidden();
    return { actor, folder: folder! };
  }

  async updateFolder(
    auth: AuthContext,
    id: string,
    body: { name?: string | undefined; parentId?: string | null | undefined },
  ): Promise<MaterialFolder> {
    const { actor, folder } = await this.managedFolder(auth, id);
    const name = body.name ?? folder.name;
    const parentId = body.parentId === undefined ? folder.parentId : body.parentId;
    const folders = await this.folderMap(actor.orgId);
    if (parentId !== folder.parentId) {
      if (parentId) await this.folderIn(actor, parentId);
      // Never into itself or below itself.
      for (let at = parentId; at; at = folders.get(at)?.parentId ?? null) {
        if (at === folder.id) throw new AppError('VALIDATION', MATERIAL_MESSAGES.folderIntoItself);
      }
      if (depthOf(folders, parentId) + subtreeDepth(folders, folder.id) > MATERIAL_FOLDER_MAX_DEPTH) {
        throw new AppError('VALIDATION', MATERIAL_MESSAGES.folderTooDeep);
      }
    }
    if (
      (name !== folder.name || parentId !== folder.parentId) &&
      (await this.repo.folderNameTaken(actor.orgId, parentId, name, folder.id))
    ) {
      throw new AppError('CONFLICT', MATERIAL_MESSAGES.folderExists(name));
    }
    await this.repo.updateFolder(folder.id, { name, parentId, updatedAt: this.now() });
    if (name !== folder.name) {
      await this.audit.record(
        this.schoolRepo,
        actor,
        'folder.rename',
        folder.id,
        `“${folder.name}”→“${name}”`,
      );
    }
    if (parentId !== folder.parentId) {
      const target = parentId ? folders.get(parentId)?.name : MATERIAL_TEXT.allMaterials;
      await this.audit.record(
        this.schoolRepo,
        actor,
        'folder.move',
        folder.id,
        MATERIAL_TEXT.movedTo(name, String(target)),
      );
    }
    const updated = (await this.repo.folders(actor.orgId)).find((f) => f.id === folder.id)!;
    return presentFolder(actor, updated);
  }

  async deleteFolder(auth: AuthContext, id: string): Promise<void> {
    const { actor, folder } = await this.managedFolder(auth, id);
    if (await this.repo.folderInUse(folder.id))
      throw new AppError('CONFLICT', MATERIAL_MESSAGES.folderNotEmpty);
    await this.repo.deleteFolder(folder.id);
    await this.audit.record(this.schoolRepo, actor, 'folder.delete', folder.id, `“${folder.name}”`);
  }

  // ───────────── materials ─────────────

  async list(
    auth: AuthContext,
    q: {
      folderId?: string | undefined;
      keyword?: string | undefined;
      kind?: MaterialKind | undefined;
      scope?: 'folder' | 'all' | undefined;
      mine?: boolean | undefined;
      page: number;
      size: number;
    },
  ) {
    const actor = await this.access.member(auth);
    const searching = !!q.keyword || q.scope === 'all';
    if (q.folderId && !searching) await this.folderIn(actor, q.folderId);
    const { materials, total } = await this.repo.page(
      actor.orgId,
      {
        ...(searching ? (q.keyword ? { keyword: q.keyword } : {}) : { folderId: q.folderId ?? null }),
        ...(q.kind ? { kind: q.kind } : {}),
        ...(q.mine ? { uploadedBy: actor.userId } : {}),
      },
      false,
      q.page,
      q.size,
    );
    const folders = await this.folderMap(actor.orgId);
    return {
      records: materials.map((m) => presentMaterial(actor, m, folders)),
      total,
      page: q.page,
      size: q.size,
    };
  }

  async upload(auth: AuthContext, input: UploadInput): Promise<Material> {
    const actor = await this.access.member(auth);
    if (input.folderId) await this.folderIn(actor, input.folderId);
    const name = input.name !== undefined ? validName(input.name) : nameFromFilename(input.filename);
    // Parsed in the document sandbox: a hostile file costs a child process, never the host's event loop.
    const facts = await this.documents.run('inspectMaterial', [input.data]).catch((error: unknown) => {
      throw limitRefusal(error);
    });
    const id = newId();
    const now = this.now();
    const path = this.storage.newPath(actor.orgId, facts.ext);
    await this.storage.write(path, input.data);
    try {
      if (facts.preview) await this.writePreview(path, facts.preview);
      await this.repo.insertMaterial({
        id,
        orgId: actor.orgId,
        folderId: input.folderId,
        name,
        ext: facts.ext,
        kind: facts.kind,
        mime: facts.mime,
        sizeBytes: input.data.length,
        sha256: createHash('sha256').update(input.data).digest('hex'),
        path,
        pageCount: facts.pageCount,
        width: facts.width,
        height: facts.height,
        uploadedBy: actor.userId,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
        deletedBy: null,
      });
    } catch (error) {
      await this.removeFiles(path);
      throw error;
    }
    await this.audit.record(this.schoolRepo, actor, 'material.upload', id, `“${name}.${facts.ext}”`);
    return this.presentOne(actor, id);
  }

  /** A live material and the caller in its school; 404 outside their schools or when in the recycle bin. */
  private async readable(auth: AuthContext, id: string) {
    const row = await this.repo.findMaterial(id);
    const actor = await this.access.memberOfRow(auth, row?.orgId, MATERIAL_MESSAGES.materialNotFound);
    if (row!.deletedAt) throw notFound(MATERIAL_MESSAGES.materialNotFound);
    return { actor, row: row! };
  }

  private async managed(auth: AuthContext, id: string, deleted: boolean) {
    const row = await this.repo.findMaterial(id);
    const actor = await this.access.memberOfRow(auth, row?.orgId, MATERIAL_MESSAGES.materialNotFound);
    if (!!row!.deletedAt !== deleted) {
      throw notFound(deleted ? MATERIAL_MESSAGES.notInRecycleBin : MATERIAL_MESSAGES.materialNotFound);
    }
    if (!mayManage(actor, row!.uploadedBy)) throw forbidden();
    return { actor, row: row! };
  }

  async detail(auth: AuthContext, id: string): Promise<Material> {
    const { actor } = await this.readable(auth, id);
    return this.presentOne(actor, id);
  }

  async rename(auth: AuthContext, id: string, name: string): Promise<Material> {
    const { actor, row } = await this.managed(auth, id, false);
    if (name !== row.name) {
      await this.repo.updateMaterial(id, { name, updatedAt: this.now() });
      await this.audit.record(
        this.schoolRepo,
        actor,
        'material.rename',
        id,
        `“${fullName(row)}”→“${name}.${row.ext}”`,
      );
    }
    return this.presentOne(actor, id);
  }

  async move(auth: AuthContext, id: string, folderId: string | null): Promise<Material> {
    const { actor, row } = await this.managed(auth, id, false);
    // The folder must be in the material's own school.
    const target = folderId ? await this.repo.findFolder(folderId) : null;
    if (folderId && (!target || target.orgId !== row.orgId)) throw notFound(MATERIAL_MESSAGES.folderNotFound);
    if (folderId !== row.folderId) {
      await this.repo.updateMaterial(id, { folderId, updatedAt: this.now() });
      await this.audit.record(
        this.schoolRepo,
        actor,
        'material.move',
        id,
        MATERIAL_TEXT.movedTo(fullName(row), target?.name ?? MATERIAL_TEXT.allMaterials),
      );
    }
    return this.presentOne(actor, id);
  }

  async remove(auth: AuthContext, id: string): Promise<void> {
    const { actor, row } = await this.managed(auth, id, false);
    await this.repo.updateMaterial(id, { deletedAt: this.now(), deletedBy: actor.userId });
    await this.audit.record(
      this.schoolRepo,
      actor,
      'material.delete',
      id,
      MATERIAL_TEXT.movedToRecycleBin(fullName(row)),
    );
  }

  async recycleBin(auth: AuthContext, page: number, size: number) {
    const actor = await this.access.member(auth);
    // Administrators see the school's bin; a teacher sees what they uploaded.
    const { materials, total } = await this.repo.page(
      actor.orgId,
      actor.canManage ? {} : { uploadedBy: actor.userId },
      true,
      page,
      size,
    );
    const folders = await this.folderMap(actor.orgId);
    return { records: materials.map((m) => presentMaterial(actor, m, folders)), total, page, size };
  }

  async restore(auth: AuthContext, id: string): Promise<Material> {
    const { actor, row } = await this.managed(auth, id, true);
    await this.repo.updateMaterial(id, { deletedAt: null, deletedBy: null, updatedAt: this.now() });
    await this.audit.record(this.schoolRepo, actor, 'material.restore', id, `“${fullName(row)}”`);
    return this.presentOne(actor, id);
  }

  async purge(auth: AuthContext, id: string): Promise<void> {
    const { actor, row } = await this.managed(auth, id, true);
    await this.repo.deleteMaterial(id);
    await this.removeFiles(row.path);
    await this.audit.record(this.schoolRepo, actor, 'material.purge', id, `“${fullName(row)}”`);
  }

  /** Deletes for ever what has been in a recycle bin longer than MATERIAL_RECYCLE_DAYS days. */
  async purgeExpired(): Promise<number> {
    const before = new Date(this.clock() - MATERIAL_RECYCLE_DAYS * DAY_MS).toISOString();
    let purged = 0;
    for (;;) {
      const rows = await this.repo.expiredDeleted(before);
      for (const row of rows) {
        await this.repo.deleteMaterial(row.id);
        await this.removeFiles(row.path);
        purged += 1;
      }
      if (rows.length < 200) break;
    }
    await this.repo.purgeLinks(this.now());
    return purged;
  }

  // ───────────── reading the file ─────────────

  private async bytes(row: MaterialRecord): Promise<Buffer> {
    const data = await this.storage.read(row.path);
    if (!data)
      throw new AppError('NOT_FOUND', MATERIAL_MESSAGES.materialNotFound, {
        detail: `file missing: ${row.path}`,
      });
    return data;
  }

  async link(auth: AuthContext, id: string): Promise<{ url: string; expiresAt: string }> {
    const { actor, row } = await this.readable(auth, id);
    const token = randomToken(24);
    const expiresAt = new Date(this.clock() + LINK_TTL_MS).toISOString();
    await this.repo.insertLink({
      tokenHash: hashToken(token),
      materialId: row.id,
      userId: actor.userId,
      expiresAt,
    });
    return { url: `/school/material-file/${token}`, expiresAt };
  }

  /** The file behind a preview link, while the link is fresh and its user still belongs to the school. */
  async fileByToken(token: string): Promise<FileAnswer> {
    const expired = () => new AppError('NOT_FOUND', MATERIAL_MESSAGES.linkExpired);
    const link = await this.repo.findLink(hashToken(token));
    if (!link || link.expiresAt <= this.now()) throw expired();
    const row = await this.repo.findMaterial(link.materialId);
    if (!row || row.deletedAt) throw expired();
    if (!(await this.schoolRepo.members.findMembership(row.orgId, link.userId))) throw expired();
    return { data: await this.bytes(row), mime: row.mime, filename: fullName(row) };
  }

  async download(auth: AuthContext, id: string): Promise<FileAnswer> {
    const { row } = await this.readable(auth, id);
    return { data: await this.bytes(row), mime: row.mime, filename: fullName(row) };
  }

  /** A Word material's preview: the one converted at upload (a file stored before that is converted once, now). */
  async html(auth: AuthContext, id: string): Promise<WordPreview> {
    const { row } = await this.readable(auth, id);
    if (row.kind !== 'word') throw new AppError('VALIDATION', MATERIAL_TEXT.onlyWordPreview);
    const stored = await this.storage.read(this.storage.previewPath(row.path));
    if (stored) return MaterialHtmlSchema.parse(JSON.parse(stored.toString('utf8')));
    const preview = await this.documents
      .run('wordToHtml', [await this.bytes(row)])
      .catch((error: unknown) => {
        throw limitRefusal(error);
      });
    await this.writePreview(row.path, preview);
    return preview;
  }

  private writePreview(path: string, preview: WordPreview): Promise<void> {
    return this.storage.write(this.storage.previewPath(path), Buffer.from(JSON.stringify(preview), 'utf8'));
  }

  /** A material's file and, for a Word document, its preview. */
  private async removeFiles(path: string): Promise<void> {
    await this.storage.remove(path);
    if (path.endsWith('.docx')) await this.storage.remove(this.storage.previewPath(path));
  }

  // ───────────── binding ─────────────

  private get binding(): BindingDeps {
    return {
      repo: this.repo,
      papers: this.papers,
      documents: this.documents,
      clock: this.clock,
      bytes: (row) => this.bytes(row),
    };
  }

  /** Each item's title and, when it cannot be bound, why (a paper the caller cannot open, a Word document …). */
  async checkBinding(auth: AuthContext, items: BindingItem[]) {
    return checkBinding(this.binding, auth, await this.access.member(auth), items);
  }

  async bind(
    auth: AuthContext,
    body: z.output<typeof BindingRequestSchema>,
  ): Promise<{ data: Uint8Array; filename: string }> {
    return bind(this.binding, auth, await this.access.member(auth), body);
  }
}
