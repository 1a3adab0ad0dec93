import {
  GRADES,
  GROUP_KIND_NAMES,
  INVITE_STATUS_NAMES,
  SCHOOL_ROLE_NAMES,
  type ClassInfo,
  type Group,
  type GroupKind,
  type InviteRole,
  type InviteStatus,
  type Invitation,
  type Member,
  type SchoolRole,
  type SchoolYearInfo,
  type Student,
} from '@zhzy/contracts';
import { fileUrl } from '../system/service.js';
import type {
  GroupMember,
  InvitationRecord,
  InvitationUse,
  MemberRecord,
  SchoolClass,
  SchoolYear,
  StudentRecord,
  TeachingGroup,
} from './repository.js';
import { SCHOOL_TEXT } from '../../i18n/messages.js';

const isGender = (value: string | null): value is (typeof SCHOOL_TEXT.genders)[number] =>
  (SCHOOL_TEXT.genders as readonly (string | null)[]).includes(value);

// Presenters: the only place the school's domain types become the contracts' answers.

/** 13812348000 → 138****8000. */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return null;
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}

/** A class's grade: as stored, else the grade its name starts with (七年级(1)班), else null. */
export function gradeOf(row: { grade: string | null; name: string }): string | null {
  return row.grade ?? GRADES.find((g) => row.name.startsWith(g)) ?? null;
}

export function presentYear(
  year: SchoolYear & { classCount?: number | undefined; studentCount?: number | undefined },
): SchoolYearInfo {
  return {
    id: year.id,
    name: year.name,
    isDefault: year.isDefault,
    archived: year.archived,
    graduated: year.graduatedAt !== null,
    graduatedAt: year.graduatedAt,
    classCount: year.classCount ?? 0,
    studentCount: year.studentCount ?? 0,
    createdAt: year.createdAt,
  };
}

export function presentClass(klass: SchoolClass): ClassInfo {
  return {
    id: klass.id,
    name: klass.name,
    grade: gradeOf(klass),
    stageId: klass.stageId,
    stageName: klass.stageName,
    yearId: klass.yearId,
    studentCount: klass.studentCount,
  };
}

export function presentStudent(s: StudentRecord): Student {
  return {
    id: s.id,
    name: s.name,
    studentNo: s.studentNo,
    gender: isGender(s.gender) ? s.gender : null,
    classId: s.classId,
    className: s.className,
    yearId: s.yearId,
    yearName: s.yearName,
    graduated: !!s.graduatedAt,
  };
}

export function rolesOf(
  m: Pick<MemberRecord, 'isCreator' | 'isAdministrator' | 'isGradeDirector'>,
): SchoolRole[] {
  const roles: SchoolRole[] = [];
  if (m.isCreator) roles.push('creator');
  if (m.isAdministrator || m.isCreator) roles.push('administrator');
  if (m.isGradeDirector) roles.push('gradeDirector');
  roles.push('teacher');
  return roles;
}

export interface MemberExtras {
  grades: string[];
  teaching: Member['teaching'];
  groups: Member['groups'];
}

export function presentMember(m: MemberRecord, extras: MemberExtras): Member {
  const roles = rolesOf(m);
  return {
    memberId: m.memberId,
    userId: m.userId,
    username: m.username,
    nickname: m.nickname,
    avatar: fileUrl(m.avatar),
    phone: maskPhone(m.phone),
    isCreator: m.isCreator,
    isAdministrator: m.isAdministrator || m.isCreator,
    isGradeDirector: m.isGradeDirector,
    roles,
    roleNames: roles.map((r) => SCHOOL_ROLE_NAMES[r]),
    grades: extras.grades,
    teaching: extras.teaching,
    groups: extras.groups,
    joinedAt: m.joinedAt,
  };
}

export function presentGroup(group: TeachingGroup, members: GroupMember[], userId: string): Group {
  const all = members
    .filter((m) => m.groupId === group.id)
    .map((m) => ({
      memberId: m.memberId,
      userId: m.userId,
      username: m.username,
      nickname: m.nickname,
      avatar: fileUrl(m.avatar),
      isLeader: m.isLeader,
    }));
  const me = all.find((m) => m.userId === userId);
  const kind = group.kind as GroupKind;
  return {
    id: group.id,
    name: group.name,
    kind,
    kindName: GROUP_KIND_NAMES[kind],
    subjectId: group.subjectId,
    subjectName: group.subjectName,
    grade: group.grade,
    leaders: all.filter((m) => m.isLeader),
    members: all,
    memberCount: all.length,
    mine: !!me,
    amLeader: !!me?.isLeader,
    createdAt: group.createdAt,
  };
}

export function invitationStatus(i: InvitationRecord, now: string): InviteStatus {
  if (i.revokedAt) return 'revoked';
  if (i.usedCount >= i.maxUses) return 'usedUp';
  if (i.expiresAt <= now) return 'expired';
  return 'active';
}

export const INVITE_ROLE_NAMES: Record<InviteRole, string> = {
  teacher: SCHOOL_ROLE_NAMES.teacher,
  administrator: SCHOOL_ROLE_NAMES.administrator,
  gradeDirector: SCHOOL_ROLE_NAMES.gradeDirector,
};

export function presentInvitation(
  invitation: InvitationRecord & { creatorNickname: string },
  uses: InvitationUse[],
  now: string,
): Invitation {
  const status = invitationStatus(invitation, now);
  const role = invitation.role as InviteRole;
  return {
    id: invitation.id,
    orgId: invitation.orgId,
    role,
    roleName: INVITE_ROLE_NAMES[role],
    grade: invitation.grade,
    maxUses: invitation.maxUses,
    usedCount: invitation.usedCount,
    expiresAt: invitation.expiresAt,
    revokedAt: invitation.revokedAt,
    status,
    statusName: INVITE_STATUS_NAMES[status],
    createdBy: { userId: invitation.createdBy, nickname: invitation.creatorNickname },
    createdAt: invitation.createdAt,
    uses: uses
      .filter((u) => u.invitationId === invitation.id)
      .map((u) => ({ userId: u.userId, username: u.username, nickname: u.nickname, at: u.createdAt })),
  };
}

export const groupKind = (kind: string): GroupKind => (kind === 'research' ? 'research' : 'preparation');
