import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden } from '../../lib/errors.js';
import type { Paper } from './repository.js';
import { PAPER_TEXT } from '../../i18n/messages.js';

// Who may do what with a paper — the one place these rules live.
//  - A personal paper belongs to its owner in one school: only they read, edit, share or delete it.
//  - A paper shared to the school is read (and copied) by every teacher of that school.
//  - Shipped templates (owner 'system') are read and copied by everyone.
// Papers of another school are answered 404, so their existence does not leak; a colleague's unshared
// paper is answered 403.

export const PAPER_MESSAGES = PAPER_TEXT;

export type PaperAccess = 'owner' | 'reader';

export const isOwner = (paper: Paper, auth: AuthContext) =>
  paper.owner === 'personal' && paper.ownerUserId === auth.userId && paper.orgId === auth.orgId;

/** How the caller may see a paper, or the error to answer. Papers in the recycle bin are the owner's only. */
export function accessTo(paper: Paper | undefined, auth: AuthContext): PaperAccess {
  if (!paper) throw new AppError('NOT_FOUND', PAPER_MESSAGES.notFound);
  if (isOwner(paper, auth)) return 'owner';
  if (paper.deletedAt) throw new AppError('NOT_FOUND', PAPER_MESSAGES.notFound);
  if (paper.owner === 'system') return 'reader';
  if (paper.orgId !== auth.orgId) throw new AppError('NOT_FOUND', PAPER_MESSAGES.notFound);
  if (paper.sharedAt) return 'reader';
  throw forbidden(PAPER_MESSAGES.notYours);
}

/** The paper, if the caller may read it. */
export function assertReadable(paper: Paper | undefined, auth: AuthContext): Paper {
  accessTo(paper, auth);
  return paper!;
}

/** The paper, if the caller may change it: their own, and not in the recycle bin. */
export function assertEditable(paper: Paper | undefined, auth: AuthContext): Paper {
  if (accessTo(paper, auth) !== 'owner') throw forbidden(PAPER_MESSAGES.readOnly);
  if (paper!.deletedAt) throw new AppError('CONFLICT', PAPER_MESSAGES.inRecycleBin);
  return paper!;
}

/** The caller's own paper, in the recycle bin or not (restore, delete for ever). */
export function assertOwned(paper: Paper | undefined, auth: AuthContext): Paper {
  if (accessTo(paper, auth) !== 'owner') throw forbidden(PAPER_MESSAGES.readOnly);
  return paper!;
}

export function permissionsFor(paper: Paper, auth: AuthContext) {
  const own = isOwner(paper, auth);
  const live = !paper.deletedAt;
  return { edit: own && live, delete: own, share: own && live, copy: live };
}
