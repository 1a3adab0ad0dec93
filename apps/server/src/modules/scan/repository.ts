import type { Kysely, Selectable } from 'kysely';
import type { Database, ScanBatchesTable, ScanPagesTable } from '../../db/schema.js';

export type ScanBatchRow = Selectable<ScanBatchesTable>;
export type ScanPageRow = Selectable<ScanPagesTable>;
export type NewScanPage = Omit<ScanPageRow, 'blank'> & { blank: number };

/** Scan batches and their pages. Every read is scoped to a school by the caller. */
export class ScanRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findSchoolYear(orgId: string, yearId: string) {
    return this.db
      .selectFrom('school_years')
      .select(['id', 'archived'])
      .where('org_id', '=', orgId)
      .where('id', '=', yearId)
      .executeTakeFirst();
  }

  findHomework(orgId: string, homeworkId: string) {
    return this.db
      .selectFrom('homework')
      .select(['id'])
      .where('org_id', '=', orgId)
      .where('id', '=', homeworkId)
      .executeTakeFirst();
  }

  async insertBatch(row: ScanBatchRow): Promise<void> {
    await this.db.insertInto('scan_batches').values(row).execute();
  }

  findBatch(id: string) {
    return this.db.selectFrom('scan_batches').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findBatchByToken(tokenHash: string) {
    return this.db
      .selectFrom('scan_batches')
      .selectAll()
      .where('upload_token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** The user's batches, newest first; with a homework, only the batches bound to it. */
  listBatches(orgId: string, userId: string, limit: number, homeworkId?: string) {
    let q = this.db
      .selectFrom('scan_batches')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId);
    if (homeworkId) q = q.where('homework_id', '=', homeworkId);
    return q.orderBy('created_at', 'desc').limit(limit).execute();
  }

  async pageCounts(batchIds: readonly string[]): Promise<Map<string, number>> {
    if (batchIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('scan_pages')
      .select(['batch_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('batch_id', 'in', batchIds)
      .where('status', '<>', 'replaced')
      .groupBy('batch_id')
      .execute();
    return new Map(rows.map((r) => [r.batch_id, Number(r.n)]));
  }

  findPageByHash(orgId: string, hash: string) {
    return this.db
      .selectFrom('scan_pages')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('content_hash', '=', hash)
      .executeTakeFirst();
  }

  /** The current page at a place of a batch (a page set aside by a rescan is not current). */
  findPageAt(batchId: string, seq: number) {
    return this.db
      .selectFrom('scan_pages')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('seq', '=', seq)
      .where('status', '=', 'received')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /** Sets a page aside (a rescan replaced it): it keeps its image and its hash but leaves the batch's page list. */
  async setAside(id: string, status: 'replaced'): Promise<void> {
    await this.db.updateTable('scan_pages').set({ status }).where('id', '=', id).execute();
  }

  findPage(id: string) {
    return this.db.selectFrom('scan_pages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async nextSeq(batchId: string): Promise<number> {
    const row = await this.db
      .selectFrom('scan_pages')
      .select((eb) => eb.fn.max<number | null>('seq').as('max'))
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  }

  async insertPage(row: NewScanPage): Promise<void> {
    await this.db.insertInto('scan_pages').values(row).execute();
  }

  listPages(batchId: string) {
    return this.db
      .selectFrom('scan_pages')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('status', '<>', 'replaced')
      .orderBy('seq')
      .orderBy('created_at')
      .execute();
  }
}
