import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Papers (试卷) with their sections (大题)
// and items; scores are integer tenths of a point so totals are exact on both databases.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('papers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // 'system' (shipped templates: no school, no owner) or 'personal'.
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.references('orgs.id'))
    .addColumn('owner_user_id', 'text', (c) => c.references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('subtitle', 'text', (c) => c.notNull())
    .addColumn('stage_id', 'text', (c) => c.notNull().references('stages.id'))
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addColumn('textbook_id', 'text')
    // 'draft' | 'final'
    .addColumn('status', 'text', (c) => c.notNull())
    // 'basket' | 'smart' | 'template' | 'copy' | 'word' | 'blank'
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('basket_paper_id', 'text')
    // JSON array of the basket's question ids already taken into this paper (reopening adds only new ones).
    .addColumn('basket_seen', 'text', (c) => c.notNull())
    // JSON of the /paperset settings (validated with zod where read).
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    // Digest of the saved document, so a retried save of the same document is answered, not refused.
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('shared_at', 'text')
    .addColumn('is_template', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('papers_owner')
    .on('papers')
    .columns(['owner_user_id', 'deleted_at', 'updated_at'])
    .execute();
  await db.schema.createIndex('papers_org_shared').on('papers').columns(['org_id', 'shared_at']).execute();
  await db.schema.createIndex('papers_basket').on('papers').column('basket_paper_id').execute();

  await db.schema
    .createTable('paper_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('paper_id', 'text', (c) => c.notNull().references('papers.id'))
    .addColumn('type_id', 'text', (c) => c.references('question_types.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('default_score_tenths', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('paper_sections_paper').on('paper_sections').column('paper_id').execute();

  await db.schema
    .createTable('paper_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('paper_id', 'text', (c) => c.notNull().references('papers.id'))
    .addColumn('section_id', 'text', (c) => c.notNull().references('paper_sections.id'))
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id'))
    // null: the section's 每小题 score applies.
    .addColumn('score_tenths', 'integer')
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addUniqueConstraint('paper_items_paper_question', ['paper_id', 'question_id'])
    .execute();
  await db.schema.createIndex('paper_items_section').on('paper_items').column('section_id').execute();
  await db.schema.createIndex('paper_items_question').on('paper_items').column('question_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['paper_items', 'paper_sections', 'papers']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
