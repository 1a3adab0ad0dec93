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
  /** Or this raw deflate stream (give its inflated size as `declaredSize`). */
  deflated?: Buffer;
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
    const body = stored ? entry.data! : (entry.deflated ?? deflatedZeros(entry.zeros ?? 0));
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

/**
 * A raw deflate stream of `head`, `count` copies of `unit`, then `tail`: megabytes of XML from kilobytes, built (as
 * deflatedZeros) from one compressed block of copies repeated.
 */
export function deflatedRepeat(head: string, unit: string, count: number, tail: string): Buffer {
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  const perChunk = Math.max(1, Math.floor((1024 * 1024) / Buffer.byteLength(unit)));
  const chunk = zlib.deflateRawSync(Buffer.from(unit.repeat(perChunk)), flush);
  const parts = [zlib.deflateRawSync(Buffer.from(head), flush)];
  for (let n = 0; n + perChunk <= count; n += perChunk) parts.push(chunk);
  parts.push(zlib.deflateRawSync(Buffer.from(unit.repeat(count % perChunk)), flush));
  parts.push(zlib.deflateRawSync(Buffer.from(tail)));
  return Buffer.concat(parts);
}

const WORD_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const WORD_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/**
 * A .docx whose word/document.xml is `paragraphs` tiny paragraphs, with honest sizes in its headers (issue 21 #1:
 * 174 KB inflating to 58 MB). The CRC is left 0: the host must refuse it before anything checks one.
 */
export function tinyParagraphDocx(paragraphs: number): Buffer {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
  const unit = '<w:p><w:r><w:t>x</w:t></w:r></w:p>';
  const tail = '</w:body></w:document>';
  const size = Buffer.byteLength(head) + Buffer.byteLength(unit) * paragraphs + Buffer.byteLength(tail);
  return zipOf([
    { name: '[Content_Types].xml', data: Buffer.from(WORD_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(WORD_RELS) },
    { name: 'word/document.xml', deflated: deflatedRepeat(head, unit, paragraphs, tail), declaredSize: size },
  ]);
}

/**
 * A PDF whose page tree doubles at every level (each node lists the same child twice): `2^depth` pages from a file
 * of a few kilobytes (issue 21 #7).
 */
export function doublingPageTreePdf(depth: number): Buffer {
  const objects: string[] = [];
  // 1: catalogue; 2..depth+2: page tree nodes, the last one a page.
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  for (let level = 0; level < depth; level++) {
    const child = level + 3;
    const parent = level === 0 ? '' : ` /Parent ${level + 1} 0 R`;
    objects.push(
      `<< /Type /Pages /Kids [${child} 0 R ${child} 0 R] /Count ${2 ** (depth - level)}${parent} >>`,
    );
  }
  objects.push(`<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 595 842] >>`);
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) body += `${String(at).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * A plain PDF of `count` A4 pages, each with its number printed, written by hand: a few hundred kilobytes, and no
 * PDF library's object graph left on the test's heap (the host under watch shares this process and its collector).
 */
export function numberedPagesPdf(count: number): Buffer {
  // 1: catalogue, 2: page tree, 3: font; then per page its page object and its content stream.
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const kids: string[] = [];
  for (let i = 0; i < count; i++) {
    const page = objects.length + 1;
    const text = `BT /F1 12 Tf 50 800 Td (${i + 1}) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${page + 1} 0 R >>`,
    );
    objects.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    kids.push(`${page} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${count} >>`;
  const parts: string[] = ['%PDF-1.7\n'];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const part = `${i + 1} 0 obj\n${o}\nendobj\n`;
    parts.push(part);
    length += part.length;
  });
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const at of offsets) parts.push(`${String(at).padStart(10, '0')} 00000 n \n`);
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/** A 1-bit greyscale PNG of the given size, all white: a few kilobytes per hundred million pixels. */
export function oneBitPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8);
  const row = 1 + Math.ceil(width / 8);
  const line = Buffer.alloc(row, 0xff);
  line[0] = 0;
  // The rows repeat: a zlib stream of `height` white rows, built from one compressed block of them.
  const block = 64;
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  const chunk = zlib.deflateRawSync(Buffer.concat(Array.from({ length: block }, () => line)), flush);
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let n = 0; n + block <= height; n += block) parts.push(chunk);
  parts.push(zlib.deflateRawSync(Buffer.concat(Array.from({ length: height % block }, () => line))));
  const data = Buffer.concat(Array.from({ length: height }, () => line));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(adler32(data));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.concat([...parts, adler])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; i += 4096) {
    const end = Math.min(data.length, i + 4096);
    for (let j = i; j < end; j++) {
      a += data[j]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * A PNG whose header claims 60000 × 60000 pixels (a decompression bomb) of colour type `colourType` (2 RGB,
 * 0 grey); its image data is 64 zero bytes.
 */
export function bombPng(colourType: 0 | 2 = 2): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60_000, 0);
  ihdr.writeUInt32BE(60_000, 4);
  ihdr[8] = 8;
  ihdr[9] = colourType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.alloc(64)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
