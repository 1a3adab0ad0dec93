import type { Selectable } from 'kysely';
import type { TeachingGroupsTable } from '../../../db/schema.js';
import { AreaRepository } from './base.js';

/** A teaching group as stored. */
export interface NewGroup {
  id: string;
  orgId: string;
  name: string;
  /** 'research' (教研组) | 'preparation' (备课组) */
  kind: string;
  subjectId: string | null;
  grade: string | null;
  createdAt: string;
}

/** A teaching group with its subject's name. */
export interface TeachingGroup extends NewGroup {
  updatedAt: string;
  subjectName: string | null;
}

/** What a change of a group may set. */
export type GroupChange = Partial<Pick<NewGroup, 'name' | 'kind' | 'subjectId' | 'grade'>>;

/** One member of one group. */
export interface GroupMember {
  groupId: string;
  isLeader: boolean;
  memberId: string;
  userId: string;
  username: string;
  nickname: string;
  avatar: string | null;
}

/** One group a member is in. */
export interface GroupOfMember {
  userId: string;
  id: string;
  name: string;
  kind: string;
  isLeader: boolean;
}

const toGroup = (r: Selectable<TeachingGroupsTable> & { subject_name: string | null }): TeachingGroup => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  kind: r.kind,
  subjectId: r.subject_id,
  grade: r.grade,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  subjectName: r.subject_name,
});

/** Teaching groups (备课组) and their members. */
export class GroupsRepository extends AreaRepository {
  async listGroups(orgId: string, onlyOfUserId?: string): Promise<TeachingGroup[]> {
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
    return (await query.orderBy('g.kind').orderBy('g.created_at').execute()).map(toGroup);
  }

  async findGroup(groupId: string): Promise<TeachingGroup | undefined> {
    const row = await this.db
      .selectFrom('teaching_groups as g')
      .leftJoin('subjects as s', 's.id', 'g.subject_id')
      .selectAll('g')
      .select('s.name as subject_name')
      .where('g.id', '=', groupId)
      .executeTakeFirst();
    return row && toGroup(row);
  }

  async groupMembers(groupIds: string[]): Promise<GroupMember[]> {
    if (groupIds.length === 0) return [];
    const rows = await this.db
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
    return rows.map((r) => ({
      groupId: r.group_id,
      isLeader: r.is_leader === 1,
      memberId: r.member_id,
      userId: r.user_id,
      username: r.username,
      nickname: r.nickname,
      avatar: r.avatar,
    }));
  }

  /** Every group membership of the school's members: for the member list. */
  async groupsOfMembers(orgId: string): Promise<GroupOfMember[]> {
    const rows = await this.db
      .selectFrom('teaching_group_members as gm')
      .innerJoin('teaching_groups as g', 'g.id', 'gm.group_id')
      .select(['gm.user_id', 'g.id', 'g.name', 'g.kind', 'gm.is_leader'])
      .where('g.org_id', '=', orgId)
      .orderBy('g.created_at')
      .execute();
    return rows.map((r) => ({
      userId: r.user_id,
      id: r.id,
      name: r.name,
      kind: r.kind,
      isLeader: r.is_leader === 1,
    }));
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

  async insertGroup(g: NewGroup) {
    await this.db
      .insertInto('teaching_groups')
      .values({
        id: g.id,
        org_id: g.orgId,
        name: g.name,
        kind: g.kind,
        subject_id: g.subjectId,
        grade: g.grade,
        created_at: g.createdAt,
        updated_at: g.createdAt,
      })
      .execute();
  }

  async updateGroup(groupId: string, change: GroupChange, now: string) {
    await this.db
      .updateTable('teaching_groups')
      .set({
        name: change.name,
        kind: change.kind,
        subject_id: change.subjectId,
        grade: change.grade,
        updated_at: now,
      })
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
