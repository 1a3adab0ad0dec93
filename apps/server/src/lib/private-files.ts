import fs from 'node:fs';

// The host's data (the SQLite file, pages, materials, backups) is the schools' alone: DATA_DIR and every folder in it
// are made 0700 and every file written 0600, whatever the umask (ADR 0041). A folder someone else owns (a mount
// point) keeps its mode: changing it is theirs to do.

/** Mode of every folder the host creates for its data. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file the host writes into its data. */
export const PRIVATE_FILE_MODE = 0o600;

function narrow(target: string, mode: number): void {
  try {
    fs.chmodSync(target, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOENT') throw error;
  }
}

/** Creates a folder (and its parents) readable by this user only, and narrows it when it already existed. */
export function privateDirSync(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrow(dir, PRIVATE_DIR_MODE);
}

/** Makes sure a file exists, readable by this user only (created empty when missing). */
export function privateFileSync(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  narrow(file, PRIVATE_FILE_MODE);
}
