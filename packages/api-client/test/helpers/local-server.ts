import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

export interface LocalServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replaces the handler for the next requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** A tiny HTTP server on 127.0.0.1 for answers the real host never gives (null bodies, slow answers…). */
export async function startLocalServer(
  initial: Handler = (_req, res) => {
    res.end();
  },
): Promise<LocalServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `status` with a JSON body (or the raw text when `body` is a string). */
export function reply(res: http.ServerResponse, status: number, body?: unknown): void {
  res.statusCode = status;
  if (body === undefined) {
    res.end();
    return;
  }
  if (typeof body === 'string') {
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end(body);
    return;
  }
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
