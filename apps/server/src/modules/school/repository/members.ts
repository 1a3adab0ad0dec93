import type { Selectable } from 'kysely';
import { containsPattern, ilike } from '../../../db/dialect.js';
import type { MembershipsTable } from '../../../db/schema.js';
import { roleFlags } from '../../../db/role-flags.js';
import { AreaRepository, count, flag } from './base.js';

/** A school with its creator's nickname. */
export interface School {
  id: string;
  name: string;
  logoPath: string | null;
  region: string | null;
  address: string | null;
  phone: string | null;
  intro: string | null;
  timeZone: string;
  createdBy: string | null;
  createdAt: string;
  creatorNickname: string | null;
}

/** What creating a school writes. */
export type NewSchool = Omit<School, 'timeZone' | 'creatorNickname'>;

/** What a change of a school may set. */
export type SchoolChange = Partial<
  Pick<School, 'name' | 'region' | 'address' | 'phone' | 'intro' | 'logoPath' | 'timeZone'>
>;

/** A user's membership of a school, with their roles there. */
export interface Membership {
  id: string;
  orgId: string;
  userId: string;
  isCreator: boolean;
  isAdministrator: boolean;
  isGradeDirector: boolean;
  defaultYearId: string | null;
  createdAt: string;
}

/** A member as the member list shows them: membership, account and roles. */
export interface MemberRecord {
  memberId: string;
  orgId: string;
  userId: string;
  username: string;
  nickname: string;
  avatar: string | null;
  phone: string | null;
  isCreator: boolean;
  isAdministrator: boolean;
  isGradeDirector: boolean;
  joinedAt: string;
}

/** The account fields the school module reads. */
export interface SchoolUser {
  id: string;
  username: string;
  nickname: string;
  defaultOrgId: string | null;
  disabled: boolean;
}

/** One director of one grade. */
export interface GradeDirector {
  grade: string;
  memberId: string;
  userId: string;
  username: string;
  nickname: string;
}

const toMembership = (r: Selectable<MembershipsTable>): Membership => ({
  id: r.id,
  orgId: r.org_id,
  userId: r.user_id,
  ...roleFlags(r),
  defaultYearId: r.default_year_id,
  createdAt: r.created_at,
});

const toMember = (r: {
  member_id: string;
  org_id: string;
  user_id: string;
  username: string;
  nickname: string;
  avatar: string | null;
  phone: string | null;
  is_creator: number;
  is_administrator: number;
  is_grade_director: number;
  joined_at: string;
}): MemberRecord => ({
  memberId: r.member_id,
  orgId: r.org_id,
  userId: r.user_id,
  username: r.username,
  nickname: r.nickname,
  avatar: r.avatar,
  phone: r.phone,
  ...roleFlags(r),
  joinedAt: r.joined_at,
});

/** Schools, memberships and grade directors. */
export class MembersRepository extends AreaRepository {
  async findOrg(orgId: string): Promise<School | undefined> {
    const r = await this.db
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
    return (
      r && {
        id: r.id,
        name: r.name,
        logoPath: r.logo_path,
        region: r.region,
        address: r.address,
        phone: r.phone,
        intro: r.intro,
        timeZone: r.time_zone,
        createdBy: r.created_by,
        createdAt: r.created_at,
        creatorNickname: r.creator_nickname,
      }
    );
  }

  async insertOrg(o: NewSchool) {
    await this.db
      .insertInto('orgs')
      .values({
        id: o.id,
        name: o.name,
        logo_path: o.logoPath,
        region: o.region,
        address: o.address,
        phone: o.phone,
        intro: o.intro,
        created_by: o.createdBy,
        created_at: o.createdAt,
        updated_at: o.createdAt,
      })
      .execute();
  }

  async updateOrg(orgId: string, change: SchoolChange, now: string) {
    await this.db
      .updateTable('orgs')
      .set({
        name: change.name,
        region: change.region,
        address: change.address,
        phone: change.phone,
        intro: change.intro,
        logo_path: change.logoPath,
        time_zone: change.timeZone,
        updated_at: now,
      })
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

  async findMembership(orgId: string, userId: string): Promise<Membership | undefined> {
    const row = await this.db
      .selectFrom('memberships')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && toMembership(row);
  }

  async findMembershipById(memberId: string): Promise<Membership | undefined> {
    const row = await this.db
      .selectFrom('memberships')
      .selectAll()
      .where('id', '=', memberId)
      .executeTakeFirst();
    return row && toMembership(row);
  }

  async insertMembership(m: Membership) {
    await this.db
      .insertInto('memberships')
      .values({
        id: m.id,
        org_id: m.orgId,
        user_id: m.userId,
        is_creator: m.isCreator ? 1 : 0,
        is_administrator: m.isAdministrator ? 1 : 0,
        is_grade_director: m.isGradeDirector ? 1 : 0,
        default_year_id: m.defaultYearId,
        created_at: m.createdAt,
      })
      .execute();
  }

  async updateMembership(
    memberId: string,
    change: Partial<Pick<Membership, 'isAdministrator' | 'isGradeDirector'>>,
  ) {
    await this.db
      .updateTable('memberships')
      .set({
        is_administrator: flag(change.isAdministrator),
        is_grade_director: flag(change.isGradeDirector),
      })
      .where('id', '=', memberId)
      .execute();
  }

  /** Removes a member and everything that ties them to the school (roles per grade, teaching, groups). */
  async deleteMembership(member: Membership) {
    const { orgId, userId } = member;
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

  async findUser(userId: string): Promise<SchoolUser | undefined> {
    const r = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'nickname', 'default_org_id', 'disabled'])
      .where('id', '=', userId)
      .executeTakeFirst();
    return (
      r && {
        id: r.id,
        username: r.username,
        nickname: r.nickname,
        defaultOrgId: r.default_org_id,
        disabled: r.disabled === 1,
      }
    );
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

  private memberQuery() {
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
      ]);
  }

  async listMembers(orgId: string, keyword?: string): Promise<MemberRecord[]> {
    let query = this.memberQuery().where('m.org_id', '=', orgId);
    if (keyword) {
      const pattern = containsPattern(keyword);
      query = query.where((eb) =>
        eb.or([ilike(this.dialect, 'u.nickname', pattern), ilike(this.dialect, 'u.username', pattern)]),
      );
    }
    return (await query.orderBy('m.created_at').orderBy('m.id').execute()).map(toMember);
  }

  async findMember(memberId: string): Promise<MemberRecord | undefined> {
    const row = await this.memberQuery().where('m.id', '=', memberId).executeTakeFirst();
    return row && toMember(row);
  }

  /** Memberships of the school among the given ids. */
  async membershipsIn(orgId: string, memberIds: string[]): Promise<{ id: string; userId: string }[]> {
    if (memberIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('memberships')
      .select(['id', 'user_id'])
      .where('org_id', '=', orgId)
      .where('id', 'in', memberIds)
      .execute();
    return rows.map((r) => ({ id: r.id, userId: r.user_id }));
  }

  async gradeDirectors(orgId: string, userId?: string): Promise<GradeDirector[]> {
    let query = this.db
      .selectFrom('grade_directors as g')
      .innerJoin('memberships as m', (join) =>
        join.onRef('m.org_id', '=', 'g.org_id').onRef('m.user_id', '=', 'g.user_id'),
      )
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select(['g.grade', 'm.id as member_id', 'u.id as user_id', 'u.username', 'u.nickname'])
      .where('g.org_id', '=', orgId);
    if (userId) query = query.where('g.user_id', '=', userId);
    const rows = await query.orderBy('g.created_at').orderBy('u.username').execute();
    return rows.map((r) => ({
      grade: r.grade,
      memberId: r.member_id,
      userId: r.user_id,
      username: r.username,
      nickname: r.nickname,
    }));
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
