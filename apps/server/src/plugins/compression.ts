import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them costs more CPU than the bytes it saves. */
export const COMPRESS_THRESHOLD_BYTES = 4096;
/** Brotli's quality and gzip's level on the fly (also for the answers kept compressed, plugins/etag.ts). */
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 6;

/**
 * Compresses answers above the threshold (an analysis answer is up to 1.1 MB of JSON; school uplinks are a few
 * Mbit/s shared by a building), brotli when asked for, gzip otherwise. Brotli runs at quality 4 on the fly (its
 * default 11 costs tens of milliseconds per 100 KB); built web assets are compressed once at build time and served
 * as they are by the static handler (ADR 0047).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlibOptions: { level: GZIP_LEVEL },
  });
}
