import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden } from '../../lib/errors.js';
import type { PaperRow } from './repository.js';
import { PAPER_TEXT } from '../../i18n/messages.js';

// Who may do what with a paper — the one place these rules live.
//  - A personal paper belongs to its owner in one school: only they read, edit, share or delete it.
//  - A paper shared to the school is read (and copied) by every teacher of that school.
//  - Shipped templates (owner 'system') are read and copied by everyone.
// Papers of another school are answered 404, so their existence does not leak; a colleague's unshared
// paper is answered 403.

export const PAPER_MESSAGES = PAPER_TEXT;

export type PaperAccess = 'owner' | 'reader';

export const isOwner = (paper: PaperRow, auth: AuthContext) =>
  paper.owner === 'personal' && paper.owner_user_id === auth.userId && paper.org_id === auth.orgId;

/** How the caller may see a paper, or the error to answer. Papers in the recycle bin are the owner's only. */
export function accessTo(paper: PaperRow | undefined, auth: AuthContext): PaperAccess {
  if (!paper) throw new AppError('NOT_FOUND', PAPER_MESSAGES.notFound);
  if (isOwner(paper, auth)) return 'owner';
  if (paper.deleted_at) throw new AppError('NOT_FOUND', PAPER_MESSAGES.notFound);
  if (paper.owner === 'system') return 'reader';
  if (paper.org_id !== auth.orgId) throw new AppError('NOT_FOUND', PAPER_MESSAGES.notFound);
  if (paper.shared_at) return 'reader';
  throw forbidden(PAPER_MESSAGES.notYours);
}

/** The paper, if the caller may read it. */
export function assertReadable(paper: PaperRow | undefined, auth: AuthContext): PaperRow {
  accessTo(paper, auth);
  return paper!;
}

/** The paper, if the caller may change it: their own, and not in the recycle bin. */
export function assertEditable(paper: PaperRow | undefined, auth: AuthContext): PaperRow {
  if (accessTo(paper, auth) !== 'owner') throw forbidden(PAPER_MESSAGES.readOnly);
  if (paper!.deleted_at) throw new AppError('CONFLICT', PAPER_MESSAGES.inRecycleBin);
  return paper!;
}

/** The caller's own paper, in the recycle bin or not (restore, delete for ever). */
export function assertOwned(paper: PaperRow | undefined, auth: AuthContext): PaperRow {
  if (accessTo(paper, auth) !== 'owner') throw forbidden(PAPER_MESSAGES.readOnly);
  return paper!;
}

export function permissionsFor(paper: PaperRow, auth: AuthContext) {
  const own = isOwner(paper, auth);
  const live = !paper.deleted_at;
  return { edit: own && live, delete: own, share: own && live, copy: live };
}
