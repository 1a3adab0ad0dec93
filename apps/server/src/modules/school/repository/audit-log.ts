import type { Insertable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AreaRepository, count } from './base.js';

/** The school audit log. */
export class AuditLogRepository extends AreaRepository {
  async audit(row: Insertable<Database['audit_log']>) {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  async pageAudit(orgId: string, page: number, size: number) {
    const total = await this.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    const rows = await this.db
      .selectFrom('audit_log as a')
      .leftJoin('users as u', 'u.id', 'a.actor_id')
      .selectAll('a')
      .select('u.nickname as actor_nickname')
      .where('a.org_id', '=', orgId)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { rows, total: count(total?.n) };
  }
}
