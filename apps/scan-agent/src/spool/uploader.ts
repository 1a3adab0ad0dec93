import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  SCAN_IDEMPOTENCY_HEADER,
  ScanUploadErrorDataSchema,
  TRANSFER_TIMEOUT_MS,
  UploadedScanPageSchema,
  buildPath,
  envelope,
  uploadScanPageCall,
  type AgentPage,
} from '@zhzy/contracts';
import { HostEnvelopeSchema, hostRequest, multipartBody, readBody } from '../http-client.js';
import { T } from '../i18n/zh-CN.js';
import type { BatchJournal } from './spool.js';

export interface UploadEvent {
  page: AgentPage;
  duplicate: boolean;
  retryInMs: number | null;
}

export interface UploaderOptions {
  /** First wait after a failed attempt; doubles up to `maxDelayMs`, with jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  /**
   * Attempts at a page the host refused with a reason that may pass later (its bytes were damaged on the way) before
   * the page is set aside as failed with a notice; it stays in the spool and the teacher can send it again.
   */
  maxRefusedAttempts?: number;
  onEvent?: (event: UploadEvent) => void;
  log?: { warn: (obj: object, msg: string) => void };
}

const UploadAnswer = envelope(UploadedScanPageSchema);
const PERMANENT = new Set([400, 403, 404, 409, 413, 415, 422]);
/** Default cap on attempts at a page the host keeps refusing as damaged. */
export const MAX_REFUSED_ATTEMPTS = 5;

type Outcome =
  | { kind: 'done'; duplicate: boolean }
  | { kind: 'failed'; message: string }
  /** Network trouble, 5xx, an offline host: waited out. */
  | { kind: 'retry'; reason: string }
  /** The host refused the page but says sending it again may pass (damaged on the way): capped. */
  | { kind: 'refused'; reason: string };

/**
 * Uploads spooled pages to the host, one at a time in order, idempotent by content hash: a page whose upload
 * reached the host but whose answer was lost is simply sent again and the host answers the first page. Network
 * trouble and 5xx wait with exponential backoff (an offline host is waited out, without a cap); a refusal the host
 * says may pass later (a hash mismatch) is tried again with the same backoff, but only `maxRefusedAttempts` times
 * before the page is marked failed; any other refusal (4xx) marks the page failed with the host's message, and an
 * expired upload token waits for a new one. A failed page stays in the spool until the teacher sends it again.
 */
export class Uploader {
  private readonly queue: { batch: BatchJournal; seq: number }[] = [];
  private readonly queued = new Set<string>();
  private wake: (() => void) | undefined;
  private running = false;
  private stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: UploaderOptions = {}) {}

  enqueue(batch: BatchJournal, seq: number): void {
    const key = `${batch.id}:${seq}`;
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push({ batch, seq });
    this.wake?.();
  }

  /** Queues every pending page of a batch. */
  enqueueBatch(batch: BatchJournal): void {
    for (const seq of batch.pending()) this.enqueue(batch, seq);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = new AbortController();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    this.wake?.();
    await this.loop;
  }

  /** Resolves when nothing is queued (tests, `scan-agent status`). */
  get size(): number {
    return this.queue.length;
  }

  private async run(): Promise<void> {
    let attempt = 0;
    let refused = 0;
    while (this.running) {
      const next = this.queue[0];
      if (!next) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      const { batch, seq } = next;
      const page = batch.page(seq);
      if (!page || page.upload !== 'pending' || !batch.header.host) {
        this.dequeue();
        continue;
      }
      let outcome: Outcome = await this.send(batch, seq).catch((error: unknown) => ({
        kind: 'retry' as const,
        reason: String(error),
      }));
      if (!this.running) return;
      if (outcome.kind === 'refused') {
        refused++;
        const cap = this.options.maxRefusedAttempts ?? MAX_REFUSED_ATTEMPTS;
        if (refused >= cap) {
          this.options.log?.warn(
            { batch: batch.id, seq, attempts: refused, reason: outcome.reason },
            'upload refused too often; page kept in the spool',
          );
          outcome = { kind: 'failed', message: T.uploadDamaged(refused) };
        }
      }
      if (outcome.kind === 'done') {
        attempt = 0;
        refused = 0;
        this.dequeue();
        this.options.onEvent?.({ page: batch.page(seq)!, duplicate: outcome.duplicate, retryInMs: null });
        continue;
      }
      if (outcome.kind === 'failed') {
        attempt = 0;
        refused = 0;
        const failed = {
          t: 'uploadFailed' as const,
          seq,
          message: outcome.message,
          at: new Date().toISOString(),
        };
        // A full disk must not stop the uploads: the failure holds in memory (after a restart it is tried again).
        await batch.record(failed).catch(() => batch.apply(failed));
        this.dequeue();
        this.options.onEvent?.({ page: batch.page(seq)!, duplicate: false, retryInMs: null });
        continue;
      }
      attempt++;
      const base = this.options.baseDelayMs ?? 1_000;
      const delay = Math.round(
        Math.min(this.options.maxDelayMs ?? 60_000, base * 2 ** Math.min(attempt - 1, 16)) *
          (0.75 + Math.random() * 0.5),
      );
      this.options.log?.warn(
        { batch: batch.id, seq, attempt, reason: outcome.reason, delay },
        'upload failed; will retry',
      );
      this.options.onEvent?.({
        page: {
          ...batch.page(seq)!,
          uploadError: outcome.kind === 'refused' ? T.uploadDamagedRetrying : T.uploadOffline,
        },
        duplicate: false,
        retryInMs: delay,
      });
      await sleep(delay, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  private dequeue(): void {
    const head = this.queue.shift();
    if (head) this.queued.delete(`${head.batch.id}:${head.seq}`);
  }

  private async send(batch: BatchJournal, seq: number): Promise<Outcome> {
    const host = batch.header.host!;
    const page = batch.page(seq)!;
    const data = await fs.readFile(batch.pagePath(seq));
    const { body, contentType } = multipartBody([
      ['seq', String(seq)],
      ['name', page.name],
      ['sha256', page.sha256],
      ['dpi', String(page.dpi)],
      ['blank', String(page.blank)],
      ...(page.side ? ([['side', page.side]] as const) : []),
      // A rescan takes the place of the page at `seq` on the host too.
      ...(page.rescanned ? ([['replaces', 'true']] as const) : []),
      ['file', { data, type: 'image/jpeg', filename: page.name }],
    ]);
    const url = new URL(
      buildPath(uploadScanPageCall.path, { id: host.batchId }),
      `${host.baseUrl.replace(/\/+$/, '')}/`,
    );
    const timeoutMs = this.options.timeoutMs ?? TRANSFER_TIMEOUT_MS;
    let status: number;
    let text: string;
    try {
      // The host client (node:http), as the self-update's download: it also runs under Wine (ADR 0055).
      // A redirect is not followed: its status is answered like any other.
      const res = await hostRequest(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${host.uploadToken}`,
          [SCAN_IDEMPOTENCY_HEADER]: page.sha256,
          'content-type': contentType,
        },
        body,
        timeoutMs,
        signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(timeoutMs)]),
      });
      status = res.statusCode ?? 0;
      text = await readBody(res)
        .then((b) => b.toString('utf8'))
        .catch(() => '');
    } catch (error) {
      return { kind: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    if (status === 200) {
      const parsed = UploadAnswer.safeParse(JSON.parse(text || 'null'));
      if (!parsed.success) return { kind: 'retry', reason: 'unexpected answer' };
      await batch.record({
        t: 'uploaded',
        seq,
        hostPageId: parsed.data.data.id,
        at: new Date().toISOString(),
      });
      return { kind: 'done', duplicate: parsed.data.data.duplicate };
    }
    let message = '';
    let reason: ReturnType<typeof ScanUploadErrorDataSchema.safeParse> | undefined;
    try {
      const body = HostEnvelopeSchema.safeParse(JSON.parse(text));
      if (body.success) {
        if (typeof body.data.message === 'string') message = body.data.message;
        reason = ScanUploadErrorDataSchema.safeParse(body.data.data);
      }
    } catch {
      // Not JSON: a proxy's error page.
    }
    // The host's machine-readable reason decides: send again later, wait for a new token, or report it.
    if (reason?.success) {
      if (reason.data.retry === 'later')
        return { kind: 'refused', reason: `${reason.data.uploadError}: ${message}` };
      if (reason.data.retry === 'newToken') return { kind: 'failed', message: T.uploadTokenExpired };
      return { kind: 'failed', message: T.uploadRefused(message || reason.data.uploadError) };
    }
    if (status === 401) return { kind: 'failed', message: T.uploadTokenExpired };
    if (PERMANENT.has(status))
      return { kind: 'failed', message: T.uploadRefused(message || `HTTP ${status}`) };
    return { kind: 'retry', reason: `HTTP ${status} ${message}` };
  }
}
