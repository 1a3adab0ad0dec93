import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Scan intake: batches made by the /scan screen and
// the pages uploaded into them (by the agent or from files). Depends on 0001 only.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scan_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('school_year_id', 'text', (c) => c.references('school_years.id'))
    .addColumn('subject_teacher', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('device_name', 'text')
    .addColumn('paper_size', 'integer')
    .addColumn('upload_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('upload_token_expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scan_batches_org_user')
    .on('scan_batches')
    .columns(['org_id', 'user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('scan_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('batch_id', 'text', (c) => c.notNull().references('scan_batches.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('file_path', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('dpi', 'integer')
    .addColumn('side', 'text')
    .addColumn('blank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One page per content per school: the idempotency of uploads.
    .addUniqueConstraint('scan_pages_org_hash', ['org_id', 'content_hash'])
    .execute();
  await db.schema.createIndex('scan_pages_batch').on('scan_pages').columns(['batch_id', 'seq']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scan_pages').ifExists().execute();
  await db.schema.dropTable('scan_batches').ifExists().execute();
}
