import {
  MESSAGES,
  SCHOOL_MESSAGES,
  type Grade,
  type Group,
  type GroupKind,
  type Member,
  type SchoolRole,
} from '@zhzy/contracts';
import { isUniqueViolation } from '../../db/dialect.js';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { groupKind, presentGroup, presentMember, rolesOf } from './presenter.js';
import type { GroupChange, MemberRecord, SchoolRepository } from './repository.js';
import type { AuditLog, SchoolService } from './service.js';
import { SCHOOL_TEXT } from '../../i18n/messages.js';

/** Members (roles, teaching, removal) and teaching groups (教研组 / 备课组) of a school. */
export class TeamService {
  constructor(
    private readonly repo: SchoolRepository,
    private readonly school: SchoolService,
    private readonly log: AuditLog,
    private readonly clock: () => number,
  ) {}

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  // ───────────── members ─────────────

  private async present(orgId: string, rows: MemberRecord[]): Promise<Member[]> {
    const [grades, subjects, classes, groups] = await Promise.all([
      this.repo.members.gradeDirectors(orgId),
      this.repo.teaching.memberSubjects(orgId),
      this.repo.teaching.teachingClasses(orgId),
      this.repo.groups.groupsOfMembers(orgId),
    ]);
    return rows.map((row) =>
      presentMember(row, {
        grades: grades.filter((g) => g.userId === row.userId).map((g) => g.grade),
        teaching: subjects
          .filter((s) => s.userId === row.userId)
          .map((s) => ({
            subjectId: s.id,
            subjectName: s.name,
            classes: classes
              .filter((c) => c.userId === row.userId && c.subjectId === s.id)
              .map((c) => ({ id: c.id, name: c.name })),
          })),
        groups: groups
          .filter((g) => g.userId === row.userId)
          .map((g) => ({ id: g.id, name: g.name, kind: groupKind(g.kind), isLeader: g.isLeader })),
      }),
    );
  }

  private async member(memberId: string): Promise<Member> {
    const row = await this.repo.members.findMember(memberId);
    if (!row) throw notFound(SCHOOL_MESSAGES.memberNotFound);
    const [member] = await this.present(row.orgId, [row]);
    return member!;
  }

  /** /team/member: every member with roles, grades, teaching and groups (administrators only). */
  async members(
    auth: AuthContext,
    query: { orgId?: string | undefined; keyword?: string | undefined; role?: SchoolRole | undefined },
  ): Promise<Member[]> {
    const actor = await this.school.access.admin(auth, query.orgId);
    let rows = await this.repo.members.listMembers(actor.orgId, query.keyword);
    if (query.role) {
      const role = query.role;
      // 'teacher' lists the members with no other role.
      rows = rows.filter((r) => (role === 'teacher' ? rolesOf(r).length === 1 : rolesOf(r).includes(role)));
    }
    return this.present(actor.orgId, rows);
  }

  private async target(auth: AuthContext, memberId: string) {
    const row = await this.repo.members.findMember(memberId);
    const actor = await this.school.access.adminOfRow(auth, row?.orgId, SCHOOL_MESSAGES.memberNotFound);
    return { row: row!, actor };
  }

  /** Sets a member's administrator role and the grades they direct. */
  async setRoles(
    auth: AuthContext,
    memberId: string,
    input: { isAdministrator: boolean; grades: Grade[] },
  ): Promise<Member> {
    const { row, actor } = await this.target(auth, memberId);
    if (row.isCreator && !input.isAdministrator)
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.creatorIsAdmin);
    if (
      row.userId === actor.userId &&
      !input.isAdministrator &&
      (await this.repo.members.countManagers(actor.orgId, actor.userId)) === 0
    )
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.lastAdministrator);
    const grades = [...new Set(input.grades)];
    await this.repo.transaction(async (repo) => {
      await repo.members.updateMembership(row.memberId, { isAdministrator: input.isAdministrator });
      await repo.members.setGradesOf(actor.orgId, row.userId, grades, this.now());
      await repo.members.syncGradeDirectorFlags(actor.orgId, [row.userId]);
      await this.log.record(
        repo,
        actor,
        'member.roles',
        row.memberId,
        SCHOOL_TEXT.memberRoles(row.nickname, input.isAdministrator, grades),
      );
    });
    return this.member(row.memberId);
  }

  /** Sets the subjects a member teaches and, per subject, the classes (of unarchived years of the school). */
  async setTeaching(
    auth: AuthContext,
    memberId: string,
    teaching: { subjectId: string; classIds: string[] }[],
  ): Promise<Member> {
    const { row, actor } = await this.target(auth, memberId);
    const merged = new Map<string, Set<string>>();
    for (const t of teaching) {
      const set = merged.get(t.subjectId) ?? new Set<string>();
      t.classIds.forEach((id) => set.add(id));
      merged.set(t.subjectId, set);
    }
    const catalogue = new Map((await this.repo.teaching.catalogueSubjects()).map((s) => [s.id, s]));
    const offered = await this.school.offeredIds(actor.orgId);
    for (const subjectId of merged.keys()) {
      const subject = catalogue.get(subjectId);
      if (!subject) throw new AppError('VALIDATION', SCHOOL_MESSAGES.subjectNotFound);
      if (!offered.has(subjectId))
        throw new AppError('VALIDATION', SCHOOL_MESSAGES.subjectNotOffered(subject.name));
    }
    const classIds = [...new Set([...merged.values()].flatMap((s) => [...s]))];
    const classes = await this.repo.years.classesIn(actor.orgId, classIds);
    if (classes.length !== classIds.length) throw new AppError('VALIDATION', SCHOOL_MESSAGES.classNotFound);
    if (classes.some((c) => c.yearArchived)) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearArchived);
    const entries = [...merged].map(([subjectId, ids]) => ({ subjectId, classIds: [...ids] }));
    await this.repo.transaction(async (repo) => {
      await repo.teaching.setTeaching(actor.orgId, row.userId, entries);
      await this.log.record(
        repo,
        actor,
        'member.teaching',
        row.memberId,
        SCHOOL_TEXT.teaching(
          row.nickname,
          entries.map((e) => SCHOOL_TEXT.teachingEntry(catalogue.get(e.subjectId)!.name, e.classIds.length)),
        ),
      );
    });
    return this.member(row.memberId);
  }

  /**
   * Removes a member: never the creator, and not oneself when one is the school's last administrator. Their grades,
   * teaching and group places go with them; if it was their current school, their next school (or none) takes over.
   */
  async remove(auth: AuthContext, memberId: string): Promise<void> {
    const { row, actor } = await this.target(auth, memberId);
    if (row.isCreator) throw new AppError('CONFLICT', SCHOOL_MESSAGES.cannotRemoveCreator);
    if (
      row.userId === actor.userId &&
      (await this.repo.members.countManagers(actor.orgId, actor.userId)) === 0
    )
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.lastAdministrator);
    const membership = await this.repo.members.findMembershipById(row.memberId);
    const user = await this.repo.members.findUser(row.userId);
    await this.repo.transaction(async (repo) => {
      await repo.members.deleteMembership(membership!);
      if (user?.defaultOrgId === actor.orgId) {
        await repo.members.setDefaultOrg(
          row.userId,
          await repo.members.firstOtherMembership(row.userId, actor.orgId),
          this.now(),
        );
      }
      await this.log.record(repo, actor, 'member.remove', row.memberId, `${row.nickname}（${row.username}）`);
    });
  }

  // ───────────── groups ─────────────

  /** Administrators see every group (or only theirs with `mine`); other members see the groups they are in. */
  async groups(
    auth: AuthContext,
    query: { orgId?: string | undefined; mine?: boolean | undefined },
  ): Promise<Group[]> {
    const actor = await this.school.access.member(auth, query.orgId);
    const onlyMine = !actor.canManage || query.mine === true;
    const rows = await this.repo.groups.listGroups(actor.orgId, onlyMine ? actor.userId : undefined);
    const members = await this.repo.groups.groupMembers(rows.map((r) => r.id));
    return rows.map((r) => presentGroup(r, members, actor.userId));
  }

  /** One group: its members and administrators see it; another member of the school gets 403. */
  async group(auth: AuthContext, groupId: string): Promise<Group> {
    const row = await this.repo.groups.findGroup(groupId);
    const actor = await this.school.access.memberOfRow(auth, row?.orgId, SCHOOL_MESSAGES.groupNotFound);
    const members = await this.repo.groups.groupMembers([row!.id]);
    const group = presentGroup(row!, members, actor.userId);
    if (!actor.canManage && !group.mine) throw forbidden(MESSAGES.forbidden);
    return group;
  }

  private async checkSubject(subjectId: string | null | undefined) {
    if (!subjectId) return;
    const known = await this.repo.teaching.catalogueSubjects();
    if (!known.some((s) => s.id === subjectId))
      throw new AppError('VALIDATION', SCHOOL_MESSAGES.subjectNotFound);
  }

  async createGroup(
    auth: AuthContext,
    input: {
      orgId?: string | undefined;
      name: string;
      kind: GroupKind;
      subjectId?: string | null | undefined;
      grade?: Grade | null | undefined;
    },
  ): Promise<Group> {
    const actor = await this.school.access.admin(auth, input.orgId);
    await this.checkSubject(input.subjectId);
    if (await this.repo.groups.groupNameTaken(actor.orgId, input.name))
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.groupExists(input.name));
    const id = newId();
    const now = this.now();
    try {
      await this.repo.transaction(async (repo) => {
        await repo.groups.insertGroup({
          id,
          orgId: actor.orgId,
          name: input.name,
          kind: input.kind,
          subjectId: input.subjectId ?? null,
          grade: input.grade ?? null,
          createdAt: now,
        });
        await this.log.record(repo, actor, 'group.create', id, input.name);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', SCHOOL_MESSAGES.groupExists(input.name));
      throw error;
    }
    return this.group(auth, id);
  }

  private async adminGroup(auth: AuthContext, groupId: string) {
    const row = await this.repo.groups.findGroup(groupId);
    const actor = await this.school.access.adminOfRow(auth, row?.orgId, SCHOOL_MESSAGES.groupNotFound);
    return { row: row!, actor };
  }

  async updateGroup(
    auth: AuthContext,
    groupId: string,
    input: {
      name?: string | undefined;
      kind?: GroupKind | undefined;
      subjectId?: string | null | undefined;
      grade?: Grade | null | undefined;
    },
  ): Promise<Group> {
    const { row, actor } = await this.adminGroup(auth, groupId);
    await this.checkSubject(input.subjectId);
    if (input.name !== undefined && (await this.repo.groups.groupNameTaken(actor.orgId, input.name, row.id)))
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.groupExists(input.name));
    const set: GroupChange = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.kind !== undefined) set.kind = input.kind;
    if (input.subjectId !== undefined) set.subjectId = input.subjectId;
    if (input.grade !== undefined) set.grade = input.grade;
    await this.repo.transaction(async (repo) => {
      await repo.groups.updateGroup(row.id, set, this.now());
      await this.log.record(repo, actor, 'group.update', row.id, `${row.name} → ${set.name ?? row.name}`);
    });
    return this.group(auth, row.id);
  }

  async deleteGroup(auth: AuthContext, groupId: string): Promise<void> {
    const { row, actor } = await this.adminGroup(auth, groupId);
    await this.repo.transaction(async (repo) => {
      await repo.groups.deleteGroup(row.id);
      await this.log.record(repo, actor, 'group.delete', row.id, row.name);
    });
  }

  /** Replaces a group's members and leaders (members of the same school only). */
  async setGroupMembers(
    auth: AuthContext,
    groupId: string,
    members: { memberId: string; isLeader: boolean }[],
  ): Promise<Group> {
    const { row, actor } = await this.adminGroup(auth, groupId);
    const leader = new Map<string, boolean>();
    for (const m of members) leader.set(m.memberId, (leader.get(m.memberId) ?? false) || m.isLeader);
    const found = await this.repo.members.membershipsIn(actor.orgId, [...leader.keys()]);
    if (found.length !== leader.size)
      throw new AppError('VALIDATION', SCHOOL_MESSAGES.groupMemberNotInSchool);
    await this.repo.transaction(async (repo) => {
      await repo.groups.setGroupMembers(
        row.id,
        found.map((m) => ({ userId: m.userId, isLeader: leader.get(m.id) ?? false })),
        this.now(),
      );
      await this.log.record(
        repo,
        actor,
        'group.members',
        row.id,
        SCHOOL_TEXT.groupMembers(row.name, found.length),
      );
    });
    return this.group(auth, row.id);
  }
}
