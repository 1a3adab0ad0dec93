import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Recognition: what the recogniser read from every
// stored scan page (kept whole, raw darkness included, so thresholds can be revised without rescanning), the
// exceptions a person must look at, and per homework the answer-key overrides and the multiple-choice partial-credit
// rule. Depends on 0004 (scan pages), 0005 (homework) and 0008 (sheets).

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('recognition_pages')
    .addColumn('page_id', 'text', (c) => c.primaryKey().references('scan_pages.id'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('batch_id', 'text', (c) => c.notNull())
    // queued | done | failed (the recogniser could not read it) | ignored (a teacher set it aside) | rescanned.
    .addColumn('status', 'text', (c) => c.notNull())
    // ok | review | failed as the recogniser said (null until read).
    .addColumn('outcome', 'text')
    .addColumn('card_id', 'text')
    .addColumn('card_version', 'integer')
    .addColumn('page_no', 'integer')
    .addColumn('homework_id', 'text')
    .addColumn('student_id', 'text')
    .addColumn('sheet_id', 'text')
    // Where the student came from: qr | bubbles | barcode | teacher | none.
    .addColumn('identity_source', 'text')
    .addColumn('residual_mm', 'real')
    .addColumn('total_ms', 'real')
    // JSON of the whole PageRecognition (identity, marks with confidence, raw ratios, transform, timings, problems).
    .addColumn('result', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recognition_pages_batch')
    .on('recognition_pages')
    .columns(['batch_id', 'status'])
    .execute();
  await db.schema
    .createIndex('recognition_pages_student')
    .on('recognition_pages')
    .columns(['homework_id', 'student_id', 'page_no'])
    .execute();

  await db.schema
    .createTable('recognition_exceptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('batch_id', 'text', (c) => c.notNull())
    // Null for a missing page (there is no page to point at).
    .addColumn('page_id', 'text')
    .addColumn('homework_id', 'text')
    .addColumn('sheet_id', 'text')
    .addColumn('student_id', 'text')
    .addColumn('page_no', 'integer')
    // anchorsNotFound | qrUnreadable | cardUnknown | wrongHomework | unknownStudent | duplicateSheet | missingPage |
    // blankPage | multipleMarks | uncertainMark | studentNumberInvalid | studentNumberMissing | anchorsDistorted |
    // imageUnreadable
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    // JSON array of the question ids concerned ('[]' for page problems).
    .addColumn('question_ids', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    // assignStudent | chooseMarks | ignore | rescanned | accept
    .addColumn('resolution', 'text')
    .addColumn('resolved_by', 'text', (c) => c.references('users.id'))
    .addColumn('resolved_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recognition_exceptions_batch')
    .on('recognition_exceptions')
    .columns(['batch_id', 'status'])
    .execute();
  await db.schema
    .createIndex('recognition_exceptions_homework')
    .on('recognition_exceptions')
    .columns(['homework_id', 'status'])
    .execute();
  await db.schema
    .createIndex('recognition_exceptions_page')
    .on('recognition_exceptions')
    .columns(['page_id'])
    .execute();

  // The answer key as the teacher corrected it (the paper snapshot's answer applies otherwise).
  await db.schema
    .createTable('answer_keys')
    .addColumn('homework_id', 'text', (c) => c.notNull().references('homework.id'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('answer_keys_pk', ['homework_id', 'question_id'])
    .execute();

  await db.schema
    .createTable('scoring_rules')
    .addColumn('homework_id', 'text', (c) => c.primaryKey().references('homework.id'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    // Multiple choice with some right options and none wrong: half | zero | proportional.
    .addColumn('partial_rule', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['scoring_rules', 'answer_keys', 'recognition_exceptions', 'recognition_pages']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
