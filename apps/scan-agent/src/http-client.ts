import crypto from 'node:crypto';
import http from 'node:http';
import { z } from 'zod';

/*
 * The agent's one client for talking to the host (page uploads, the self-update's manifest and package): node:http
 * (node:https, loaded only for an https host), not fetch. No redirect is ever followed (a 3xx is just a status), and
 * it runs where undici's socket set-up does not — Wine 8 refuses the keep-alive option undici sets before connecting
 * ("connect UNKNOWN"), which is how the Windows build is tested here (ADR 0055). Real Windows accepts both.
 */

/** The host's answer envelope as far as the agent reads it: a message and data, both optional. */
export const HostEnvelopeSchema = z.object({ message: z.unknown(), data: z.unknown() }).partial();

/** The host's message in a refusal's body, or '' when the body is not the host's JSON (a proxy's page). */
export function hostMessage(text: string): string {
  try {
    const body = HostEnvelopeSchema.safeParse(JSON.parse(text));
    return body.success && typeof body.data.message === 'string' ? body.data.message : '';
  } catch {
    return '';
  }
}

export interface HostRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer;
  /** Idle time (no bytes either way) after which the request fails. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Sends one request; answers the response as soon as its head arrives (the caller reads or drains the body). */
export async function hostRequest(url: URL | string, o: HostRequest): Promise<http.IncomingMessage> {
  const u = new URL(url);
  // TLS is mapped only when a host is reached over https: an idle agent never loads it.
  const client = u.protocol === 'https:' ? await import('node:https') : http;
  const headers = { ...o.headers, ...(o.body ? { 'content-length': String(o.body.byteLength) } : {}) };
  return new Promise((resolve, reject) => {
    const req = client.request(u, {
      method: o.method ?? 'GET',
      headers,
      timeout: o.timeoutMs,
      signal: o.signal,
    });
    req.on('response', resolve);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(o.body);
  });
}

/** Reads a response's whole body. */
export async function readBody(res: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of res as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

export type FormPart = string | { data: Buffer; type: string; filename: string };

/** A multipart/form-data body (RFC 7578) of text fields and files, in the order given. */
export function multipartBody(parts: readonly (readonly [name: string, value: FormPart])[]): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----zhzy-${crypto.randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  // Field names and file names are ours (ASCII); quotes and line breaks are escaped as browsers do.
  const quote = (s: string) => s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  for (const [name, value] of parts) {
    const head =
      typeof value === 'string'
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"; filename="${quote(value.filename)}"\r\n` +
          `Content-Type: ${value.type}\r\n\r\n`;
    chunks.push(
      Buffer.from(head, 'utf8'),
      typeof value === 'string' ? Buffer.from(value, 'utf8') : value.data,
    );
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
