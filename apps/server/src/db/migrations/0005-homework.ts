import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Homework and tests published to classes, and their
// answer cards: the designer's settings per paper, and the frozen layouts by (card id, version) that the recogniser
// reads. Depends on 0001 only: papers are referred to by id without a foreign key, because a published homework keeps
// its own snapshot and must outlive the paper (the recycle bin purges papers for ever).

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // One card per paper; its id is the paper's id (what the page QR names).
  await db.schema
    .createTable('answer_cards')
    .addColumn('paper_id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    // JSON of CardSettings, validated with zod where read.
    .addColumn('settings', 'text', (c) => c.notNull())
    // Whether a teacher saved the settings (else they are the defaults the first publication chose).
    .addColumn('saved', 'integer', (c) => c.notNull().defaultTo(0))
    // The newest version frozen; the next publication or card edit takes this + 1.
    .addColumn('latest_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('answer_cards_org').on('answer_cards').column('org_id').execute();

  await db.schema
    .createTable('homework')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('year_id', 'text', (c) => c.notNull().references('school_years.id'))
    // 'homework' | 'test'
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('paper_id', 'text', (c) => c.notNull())
    .addColumn('paper_title', 'text', (c) => c.notNull())
    .addColumn('stage_id', 'text', (c) => c.notNull().references('stages.id'))
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    // YYYY-MM-DD, compared as text.
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    // 是否分配给学科老师.
    .addColumn('subject_teacher', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('question_count', 'integer', (c) => c.notNull())
    .addColumn('total_score_tenths', 'integer', (c) => c.notNull())
    // JSON of HomeworkPaper: the paper as published, questions with answers and scores.
    .addColumn('paper_snapshot', 'text', (c) => c.notNull())
    .addColumn('card_id', 'text', (c) => c.notNull())
    // The card version printed now (its rows live in card_versions).
    .addColumn('card_version', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('homework_org_year')
    .on('homework')
    .columns(['org_id', 'year_id', 'deleted_at', 'start_date'])
    .execute();
  await db.schema.createIndex('homework_paper').on('homework').column('paper_id').execute();

  await db.schema
    .createTable('homework_classes')
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('homework_classes_pk', ['homework_id', 'class_id'])
    .execute();
  await db.schema.createIndex('homework_classes_class').on('homework_classes').column('class_id').execute();

  // Every frozen layout, by the (card id, version) a page QR carries. Rows are never changed or deleted.
  await db.schema
    .createTable('card_versions')
    .addColumn('card_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    // JSON of CardSettings, CardPaper and CardLayout.
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('card_paper', 'text', (c) => c.notNull())
    .addColumn('layout', 'text', (c) => c.notNull())
    .addColumn('identity', 'text', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('card_versions_pk', ['card_id', 'version'])
    .execute();
  await db.schema.createIndex('card_versions_homework').on('card_versions').column('homework_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['card_versions', 'homework_classes', 'homework', 'answer_cards']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
