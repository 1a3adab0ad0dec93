// The README's test command after `npm ci`: system packages, PostgreSQL, lint, typecheck, build, every test, and
// `npm audit --omit=dev` against security/audit-allowlist.json.
import fs from 'node:fs';
import path from 'node:path';
import { runAudit } from './lib/audit.mjs';
import { ensureBrowser } from './lib/browser.mjs';
import { ensurePostgres, ensurePostgresClient } from './lib/postgres.mjs';
import { run } from './lib/system.mjs';
import { ensurePrinterTools } from './lib/printer.mjs';
import { ensureScannerTools } from './lib/scanner.mjs';
import { ensureOfficeTools, ensureRasterTools } from './lib/tools.mjs';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
process.env.TURBO_TELEMETRY_DISABLED = '1';
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

ensureRasterTools();
ensureOfficeTools();
ensureScannerTools();
ensurePrinterTools();
await ensurePostgres();
ensurePostgresClient();
console.log('[test] PostgreSQL answers on 127.0.0.1:5432');
ensureBrowser();
console.log('[test] Chromium and the CJK fonts are installed');

run(bin('turbo'), ['run', 'lint', 'typecheck', 'build', '--output-logs=errors-only']);

fs.mkdirSync('test-artifacts', { recursive: true });
const report = path.join('test-artifacts', 'vitest.json');
let failed;
try {
  run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    env: { ...process.env, TZ: 'UTC' },
  });
} catch (error) {
  failed = error;
}
if (fs.existsSync(report)) {
  const result = JSON.parse(fs.readFileSync(report, 'utf8'));
  // The plain closing line CI reads.
  console.log(`${result.numPassedTests} passed, ${result.numFailedTests} failed`);
}
// Production dependencies against the registry's advisories (README → Security): after the tests, so that a
// registry outage still leaves their results on screen.
let auditFailed;
try {
  runAudit({ cwd: root, allowlistFile: path.join(root, 'security', 'audit-allowlist.json') });
} catch (error) {
  auditFailed = error;
}
if (failed || auditFailed) {
  if (failed) console.error(failed.message);
  if (auditFailed) console.error(`[audit] ${auditFailed.message}`);
  process.exit(1);
}
