import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { containsPattern, ilike } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';

export type FolderRow = Selectable<Database['material_folders']> & {
  creator_nickname: string | null;
  material_count: number;
};
export type MaterialRow = Selectable<Database['materials']> & { uploader_nickname: string | null };

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

  async folders(orgId: string): Promise<FolderRow[]> {
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
    return rows.map((r) => ({ ...r, material_count: count(r.material_count) }));
  }

  findFolder(id: string) {
    return this.db.selectFrom('material_folders').selectAll().where('id', '=', id).executeTakeFirst();
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

  async insertFolder(row: Insertable<Database['material_folders']>) {
    await this.db.insertInto('material_folders').values(row).execute();
  }

  async updateFolder(id: string, patch: Updateable<Database['material_folders']>) {
    await this.db.updateTable('material_folders').set(patch).where('id', '=', id).execute();
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

  async page(orgId: string, filter: MaterialFilter, deleted: boolean, page: number, size: number) {
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
    return { rows: rows as MaterialRow[], total: count(total?.n) };
  }

  findMaterial(id: string): Promise<MaterialRow | undefined> {
    return this.materialsQuery().where('m.id', '=', id).executeTakeFirst();
  }

  async insertMaterial(row: Insertable<Database['materials']>) {
    await this.db.insertInto('materials').values(row).execute();
  }

  async updateMaterial(id: string, patch: Updateable<Database['materials']>) {
    await this.db.updateTable('materials').set(patch).where('id', '=', id).execute();
  }

  async deleteMaterial(id: string) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('material_links').where('material_id', '=', id).execute();
      await trx.deleteFrom('materials').where('id', '=', id).execute();
    });
  }

  /** Materials in a recycle bin since before `before` (ISO), oldest first. */
  expiredDeleted(before: string, limit = 200) {
    return this.db
      .selectFrom('materials')
      .select(['id', 'org_id', 'path', 'name', 'ext'])
      .where('deleted_at', '<', before)
      .orderBy('deleted_at')
      .limit(limit)
      .execute();
  }

  // ───────────── preview links ─────────────

  async insertLink(row: Insertable<Database['material_links']>) {
    await this.db.insertInto('material_links').values(row).execute();
  }

  findLink(tokenHash: string) {
    return this.db
      .selectFrom('material_links')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
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
