import fs from 'node:fs';
import zlib from 'node:zlib';

// Files built to hurt an upload path: decompression bombs that cost the test almost nothing to make (deflate streams
// of zeros assembled from one repeated, self-contained chunk), images that lie about their size, archives that lie
// about theirs. ADR 0026.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const CHUNK = 16 * 1024 * 1024;
let zeroChunk: Buffer | null = null;

/** A raw deflate stream that inflates to `size` zero bytes; about 1 KB of output per MB. */
export function deflatedZeros(size: number): Buffer {
  // A full flush ends a chunk byte-aligned with no back-references out of it, so copies of it concatenate.
  zeroChunk ??= zlib.deflateRawSync(Buffer.alloc(CHUNK), {
    level: 9,
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  const parts: Buffer[] = [];
  for (let left = size; left > 0; left -= CHUNK) {
    parts.push(
      left >= CHUNK
        ? zeroChunk
        : zlib.deflateRawSync(Buffer.alloc(left), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH }),
    );
  }
  parts.push(zlib.deflateRawSync(Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** The same as a zlib stream (PNG's IDAT): header, the deflate data and the Adler-32 of `size` zeros. */
function zlibZeros(size: number): Buffer {
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((size % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), deflatedZeros(size), adler]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/**
 * A black RGBA PNG of the given size. With `rows` the image data stops after that many rows (a tiny file declaring
 * an enormous image); without it the data is whole — a real decompression bomb when the size is large.
 */
export function zeroPng(width: number, height: number, rows = height): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlibZeros(rows * (1 + width * 4))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real JPEG whose frame header is rewritten to declare another size. */
export function jpegDeclaring(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let at = 2; at < out.length - 9;) {
    if (out[at] !== 0xff) throw new Error('not a JPEG marker');
    const marker = out[at + 1]!;
    const length = out.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2) {
      out.writeUInt16BE(height, at + 5);
      out.writeUInt16BE(width, at + 7);
      return out;
    }
    at += 2 + length;
  }
  throw new Error('no frame header');
}

export interface ZipEntry {
  name: string;
  /** The bytes, stored as they are. */
  data?: Buffer;
  /** Or a deflated run of zeros of this size. */
  zeros?: number;
  /** The uncompressed size written in the headers (a lie when it differs from the real one). */
  declaredSize?: number;
}

/** A zip archive written by hand, so its headers can lie. */
export function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const stored = entry.data !== undefined;
    const body = stored ? entry.data! : deflatedZeros(entry.zeros ?? 0);
    const size = entry.declaredSize ?? (stored ? entry.data!.length : (entry.zeros ?? 0));
    const crc = stored ? crc32(entry.data!) : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A multipart body with text fields and one `file` part. */
export function multipartBody(
  fields: Record<string, unknown> | undefined,
  file: Buffer | null,
  filename = 'upload.bin',
  contentType = 'application/octet-stream',
): { payload: Buffer; contentType: string } {
  const boundary = `----zhzytest${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (v === undefined) continue;
    const text =
      typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${text}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The most memory this process held at once while `work` ran (Linux: the high-water mark is reset through
 * /proc/self/clear_refs first), and the resident size before it, both in MB.
 */
export async function peakRss<T>(
  work: () => Promise<T>,
): Promise<{ result: T; beforeMb: number; peakMb: number }> {
  const readKb = (field: string) => {
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  };
  fs.writeFileSync('/proc/self/clear_refs', '5');
  const beforeMb = readKb('VmRSS') / 1024;
  const result = await work();
  return { result, beforeMb, peakMb: readKb('VmHWM') / 1024 };
}
