import {
  MATERIAL_FOLDER_MAX_DEPTH,
  MATERIAL_MESSAGES,
  MaterialNameSchema,
  type Material,
  type MaterialFolder,
} from '@zhzy/contracts';
import { AppError } from '../../lib/errors.js';
import type { SchoolActor } from '../school/policy.js';
import type { FolderRow, MaterialRow } from './repository.js';
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

export const fullName = (row: Pick<MaterialRow, 'name' | 'ext'>) => `${row.name}.${row.ext}`;

/** Administrators change everything; a teacher what they uploaded or created. */
export function mayManage(actor: SchoolActor, ownerId: string | null): boolean {
  return actor.canManage || (ownerId !== null && ownerId === actor.userId);
}

export function presentFolder(actor: SchoolActor, row: FolderRow): MaterialFolder {
  return {
    id: row.id,
    parentId: row.parent_id,
    name: row.name,
    createdBy: row.created_by ? { userId: row.created_by, nickname: row.creator_nickname ?? '' } : null,
    createdAt: row.created_at,
    materialCount: row.material_count,
    canManage: mayManage(actor, row.created_by),
  };
}

export function presentMaterial(
  actor: SchoolActor,
  row: MaterialRow,
  folders: Map<string, FolderRow>,
): Material {
  const path: string[] = [];
  let id = row.folder_id;
  while (id && path.length <= MATERIAL_FOLDER_MAX_DEPTH) {
    const f = folders.get(id);
    if (!f) break;
    path.unshift(f.name);
    id = f.parent_id;
  }
  return {
    id: row.id,
    folderId: row.folder_id,
    name: row.name,
    ext: row.ext,
    kind: row.kind,
    mime: row.mime,
    sizeBytes: row.size_bytes,
    pageCount: row.page_count,
    width: row.width,
    height: row.height,
    uploader: row.uploaded_by ? { userId: row.uploaded_by, nickname: row.uploader_nickname ?? '' } : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    folderPath: path,
    canManage: mayManage(actor, row.uploaded_by),
  };
}

/** How deep a folder sits (a root folder is 1). */
export function depthOf(folders: Map<string, FolderRow>, id: string | null): number {
  let depth = 0;
  let at = id;
  while (at && depth <= MATERIAL_FOLDER_MAX_DEPTH + 1) {
    depth += 1;
    at = folders.get(at)?.parent_id ?? null;
  }
  return depth;
}

/** How many levels a folder and the folders below it take. */
export function subtreeDepth(folders: Map<string, FolderRow>, id: string): number {
  return (
    1 +
    Math.max(
      0,
      ...[...folders.values()].filter((f) => f.parent_id === id).map((f) => subtreeDepth(folders, f.id)),
    )
  );
}
