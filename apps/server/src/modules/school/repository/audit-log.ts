import { AreaRepository, count } from './base.js';

/** One entry of a school's audit log. */
export interface AuditRecord {
  id: string;
  orgId: string;
  actorId: string | null;
  action: string;
  targetId: string | null;
  detail: string;
  createdAt: string;
}

/** The school audit log. */
export class AuditLogRepository extends AreaRepository {
  async audit(a: AuditRecord) {
    await this.db
      .insertInto('audit_log')
      .values({
        id: a.id,
        org_id: a.orgId,
        actor_id: a.actorId,
        action: a.action,
        target_id: a.targetId,
        detail: a.detail,
        created_at: a.createdAt,
      })
      .execute();
  }

  async pageAudit(
    orgId: string,
    page: number,
    size: number,
  ): Promise<{ rows: (AuditRecord & { actorNickname: string | null })[]; total: number }> {
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
    return {
      rows: rows.map((r) => ({
        id: r.id,
        orgId: r.org_id,
        actorId: r.actor_id,
        action: r.action,
        targetId: r.target_id,
        detail: r.detail,
        createdAt: r.created_at,
        actorNickname: r.actor_nickname,
      })),
      total: count(total?.n),
    };
  }
}
