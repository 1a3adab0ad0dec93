import {
  MARK_MESSAGES,
  RUBRIC_ITEMS_MAX,
  type RubricItem,
  type SaveRubricItems,
  type MarkGroup,
  type MarkHistoryEntry,
  type MarkItem,
  type SubmitMark,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { NEAR_IDENTICAL_BITS, cropHash, hammingDistance } from './hash.js';
import { arbiterOf, canEditBlocks, isOverseer, marksClass } from './policy.js';
import { toPoints, toTenths } from '../results/scoring.js';
import { newId } from '../../lib/ids.js';

import { cropUrlOf, scoresInPoints, type Item } from './core.js';
import { MarkingBench } from './bench.js';

export { defaultBlockId, givenMark, markableQuestions } from './core.js';

// The marking facade the routes call: assignment (assignment.ts) and the bench (bench.ts) over the shared loading
// (core.ts), plus the review side here: 回评 history, problems, comments, grouped marking and crops.

export class MarkingService extends MarkingBench {
  async history(auth: AuthContext, blockId: string, pageNo: number, size: number) {
    const ctx = await this.blockCtx(auth, blockId);
    if (!this.involved(auth, ctx)) throw forbidden(MARK_MESSAGES.notMarker);
    const total = await this.repo.countMyMarks(blockId, auth.userId);
    const rows = await this.repo.myMarksPage(blockId, auth.userId, (pageNo - 1) * size, size);
    const items = new Map(
      (
        await this.items(
          ctx,
          rows.map((r) => r.sheetId),
        )
      ).map((i) => [i.sheetId, i]),
    );
    const records: MarkHistoryEntry[] = rows.map((r, i) => {
      const item = items.get(r.sheetId);
      const final = item?.done ? item.answers.reduce((s, a) => s + (a.scoreTenths ?? 0), 0) : null;
      return {
        sheetId: r.sheetId,
        seq: total - (pageNo - 1) * size - i,
        kind: r.kind,
        scores: scoresInPoints(r.scores),
        total: toPoints(r.totalTenths),
        finalTotal: final === null ? null : toPoints(final),
        answers: ctx.questionIds.map((questionId) => {
          const a = item?.answers.find((x) => x.questionId === questionId);
          return {
            questionId,
            cropUrl: a?.cropPath ? cropUrlOf(r.sheetId, questionId) : null,
          };
        }),
        rubric: r.rubric,
        updatedAt: r.updatedAt,
      };
    });
    return { records, total, page: pageNo, size };
  }

  async flag(auth: AuthContext, blockId: string, sheetId: string, note: string): Promise<void> {
    const ctx = await this.blockCtx(auth, blockId);
    const [item] = await this.items(ctx, [sheetId]);
    if (!item) throw new AppError('NOT_FOUND', MARK_MESSAGES.itemNotFound);
    if (!isOverseer(ctx.hw, auth) && !marksClass(ctx.markers, auth.userId, item.classId))
      throw forbidden(MARK_MESSAGES.notMarker);
    await this.repo.flagProblem({
      blockId,
      sheetId,
      userId: auth.userId,
      note,
      now: this.now(),
    });
    await this.repo.releaseMine(blockId, auth.userId, [sheetId]);
  }

  async problems(auth: AuthContext, blockId: string): Promise<MarkItem[]> {
    const ctx = await this.blockCtx(auth, blockId);
    if (!isOverseer(ctx.hw, auth) && arbiterOf(ctx.block, ctx.hw) !== auth.userId) throw forbidden();
    const items = (await this.items(ctx)).filter((i) => i.problem && !i.done);
    return this.itemViews(auth, ctx, items, false, () => 'arbitration');
  }

  async setComments(auth: AuthContext, blockId: string, comments: string[]): Promise<string[]> {
    const ctx = await this.blockCtx(auth, blockId);
    if (!canEditBlocks(ctx.hw, auth) && !ctx.markers.has(auth.userId))
      throw forbidden(MARK_MESSAGES.notMarker);
    const unique = [...new Set(comments)];
    await this.repo.updateBlock(blockId, { comments: unique, updatedAt: this.now() });
    return unique;
  }

  // ───────────── grouped marking ─────────────

  async groups(auth: AuthContext, blockId: string): Promise<MarkGroup[]> {
    const ctx = await this.blockCtx(auth, blockId);
    if (!ctx.markers.has(auth.userId)) throw forbidden(MARK_MESSAGES.notMarker);
    const now = this.now();
    const claims = await this.repo.activeClaims(blockId, now);
    const claimedByOthers = new Set(claims.filter((c) => c.userId !== auth.userId).map((c) => c.sheetId));
    const open = (await this.items(ctx)).filter(
      (i) => this.taskFor(ctx, i, auth.userId, 0) === 'mark' && !claimedByOthers.has(i.sheetId),
    );
    const groups: { kind: 'blank' | 'similar'; items: Item[] }[] = [];
    const blank = open.filter((i) => i.allBlank);
    if (blank.length > 0) groups.push({ kind: 'blank', items: blank });
    const rest = open.filter((i) => !i.allBlank && i.answers.every((a) => a.cropPath));
    const paths = rest.flatMap((i) => i.answers.map((a) => a.cropPath!));
    const hashes = await this.repo.cropHashes(paths);
    for (const p of paths) {
      if (hashes.has(p)) continue;
      try {
        const h = await cropHash(await this.pages.readCrop(p));
        hashes.set(p, h);
        await this.repo.saveCropHash(p, h);
      } catch {
        // An unreadable crop is marked on its own.
      }
    }
    const clusters: { signature: string[]; items: Item[] }[] = [];
    for (const item of rest) {
      const signature = item.answers.map((a) => hashes.get(a.cropPath!) ?? '');
      if (signature.some((s) => !s)) continue;
      const near = clusters.find((c) =>
        c.signature.every((h, k) => hammingDistance(h, signature[k]!) <= NEAR_IDENTICAL_BITS),
      );
      if (near) near.items.push(item);
      else clusters.push({ signature, items: [item] });
    }
    for (const c of clusters) if (c.items.length >= 2) groups.push({ kind: 'similar', items: c.items });
    const out: MarkGroup[] = [];
    for (const g of groups) {
      out.push({
        kind: g.kind,
        sheetIds: g.items.map((i) => i.sheetId),
        items: await this.itemViews(auth, ctx, g.items, false, () => 'mark'),
      });
    }
    return out;
  }

  async groupScore(
    auth: AuthContext,
    blockId: string,
    body: { sheetIds: string[]; scores: SubmitMark['scores']; comment: string },
  ) {
    const ctx = await this.blockCtx(auth, blockId);
    if (!ctx.markers.has(auth.userId)) throw forbidden(MARK_MESSAGES.notMarker);
    if (ctx.rules.mode === 'double') throw new AppError('VALIDATION', MARK_MESSAGES.groupDouble);
    this.scoresOf(ctx, body.scores);
    const results: { sheetId: string; ok: boolean; message: string | null }[] = [];
    let remaining = 0;
    for (const sheetId of [...new Set(body.sheetIds)]) {
      try {
        const r = await this.submit(
          auth,
          blockId,
          { sheetId, scores: body.scores, annotations: [], comment: body.comment, rubric: {} },
          'group',
        );
        remaining = r.remaining;
        results.push({ sheetId, ok: true, message: null });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ sheetId, ok: false, message: error.message });
      }
    }
    const items = await this.items(ctx);
    if (results.every((r) => !r.ok)) remaining = this.remainingFor(ctx, items, auth.userId);
    const myMarks = items.filter((i) => i.marks.some((m) => m.userId === auth.userId)).length;
    return { results, remaining, myMarks };
  }

  // ───────────── rubric items ─────────────

  /**
   * Replaces the rubric items (评分项) of the block's questions. Items already applied in marks keep their ids when
   * given back; points are checked against the question's full score and the block's step.
   */
  async saveRubricItems(auth: AuthContext, blockId: string, body: SaveRubricItems): Promise<RubricItem[]> {
    const ctx = await this.blockCtx(auth, blockId);
    if (!canEditBlocks(ctx.hw, auth) && !ctx.markers.has(auth.userId))
      throw forbidden(MARK_MESSAGES.notMarker);
    const known = new Set(ctx.rubricItems.map((r) => r.id));
    const rows = body.items.map((item) => {
      const q = ctx.questions.find((x) => x.questionId === item.questionId);
      if (!q) throw new AppError('VALIDATION', MARK_MESSAGES.rubricQuestion);
      const t = toTenths(item.points);
      if (Math.abs(item.points * 10 - t) > 1e-6 || t % ctx.rules.stepTenths !== 0)
        throw new AppError(
          'VALIDATION',
          ctx.rules.stepTenths === 10
            ? MARK_MESSAGES.rubricStepWhole(item.label)
            : MARK_MESSAGES.rubricStep(item.label),
        );
      if (Math.abs(t) > toTenths(q.fullScore))
        throw new AppError('VALIDATION', MARK_MESSAGES.rubricAboveFull(item.label, q.fullScore));
      return {
        id: item.id && known.has(item.id) ? item.id : newId(),
        questionId: q.questionId,
        label: item.label,
        pointsTenths: t,
      };
    });
    for (const q of ctx.questions)
      if (rows.filter((r) => r.questionId === q.questionId).length > RUBRIC_ITEMS_MAX)
        throw new AppError('VALIDATION', MARK_MESSAGES.rubricTooMany(q.no));
    // Key order: question by question, each question's items in the order given.
    const ordered = ctx.questionIds.flatMap((q) => rows.filter((r) => r.questionId === q));
    await this.repo.transaction((repo) =>
      repo.setRubricItems(ctx.hw.orgId, ctx.hw.id, ctx.questionIds, ordered, this.now()),
    );
    return (await this.blockCtx(auth, blockId)).rubricItems;
  }

  // ───────────── crops ─────────────

  async crop(
    auth: AuthContext,
    sheetId: string,
    questionId: string,
  ): Promise<{ data: Buffer; type: string }> {
    const answer = await this.repo.findAnswer(sheetId, questionId);
    if (!answer || answer.orgId !== auth.orgId) throw new AppError('NOT_FOUND', MARK_MESSAGES.itemNotFound);
    const hw = await this.homework(auth, answer.homeworkId);
    if (!isOverseer(hw, auth)) {
      const ctxs = await this.contexts(hw, await this.repo.blocksOf(hw.id));
      const ctx = ctxs.find((c) => c.questionIds.includes(questionId));
      const allowed =
        !!ctx &&
        (marksClass(ctx.markers, auth.userId, answer.classId) ||
          arbiterOf(ctx.block, hw) === auth.userId ||
          (await this.repo.marksOf(ctx.block.id, [sheetId])).some((m) => m.userId === auth.userId));
      if (!allowed) throw forbidden(MARK_MESSAGES.notMarker);
    }
    if (!answer.cropPath) throw new AppError('NOT_FOUND', MARK_MESSAGES.noCrop);
    const ext = answer.cropPath.split('.').pop()?.toLowerCase() ?? 'png';
    const type = ext === 'jpg' || ext === 'jpeg' ? 'image/jpeg' : ext === 'webp' ? 'image/webp' : 'image/png';
    return { data: await this.pages.readCrop(answer.cropPath), type };
  }
}
