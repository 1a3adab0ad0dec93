// Makes sure SANE's scanimage is installed (Debian's sane-utils and libsane1): the scan agent's tests drive SANE's
// `test` backend through it for real. Used by the test command; a fresh machine gets the packages from apt.
import { ensureAptPackages, hasCommand } from './system.mjs';

/** Installs sane-utils (scanimage) and libsane1 (the backends, `test` among them) when scanimage is missing. */
export function ensureScannerTools() {
  if (process.platform !== 'linux') return;
  if (hasCommand('scanimage')) return;
  ensureAptPackages(['sane-utils', 'libsane1']);
  if (!hasCommand('scanimage')) throw new Error('scanimage is still missing after installing sane-utils');
}
