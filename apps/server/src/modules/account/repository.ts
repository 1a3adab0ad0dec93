import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

const count = (value: unknown): number => Number(value ?? 0);

/** Accounts (profile, phone, password), SMS codes and feedback. */
export class AccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(fn: (repo: AccountRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new AccountRepository(trx)));
  }

  // ───────────── users ─────────────

  findUser(userId: string) {
    return this.db
      .selectFrom('users')
      .select([
        'id',
        'username',
        'nickname',
        'avatar',
        'phone',
        'password_hash',
        'default_org_id',
        'disabled',
        'created_at',
      ])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  findUserByPhone(phone: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'disabled'])
      .where('phone', '=', phone)
      .executeTakeFirst();
  }

  async usernameTaken(username: string): Promise<boolean> {
    return !!(await this.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst());
  }

  async insertUser(row: Insertable<Database['users']>) {
    await this.db.insertInto('users').values(row).execute();
  }

  async updateUser(
    userId: string,
    set: Partial<
      Pick<Database['users'], 'nickname' | 'avatar' | 'phone' | 'password_hash' | 'default_org_id'>
    >,
    now: string,
  ) {
    await this.db
      .updateTable('users')
      .set({ ...set, updated_at: now })
      .where('id', '=', userId)
      .execute();
  }

  /** The schools of a user with their roles, oldest membership first. */
  schoolsOf(userId: string) {
    return this.db
      .selectFrom('memberships as m')
      .innerJoin('orgs as o', 'o.id', 'm.org_id')
      .select(['o.id', 'o.name', 'o.logo_path', 'm.is_creator', 'm.is_administrator', 'm.is_grade_director'])
      .where('m.user_id', '=', userId)
      .orderBy('m.created_at')
      .execute();
  }

  findMembership(orgId: string, userId: string) {
    return this.db
      .selectFrom('memberships')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
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

  async insertSmsCode(row: Insertable<Database['sms_codes']>) {
    await this.db.insertInto('sms_codes').values(row).execute();
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

  liveSmsCode(phone: string, purpose: string, now: string) {
    return this.db
      .selectFrom('sms_codes')
      .select(['id', 'code_hash', 'attempts'])
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
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

  async insertFeedbackImage(row: Insertable<Database['feedback_images']>) {
    await this.db.insertInto('feedback_images').values(row).execute();
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

  imagesOf(feedbackIds: string[]) {
    if (feedbackIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('feedback_images')
      .select(['id', 'feedback_id', 'path'])
      .where('feedback_id', 'in', feedbackIds)
      .orderBy('sort')
      .execute();
  }

  /** Who a stored screenshot belongs to: its uploader and, once sent, the feedback's school. */
  findImageByPath(path: string) {
    return this.db
      .selectFrom('feedback_images as i')
      .leftJoin('feedback as f', 'f.id', 'i.feedback_id')
      .select(['i.user_id', 'f.org_id'])
      .where('i.path', '=', path)
      .executeTakeFirst();
  }

  async insertFeedback(row: Insertable<Database['feedback']>) {
    await this.db.insertInto('feedback').values(row).execute();
  }

  private feedbackQuery() {
    return this.db
      .selectFrom('feedback as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .leftJoin('users as r', 'r.id', 'f.replied_by')
      .selectAll('f')
      .select(['u.username', 'u.nickname', 'r.nickname as replier']);
  }

  findFeedback(id: string) {
    return this.feedbackQuery().where('f.id', '=', id).executeTakeFirst();
  }

  async pageFeedback(
    filter: { userId?: string; orgId?: string; status?: string | undefined },
    page: number,
    size: number,
  ) {
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
    return { rows, total: count(total?.n) };
  }

  async replyFeedback(id: string, reply: string, userId: string, now: string) {
    await this.db
      .updateTable('feedback')
      .set({ reply, replied_by: userId, replied_at: now, status: 'replied', updated_at: now })
      .where('id', '=', id)
      .execute();
  }
}
