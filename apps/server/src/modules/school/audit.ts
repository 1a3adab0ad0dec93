import { AUDIT_ACTION_NAMES, type AuditAction, type AuditEntry } from '@zhzy/contracts';
import { newId } from '../../lib/ids.js';
import type { SchoolRepository } from './repository.js';

// The school's audit log: administrative actions recorded, and read a page at a time by administrators.

/** Records administrative actions in the school's audit log. */
export class AuditLog {
  constructor(private readonly clock: () => number) {}

  async record(
    repo: SchoolRepository,
    actor: { orgId: string; userId: string },
    action: AuditAction,
    targetId: string | null,
    detail: string,
  ): Promise<void> {
    await repo.auditLog.audit({
      id: newId(),
      orgId: actor.orgId,
      actorId: actor.userId,
      action,
      targetId,
      detail: `${AUDIT_ACTION_NAMES[action]}：${detail}`,
      createdAt: new Date(this.clock()).toISOString(),
    });
  }
}

/** A page of the school's audit log, newest first. */
export async function auditPage(
  repo: SchoolRepository,
  orgId: string,
  query: { page: number; size: number },
): Promise<{ records: AuditEntry[]; total: number; page: number; size: number }> {
  const { rows, total } = await repo.auditLog.pageAudit(orgId, query.page, query.size);
  return {
    records: rows.map((r) => ({
      id: r.id,
      action: r.action,
      actionName: AUDIT_ACTION_NAMES[r.action as AuditAction] ?? r.action,
      actor: r.actorId ? { userId: r.actorId, nickname: r.actorNickname ?? '' } : null,
      detail: r.detail,
      createdAt: r.createdAt,
    })),
    total,
    page: query.page,
    size: query.size,
  };
}
