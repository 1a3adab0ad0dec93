// `npm audit --omit=dev` as a step of the test command (issue #12, ADR 0027): any high or critical advisory of a
// production dependency fails it unless security/audit-allowlist.json lists it with a reason and a review date.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const FAILING = new Set(['high', 'critical']);
const ATTEMPTS = 4;

/** The advisory ids an entry of `via` may be known by: npm's number and the GHSA id of its URL. */
function idsOf(advisory) {
  const ids = [String(advisory.source)];
  const ghsa = /GHSA-[\w-]+/i.exec(advisory.url ?? '');
  if (ghsa) ids.push(ghsa[0].toUpperCase());
  return ids;
}

/** Reads and checks the allow-list: every entry needs an id, a package, a reason and a review date. */
export function readAllowlist(file) {
  const list = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(list.advisories)) throw new Error(`${file}: "advisories" must be an array`);
  for (const [i, entry] of list.advisories.entries()) {
    for (const key of ['id', 'package', 'reason', 'reviewBy']) {
      if (typeof entry[key] !== 'string' || entry[key].trim() === '')
        throw new Error(`${file}: advisories[${i}] needs a non-empty "${key}"`);
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(entry.reviewBy))
      throw new Error(`${file}: advisories[${i}].reviewBy must be a date (YYYY-MM-DD)`);
  }
  return list.advisories;
}

/**
 * Compares an `npm audit --json` report with the allow-list. Returns the high or critical advisories that are not
 * allowed (or whose allowance has passed its review date) and the allowances nothing matched any more.
 */
export function evaluateAudit(report, allowlist, today = new Date().toISOString().slice(0, 10)) {
  const found = new Map();
  for (const [pkg, vuln] of Object.entries(report.vulnerabilities ?? {})) {
    for (const via of vuln.via ?? []) {
      // A string names another vulnerable package: its own entry carries the advisory.
      if (typeof via !== 'object' || !FAILING.has(via.severity)) continue;
      const ids = idsOf(via);
      found.set(ids[0], {
        ids,
        package: via.name ?? pkg,
        severity: via.severity,
        title: via.title,
        url: via.url,
      });
    }
  }
  const failures = [];
  const used = new Set();
  for (const advisory of found.values()) {
    const entry = allowlist.find(
      (e) => advisory.ids.includes(e.id.toUpperCase()) && e.package === advisory.package,
    );
    if (entry) used.add(entry);
    if (!entry) failures.push({ ...advisory, why: 'not in the allow-list' });
    else if (entry.reviewBy < today)
      failures.push({ ...advisory, why: `allowance expired on ${entry.reviewBy}` });
  }
  return { failures, unused: allowlist.filter((e) => !used.has(e)), checked: found.size };
}

/** Transient registry trouble worth another try: network errors, timeouts, rate limits and 5xx answers. */
const TRANSIENT =
  /ETIMEDOUT|ECONNRESET|ECONNREFUSED|EAI_AGAIN|ENOTFOUND|ESOCKETTIMEDOUT|socket hang up|network|\b(429|5\d\d)\b/i;

/** Runs `npm audit --omit=dev --json` (retrying a slow or flaky registry) and fails on what is not allowed. */
export function runAudit({ cwd, allowlistFile, attempts = ATTEMPTS }) {
  const allowlist = readAllowlist(allowlistFile);
  let lastProblem = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = spawnSync(
      'npm',
      ['audit', '--omit=dev', '--json', '--fetch-retries=2', '--fetch-timeout=60000'],
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    let report;
    try {
      report = JSON.parse(result.stdout);
    } catch {
      report = null;
    }
    // npm exits non-zero when it finds advisories; the report has `vulnerabilities` then, and `error` otherwise.
    if (report && report.vulnerabilities && !report.error) {
      const { failures, unused, checked } = evaluateAudit(report, allowlist);
      for (const entry of unused)
        console.warn(`[audit] allow-list entry ${entry.id} (${entry.package}) matched nothing: remove it`);
      if (failures.length > 0) {
        const lines = failures.map(
          (f) =>
            `  ${f.severity} ${f.package} ${f.ids.join(' / ')} ${f.title ?? ''} ${f.url ?? ''} (${f.why})`,
        );
        throw new Error(
          `npm audit --omit=dev found ${failures.length} high or critical advisories:\n${lines.join('\n')}\n` +
            `Upgrade the package, or list the advisory in ${allowlistFile} with a reason and a review date.`,
        );
      }
      console.log(
        `[audit] npm audit --omit=dev: no high or critical advisory outside the allow-list ` +
          `(${checked} high or critical seen, ${allowlist.length} allowed)`,
      );
      return;
    }
    const summary = report?.message ?? report?.error?.summary ?? '';
    lastProblem = (summary || result.stderr || result.error?.message || `exit ${result.status}`).trim();
    if (!TRANSIENT.test(lastProblem)) break;
    console.warn(
      `[audit] attempt ${attempt} of ${attempts} failed (${lastProblem.split('\n')[0]}), retrying`,
    );
    if (attempt < attempts) spawnSync('sleep', [String(5 * attempt)]);
  }
  // A registry that answers but does not offer the audit service (a mirror: 404, 405 or 501) cannot be asked at
  // all; say so loudly rather than fail every run on a machine whose only registry is such a mirror. Anything
  // else (no answer, a broken report) fails the step.
  if (/\b(404|405|501)\b/.test(lastProblem)) {
    console.warn(
      `[audit] NOT CHECKED: the registry does not offer npm's audit service (${lastProblem.split('\n')[0]}). ` +
        'Run `npm audit --omit=dev` where registry.npmjs.org itself is reachable.',
    );
    return;
  }
  throw new Error(
    `npm audit --omit=dev could not get an answer from the registry's audit endpoint: ${lastProblem.split('\n')[0]}\n` +
      'The audit step needs a registry that serves /-/npm/v1/security/advisories/bulk (registry.npmjs.org does; ' +
      'some mirrors do not). Check the network and `npm config get registry`.',
  );
}
