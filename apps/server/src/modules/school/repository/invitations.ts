import type { Selectable } from 'kysely';
import type { InvitationsTable } from '../../../db/schema.js';
import { AreaRepository } from './base.js';

/** An invitation to join a school. */
export interface InvitationRecord {
  id: string;
  orgId: string;
  tokenHash: string;
  /** 'teacher' | 'administrator' | 'gradeDirector' */
  role: string;
  grade: string | null;
  maxUses: number;
  usedCount: number;
  expiresAt: string;
  revokedAt: string | null;
  createdBy: string;
  createdAt: string;
}

/** An invitation with its school's name and logo and its inviter's nickname (what the /invite page shows). */
export interface InvitationToJoin extends InvitationRecord {
  orgName: string;
  logoPath: string | null;
  inviter: string;
}

/** One account that joined by an invitation. */
export interface InvitationUse {
  invitationId: string;
  userId: string;
  createdAt: string;
  username: string;
  nickname: string;
}

const toInvitation = (r: Selectable<InvitationsTable>): InvitationRecord => ({
  id: r.id,
  orgId: r.org_id,
  tokenHash: r.token_hash,
  role: r.role,
  grade: r.grade,
  maxUses: r.max_uses,
  usedCount: r.used_count,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

/** Invitations, their uses and the accounts they create. */
export class InvitationsRepository extends AreaRepository {
  async insertInvitation(i: InvitationRecord) {
    await this.db
      .insertInto('invitations')
      .values({
        id: i.id,
        org_id: i.orgId,
        token_hash: i.tokenHash,
        role: i.role,
        grade: i.grade,
        max_uses: i.maxUses,
        used_count: i.usedCount,
        expires_at: i.expiresAt,
        revoked_at: i.revokedAt,
        created_by: i.createdBy,
        created_at: i.createdAt,
      })
      .execute();
  }

  async findInvitation(id: string): Promise<InvitationRecord | undefined> {
    const row = await this.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toInvitation(row);
  }

  async findInvitationByHash(tokenHash: string): Promise<InvitationToJoin | undefined> {
    const row = await this.db
      .selectFrom('invitations as i')
      .innerJoin('orgs as o', 'o.id', 'i.org_id')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .selectAll('i')
      .select(['o.name as org_name', 'o.logo_path', 'u.nickname as inviter'])
      .where('i.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      row && { ...toInvitation(row), orgName: row.org_name, logoPath: row.logo_path, inviter: row.inviter }
    );
  }

  async listInvitations(orgId: string): Promise<(InvitationRecord & { creatorNickname: string })[]> {
    const rows = await this.db
      .selectFrom('invitations as i')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .selectAll('i')
      .select('u.nickname as creator_nickname')
      .where('i.org_id', '=', orgId)
      .orderBy('i.created_at', 'desc')
      .execute();
    return rows.map((r) => ({ ...toInvitation(r), creatorNickname: r.creator_nickname }));
  }

  async invitationUses(invitationIds: string[]): Promise<InvitationUse[]> {
    if (invitationIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('invitation_uses as iu')
      .innerJoin('users as u', 'u.id', 'iu.user_id')
      .select(['iu.invitation_id', 'iu.user_id', 'iu.created_at', 'u.username', 'u.nickname'])
      .where('iu.invitation_id', 'in', invitationIds)
      .orderBy('iu.created_at')
      .execute();
    return rows.map((r) => ({
      invitationId: r.invitation_id,
      userId: r.user_id,
      createdAt: r.created_at,
      username: r.username,
      nickname: r.nickname,
    }));
  }

  async revokeInvitation(id: string, now: string) {
    await this.db
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Takes one use of a live invitation; false when it was revoked, expired or used up meanwhile. */
  async takeInvitationUse(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('invitations')
      .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .whereRef('used_count', '<', 'max_uses')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async insertInvitationUse(use: { invitationId: string; userId: string; createdAt: string }) {
    await this.db
      .insertInto('invitation_uses')
      .values({ invitation_id: use.invitationId, user_id: use.userId, created_at: use.createdAt })
      .execute();
  }

  /** Creates an account (without phone, avatar or school); false when the username is taken. */
  async insertUser(u: {
    id: string;
    username: string;
    passwordHash: string;
    nickname: string;
    createdAt: string;
  }): Promise<boolean> {
    const result = await this.db
      .insertInto('users')
      .values({
        id: u.id,
        username: u.username,
        password_hash: u.passwordHash,
        nickname: u.nickname,
        avatar: null,
        phone: null,
        default_org_id: null,
        created_at: u.createdAt,
        updated_at: u.createdAt,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
