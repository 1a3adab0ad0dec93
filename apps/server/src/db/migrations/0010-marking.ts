import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Marking on screen: blocks (题块) of a homework's
// written questions with their settings and markers, every mark a teacher gives (double marking keeps both and the
// arbitration), items flagged as problems, short-lived reservations of items handed to a marker, and perceptual
// hashes of crops for grouped marking. Final scores live in sheet_answers (0008). Depends on 0005, 0008.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mark_blocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    // JSON array of the paper question ids marked together, in paper order.
    .addColumn('question_ids', 'text', (c) => c.notNull())
    // single | double
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('single'))
    .addColumn('threshold_tenths', 'integer', (c) => c.notNull().defaultTo(0))
    // mean | max | min
    .addColumn('average_rule', 'text', (c) => c.notNull().defaultTo('mean'))
    .addColumn('half_points', 'integer', (c) => c.notNull().defaultTo(1))
    // question | class
    .addColumn('assign_by', 'text', (c) => c.notNull().defaultTo('question'))
    .addColumn('arbiter_id', 'text', (c) => c.references('users.id'))
    .addColumn('rubric', 'text', (c) => c.notNull().defaultTo(''))
    // JSON array of strings.
    .addColumn('comments', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mark_blocks_homework')
    .on('mark_blocks')
    .columns(['homework_id', 'sort'])
    .execute();

  // Who marks a block: by question (class_id '' = every class) or by class (one row per class).
  await db.schema
    .createTable('mark_markers')
    .addColumn('block_id', 'text', (c) => c.notNull().references('mark_blocks.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('class_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mark_markers_pk', ['block_id', 'user_id', 'class_id'])
    .execute();
  await db.schema.createIndex('mark_markers_user').on('mark_markers').columns(['user_id']).execute();

  // Every mark given: one per (block, sheet, teacher). kind: mark | arbitration | group.
  await db.schema
    .createTable('mark_marks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('block_id', 'text', (c) => c.notNull().references('mark_blocks.id'))
    .addColumn('sheet_id', 'text', (c) => c.notNull().references('sheets.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // JSON object question id → tenths.
    .addColumn('scores', 'text', (c) => c.notNull())
    .addColumn('total_tenths', 'integer', (c) => c.notNull())
    // JSON array of vector marks (✓ ✗ pen text) in crop-relative coordinates.
    .addColumn('annotations', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('mark_marks_item_user', ['block_id', 'sheet_id', 'user_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('mark_marks_user')
    .on('mark_marks')
    .columns(['block_id', 'user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('mark_problems')
    .addColumn('block_id', 'text', (c) => c.notNull().references('mark_blocks.id'))
    .addColumn('sheet_id', 'text', (c) => c.notNull().references('sheets.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addPrimaryKeyConstraint('mark_problems_pk', ['block_id', 'sheet_id'])
    .execute();

  // An item handed to a marker by "next" stays theirs until expires_at (so two markers never get the same one).
  await db.schema
    .createTable('mark_claims')
    .addColumn('block_id', 'text', (c) => c.notNull().references('mark_blocks.id'))
    .addColumn('sheet_id', 'text', (c) => c.notNull().references('sheets.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mark_claims_pk', ['block_id', 'sheet_id', 'user_id'])
    .execute();

  // Perceptual hash of a crop (hex), keyed by the crop's path so a re-scan gets a new one.
  await db.schema
    .createTable('mark_crop_hashes')
    .addColumn('crop_path', 'text', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'mark_crop_hashes',
    'mark_claims',
    'mark_problems',
    'mark_marks',
    'mark_markers',
    'mark_blocks',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
