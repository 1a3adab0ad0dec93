import type { z } from 'zod';
import {
  HTTP_SUCCESS_STATUS,
  MESSAGES,
  REQUEST_TIMEOUT_MS,
  TOKEN_REFRESH_THRESHOLD_MS,
  TRANSFER_TIMEOUT_MS,
  buildPath,
  calls,
  type CallAuth,
  type CallDef,
  type CallResponse,
  type HttpMethod,
  type UserInfo,
} from '@zhzy/contracts';
import { ApiError, bodyMessageOf } from './errors.js';
import { basicAuthHeader, joinUrl, toFormData, toSearchParams } from './encode.js';
import { SessionStore, type StoredUser } from './session.js';
import type { JsonStorage } from './storage.js';

export const DEFAULT_CLIENT_ID = 'zhzy-web';
export const DEFAULT_CLIENT_SECRET = 'zhzy-web-secret';

export type NotifyKind = 'error' | 'success';

export interface ApiClientOptions {
  /** Host address, e.g. `http://127.0.0.1:3000` or `''` for the page's own origin. */
  baseUrl: string;
  storage: JsonStorage;
  /** OAuth client of the Basic header of the token call. */
  clientId?: string;
  clientSecret?: string;
  fetch?: typeof fetch;
  /** Clock in epoch ms (expiry bookkeeping). */
  now?: () => number;
  /** Called after a 401 / invalid refresh token cleared the storage, and after `signOut()`. */
  onSignedOut?: () => void;
  /** Shows a toast (SPEC §8). Never called for silent requests. */
  notify?: (message: string, kind: NotifyKind) => void;
  /** Top progress bar: true when a request starts while none ran, false when all have finished. */
  onProgress?: (active: boolean) => void;
  /** Saves a downloaded file; the browser default clicks an `<a download>` on an object URL. */
  saveFile?: (blob: Blob, filename: string) => void | Promise<void>;
  /** Check every `call()` answer against the call's zod schema (a mismatch fails as 系统内部异常). */
  validateResponses?: boolean;
}

/** Per-request options of every method. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the timeout (100000 ms, or 420000 ms for uploads and downloads). */
  timeoutMs?: number;
  /** Do not notify on failure (the request still rejects, and 401 still signs out). */
  silent?: boolean;
  headers?: Record<string, string>;
}

type Part<K extends string, S> = S extends z.ZodType ? { [P in K]: z.input<S> } : { [P in K]?: undefined };

/** What `call()` takes for a call: its params, query and body as the contracts declare them. */
export type CallInput<C extends CallDef> = Part<'params', C['params']> &
  Part<'query', C['query']> &
  Part<'body', C['body']> &
  RequestOptions;

/** The input is optional when the call declares no params, query or body. */
export type CallArgs<C extends CallDef> =
  Record<never, never> extends CallInput<C> ? [input?: CallInput<C>] : [input: CallInput<C>];

export interface LoginInput {
  username: string;
  password: string;
  captchaKey?: string;
  captchaCode?: string;
}

export interface DownloadOptions extends RequestOptions {
  /** Bytes read so far, and the total from Content-Length (null when the host does not say). */
  onProgress?: (loaded: number, total: number | null) => void;
}

export interface ApiClient {
  /** The session keys over the client's storage. */
  readonly session: SessionStore;
  readonly storage: JsonStorage;
  /** A call of the contracts, typed from its schemas; resolves with the parsed JSON answer. */
  call<C extends CallDef>(call: C, ...args: CallArgs<C>): Promise<CallResponse<C>>;
  /** Password grant, then `userInfo`; stores tokens, expiry and the user; resolves with the user info. */
  login(input: LoginInput, options?: RequestOptions): Promise<UserInfo>;
  /** Fetches `userInfo` again and stores it (e.g. after the default school year changed). */
  refreshUser(options?: RequestOptions): Promise<UserInfo>;
  /** `DELETE /oauth/signout` (errors ignored), clears the whole storage, then `onSignedOut`. */
  signOut(): Promise<void>;
  /** Access token and non-empty user record both stored. */
  isSignedIn(): boolean;
  /** The stored user (`{ ...user, ...gradeInfo, orgs }`), null when signed out. */
  getUser(): StoredUser | null;
  postForm<T = unknown>(path: string, fields?: object, options?: RequestOptions): Promise<T>;
  postJson<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  putForm<T = unknown>(path: string, fields?: object, options?: RequestOptions): Promise<T>;
  putJson<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  /** Multipart PUT of one file (field `fieldName`) plus extra text fields; 420000 ms timeout. */
  putFile<T = unknown>(
    path: string,
    file: Blob,
    fieldName?: string,
    extra?: object,
    options?: RequestOptions,
  ): Promise<T>;
  /** GET with query parameters (null and undefined skipped). */
  get<T = unknown>(path: string, query?: object, options?: RequestOptions): Promise<T>;
  /** DELETE with query parameters (null and undefined skipped). */
  del<T = unknown>(path: string, query?: object, options?: RequestOptions): Promise<T>;
  /** Multipart POST; 420000 ms timeout. */
  upload<T = unknown>(path: string, formData: FormData, options?: RequestOptions): Promise<T>;
  /**
   * POST JSON, read the blob answer while reporting progress (420000 ms timeout), then save it
   * under `filename`. A failure notifies 下载失败 (a 401 signs out instead).
   */
  download(path: string, body: unknown, filename: string, options?: DownloadOptions): Promise<Blob>;
}

type Payload =
  | { kind: 'none' }
  | { kind: 'form'; fields: object | null | undefined }
  | { kind: 'json'; value: unknown }
  | { kind: 'multipart'; form: FormData };

/** What to do when the host says the session is over (401 or refresh token无效). */
type SessionEndMode = 'signOut' | 'report';

interface Req {
  method: HttpMethod;
  path: string;
  query?: object | null | undefined;
  payload: Payload;
  auth: CallAuth;
  responseType: 'json' | 'blob';
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  silent: boolean;
  headers?: Record<string, string> | undefined;
  sessionEnd: SessionEndMode;
  /** Shown instead of the catalogue message (downloads: 下载失败). */
  failureMessage?: string;
  onDownloadProgress?: ((loaded: number, total: number | null) => void) | undefined;
}

function parseText(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    // Unknown until the caller's envelope and response schemas read it.
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return text;
  }
}

/** The catalogue message of a non-200 answer (SPEC §8). */
function httpErrorMessage(status: number, body: unknown): string {
  const message = bodyMessageOf(body);
  if (status === 401) return message ?? MESSAGES.unauthorized;
  if (message?.includes(MESSAGES.refreshTokenInvalid)) return message;
  if (status === 404) return MESSAGES.notFound;
  if (status === 403) return MESSAGES.forbidden;
  return message ?? MESSAGES.internal;
}

/** Does this failure mean the session is over: HTTP 401, or a body message "refresh token无效"? */
export function endsSession(error: ApiError): boolean {
  if (error.kind !== 'http') return false;
  if (error.status === 401) return true;
  return bodyMessageOf(error.body)?.includes(MESSAGES.refreshTokenInvalid) === true;
}

interface MinimalAnchor {
  href: string;
  download: string;
  style: { display: string };
  click(): void;
  remove(): void;
}
interface MinimalDocument {
  createElement(tag: 'a'): MinimalAnchor;
  body: { appendChild(node: MinimalAnchor): unknown };
}

/** Browser default of `saveFile`: an object URL clicked through a hidden `<a download>`. */
export function defaultSaveFile(blob: Blob, filename: string): void {
  const doc = (globalThis as { document?: MinimalDocument }).document;
  if (!doc) throw new Error('saveFile: no document to save the file in; pass a saveFile option');
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  doc.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const storage = options.storage;
  const session = new SessionStore(storage, now);
  const clientHeader = basicAuthHeader(
    options.clientId ?? DEFAULT_CLIENT_ID,
    options.clientSecret ?? DEFAULT_CLIENT_SECRET,
  );
  const saveFile = options.saveFile ?? defaultSaveFile;

  /** Errors whose side effects (toast, sign-out) already ran. */
  const handled = new WeakSet<ApiError>();
  let refreshFlight: Promise<string | null> | null = null;
  let active = 0;

  function begin(): void {
    active += 1;
    if (active === 1) options.onProgress?.(true);
  }
  function end(): void {
    active -= 1;
    if (active === 0) options.onProgress?.(false);
  }
  async function track<T>(work: () => Promise<T>): Promise<T> {
    begin();
    try {
      return await work();
    } finally {
      end();
    }
  }

  /** Clears the storage and reports the sign-out, unless the session already changed since `tokenUsed`. */
  function expireSession(tokenUsed: string | null): void {
    if (session.accessToken !== tokenUsed) return;
    storage.clear();
    options.onSignedOut?.();
  }

  /** Runs the side effects of a failure once: sign-out for a finished session, else a toast. */
  function handleFailure(error: ApiError, req: Req, tokenUsed: string | null): void {
    if (handled.has(error)) return;
    handled.add(error);
    if (req.sessionEnd === 'signOut' && endsSession(error)) {
      expireSession(tokenUsed);
      return;
    }
    if (!req.silent) options.notify?.(req.failureMessage ?? error.message, 'error');
  }

  function transportError(cause: unknown, reason: 'timeout' | 'aborted' | null, timeoutMs: number): ApiError {
    if (cause instanceof ApiError) return cause;
    if (reason === 'timeout') {
      return new ApiError({ kind: 'timeout', status: null, message: MESSAGES.timeout(timeoutMs), cause });
    }
    if (reason === 'aborted') {
      return new ApiError({ kind: 'aborted', status: null, message: MESSAGES.requestAborted, cause });
    }
    return new ApiError({ kind: 'network', status: null, message: MESSAGES.networkError, cause });
  }

  async function readBlob(
    response: Response,
    onProgress: ((loaded: number, total: number | null) => void) | undefined,
  ): Promise<Blob> {
    const type = response.headers.get('content-type') ?? '';
    const lengthHeader = response.headers.get('content-length');
    const parsedLength = lengthHeader === null ? NaN : Number(lengthHeader);
    const total = Number.isFinite(parsedLength) && parsedLength >= 0 ? parsedLength : null;
    if (!response.body) {
      const blob = await response.blob();
      onProgress?.(blob.size, total);
      return blob;
    }
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let loaded = 0;
    onProgress?.(0, total);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = new Uint8Array(value.byteLength);
      chunk.set(value);
      chunks.push(chunk);
      loaded += chunk.byteLength;
      onProgress?.(loaded, total);
    }
    return new Blob(chunks, { type });
  }

  /** One HTTP exchange: no retries, no side effects but the progress bar. */
  async function transport(req: Req, token: string | null): Promise<unknown> {
    const url = joinUrl(options.baseUrl, req.path, req.query);
    const headers: Record<string, string> = {
      accept: req.responseType === 'json' ? 'application/json, text/plain, */*' : '*/*',
    };
    if (req.auth === 'bearer' && token) headers.authorization = `Bearer ${token}`;
    if (req.auth === 'client') headers.authorization = clientHeader;
    let body: string | FormData | undefined;
    switch (req.payload.kind) {
      case 'form':
        headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
        body = toSearchParams(req.payload.fields).toString();
        break;
      case 'json':
        headers['content-type'] = 'application/json;charset=UTF-8';
        body = JSON.stringify(req.payload.value ?? null);
        break;
      case 'multipart':
        body = req.payload.form;
        break;
      case 'none':
        break;
    }
    Object.assign(headers, req.headers);

    const controller = new AbortController();
    let reason: 'timeout' | 'aborted' | null = null;
    const onAbort = () => {
      reason ??= 'aborted';
      controller.abort();
    };
    if (req.signal?.aborted) onAbort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      reason ??= 'timeout';
      controller.abort();
    }, req.timeoutMs);

    try {
      let response: Response;
      try {
        if (reason) throw new Error('aborted before start');
        response = await fetchImpl(url, { method: req.method, headers, body, signal: controller.signal });
      } catch (cause) {
        throw transportError(cause, reason, req.timeoutMs);
      }
      try {
        if (response.status !== HTTP_SUCCESS_STATUS) {
          const errorBody = parseText(await response.text());
          throw new ApiError({
            kind: 'http',
            status: response.status,
            message: httpErrorMessage(response.status, errorBody),
            body: errorBody,
          });
        }
        if (req.responseType === 'blob') return await readBlob(response, req.onDownloadProgress);
        return parseText(await response.text());
      } catch (cause) {
        throw transportError(cause, reason, req.timeoutMs);
      }
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Renews the tokens once for every request waiting on it (single flight). */
  function refreshTokens(silent: boolean): Promise<string | null> {
    if (refreshFlight) return refreshFlight;
    const usedRefresh = session.refreshToken;
    const usedAccess = session.accessToken;
    const req: Req = {
      method: calls.token.method,
      path: calls.token.path,
      payload: { kind: 'form', fields: { grant_type: 'refresh_token', refresh_token: usedRefresh } },
      auth: calls.token.auth,
      responseType: 'json',
      timeoutMs: REQUEST_TIMEOUT_MS,
      silent,
      sessionEnd: 'signOut',
    };
    refreshFlight = (async () => {
      try {
        const answer = (await transport(req, null)) as Record<string, unknown> | null;
        const access = answer?.access_token;
        const refresh = answer?.refresh_token;
        const expiresIn = answer?.expires_in;
        if (typeof access !== 'string' || typeof refresh !== 'string' || typeof expiresIn !== 'number') {
          throw new ApiError({
            kind: 'http',
            status: HTTP_SUCCESS_STATUS,
            message: MESSAGES.internal,
            body: answer,
          });
        }
        // Keep a session that changed meanwhile (sign-out or another sign-in) untouched.
        if (session.refreshToken === usedRefresh) {
          session.saveTokens({ access_token: access, refresh_token: refresh, expires_in: expiresIn });
        }
        return session.accessToken;
      } catch (error) {
        if (error instanceof ApiError) handleFailure(error, req, usedAccess);
        throw error;
      } finally {
        refreshFlight = null;
      }
    })();
    return refreshFlight;
  }

  /** The access token to send, renewed first when it expires within 300000 ms (SPEC §4). */
  async function accessTokenFor(req: Req): Promise<string | null> {
    const refresh = session.refreshToken;
    const expiresAt = session.expiresAt;
    if (refresh !== null && expiresAt !== null && expiresAt - now() < TOKEN_REFRESH_THRESHOLD_MS) {
      return refreshTokens(req.silent);
    }
    return session.accessToken;
  }

  /** A request with the client's policy: token renewal, progress, and the error catalogue. */
  function send(req: Req): Promise<unknown> {
    return track(async () => {
      let token: string | null = null;
      try {
        if (req.auth === 'bearer') token = await accessTokenFor(req);
        return await transport(req, token);
      } catch (error) {
        if (error instanceof ApiError) handleFailure(error, req, token);
        throw error;
      }
    });
  }

  function request(
    method: HttpMethod,
    path: string,
    payload: Payload,
    opts: RequestOptions | undefined,
    extra: Partial<Req> = {},
  ): Req {
    return {
      method,
      path,
      payload,
      auth: 'bearer',
      responseType: 'json',
      timeoutMs: opts?.timeoutMs ?? REQUEST_TIMEOUT_MS,
      signal: opts?.signal,
      silent: opts?.silent ?? false,
      headers: opts?.headers,
      sessionEnd: 'signOut',
      ...extra,
    };
  }

  async function callImpl(
    def: CallDef,
    input: Record<string, unknown>,
    sessionEnd: SessionEndMode,
  ): Promise<unknown> {
    const path = buildPath(def.path, input.params as Record<string, string | number> | undefined);
    let payload: Payload = { kind: 'none' };
    if (def.encoding === 'form') payload = { kind: 'form', fields: input.body as object | undefined };
    else if (def.encoding === 'json') payload = { kind: 'json', value: input.body };
    else if (def.encoding === 'multipart')
      payload = { kind: 'multipart', form: toFormData(input.body as object) };
    const opts = input as RequestOptions;
    const req = request(def.method, path, payload, opts, {
      query: input.query as object | undefined,
      auth: def.auth,
      sessionEnd,
      timeoutMs: opts.timeoutMs ?? (def.encoding === 'multipart' ? TRANSFER_TIMEOUT_MS : REQUEST_TIMEOUT_MS),
    });
    const answer = await send(req);
    if (options.validateResponses) {
      const checked = def.response.safeParse(answer);
      if (!checked.success) {
        const error = new ApiError({
          kind: 'http',
          status: HTTP_SUCCESS_STATUS,
          message: MESSAGES.internal,
          body: answer,
          cause: checked.error,
        });
        handleFailure(error, req, session.accessToken);
        throw error;
      }
      return checked.data;
    }
    return answer;
  }

  async function fetchUser(opts: RequestOptions | undefined, sessionEnd: SessionEndMode): Promise<UserInfo> {
    const answer = (await callImpl(calls.userInfo, { ...opts }, sessionEnd)) as CallResponse<
      typeof calls.userInfo
    >;
    session.saveUser(answer.data);
    return answer.data;
  }

  const client: ApiClient = {
    session,
    storage,

    call<C extends CallDef>(def: C, ...args: CallArgs<C>): Promise<CallResponse<C>> {
      return callImpl(def, (args[0] ?? {}) as Record<string, unknown>, 'signOut') as Promise<CallResponse<C>>;
    },

    login(input, opts) {
      return track(async () => {
        const tokens = (await callImpl(
          calls.token,
          {
            ...opts,
            body: {
              grant_type: 'password',
              username: input.username,
              password: input.password,
              captchaKey: input.captchaKey,
              captchaCode: input.captchaCode,
            },
          },
          'report',
        )) as CallResponse<typeof calls.token>;
        session.saveTokens(tokens);
        try {
          return await fetchUser(opts, 'report');
        } catch (error) {
          session.clearSession();
          throw error;
        }
      });
    },

    refreshUser(opts) {
      return fetchUser(opts, 'signOut');
    },

    async signOut() {
      const token = session.accessToken;
      if (token) {
        const req = request(
          calls.signout.method,
          calls.signout.path,
          { kind: 'none' },
          { silent: true },
          {
            sessionEnd: 'report',
          },
        );
        try {
          await track(() => transport(req, token));
        } catch {
          // Sign-out goes on locally whatever the host answered.
        }
      }
      storage.clear();
      options.onSignedOut?.();
    },

    isSignedIn: () => session.isSignedIn(),
    getUser: () => session.user,

    postForm: <T>(path: string, fields?: object, opts?: RequestOptions) =>
      send(request('POST', path, { kind: 'form', fields }, opts)) as Promise<T>,
    postJson: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      send(request('POST', path, { kind: 'json', value: body }, opts)) as Promise<T>,
    putForm: <T>(path: string, fields?: object, opts?: RequestOptions) =>
      send(request('PUT', path, { kind: 'form', fields }, opts)) as Promise<T>,
    putJson: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      send(request('PUT', path, { kind: 'json', value: body }, opts)) as Promise<T>,
    putFile: <T>(path: string, file: Blob, fieldName = 'file', extra?: object, opts?: RequestOptions) => {
      const form = toFormData(extra);
      const name = (file as Blob & { name?: unknown }).name;
      if (typeof name === 'string' && name !== '') form.append(fieldName, file, name);
      else form.append(fieldName, file);
      return send(
        request('PUT', path, { kind: 'multipart', form }, opts, {
          timeoutMs: opts?.timeoutMs ?? TRANSFER_TIMEOUT_MS,
        }),
      ) as Promise<T>;
    },
    get: <T>(path: string, query?: object, opts?: RequestOptions) =>
      send(request('GET', path, { kind: 'none' }, opts, { query })) as Promise<T>,
    del: <T>(path: string, query?: object, opts?: RequestOptions) =>
      send(request('DELETE', path, { kind: 'none' }, opts, { query })) as Promise<T>,
    upload: <T>(path: string, formData: FormData, opts?: RequestOptions) =>
      send(
        request('POST', path, { kind: 'multipart', form: formData }, opts, {
          timeoutMs: opts?.timeoutMs ?? TRANSFER_TIMEOUT_MS,
        }),
      ) as Promise<T>,

    async download(path, body, filename, opts) {
      const req = request('POST', path, { kind: 'json', value: body }, opts, {
        responseType: 'blob',
        timeoutMs: opts?.timeoutMs ?? TRANSFER_TIMEOUT_MS,
        failureMessage: MESSAGES.downloadFailed,
        onDownloadProgress: opts?.onProgress,
      });
      const blob = (await send(req)) as Blob;
      try {
        await saveFile(blob, filename);
      } catch (error) {
        if (!req.silent) options.notify?.(MESSAGES.downloadFailed, 'error');
        throw error;
      }
      return blob;
    },
  };
  return client;
}
