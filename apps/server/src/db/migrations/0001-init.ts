import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Portable types only:
// text ids and ISO timestamps, integer flags, text JSON (docs/adr/0003-ids-and-timestamps.md).

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('orgs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('logo_path', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text')
    .addColumn('phone', 'text')
    .addColumn('default_org_id', 'text', (c) => c.references('orgs.id'))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('is_creator', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_administrator', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_grade_director', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_year_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('memberships_org_user', ['org_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

  await db.schema
    .createTable('school_years')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('school_years_org').on('school_years').column('org_id').execute();

  await db.schema
    .createTable('stages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subjects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('stage_id', 'text', (c) => c.notNull().references('stages.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('classes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('year_id', 'text', (c) => c.notNull().references('school_years.id'))
    .addColumn('stage_id', 'text', (c) => c.notNull().references('stages.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('classes_year').on('classes').columns(['org_id', 'year_id']).execute();

  await db.schema
    .createTable('students')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('student_no', 'text', (c) => c.notNull())
    .addColumn('gender', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('students_org_no', ['org_id', 'student_no'])
    .execute();
  await db.schema.createIndex('students_class').on('students').column('class_id').execute();

  await db.schema
    .createTable('textbooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addColumn('publisher', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('booknodes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('textbook_id', 'text', (c) => c.notNull().references('textbooks.id'))
    .addColumn('parent_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('booknodes_textbook').on('booknodes').column('textbook_id').execute();

  await db.schema
    .createTable('knowledge_points')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addColumn('parent_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('knowledge_points_subject')
    .on('knowledge_points')
    .column('subject_id')
    .execute();

  await db.schema
    .createTable('question_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('objective', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addColumn('type_id', 'text', (c) => c.notNull().references('question_types.id'))
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.references('orgs.id'))
    .addColumn('owner_user_id', 'text', (c) => c.references('users.id'))
    .addColumn('difficulty', 'integer', (c) => c.notNull())
    .addColumn('stem', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('analysis', 'text', (c) => c.notNull())
    .addColumn('year', 'integer')
    .addColumn('source', 'text')
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('questions_subject_type')
    .on('questions')
    .columns(['subject_id', 'type_id'])
    .execute();
  await db.schema.createIndex('questions_org').on('questions').column('org_id').execute();

  await db.schema
    .createTable('question_booknodes')
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id'))
    .addColumn('booknode_id', 'text', (c) => c.notNull().references('booknodes.id'))
    .addPrimaryKeyConstraint('question_booknodes_pk', ['question_id', 'booknode_id'])
    .execute();
  await db.schema
    .createIndex('question_booknodes_node')
    .on('question_booknodes')
    .column('booknode_id')
    .execute();

  await db.schema
    .createTable('question_knowledge_points')
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id'))
    .addColumn('knowledge_point_id', 'text', (c) => c.notNull().references('knowledge_points.id'))
    .addPrimaryKeyConstraint('question_knowledge_points_pk', ['question_id', 'knowledge_point_id'])
    .execute();
  await db.schema
    .createIndex('question_knowledge_points_kp')
    .on('question_knowledge_points')
    .column('knowledge_point_id')
    .execute();

  await db.schema
    .createTable('basket_papers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('stage_id', 'text', (c) => c.notNull().references('stages.id'))
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addColumn('textbook_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('basket_papers_owner_subject', ['org_id', 'user_id', 'stage_id', 'subject_id'])
    .execute();

  await db.schema
    .createTable('basket_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('paper_id', 'text', (c) => c.notNull().references('basket_papers.id'))
    .addColumn('type_id', 'text', (c) => c.notNull().references('question_types.id'))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addUniqueConstraint('basket_sections_paper_type', ['paper_id', 'type_id'])
    .execute();

  await db.schema
    .createTable('basket_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('paper_id', 'text', (c) => c.notNull().references('basket_papers.id'))
    .addColumn('section_id', 'text', (c) => c.notNull().references('basket_sections.id'))
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id'))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('basket_items_paper_question', ['paper_id', 'question_id'])
    .execute();

  await db.schema
    .createTable('auth_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoke_reason', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('auth_sessions.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_tokens_session').on('access_tokens').column('session_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('auth_sessions.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .execute();

  await db.schema
    .createTable('captchas')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('answer_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'meta',
    'captchas',
    'login_failures',
    'refresh_tokens',
    'access_tokens',
    'auth_sessions',
    'basket_items',
    'basket_sections',
    'basket_papers',
    'question_knowledge_points',
    'question_booknodes',
    'questions',
    'question_types',
    'knowledge_points',
    'booknodes',
    'textbooks',
    'students',
    'classes',
    'subjects',
    'stages',
    'school_years',
    'memberships',
    'users',
    'orgs',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
