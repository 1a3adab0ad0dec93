import { sql, type Kysely } from 'kysely';
import { precompiled } from '../../db/precompiled.js';
import type { Database } from '../../db/schema.js';
import { roleFlags } from '../../db/role-flags.js';
import type { AuthContext } from '../../lib/call.js';

/** A refresh token with what rotating it looks at: its session's and its account's state. */
export interface RefreshTokenRecord {
  sessionId: string;
  userId: string;
  expiresAt: string;
  usedAt: string | null;
  /** The pair issued when it was used, sealed with the token (a second use within the grace gets it). */
  successor: string | null;
  revokedAt: string | null;
  disabled: boolean;
}

/** Users, sessions, tokens, sign-in failures and captchas. Only this file touches those tables. */
export class AuthRepository {
  private readonly accessContext;

  constructor(private readonly db: Kysely<Database>) {
    // Runs on every request: compiled once.
    this.accessContext = precompiled(
      this.db,
      (tokenHash: string, now: string) =>
        this.db
          .selectFrom('access_tokens as t')
          .innerJoin('auth_sessions as s', 's.id', 't.session_id')
          .innerJoin('users as u', 'u.id', 't.user_id')
          .leftJoin('memberships as m', (join) =>
            join.onRef('m.user_id', '=', 'u.id').onRef('m.org_id', '=', 'u.default_org_id'),
          )
          .select([
            'u.id as user_id',
            'u.username',
            's.id as session_id',
            'm.org_id',
            'm.is_creator',
            'm.is_administrator',
            'm.is_grade_director',
            't.expires_at',
          ])
          .where('t.token_hash', '=', tokenHash)
          .where('t.expires_at', '>', now)
          .where('s.revoked_at', 'is', null)
          .where('u.disabled', '=', 0),
      2,
    );
  }

  /** The account of a username, whatever its case (usernames are unique case-insensitively, migration 0026). */
  async findUserByUsername(
    username: string,
  ): Promise<{ id: string; username: string; passwordHash: string; disabled: boolean } | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'password_hash', 'disabled'])
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        username: row.username,
        passwordHash: row.password_hash,
        disabled: row.disabled === 1,
      }
    );
  }

  /** Inserts a new account; false when the username is taken. */
  async insertUser(user: {
    id: string;
    username: string;
    passwordHash: string;
    nickname: string;
    now: string;
  }): Promise<boolean> {
    const result = await this.db
      .insertInto('users')
      .values({
        id: user.id,
        username: user.username,
        password_hash: user.passwordHash,
        nickname: user.nickname,
        avatar: null,
        phone: null,
        default_org_id: null,
        created_at: user.now,
        updated_at: user.now,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async createSession(session: {
    id: string;
    userId: string;
    ip: string | null;
    userAgent: string | null;
    now: string;
  }) {
    await this.db
      .insertInto('auth_sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        created_at: session.now,
        ip: session.ip,
        user_agent: session.userAgent,
        revoked_at: null,
        revoke_reason: null,
      })
      .execute();
  }

  async insertTokens(tokens: {
    sessionId: string;
    userId: string;
    accessHash: string;
    accessExpiresAt: string;
    refreshHash: string;
    refreshExpiresAt: string;
    now: string;
  }) {
    await this.db
      .insertInto('access_tokens')
      .values({
        token_hash: tokens.accessHash,
        session_id: tokens.sessionId,
        user_id: tokens.userId,
        expires_at: tokens.accessExpiresAt,
        created_at: tokens.now,
      })
      .execute();
    await this.db
      .insertInto('refresh_tokens')
      .values({
        token_hash: tokens.refreshHash,
        session_id: tokens.sessionId,
        user_id: tokens.userId,
        expires_at: tokens.refreshExpiresAt,
        used_at: null,
        created_at: tokens.now,
      })
      .execute();
  }

  /** The caller behind a live access token, with their membership of their default school, and the token's expiry. */
  async findAccessContext(
    tokenHash: string,
    now: string,
  ): Promise<{ caller: AuthContext; expiresAt: string } | undefined> {
    const [row] = await this.accessContext(tokenHash, now);
    return (
      row && {
        caller: {
          userId: row.user_id,
          username: row.username,
          sessionId: row.session_id,
          orgId: row.org_id,
          ...roleFlags(row),
        },
        expiresAt: row.expires_at,
      }
    );
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('refresh_tokens as r')
      .innerJoin('auth_sessions as s', 's.id', 'r.session_id')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select([
        'r.session_id',
        'r.user_id',
        'r.expires_at',
        'r.used_at',
        'r.successor',
        's.revoked_at',
        'u.disabled',
      ])
      .where('r.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      row && {
        sessionId: row.session_id,
        userId: row.user_id,
        expiresAt: row.expires_at,
        usedAt: row.used_at,
        successor: row.successor,
        revokedAt: row.revoked_at,
        disabled: row.disabled === 1,
      }
    );
  }

  /** Marks a refresh token used, keeping its sealed successor; false when another request used it first. */
  async markRefreshUsed(tokenHash: string, now: string, successor: string): Promise<boolean> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ used_at: now, successor })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async revokeSession(sessionId: string, reason: string, now: string) {
    await this.db
      .updateTable('auth_sessions')
      .set({ revoked_at: now, revoke_reason: reason })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every live session of a user, but the one kept (if any). */
  async revokeUserSessions(userId: string, reason: string, now: string, exceptSessionId?: string) {
    let query = this.db
      .updateTable('auth_sessions')
      .set({ revoked_at: now, revoke_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
    await query.execute();
  }

  /** Withdraws tokens issued for a rotation that lost the race (never handed out). */
  async deleteTokens(accessHash: string, refreshHash: string) {
    await this.db.deleteFrom('access_tokens').where('token_hash', '=', accessHash).execute();
    await this.db.deleteFrom('refresh_tokens').where('token_hash', '=', refreshHash).execute();
  }

  /**
   * Counts one sign-in attempt in one statement: the count goes up (starting again at 1 when the window began
   * before `windowStartAfter`), and the new count and the delay in force come back. Concurrent attempts therefore
   * each see a count of their own, on SQLite and PostgreSQL alike.
   */
  async countAttempt(
    key: string,
    now: string,
    windowStartAfter: string,
  ): Promise<{ count: number; lockedUntil: string | null }> {
    const stale = sql<boolean>`login_failures.window_start <= ${windowStartAfter}`;
    const row = await this.db
      .insertInto('login_failures')
      .values({ key, count: 1, window_start: now, locked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when ${stale} then 1 else login_failures.count + 1 end`,
          window_start: sql<string>`case when ${stale} then ${now} else login_failures.window_start end`,
          locked_until: sql<string | null>`case when ${stale} then null else login_failures.locked_until end`,
        }),
      )
      .returning(['count', 'locked_until'])
      .executeTakeFirstOrThrow();
    return { count: row.count, lockedUntil: row.locked_until };
  }

  /** Gives an attempt back (a sign-in that succeeded, or one refused before its password was checked). */
  async uncountAttempt(key: string) {
    await this.db
      .updateTable('login_failures')
      .set({ count: sql<number>`case when count > 0 then count - 1 else 0 end` })
      .where('key', '=', key)
      .execute();
  }

  /** Makes the next attempt on a key wait until `until`. */
  async delayAttempts(key: string, until: string) {
    await this.db.updateTable('login_failures').set({ locked_until: until }).where('key', '=', key).execute();
  }

  async clearFailure(key: string) {
    await this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }

  /** Forgets every sign-in counter of an account (its own and its per-address ones). */
  async clearAccountFailures(userId: string) {
    await this.db
      .deleteFrom('login_failures')
      .where((eb) => eb.or([eb('key', '=', `acct:${userId}`), eb('key', 'like', `pair:${userId}|%`)]))
      .execute();
  }

  async insertCaptcha(c: { id: string; answerHash: string; expiresAt: string; createdAt: string }) {
    await this.db
      .insertInto('captchas')
      .values({ id: c.id, answer_hash: c.answerHash, expires_at: c.expiresAt, created_at: c.createdAt })
      .execute();
  }

  /** Takes a captcha out (a captcha is good for one try); undefined when unknown or already used. */
  async takeCaptcha(id: string): Promise<{ answerHash: string; expiresAt: string } | undefined> {
    const row = await this.db.selectFrom('captchas').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const deleted = await this.db.deleteFrom('captchas').where('id', '=', id).executeTakeFirst();
    return deleted.numDeletedRows === 1n
      ? { answerHash: row.answer_hash, expiresAt: row.expires_at }
      : undefined;
  }

  async deleteExpiredCaptchas(now: string) {
    await this.db.deleteFrom('captchas').where('expires_at', '<', now).execute();
  }
}
