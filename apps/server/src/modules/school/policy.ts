import { MESSAGES, SCHOOL_MESSAGES } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import type { Membership, SchoolRepository } from './repository.js';

// Who may do what in a school — the one place these rules live.
//  - Everything is scoped to one school, and roles come from the host's membership rows, read afresh on every call:
//    never from the request (the /team/details route's isCreator / isAdministrator are hints for the screen only).
//  - A call that names a school (orgId, or the caller's current school when absent) answers 403 to a non-member.
//  - A call on a row (a year, class, student, member, group, invitation, feedback) answers 404 when the row is not in
//    one of the caller's schools, so another school's rows are never revealed.
//  - Members read their school (details, years, classes, subjects, grade directors, students, their own groups).
//  - Administrators (the creator is always one) change it; teachers asking get 403 很抱歉，您暂无该操作权限.

/** The caller as a member of one school. */
export interface SchoolActor {
  orgId: string;
  userId: string;
  memberId: string;
  isCreator: boolean;
  isAdministrator: boolean;
  isGradeDirector: boolean;
  /** Administrator rights: the creator or an administrator. */
  canManage: boolean;
}

export const canManage = (m: Pick<Membership, 'isCreator' | 'isAdministrator'>): boolean =>
  m.isCreator || m.isAdministrator;

function actorOf(m: Membership): SchoolActor {
  return {
    orgId: m.orgId,
    userId: m.userId,
    memberId: m.id,
    isCreator: m.isCreator,
    isAdministrator: m.isAdministrator,
    isGradeDirector: m.isGradeDirector,
    canManage: canManage(m),
  };
}

export class SchoolAccess {
  constructor(private readonly repo: SchoolRepository) {}

  /** The caller in the named school (or their current one); 403 when they are not its member. */
  async member(auth: AuthContext, orgId?: string): Promise<SchoolActor> {
    const target = orgId ?? auth.orgId;
    if (!target) throw new AppError('FORBIDDEN', SCHOOL_MESSAGES.noSchool);
    const membership = await this.repo.members.findMembership(target, auth.userId);
    if (!membership) throw forbidden(MESSAGES.forbidden);
    return actorOf(membership);
  }

  /** As `member`, and 403 unless the caller administers the school. */
  async admin(auth: AuthContext, orgId?: string): Promise<SchoolActor> {
    const actor = await this.member(auth, orgId);
    return requireManager(actor);
  }

  /** The caller in the school a row belongs to; 404 (with the row's message) when the row is not in their schools. */
  async memberOfRow(auth: AuthContext, orgId: string | undefined, missing: string): Promise<SchoolActor> {
    const membership = orgId ? await this.repo.members.findMembership(orgId, auth.userId) : undefined;
    if (!membership) throw notFound(missing);
    return actorOf(membership);
  }

  async adminOfRow(auth: AuthContext, orgId: string | undefined, missing: string): Promise<SchoolActor> {
    return requireManager(await this.memberOfRow(auth, orgId, missing));
  }
}

export function requireManager(actor: SchoolActor): SchoolActor {
  if (!actor.canManage) throw forbidden(MESSAGES.forbidden);
  return actor;
}
