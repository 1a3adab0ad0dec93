import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Reads whose answers are validated by an ETag: analysis figures change only when results or context do. */
export const ETAG_PREFIXES = ['/teacher/analysis/'];

/**
 * A strong ETag (hash of the answer) on successful GETs under the prefixes, and 304 with no body when the client
 * already holds it (ADR 0047): an unchanged analysis of up to 1.1 MB costs the school's uplink nothing. Registered
 * before compression, so the tag names the answer, not one of its encodings.
 */
export function registerEtags(app: FastifyInstance, prefixes: readonly string[] = ETAG_PREFIXES): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!prefixes.some((p) => request.url.startsWith(p))) return payload;
    const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    // The browser asks again each time (figures may have changed) and gets 304 while they have not.
    reply.header('cache-control', 'private, no-cache');
    const held = request.headers['if-none-match'];
    if (held && held.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  });
}
