import type { Insertable } from 'kysely';
import { containsPattern, ilike } from '../../../db/dialect.js';
import type { Database } from '../../../db/schema.js';
import { AreaRepository, count } from './base.js';
import type { MembershipRow, MemberRow } from './rows.js';

/** Schools, memberships and grade directors. */
export class MembersRepository extends AreaRepository {
  findOrg(orgId: string) {
    return this.db
      .selectFrom('orgs as o')
      .leftJoin('users as c', 'c.id', 'o.created_by')
      .select([
        'o.id',
        'o.name',
        'o.logo_path',
        'o.region',
        'o.address',
        'o.phone',
        'o.intro',
        'o.time_zone',
        'o.created_by',
        'o.created_at',
        'c.nickname as creator_nickname',
      ])
      .where('o.id', '=', orgId)
      .executeTakeFirst();
  }

  async insertOrg(row: Insertable<Database['orgs']>) {
    await this.db.insertInto('orgs').values(row).execute();
  }

  async updateOrg(
    orgId: string,
    set: Partial<Pick<Database['orgs'], 'name' | 'region' | 'address' | 'phone' | 'intro' | 'logo_path'>> & {
      time_zone?: string;
    },
    now: string,
  ) {
    await this.db
      .updateTable('orgs')
      .set({ ...set, updated_at: now })
      .where('id', '=', orgId)
      .execute();
  }

  async countOrgsCreatedBy(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('orgs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('created_by', '=', userId)
      .executeTakeFirst();
    return count(row?.n);
  }

  async orgCounts(orgId: string) {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('memberships')
          .select(eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .as('members'),
        eb
          .selectFrom('school_years')
          .select(eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .where('archived', '=', 0)
          .as('years'),
        eb
          .selectFrom('classes as c')
          .innerJoin('school_years as y', 'y.id', 'c.year_id')
          .select(eb.fn.countAll().as('n'))
          .where('c.org_id', '=', orgId)
          .where('y.archived', '=', 0)
          .as('classes'),
        eb
          .selectFrom('students as s')
          .select(eb.fn.countAll().as('n'))
          .where('s.org_id', '=', orgId)
          .where('s.graduated_at', 'is', null)
          .as('students'),
        eb
          .selectFrom('teaching_groups')
          .select(eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .as('groups'),
      ])
      .executeTakeFirstOrThrow();
    return {
      members: count(row.members),
      years: count(row.years),
      classes: count(row.classes),
      students: count(row.students),
      groups: count(row.groups),
    };
  }

  findMembership(orgId: string, userId: string) {
    return this.db
      .selectFrom('memberships')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  findMembershipById(memberId: string) {
    return this.db.selectFrom('memberships').selectAll().where('id', '=', memberId).executeTakeFirst();
  }

  async insertMembership(row: Insertable<Database['memberships']>) {
    await this.db.insertInto('memberships').values(row).execute();
  }

  async updateMembership(
    memberId: string,
    set: Partial<Pick<MembershipRow, 'is_administrator' | 'is_grade_director'>>,
  ) {
    await this.db.updateTable('memberships').set(set).where('id', '=', memberId).execute();
  }

  /** Removes a member and everything that ties them to the school (roles per grade, teaching, groups). */
  async deleteMembership(member: MembershipRow) {
    const { org_id: orgId, user_id: userId } = member;
    await this.deleteMemberRows(orgId, userId, [
      'grade_directors',
      'teaching_assignments',
      'member_subjects',
    ]);
    await this.db
      .deleteFrom('teaching_group_members')
      .where('user_id', '=', userId)
      .where('group_id', 'in', (eb) =>
        eb.selectFrom('teaching_groups').select('id').where('org_id', '=', orgId),
      )
      .execute();
    await this.db.deleteFrom('memberships').where('id', '=', member.id).execute();
  }

  findUser(userId: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'nickname', 'default_org_id', 'disabled'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** Points a user's current school at `orgId` (or their oldest other membership, or none). */
  async setDefaultOrg(userId: string, orgId: string | null, now: string) {
    await this.db
      .updateTable('users')
      .set({ default_org_id: orgId, updated_at: now })
      .where('id', '=', userId)
      .execute();
  }

  async firstOtherMembership(userId: string, exceptOrgId: string) {
    const row = await this.db
      .selectFrom('memberships')
      .select('org_id')
      .where('user_id', '=', userId)
      .where('org_id', '!=', exceptOrgId)
      .orderBy('created_at')
      .executeTakeFirst();
    return row?.org_id ?? null;
  }

  /** Administrators of a school (the creator counts as one), except one user. */
  async countManagers(orgId: string, exceptUserId: string): Promise<number> {
    const row = await this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('org_id', '=', orgId)
      .where('user_id', '!=', exceptUserId)
      .where((eb) => eb.or([eb('is_administrator', '=', 1), eb('is_creator', '=', 1)]))
      .executeTakeFirst();
    return count(row?.n);
  }

  listMembers(orgId: string, keyword?: string): Promise<MemberRow[]> {
    let query = this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select([
        'm.id as member_id',
        'u.id as user_id',
        'u.username',
        'u.nickname',
        'u.avatar',
        'u.phone',
        'm.is_creator',
        'm.is_administrator',
        'm.is_grade_director',
        'm.created_at as joined_at',
      ])
      .where('m.org_id', '=', orgId);
    if (keyword) {
      const pattern = containsPattern(keyword);
      query = query.where((eb) =>
        eb.or([ilike(this.dialect, 'u.nickname', pattern), ilike(this.dialect, 'u.username', pattern)]),
      );
    }
    return query.orderBy('m.created_at').orderBy('m.id').execute();
  }

  async findMember(memberId: string): Promise<(MemberRow & { org_id: string }) | undefined> {
    return this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select([
        'm.id as member_id',
        'm.org_id',
        'u.id as user_id',
        'u.username',
        'u.nickname',
        'u.avatar',
        'u.phone',
        'm.is_creator',
        'm.is_administrator',
        'm.is_grade_director',
        'm.created_at as joined_at',
      ])
      .where('m.id', '=', memberId)
      .executeTakeFirst();
  }

  /** Memberships of the school among the given ids. */
  membershipsIn(orgId: string, memberIds: string[]) {
    if (memberIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('memberships')
      .select(['id', 'user_id'])
      .where('org_id', '=', orgId)
      .where('id', 'in', memberIds)
      .execute();
  }

  gradeDirectors(orgId: string, userId?: string) {
    let query = this.db
      .selectFrom('grade_directors as g')
      .innerJoin('memberships as m', (join) =>
        join.onRef('m.org_id', '=', 'g.org_id').onRef('m.user_id', '=', 'g.user_id'),
      )
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select(['g.grade', 'm.id as member_id', 'u.id as user_id', 'u.username', 'u.nickname'])
      .where('g.org_id', '=', orgId);
    if (userId) query = query.where('g.user_id', '=', userId);
    return query.orderBy('g.created_at').orderBy('u.username').execute();
  }

  /** Replaces the directors of one grade. */
  setGradeDirectors(orgId: string, grade: string, userIds: string[], now: string) {
    return this.replaceGradeDirectors(
      orgId,
      { grade },
      userIds.map((userId) => ({ grade, userId })),
      now,
    );
  }

  /** Replaces the grades one member directs. */
  setGradesOf(orgId: string, userId: string, grades: string[], now: string) {
    return this.replaceGradeDirectors(
      orgId,
      { userId },
      grades.map((grade) => ({ grade, userId })),
      now,
    );
  }

  /** Replaces the grade_directors rows of one grade or of one member with the given pairs. */
  private async replaceGradeDirectors(
    orgId: string,
    of: { grade: string } | { userId: string },
    pairs: { grade: string; userId: string }[],
    now: string,
  ): Promise<void> {
    const scoped = this.db.deleteFrom('grade_directors').where('org_id', '=', orgId);
    await (
      'grade' in of ? scoped.where('grade', '=', of.grade) : scoped.where('user_id', '=', of.userId)
    ).execute();
    if (pairs.length === 0) return;
    await this.db
      .insertInto('grade_directors')
      .values(pairs.map((p) => ({ org_id: orgId, grade: p.grade, user_id: p.userId, created_at: now })))
      .execute();
  }

  /** Keeps memberships.is_grade_director equal to "directs at least one grade" for the given users. */
  async syncGradeDirectorFlags(orgId: string, userIds: string[]) {
    if (userIds.length === 0) return;
    await this.db
      .updateTable('memberships')
      .set((eb) => ({
        is_grade_director: eb
          .case()
          .when(
            eb.exists(
              eb
                .selectFrom('grade_directors as g')
                .select('g.grade')
                .whereRef('g.org_id', '=', 'memberships.org_id')
                .whereRef('g.user_id', '=', 'memberships.user_id'),
            ),
          )
          .then(1)
          .else(0)
          .end(),
      }))
      .where('org_id', '=', orgId)
      .where('user_id', 'in', userIds)
      .execute();
  }
}
