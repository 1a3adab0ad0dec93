import { loadConfig } from '../config.js';
import { createStorage } from '../lib/storage/index.js';
import { backup, restore } from './backup.js';
import { OPS_TEXT } from '../i18n/messages.js';

// `npm run backup -w @zhzy/server -- <dir>` and `npm run restore -w @zhzy/server -- <dir>`, with the host's own
// environment (DATABASE_URL, DATA_DIR, STORAGE, S3_*). Restore with every host instance stopped.
const [command, dir] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !dir) {
  console.error(OPS_TEXT.usage);
  process.exit(2);
}
const config = loadConfig();
const storage = await createStorage(config);
try {
  const started = Date.now();
  const manifest =
    command === 'backup' ? await backup(config, storage, dir) : await restore(config, storage, dir);
  const verb = command === 'backup' ? OPS_TEXT.backupDone : OPS_TEXT.restoreDone;
  process.stdout.write(
    OPS_TEXT.done(verb, manifest.database, Object.keys(manifest.objects).length, dir, Date.now() - started),
  );
} catch (error) {
  console.error(
    OPS_TEXT.failed(command === 'backup', error instanceof Error ? error.message : String(error)),
  );
  process.exitCode = 1;
} finally {
  await storage.close();
}
