import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../src/db/connect.js';
import { LocalObjectStorage, S3ObjectStorage, type ObjectStorage } from '../src/lib/storage/index.js';
import { backup, OBJECT_PREFIXES, restore } from '../src/ops/backup.js';
import { DEMO_ACCOUNTS } from '../src/seed/demo.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import { startTestS3, type TestS3 } from './helpers/s3.js';
import { as, call, dataOf, fileForm } from './school-fixtures.js';

/** Every row of every table (sorted), and every object's bytes: what "identical data" means. */
async function snapshot(db: Db, storage: ObjectStorage) {
  const tables = (await db.kysely.introspection.getTables())
    .map((t) => t.name)
    .filter((n) => !n.startsWith('kysely_'))
    .sort();
  const rows: Record<string, string[]> = {};
  for (const table of tables) {
    const result = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
    rows[table] = result.rows.map((r) => JSON.stringify(r)).sort();
  }
  const objects: Record<string, string> = {};
  for (const prefix of OBJECT_PREFIXES)
    for await (const key of storage.list(prefix)) objects[key] = (await storage.get(key))!.toString('base64');
  return { tables, rows, objects };
}

// SQLite with the local file store, PostgreSQL with S3: backup → wipe → restore → identical data.
describe.each(DIALECTS)('backup and restore on %s', (dialect) => {
  let t: TestApp;
  let s3: TestS3 | undefined;
  let storage: ObjectStorage;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-backup-data-'));
  const backupDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-backup-')), 'set');

  beforeAll(async () => {
    if (dialect === 'postgres') {
      s3 = await startTestS3();
      storage = new S3ObjectStorage({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      });
    }
    t = await startTestApp({ dialect, ...(storage ? { storage } : {}) });
    storage ??= t.app.storage;
    // Something of everything: a teacher's basket, an avatar, a school logo-like file and a page image.
    const teacher = await as(t, DEMO_ACCOUNTS.teacher);
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    dataOf(await call(t, 'POST', '/system/account/avatar', teacher, fileForm(photo, 'me.png')));
    await storage.put('pages/org/ab/abcdef.png', Buffer.from('page image'));
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(backupDir), { recursive: true, force: true });
  });

  it('restores exactly what was backed up after the database and the files are wiped', async () => {
    const config = {
      ...t.config,
      ...(dialect === 'postgres' ? { DATABASE_URL: t.testDb.location } : { DATA_DIR: t.testDb.location }),
    };
    const before = await snapshot(t.testDb.db, storage);
    expect(before.tables.length).toBeGreaterThan(20);
    expect(Object.keys(before.objects).some((k) => k.startsWith('files/avatars/'))).toBe(true);
    expect(before.rows.users!.length).toBeGreaterThan(0);

    const manifest = await backup(config, storage, backupDir);
    expect(manifest.database).toBe(dialect);
    expect(Object.keys(manifest.objects).sort()).toEqual(Object.keys(before.objects).sort());
    await expect(backup(config, storage, backupDir)).rejects.toThrow('备份目录必须为空');

    // Wipe: the host stops, the database is emptied, every object removed.
    await t.app.close();
    if (dialect === 'postgres') {
      await sql`drop schema public cascade`.execute(t.testDb.db.kysely);
      await sql`create schema public`.execute(t.testDb.db.kysely);
      await t.testDb.db.close();
    } else {
      await t.testDb.db.close();
      fs.rmSync(path.join(t.testDb.location, 'zhzy.sqlite'));
    }
    for (const prefix of OBJECT_PREFIXES)
      for await (const key of storage.list(prefix)) await storage.delete(key);

    await restore(config, storage, backupDir);
    const db = connect({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    try {
      const after = await snapshot(db, storage);
      expect(after.tables).toEqual(before.tables);
      for (const table of before.tables) expect(after.rows[table], table).toEqual(before.rows[table]);
      expect(after.objects).toEqual(before.objects);
    } finally {
      await db.close();
    }
    // The test helper's cleanup closes its (already closed) database again.
    t.testDb.db = connect({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  });

  it('refuses a damaged backup before touching anything', async () => {
    const config = {
      ...t.config,
      ...(dialect === 'postgres' ? { DATABASE_URL: t.testDb.location } : { DATA_DIR: t.testDb.location }),
    };
    const key = Object.keys(
      (JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as { objects: object })
        .objects,
    )[0]!;
    fs.writeFileSync(path.join(backupDir, 'objects', ...key.split('/')), 'tampered');
    await expect(restore(config, storage, backupDir)).rejects.toThrow(`备份中的文件已损坏或缺失: ${key}`);
    const other = dialect === 'postgres' ? { DATABASE_URL: undefined } : { DATABASE_URL: 'postgres://x@y/z' };
    await expect(restore({ ...config, ...other }, storage, backupDir)).rejects.toThrow(/备份来自/);
  });
});

describe('the local store in a backup', () => {
  it('lists only finished objects, not temporaries of a crashed write', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-tmp-'));
    const store = new LocalObjectStorage(dir);
    await store.put('files/logos/a.png', Buffer.from('x'));
    fs.writeFileSync(path.join(dir, 'files/logos/b.png.123.tmp'), 'half');
    const keys: string[] = [];
    for await (const k of store.list('files/')) keys.push(k);
    expect(keys).toEqual(['files/logos/a.png']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
