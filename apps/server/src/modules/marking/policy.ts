import { MARK_MESSAGES } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';

// Who may do what in marking — the one place these rules live.
//  - The homework's creator and the school's administrators oversee it: they see every block, item and crop, read
//    the problems, and may give the deciding score of any item (as an arbitration). Only the creator edits blocks
//    and assignment.
//  - A marker marks the items of the blocks they are assigned to: every class when the block is assigned by
//    question, their classes when by class. They see those items and their crops, and their own marks (回评).
//  - The arbiter of a block (its group leader, by default the creator) scores items sent to arbitration.
//  - Everyone else of the school gets 403; another school's homework answers 404.

export interface HomeworkRef {
  orgId: string;
  createdBy: string;
  deletedAt: string | null;
}

export function assertHomework<T extends HomeworkRef>(hw: T | undefined, auth: AuthContext): T {
  if (!hw || hw.deletedAt || hw.orgId !== auth.orgId)
    throw new AppError('NOT_FOUND', MARK_MESSAGES.homeworkNotFound);
  return hw;
}

export const isOverseer = (hw: HomeworkRef, auth: AuthContext): boolean =>
  hw.createdBy === auth.userId || auth.isAdministrator;

export const canEditBlocks = (hw: HomeworkRef, auth: AuthContext): boolean => hw.createdBy === auth.userId;

/** The markers of one block: user → classes ('' = every class). */
export type MarkerMap = Map<string, Set<string>>;

/** Whether a user marks the items of a class in a block. */
export function marksClass(markers: MarkerMap, userId: string, classId: string): boolean {
  const classes = markers.get(userId);
  return !!classes && (classes.has('') || classes.has(classId));
}

export const arbiterOf = (block: { arbiterId: string | null }, hw: HomeworkRef): string =>
  block.arbiterId ?? hw.createdBy;
