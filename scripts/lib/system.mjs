// Installs the Debian packages the project needs when they are missing (a fresh machine of our kind).
import { execFileSync, spawnSync } from 'node:child_process';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a command with an argument array, inheriting output; throws when it fails. */
export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`);
  }
}

/** Whether a command is on the PATH. */
export function hasCommand(name) {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', name], { stdio: 'ignore' }).status === 0;
}

function installed(pkg) {
  try {
    const out = execFileSync('dpkg-query', ['-W', '-f=${Status}', pkg], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.includes('install ok installed');
  } catch {
    return false;
  }
}

let updated = false;

/** Makes sure every Debian package in `packages` is installed (apt-get update once, then install). */
export function ensureAptPackages(packages) {
  const missing = packages.filter((p) => !installed(p));
  if (missing.length === 0) return;
  if (!hasCommand('apt-get')) {
    throw new Error(`missing system packages (${missing.join(', ')}) and no apt-get to install them`);
  }
  const sudo = isRoot() ? [] : ['sudo'];
  console.log(`[setup] installing ${missing.join(', ')} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!updated) {
    run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update'], { env });
    updated = true;
  }
  run(
    sudo[0] ?? 'apt-get',
    [
      ...sudo.slice(1),
      ...(sudo.length ? ['apt-get'] : []),
      'install',
      '-y',
      '--no-install-recommends',
      ...missing,
    ],
    { env },
  );
}
