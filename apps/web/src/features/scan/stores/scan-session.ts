import {
  AGENT_PROTOCOL_VERSION,
  AGENT_WS_CLOSE,
  MESSAGES,
  PairingConfirmSchema,
  SCAN_MESSAGES,
  WsServerMessageSchema,
  agentCalls,
  type AgentBatch,
  type AgentCallDef,
  type AgentHealth,
  type AgentPage,
  type CreatedScanBatch,
  type CreateScanBatch,
  type ScanNotice,
  type VirtualScanInput,
  type WsServerMessage,
} from '@zhzy/contracts';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import { AgentCallError, createAgentClient, type AgentClient } from '../../../lib/agent-client';
import type { AgentEndpoint } from '../api/agent-endpoint';
import {
  readScannerState,
  selectableSource,
  setScannerSources,
  type ScannerSetting,
} from './scanner-settings';

/*
 * The /scan screen's connection to the scan agent, outside React so it can be driven and tested with a fake socket:
 * health → pairing → websocket (auth first) → hello (sources, batches) → scan requests, live pages, uploads and
 * notices. The screen subscribes to its state with useSyncExternalStore.
 */

/**
 * idle: not loaded yet (it loads on the first scan request) · checking: GET /health · unreachable: no agent ·
 * outdated: another protocol version · unpaired: no valid token · connecting: websocket opening · ready: hello seen.
 */
export type AgentStatus =
  'idle' | 'checking' | 'unreachable' | 'outdated' | 'unpaired' | 'connecting' | 'ready';

/** A page in the viewer: the agent's page, its thumbnail (a blob URL) and the next upload retry. */
export interface ViewPage extends AgentPage {
  thumbUrl: string | null;
  /** Epoch ms of the next upload attempt after a failure, null when none is planned. */
  retryAt: number | null;
  duplicate: boolean;
}

export interface PairingState {
  /** start: ask the agent for a code · code: type the code the agent shows. */
  step: 'start' | 'code';
  busy: boolean;
  error: string | null;
  expiresAt: string | null;
}

export interface BatchNotice {
  batchId: string;
  notice: ScanNotice;
}

export interface ScanSessionState {
  status: AgentStatus;
  /** The connection was lost and is being re-established. */
  reconnecting: boolean;
  agent: AgentHealth | null;
  /** The agent's protocol version when it is not ours (null: unknown). */
  outdatedVersion: number | null;
  pairingOpen: boolean;
  pairing: PairingState;
  /** This site's batches (newest first). */
  batches: AgentBatch[];
  currentBatchId: string | null;
  pages: Record<string, ViewPage[]>;
  /** Every notice of this site's batches, newest first. */
  notices: BatchNotice[];
  device: { state: 'idle' | 'scanning' | 'error'; message: string | null } | null;
  /** SPEC §4: set when a scan is requested, cleared after each page arrives. */
  loading: boolean;
  /** A scan was requested and starts as soon as the agent is ready. */
  scanRequested: boolean;
  starting: boolean;
  action: 'pause' | 'resume' | 'finish' | 'retry' | 'rescan' | null;
  /** Goes up each time the screen should open the settings dialog (请重新选择扫描仪). */
  reselectTick: number;
  /** The scanner list is being looked up again. */
  refreshing: boolean;
  /** The agent's self-update started from this page (ADR 0055): running, or failed with its Chinese message. */
  agentUpdate: { phase: 'updating' | 'failed'; message: string | null } | null;
}

/** The part of a browser WebSocket the session uses (tests give a fake). */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface ScanSessionDeps {
  endpoint: AgentEndpoint;
  /** The page's origin: the host the agent uploads to, and the filter for this site's batches. */
  origin: string;
  tokens: { get(): string | null; set(token: string): void; clear(): void };
  host: {
    createBatch(input: CreateScanBatch): Promise<CreatedScanBatch>;
    /** The card and students of a homework, for the virtual scanner to fill (absent: the demo card only). */
    virtualFeed?(
      homeworkId: string,
    ): Promise<Required<Pick<VirtualScanInput, 'layout' | 'students' | 'key' | 'difficulty'>>>;
  };
  notify: { error(message: string): void; success(message: string): void; info(message: string): void };
  client?: AgentClient;
  fetch?: typeof fetch;
  socket?: (url: string) => SocketLike;
  objectUrl?: { create(blob: Blob): string; revoke(url: string): void };
  now?: () => number;
}

const freshPairing = (): PairingState => ({ step: 'start', busy: false, error: null, expiresAt: null });

const initialState = (): ScanSessionState => ({
  status: 'idle',
  reconnecting: false,
  agent: null,
  agentUpdate: null,
  outdatedVersion: null,
  pairingOpen: false,
  pairing: freshPairing(),
  batches: [],
  currentBatchId: null,
  pages: {},
  notices: [],
  device: null,
  loading: false,
  scanRequested: false,
  starting: false,
  action: null,
  reselectTick: 0,
  refreshing: false,
});

const MAX_NOTICES = 50;
const THUMB_CONCURRENCY = 3;
const RECONNECT_MAX_MS = 10_000;

function sameOrigin(a: string | null, b: string): boolean {
  if (!a) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

export class ScanSession {
  private state: ScanSessionState = initialState();
  private readonly listeners = new Set<() => void>();
  private readonly client: AgentClient;
  private readonly socketFactory: (url: string) => SocketLike;
  private readonly objectUrl: { create(blob: Blob): string; revoke(url: string): void };
  private readonly now: () => number;
  private ws: SocketLike | null = null;
  private active = false;
  /** Goes up when the screen goes away: answers of an older generation are dropped. */
  private generation = 0;
  private pending: { schoolYearId: string | null } | null = null;
  private schoolYearId: string | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectAttempt = 0;
  private readonly urls = new Set<string>();
  private readonly thumbQueue: { batchId: string; seq: number }[] = [];
  private thumbActive = 0;
  private readonly renewing = new Set<string>();
  private readonly loaded = new Set<string>();
  /** The homework the screen was opened for: its scans are bound to it and only its batches are shown. */
  private homeworkId: string | null = null;
  /** The host batches bound to that homework (null: the screen is not bound, every batch of this site is shown). */
  private scope: Set<string> | null = null;

  constructor(private readonly deps: ScanSessionDeps) {
    this.client =
      deps.client ??
      createAgentClient({
        baseUrl: deps.endpoint.baseUrl,
        token: () => deps.tokens.get(),
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      });
    this.socketFactory = deps.socket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.objectUrl = deps.objectUrl ?? {
      create: (blob) => URL.createObjectURL(blob),
      revoke: (url) => URL.revokeObjectURL(url),
    };
    this.now = deps.now ?? Date.now;
  }

  // ----------------------------------------------------------------------------------------------------------
  // Store plumbing

  getState = (): ScanSessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<ScanSessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of [...this.listeners]) l();
  }

  /** The screen is shown: a page that paired before reconnects at once, so a reload rebuilds its batches. */
  activate(): void {
    if (this.active) return;
    this.active = true;
    if (this.deps.tokens.get() && (this.state.status === 'idle' || this.state.status === 'unreachable'))
      void this.check();
  }

  /** The screen is gone: close the socket, stop timers, free the thumbnails. */
  deactivate(): void {
    this.active = false;
    this.generation++;
    this.clearReconnect();
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
    for (const url of this.urls) this.objectUrl.revoke(url);
    this.urls.clear();
    this.thumbQueue.length = 0;
    this.loaded.clear();
    this.pending = null;
    this.state = initialState();
  }

  /** Keeps the school year the screen shows (a renewed upload token's host batch goes there too). */
  setSchoolYear(id: string | null): void {
    this.schoolYearId = id;
  }

  // ----------------------------------------------------------------------------------------------------------
  // Loading the agent

  /** Loads the agent unless it is already loading or loaded (the settings dialog needs the sources). */
  async ensureAgent(): Promise<void> {
    const st = this.state.status;
    if (st === 'ready' || st === 'checking' || st === 'connecting') return;
    if (st === 'unpaired') {
      this.set({ pairingOpen: true });
      return;
    }
    await this.check();
  }

  /** Looks for the agent again now (the 重新检测 button). */
  async recheck(): Promise<void> {
    this.clearReconnect();
    if (this.state.status === 'checking' || this.state.status === 'connecting') return;
    await this.check();
  }

  private async check(): Promise<void> {
    const generation = this.generation;
    this.set({ status: 'checking' });
    let health: AgentHealth;
    try {
      health = await this.client.call(agentCalls.health);
    } catch (error) {
      if (!this.active || generation !== this.generation) return;
      if (error instanceof AgentCallError && error.status === 200) {
        // It answers, but not in our protocol: an agent from another era.
        this.stopPending();
        this.set({ status: 'outdated', outdatedVersion: null });
        return;
      }
      this.stopPending();
      this.set({ status: 'unreachable' });
      if (this.state.reconnecting) this.scheduleReconnect();
      return;
    }
    if (!this.active || generation !== this.generation) return;
    if (health.protocolVersion !== AGENT_PROTOCOL_VERSION) {
      this.stopPending();
      this.set({
        status: 'outdated',
        outdatedVersion: health.protocolVersion,
        agent: health,
        reconnecting: false,
      });
      return;
    }
    const token = this.deps.tokens.get();
    if (!token || health.authenticated === false) {
      if (token) this.deps.tokens.clear();
      this.set({
        status: 'unpaired',
        agent: health,
        reconnecting: false,
        pairing: freshPairing(),
        // Asking the teacher to pair only when they asked for the agent (not on a quiet reconnect).
        pairingOpen: this.state.scanRequested || !this.state.reconnecting,
      });
      return;
    }
    this.set({ agent: health });
    this.openSocket(token);
  }

  /** `GET /scanners?refresh=1`: looks for devices again (a scanner switched on after the agent started). */
  async refreshSources(): Promise<void> {
    if (this.state.status !== 'ready') {
      await this.ensureAgent();
      return;
    }
    this.set({ refreshing: true });
    try {
      const list = await this.client.call(agentCalls.scanners, { query: { refresh: '1' } });
      setScannerSources(list.sources);
    } catch (error) {
      this.agentFailed(error);
    } finally {
      this.set({ refreshing: false });
    }
  }

  private stopPending(): void {
    this.pending = null;
    this.set({ scanRequested: false, loading: false });
  }

  private openSocket(token: string): void {
    this.set({ status: 'connecting' });
    let ws: SocketLike;
    try {
      ws = this.socketFactory(this.deps.endpoint.wsUrl);
    } catch {
      this.set({ status: 'unreachable' });
      return;
    }
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ v: AGENT_PROTOCOL_VERSION, type: 'auth', token }));
    ws.onmessage = (event) => {
      if (this.ws === ws) this.receive(event.data);
    };
    ws.onerror = () => undefined;
    ws.onclose = (event) => this.closed(ws, event.code);
  }

  private closed(ws: SocketLike, code: number): void {
    if (this.ws !== ws) return;
    this.ws = null;
    if (!this.active || this.state.status === 'outdated') return;
    if (code === AGENT_WS_CLOSE.unauthorized) {
      this.deps.tokens.clear();
      this.set({ status: 'unpaired', pairing: freshPairing(), pairingOpen: true });
      return;
    }
    // The agent restarted or the connection dropped: reconnect with backoff; hello rebuilds the batches.
    this.set({ status: 'connecting', reconnecting: true });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.clearReconnect();
    if (!this.active) return;
    const delay = Math.min(RECONNECT_MAX_MS, 1_000 * 2 ** this.reconnectAttempt);
    this.reconnectAttempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.active) void this.check();
    }, delay);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  // ----------------------------------------------------------------------------------------------------------
  // Websocket messages

  private receive(data: unknown): void {
    let json: unknown;
    try {
      json = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return;
    }
    const parsed = WsServerMessageSchema.safeParse(json);
    if (!parsed.success) {
      const v = (json as { v?: unknown } | null)?.v;
      if (typeof v === 'number' && v !== AGENT_PROTOCOL_VERSION) {
        this.set({ status: 'outdated', outdatedVersion: v });
        this.ws?.close(1000);
      }
      return;
    }
    this.handle(parsed.data);
  }

  private mine(batch: AgentBatch): boolean {
    return sameOrigin(batch.hostBaseUrl, this.deps.origin);
  }

  /** Shown on this screen: every batch, or, bound to a homework, the batches whose host batch is the homework's. */
  private inScope(batch: AgentBatch): boolean {
    return this.scope === null || (batch.hostBatchId !== null && this.scope.has(batch.hostBatchId));
  }

  /**
   * Binds the screen to a homework (its 「扫描」 button): new scans are created for it, and only the agent batches
   * uploading to its host batches are shown; a paused batch of another homework is never offered.
   */
  setHomework(homeworkId: string | null, hostBatchIds: readonly string[] | null): void {
    this.homeworkId = homeworkId;
    this.scope = homeworkId ? new Set([...(this.scope ?? []), ...(hostBatchIds ?? [])]) : null;
    const current = this.state.batches.find((b) => b.id === this.state.currentBatchId);
    if (current && this.inScope(current)) return;
    const next =
      this.state.batches.find((b) => this.inScope(b) && b.state !== 'done') ??
      this.state.batches.find((b) => this.inScope(b));
    if ((next?.id ?? null) === this.state.currentBatchId) return;
    this.set({ currentBatchId: next?.id ?? null });
    if (next) void this.loadBatch(next.id);
  }

  private tracked(batchId: string): boolean {
    return this.state.batches.some((b) => b.id === batchId);
  }

  private handle(message: WsServerMessage): void {
    switch (message.type) {
      case 'hello': {
        this.reconnectAttempt = 0;
        setScannerSources(message.sources);
        const ours = message.batches.filter((b) => this.mine(b));
        const shown = ours.filter((b) => this.inScope(b));
        const current =
          shown.find((b) => b.id === this.state.currentBatchId) ??
          shown.find((b) => b.state !== 'done') ??
          shown[0];
        const notices = [...this.state.notices];
        for (const b of ours) {
          if (b.lastNotice && !notices.some((n) => n.batchId === b.id && n.notice.at === b.lastNotice!.at))
            notices.push({ batchId: b.id, notice: b.lastNotice });
        }
        notices.sort((a, b) => b.notice.at.localeCompare(a.notice.at));
        this.set({
          status: 'ready',
          reconnecting: false,
          agent: message.agent,
          pairingOpen: false,
          batches: ours,
          currentBatchId: current?.id ?? null,
          notices: notices.slice(0, MAX_NOTICES),
        });
        if (current) void this.loadBatch(current.id);
        if (this.pending) void this.begin();
        return;
      }
      case 'sources':
        setScannerSources(message.sources);
        return;
      case 'batch': {
        if (!this.mine(message.batch) && !this.tracked(message.batch.id)) return;
        this.upsertBatch(message.batch);
        if (!this.state.currentBatchId && message.batch.state !== 'done' && this.inScope(message.batch))
          this.set({ currentBatchId: message.batch.id });
        return;
      }
      case 'page': {
        if (!this.tracked(message.page.batchId)) return;
        this.upsertPage(message.page.batchId, message.page.seq, { ...message.page }, true);
        // SPEC §4: after each transfer the loading flag clears.
        this.set({ loading: false });
        this.queueThumb(message.page.batchId, message.page.seq);
        return;
      }
      case 'upload': {
        const { page, retryInMs, duplicate } = message;
        if (!this.tracked(page.batchId)) return;
        this.upsertPage(page.batchId, page.seq, {
          ...page,
          duplicate,
          retryAt: retryInMs === null ? null : this.now() + retryInMs,
        });
        if (page.upload === 'failed' && page.uploadError === SCAN_MESSAGES.uploadTokenExpired)
          void this.renewHost(page.batchId);
        return;
      }
      case 'notice': {
        if (!this.tracked(message.batchId)) return;
        this.set({
          // The agent holds it as the batch's current notice until the batch scans again.
          batches: this.state.batches.map((b) =>
            b.id === message.batchId ? { ...b, lastNotice: message.notice } : b,
          ),
          notices: [{ batchId: message.batchId, notice: message.notice }, ...this.state.notices].slice(
            0,
            MAX_NOTICES,
          ),
          ...(message.batchId === this.state.currentBatchId ? { loading: false } : {}),
        });
        return;
      }
      case 'device':
        this.set({ device: { state: message.state, message: message.message } });
        return;
      case 'error':
        this.deps.notify.error(message.message);
        return;
      case 'pong':
        return;
    }
  }

  private upsertBatch(batch: AgentBatch): void {
    const others = this.state.batches.filter((b) => b.id !== batch.id);
    const batches = [batch, ...others].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    this.set({
      batches,
      ...(batch.id === this.state.currentBatchId && batch.state !== 'scanning' ? { loading: false } : {}),
    });
  }

  private upsertPage(
    batchId: string,
    seq: number,
    patch: Partial<ViewPage> & AgentPage,
    isNew = false,
  ): void {
    const list = this.state.pages[batchId] ?? [];
    const at = list.findIndex((p) => p.seq === seq);
    let next: ViewPage[];
    if (isNew && at >= 0 && list[at]!.sha256 !== patch.sha256) {
      // A rescan took this page's place: a new image, so a new thumbnail.
      next = [...list];
      next[at] = { thumbUrl: null, retryAt: null, duplicate: false, ...patch };
      this.set({ pages: { ...this.state.pages, [batchId]: next } });
      return;
    }
    if (at >= 0) {
      next = [...list];
      const before = next[at]!;
      next[at] = { ...before, ...patch, thumbUrl: patch.thumbUrl ?? before.thumbUrl };
    } else {
      const page: ViewPage = { thumbUrl: null, retryAt: null, duplicate: false, ...patch };
      next = [...list, page].sort((a, b) => a.seq - b.seq);
    }
    if (isNew && at >= 0) return;
    this.set({ pages: { ...this.state.pages, [batchId]: next } });
  }

  private setThumb(batchId: string, seq: number, url: string): void {
    const list = this.state.pages[batchId];
    if (!list) return;
    this.set({
      pages: {
        ...this.state.pages,
        [batchId]: list.map((p) => (p.seq === seq ? { ...p, thumbUrl: url } : p)),
      },
    });
  }

  /** Rebuilds a batch after a reload: `GET /scans/:id` gives every page the agent holds. */
  private async loadBatch(batchId: string): Promise<void> {
    if (this.loaded.has(batchId)) return;
    this.loaded.add(batchId);
    try {
      const detail = await this.client.call(agentCalls.batch, { params: { id: batchId } });
      if (!this.active) return;
      this.upsertBatch(detail.batch);
      const known = new Map((this.state.pages[batchId] ?? []).map((p) => [p.seq, p]));
      const pages: ViewPage[] = detail.pages.map((p) => ({
        thumbUrl: null,
        retryAt: null,
        duplicate: false,
        ...known.get(p.seq),
        ...p,
      }));
      this.set({ pages: { ...this.state.pages, [batchId]: pages } });
      for (const p of pages) if (!p.thumbUrl) this.queueThumb(batchId, p.seq);
    } catch {
      this.loaded.delete(batchId);
    }
  }

  private queueThumb(batchId: string, seq: number): void {
    this.thumbQueue.push({ batchId, seq });
    this.pumpThumbs();
  }

  private pumpThumbs(): void {
    while (this.thumbActive < THUMB_CONCURRENCY && this.thumbQueue.length > 0) {
      const job = this.thumbQueue.shift()!;
      this.thumbActive++;
      this.client
        .pageImage(job.batchId, job.seq, true)
        .then((blob) => {
          if (!this.active) return;
          const url = this.objectUrl.create(blob);
          this.urls.add(url);
          this.setThumb(job.batchId, job.seq, url);
        })
        .catch(() => undefined)
        .finally(() => {
          this.thumbActive--;
          this.pumpThumbs();
        });
    }
  }

  // ----------------------------------------------------------------------------------------------------------
  // Pairing

  openPairing(): void {
    this.set({ pairingOpen: true });
  }

  closePairing(): void {
    this.set({ pairingOpen: false });
    if (this.state.status === 'unpaired') this.stopPending();
  }

  /** `POST /pairing/request`: the agent shows a fresh 6-digit code. */
  async requestPairing(): Promise<void> {
    this.set({ pairing: { ...this.state.pairing, busy: true, error: null } });
    try {
      const answer = await this.client.call(agentCalls.pairingRequest);
      this.set({ pairing: { step: 'code', busy: false, error: null, expiresAt: answer.expiresAt } });
    } catch (error) {
      this.set({ pairing: { ...this.state.pairing, busy: false, error: this.messageOf(error) } });
    }
  }

  /** `POST /pairing/confirm`: the token is stored for this agent and the websocket opens. */
  async confirmPairing(code: string): Promise<void> {
    const parsed = PairingConfirmSchema.safeParse({ code });
    if (!parsed.success) {
      this.set({ pairing: { ...this.state.pairing, error: parsed.error.issues[0]?.message ?? null } });
      return;
    }
    this.set({ pairing: { ...this.state.pairing, busy: true, error: null } });
    try {
      const answer = await this.client.call(agentCalls.pairingConfirm, { body: parsed.data });
      this.deps.tokens.set(answer.token);
      this.set({ pairing: freshPairing(), pairingOpen: false });
      this.deps.notify.success(s.pairing.paired);
      await this.check();
    } catch (error) {
      this.set({ pairing: { ...this.state.pairing, busy: false, error: this.messageOf(error) } });
    }
  }

  /**
   * 「更新」: the agent downloads `version` from this site, verifies it and restarts into it (ADR 0055); the page
   * waits for /health to name the new version, then connects again.
   */
  async updateAgent(version: string): Promise<void> {
    if (this.state.agentUpdate?.phase === 'updating') return;
    this.set({ agentUpdate: { phase: 'updating', message: null } });
    try {
      await this.client.call(agentCalls.update, { body: { host: this.deps.origin, version } });
    } catch (error) {
      this.set({ agentUpdate: { phase: 'failed', message: this.messageOf(error) } });
      return;
    }
    const now = this.deps.now ?? Date.now;
    const end = now() + 90_000;
    while (this.active && now() < end) {
      await new Promise((r) => setTimeout(r, 1_000));
      const health = await this.client.call(agentCalls.health).catch(() => null);
      if (health?.version === version) {
        this.set({ agentUpdate: null, agent: health });
        this.deps.notify.success(s.download.updated(version));
        // The new agent answers: connect to it now. A reconnect still backing off (up to 10 s after the restart's
        // failed tries), a check in flight or a socket opened during the restart would otherwise keep the page from
        // 已连接 (recheck() waits while one is 'checking'/'connecting'): they are dropped and a fresh check starts.
        this.reconnectAttempt = 0;
        if (this.state.status !== 'ready') {
          this.clearReconnect();
          this.generation++;
          const ws = this.ws;
          this.ws = null;
          ws?.close(1000);
          await this.check();
        }
        return;
      }
    }
    this.set({ agentUpdate: { phase: 'failed', message: s.download.updateTimeout } });
  }

  /** Forgets this page's pairing on the agent and here. */
  async unpair(): Promise<void> {
    try {
      await this.client.call(agentCalls.unpair);
    } catch {
      // The token is dropped here either way.
    }
    this.deps.tokens.clear();
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
    this.set({ status: 'unpaired', pairing: freshPairing(), pairingOpen: false });
    this.deps.notify.info(s.agent.unpaired);
  }

  private messageOf(error: unknown): string {
    return error instanceof Error && error.message ? error.message : s.agent.unreachableMessage;
  }

  // ----------------------------------------------------------------------------------------------------------
  // Scanning

  /**
   * The scan button: a school year is required (请选择学年后再进行扫描); the agent loads if it has not yet, and the
   * scan starts once it is ready.
   */
  async requestScan(schoolYearId: string | null): Promise<void> {
    this.schoolYearId = schoolYearId;
    if (!schoolYearId) {
      this.deps.notify.error(MESSAGES.scanNeedsYear);
      return;
    }
    if (this.state.starting) return;
    this.pending = { schoolYearId };
    this.set({ scanRequested: true, loading: true });
    if (this.state.status === 'ready') await this.begin();
    else await this.ensureAgent();
  }

  private async begin(): Promise<void> {
    const pending = this.pending;
    if (!pending || this.state.starting) return;
    this.pending = null;
    const scanner = readScannerState();
    const source = selectableSource(scanner);
    if (!source) {
      // SPEC §5/§8: no source, or the chosen index cannot be selected.
      this.deps.notify.error(MESSAGES.scanReselect);
      this.set({ scanRequested: false, loading: false, reselectTick: this.state.reselectTick + 1 });
      return;
    }
    const setting = scanner.setting;
    this.set({ starting: true });
    try {
      const virtual = source.driver === 'virtual' ? await this.virtualScan(setting) : undefined;
      const created = await this.deps.host.createBatch({
        schoolYearId: pending.schoolYearId,
        subjectTeacher: setting.subjectTeacher,
        source: 'agent',
        deviceName: source.text.slice(0, 120),
        paperSize: setting.paperSize,
        homeworkId: this.homeworkId,
      });
      this.scope?.add(created.batch.id);
      const batch = await this.client.call(agentCalls.startScan, {
        body: {
          settings: {
            scannerIndex: source.id,
            paperSize: setting.paperSize,
            adaptive: setting.adaptive,
            duplex: setting.duplex,
            subjectTeacher: setting.subjectTeacher,
            colorMode: setting.colorMode,
          },
          host: { baseUrl: this.deps.origin, batchId: created.batch.id, uploadToken: created.uploadToken },
          ...(virtual ? { virtual } : {}),
        },
      });
      this.upsertBatch(batch);
      this.loaded.add(batch.id);
      this.set({
        currentBatchId: batch.id,
        starting: false,
        scanRequested: false,
        pages: { ...this.state.pages, [batch.id]: this.state.pages[batch.id] ?? [] },
      });
    } catch (error) {
      this.set({ starting: false, scanRequested: false, loading: false });
      this.agentFailed(error, true);
    }
  }

  /**
   * The demo scanner: a feeder of this many sheets, a different class each batch; with a homework chosen, the
   * personalised cards of its classes (its current card, its students), so they are read as that homework's, filled
   * from its answer key as a real class would (ADR 0038); with teacher marks on, each card's score boxes come ticked
   * in red as a teacher marking on paper would (先阅后扫, ADR 0065).
   */
  private async virtualScan(setting: ScannerSetting): Promise<VirtualScanInput> {
    const seed = Math.floor(Math.random() * 1_000_000_000);
    const marks = setting.virtualTeacherMarks ? { teacherMarks: true } : {};
    const feed =
      setting.virtualHomeworkId && this.deps.host.virtualFeed
        ? await this.deps.host.virtualFeed(setting.virtualHomeworkId)
        : null;
    if (!feed) return { sheets: setting.virtualSheets, seed, ...marks };
    const { students, ...card } = feed;
    const answers = Object.keys(card.key).length > 0 ? card : { layout: card.layout };
    // A homework without students: its card, filled for demo students (read as 未知学生).
    if (students.length === 0) return { sheets: setting.virtualSheets, seed, ...answers, ...marks };
    return {
      sheets: Math.min(setting.virtualSheets, students.length),
      seed,
      students,
      ...answers,
      ...marks,
    };
  }

  /** What a failed agent call means for the teacher. */
  private agentFailed(error: unknown, starting = false): void {
    if (!(error instanceof AgentCallError)) return; // host errors were shown by the API client
    if (error.status === 401) {
      this.deps.tokens.clear();
      const ws = this.ws;
      this.ws = null;
      ws?.close(1000);
      this.set({
        status: 'unpaired',
        pairing: { ...freshPairing(), error: error.message },
        pairingOpen: true,
      });
      return;
    }
    if (error.status === 409 && starting) {
      const extra = error.message && error.message !== MESSAGES.scanReselect ? `（${error.message}）` : '';
      this.deps.notify.error(`${MESSAGES.scanReselect}${extra}`);
      this.set({ reselectTick: this.state.reselectTick + 1 });
      return;
    }
    if (error.status === 0) {
      this.deps.notify.error(starting ? MESSAGES.scanReselect : error.message);
      void this.recheck();
      return;
    }
    this.deps.notify.error(error.message);
  }

  private async act(
    kind: NonNullable<ScanSessionState['action']>,
    call: AgentCallDef & { response: typeof agentCalls.pause.response },
  ): Promise<void> {
    const id = this.state.currentBatchId;
    if (!id || this.state.action) return;
    this.set({ action: kind, ...(kind === 'resume' ? { loading: true } : {}) });
    try {
      const batch = await this.client.call(call, { params: { id } });
      this.upsertBatch(batch);
      if (kind === 'finish') this.deps.notify.success(s.batch.finished);
    } catch (error) {
      if (kind === 'resume') this.set({ loading: false });
      this.agentFailed(error);
    } finally {
      this.set({ action: null });
    }
  }

  pause = () => this.act('pause', agentCalls.pause);
  /** 继续扫描: more sheets into the same batch (after feeder empty, a jam or a pause). */
  resume = () => this.act('resume', agentCalls.resume);
  /** 结束: acquisition stops; scanned pages keep uploading. */
  finish = () => this.act('finish', agentCalls.finish);
  retryUploads = () => this.act('retry', agentCalls.retryUploads);

  /**
   * 重扫: the sheet of page `seq` (both sides of a duplex sheet) is scanned again and replaces its pages in place,
   * here, in the agent and on the host.
   */
  async rescan(seq: number): Promise<boolean> {
    const id = this.state.currentBatchId;
    if (!id || this.state.action) return false;
    this.set({ action: 'rescan', loading: true });
    try {
      const batch = await this.client.call(agentCalls.rescanPage, {
        params: { id, seq },
        body: {},
      });
      this.upsertBatch(batch);
      this.deps.notify.info(s.rescan.started);
      return true;
    } catch (error) {
      this.set({ loading: false });
      this.agentFailed(error);
      return false;
    } finally {
      this.set({ action: null });
    }
  }

  /** The upload token expired: a new host batch, and its token handed to the agent (`POST /scans/:id/host`). */
  private async renewHost(batchId: string): Promise<void> {
    if (this.renewing.has(batchId)) return;
    const batch = this.state.batches.find((b) => b.id === batchId);
    if (!batch) return;
    this.renewing.add(batchId);
    this.deps.notify.info(s.batch.renewing);
    try {
      const created = await this.deps.host.createBatch({
        schoolYearId: this.schoolYearId,
        subjectTeacher: batch.settings.subjectTeacher,
        source: 'agent',
        deviceName: batch.source.text.slice(0, 120),
        paperSize: batch.settings.paperSize,
        homeworkId: this.scope?.has(batch.hostBatchId ?? '') ? this.homeworkId : null,
      });
      if (this.scope?.has(batch.hostBatchId ?? '')) this.scope.add(created.batch.id);
      const updated = await this.client.call(agentCalls.updateHost, {
        params: { id: batchId },
        body: {
          host: { baseUrl: this.deps.origin, batchId: created.batch.id, uploadToken: created.uploadToken },
        },
      });
      this.upsertBatch(updated);
      this.deps.notify.success(s.batch.renewed);
      // Late failure events of the old token must not start another renewal.
      setTimeout(() => this.renewing.delete(batchId), 5_000);
    } catch (error) {
      this.renewing.delete(batchId);
      this.agentFailed(error);
    }
  }
}
