import { HOMEWORK_MESSAGES, type PaperDocument } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden } from '../../lib/errors.js';
import type { Homework } from './repository.js';

// Who may do what with homework and cards — the one place these rules live.
//  - Every teacher of a school sees its homework and prints its cards (classes are shared by the school's teachers).
//  - Only the teacher who published a homework edits its card; they or a school administrator delete it.
//  - A teacher publishes (and designs the card of) their own papers and the papers shared to their school; never a
//    shipped template (copy it first) nor a paper in the recycle bin.
// Homework of another school is answered 404, so its existence does not leak.

/** The homework, if the caller's school owns it and it is not deleted. */
export function assertReadable<T extends Pick<Homework, 'deletedAt' | 'orgId'>>(
  row: T | undefined,
  auth: AuthContext,
): T {
  if (!row || row.deletedAt || row.orgId !== auth.orgId)
    throw new AppError('NOT_FOUND', HOMEWORK_MESSAGES.notFound);
  return row;
}

export const canEditCard = (row: Pick<Homework, 'createdBy'>, auth: AuthContext) =>
  row.createdBy === auth.userId;

export const canDelete = (row: Pick<Homework, 'createdBy'>, auth: AuthContext) =>
  row.createdBy === auth.userId || auth.isAdministrator;

/** Why the caller may not publish a paper they can read, or null when they may. */
export function publishRefusal(paper: PaperDocument): AppError | null {
  if (paper.owner === 'system') return forbidden(HOMEWORK_MESSAGES.templatePaper);
  if (paper.deletedAt) return new AppError('CONFLICT', HOMEWORK_MESSAGES.paperInRecycleBin);
  if (!paper.mine && !paper.shared) return forbidden(HOMEWORK_MESSAGES.colleaguePaper);
  return null;
}

export function assertPublishable(paper: PaperDocument): PaperDocument {
  const refusal = publishRefusal(paper);
  if (refusal) throw refusal;
  return paper;
}
