import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, ScanBatchesTable, ScanPagesTable } from '../../db/schema.js';

/** A scan batch as the host's modules see it (the row of scan_batches, mapped in {@link toScanBatch}). */
export interface ScanBatch {
  id: string;
  orgId: string;
  userId: string;
  schoolYearId: string | null;
  subjectTeacher: boolean;
  /** 'agent' | 'upload' */
  source: string;
  deviceName: string | null;
  paperSize: number | null;
  homeworkId: string | null;
  uploadTokenHash: string;
  uploadTokenExpiresAt: string;
  createdAt: string;
}

/** A stored page image: the payload the scan module hands to recognition (mapped in {@link toScanPage}). */
export interface ScanPage {
  id: string;
  orgId: string;
  batchId: string;
  seq: number;
  name: string | null;
  /** SHA-256 of the stored bytes, hex; unique per school. */
  contentHash: string;
  /** 'jpeg' | 'png' | 'tiff' */
  format: string;
  /** Relative to DATA_DIR. */
  filePath: string;
  size: number;
  width: number;
  height: number;
  dpi: number | null;
  side: string | null;
  blank: boolean;
  source: string;
  /** 'received' | 'replaced' */
  status: string;
  createdBy: string;
  createdAt: string;
}

/** The one place a scan_batches row becomes a {@link ScanBatch}. */
export const toScanBatch = (r: Selectable<ScanBatchesTable>): ScanBatch => ({
  id: r.id,
  orgId: r.org_id,
  userId: r.user_id,
  schoolYearId: r.school_year_id,
  subjectTeacher: r.subject_teacher === 1,
  source: r.source,
  deviceName: r.device_name,
  paperSize: r.paper_size,
  homeworkId: r.homework_id,
  uploadTokenHash: r.upload_token_hash,
  uploadTokenExpiresAt: r.upload_token_expires_at,
  createdAt: r.created_at,
});

const batchRow = (b: ScanBatch): Insertable<ScanBatchesTable> => ({
  id: b.id,
  org_id: b.orgId,
  user_id: b.userId,
  school_year_id: b.schoolYearId,
  subject_teacher: b.subjectTeacher ? 1 : 0,
  source: b.source,
  device_name: b.deviceName,
  paper_size: b.paperSize,
  homework_id: b.homeworkId,
  upload_token_hash: b.uploadTokenHash,
  upload_token_expires_at: b.uploadTokenExpiresAt,
  created_at: b.createdAt,
});

/** The one place a scan_pages row becomes a {@link ScanPage} (recognition reads pages through this repository). */
export const toScanPage = (r: Selectable<ScanPagesTable>): ScanPage => ({
  id: r.id,
  orgId: r.org_id,
  batchId: r.batch_id,
  seq: r.seq,
  name: r.name,
  contentHash: r.content_hash,
  format: r.format,
  filePath: r.file_path,
  size: r.size,
  width: r.width,
  height: r.height,
  dpi: r.dpi,
  side: r.side,
  blank: r.blank === 1,
  source: r.source,
  status: r.status,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

const pageRow = (p: ScanPage): Insertable<ScanPagesTable> => ({
  id: p.id,
  org_id: p.orgId,
  batch_id: p.batchId,
  seq: p.seq,
  name: p.name,
  content_hash: p.contentHash,
  format: p.format,
  file_path: p.filePath,
  size: p.size,
  width: p.width,
  height: p.height,
  dpi: p.dpi,
  side: p.side,
  blank: p.blank ? 1 : 0,
  source: p.source,
  status: p.status,
  created_by: p.createdBy,
  created_at: p.createdAt,
});

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

  async insertBatch(batch: ScanBatch): Promise<void> {
    await this.db.insertInto('scan_batches').values(batchRow(batch)).execute();
  }

  async findBatch(id: string): Promise<ScanBatch | undefined> {
    const row = await this.db.selectFrom('scan_batches').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toScanBatch(row);
  }

  async findBatchByToken(tokenHash: string): Promise<ScanBatch | undefined> {
    const row = await this.db
      .selectFrom('scan_batches')
      .selectAll()
      .where('upload_token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row && toScanBatch(row);
  }

  /** The user's batches, newest first; with a homework, only the batches bound to it. */
  async listBatches(orgId: string, userId: string, limit: number, homeworkId?: string): Promise<ScanBatch[]> {
    let q = this.db
      .selectFrom('scan_batches')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId);
    if (homeworkId) q = q.where('homework_id', '=', homeworkId);
    return (await q.orderBy('created_at', 'desc').limit(limit).execute()).map(toScanBatch);
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

  async findPageByHash(orgId: string, hash: string): Promise<ScanPage | undefined> {
    const row = await this.db
      .selectFrom('scan_pages')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('content_hash', '=', hash)
      .executeTakeFirst();
    return row && toScanPage(row);
  }

  /** The current page at a place of a batch (a page set aside by a rescan is not current). */
  async findPageAt(batchId: string, seq: number): Promise<ScanPage | undefined> {
    const row = await this.db
      .selectFrom('scan_pages')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('seq', '=', seq)
      .where('status', '=', 'received')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row && toScanPage(row);
  }

  /** Sets a page aside (a rescan replaced it): it keeps its image and its hash but leaves the batch's page list. */
  async setAside(id: string, status: 'replaced'): Promise<void> {
    await this.db.updateTable('scan_pages').set({ status }).where('id', '=', id).execute();
  }

  async findPage(id: string): Promise<ScanPage | undefined> {
    const row = await this.db.selectFrom('scan_pages').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toScanPage(row);
  }

  async nextSeq(batchId: string): Promise<number> {
    const row = await this.db
      .selectFrom('scan_pages')
      .select((eb) => eb.fn.max<number | null>('seq').as('max'))
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  }

  async insertPage(page: ScanPage): Promise<void> {
    await this.db.insertInto('scan_pages').values(pageRow(page)).execute();
  }

  async listPages(batchId: string): Promise<ScanPage[]> {
    const rows = await this.db
      .selectFrom('scan_pages')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('status', '<>', 'replaced')
      .orderBy('seq')
      .orderBy('created_at')
      .execute();
    return rows.map(toScanPage);
  }
}
