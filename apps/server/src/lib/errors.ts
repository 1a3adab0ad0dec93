import { MESSAGES } from '@zhzy/contracts';

/** Error codes of the host and the HTTP status each one answers with. */
export const ERROR_STATUS = {
  VALIDATION: 400,
  BAD_CREDENTIALS: 400,
  CAPTCHA: 400,
  REFRESH_INVALID: 400,
  UNAUTHORIZED: 401,
  BAD_CLIENT: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION: MESSAGES.invalidParams,
  BAD_CREDENTIALS: MESSAGES.badCredentials,
  REFRESH_INVALID: MESSAGES.refreshTokenInvalid,
  UNAUTHORIZED: MESSAGES.unauthorized,
  BAD_CLIENT: MESSAGES.badClient,
  FORBIDDEN: MESSAGES.forbidden,
  NOT_FOUND: MESSAGES.notFound,
  INTERNAL: MESSAGES.internal,
};

/**
 * The one error class of the host. `message` is the Chinese text the user sees;
 * `detail` is for the log only and never leaves the server.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly data: unknown;
  readonly detail: string | undefined;
  /** Seconds after which a refused (429) request may be sent again: the Retry-After header. */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { data?: unknown; detail?: string; retryAfter?: number } = {},
  ) {
    super(message ?? DEFAULT_MESSAGES[code] ?? MESSAGES.internal);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.data = options.data ?? null;
    this.detail = options.detail;
    this.retryAfter = options.retryAfter;
  }
}

export const notFound = (message?: string) => new AppError('NOT_FOUND', message);
export const forbidden = (message?: string) => new AppError('FORBIDDEN', message);
