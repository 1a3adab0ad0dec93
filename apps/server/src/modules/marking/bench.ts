import {
  MARK_CLAIM_SECONDS,
  MARK_MESSAGES,
  rubricScoreTenths,
  type MarkBlock,
  type MarkItem,
  type MarkNext,
  type SubmitMark,
  type SubmitMarkResult,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { isoAfter, newId } from '../../lib/ids.js';
import { ResultsService } from '../results/service.js';
import type { MarkFields, MarkKind, MarkingRepository } from './repository.js';
import { arbiterOf, isOverseer, marksClass } from './policy.js';
import { marksRequired, toPoints, toTenths } from '../results/scoring.js';

import { cropUrlOf, scoresInPoints, type BlockCtx, type Item } from './core.js';
import { MarkingAssignment } from './assignment.js';

// Marking use case: the bench — a block, the queue that hands items to a marker, one item, submitting a mark.

export class MarkingBench extends MarkingAssignment {
  // ───────────── the bench ─────────────

  async block(auth: AuthContext, blockId: string): Promise<MarkBlock> {
    const ctx = await this.blockCtx(auth, blockId);
    if (!this.involved(auth, ctx)) throw forbidden(MARK_MESSAGES.notMarker);
    return this.blockView(auth, ctx, await this.items(ctx), await this.expectedOf(ctx.hw));
  }

  protected async itemViews(
    auth: AuthContext,
    ctx: BlockCtx,
    items: Item[],
    reveal: boolean,
    task?: (i: Item) => MarkItem['task'],
  ): Promise<MarkItem[]> {
    const students = reveal
      ? new Map((await this.repo.students(items.map((i) => i.studentId))).map((s) => [s.id, s]))
      : null;
    const overseer = isOverseer(ctx.hw, auth);
    const arbiter = arbiterOf(ctx.block, ctx.hw) === auth.userId;
    return items.map((item) => {
      const mine = item.marks.find((m) => m.userId === auth.userId);
      const seesMarks = overseer || arbiter;
      const s = students?.get(item.studentId);
      return {
        sheetId: item.sheetId,
        blockId: ctx.block.id,
        task: task
          ? task(item)
          : mine
            ? 'review'
            : item.verdict.state === 'arbitration'
              ? 'arbitration'
              : 'mark',
        student: s ? { name: s.name, studentNo: s.studentNo, className: s.className } : null,
        answers: item.answers.map((a) => ({
          questionId: a.questionId,
          cropUrl: a.cropPath ? cropUrlOf(item.sheetId, a.questionId) : null,
          blank: a.blank,
          score: a.scoreTenths === null ? null : toPoints(a.scoreTenths),
        })),
        myMark: mine
          ? {
              scores: scoresInPoints(mine.scores),
              annotations: mine.annotations,
              comment: mine.comment,
              rubric: mine.rubric,
              updatedAt: mine.updatedAt,
            }
          : null,
        marks: seesMarks
          ? item.marks.map((m) => ({
              markerName: m.markerName,
              kind: m.kind,
              scores: scoresInPoints(m.scores),
              total: toPoints(m.totalTenths),
              mine: m.userId === auth.userId,
              createdAt: m.createdAt,
              updatedAt: m.updatedAt,
            }))
          : [],
        problem: item.problem ? { note: item.problem.note, by: item.problem.name } : null,
      };
    });
  }

  /** Arbitration first, then the items I hold, then the rest in class and student-number order. */
  async next(
    auth: AuthContext,
    blockId: string,
    count: number,
    skip: string[],
    reveal: boolean,
  ): Promise<MarkNext> {
    const ctx = await this.blockCtx(auth, blockId);
    if (!this.involved(auth, ctx)) throw forbidden(MARK_MESSAGES.notMarker);
    const now = this.now();
    const items = await this.items(ctx);
    const claims = await this.repo.activeClaims(blockId, now);
    const othersClaims = new Map<string, number>();
    const mine = new Set<string>();
    for (const c of claims) {
      if (c.userId === auth.userId) mine.add(c.sheetId);
      else othersClaims.set(c.sheetId, (othersClaims.get(c.sheetId) ?? 0) + 1);
    }
    const open = items
      .map((item) => ({
        item,
        task: this.taskFor(ctx, item, auth.userId, othersClaims.get(item.sheetId) ?? 0),
      }))
      .filter((x) => x.task !== null);
    const skipped = new Set(skip);
    const rank = (x: (typeof open)[number]) =>
      x.task === 'arbitration' ? 0 : mine.has(x.item.sheetId) ? 1 : 2;
    const chosen = open
      .filter((x) => !skipped.has(x.item.sheetId))
      .map((x, i) => ({ ...x, i }))
      .sort((a, b) => rank(a) - rank(b) || a.i - b.i)
      .slice(0, count);
    await this.repo.claim(
      blockId,
      auth.userId,
      chosen.map((x) => x.item.sheetId),
      isoAfter(this.clock(), MARK_CLAIM_SECONDS),
    );
    const tasks = new Map(chosen.map((x) => [x.item.sheetId, x.task!]));
    return {
      items: await this.itemViews(
        auth,
        ctx,
        chosen.map((x) => x.item),
        reveal,
        (i) => tasks.get(i.sheetId)!,
      ),
      remaining: open.length,
      myMarks: items.filter((i) => i.marks.some((m) => m.userId === auth.userId)).length,
    };
  }

  async item(auth: AuthContext, blockId: string, sheetId: string, reveal: boolean): Promise<MarkItem> {
    const ctx = await this.blockCtx(auth, blockId);
    const [item] = await this.items(ctx, [sheetId]);
    if (!item) throw new AppError('NOT_FOUND', MARK_MESSAGES.itemNotFound);
    const allowed =
      isOverseer(ctx.hw, auth) ||
      marksClass(ctx.markers, auth.userId, item.classId) ||
      item.marks.some((m) => m.userId === auth.userId) ||
      arbiterOf(ctx.block, ctx.hw) === auth.userId;
    if (!allowed) throw forbidden(MARK_MESSAGES.notMarker);
    return (await this.itemViews(auth, ctx, [item], reveal))[0]!;
  }

  /** Checks submitted scores against the block: every question once, none empty, within full, on the step. */
  protected scoresOf(ctx: BlockCtx, scores: SubmitMark['scores']): Record<string, number> {
    const given = new Map(scores.map((s) => [s.questionId, s.score]));
    if (
      given.size !== scores.length ||
      given.size !== ctx.questionIds.length ||
      ctx.questionIds.some((q) => !given.has(q))
    )
      throw new AppError('VALIDATION', MARK_MESSAGES.wrongQuestions);
    const out: Record<string, number> = {};
    for (const q of ctx.questions) {
      const value = given.get(q.questionId);
      if (value === null || value === undefined || Number.isNaN(value))
        throw new AppError('VALIDATION', MARK_MESSAGES.emptyScore(q.no));
      const t = toTenths(value);
      if (Math.abs(value * 10 - t) > 1e-6)
        throw new AppError('VALIDATION', MARK_MESSAGES.tenthsNotAllowed(q.no));
      if (t > toTenths(q.fullScore))
        throw new AppError('VALIDATION', MARK_MESSAGES.aboveFull(q.no, q.fullScore));
      if (t % ctx.rules.stepTenths !== 0)
        throw new AppError(
          'VALIDATION',
          ctx.rules.stepTenths === 10
            ? MARK_MESSAGES.halfNotAllowed(q.no)
            : MARK_MESSAGES.tenthsNotAllowed(q.no),
        );
      out[q.questionId] = t;
    }
    return out;
  }

  /**
   * Checks the rubric items applied with a mark: each item of its question in this block, and the question's score
   * the one its items give (rubricScoreTenths). Returns what the mark keeps (questions without items left out).
   */
  protected rubricOf(
    ctx: BlockCtx,
    applied: SubmitMark['rubric'],
    scores: Record<string, number>,
  ): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [questionId, ids] of Object.entries(applied)) {
      const q = ctx.questions.find((x) => x.questionId === questionId);
      if (!q) throw new AppError('VALIDATION', MARK_MESSAGES.rubricQuestion);
      const unique = [...new Set(ids)];
      if (unique.length === 0) continue;
      const items = unique.map((id) =>
        ctx.rubricItems.find((r) => r.id === id && r.questionId === questionId),
      );
      if (items.some((r) => !r)) throw new AppError('CONFLICT', MARK_MESSAGES.rubricItemUnknown(q.no));
      const expected = rubricScoreTenths(
        toTenths(q.fullScore),
        items.map((r) => toTenths(r!.points)),
      );
      if (expected !== scores[questionId])
        throw new AppError('VALIDATION', MARK_MESSAGES.rubricMismatch(q.no));
      out[questionId] = unique;
    }
    return out;
  }
  async submit(
    auth: AuthContext,
    blockId: string,
    body: SubmitMark,
    kind: 'mark' | 'group' = 'mark',
  ): Promise<SubmitMarkResult> {
    const ctx = await this.blockCtx(auth, blockId);
    const scores = this.scoresOf(ctx, body.scores);
    const rubric = this.rubricOf(ctx, body.rubric ?? {}, scores);
    const now = this.now();
    let outcome: SubmitMarkResult['outcome'] = 'final';
    let finalScores: Record<string, number | null> = {};
    await this.repo.transaction(async (repo, trx) => {
      const [item] = await this.items(ctx, [body.sheetId], repo);
      if (!item) throw new AppError('NOT_FOUND', MARK_MESSAGES.itemNotFound);
      if (await this.recordMark(repo, auth, ctx, item, kind, scores, rubric, body, now)) outcome = 'revised';
      const [after] = await this.items(ctx, [body.sheetId], repo);
      if (after!.marks.filter((m) => m.kind !== 'arbitration').length > marksRequired(ctx.rules.mode))
        throw new AppError(
          'CONFLICT',
          ctx.rules.mode === 'double' ? MARK_MESSAGES.alreadyMarkedByOther : MARK_MESSAGES.alreadyFinal,
        );
      const verdict = after!.verdict;
      await this.applyVerdict(new ResultsService(trx, this.clock), ctx, item.sheetId, verdict, auth.userId);
      await repo.resolveProblem(ctx.block.id, item.sheetId, now);
      await repo.releaseMine(ctx.block.id, auth.userId, [item.sheetId]);
      if (verdict.state === 'final') await repo.release(ctx.block.id, [item.sheetId]);
      if (outcome !== 'revised')
        outcome =
          verdict.state === 'final'
            ? 'final'
            : verdict.state === 'arbitration'
              ? 'arbitration'
              : 'waitingSecond';
      finalScores = Object.fromEntries(
        ctx.questionIds.map((q) => [q, verdict.state === 'final' ? toPoints(verdict.scores[q] ?? 0) : null]),
      );
    });
    const items = await this.items(ctx);
    return {
      sheetId: body.sheetId,
      outcome,
      scores: finalScores,
      remaining: this.remainingFor(ctx, items, auth.userId),
      myMarks: items.filter((i) => i.marks.some((m) => m.userId === auth.userId)).length,
    };
  }

  /** Records a submitted mark as a first mark, an arbitration or a revision of the user's own; true when revised. */
  private async recordMark(
    repo: MarkingRepository,
    auth: AuthContext,
    ctx: BlockCtx,
    item: Item,
    kind: 'mark' | 'group',
    scores: Record<string, number>,
    rubric: Record<string, string[]>,
    body: SubmitMark,
    now: string,
  ): Promise<boolean> {
    const myGiven = item.marks.find((m) => m.userId === auth.userId && m.kind !== 'arbitration');
    const myArbitration = item.marks.find((m) => m.userId === auth.userId && m.kind === 'arbitration');
    const isArbiter = arbiterOf(ctx.block, ctx.hw) === auth.userId;
    const decider = isOverseer(ctx.hw, auth) || isArbiter;
    const marker = marksClass(ctx.markers, auth.userId, item.classId);
    const fields: MarkFields = {
      scores,
      totalTenths: Object.values(scores).reduce((s, v) => s + v, 0),
      annotations: body.annotations,
      comment: body.comment,
      rubric,
      updatedAt: now,
    };
    const insert = (markKind: MarkKind) =>
      repo.insertMark({
        id: newId(),
        orgId: ctx.hw.orgId,
        blockId: ctx.block.id,
        sheetId: item.sheetId,
        userId: auth.userId,
        kind: markKind,
        createdAt: now,
        ...fields,
      });
    // The arbiter decides an item in arbitration; an overseer who marked it too revises their own mark instead.
    if (item.verdict.state === 'arbitration' && (isArbiter || (decider && !myGiven))) {
      await insert('arbitration');
    } else if (myArbitration || myGiven) {
      // 回评: my own mark, revised; the verdict follows.
      await repo.updateMark((myArbitration ?? myGiven)!.id, fields);
      return true;
    } else if (item.done || item.problem) {
      if (decider) await insert('arbitration');
      else if (item.done) throw new AppError('CONFLICT', MARK_MESSAGES.alreadyFinal);
      else if (marker && item.verdict.state === 'open') await insert(kind);
      else throw forbidden(MARK_MESSAGES.notMarker);
    } else if (item.verdict.state === 'arbitration') {
      throw forbidden(MARK_MESSAGES.notArbiter);
    } else {
      if (!marker) throw forbidden(MARK_MESSAGES.notMarker);
      await insert(kind);
    }
    return false;
  }
}
