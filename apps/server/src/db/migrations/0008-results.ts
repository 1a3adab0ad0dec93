import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Results: one sheet per (homework, student) and one
// answer per question of it, written by recognition (objective marks, crops of written answers), by marking (scores
// of written answers) and by the teacher's review (overrides); read by marking and analysis. Every score change is
// recorded in score_changes. Depends on 0005 (homework) and 0006 (students, classes).

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sheets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id'))
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    // The card version the sheet's pages were printed from.
    .addColumn('card_id', 'text', (c) => c.notNull())
    .addColumn('card_version', 'integer', (c) => c.notNull())
    .addColumn('pages_expected', 'integer', (c) => c.notNull())
    .addColumn('pages_received', 'integer', (c) => c.notNull().defaultTo(0))
    // 'pending' until a teacher confirms the recognised marks (the review before results are published).
    .addColumn('review_status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('objective_score_tenths', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subjective_score_tenths', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_score_tenths', 'integer', (c) => c.notNull().defaultTo(0))
    // Answers still without a score (written answers waiting for a marker).
    .addColumn('unscored_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('sheets_homework_student', ['homework_id', 'student_id'])
    .execute();
  await db.schema
    .createIndex('sheets_homework_class')
    .on('sheets')
    .columns(['homework_id', 'class_id'])
    .execute();
  await db.schema.createIndex('sheets_student').on('sheets').columns(['student_id', 'homework_id']).execute();

  await db.schema
    .createTable('sheet_answers')
    .addColumn('sheet_id', 'text', (c) => c.notNull().references('sheets.id'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    // The paper question's id (what the card layout names).
    .addColumn('question_id', 'text', (c) => c.notNull())
    // The card question kind: single | multiple | truefalse | blank | written | optional.
    .addColumn('kind', 'text', (c) => c.notNull())
    // Objective answers: the options read ('AC'; 'T'/'F' for true/false; '' when blank). Optional groups: the
    // question chosen. Null for written answers.
    .addColumn('response', 'text')
    // How the objective marks were read: ok | blank | multiple | uncertain (null for written answers).
    .addColumn('response_status', 'text')
    // Written answers: the crop of the answer box (a page-store path), and whether it looked blank.
    .addColumn('crop_path', 'text')
    .addColumn('blank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('full_score_tenths', 'integer', (c) => c.notNull())
    // Null until scored.
    .addColumn('score_tenths', 'integer')
    // auto (answer key) | override (review) | marker | group | double | arbitration | seed.
    .addColumn('score_source', 'text')
    .addColumn('updated_by', 'text', (c) => c.references('users.id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sheet_answers_pk', ['sheet_id', 'question_id'])
    .execute();
  await db.schema
    .createIndex('sheet_answers_homework_question')
    .on('sheet_answers')
    .columns(['homework_id', 'question_id'])
    .execute();

  // Every change of a response or a score: who, when, before, after, why.
  await db.schema
    .createTable('score_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    .addColumn('sheet_id', 'text', (c) => c.notNull().references('sheets.id'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    // Null when the host itself re-scored (an answer-key change).
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('before_response', 'text')
    .addColumn('after_response', 'text')
    .addColumn('before_score_tenths', 'integer')
    .addColumn('after_score_tenths', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('score_changes_sheet')
    .on('score_changes')
    .columns(['sheet_id', 'question_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['score_changes', 'sheet_answers', 'sheets']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
