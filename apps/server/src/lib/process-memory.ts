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
