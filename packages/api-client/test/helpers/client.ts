import { vi } from 'vitest';
import {
  createApiClient,
  createMemoryBacking,
  createStorage,
  type ApiClientOptions,
  type NotifyKind,
} from '../../src/index.js';

export interface SentRequest {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

/** A mutable clock shared by the client (and, in real-host tests, by the host). */
export interface TestClock {
  ms: number;
  now: () => number;
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  const clock: TestClock = {
    ms: start,
    now: () => clock.ms,
    advance(ms) {
      clock.ms += ms;
    },
  };
  return clock;
}

/** A client whose toasts, sign-outs, progress events and outgoing requests are recorded. */
export function recordingClient(baseUrl: string, overrides: Partial<ApiClientOptions> = {}) {
  const backing = createMemoryBacking();
  const storage = createStorage(backing);
  const notes: { message: string; kind: NotifyKind }[] = [];
  const progress: boolean[] = [];
  const sent: SentRequest[] = [];
  const onSignedOut = vi.fn();
  const innerFetch = overrides.fetch ?? globalThis.fetch;
  const recordingFetch: typeof fetch = (input, init) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      headers: new Headers(init?.headers),
      body: init?.body,
    });
    return innerFetch(input, init);
  };
  const client = createApiClient({
    baseUrl,
    storage,
    notify: (message, kind) => notes.push({ message, kind }),
    onProgress: (active) => progress.push(active),
    onSignedOut,
    validateResponses: true,
    ...overrides,
    fetch: recordingFetch,
  });
  return {
    client,
    storage,
    backing,
    notes,
    progress,
    sent,
    onSignedOut,
    /** How many token calls (password or refresh grants) went out. */
    tokenCalls: () => sent.filter((r) => new URL(r.url).pathname === '/oauth/oauth/token').length,
  };
}
