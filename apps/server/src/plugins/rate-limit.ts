import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from '@zhzy/contracts';
import { bearerToken } from '../lib/bearer.js';
import { AppError } from '../lib/errors.js';

/** Counts per key in fixed windows, in this process (several instances each count their own share). */
export class WindowCounter {
  private counts = new Map<string, number>();
  private windowStart: number;

  constructor(
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.windowStart = clock();
  }

  /** Counts one more for `key`; answers the count in this window and the seconds until it ends. */
  hit(key: string): { count: number; retryAfter: number } {
    const now = this.clock();
    if (now - this.windowStart >= this.windowMs) {
      this.counts = new Map();
      this.windowStart = now - ((now - this.windowStart) % this.windowMs);
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return { count, retryAfter: Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000)) };
  }
}

/** A fixed-window limit with its Chinese 429. */
export class RateLimit {
  private readonly counter: WindowCounter;

  constructor(
    private readonly max: number,
    windowSeconds: number,
    clock?: () => number,
    private readonly message: (retryAfter: number) => string = MESSAGES.rateLimited,
  ) {
    this.counter = new WindowCounter(windowSeconds * 1000, clock);
  }

  /** Counts one for `key`; throws 429 once more than `max` came in this window (max 0: no limit). */
  take(key: string): void {
    if (this.max <= 0) return;
    const { count, retryAfter } = this.counter.hit(key);
    if (count > this.max)
      throw new AppError('RATE_LIMITED', this.message(retryAfter), { data: null, retryAfter });
  }
}

const UNCOUNTED = new Set(['/health', '/ready', '/metrics']);

/**
 * The general limit of the whole API, per caller and minute: requests without a bearer token count against their
 * address; with one, against the account once it is known (`perUser`, called by the bearer check) and, ten times
 * looser, against the address too (a school behind one NAT address shares it; invented tokens still cannot flood).
 */
export function registerRateLimit(app: FastifyInstance, perMinute: number, clock?: () => number) {
  const byAddress = new RateLimit(perMinute, 60, clock);
  const byAddressWithToken = new RateLimit(perMinute * 10, 60, clock);
  const byUser = new RateLimit(perMinute, 60, clock);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (perMinute <= 0 || UNCOUNTED.has(request.url.split('?')[0]!)) return;
    const hasToken = bearerToken(request.headers.authorization) !== null;
    (hasToken ? byAddressWithToken : byAddress).take(request.ip ?? 'unknown');
  });
  return { perUser: (userId: string) => byUser.take(userId) };
}

/**
 * New accounts per hour: from one address and from everyone (password and phone registration, and the SMS code a
 * phone registration starts with). An invitation is proof enough of its own: registering through one counts only
 * against the global limit, so a school's staff meeting behind one address is not held up.
 */
export class SignupLimit {
  private readonly byAddress: RateLimit;
  private readonly overall: RateLimit;

  constructor(perAddressPerHour: number, perHour: number, clock?: () => number) {
    const message = () => MESSAGES.registerLimited;
    this.byAddress = new RateLimit(perAddressPerHour, 3600, clock, message);
    this.overall = new RateLimit(perHour, 3600, clock, message);
  }

  /** Counts one registration (or its first step); 429 注册过于频繁 past either limit. */
  take(ip: string | null, options: { invited?: boolean } = {}): void {
    if (!options.invited) this.byAddress.take(ip ?? 'unknown');
    this.overall.take('all');
  }
}
