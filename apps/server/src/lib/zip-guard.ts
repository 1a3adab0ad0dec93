import zlib from 'node:zlib';

// Uploaded Office files (.docx, .xlsx) are zip archives, and a zip can be a decompression bomb: a few kilobytes that
// inflate to gigabytes. jszip and mammoth inflate whole entries into memory, and jszip's CRC check inflates every
// entry, so an archive is measured here first, from its own central directory, before either sees it:
//   - the sizes the archive declares are capped (per entry, in total, and the number of entries);
//   - each compressed entry is then inflated with the declared size as the hard output limit, so an archive that
//     lies about its sizes is caught after inflating at most what it declared.
// ADR 0026 records the limits.

export interface ZipLimits {
  /** Most entries in the archive. */
  maxEntries: number;
  /** Most bytes one entry may inflate to. */
  maxEntryBytes: number;
  /** Most bytes all entries together may inflate to. */
  maxTotalBytes: number;
  /** Most bytes one XML part (`.xml`, `.rels`) may inflate to: parsers hold a whole part as a tree. */
  maxXmlBytes: number;
  /** Most elements (start tags) in one XML part: a tree node costs a parser far more than its bytes. */
  maxXmlElements: number;
}

/** Word documents and workbooks: generous for real files (a 20 MB .docx of images inflates to about as much). */
export const OFFICE_ZIP_LIMITS: ZipLimits = {
  maxEntries: 5_000,
  maxEntryBytes: 60 * 1024 * 1024,
  maxTotalBytes: 200 * 1024 * 1024,
  // A 300-page Word document's text is about 8 MB of XML and 150,000 elements; a part of tiny paragraphs that
  // inflates to 58 MB (1.5 million elements per 10 MB) would cost mammoth gigabytes (ADR 0041).
  maxXmlBytes: 16 * 1024 * 1024,
  maxXmlElements: 250_000,
};

const XML_PART = /\.(xml|rels)$/i;
const LT = 0x3c;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;

/** Start tags in an XML text (comments, declarations and end tags not counted). */
function countElements(xml: Buffer): number {
  let count = 0;
  for (let at = xml.indexOf(LT); at >= 0; at = xml.indexOf(LT, at + 1)) {
    const next = xml[at + 1];
    if (next !== SLASH && next !== BANG && next !== QUESTION) count++;
  }
  return count;
}

export type ZipProblem = 'notZip' | 'tooLarge';

export class ZipGuardError extends Error {
  constructor(
    readonly problem: ZipProblem,
    detail: string,
  ) {
    super(detail);
    this.name = 'ZipGuardError';
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

function findEndOfCentralDirectory(data: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the end of the file.
  const stop = Math.max(0, data.length - 22 - 0xffff);
  for (let at = data.length - 22; at >= stop; at--) {
    if (data.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  }
  return -1;
}

/**
 * Checks that a zip archive stays within the limits when inflated; throws ZipGuardError ('notZip' when the archive
 * cannot be read, 'tooLarge' when it would inflate past a limit). Costs at most `maxEntryBytes` of memory at a time.
 */
export function assertZipWithinLimits(bytes: Uint8Array, limits: ZipLimits = OFFICE_ZIP_LIMITS): void {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < 22) throw new ZipGuardError('notZip', 'shorter than an end record');
  const eocd = findEndOfCentralDirectory(data);
  if (eocd < 0) throw new ZipGuardError('notZip', 'no end of central directory');
  const entries = data.readUInt16LE(eocd + 10);
  const directoryOffset = data.readUInt32LE(eocd + 16);
  // ZIP64 archives (markers 0xFFFF / 0xFFFFFFFF) are for files far beyond any upload limit.
  if (entries === 0xffff || directoryOffset === 0xffffffff)
    throw new ZipGuardError('tooLarge', 'zip64 archive');
  if (entries > limits.maxEntries) throw new ZipGuardError('tooLarge', `${entries} entries`);

  let total = 0;
  let at = directoryOffset;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== CENTRAL_SIGNATURE)
      throw new ZipGuardError('notZip', `bad central directory entry ${i}`);
    const method = data.readUInt16LE(at + 10);
    const compressedSize = data.readUInt32LE(at + 20);
    const size = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const localOffset = data.readUInt32LE(at + 42);
    const name = data.toString('latin1', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;

    if (size === 0xffffffff || compressedSize === 0xffffffff)
      throw new ZipGuardError('tooLarge', 'zip64 entry');
    if (size > limits.maxEntryBytes) throw new ZipGuardError('tooLarge', `entry ${i} declares ${size} bytes`);
    const xml = XML_PART.test(name);
    if (xml && size > limits.maxXmlBytes)
      throw new ZipGuardError('tooLarge', `${name} declares ${size} bytes`);
    total += size;
    if (total > limits.maxTotalBytes)
      throw new ZipGuardError('tooLarge', `archive declares over ${total} bytes`);

    if (method !== 8 && !xml) continue; // stored entries are as large as their bytes in the upload
    if (localOffset + 30 > data.length || data.readUInt32LE(localOffset) !== LOCAL_SIGNATURE)
      throw new ZipGuardError('notZip', `bad local header of entry ${i}`);
    const start =
      localOffset + 30 + data.readUInt16LE(localOffset + 26) + data.readUInt16LE(localOffset + 28);
    const compressed = data.subarray(start, Math.min(data.length, start + compressedSize));
    try {
      // One byte over the declared size is enough to know it lied.
      const inflated =
        method === 8
          ? zlib.inflateRawSync(compressed, {
              maxOutputLength: size + 1,
              finishFlush: zlib.constants.Z_SYNC_FLUSH,
            })
          : compressed;
      if (xml && countElements(inflated) > limits.maxXmlElements)
        throw new ZipGuardError('tooLarge', `${name} has over ${limits.maxXmlElements} elements`);
    } catch (error) {
      if (error instanceof ZipGuardError) throw error;
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new ZipGuardError('tooLarge', `entry ${i} inflates past its declared ${size} bytes`);
      throw new ZipGuardError('notZip', `entry ${i}: ${String(error)}`);
    }
  }
}
