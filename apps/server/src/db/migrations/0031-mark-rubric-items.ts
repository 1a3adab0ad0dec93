import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. Rubric items (评分项) of a homework's written questions, such as
// 「列方程正确 +2」 or 「计算错误 −1」: a marker applies one with one key and the question's score is their sum. Kept
// per question of the homework (they outlive regrouping blocks); every mark keeps the items it applied. Depends on 0010.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mark_rubric_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    // Signed: a deduction is negative.
    .addColumn('points_tenths', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mark_rubric_items_question')
    .on('mark_rubric_items')
    .columns(['homework_id', 'question_id', 'sort'])
    .execute();
  // JSON object question id → ids of the rubric items the mark applied.
  await db.schema
    .alterTable('mark_marks')
    .addColumn('rubric', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mark_marks').dropColumn('rubric').execute();
  await db.schema.dropTable('mark_rubric_items').ifExists().execute();
}
