// The school module's rows as the repositories return them.
import type { Selectable } from 'kysely';
import type {
  ClassesTable,
  InvitationsTable,
  MembershipsTable,
  SchoolYearsTable,
  TeachingGroupsTable,
} from '../../../db/schema.js';

export type MembershipRow = Selectable<MembershipsTable>;
export type YearRow = Selectable<SchoolYearsTable>;
export type ClassRow = Selectable<ClassesTable>;
export type GroupRow = Selectable<TeachingGroupsTable>;
export type InvitationRow = Selectable<InvitationsTable>;

export interface MemberRow {
  member_id: string;
  user_id: string;
  username: string;
  nickname: string;
  avatar: string | null;
  phone: string | null;
  is_creator: number;
  is_administrator: number;
  is_grade_director: number;
  joined_at: string;
}

export interface StudentFilter {
  orgId: string;
  yearId?: string | undefined;
  classId?: string | undefined;
  keyword?: string | undefined;
  graduated?: boolean | undefined;
}
