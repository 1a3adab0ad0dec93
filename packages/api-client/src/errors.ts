/** How a request failed. */
export type ApiErrorKind = 'http' | 'timeout' | 'network' | 'aborted';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status: number | null;
  message: string;
  body?: unknown;
  cause?: unknown;
}

/**
 * Every failed request rejects with this. `message` is the Chinese text of the error catalogue
 * (SPEC §8) — the one shown to the user unless the request was silent; `body` is the parsed
 * answer (null when there was none) so callers can read e.g. `error.data.captchaRequired`.
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status; null for network errors, timeouts and aborts. */
  readonly status: number | null;
  readonly body: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.body = init.body ?? null;
  }

  /** The `data` field of an error body (`{ code, message, data }`), undefined when absent. */
  get data(): unknown {
    const body = this.body;
    return body && typeof body === 'object' && 'data' in body ? body.data : undefined;
  }

  /** The `message` field of the error body, when it is a non-empty string. */
  get bodyMessage(): string | null {
    return bodyMessageOf(this.body);
  }
}

/** The non-empty `message` string of an error body, else null. */
export function bodyMessageOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
