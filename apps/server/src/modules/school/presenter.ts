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
import type { ClassRow, GroupRow, InvitationRow, MemberRow, YearRow } from './repository.js';
import { SCHOOL_TEXT } from '../../i18n/messages.js';

const isGender = (value: string | null): value is (typeof SCHOOL_TEXT.genders)[number] =>
  (SCHOOL_TEXT.genders as readonly (string | null)[]).includes(value);

// Presenters: the only place rows become the contracts' answers.

/** 13812348000 → 138****8000. */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return null;
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}

const n = (value: unknown) => Number(value ?? 0);

/** A class's grade: as stored, else the grade its name starts with (七年级(1)班), else null. */
export function gradeOf(row: { grade: string | null; name: string }): string | null {
  return row.grade ?? GRADES.find((g) => row.name.startsWith(g)) ?? null;
}

export function presentYear(
  row: YearRow & { class_count?: unknown; student_count?: unknown },
): SchoolYearInfo {
  return {
    id: row.id,
    name: row.name,
    isDefault: row.is_default === 1,
    archived: row.archived === 1,
    graduated: row.graduated_at !== null,
    graduatedAt: row.graduated_at,
    classCount: n(row.class_count),
    studentCount: n(row.student_count),
    createdAt: row.created_at,
  };
}

export function presentClass(row: ClassRow & { stage_name: string; student_count: unknown }): ClassInfo {
  return {
    id: row.id,
    name: row.name,
    grade: gradeOf(row),
    stageId: row.stage_id,
    stageName: row.stage_name,
    yearId: row.year_id,
    studentCount: n(row.student_count),
  };
}

export interface StudentRow {
  id: string;
  name: string;
  student_no: string;
  gender: string | null;
  graduated_at?: string | null | undefined;
  class_id: string;
  class_name: string;
  year_id: string;
  year_name: string;
}

export function presentStudent(row: StudentRow): Student {
  return {
    id: row.id,
    name: row.name,
    studentNo: row.student_no,
    gender: isGender(row.gender) ? row.gender : null,
    classId: row.class_id,
    className: row.class_name,
    yearId: row.year_id,
    yearName: row.year_name,
    graduated: !!row.graduated_at,
  };
}

export function rolesOf(
  m: Pick<MemberRow, 'is_creator' | 'is_administrator' | 'is_grade_director'>,
): SchoolRole[] {
  const roles: SchoolRole[] = [];
  if (m.is_creator === 1) roles.push('creator');
  if (m.is_administrator === 1 || m.is_creator === 1) roles.push('administrator');
  if (m.is_grade_director === 1) roles.push('gradeDirector');
  roles.push('teacher');
  return roles;
}

export interface MemberExtras {
  grades: string[];
  teaching: Member['teaching'];
  groups: Member['groups'];
}

export function presentMember(row: MemberRow, extras: MemberExtras): Member {
  const roles = rolesOf(row);
  return {
    memberId: row.member_id,
    userId: row.user_id,
    username: row.username,
    nickname: row.nickname,
    avatar: fileUrl(row.avatar),
    phone: maskPhone(row.phone),
    isCreator: row.is_creator === 1,
    isAdministrator: row.is_administrator === 1 || row.is_creator === 1,
    isGradeDirector: row.is_grade_director === 1,
    roles,
    roleNames: roles.map((r) => SCHOOL_ROLE_NAMES[r]),
    grades: extras.grades,
    teaching: extras.teaching,
    groups: extras.groups,
    joinedAt: row.joined_at,
  };
}

export interface GroupMemberRow {
  group_id: string;
  is_leader: number;
  member_id: string;
  user_id: string;
  username: string;
  nickname: string;
  avatar: string | null;
}

export function presentGroup(
  row: GroupRow & { subject_name: string | null },
  members: GroupMemberRow[],
  userId: string,
): Group {
  const all = members
    .filter((m) => m.group_id === row.id)
    .map((m) => ({
      memberId: m.member_id,
      userId: m.user_id,
      username: m.username,
      nickname: m.nickname,
      avatar: fileUrl(m.avatar),
      isLeader: m.is_leader === 1,
    }));
  const me = all.find((m) => m.userId === userId);
  const kind = row.kind as GroupKind;
  return {
    id: row.id,
    name: row.name,
    kind,
    kindName: GROUP_KIND_NAMES[kind],
    subjectId: row.subject_id,
    subjectName: row.subject_name,
    grade: row.grade,
    leaders: all.filter((m) => m.isLeader),
    members: all,
    memberCount: all.length,
    mine: !!me,
    amLeader: !!me?.isLeader,
    createdAt: row.created_at,
  };
}

export function invitationStatus(row: InvitationRow, now: string): InviteStatus {
  if (row.revoked_at) return 'revoked';
  if (row.used_count >= row.max_uses) return 'usedUp';
  if (row.expires_at <= now) return 'expired';
  return 'active';
}

export const INVITE_ROLE_NAMES: Record<InviteRole, string> = {
  teacher: SCHOOL_ROLE_NAMES.teacher,
  administrator: SCHOOL_ROLE_NAMES.administrator,
  gradeDirector: SCHOOL_ROLE_NAMES.gradeDirector,
};

export function presentInvitation(
  row: InvitationRow & { creator_nickname: string },
  uses: { invitation_id: string; user_id: string; username: string; nickname: string; created_at: string }[],
  now: string,
): Invitation {
  const status = invitationStatus(row, now);
  const role = row.role as InviteRole;
  return {
    id: row.id,
    orgId: row.org_id,
    role,
    roleName: INVITE_ROLE_NAMES[role],
    grade: row.grade,
    maxUses: row.max_uses,
    usedCount: row.used_count,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    status,
    statusName: INVITE_STATUS_NAMES[status],
    createdBy: { userId: row.created_by, nickname: row.creator_nickname },
    createdAt: row.created_at,
    uses: uses
      .filter((u) => u.invitation_id === row.id)
      .map((u) => ({ userId: u.user_id, username: u.username, nickname: u.nickname, at: u.created_at })),
  };
}

export const groupKind = (kind: string): GroupKind => (kind === 'research' ? 'research' : 'preparation');
