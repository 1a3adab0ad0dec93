import fs from 'node:fs';

const PAGE_BYTES = 4096;

/**
 * Resident memory of a child process, bytes, read from /proc (Linux; 0 where unavailable). Watched from the host:
 * native allocations (libvips, zlib, zxing) are outside V8's heap limit, and a child busy in a synchronous parse
 * cannot watch itself.
 */
export async function residentBytes(pid: number): Promise<number> {
  try {
    const statm = await fs.promises.readFile(`/proc/${pid}/statm`, 'utf8');
    return Number(statm.split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux the host runs on). */
const USER_HZ = 100;

/**
 * CPU time a process has used so far (all its threads, user + system), ms, read from /proc (Linux); null where
 * unavailable. Read synchronously: it is one small read of a kernel file.
 */
export function cpuMilliseconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may contain spaces: utime and stime are the
    // 14th and 15th fields of the line, the 12th and 13th after the name.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / USER_HZ;
  } catch {
    return null;
  }
}
