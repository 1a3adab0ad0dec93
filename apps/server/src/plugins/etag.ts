import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BROTLI_QUALITY, COMPRESS_THRESHOLD_BYTES, GZIP_LEVEL } from './compression.js';

/** Reads whose answers are validated by an ETag: analysis figures change only when results or context do. */
export const ETAG_PREFIXES = ['/teacher/analysis/'];

/** Answers at least this long (characters) are kept with their tag and encodings. */
export const ANSWER_CACHE_MIN_CHARS = 16 * 1024;
/** At most this many answers, and about this many bytes, are kept (least recently sent go first). */
const ANSWER_CACHE_MAX = 256;
const ANSWER_CACHE_MAX_BYTES = 64 * 1024 * 1024;

type Encoding = 'br' | 'gzip';

interface Kept {
  etag?: string;
  br?: Buffer;
  gzip?: Buffer;
  bytes: number;
}

/**
 * The tag and the compressed encodings of large answers, kept by the answer's text (ADR 0078): 200 teachers reading
 * the same analysis of a test (up to 1.1 MB of JSON) each had it hashed and brotli-compressed again. Keyed by the
 * text itself, so a kept entry can only be for exactly that answer — a changed analysis is another text, with
 * another tag. (V8 hashes a string this long by its length, and compares the text only with kept answers of the
 * same length: the lookup of the same string kept by a view cache costs a pointer comparison.)
 */
export class AnswerCache {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;
  hits = 0;

  private entry(text: string): Kept {
    let kept = this.kept.get(text);
    if (kept) {
      this.hits += 1;
      this.kept.delete(text);
      this.kept.set(text, kept);
      return kept;
    }
    kept = { bytes: text.length * 2 };
    this.kept.set(text, kept);
    this.bytes += kept.bytes;
    while (this.kept.size > ANSWER_CACHE_MAX || this.bytes > ANSWER_CACHE_MAX_BYTES) {
      const [oldest, gone] = this.kept.entries().next().value!;
      this.kept.delete(oldest);
      this.bytes -= gone.bytes;
    }
    return kept;
  }

  etag(text: string): string {
    const kept = this.entry(text);
    kept.etag ??= strongEtag(text);
    return kept.etag;
  }

  encoded(text: string, encoding: Encoding): Buffer {
    const kept = this.entry(text);
    let bytes = kept[encoding];
    if (!bytes) {
      bytes = encode(text, encoding);
      kept[encoding] = bytes;
      kept.bytes += bytes.length;
      this.bytes += bytes.length;
    }
    return bytes;
  }
}

const strongEtag = (payload: string | Buffer) =>
  `"${createHash('sha1').update(payload).digest('base64url')}"`;

function encode(text: string, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
    : zlib.gzipSync(text, { level: GZIP_LEVEL });
}

/** The encoding to send in, as the compression plugin would choose it: brotli, then gzip, unless refused (q=0). */
export function acceptedEncoding(request: FastifyRequest): Encoding | null {
  if (request.headers['x-no-compression'] !== undefined) return null;
  const header = request.headers['accept-encoding'];
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) q.set(name.trim(), weight === undefined ? 1 : Number(weight));
  }
  const takes = (e: string) => (q.get(e) ?? (q.has('*') ? q.get('*')! : 0)) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return null;
}

const isJson = (reply: FastifyReply) => String(reply.getHeader('content-type') ?? '').includes('json');

/**
 * A strong ETag (hash of the answer) on successful GETs under the prefixes, and 304 with no body when the client
 * already holds it (ADR 0047): an unchanged analysis of up to 1.1 MB costs the school's uplink nothing. Registered
 * before compression, so the tag names the answer, not one of its encodings. Large JSON answers are sent in the
 * encoding the client takes from the answer cache (compressed once per answer, ADR 0078); the compression plugin
 * then leaves them as they are.
 */
export function registerEtags(
  app: FastifyInstance,
  prefixes: readonly string[] = ETAG_PREFIXES,
  cache: AnswerCache = new AnswerCache(),
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const keep = typeof payload === 'string' && payload.length >= ANSWER_CACHE_MIN_CHARS && isJson(reply);
    if (prefixes.some((p) => request.url.startsWith(p))) {
      const etag = keep ? cache.etag(payload) : strongEtag(payload);
      reply.header('etag', etag);
      // The browser asks again each time (figures may have changed) and gets 304 while they have not.
      reply.header('cache-control', 'private, no-cache');
      const held = request.headers['if-none-match'];
      if (held && held.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
        reply.code(304);
        return '';
      }
    }
    if (!keep || payload.length < COMPRESS_THRESHOLD_BYTES) return payload;
    const encoding = acceptedEncoding(request);
    if (!encoding) return payload;
    const bytes = cache.encoded(payload, encoding);
    const vary = String(reply.getHeader('vary') ?? '');
    if (!/accept-encoding/i.test(vary))
      reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    reply.header('content-encoding', encoding);
    reply.header('content-length', bytes.length);
    return bytes;
  });
}
