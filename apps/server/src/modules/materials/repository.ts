import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { containsPattern, ilike } from '../../db/dialect.js';
import type {
  Database,
  MaterialFoldersTable,
  MaterialKindColumn,
  MaterialLinksTable,
  MaterialsTable,
} from '../../db/schema.js';

/** A folder of a school's materials. */
export interface FolderRecord {
  id: string;
  orgId: string;
  parentId: string | null;
  name: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A folder as listed: with its creator's nickname and how many live materials it holds. */
export interface ListedFolder extends FolderRecord {
  creatorNickname: string | null;
  materialCount: number;
}

/** A stored material file (`path` relative to the data folder). */
export interface MaterialRecord {
  id: string;
  orgId: string;
  folderId: string | null;
  name: string;
  ext: string;
  kind: MaterialKindColumn;
  mime: string;
  sizeBytes: number;
  sha256: string;
  path: string;
  pageCount: number | null;
  width: number | null;
  height: number | null;
  uploadedBy: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  deletedBy: string | null;
}

/** A material as read: with its uploader's nickname. */
export interface ListedMaterial extends MaterialRecord {
  uploaderNickname: string | null;
}

/** A preview link: the hash of its token, whose it is and until when. */
export interface LinkRecord {
  tokenHash: string;
  materialId: string;
  userId: string;
  expiresAt: string;
}

const toFolder = (r: MaterialFoldersTable): FolderRecord => ({
  id: r.id,
  orgId: r.org_id,
  parentId: r.parent_id,
  name: r.name,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toMaterial = (r: MaterialsTable & { uploader_nickname: string | null }): ListedMaterial => ({
  id: r.id,
  orgId: r.org_id,
  folderId: r.folder_id,
  name: r.name,
  ext: r.ext,
  kind: r.kind,
  mime: r.mime,
  sizeBytes: r.size_bytes,
  sha256: r.sha256,
  path: r.path,
  pageCount: r.page_count,
  width: r.width,
  height: r.height,
  uploadedBy: r.uploaded_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deletedAt: r.deleted_at,
  deletedBy: r.deleted_by,
  uploaderNickname: r.uploader_nickname,
});

/** The columns of the material fields given (a whole material, or the changed fields of one). */
function materialRow(m: Partial<MaterialRecord>): Partial<MaterialsTable> {
  const row: Partial<MaterialsTable> = {};
  if (m.id !== undefined) row.id = m.id;
  if (m.orgId !== undefined) row.org_id = m.orgId;
  if (m.folderId !== undefined) row.folder_id = m.folderId;
  if (m.name !== undefined) row.name = m.name;
  if (m.ext !== undefined) row.ext = m.ext;
  if (m.kind !== undefined) row.kind = m.kind;
  if (m.mime !== undefined) row.mime = m.mime;
  if (m.sizeBytes !== undefined) row.size_bytes = m.sizeBytes;
  if (m.sha256 !== undefined) row.sha256 = m.sha256;
  if (m.path !== undefined) row.path = m.path;
  if (m.pageCount !== undefined) row.page_count = m.pageCount;
  if (m.width !== undefined) row.width = m.width;
  if (m.height !== undefined) row.height = m.height;
  if (m.uploadedBy !== undefined) row.uploaded_by = m.uploadedBy;
  if (m.createdAt !== undefined) row.created_at = m.createdAt;
  if (m.updatedAt !== undefined) row.updated_at = m.updatedAt;
  if (m.deletedAt !== undefined) row.deleted_at = m.deletedAt;
  if (m.deletedBy !== undefined) row.deleted_by = m.deletedBy;
  return row;
}

export interface MaterialFilter {
  /** undefined: every folder (a search); null: the root. */
  folderId?: string | null;
  keyword?: string;
  kind?: string;
  uploadedBy?: string;
}

const count = (n: unknown) => Number(n ?? 0);

/** Folders, materials and preview links of schools. Rows never leave the module. */
export class MaterialsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  // ───────────── folders ─────────────

  async folders(orgId: string): Promise<ListedFolder[]> {
    const rows = await this.db
      .selectFrom('material_folders as f')
      .leftJoin('users as u', 'u.id', 'f.created_by')
      .selectAll('f')
      .select('u.nickname as creator_nickname')
      .select((eb) =>
        eb
          .selectFrom('materials as m')
          .select((e) => e.fn.countAll().as('n'))
          .whereRef('m.folder_id', '=', 'f.id')
          .where('m.deleted_at', 'is', null)
          .as('material_count'),
      )
      .where('f.org_id', '=', orgId)
      .orderBy('f.name')
      .orderBy('f.id')
      .execute();
    return rows.map((r) => ({
      ...toFolder(r),
      creatorNickname: r.creator_nickname,
      materialCount: count(r.material_count),
    }));
  }

  async findFolder(id: string): Promise<FolderRecord | undefined> {
    const row = await this.db
      .selectFrom('material_folders')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toFolder(row);
  }

  async folderNameTaken(orgId: string, parentId: string | null, name: string, exceptId?: string) {
    let q = this.db
      .selectFrom('material_folders')
      .select('id')
      .where('org_id', '=', orgId)
      .where('name', '=', name);
    q = parentId ? q.where('parent_id', '=', parentId) : q.where('parent_id', 'is', null);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return !!(await q.executeTakeFirst());
  }

  async insertFolder(f: FolderRecord) {
    await this.db
      .insertInto('material_folders')
      .values({
        id: f.id,
        org_id: f.orgId,
        parent_id: f.parentId,
        name: f.name,
        created_by: f.createdBy,
        created_at: f.createdAt,
        updated_at: f.updatedAt,
      })
      .execute();
  }

  /** Renames or moves a folder. */
  async updateFolder(id: string, change: { name: string; parentId: string | null; updatedAt: string }) {
    await this.db
      .updateTable('material_folders')
      .set({ name: change.name, parent_id: change.parentId, updated_at: change.updatedAt })
      .where('id', '=', id)
      .execute();
  }

  /** Whether the folder holds live materials or subfolders. */
  async folderInUse(id: string): Promise<boolean> {
    const sub = await this.db
      .selectFrom('material_folders')
      .select('id')
      .where('parent_id', '=', id)
      .executeTakeFirst();
    if (sub) return true;
    const file = await this.db
      .selectFrom('materials')
      .select('id')
      .where('folder_id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return !!file;
  }

  /** Deletes an empty folder; recycled materials that were in it will be restored to the root. */
  async deleteFolder(id: string) {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('materials').set({ folder_id: null }).where('folder_id', '=', id).execute();
      await trx.deleteFrom('material_folders').where('id', '=', id).execute();
    });
  }

  // ───────────── materials ─────────────

  private materialsQuery() {
    return this.db
      .selectFrom('materials as m')
      .leftJoin('users as u', 'u.id', 'm.uploaded_by')
      .selectAll('m')
      .select('u.nickname as uploader_nickname');
  }

  async page(
    orgId: string,
    filter: MaterialFilter,
    deleted: boolean,
    page: number,
    size: number,
  ): Promise<{ materials: ListedMaterial[]; total: number }> {
    let base = this.db.selectFrom('materials as m').where('m.org_id', '=', orgId);
    base = deleted ? base.where('m.deleted_at', 'is not', null) : base.where('m.deleted_at', 'is', null);
    if (filter.folderId !== undefined) {
      base = filter.folderId
        ? base.where('m.folder_id', '=', filter.folderId)
        : base.where('m.folder_id', 'is', null);
    }
    if (filter.keyword) base = base.where(ilike(this.dialect, 'm.name', containsPattern(filter.keyword)));
    if (filter.kind) base = base.where('m.kind', '=', filter.kind as 'pdf');
    if (filter.uploadedBy) base = base.where('m.uploaded_by', '=', filter.uploadedBy);
    const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await base
      .leftJoin('users as u', 'u.id', 'm.uploaded_by')
      .selectAll('m')
      .select('u.nickname as uploader_nickname')
      .orderBy(deleted ? 'm.deleted_at' : 'm.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { materials: rows.map(toMaterial), total: count(total?.n) };
  }

  async findMaterial(id: string): Promise<ListedMaterial | undefined> {
    const row = await this.materialsQuery().where('m.id', '=', id).executeTakeFirst();
    return row && toMaterial(row);
  }

  async insertMaterial(m: MaterialRecord) {
    await this.db
      .insertInto('materials')
      .values(materialRow(m) as MaterialsTable)
      .execute();
  }

  async updateMaterial(id: string, change: Partial<MaterialRecord>) {
    await this.db.updateTable('materials').set(materialRow(change)).where('id', '=', id).execute();
  }

  async deleteMaterial(id: string) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('material_links').where('material_id', '=', id).execute();
      await trx.deleteFrom('materials').where('id', '=', id).execute();
    });
  }

  /** Materials in a recycle bin since before `before` (ISO), oldest first. */
  async expiredDeleted(before: string, limit = 200): Promise<{ id: string; path: string }[]> {
    return this.db
      .selectFrom('materials')
      .select(['id', 'path'])
      .where('deleted_at', '<', before)
      .orderBy('deleted_at')
      .limit(limit)
      .execute();
  }

  // ───────────── preview links ─────────────

  async insertLink(l: LinkRecord) {
    await this.db
      .insertInto('material_links')
      .values({
        token_hash: l.tokenHash,
        material_id: l.materialId,
        user_id: l.userId,
        expires_at: l.expiresAt,
      })
      .execute();
  }

  async findLink(tokenHash: string): Promise<LinkRecord | undefined> {
    const row: MaterialLinksTable | undefined = await this.db
      .selectFrom('material_links')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      row && {
        tokenHash: row.token_hash,
        materialId: row.material_id,
        userId: row.user_id,
        expiresAt: row.expires_at,
      }
    );
  }

  async purgeLinks(before: string) {
    await this.db.deleteFrom('material_links').where('expires_at', '<', before).execute();
  }

  /** The school's name (the booklet's cover). */
  async schoolName(orgId: string): Promise<string> {
    const row = await this.db.selectFrom('orgs').select('name').where('id', '=', orgId).executeTakeFirst();
    return row?.name ?? '';
  }
}
