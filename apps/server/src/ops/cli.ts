import { loadConfig } from '../config.js';
import { createStorage } from '../lib/storage/index.js';
import { backup, restore } from './backup.js';

// `npm run backup -w @zhzy/server -- <dir>` and `npm run restore -w @zhzy/server -- <dir>`, with the host's own
// environment (DATABASE_URL, DATA_DIR, STORAGE, S3_*). Restore with every host instance stopped.
const [command, dir] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !dir) {
  console.error(
    '用法: npm run backup -w @zhzy/server -- <目录>   |   npm run restore -w @zhzy/server -- <目录>',
  );
  process.exit(2);
}
const config = loadConfig();
const storage = await createStorage(config);
try {
  const started = Date.now();
  const manifest =
    command === 'backup' ? await backup(config, storage, dir) : await restore(config, storage, dir);
  const verb = command === 'backup' ? '备份完成' : '恢复完成';
  process.stdout.write(
    `${verb}: ${manifest.database} 数据库 + ${Object.keys(manifest.objects).length} 个文件 (${dir}, ${Date.now() - started} ms)\n`,
  );
} catch (error) {
  console.error(
    `${command === 'backup' ? '备份' : '恢复'}失败: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
} finally {
  await storage.close();
}
