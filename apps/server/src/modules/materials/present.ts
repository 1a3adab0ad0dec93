import {
  MATERIAL_FOLDER_MAX_DEPTH,
  MATERIAL_MESSAGES,
  MaterialNameSchema,
  type Material,
  type MaterialFolder,
} from '@zhzy/contracts';
import { AppError } from '../../lib/errors.js';
import type { SchoolActor } from '../school/policy.js';
import type { FolderRecord, ListedFolder, ListedMaterial, MaterialRecord } from './repository.js';
import { MATERIAL_TEXT } from '../../i18n/messages.js';

// Materials as a caller reads them, and the names they are given: pure, no storage and no database.

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
export const FORBIDDEN_CHARS = /[\\/:*?"<>|\u0000-\u001f]/g;

/** A display name from an uploaded file's name: no extension, no characters file systems refuse. */
export function nameFromFilename(filename: string | undefined): string {
  const base = (filename ?? '')
    .replace(/^.*[\\/]/, '')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(FORBIDDEN_CHARS, '_')
    .trim()
    .slice(0, 100)
    .trim();
  return base || MATERIAL_TEXT.unnamed;
}

export function validName(name: string): string {
  const parsed = MaterialNameSchema.safeParse(name);
  if (!parsed.success)
    throw new AppError('VALIDATION', parsed.error.issues[0]?.message ?? MATERIAL_MESSAGES.nameRequired);
  return parsed.data;
}

export const fullName = (m: Pick<MaterialRecord, 'name' | 'ext'>) => `${m.name}.${m.ext}`;

/** Administrators change everything; a teacher what they uploaded or created. */
export function mayManage(actor: SchoolActor, ownerId: string | null): boolean {
  return actor.canManage || (ownerId !== null && ownerId === actor.userId);
}

export function presentFolder(actor: SchoolActor, f: ListedFolder): MaterialFolder {
  return {
    id: f.id,
    parentId: f.parentId,
    name: f.name,
    createdBy: f.createdBy ? { userId: f.createdBy, nickname: f.creatorNickname ?? '' } : null,
    createdAt: f.createdAt,
    materialCount: f.materialCount,
    canManage: mayManage(actor, f.createdBy),
  };
}

export function presentMaterial(
  actor: SchoolActor,
  m: ListedMaterial,
  folders: Map<string, FolderRecord>,
): Material {
  const path: string[] = [];
  let id = m.folderId;
  while (id && path.length <= MATERIAL_FOLDER_MAX_DEPTH) {
    const f = folders.get(id);
    if (!f) break;
    path.unshift(f.name);
    id = f.parentId;
  }
  return {
    id: m.id,
    folderId: m.folderId,
    name: m.name,
    ext: m.ext,
    kind: m.kind,
    mime: m.mime,
    sizeBytes: m.sizeBytes,
    pageCount: m.pageCount,
    width: m.width,
    height: m.height,
    uploader: m.uploadedBy ? { userId: m.uploadedBy, nickname: m.uploaderNickname ?? '' } : null,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    deletedAt: m.deletedAt,
    folderPath: path,
    canManage: mayManage(actor, m.uploadedBy),
  };
}

/** How deep a folder sits (a root folder is 1). */
export function depthOf(folders: Map<string, FolderRecord>, id: string | null): number {
  let depth = 0;
  let at = id;
  while (at && depth <= MATERIAL_FOLDER_MAX_DEPTH + 1) {
    depth += 1;
    at = folders.get(at)?.parentId ?? null;
  }
  return depth;
}

/** How many levels a folder and the folders below it take. */
export function subtreeDepth(folders: Map<string, FolderRecord>, id: string): number {
  return (
    1 +
    Math.max(
      0,
      ...[...folders.values()].filter((f) => f.parentId === id).map((f) => subtreeDepth(folders, f.id)),
    )
  );
}
