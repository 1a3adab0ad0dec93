import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. 纸上批阅 (先阅后扫, ADR 0065): a homework's setting that its written
// questions with score boxes are marked on paper, and every score box read on a scanned sheet — what it read, what
// became of it (scored into the results, doubtful for a person, typed in by one, or marked on screen) and the crop of
// the answer with its box as the teacher marked them (kept for 讲评). Depends on 0005, 0008 and 0009.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('homework')
    .addColumn('paper_marking', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('paper_scores')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    .addColumn('sheet_id', 'text', (c) => c.notNull())
    .addColumn('student_id', 'text', (c) => c.notNull())
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text')
    // 'scored' | 'doubtful' | 'resolved' | 'onScreen'
    .addColumn('state', 'text', (c) => c.notNull())
    // What the box read ('ok' score, else null) and why a person was asked (a ScoreDoubtReason).
    .addColumn('read_tenths', 'integer')
    .addColumn('reason', 'text')
    .addColumn('colour', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('crop_path', 'text')
    // The scan exception a doubtful box raised.
    .addColumn('exception_id', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('paper_scores_answer')
    .on('paper_scores')
    .columns(['sheet_id', 'question_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('paper_scores_homework')
    .on('paper_scores')
    .columns(['homework_id', 'question_id', 'state'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('paper_scores').ifExists().execute();
  await db.schema.alterTable('homework').dropColumn('paper_marking').execute();
}
