import type { Insertable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AreaRepository } from './base.js';

/** Invitations, their uses and the accounts they create. */
export class InvitationsRepository extends AreaRepository {
  async insertInvitation(row: Insertable<Database['invitations']>) {
    await this.db.insertInto('invitations').values(row).execute();
  }

  findInvitation(id: string) {
    return this.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findInvitationByHash(tokenHash: string) {
    return this.db
      .selectFrom('invitations as i')
      .innerJoin('orgs as o', 'o.id', 'i.org_id')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .selectAll('i')
      .select(['o.name as org_name', 'o.logo_path', 'u.nickname as inviter'])
      .where('i.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  listInvitations(orgId: string) {
    return this.db
      .selectFrom('invitations as i')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .selectAll('i')
      .select('u.nickname as creator_nickname')
      .where('i.org_id', '=', orgId)
      .orderBy('i.created_at', 'desc')
      .execute();
  }

  invitationUses(invitationIds: string[]) {
    if (invitationIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('invitation_uses as iu')
      .innerJoin('users as u', 'u.id', 'iu.user_id')
      .select(['iu.invitation_id', 'iu.user_id', 'iu.created_at', 'u.username', 'u.nickname'])
      .where('iu.invitation_id', 'in', invitationIds)
      .orderBy('iu.created_at')
      .execute();
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

  async insertInvitationUse(row: Insertable<Database['invitation_uses']>) {
    await this.db.insertInto('invitation_uses').values(row).execute();
  }

  async insertUser(row: Insertable<Database['users']>): Promise<boolean> {
    const result = await this.db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
