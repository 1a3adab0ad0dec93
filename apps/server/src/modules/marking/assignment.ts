import {
  MARK_MESSAGES,
  type BlockProgress,
  type MarkBlock,
  type MarkHomework,
  type MarkTask,
  type SaveMarkBlocks,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId } from '../../lib/ids.js';
import { arbiterOf, canEditBlocks, isOverseer } from './policy.js';
import { marksRequired, toTenths } from '../results/scoring.js';
import type { BlockSettings, Marker } from './repository.js';
import { NO_FIGURES, type BlockFigures } from './repository/item-counts.js';
import { MarkingCore, markableQuestions, type BlockCtx, type Homework } from './core.js';

// Marking use case: the task list, a homework's blocks and their assignment (who marks what, mode, threshold).

export class MarkingAssignment extends MarkingCore {
  // ───────────── tasks and assignment ─────────────

  async tasks(auth: AuthContext): Promise<MarkTask[]> {
    const orgId = requireSchool(auth);
    // A few set-based reads for the whole list, whatever its length: the homework with what they expect, their
    // blocks and markers, and each block's figures summed in the database from the maintained counters (a district
    // test has thousands of items per block) — by the same rules as items(), verdictOf() and taskFor().
    let listed = await this.repo.taskHomework(orgId, auth.userId, auth.isAdministrator);
    const unblocked = listed.filter((r) => !r.blocked);
    if (unblocked.length > 0) {
      for (const r of unblocked) await this.ensureBlocks(r.homework);
      listed = (await this.repo.taskHomework(orgId, auth.userId, auth.isAdministrator)).filter(
        (r) => r.blocked,
      );
    }
    const ids = listed.map((r) => r.homework.id);
    const homework = new Map(listed.map((r) => [r.homework.id, r.homework]));
    const expectedOf = new Map(listed.map((r) => [r.homework.id, r.expected]));
    const blockRows = await this.repo.blocksOfMany(ids);
    const markerRows = await this.repo.markersOf(blockRows.map((b) => b.id));
    const shownOf = new Map<string, BlockCtx[]>();
    for (const id of ids) {
      const hw = homework.get(id);
      if (!hw) continue;
      const ctxs = this.contextsWith(
        hw,
        blockRows.filter((b) => b.homeworkId === id),
        markerRows,
      );
      const overseer = isOverseer(hw, auth);
      shownOf.set(
        id,
        ctxs.filter((ctx) => overseer || this.involved(auth, ctx)),
      );
    }
    const figuresOf = await this.repo.blockFigures(
      [...shownOf.values()].flat().map((ctx) => ctx.block.id),
      auth.userId,
    );
    const out: MarkTask[] = [];
    for (const id of ids) {
      const hw = homework.get(id);
      if (!hw) continue;
      const shown = shownOf.get(id) ?? [];
      const expected = expectedOf.get(id) ?? 0;
      const blocks = shown.map((ctx) =>
        this.taskBlock(auth, hw, ctx, figuresOf.get(ctx.block.id) ?? NO_FIGURES, expected),
      );
      out.push({
        homeworkId: hw.id,
        homeworkTitle: hw.title,
        subjectName: hw.subjectName,
        createdAt: hw.createdAt,
        mine: hw.createdBy === auth.userId,
        blocks,
      });
    }
    return out;
  }

  /** One block of the task list, from its figures summed in the database (`blockFigures`). */
  private taskBlock(
    auth: AuthContext,
    hw: Homework,
    ctx: BlockCtx,
    f: BlockFigures,
    expected: number,
  ): MarkTask['blocks'][number] {
    const arbiter = arbiterOf(ctx.block, hw) === auth.userId;
    const progress: BlockProgress = {
      items: f.items,
      done: f.done,
      marks: f.marks,
      marksNeeded: marksRequired(ctx.rules.mode) * f.items,
      arbitration: f.arbitration,
      problems: f.problems,
      expected,
    };
    return {
      id: ctx.block.id,
      title: ctx.block.title,
      mode: ctx.rules.mode,
      fullScore: ctx.questions.reduce((sum, q) => sum + q.fullScore, 0),
      progress,
      myMarks: f.myMarks,
      // What taskFor() asks of the user: arbitrate as the arbiter, or give a mark to an open item of a class they
      // mark that they have not marked yet (counted in the database).
      myRemaining: f.myRemaining,
      myArbitration: arbiter ? f.toArbitrate : 0,
      canMark: ctx.markers.has(auth.userId) || arbiter,
    };
  }

  async homeworkView(auth: AuthContext, homeworkId: string): Promise<MarkHomework> {
    const hw = await this.homework(auth, homeworkId);
    const ctxs = await this.contexts(hw, await this.ensureBlocks(hw));
    const overseer = isOverseer(hw, auth);
    if (!overseer && !ctxs.some((c) => this.involved(auth, c))) throw forbidden(MARK_MESSAGES.notMarker);
    const classes = await this.repo.homeworkClasses(hw.id);
    const expected = classes.reduce((s, c) => s + Number(c.students ?? 0), 0);
    const blocks: MarkBlock[] = [];
    let sheets = 0;
    for (const ctx of ctxs) {
      if (!overseer && !this.involved(auth, ctx)) continue;
      const items = await this.items(ctx);
      sheets = Math.max(sheets, items.length);
      blocks.push(await this.blockView(auth, ctx, items, expected));
    }
    let candidates: MarkHomework['candidates'] = [];
    if (overseer) {
      const members = await this.repo.schoolMembers(hw.orgId);
      const teaching = await this.repo.subjectTeachers(
        hw.orgId,
        hw.subjectId,
        classes.map((c) => c.id),
      );
      candidates = members.map((m) => ({
        userId: m.id,
        name: m.nickname || m.username,
        subjectClassIds: teaching.filter((t) => t.userId === m.id).map((t) => t.classId),
      }));
    }
    return {
      id: hw.id,
      title: hw.title,
      subjectName: hw.subjectName,
      subjectTeacher: hw.subjectTeacher,
      createdBy: hw.createdBy,
      createdByName: hw.creatorName,
      classes: classes.map((c) => ({ id: c.id, name: c.name, students: Number(c.students ?? 0) })),
      sheets,
      blocks,
      candidates,
      questions: markableQuestions(hw.paper),
      permissions: { edit: canEditBlocks(hw, auth) },
    };
  }

  /** Every block's markers and arbiter belong to the school (and to the homework's classes when by class). */
  private async checkMarkers(hw: Homework, body: SaveMarkBlocks): Promise<void> {
    const members = new Set((await this.repo.schoolMembers(hw.orgId)).map((m) => m.id));
    const classIds = new Set((await this.repo.homeworkClasses(hw.id)).map((c) => c.id));
    for (const b of body.blocks) {
      if (b.markers.length === 0) throw new AppError('VALIDATION', MARK_MESSAGES.noMarkers(b.title));
      for (const m of b.markers) {
        if (!members.has(m.userId)) throw new AppError('VALIDATION', MARK_MESSAGES.markerNotInSchool);
        if (b.assignBy === 'class') {
          if (m.classIds.length === 0) throw new AppError('VALIDATION', MARK_MESSAGES.noMarkers(b.title));
          if (m.classIds.some((c) => !classIds.has(c)))
            throw new AppError('VALIDATION', MARK_MESSAGES.classNotInHomework);
        }
      }
      if (b.arbiterId && !members.has(b.arbiterId))
        throw new AppError('VALIDATION', MARK_MESSAGES.markerNotInSchool);
      if (b.mode === 'double' && new Set(b.markers.map((m) => m.userId)).size < 2)
        throw new AppError('VALIDATION', MARK_MESSAGES.doubleNeedsTwo(b.title));
    }
  }

  async saveBlocks(auth: AuthContext, homeworkId: string, body: SaveMarkBlocks): Promise<MarkHomework> {
    const hw = await this.homework(auth, homeworkId);
    if (!canEditBlocks(hw, auth)) throw forbidden(MARK_MESSAGES.notCreator);
    const existing = await this.ensureBlocks(hw);
    const existingCtx = await this.contexts(hw, existing);
    const markable = markableQuestions(hw.paper);
    const markableIds = new Set(markable.map((q) => q.questionId));
    const seen = new Set<string>();
    for (const b of body.blocks) {
      for (const q of b.questionIds) {
        if (!markableIds.has(q)) throw new AppError('VALIDATION', MARK_MESSAGES.questionNotWritten);
        if (seen.has(q)) throw new AppError('VALIDATION', MARK_MESSAGES.questionTwice);
        seen.add(q);
      }
    }
    const missing = markable.find((q) => !seen.has(q.questionId));
    if (missing) throw new AppError('VALIDATION', MARK_MESSAGES.missingQuestion(missing.no));
    await this.checkMarkers(hw, body);
    // Blocks already marked keep their questions: their marks were given to exactly those.
    const startedIds = new Set<string>();
    for (const ctx of existingCtx) {
      if ((await this.repo.countMarks([ctx.block.id])) === 0) continue;
      startedIds.add(ctx.block.id);
      const kept = body.blocks.find((b) => b.id === ctx.block.id);
      if (!kept || JSON.stringify(kept.questionIds) !== JSON.stringify(ctx.questionIds))
        throw new AppError('CONFLICT', MARK_MESSAGES.blocksHaveMarks);
    }
    const now = this.now();
    const existingIds = new Set(existing.map((b) => b.id));
    const rescore: string[] = [];
    await this.repo.transaction(async (repo) => {
      const keptIds = new Set(body.blocks.map((b) => b.id).filter((id) => id && existingIds.has(id)));
      for (const b of existing) if (!keptIds.has(b.id)) await repo.deleteBlock(b.id);
      for (const [i, b] of body.blocks.entries()) {
        const settings: BlockSettings = {
          title: b.title,
          sort: i + 1,
          questionIds: b.questionIds,
          mode: b.mode,
          thresholdTenths: toTenths(b.threshold),
          averageRule: b.averageRule,
          halfPoints: b.halfPoints,
          assignBy: b.assignBy,
          arbiterId: b.arbiterId,
          rubric: b.rubric,
          comments: b.comments,
          updatedAt: now,
        };
        let id = b.id && keptIds.has(b.id) ? b.id : null;
        if (id) {
          await repo.updateBlock(id, settings);
          if (startedIds.has(id)) rescore.push(id);
        } else {
          id = newId();
          await repo.insertBlock({ id, orgId: hw.orgId, homeworkId: hw.id, createdAt: now, ...settings });
        }
        const markers: Marker[] =
          b.assignBy === 'class'
            ? b.markers.flatMap((m) =>
                [...new Set(m.classIds)].map((classId) => ({ userId: m.userId, classId })),
              )
            : [...new Set(b.markers.map((m) => m.userId))].map((userId) => ({ userId, classId: '' }));
        await repo.setMarkers(id, markers);
      }
    });
    // A changed mode, threshold or rule applies to what was already marked.
    for (const id of rescore) await this.rescoreBlock(auth, id);
    return this.homeworkView(auth, homeworkId);
  }

  protected async rescoreBlock(auth: AuthContext, blockId: string): Promise<void> {
    const ctx = await this.blockCtx(auth, blockId);
    for (const item of await this.items(ctx)) {
      if (item.marks.length === 0) continue;
      await this.results.transaction((results) =>
        this.applyVerdict(results, ctx, item.sheetId, item.verdict, auth.userId),
      );
    }
  }
}
