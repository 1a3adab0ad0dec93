import type { AuthContext } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { QUESTION_TEXT } from '../../i18n/messages.js';

// Who may do what with a question — the one place these rules live.
//  - System questions are read by everyone and changed by no one (an edit makes a personal copy).
//  - A personal question is its owner's alone: others are answered 404, so its existence does not leak.
//  - A school question is read by the members of that school once approved; pending and turned-down ones
//    are seen by the teacher who shared them and by the school's administrators (creator or administrator).
//  - Questions in the recycle bin are seen by their owner only, and only there.

export const QUESTION_MESSAGES = QUESTION_TEXT;

/** The fields of a question the rules look at. */
export interface OwnedQuestion {
  owner: string;
  orgId: string | null;
  ownerUserId: string | null;
  reviewStatus: string;
  deletedAt: string | null;
  purgedAt: string | null;
}

export const isSchoolAdmin = (auth: AuthContext): boolean => auth.isAdministrator || auth.isCreator;

export const isOwnPersonal = (q: OwnedQuestion, auth: AuthContext): boolean =>
  q.owner === 'personal' && q.ownerUserId === auth.userId;

/** Whether the caller sees the question in the bank (the rule the page queries apply in SQL). */
export function canRead(q: OwnedQuestion, auth: AuthContext): boolean {
  if (q.deletedAt || q.purgedAt) return false;
  if (q.owner === 'system') return true;
  if (q.owner === 'personal') return q.ownerUserId === auth.userId;
  if (q.owner !== 'school' || q.orgId !== auth.orgId) return false;
  return q.reviewStatus === 'approved' || q.ownerUserId === auth.userId || isSchoolAdmin(auth);
}

/** The question if the caller may read it, else 404. */
export function assertReadable<Q extends OwnedQuestion>(q: Q | undefined, auth: AuthContext): Q {
  if (!q || !canRead(q, auth)) throw new AppError('NOT_FOUND', QUESTION_MESSAGES.notFound);
  return q;
}

/** The caller's own personal question (not deleted), else 404 or 403 for one they see but do not own. */
export function assertOwnPersonal<Q extends OwnedQuestion>(q: Q | undefined, auth: AuthContext): Q {
  const readable = assertReadable(q, auth);
  if (!isOwnPersonal(readable, auth)) throw new AppError('FORBIDDEN', QUESTION_MESSAGES.notYours);
  return readable;
}

/** Administrators of the caller's school only. */
export function assertSchoolAdmin(auth: AuthContext): string {
  const orgId = requireSchool(auth);
  if (!isSchoolAdmin(auth)) throw new AppError('FORBIDDEN', QUESTION_MESSAGES.adminsOnly);
  return orgId;
}
