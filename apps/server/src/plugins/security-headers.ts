import type { FastifyInstance } from 'fastify';

// Security headers on every answer of the host: the web app's pages and assets, the API, stored files and errors
// (issue #12, ADR 0027). Set in onRequest so that a route may still narrow one (a material file opened directly
// gets its own sandboxing Content-Security-Policy).

export interface SecurityHeaderOptions {
  /** Seconds of Strict-Transport-Security; 0 sends none. Sent only on requests that arrived over TLS. */
  hstsMaxAge: number;
  /** Extra sources the web app may connect to, besides this host and the scan agent on the teacher's PC. */
  connectSrc: readonly string[];
}

/** Where the scan agent listens: the teacher's own PC, any port (REST and websocket). */
const AGENT_SOURCES = [
  'http://127.0.0.1:*',
  'ws://127.0.0.1:*',
  'http://localhost:*',
  'ws://localhost:*',
] as const;

/** The Content-Security-Policy of the web app and of every API answer. */
export function contentSecurityPolicy(connectSrc: readonly string[] = []): string {
  return [
    "default-src 'self'",
    // Only the bundle's own files: no inline script, no eval.
    "script-src 'self'",
    // KaTeX writes style attributes into the formulas it typesets, and Headless UI positions popovers the same way.
    "style-src 'self' 'unsafe-inline'",
    // Question pictures are stored files or inline rasters; previews of uploads and PDF pages are blob: URLs.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${[...AGENT_SOURCES, ...connectSrc].join(' ')}`,
    // pdf.js runs its worker from the bundle.
    "worker-src 'self' blob:",
    "object-src 'none'",
    "frame-src 'self' blob:",
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Browser features the app never uses, switched off for the page and anything it embeds; the camera is allowed for
 * the app's own pages only (手机拍照 on /scan, issue #26).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=(self)',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const csp = contentSecurityPolicy(options.connectSrc);
  const hsts = options.hstsMaxAge > 0 ? `max-age=${options.hstsMaxAge}; includeSubDomains` : null;
  app.addHook('onRequest', (request, reply, done) => {
    reply
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .header('x-frame-options', 'SAMEORIGIN')
      .header('permissions-policy', PERMISSIONS_POLICY)
      .header('cross-origin-opener-policy', 'same-origin');
    // Over plain HTTP a browser ignores HSTS, and a host reached on a LAN address must not pin itself to TLS.
    if (hsts && request.protocol === 'https') reply.header('strict-transport-security', hsts);
    done();
  });
}
