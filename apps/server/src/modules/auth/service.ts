import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  MESSAGES,
  type Captcha,
  type PasswordGrant,
  type Register,
  type TokenResponse,
  TokenResponseSchema,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { bearerToken } from '../../lib/bearer.js';
import { AppError } from '../../lib/errors.js';
import { hashToken, isoAfter, newId, randomToken } from '../../lib/ids.js';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { TokenCache } from '../../lib/token-cache.js';
import type { WatchedTable } from '../../lib/write-watch.js';
import { captchaImage, drawCaptcha, type CaptchaMaker } from './captcha.js';
import type { AuthRepository } from './repository.js';
import { AUTH_TEXT } from '../../i18n/messages.js';

export type { CaptchaMaker } from './captcha.js';

/**
 * Sign-in limits over a sliding 15-minute window (ADR 0042). Every attempt is counted before its password is checked,
 * in one statement per counter, and a success gives it back. Nothing here locks an account: too many failures ask
 * for the image captcha, and only the account seen from one address (the guesser's own) is slowed down.
 */
export const LOGIN_LIMITS = {
  windowSeconds: 15 * 60,
  /** Failures on one account from one address after which that address must solve the image captcha. */
  captchaAfter: 3,
  /** Failures on one account from all addresses after which every address must solve it. */
  accountCaptchaAfter: 10,
  /** Failures from one address across accounts after which every sign-in from it must solve it. */
  addressCaptchaAfter: 20,
  /** Failures on one account from one address after which each further try from there waits, 1 s, 2 s, 4 s … */
  delayAfter: 10,
  /** The longest such wait. */
  maxDelaySeconds: 5 * 60,
} as const;

/** Seconds in which a second use of a just-rotated refresh token gets the same new pair (two tabs at once). */
export const REFRESH_GRACE_SECONDS = 10;

const CAPTCHA_TTL_SECONDS = 300;

/** At most this many verified tokens are kept per process. */
const VERIFIED_TOKENS_MAX = 20_000;

/**
 * The rows a verified caller depends on (the bearer check's query), and which of their writes change one: a session
 * revoked or deleted, an account renamed, disabled or moved to another school, a membership made, removed or given
 * other roles, a token deleted. New sessions and tokens change no verified caller; a basket's version is not part of
 * the caller (ADR 0078). Every write of these drops every verified token of this process.
 */
export const AUTH_WATCHED_TABLES: Record<string, WatchedTable> = {
  access_tokens: { inserts: false, deletes: true },
  auth_sessions: { inserts: false, deletes: true },
  users: { inserts: false, deletes: true, columns: ['id', 'username', 'disabled', 'default_org_id'] },
  memberships: {
    inserts: true,
    deletes: true,
    columns: ['user_id', 'org_id', 'is_creator', 'is_administrator', 'is_grade_director'],
  },
};

export interface AuthSettings {
  clientId: string;
  clientSecret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /**
   * How long a verified access token is believed without asking the database again (0: every request asks). Writes
   * through this process drop them at once; another instance's writes are seen within this time (ADR 0078).
   */
  verifiedTokenSeconds?: number;
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Sign-in, token rotation, sign-out, captchas and the bearer check. */
export class AuthService {
  private readonly verified: TokenCache<AuthContext>;

  constructor(
    private readonly repo: AuthRepository,
    private readonly settings: AuthSettings,
    private readonly clock: () => number = Date.now,
    private readonly makeCaptcha: CaptchaMaker = drawCaptcha,
  ) {
    this.verified = new TokenCache({
      ttlMs: (settings.verifiedTokenSeconds ?? 0) * 1000,
      max: VERIFIED_TOKENS_MAX,
      clock,
    });
  }

  /** Forgets every verified token: told of every write of `AUTH_WATCHED_TABLES` (and called after sign-outs). */
  forgetVerifiedTokens(): void {
    this.verified.clear();
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  /** Checks the fixed client Basic header of the token call. */
  checkClient(authorization: string | undefined): void {
    const match = /^Basic\s+(.+)$/i.exec(authorization ?? '');
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const sep = decoded.indexOf(':');
    const id = sep >= 0 ? decoded.slice(0, sep) : '';
    const secret = sep >= 0 ? decoded.slice(sep + 1) : '';
    if (!sameSecret(id, this.settings.clientId) || !sameSecret(secret, this.settings.clientSecret)) {
      throw new AppError('BAD_CLIENT');
    }
  }

  /** Resolves a bearer token to its caller; 401 when missing, expired or revoked. */
  async authenticate(authorization: string | undefined): Promise<AuthContext> {
    const token = bearerToken(authorization);
    if (!token) throw new AppError('UNAUTHORIZED');
    const hash = hashToken(token);
    const caller = await this.verified.get(hash, async () => {
      const found = await this.repo.findAccessContext(hash, this.now());
      // Shared by every request of the token while kept: frozen, so no handler can change it for the others.
      return found && { value: Object.freeze(found.caller), until: Date.parse(found.expiresAt) };
    });
    if (!caller) throw new AppError('UNAUTHORIZED');
    return caller;
  }

  async passwordGrant(grant: PasswordGrant, client: ClientInfo): Promise<TokenResponse> {
    const now = this.clock();
    const username = grant.username.trim();
    const user = await this.repo.findUserByUsername(username);
    // Counters are keyed by the account's id (a look-alike name is the same account); an unknown name gets its own.
    const account = user ? user.id : `?${username.toLowerCase()}`;
    const address = client.ip ?? 'unknown';
    const keys = {
      pair: `pair:${account}|${address}`,
      account: `acct:${account}`,
      address: `addr:${address}`,
    };
    const windowStart = new Date(now - LOGIN_LIMITS.windowSeconds * 1000).toISOString();
    const at = new Date(now).toISOString();
    const [pair, perAccount, perAddress] = await Promise.all(
      [keys.pair, keys.account, keys.address].map((key) => this.repo.countAttempt(key, at, windowStart)),
    );
    // An attempt refused before its password is checked gives its counts back.
    const refuse = async (error: AppError): Promise<never> => {
      await Promise.all(Object.values(keys).map((key) => this.repo.uncountAttempt(key)));
      throw error;
    };

    const waitUntil = pair!.lockedUntil ? Date.parse(pair!.lockedUntil) : 0;
    if (waitUntil > now)
      await refuse(new AppError('RATE_LIMITED', MESSAGES.loginDelayed(Math.ceil((waitUntil - now) / 1000))));
    const captchaNeeded = (pairCount: number, accountCount: number, addressCount: number) =>
      pairCount > LOGIN_LIMITS.captchaAfter ||
      accountCount > LOGIN_LIMITS.accountCaptchaAfter ||
      addressCount > LOGIN_LIMITS.addressCaptchaAfter;
    if (captchaNeeded(pair!.count, perAccount!.count, perAddress!.count)) {
      const data = { data: { captchaRequired: true } };
      if (!grant.captchaKey || !grant.captchaCode)
        await refuse(new AppError('CAPTCHA', MESSAGES.captchaRequired, data));
      if (!(await this.checkCaptcha(grant.captchaKey!, grant.captchaCode!, now)))
        await refuse(new AppError('CAPTCHA', MESSAGES.captchaWrong, data));
    }

    const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyHash()), grant.password);
    if (!user || !passwordOk) {
      if (pair!.count >= LOGIN_LIMITS.delayAfter) {
        const seconds = Math.min(2 ** (pair!.count - LOGIN_LIMITS.delayAfter), LOGIN_LIMITS.maxDelaySeconds);
        await this.repo.delayAttempts(keys.pair, isoAfter(now, seconds));
      }
      throw new AppError('BAD_CREDENTIALS', MESSAGES.badCredentials, {
        data: {
          captchaRequired: captchaNeeded(pair!.count + 1, perAccount!.count + 1, perAddress!.count + 1),
        },
      });
    }
    if (user.disabled) throw new AppError('BAD_CREDENTIALS', MESSAGES.accountDisabled);

    await this.repo.clearFailure(keys.pair);
    await Promise.all([this.repo.uncountAttempt(keys.account), this.repo.uncountAttempt(keys.address)]);
    const sessionId = newId();
    await this.repo.createSession({
      id: sessionId,
      userId: user.id,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      now: this.now(),
    });
    return this.issueTokens(sessionId, user.id);
  }

  /** Creates an account after checking the image captcha; 409 when the username is taken. */
  async register(input: Register): Promise<void> {
    if (!(await this.checkCaptcha(input.captchaKey, input.captchaCode, this.clock()))) {
      throw new AppError('CAPTCHA', MESSAGES.captchaWrong);
    }
    const created = await this.repo.insertUser({
      id: newId(),
      username: input.username,
      passwordHash: await hashPassword(input.password),
      nickname: input.nickname,
      now: this.now(),
    });
    if (!created) throw new AppError('CONFLICT', AUTH_TEXT.usernameTaken);
  }

  /**
   * Rotates a refresh token. A second use within REFRESH_GRACE_SECONDS (another tab refreshing at the same moment)
   * gets the same new pair; a later reuse of a rotated token revokes the whole session (token family).
   */
  async refreshGrant(refreshToken: string): Promise<TokenResponse> {
    const hash = hashToken(refreshToken);
    const row = await this.repo.findRefreshToken(hash);
    const now = this.now();
    if (!row || row.revokedAt !== null || row.disabled || row.expiresAt <= now) {
      throw new AppError('REFRESH_INVALID');
    }
    if (row.usedAt === null) {
      const pair = this.newPair();
      await this.storeTokens(row.sessionId, row.userId, pair);
      if (await this.repo.markRefreshUsed(hash, now, sealPair(refreshToken, pair))) return pair;
      await this.repo.deleteTokens(hashToken(pair.access_token), hashToken(pair.refresh_token));
    }
    const again = row.usedAt === null ? await this.repo.findRefreshToken(hash) : row;
    const withinGrace =
      again?.usedAt != null &&
      again.successor !== null &&
      Date.parse(now) - Date.parse(again.usedAt) <= REFRESH_GRACE_SECONDS * 1000;
    const successor = withinGrace ? openPair(refreshToken, again.successor!) : null;
    if (successor && again!.revokedAt === null) return successor;
    await this.repo.revokeSession(row.sessionId, 'refresh_token_reuse', now);
    this.forgetVerifiedTokens();
    throw new AppError('REFRESH_INVALID', MESSAGES.refreshTokenInvalid, {
      detail: `refresh token reuse in session ${row.sessionId}; session revoked`,
    });
  }

  async signout(auth: AuthContext): Promise<void> {
    await this.repo.revokeSession(auth.sessionId, 'signout', this.now());
    this.forgetVerifiedTokens();
  }

  // ───── for the SMS sign-in, password reset and invitation flows (modules/account, modules/school) ─────

  /** Checks an image captcha (one try: the captcha is used up either way). */
  verifyCaptcha(key: string, code: string): Promise<boolean> {
    return this.checkCaptcha(key, code, this.clock());
  }

  /** Opens a session for an account already proven by another factor (an SMS code) and issues its tokens. */
  async openSession(userId: string, client: ClientInfo): Promise<TokenResponse> {
    const sessionId = newId();
    await this.repo.createSession({
      id: sessionId,
      userId,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      now: this.now(),
    });
    return this.issueTokens(sessionId, userId);
  }

  /** Signs an account out everywhere (password change: except the session that changed it). */
  async revokeUserSessions(userId: string, reason: string, exceptSessionId?: string): Promise<void> {
    await this.repo.revokeUserSessions(userId, reason, this.now(), exceptSessionId);
    this.forgetVerifiedTokens();
  }

  /** Forgets an account's failed sign-ins (after a password reset the owner may sign in at once). */
  async clearAccountFailures(userId: string): Promise<void> {
    await this.repo.clearAccountFailures(userId);
  }

  /** A new image captcha, good for one try within five minutes. */
  async createCaptcha(): Promise<Captcha> {
    const captcha = await this.makeCaptcha();
    const id = newId();
    const now = this.clock();
    await this.repo.deleteExpiredCaptchas(new Date(now).toISOString());
    await this.repo.insertCaptcha({
      id,
      answerHash: hashToken(captcha.text.toLowerCase()),
      expiresAt: isoAfter(now, CAPTCHA_TTL_SECONDS),
      createdAt: new Date(now).toISOString(),
    });
    return {
      captchaKey: id,
      image: captchaImage(captcha),
      expiresIn: CAPTCHA_TTL_SECONDS,
    };
  }

  private async checkCaptcha(key: string, code: string, now: number): Promise<boolean> {
    const row = await this.repo.takeCaptcha(key);
    if (!row || row.expiresAt <= new Date(now).toISOString()) return false;
    return sameSecret(row.answerHash, hashToken(code.trim().toLowerCase()));
  }

  private newPair(): TokenResponse {
    return {
      access_token: randomToken(),
      refresh_token: randomToken(),
      expires_in: this.settings.accessTtlSeconds,
      token_type: 'bearer',
      scope: 'server',
    };
  }

  private async storeTokens(sessionId: string, userId: string, pair: TokenResponse): Promise<void> {
    const now = this.clock();
    await this.repo.insertTokens({
      sessionId,
      userId,
      accessHash: hashToken(pair.access_token),
      accessExpiresAt: isoAfter(now, this.settings.accessTtlSeconds),
      refreshHash: hashToken(pair.refresh_token),
      refreshExpiresAt: isoAfter(now, this.settings.refreshTtlSeconds),
      now: new Date(now).toISOString(),
    });
  }

  private async issueTokens(sessionId: string, userId: string): Promise<TokenResponse> {
    const pair = this.newPair();
    await this.storeTokens(sessionId, userId, pair);
    return pair;
  }
}

// The successor pair of a rotated refresh token is kept sealed with that token (AES-256-GCM, key derived from it):
// only a holder of the old token can open it, and the database alone reveals nothing.
const sealKey = (token: string) => createHash('sha256').update(`successor|${token}`).digest();

function sealPair(token: string, pair: TokenResponse): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(token), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(pair), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function openPair(token: string, sealed: string): TokenResponse | null {
  try {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(token), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return TokenResponseSchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
}
