import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { ObjectStorage } from '../lib/storage/index.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, privateDirSync } from '../lib/private-files.js';
import { OPS_TEXT } from '../i18n/messages.js';

const run = promisify(execFile);

/** Prefixes of the object store that hold the product's objects (page images, stored files). */
export const OBJECT_PREFIXES = ['pages/', 'files/'] as const;
const SQLITE_FILE = 'zhzy.sqlite';
const MANIFEST = 'manifest.json';

const BackupManifestSchema = z.object({
  format: z.literal(1),
  createdAt: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  storage: z.enum(['local', 's3']),
  /** Every object's key and SHA-256, checked again on restore. */
  objects: z.record(z.string(), z.string()),
});
export type BackupManifest = z.infer<typeof BackupManifestSchema>;

/** The connection URL without its password (which goes to pg_dump through PGPASSWORD, not the process list). */
function pgTarget(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Writes a backup folder: the database (SQLite's online backup, or `pg_dump` in custom format), then every object
 * of the store with its checksum. The database comes first: objects are never changed once written (new content
 * gets a new key), so every object the saved database refers to is already there when the objects are copied.
 */
export async function backup(config: Config, storage: ObjectStorage, dir: string): Promise<BackupManifest> {
  privateDirSync(dir);
  if (fs.readdirSync(dir).length > 0) throw new Error(OPS_TEXT.backupDirNotEmpty(dir));
  const database = config.DATABASE_URL ? 'postgres' : 'sqlite';
  if (config.DATABASE_URL) {
    const { url, env } = pgTarget(config.DATABASE_URL);
    await run(
      'pg_dump',
      [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--file=${path.join(dir, 'database.pgdump')}`,
        url,
      ],
      { env, maxBuffer: 16 * 1024 * 1024 },
    );
  } else {
    const source = new SQLite(path.join(config.DATA_DIR, SQLITE_FILE), { fileMustExist: true });
    try {
      await source.backup(path.join(dir, 'database.sqlite'));
    } finally {
      source.close();
    }
  }
  const objects: Record<string, string> = {};
  for (const prefix of OBJECT_PREFIXES) {
    for await (const key of storage.list(prefix)) {
      const target = path.join(dir, 'objects', ...key.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      const stream = await storage.stream(key);
      if (!stream) continue; // deleted meanwhile: the database no longer refers to it
      await pipeline(stream, fs.createWriteStream(target, { mode: PRIVATE_FILE_MODE }));
      objects[key] = await sha256(target);
    }
  }
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database,
    storage: storage.kind,
    objects,
  };
  fs.writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Restores a backup folder into the configured database and store, with every host stopped: the database is
 * replaced whole (SQLite file, or `pg_restore --clean`), then every object is checked against its checksum and
 * written back. A backup of one database kind restores only into the same kind.
 */
export async function restore(config: Config, storage: ObjectStorage, dir: string): Promise<BackupManifest> {
  const manifestFile = path.join(dir, MANIFEST);
  if (!fs.existsSync(manifestFile)) throw new Error(OPS_TEXT.notABackup(MANIFEST, dir));
  const stored = z.looseObject({ format: z.unknown() }).parse(JSON.parse(fs.readFileSync(manifestFile, 'utf8')));
  if (stored.format !== 1) throw new Error(OPS_TEXT.unsupportedFormat(String(stored.format)));
  const manifest = BackupManifestSchema.parse(stored);
  const database = config.DATABASE_URL ? 'postgres' : 'sqlite';
  if (manifest.database !== database) throw new Error(OPS_TEXT.otherDatabase(manifest.database, database));

  // Objects are checked before anything is replaced, so a damaged backup changes nothing.
  for (const [key, expected] of Object.entries(manifest.objects)) {
    const file = path.join(dir, 'objects', ...key.split('/'));
    if (!fs.existsSync(file) || (await sha256(file)) !== expected)
      throw new Error(OPS_TEXT.objectDamaged(key));
  }

  if (config.DATABASE_URL) {
    const { url, env } = pgTarget(config.DATABASE_URL);
    await run(
      'pg_restore',
      [
        '--clean',
        '--if-exists',
        '--no-owner',
        '--no-privileges',
        '--single-transaction',
        '--exit-on-error',
        `--dbname=${url}`,
        path.join(dir, 'database.pgdump'),
      ],
      { env, maxBuffer: 16 * 1024 * 1024 },
    );
  } else {
    privateDirSync(config.DATA_DIR);
    const target = path.join(config.DATA_DIR, SQLITE_FILE);
    const tmp = `${target}.restore.tmp`;
    fs.copyFileSync(path.join(dir, 'database.sqlite'), tmp);
    for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
    fs.chmodSync(tmp, PRIVATE_FILE_MODE);
    fs.renameSync(tmp, target);
  }

  for (const key of Object.keys(manifest.objects))
    await storage.put(key, fs.readFileSync(path.join(dir, 'objects', ...key.split('/'))));
  return manifest;
}
