import type { GradeInfo, TokenResponse, UserInfo, UserRecord } from '@zhzy/contracts';
import type { JsonStorage } from './storage.js';

/** Storage keys of the session (SPEC §3). */
export const SESSION_KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  /** Epoch ms when the access token expires: now + expires_in × 1000. */
  expiresAt: 'expires_at',
  /** The user record merged with the grade info (and the user's schools), see `StoredUser`. */
  user: 'user',
} as const;

/**
 * The user as stored under `user`: the contracts' `UserRecord` and `GradeInfo` merged into one
 * record (`{ ...user, ...gradeInfo, orgs }`), so one key answers both "who" and "which flags".
 */
export type StoredUser = UserRecord & GradeInfo & { orgs: UserInfo['orgs'] };

export interface SessionSnapshot {
  accessToken: string | null;
  refreshToken: string | null;
  /** Epoch ms, null when unknown. */
  expiresAt: number | null;
  user: StoredUser | null;
}

const nonEmptyString = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Reads and writes the session keys of a JSON storage. */
export class SessionStore {
  constructor(
    readonly storage: JsonStorage,
    private readonly now: () => number,
  ) {}

  get accessToken(): string | null {
    return nonEmptyString(this.storage.get(SESSION_KEYS.accessToken));
  }

  get refreshToken(): string | null {
    return nonEmptyString(this.storage.get(SESSION_KEYS.refreshToken));
  }

  get expiresAt(): number | null {
    const v = this.storage.get(SESSION_KEYS.expiresAt);
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  }

  /** The stored user, or null when none (or an empty record) is stored. */
  get user(): StoredUser | null {
    const v = this.storage.get(SESSION_KEYS.user);
    return v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0
      ? (v as StoredUser)
      : null;
  }

  snapshot(): SessionSnapshot {
    return {
      accessToken: this.accessToken,
      refreshToken: this.refreshToken,
      expiresAt: this.expiresAt,
      user: this.user,
    };
  }

  /** Signed in only when an access token AND a non-empty user record are both stored (SPEC §2). */
  isSignedIn(): boolean {
    return this.accessToken !== null && this.user !== null;
  }

  /** Saves a token answer: both tokens and the expiry `now + expires_in s`. */
  saveTokens(tokens: Pick<TokenResponse, 'access_token' | 'refresh_token' | 'expires_in'>): void {
    this.storage.set(SESSION_KEYS.accessToken, tokens.access_token);
    this.storage.set(SESSION_KEYS.refreshToken, tokens.refresh_token);
    this.storage.set(SESSION_KEYS.expiresAt, this.now() + tokens.expires_in * 1000);
  }

  /** Saves the `userInfo` answer as the merged `StoredUser`; returns what was stored. */
  saveUser(info: UserInfo): StoredUser {
    const stored: StoredUser = { ...info.user, ...info.gradeInfo, orgs: info.orgs };
    this.storage.set(SESSION_KEYS.user, stored);
    return stored;
  }

  /** Removes the session keys only (tokens, expiry, user). */
  clearSession(): void {
    for (const key of Object.values(SESSION_KEYS)) this.storage.remove(key);
  }
}
