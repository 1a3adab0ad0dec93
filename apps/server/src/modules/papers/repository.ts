import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { PaperSettingsSchema, type PaperSettings } from '@zhzy/contracts';
import type { DialectName } from '../../db/connect.js';
import { containsPattern, ilike } from '../../db/dialect.js';
import type { Database, PaperItemsTable, PaperSectionsTable, PapersTable } from '../../db/schema.js';
import { chunks } from '../../seed/catalog.js';
import { PaperLookups } from './repository/lookups.js';

export {
  PaperLookups,
  type NewQuestion,
  type PoolFilter,
  type BankQuestion,
  type BasketPaperRef,
} from './repository/lookups.js';

/** Where a paper came from. */
export type PaperSource = 'basket' | 'smart' | 'template' | 'copy' | 'word' | 'blank';
const SOURCES: readonly PaperSource[] = ['basket', 'smart', 'template', 'copy', 'word', 'blank'];

/** A paper as the module works with it: settings and the basket's seen ids parsed, the template flag a boolean. */
export interface Paper {
  id: string;
  owner: 'system' | 'personal';
  orgId: string | null;
  ownerUserId: string | null;
  title: string;
  subtitle: string;
  stageId: string;
  subjectId: string;
  textbookId: string | null;
  status: 'draft' | 'final';
  source: PaperSource;
  basketPaperId: string | null;
  /** The basket's question ids this paper has taken in already. */
  basketSeen: string[];
  settings: PaperSettings;
  version: number;
  contentHash: string;
  sharedAt: string | null;
  isTemplate: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/** A section of a paper (scores in tenths). */
export interface PaperSectionRecord {
  id: string;
  paperId: string;
  typeId: string | null;
  title: string;
  note: string;
  defaultScoreTenths: number;
  sort: number;
}

/** A question placed in a paper's section; `scoreTenths` null takes the section's default. */
export interface PaperItemRecord {
  id: string;
  paperId: string;
  sectionId: string;
  questionId: string;
  scoreTenths: number | null;
  sort: number;
}

export const STANDARD_SETTINGS: PaperSettings = PaperSettingsSchema.parse({});
const IdList = z.array(z.string());

/** Stored paper settings, or the standard ones when the JSON is missing or does not fit the schema. */
export function parseSettings(json: string): PaperSettings {
  try {
    return PaperSettingsSchema.parse(JSON.parse(json));
  } catch {
    return STANDARD_SETTINGS;
  }
}

function parseIds(json: string): string[] {
  try {
    return IdList.parse(JSON.parse(json));
  } catch {
    return [];
  }
}

function toPaper(r: PapersTable): Paper {
  return {
    id: r.id,
    owner: r.owner === 'system' ? 'system' : 'personal',
    orgId: r.org_id,
    ownerUserId: r.owner_user_id,
    title: r.title,
    subtitle: r.subtitle,
    stageId: r.stage_id,
    subjectId: r.subject_id,
    textbookId: r.textbook_id,
    status: r.status === 'final' ? 'final' : 'draft',
    source: SOURCES.find((s) => s === r.source) ?? 'blank',
    basketPaperId: r.basket_paper_id,
    basketSeen: parseIds(r.basket_seen),
    settings: parseSettings(r.settings),
    version: r.version,
    contentHash: r.content_hash,
    sharedAt: r.shared_at,
    isTemplate: r.is_template === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  };
}

/** The columns of the fields given (a whole paper, or the changed fields of one). */
function paperRow(p: Partial<Paper>): Partial<PapersTable> {
  const row: Partial<PapersTable> = {};
  if (p.id !== undefined) row.id = p.id;
  if (p.owner !== undefined) row.owner = p.owner;
  if (p.orgId !== undefined) row.org_id = p.orgId;
  if (p.ownerUserId !== undefined) row.owner_user_id = p.ownerUserId;
  if (p.title !== undefined) row.title = p.title;
  if (p.subtitle !== undefined) row.subtitle = p.subtitle;
  if (p.stageId !== undefined) row.stage_id = p.stageId;
  if (p.subjectId !== undefined) row.subject_id = p.subjectId;
  if (p.textbookId !== undefined) row.textbook_id = p.textbookId;
  if (p.status !== undefined) row.status = p.status;
  if (p.source !== undefined) row.source = p.source;
  if (p.basketPaperId !== undefined) row.basket_paper_id = p.basketPaperId;
  if (p.basketSeen !== undefined) row.basket_seen = JSON.stringify(p.basketSeen);
  if (p.settings !== undefined) row.settings = JSON.stringify(p.settings);
  if (p.version !== undefined) row.version = p.version;
  if (p.contentHash !== undefined) row.content_hash = p.contentHash;
  if (p.sharedAt !== undefined) row.shared_at = p.sharedAt;
  if (p.isTemplate !== undefined) row.is_template = p.isTemplate ? 1 : 0;
  if (p.createdAt !== undefined) row.created_at = p.createdAt;
  if (p.updatedAt !== undefined) row.updated_at = p.updatedAt;
  if (p.deletedAt !== undefined) row.deleted_at = p.deletedAt;
  return row;
}

const toSection = (r: PaperSectionsTable): PaperSectionRecord => ({
  id: r.id,
  paperId: r.paper_id,
  typeId: r.type_id,
  title: r.title,
  note: r.note,
  defaultScoreTenths: r.default_score_tenths,
  sort: r.sort,
});

const sectionRow = (s: PaperSectionRecord): PaperSectionsTable => ({
  id: s.id,
  paper_id: s.paperId,
  type_id: s.typeId,
  title: s.title,
  note: s.note,
  default_score_tenths: s.defaultScoreTenths,
  sort: s.sort,
});

const toItem = (r: PaperItemsTable): PaperItemRecord => ({
  id: r.id,
  paperId: r.paper_id,
  sectionId: r.section_id,
  questionId: r.question_id,
  scoreTenths: r.score_tenths,
  sort: r.sort,
});

const itemRow = (i: PaperItemRecord): PaperItemsTable => ({
  id: i.id,
  paper_id: i.paperId,
  section_id: i.sectionId,
  question_id: i.questionId,
  score_tenths: i.scoreTenths,
  sort: i.sort,
});

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

  async findPaper(id: string): Promise<Paper | undefined> {
    const row = await this.db.selectFrom('papers').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toPaper(row);
  }

  async listSections(paperId: string): Promise<PaperSectionRecord[]> {
    const rows = await this.db
      .selectFrom('paper_sections')
      .selectAll()
      .where('paper_id', '=', paperId)
      .orderBy('sort')
      .execute();
    return rows.map(toSection);
  }

  async listItems(paperId: string): Promise<PaperItemRecord[]> {
    const rows = await this.db
      .selectFrom('paper_items')
      .selectAll()
      .where('paper_id', '=', paperId)
      .orderBy('sort')
      .execute();
    return rows.map(toItem);
  }

  /** The teacher's own settings for new papers, if they saved some. */
  async findSettingDefaults(userId: string): Promise<PaperSettings | undefined> {
    const row = await this.db
      .selectFrom('paper_setting_defaults')
      .select(['settings'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && parseSettings(row.settings);
  }

  async saveSettingDefaults(userId: string, value: PaperSettings, now: string): Promise<void> {
    const settings = JSON.stringify(value);
    await this.db
      .insertInto('paper_setting_defaults')
      .values({ user_id: userId, settings, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings, updated_at: now }))
      .execute();
  }

  async deleteSettingDefaults(userId: string): Promise<void> {
    await this.db.deleteFrom('paper_setting_defaults').where('user_id', '=', userId).execute();
  }

  async insertPaper(paper: Paper) {
    await this.db
      .insertInto('papers')
      .values(paperRow(paper) as PapersTable)
      .execute();
  }

  /** Updates a paper if it still has `version`; false when someone saved in between. */
  async updatePaperIfVersion(id: string, version: number, set: Partial<Paper>): Promise<boolean> {
    const result = await this.db
      .updateTable('papers')
      .set(paperRow(set))
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async updatePaper(id: string, set: Partial<Paper>) {
    await this.db.updateTable('papers').set(paperRow(set)).where('id', '=', id).execute();
  }

  /** Replaces the sections and items of a paper. */
  async replaceContent(paperId: string, sections: PaperSectionRecord[], items: PaperItemRecord[]) {
    await this.db.deleteFrom('paper_items').where('paper_id', '=', paperId).execute();
    await this.db.deleteFrom('paper_sections').where('paper_id', '=', paperId).execute();
    for (const batch of chunks(sections.map(sectionRow), 100))
      await this.db.insertInto('paper_sections').values(batch).execute();
    for (const batch of chunks(items.map(itemRow), 100))
      await this.db.insertInto('paper_items').values(batch).execute();
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
  async findDraftOfBasket(userId: string, orgId: string, basketPaperId: string): Promise<Paper | undefined> {
    const row = await this.db
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
    return row && toPaper(row);
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

  async pagePapers(f: PaperListFilter): Promise<{ total: number; papers: Paper[] }> {
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
    return { total: Number(total.n), papers: list.map(toPaper) };
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

  async findMeta(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async setMeta(key: string, value: string) {
    await this.db
      .insertInto('meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
