import { sql, type Kysely } from 'kysely';
import type { Database, FeedbackTable } from '../../db/schema.js';
import { roleFlags } from '../../db/role-flags.js';
import { userCard, type UserCard } from '../system/repository.js';

const count = (value: unknown): number => Number(value ?? 0);

/** An account as its owner manages it. */
export interface Account extends UserCard {
  passwordHash: string;
  defaultOrgId: string | null;
  disabled: boolean;
  createdAt: string;
}

/** The columns of a user row an `Account` is made of (the users table as `u`). */
const ACCOUNT_COLUMNS = [
  'u.id',
  'u.username',
  'u.nickname',
  'u.avatar',
  'u.phone',
  'u.password_hash',
  'u.default_org_id',
  'u.disabled',
  'u.created_at',
] as const;

const toAccount = (row: {
  id: string;
  username: string;
  nickname: string;
  avatar: string | null;
  phone: string | null;
  password_hash: string;
  default_org_id: string | null;
  disabled: number;
  created_at: string;
}): Account => ({
  ...userCard(row),
  passwordHash: row.password_hash,
  defaultOrgId: row.default_org_id,
  disabled: row.disabled === 1,
  createdAt: row.created_at,
});

const toSchoolOfUser = (r: {
  id: string;
  name: string;
  logo_path: string | null;
  is_creator: number | null;
  is_administrator: number | null;
  is_grade_director: number | null;
}): SchoolOfUser => ({
  id: r.id,
  name: r.name,
  logoPath: r.logo_path,
  ...roleFlags(r),
});

/** What an account change may set. */
export type AccountChange = Partial<
  Pick<Account, 'nickname' | 'avatar' | 'phone' | 'passwordHash' | 'defaultOrgId'>
>;

/** A school of the user's, with their roles there. */
export interface SchoolOfUser {
  id: string;
  name: string;
  logoPath: string | null;
  isCreator: boolean;
  isAdministrator: boolean;
  isGradeDirector: boolean;
}

/** A feedback with its author's names and the replier's nickname. */
export interface FeedbackRecord {
  id: string;
  orgId: string | null;
  userId: string;
  type: string;
  content: string;
  contact: string | null;
  status: string;
  reply: string | null;
  repliedAt: string | null;
  createdAt: string;
  username: string;
  nickname: string;
  replier: string | null;
}

const toFeedback = (
  r: FeedbackTable & { username: string; nickname: string; replier: string | null },
): FeedbackRecord => ({
  id: r.id,
  orgId: r.org_id,
  userId: r.user_id,
  type: r.type,
  content: r.content,
  contact: r.contact,
  status: r.status,
  reply: r.reply,
  repliedAt: r.replied_at,
  createdAt: r.created_at,
  username: r.username,
  nickname: r.nickname,
  replier: r.replier,
});

/** Accounts (profile, phone, password), SMS codes and feedback. */
export class AccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(fn: (repo: AccountRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new AccountRepository(trx)));
  }

  // ───────────── users ─────────────

  async findUser(userId: string): Promise<Account | undefined> {
    const row = await this.db
      .selectFrom('users as u')
      .select(ACCOUNT_COLUMNS)
      .where('u.id', '=', userId)
      .executeTakeFirst();
    return row && toAccount(row);
  }

  /**
   * An account with the schools it belongs to and its roles there, oldest membership first, in one statement: the
   * profile is read on every page a teacher opens, so its two reads became one (issue 25).
   */
  async findUserWithSchools(
    userId: string,
  ): Promise<{ account: Account; schools: SchoolOfUser[] } | undefined> {
    const rows = await this.db
      .selectFrom('users as u')
      .leftJoin('memberships as m', 'm.user_id', 'u.id')
      .leftJoin('orgs as o', 'o.id', 'm.org_id')
      .select(ACCOUNT_COLUMNS)
      .select([
        'o.id as school_id',
        'o.name as school_name',
        'o.logo_path',
        'm.is_creator',
        'm.is_administrator',
        'm.is_grade_director',
      ])
      .where('u.id', '=', userId)
      .orderBy('m.created_at')
      .execute();
    if (rows.length === 0) return undefined;
    const schools: SchoolOfUser[] = [];
    // A membership of no school (none, or its school gone) joins nothing, as an inner join would leave it out.
    for (const r of rows)
      if (r.school_id !== null && r.school_name !== null)
        schools.push(
          toSchoolOfUser({
            id: r.school_id,
            name: r.school_name,
            logo_path: r.logo_path,
            is_creator: r.is_creator,
            is_administrator: r.is_administrator,
            is_grade_director: r.is_grade_director,
          }),
        );
    return { account: toAccount(rows[0]!), schools };
  }

  async findUserByPhone(
    phone: string,
  ): Promise<{ id: string; username: string; disabled: boolean } | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'disabled'])
      .where('phone', '=', phone)
      .executeTakeFirst();
    return row && { id: row.id, username: row.username, disabled: row.disabled === 1 };
  }

  async usernameTaken(username: string): Promise<boolean> {
    return !!(await this.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst());
  }

  /** A new account registered by phone: no school yet, no avatar. */
  async insertUser(a: {
    id: string;
    username: string;
    passwordHash: string;
    nickname: string;
    phone: string;
    now: string;
  }) {
    await this.db
      .insertInto('users')
      .values({
        id: a.id,
        username: a.username,
        password_hash: a.passwordHash,
        nickname: a.nickname,
        avatar: null,
        phone: a.phone,
        default_org_id: null,
        created_at: a.now,
        updated_at: a.now,
      })
      .execute();
  }

  async updateUser(userId: string, change: AccountChange, now: string) {
    await this.db
      .updateTable('users')
      .set({
        ...(change.nickname !== undefined ? { nickname: change.nickname } : {}),
        ...(change.avatar !== undefined ? { avatar: change.avatar } : {}),
        ...(change.phone !== undefined ? { phone: change.phone } : {}),
        ...(change.passwordHash !== undefined ? { password_hash: change.passwordHash } : {}),
        ...(change.defaultOrgId !== undefined ? { default_org_id: change.defaultOrgId } : {}),
        updated_at: now,
      })
      .where('id', '=', userId)
      .execute();
  }

  /** Whether the user is a member of the school. */
  async isMember(orgId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('memberships')
      .select('user_id')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return !!row;
  }

  // ───────────── SMS codes ─────────────

  async lastSmsAt(phone: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('sms_codes')
      .select('created_at')
      .where('phone', '=', phone)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.created_at ?? null;
  }

  async countSmsSince(by: { phone: string } | { ip: string }, since: string): Promise<number> {
    let query = this.db
      .selectFrom('sms_codes')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('created_at', '>', since);
    query = 'phone' in by ? query.where('phone', '=', by.phone) : query.where('ip', '=', by.ip);
    return count((await query.executeTakeFirst())?.n);
  }

  /** A code sent: only its hash is kept. */
  async insertSmsCode(c: {
    id: string;
    phone: string;
    purpose: string;
    codeHash: string;
    ip: string | null;
    expiresAt: string;
    createdAt: string;
  }) {
    await this.db
      .insertInto('sms_codes')
      .values({
        id: c.id,
        phone: c.phone,
        purpose: c.purpose,
        code_hash: c.codeHash,
        ip: c.ip,
        attempts: 0,
        expires_at: c.expiresAt,
        consumed_at: null,
        created_at: c.createdAt,
      })
      .execute();
  }

  /** Earlier live codes of the phone for the purpose stop working when a new one is sent. */
  async withdrawSmsCodes(phone: string, purpose: string, now: string) {
    await this.db
      .updateTable('sms_codes')
      .set({ consumed_at: now })
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .execute();
  }

  async liveSmsCode(
    phone: string,
    purpose: string,
    now: string,
  ): Promise<{ id: string; codeHash: string; attempts: number } | undefined> {
    const row = await this.db
      .selectFrom('sms_codes')
      .select(['id', 'code_hash', 'attempts'])
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { id: row.id, codeHash: row.code_hash, attempts: row.attempts };
  }

  /** Counts a wrong try; `spentAt` ends the code when it was the last try allowed. */
  async failSmsCode(id: string, spentAt: string | null) {
    await this.db
      .updateTable('sms_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), ...(spentAt ? { consumed_at: spentAt } : {}) }))
      .where('id', '=', id)
      .execute();
  }

  /** Uses a code up; false when another request used it first. */
  async consumeSmsCode(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sms_codes')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  // ───────────── feedback ─────────────

  /** A screenshot uploaded before its feedback is sent. */
  async insertFeedbackImage(i: { id: string; userId: string; path: string; createdAt: string }) {
    await this.db
      .insertInto('feedback_images')
      .values({ id: i.id, user_id: i.userId, feedback_id: null, path: i.path, created_at: i.createdAt })
      .execute();
  }

  /** The caller's screenshots not yet attached to a feedback, among the ids. */
  unattachedImages(userId: string, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('feedback_images')
      .select(['id', 'path'])
      .where('user_id', '=', userId)
      .where('feedback_id', 'is', null)
      .where('id', 'in', ids)
      .execute();
  }

  async attachImages(feedbackId: string, ids: string[]) {
    for (const [i, id] of ids.entries()) {
      await this.db
        .updateTable('feedback_images')
        .set({ feedback_id: feedbackId, sort: i + 1 })
        .where('id', '=', id)
        .execute();
    }
  }

  async imagesOf(feedbackIds: string[]): Promise<{ id: string; feedbackId: string | null; path: string }[]> {
    if (feedbackIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('feedback_images')
      .select(['id', 'feedback_id', 'path'])
      .where('feedback_id', 'in', feedbackIds)
      .orderBy('sort')
      .execute();
    return rows.map((r) => ({ id: r.id, feedbackId: r.feedback_id, path: r.path }));
  }

  /** Who a stored screenshot belongs to: its uploader and, once sent, the feedback's school. */
  async findImageByPath(path: string): Promise<{ userId: string; orgId: string | null } | undefined> {
    const row = await this.db
      .selectFrom('feedback_images as i')
      .leftJoin('feedback as f', 'f.id', 'i.feedback_id')
      .select(['i.user_id', 'f.org_id'])
      .where('i.path', '=', path)
      .executeTakeFirst();
    return row && { userId: row.user_id, orgId: row.org_id ?? null };
  }

  /** A new feedback, pending a reply. */
  async insertFeedback(f: {
    id: string;
    orgId: string | null;
    userId: string;
    type: string;
    content: string;
    contact: string | null;
    now: string;
  }) {
    await this.db
      .insertInto('feedback')
      .values({
        id: f.id,
        org_id: f.orgId,
        user_id: f.userId,
        type: f.type,
        content: f.content,
        contact: f.contact,
        status: 'pending',
        reply: null,
        replied_by: null,
        replied_at: null,
        created_at: f.now,
        updated_at: f.now,
      })
      .execute();
  }

  private feedbackQuery() {
    return this.db
      .selectFrom('feedback as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .leftJoin('users as r', 'r.id', 'f.replied_by')
      .selectAll('f')
      .select(['u.username', 'u.nickname', 'r.nickname as replier']);
  }

  async findFeedback(id: string): Promise<FeedbackRecord | undefined> {
    const row = await this.feedbackQuery().where('f.id', '=', id).executeTakeFirst();
    return row && toFeedback(row);
  }

  async pageFeedback(
    filter: { userId?: string; orgId?: string; status?: string | undefined },
    page: number,
    size: number,
  ): Promise<{ feedback: FeedbackRecord[]; total: number }> {
    let query = this.feedbackQuery();
    if (filter.userId) query = query.where('f.user_id', '=', filter.userId);
    if (filter.orgId) query = query.where('f.org_id', '=', filter.orgId);
    if (filter.status) query = query.where('f.status', '=', filter.status);
    const total = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const rows = await query
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { feedback: rows.map(toFeedback), total: count(total?.n) };
  }

  async replyFeedback(id: string, reply: string, userId: string, now: string) {
    await this.db
      .updateTable('feedback')
      .set({ reply, replied_by: userId, replied_at: now, status: 'replied', updated_at: now })
      .where('id', '=', id)
      .execute();
  }
}
