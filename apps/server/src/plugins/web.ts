import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@zhzy/contracts';

/** Path families of the API; anything else that asks for HTML is a screen of the web app. */
export const API_PREFIXES = [
  '/oauth/',
  '/system/',
  '/teacher/',
  '/school/',
  '/files/',
  '/agent/',
  '/health',
  '/ready',
];

const isApiPath = (url: string) =>
  API_PREFIXES.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p));

/**
 * Serves the built web app on the same port, with history-mode fallback to index.html;
 * unknown API paths answer 404 with the Chinese message.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const index = webDist ? path.join(webDist, 'index.html') : '';
  const hasWeb = index !== '' && fs.existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      // Files are looked up per request, so a rebuilt web app is served without restarting the host.
      wildcard: true,
      index: false,
      // The build writes .br and .gz beside each asset (ADR 0047): sent as they are, with Content-Encoding and Vary.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        // Caches keep the brotli, gzip and plain copies apart.
        res.setHeader('vary', 'accept-encoding');
        // Vite's hashed assets never change; index.html must always be revalidated.
        res.setHeader(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    // The root is a folder to the static handler; the page for it is index.html like every other screen.
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  } else {
    app.log.warn({ webDist }, 'web app not built: only the API is served');
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    // A missing hashed asset must be a 404, never index.html (the browser would run HTML as a script).
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(url) &&
      !url.startsWith('/assets/');
    if (wantsPage && hasWeb) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ code: 404, message: MESSAGES.notFound, data: null });
  });
}
