import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. School materials: folders (nested, per school), the
// files in them (content-validated PDF, Word .docx and images stored under DATA_DIR/materials), a recycle bin by
// `deleted_at`, and short-lived preview links (stored hashed) so an <img> or the PDF viewer can load a file without a
// bearer header. Depends on 0006 (orgs, users).

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('material_folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('parent_id', 'text', (c) => c.references('material_folders.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('material_folders_org_parent')
    .on('material_folders')
    .columns(['org_id', 'parent_id'])
    .execute();

  await db.schema
    .createTable('materials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    // null: the root. A recycled material whose folder was deleted returns to the root.
    .addColumn('folder_id', 'text', (c) => c.references('material_folders.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ext', 'text', (c) => c.notNull())
    // 'pdf' | 'word' | 'image', from the content, never from the name.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    // Relative to DATA_DIR.
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('page_count', 'integer')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('uploaded_by', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addColumn('deleted_by', 'text', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .createIndex('materials_org_folder')
    .on('materials')
    .columns(['org_id', 'folder_id', 'deleted_at'])
    .execute();
  await db.schema
    .createIndex('materials_org_deleted')
    .on('materials')
    .columns(['org_id', 'deleted_at'])
    .execute();

  await db.schema
    .createTable('material_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('material_id', 'text', (c) => c.notNull().references('materials.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('material_links_expires').on('material_links').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['material_links', 'materials', 'material_folders']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
