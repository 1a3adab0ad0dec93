import { timingSafeEqual } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import {
  MESSAGES,
  type Captcha,
  type PasswordGrant,
  type Register,
  type TokenResponse,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
import { hashToken, isoAfter, newId, randomToken } from '../../lib/ids.js';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { AuthRepository } from './repository.js';

/** Sign-in limits: per account and per address, over a sliding 15-minute window. */
export const LOGIN_LIMITS = {
  windowSeconds: 15 * 60,
  /** Failures on one account after which the image captcha is required. */
  captchaAfter: 3,
  /** Failures on one account after which it is locked for the window. */
  lockAccountAfter: 10,
  /** Failures from one address after which it is locked for the window. */
  lockAddressAfter: 50,
} as const;

const CAPTCHA_TTL_SECONDS = 300;

export interface AuthSettings {
  clientId: string;
  clientSecret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

/** Draws an image captcha: the text to type and the SVG that shows it. */
export type CaptchaMaker = () => { text: string; svg: string };

const drawCaptcha: CaptchaMaker = () => {
  const c = svgCaptcha.create({
    size: 4,
    noise: 3,
    ignoreChars: '0oO1iIlLqg9',
    color: true,
    background: '#f4f6f8',
  });
  return { text: c.text, svg: c.data };
};

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
  constructor(
    private readonly repo: AuthRepository,
    private readonly settings: AuthSettings,
    private readonly clock: () => number = Date.now,
    private readonly makeCaptcha: CaptchaMaker = drawCaptcha,
  ) {}

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
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match?.[1]) throw new AppError('UNAUTHORIZED');
    const row = await this.repo.findAccessContext(hashToken(match[1]), this.now());
    if (!row) throw new AppError('UNAUTHORIZED');
    return {
      userId: row.user_id,
      username: row.username,
      sessionId: row.session_id,
      orgId: row.org_id,
      isCreator: row.is_creator === 1,
      isAdministrator: row.is_administrator === 1,
      isGradeDirector: row.is_grade_director === 1,
      basketVersion: row.basket_version ?? 0,
    };
  }

  async passwordGrant(grant: PasswordGrant, client: ClientInfo): Promise<TokenResponse> {
    const now = this.clock();
    const username = grant.username.trim();
    const addressKey = `ip:${client.ip ?? 'unknown'}`;
    const accountKey = `user:${username.toLowerCase()}`;

    const address = await this.liveFailure(addressKey, now);
    if (address.lockedUntil > now) throw new AppError('RATE_LIMITED', MESSAGES.loginLockedAddress);
    const account = await this.liveFailure(accountKey, now);
    if (account.lockedUntil > now) throw new AppError('RATE_LIMITED', MESSAGES.loginLockedAccount);

    if (account.count >= LOGIN_LIMITS.captchaAfter) {
      if (!grant.captchaKey || !grant.captchaCode) {
        throw new AppError('CAPTCHA', MESSAGES.captchaRequired, { data: { captchaRequired: true } });
      }
      if (!(await this.checkCaptcha(grant.captchaKey, grant.captchaCode, now))) {
        throw new AppError('CAPTCHA', MESSAGES.captchaWrong, { data: { captchaRequired: true } });
      }
    }

    const user = await this.repo.findUserByUsername(username);
    const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyHash()), grant.password);
    if (!user || !passwordOk) {
      await this.recordFailure(addressKey, address, now, LOGIN_LIMITS.lockAddressAfter);
      const count = await this.recordFailure(accountKey, account, now, LOGIN_LIMITS.lockAccountAfter);
      if (count >= LOGIN_LIMITS.lockAccountAfter)
        throw new AppError('RATE_LIMITED', MESSAGES.loginLockedAccount);
      throw new AppError('BAD_CREDENTIALS', MESSAGES.badCredentials, {
        data: { captchaRequired: count >= LOGIN_LIMITS.captchaAfter },
      });
    }
    if (user.disabled === 1) throw new AppError('BAD_CREDENTIALS', MESSAGES.accountDisabled);

    await this.repo.clearFailure(accountKey);
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
    if (!created) throw new AppError('CONFLICT', '该用户名已被注册');
  }

  /** Rotates a refresh token. Reusing a rotated one revokes the whole session (token family). */
  async refreshGrant(refreshToken: string): Promise<TokenResponse> {
    const hash = hashToken(refreshToken);
    const row = await this.repo.findRefreshToken(hash);
    const now = this.now();
    if (!row || row.revoked_at !== null || row.disabled === 1 || row.expires_at <= now) {
      throw new AppError('REFRESH_INVALID');
    }
    if (row.used_at !== null || !(await this.repo.markRefreshUsed(hash, now))) {
      await this.repo.revokeSession(row.session_id, 'refresh_token_reuse', now);
      throw new AppError('REFRESH_INVALID', MESSAGES.refreshTokenInvalid, {
        detail: `refresh token reuse in session ${row.session_id}; session revoked`,
      });
    }
    return this.issueTokens(row.session_id, row.user_id);
  }

  async signout(auth: AuthContext): Promise<void> {
    await this.repo.revokeSession(auth.sessionId, 'signout', this.now());
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
  }

  /** Forgets an account's failed sign-ins (after a password reset the owner may sign in at once). */
  async clearAccountFailures(username: string): Promise<void> {
    await this.repo.clearFailure(`user:${username.trim().toLowerCase()}`);
  }

  /** A new image captcha, good for one try within five minutes. */
  async createCaptcha(): Promise<Captcha> {
    const captcha = this.makeCaptcha();
    const id = newId();
    const now = this.clock();
    await this.repo.deleteExpiredCaptchas(new Date(now).toISOString());
    await this.repo.insertCaptcha({
      id,
      answer_hash: hashToken(captcha.text.toLowerCase()),
      expires_at: isoAfter(now, CAPTCHA_TTL_SECONDS),
      created_at: new Date(now).toISOString(),
    });
    return {
      captchaKey: id,
      image: `data:image/svg+xml;base64,${Buffer.from(captcha.svg).toString('base64')}`,
      expiresIn: CAPTCHA_TTL_SECONDS,
    };
  }

  private async checkCaptcha(key: string, code: string, now: number): Promise<boolean> {
    const row = await this.repo.takeCaptcha(key);
    if (!row || row.expires_at <= new Date(now).toISOString()) return false;
    return sameSecret(row.answer_hash, hashToken(code.trim().toLowerCase()));
  }

  private async liveFailure(key: string, now: number) {
    const row = await this.repo.findFailure(key);
    const windowStart = row ? Date.parse(row.window_start) : now;
    const expired = !row || now - windowStart >= LOGIN_LIMITS.windowSeconds * 1000;
    return {
      count: expired ? 0 : row.count,
      windowStart: expired ? now : windowStart,
      lockedUntil: row?.locked_until ? Date.parse(row.locked_until) : 0,
    };
  }

  private async recordFailure(
    key: string,
    current: { count: number; windowStart: number },
    now: number,
    lockAfter: number,
  ): Promise<number> {
    const count = current.count + 1;
    await this.repo.saveFailure({
      key,
      count,
      window_start: new Date(current.windowStart).toISOString(),
      locked_until: count >= lockAfter ? isoAfter(now, LOGIN_LIMITS.windowSeconds) : null,
    });
    return count;
  }

  private async issueTokens(sessionId: string, userId: string): Promise<TokenResponse> {
    const now = this.clock();
    const access = randomToken();
    const refresh = randomToken();
    await this.repo.insertTokens({
      sessionId,
      userId,
      accessHash: hashToken(access),
      accessExpiresAt: isoAfter(now, this.settings.accessTtlSeconds),
      refreshHash: hashToken(refresh),
      refreshExpiresAt: isoAfter(now, this.settings.refreshTtlSeconds),
      now: new Date(now).toISOString(),
    });
    return {
      access_token: access,
      refresh_token: refresh,
      expires_in: this.settings.accessTtlSeconds,
      token_type: 'bearer',
      scope: 'server',
    };
  }
}
