import type { Insertable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AreaRepository } from './base.js';
import type { GroupRow } from './rows.js';

/** Teaching groups (备课组) and their members. */
export class GroupsRepository extends AreaRepository {
  listGroups(orgId: string, onlyOfUserId?: string) {
    let query = this.db
      .selectFrom('teaching_groups as g')
      .leftJoin('subjects as s', 's.id', 'g.subject_id')
      .selectAll('g')
      .select('s.name as subject_name')
      .where('g.org_id', '=', orgId);
    if (onlyOfUserId) {
      query = query.where('g.id', 'in', (eb) =>
        eb.selectFrom('teaching_group_members').select('group_id').where('user_id', '=', onlyOfUserId),
      );
    }
    return query.orderBy('g.kind').orderBy('g.created_at').execute();
  }

  findGroup(groupId: string) {
    return this.db
      .selectFrom('teaching_groups as g')
      .leftJoin('subjects as s', 's.id', 'g.subject_id')
      .selectAll('g')
      .select('s.name as subject_name')
      .where('g.id', '=', groupId)
      .executeTakeFirst();
  }

  groupMembers(groupIds: string[]) {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('teaching_group_members as gm')
      .innerJoin('teaching_groups as g', 'g.id', 'gm.group_id')
      .innerJoin('memberships as m', (join) =>
        join.onRef('m.org_id', '=', 'g.org_id').onRef('m.user_id', '=', 'gm.user_id'),
      )
      .innerJoin('users as u', 'u.id', 'gm.user_id')
      .select([
        'gm.group_id',
        'gm.is_leader',
        'm.id as member_id',
        'u.id as user_id',
        'u.username',
        'u.nickname',
        'u.avatar',
      ])
      .where('gm.group_id', 'in', groupIds)
      .orderBy('gm.is_leader', 'desc')
      .orderBy('gm.created_at')
      .orderBy('u.username')
      .execute();
  }

  /** Every group membership of the school's members: for the member list. */
  groupsOfMembers(orgId: string) {
    return this.db
      .selectFrom('teaching_group_members as gm')
      .innerJoin('teaching_groups as g', 'g.id', 'gm.group_id')
      .select(['gm.user_id', 'g.id', 'g.name', 'g.kind', 'gm.is_leader'])
      .where('g.org_id', '=', orgId)
      .orderBy('g.created_at')
      .execute();
  }

  async groupNameTaken(orgId: string, name: string, exceptId?: string): Promise<boolean> {
    let query = this.db
      .selectFrom('teaching_groups')
      .select('id')
      .where('org_id', '=', orgId)
      .where('name', '=', name);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return !!(await query.executeTakeFirst());
  }

  async insertGroup(row: Insertable<Database['teaching_groups']>) {
    await this.db.insertInto('teaching_groups').values(row).execute();
  }

  async updateGroup(
    groupId: string,
    set: Partial<Pick<GroupRow, 'name' | 'kind' | 'subject_id' | 'grade'>>,
    now: string,
  ) {
    await this.db
      .updateTable('teaching_groups')
      .set({ ...set, updated_at: now })
      .where('id', '=', groupId)
      .execute();
  }

  async deleteGroup(groupId: string) {
    await this.db.deleteFrom('teaching_group_members').where('group_id', '=', groupId).execute();
    await this.db.deleteFrom('teaching_groups').where('id', '=', groupId).execute();
  }

  async setGroupMembers(groupId: string, members: { userId: string; isLeader: boolean }[], now: string) {
    await this.db.deleteFrom('teaching_group_members').where('group_id', '=', groupId).execute();
    if (members.length === 0) return;
    await this.db
      .insertInto('teaching_group_members')
      .values(
        members.map((m) => ({
          group_id: groupId,
          user_id: m.userId,
          is_leader: m.isLeader ? 1 : 0,
          created_at: now,
        })),
      )
      .execute();
  }
}
