import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Schools, teams and accounts: school details, the grade
// of a class, graduation, subjects offered, grade directors, teaching assignments, teaching groups, invitations, SMS
// codes, feedback and the audit log. Portable types only (docs/adr/0003-ids-and-timestamps.md).

// The grades a class name may start with (七年级(1)班); copied here, not imported, so this migration never changes:
// 一年级 … 九年级, 高一, 高二, 高三, the same twelve in the same order as the contracts' GRADES were then.
const GRADE_PREFIXES = [
  ...[...'一二三四五六七八九'].map((n) => `${n}年级`),
  ...[...'一二三'].map((n) => `高${n}`),
];

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite adds columns one at a time.
  for (const column of ['region', 'address', 'phone', 'intro', 'created_by']) {
    await db.schema.alterTable('orgs').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('classes').addColumn('grade', 'text').execute();
  await db.schema.alterTable('school_years').addColumn('graduated_at', 'text').execute();
  await db.schema.alterTable('students').addColumn('graduated_at', 'text').execute();
  for (const grade of GRADE_PREFIXES) {
    await db
      .updateTable('classes')
      .set({ grade })
      .where('grade', 'is', null)
      .where('name', 'like', `${grade}%`)
      .execute();
  }
  // A phone signs in one account; NULLs (no phone) never collide on either database.
  await db.schema.createIndex('users_phone').on('users').column('phone').unique().execute();

  // Subjects a school offers; a school with none listed offers every subject of the catalogue.
  await db.schema
    .createTable('school_subjects')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addPrimaryKeyConstraint('school_subjects_pk', ['org_id', 'subject_id'])
    .execute();

  // Grade directors per grade (七年级); memberships.is_grade_director says whether a member directs any grade.
  await db.schema
    .createTable('grade_directors')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('grade', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('grade_directors_pk', ['org_id', 'grade', 'user_id'])
    .execute();
  await db.schema
    .createIndex('grade_directors_user')
    .on('grade_directors')
    .columns(['org_id', 'user_id'])
    .execute();

  // Subjects a member teaches, and per subject the classes.
  await db.schema
    .createTable('member_subjects')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_subjects_pk', ['org_id', 'user_id', 'subject_id'])
    .execute();
  await db.schema
    .createTable('teaching_assignments')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id'))
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id'))
    .addPrimaryKeyConstraint('teaching_assignments_pk', ['org_id', 'user_id', 'subject_id', 'class_id'])
    .execute();
  await db.schema
    .createIndex('teaching_assignments_class')
    .on('teaching_assignments')
    .column('class_id')
    .execute();

  // 教研组 (kind 'research') and 备课组 ('preparation').
  await db.schema
    .createTable('teaching_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.references('subjects.id'))
    .addColumn('grade', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('teaching_groups_org_name', ['org_id', 'name'])
    .execute();
  await db.schema
    .createTable('teaching_group_members')
    .addColumn('group_id', 'text', (c) => c.notNull().references('teaching_groups.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('is_leader', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('teaching_group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('teaching_group_members_user')
    .on('teaching_group_members')
    .column('user_id')
    .execute();

  // Invitations: only the token's SHA-256 digest is stored; used_count grows by a conditional update.
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // 'teacher' | 'administrator' | 'gradeDirector'
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('grade', 'text')
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('used_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invitations_org')
    .on('invitations')
    .columns(['org_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('invitation_uses')
    .addColumn('invitation_id', 'text', (c) => c.notNull().references('invitations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('invitation_uses_pk', ['invitation_id', 'user_id'])
    .execute();

  // SMS codes (digests only), also the record the sending limits count.
  await db.schema
    .createTable('sms_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('phone', 'text', (c) => c.notNull())
    // 'register' | 'login' | 'reset' | 'bind'
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_codes_phone').on('sms_codes').columns(['phone', 'created_at']).execute();
  await db.schema.createIndex('sms_codes_ip').on('sms_codes').columns(['ip', 'created_at']).execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The author's current school when they wrote it (its administrators answer it); null without one.
    .addColumn('org_id', 'text', (c) => c.references('orgs.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('contact', 'text')
    // 'pending' | 'replied'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reply', 'text')
    .addColumn('replied_by', 'text', (c) => c.references('users.id'))
    .addColumn('replied_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_org').on('feedback').columns(['org_id', 'created_at']).execute();
  await db.schema.createIndex('feedback_user').on('feedback').columns(['user_id', 'created_at']).execute();
  // Screenshots are uploaded first (feedback_id null), then attached when the feedback is sent.
  await db.schema
    .createTable('feedback_images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('feedback_id', 'text', (c) => c.references('feedback.id'))
    // Relative to DATA_DIR/files.
    .addColumn('path', 'text', (c) => c.notNull().unique())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('feedback_images_feedback')
    .on('feedback_images')
    .column('feedback_id')
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('actor_id', 'text', (c) => c.references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_org').on('audit_log').columns(['org_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'audit_log',
    'feedback_images',
    'feedback',
    'sms_codes',
    'invitation_uses',
    'invitations',
    'teaching_group_members',
    'teaching_groups',
    'teaching_assignments',
    'member_subjects',
    'grade_directors',
    'school_subjects',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex('users_phone').ifExists().execute();
  await db.schema.alterTable('students').dropColumn('graduated_at').execute();
  await db.schema.alterTable('school_years').dropColumn('graduated_at').execute();
  await db.schema.alterTable('classes').dropColumn('grade').execute();
  for (const column of ['created_by', 'intro', 'phone', 'address', 'region']) {
    await db.schema.alterTable('orgs').dropColumn(column).execute();
  }
}
