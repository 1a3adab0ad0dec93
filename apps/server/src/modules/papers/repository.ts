import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { containsPattern, ilike } from '../../db/dialect.js';
import type { Database, PaperItemsTable, PaperSectionsTable, PapersTable } from '../../db/schema.js';
import { chunks } from '../../seed/catalog.js';
import { PaperLookups } from './lookups.js';

export { PaperLookups, type NewQuestion, type PoolFilter } from './lookups.js';

export type PaperRow = PapersTable;
export type SectionRow = PaperSectionsTable;
export type ItemRow = PaperItemsTable;

/** Which list of papers: mine, the school's shared ones, my recycle bin, or template papers. */
export type PaperListKind = 'mine' | 'school' | 'recycle' | 'template';

export interface PaperListFilter {
  kind: PaperListKind;
  orgId: string;
  userId: string;
  keyword?: string | undefined;
  subjectId?: string | undefined;
  status?: string | undefined;
  /** Inclusive ISO bounds on updated_at. */
  fromIso?: string | undefined;
  toIso?: string | undefined;
  /** Recycle bin: papers deleted before this instant are gone already (purged or about to be). */
  recycleCutoffIso?: string | undefined;
  offset: number;
  limit: number;
}

/**
 * Papers with their sections and items, and the read-only look-ups composition needs from the
 * catalogue, the bank and the basket. Rows never leave this module's service.
 */
export class PapersRepository extends PaperLookups {
  constructor(db: Kysely<Database>, dialect: DialectName) {
    super(db, dialect);
  }

  /** The school's time zone (migration 0030): its "today" names default titles. */
  async schoolTimeZone(orgId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('orgs')
      .select('time_zone')
      .where('id', '=', orgId)
      .executeTakeFirst();
    return row?.time_zone;
  }

  transaction<T>(work: (repo: PapersRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new PapersRepository(trx, this.dialect)));
  }

  // ───────────── papers ─────────────

  findPaper(id: string) {
    return this.db.selectFrom('papers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listSections(paperId: string) {
    return this.db
      .selectFrom('paper_sections')
      .selectAll()
      .where('paper_id', '=', paperId)
      .orderBy('sort')
      .execute();
  }

  listItems(paperId: string) {
    return this.db
      .selectFrom('paper_items')
      .selectAll()
      .where('paper_id', '=', paperId)
      .orderBy('sort')
      .execute();
  }

  findSettingDefaults(userId: string) {
    return this.db
      .selectFrom('paper_setting_defaults')
      .select(['settings'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async saveSettingDefaults(userId: string, settings: string, now: string): Promise<void> {
    await this.db
      .insertInto('paper_setting_defaults')
      .values({ user_id: userId, settings, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings, updated_at: now }))
      .execute();
  }

  async deleteSettingDefaults(userId: string): Promise<void> {
    await this.db.deleteFrom('paper_setting_defaults').where('user_id', '=', userId).execute();
  }

  async insertPaper(row: PaperRow) {
    await this.db.insertInto('papers').values(row).execute();
  }

  /** Updates a paper if it still has `version`; false when someone saved in between. */
  async updatePaperIfVersion(id: string, version: number, set: Partial<PaperRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('papers')
      .set(set)
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async updatePaper(id: string, set: Partial<PaperRow>) {
    await this.db.updateTable('papers').set(set).where('id', '=', id).execute();
  }

  /** Replaces the sections and items of a paper. */
  async replaceContent(paperId: string, sections: SectionRow[], items: ItemRow[]) {
    await this.db.deleteFrom('paper_items').where('paper_id', '=', paperId).execute();
    await this.db.deleteFrom('paper_sections').where('paper_id', '=', paperId).execute();
    for (const batch of chunks(sections, 100))
      await this.db.insertInto('paper_sections').values(batch).execute();
    for (const batch of chunks(items, 100)) await this.db.insertInto('paper_items').values(batch).execute();
  }

  async deletePapers(ids: string[]) {
    for (const batch of chunks(ids, 200)) {
      await this.db.deleteFrom('paper_items').where('paper_id', 'in', batch).execute();
      await this.db.deleteFrom('paper_sections').where('paper_id', 'in', batch).execute();
      await this.db.deleteFrom('papers').where('id', 'in', batch).execute();
    }
  }

  /** Ids of papers in a recycle bin since before `cutoffIso`. */
  async expiredDeleted(cutoffIso: string) {
    const rows = await this.db
      .selectFrom('papers')
      .select('id')
      .where('deleted_at', 'is not', null)
      .where('deleted_at', '<', cutoffIso)
      .execute();
    return rows.map((r) => r.id);
  }

  /** The newest open draft composed from a basket paper. */
  findDraftOfBasket(userId: string, orgId: string, basketPaperId: string) {
    return this.db
      .selectFrom('papers')
      .selectAll()
      .where('owner_user_id', '=', userId)
      .where('org_id', '=', orgId)
      .where('basket_paper_id', '=', basketPaperId)
      .where('status', '=', 'draft')
      .where('deleted_at', 'is', null)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  private listQuery(f: PaperListFilter) {
    let q = this.db.selectFrom('papers as p');
    switch (f.kind) {
      case 'mine':
        q = q
          .where('p.owner_user_id', '=', f.userId)
          .where('p.org_id', '=', f.orgId)
          .where('p.deleted_at', 'is', null);
        break;
      case 'school':
        q = q
          .where('p.org_id', '=', f.orgId)
          .where('p.shared_at', 'is not', null)
          .where('p.deleted_at', 'is', null);
        break;
      case 'recycle':
        q = q
          .where('p.owner_user_id', '=', f.userId)
          .where('p.org_id', '=', f.orgId)
          .where('p.deleted_at', 'is not', null);
        if (f.recycleCutoffIso) q = q.where('p.deleted_at', '>=', f.recycleCutoffIso);
        break;
      case 'template':
        q = q
          .where('p.is_template', '=', 1)
          .where('p.deleted_at', 'is', null)
          .where((eb) =>
            eb.or([
              eb('p.owner', '=', 'system'),
              eb.and([eb('p.org_id', '=', f.orgId), eb('p.shared_at', 'is not', null)]),
            ]),
          );
        break;
    }
    if (f.keyword) q = q.where(ilike(this.dialect, 'p.title', containsPattern(f.keyword)));
    if (f.subjectId) q = q.where('p.subject_id', '=', f.subjectId);
    if (f.status) q = q.where('p.status', '=', f.status);
    if (f.fromIso) q = q.where('p.updated_at', '>=', f.fromIso);
    if (f.toIso) q = q.where('p.updated_at', '<=', f.toIso);
    return q;
  }

  async pagePapers(f: PaperListFilter) {
    const total = await this.listQuery(f)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    const order = f.kind === 'recycle' ? 'p.deleted_at' : f.kind === 'template' ? 'p.owner' : 'p.updated_at';
    let rows = this.listQuery(f).selectAll('p');
    rows =
      f.kind === 'template'
        ? rows.orderBy(order, 'desc').orderBy('p.updated_at', 'desc')
        : rows.orderBy(order, 'desc');
    const list = await rows.orderBy('p.id', 'desc').offset(f.offset).limit(f.limit).execute();
    return { total: Number(total.n), rows: list };
  }

  /** Question count and total score (tenths) of each paper, computed from its items. */
  async totalsOf(paperIds: string[]) {
    if (paperIds.length === 0) return new Map<string, { count: number; tenths: number }>();
    const rows = await this.db
      .selectFrom('paper_items as i')
      .innerJoin('paper_sections as s', 's.id', 'i.section_id')
      .select([
        'i.paper_id',
        sql<number>`count(*)`.as('n'),
        sql<number>`sum(coalesce(i.score_tenths, s.default_score_tenths))`.as('tenths'),
      ])
      .where('i.paper_id', 'in', paperIds)
      .groupBy('i.paper_id')
      .execute();
    return new Map(rows.map((r) => [r.paper_id, { count: Number(r.n), tenths: Number(r.tenths ?? 0) }]));
  }

  // ───────────── meta ─────────────

  findMeta(key: string) {
    return this.db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  }

  async setMeta(key: string, value: string) {
    await this.db
      .insertInto('meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
