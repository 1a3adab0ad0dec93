import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  AnnotationSchema,
  HomeworkPaperSchema,
  MARK_CLAIM_SECONDS,
  MARK_MESSAGES,
  type AverageRule,
  type BlockProgress,
  type HomeworkPaper,
  type MarkBlock,
  type MarkGroup,
  type MarkHistoryEntry,
  type MarkHomework,
  type MarkItem,
  type MarkMode,
  type MarkNext,
  type MarkQuestion,
  type MarkTask,
  type SaveMarkBlocks,
  type SubmitMark,
  type SubmitMarkResult,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { isoAfter, newId, nowIso } from '../../lib/ids.js';
import { cardQuestionOf } from '../homework/card-paper.js';
import { ResultsService } from '../results/service.js';
import type { PageStorage } from '../scan/storage.js';
import { NEAR_IDENTICAL_BITS, cropHash, hammingDistance } from './hash.js';
import { ItemGroupsCache } from './item-groups-cache.js';
import {
  arbiterOf,
  assertHomework,
  canEditBlocks,
  isOverseer,
  marksClass,
  type MarkerMap,
} from './policy.js';
import type { BlockRow, ItemAnswerRow, MarkingRepository } from './repository.js';
import {
  marksRequired,
  toPoints,
  toTenths,
  verdictOf,
  type BlockRules,
  type GivenMark,
  type ItemVerdict,
} from '../results/scoring.js';

// Marking: blocks made from the paper snapshot, assignment, the queues that hand items to markers, scoring into
// results (single, double with threshold and arbitration, grouped), 回评 and problems.

type Homework = NonNullable<Awaited<ReturnType<MarkingRepository['findHomework']>>>;
type Mark = Awaited<ReturnType<MarkingRepository['marksOf']>>[number];

/** A block with everything its items are judged by. */
interface BlockCtx {
  hw: Homework;
  block: BlockRow;
  questionIds: string[];
  rules: BlockRules;
  markers: MarkerMap;
  markerNames: Map<string, string>;
  questions: MarkQuestion[];
}

/** One student's answer to a block, with its marks and where it stands. */
interface Item {
  sheetId: string;
  classId: string;
  studentId: string;
  answers: ItemAnswerRow[];
  marks: Mark[];
  verdict: ItemVerdict;
  /** Every answer of the block has a score in results. */
  done: boolean;
  allBlank: boolean;
  problem: { note: string; userId: string; name: string } | null;
}

const scoresInPoints = (scores: Record<string, number>) =>
  Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, toPoints(v)]));

/** Stored JSON read by its schema; the fallback when it is not JSON or not of that shape. */
function parseStored<S extends z.ZodType>(schema: S, text: string, fallback: z.output<S>): z.output<S> {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

const IdsSchema = z.array(z.string());
const ScoresSchema = z.record(z.string(), z.number());
const AnnotationsSchema = z.array(AnnotationSchema);

/** Default blocks get ids derived from the homework and question, so two first visits cannot make two sets. */
export const defaultBlockId = (homeworkId: string, questionId: string) =>
  createHash('sha256').update(`${homeworkId}\u0000${questionId}`).digest('hex').slice(0, 32);

/** Written questions of a frozen paper (the ones teachers mark), in paper order. */
export function markableQuestions(paper: HomeworkPaper): MarkQuestion[] {
  const out: MarkQuestion[] = [];
  for (const section of paper.sections) {
    for (const item of section.items) {
      const kind = cardQuestionOf(item).kind;
      if (kind !== 'blank' && kind !== 'written') continue;
      out.push({
        questionId: item.questionId,
        no: String(item.no),
        typeName: item.question?.typeName ?? section.title,
        fullScore: item.score,
        stem: item.question?.stem ?? '',
        answer: item.question?.answer ?? '',
        analysis: item.question?.analysis ?? '',
      });
    }
  }
  return out;
}

export class MarkingService {
  constructor(
    private readonly repo: MarkingRepository,
    private readonly results: ResultsService,
    private readonly pages: PageStorage,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The task list's item counts, kept per block while their versions stand still (ADR 0047). */
  private readonly itemGroups = new ItemGroupsCache();

  private now(): string {
    return nowIso(this.clock);
  }

  // ───────────── loading ─────────────

  private async homework(auth: AuthContext, id: string): Promise<Homework> {
    return assertHomework(await this.repo.findHomework(id), auth);
  }

  private paperOf(hw: Homework): HomeworkPaper {
    return parseStored(HomeworkPaperSchema, hw.paper_snapshot, { sections: [] } as unknown as HomeworkPaper);
  }

  /** Makes the default blocks of a homework the first time: one per written question, routed by its flag. */
  async ensureBlocks(hw: Homework): Promise<BlockRow[]> {
    const existing = await this.repo.blocksOf(hw.id);
    if (existing.length > 0) return existing;
    const questions = markableQuestions(this.paperOf(hw));
    if (questions.length === 0) return [];
    const classes = await this.repo.homeworkClasses(hw.id);
    let markers: { user_id: string; class_id: string }[] = [{ user_id: hw.created_by, class_id: '' }];
    let assignBy: 'question' | 'class' = 'question';
    if (hw.subject_teacher === 1) {
      // 是否分配给学科老师: each class's subject teachers mark it; a class without one falls to the creator.
      const teachers = await this.repo.subjectTeachers(
        hw.org_id,
        hw.subject_id,
        classes.map((c) => c.id),
      );
      assignBy = 'class';
      markers = classes.flatMap((c) => {
        const own = teachers.filter((t) => t.class_id === c.id).map((t) => t.user_id);
        return (own.length > 0 ? own : [hw.created_by]).map((user_id) => ({ user_id, class_id: c.id }));
      });
    }
    const now = this.now();
    try {
      await this.repo.transaction(async (repo) => {
        for (const [i, q] of questions.entries()) {
          const id = defaultBlockId(hw.id, q.questionId);
          await repo.insertBlock({
            id,
            org_id: hw.org_id,
            homework_id: hw.id,
            title: `第${q.no}题`,
            sort: i + 1,
            question_ids: JSON.stringify([q.questionId]),
            assign_by: assignBy,
            arbiter_id: null,
            created_at: now,
            updated_at: now,
          });
          await repo.setMarkers(id, markers);
        }
      });
    } catch {
      // Another request made them at the same moment (same ids): read theirs.
    }
    return this.repo.blocksOf(hw.id);
  }

  private async contexts(hw: Homework, blocks: BlockRow[]): Promise<BlockCtx[]> {
    return this.contextsWith(hw, blocks, await this.repo.markersOf(blocks.map((b) => b.id)));
  }

  /** The contexts of a homework's blocks, its markers taken from rows read before (of these blocks or more). */
  private contextsWith(
    hw: Homework,
    blocks: BlockRow[],
    markerRows: Awaited<ReturnType<MarkingRepository['markersOf']>>,
  ): BlockCtx[] {
    const all = markableQuestions(this.paperOf(hw));
    const byId = new Map(all.map((q) => [q.questionId, q]));
    return blocks.map((block) => {
      const questionIds = parseStored(IdsSchema, block.question_ids, []);
      const markers: MarkerMap = new Map();
      const markerNames = new Map<string, string>();
      for (const m of markerRows.filter((r) => r.block_id === block.id)) {
        if (!markers.has(m.user_id)) markers.set(m.user_id, new Set());
        markers.get(m.user_id)!.add(m.class_id);
        markerNames.set(m.user_id, m.nickname);
      }
      return {
        hw,
        block,
        questionIds,
        rules: {
          mode: block.mode as MarkMode,
          thresholdTenths: block.threshold_tenths,
          averageRule: block.average_rule as AverageRule,
          stepTenths: block.half_points ? 5 : 10,
        },
        markers,
        markerNames,
        questions: questionIds.map(
          (id) =>
            byId.get(id) ?? {
              questionId: id,
              no: '?',
              typeName: '',
              fullScore: 0,
              stem: '',
              answer: '',
              analysis: '',
            },
        ),
      };
    });
  }

  private async blockCtx(auth: AuthContext, blockId: string): Promise<BlockCtx> {
    const block = await this.repo.findBlock(blockId);
    if (!block || block.org_id !== auth.orgId) throw new AppError('NOT_FOUND', MARK_MESSAGES.blockNotFound);
    const hw = await this.homework(auth, block.homework_id);
    return (await this.contexts(hw, [block]))[0]!;
  }

  /** The items of a block (sheets that arrived), judged. */
  private async items(
    ctx: BlockCtx,
    sheetIds?: string[],
    repo: MarkingRepository = this.repo,
  ): Promise<Item[]> {
    const answers = await repo.itemAnswers(ctx.hw.id, ctx.questionIds, sheetIds);
    const marks = await repo.marksOf(ctx.block.id, sheetIds);
    const problems = await repo.openProblems(ctx.block.id);
    const marksBySheet = new Map<string, Mark[]>();
    for (const m of marks) {
      if (!marksBySheet.has(m.sheet_id)) marksBySheet.set(m.sheet_id, []);
      marksBySheet.get(m.sheet_id)!.push(m);
    }
    const problemOf = new Map(problems.map((p) => [p.sheet_id, p]));
    const bySheet = new Map<string, ItemAnswerRow[]>();
    for (const a of answers) {
      if (!bySheet.has(a.sheet_id)) bySheet.set(a.sheet_id, []);
      bySheet.get(a.sheet_id)!.push(a);
    }
    const out: Item[] = [];
    for (const [sheetId, rows] of bySheet) {
      // An item exists once its sheet brought something to look at: a crop, or a box read as blank.
      if (!rows.some((r) => r.crop_path !== null || r.blank === 1)) continue;
      const itemMarks = marksBySheet.get(sheetId) ?? [];
      const p = problemOf.get(sheetId);
      out.push({
        sheetId,
        classId: rows[0]!.class_id,
        studentId: rows[0]!.student_id,
        answers: ctx.questionIds.map((q) => rows.find((r) => r.question_id === q)).filter((r) => !!r),
        marks: itemMarks,
        verdict: verdictOf(ctx.rules, ctx.questionIds, itemMarks.map(given)),
        done: rows.length === ctx.questionIds.length && rows.every((r) => r.score_tenths !== null),
        allBlank: rows.every((r) => r.blank === 1),
        problem: p ? { note: p.note, userId: p.user_id, name: p.nickname } : null,
      });
    }
    return out;
  }

  /** What an item asks of a user now, or null when nothing. */
  private taskFor(
    ctx: BlockCtx,
    item: Item,
    userId: string,
    claimedByOthers: number,
  ): 'mark' | 'arbitration' | null {
    if (item.done || item.problem) return null;
    if (item.verdict.state === 'arbitration')
      return arbiterOf(ctx.block, ctx.hw) === userId ? 'arbitration' : null;
    if (item.verdict.state !== 'open') return null;
    if (!marksClass(ctx.markers, userId, item.classId)) return null;
    if (item.marks.some((m) => m.user_id === userId)) return null;
    return claimedByOthers < item.verdict.marksNeeded ? 'mark' : null;
  }

  private progress(ctx: BlockCtx, items: Item[], expected: number): BlockProgress {
    const required = marksRequired(ctx.rules.mode);
    let marks = 0;
    for (const i of items)
      marks += Math.min(required, i.marks.filter((m) => m.kind !== 'arbitration').length);
    return {
      items: items.length,
      done: items.filter((i) => i.done).length,
      marks,
      marksNeeded: items.length * required,
      arbitration: items.filter((i) => !i.done && i.verdict.state === 'arbitration').length,
      problems: items.filter((i) => !i.done && i.problem).length,
      expected,
    };
  }

  private remainingFor(ctx: BlockCtx, items: Item[], userId: string): number {
    return items.filter((i) => this.taskFor(ctx, i, userId, 0) !== null).length;
  }

  private async blockView(
    auth: AuthContext,
    ctx: BlockCtx,
    items: Item[],
    expected: number,
  ): Promise<MarkBlock> {
    const arbiter = arbiterOf(ctx.block, ctx.hw);
    const names = new Map(ctx.markerNames);
    if (!names.has(arbiter)) {
      for (const u of await this.repo.usersNamed([arbiter])) names.set(u.id, u.nickname);
    }
    const teacherIds = [
      ...new Set([...ctx.markers.keys(), ...items.flatMap((i) => i.marks.map((m) => m.user_id))]),
    ];
    const markNames = new Map(items.flatMap((i) => i.marks.map((m) => [m.user_id, m.nickname] as const)));
    const overseer = isOverseer(ctx.hw, auth);
    return {
      id: ctx.block.id,
      homeworkId: ctx.hw.id,
      title: ctx.block.title,
      sort: ctx.block.sort,
      questions: ctx.questions,
      fullScore: ctx.questions.reduce((s, q) => s + q.fullScore, 0),
      mode: ctx.rules.mode,
      threshold: toPoints(ctx.rules.thresholdTenths),
      averageRule: ctx.rules.averageRule,
      halfPoints: ctx.block.half_points === 1,
      assignBy: ctx.block.assign_by as 'question' | 'class',
      markers: [...ctx.markers.entries()].map(([userId, classes]) => ({
        userId,
        name: ctx.markerNames.get(userId) ?? '',
        classIds: [...classes].filter((c) => c !== ''),
      })),
      arbiterId: ctx.block.arbiter_id,
      arbiterName: names.get(arbiter) ?? '',
      rubric: ctx.block.rubric,
      comments: parseStored(IdsSchema, ctx.block.comments, []),
      progress: this.progress(ctx, items, expected),
      teachers: teacherIds.map((userId) => ({
        userId,
        name: ctx.markerNames.get(userId) ?? markNames.get(userId) ?? '',
        marks: items.filter((i) => i.marks.some((m) => m.user_id === userId)).length,
        remaining: this.remainingFor(ctx, items, userId),
      })),
      started: items.some((i) => i.marks.length > 0),
      permissions: {
        mark: ctx.markers.has(auth.userId),
        arbitrate: arbiter === auth.userId || overseer,
        edit: canEditBlocks(ctx.hw, auth),
      },
    };
  }

  private async expectedOf(hw: Homework): Promise<number> {
    const classes = await this.repo.homeworkClasses(hw.id);
    return classes.reduce((s, c) => s + Number(c.students ?? 0), 0);
  }

  /** Whether the caller takes part in a block (marker or arbiter) or oversees it. */
  private involved(auth: AuthContext, ctx: BlockCtx): boolean {
    return (
      isOverseer(ctx.hw, auth) || ctx.markers.has(auth.userId) || arbiterOf(ctx.block, ctx.hw) === auth.userId
    );
  }

  // ───────────── tasks and assignment ─────────────

  async tasks(auth: AuthContext): Promise<MarkTask[]> {
    const orgId = requireSchool(auth);
    for (const id of await this.repo.homeworkWithoutBlocks(orgId)) {
      const hw = await this.repo.findHomework(id);
      if (hw) await this.ensureBlocks(hw);
    }
    // A few set-based reads for the whole list, whatever its length: the homework, their blocks and markers, the
    // students they expect, and their items counted in the database in groups that stand alike (a district test
    // has thousands of items per block) — by the same rules as items(), verdictOf() and taskFor().
    const ids = await this.repo.taskHomework(orgId, auth.userId, auth.isAdministrator);
    const homework = new Map((await this.repo.findHomeworkMany(ids)).map((h) => [h.id, h]));
    const blockRows = await this.repo.blocksOfMany(ids);
    const markerRows = await this.repo.markersOf(blockRows.map((b) => b.id));
    const shownOf = new Map<string, BlockCtx[]>();
    for (const id of ids) {
      const hw = homework.get(id);
      if (!hw) continue;
      const ctxs = this.contextsWith(
        hw,
        blockRows.filter((b) => b.homework_id === id),
        markerRows,
      );
      const overseer = isOverseer(hw, auth);
      shownOf.set(
        id,
        ctxs.filter((ctx) => overseer || this.involved(auth, ctx)),
      );
    }
    const shownIds = ids.filter((id) => (shownOf.get(id)?.length ?? 0) > 0);
    const expectedOf = await this.repo.expectedStudents(shownIds);
    const groups = await this.itemGroups.groups(
      this.repo,
      orgId,
      [...shownOf.values()].flat().map((ctx) => ({
        id: ctx.block.id,
        homeworkId: ctx.hw.id,
        questionIds: ctx.questionIds,
        required: marksRequired(ctx.rules.mode),
        thresholdTenths: ctx.rules.thresholdTenths,
      })),
      auth.userId,
    );
    const groupsOf = new Map<string, typeof groups>();
    for (const g of groups) {
      if (!groupsOf.has(g.block_id)) groupsOf.set(g.block_id, []);
      groupsOf.get(g.block_id)!.push(g);
    }
    const out: MarkTask[] = [];
    for (const id of ids) {
      const hw = homework.get(id);
      if (!hw) continue;
      const shown = shownOf.get(id) ?? [];
      const expected = expectedOf.get(id) ?? 0;
      const blocks: MarkTask['blocks'] = shown.map((ctx) => {
        const required = marksRequired(ctx.rules.mode);
        const arbiter = arbiterOf(ctx.block, hw) === auth.userId;
        const progress: BlockProgress = {
          items: 0,
          done: 0,
          marks: 0,
          marksNeeded: 0,
          arbitration: 0,
          problems: 0,
          expected,
        };
        let myMarks = 0;
        let myRemaining = 0;
        let myArbitration = 0;
        for (const g of groupsOf.get(ctx.block.id) ?? []) {
          progress.items += g.items;
          progress.marks += g.given * g.items;
          progress.marksNeeded += required * g.items;
          if (g.mine) myMarks += g.items;
          if (g.done) {
            progress.done += g.items;
            continue;
          }
          if (g.state === 'arbitration') progress.arbitration += g.items;
          if (g.problem) {
            progress.problems += g.items;
            continue;
          }
          // What taskFor() asks of the user: arbitrate as the arbiter, or give a mark to an open item of a class
          // they mark that they have not marked yet.
          if (g.state === 'arbitration' && arbiter) myArbitration += g.items;
          if (g.state === 'open' && !g.mine && marksClass(ctx.markers, auth.userId, g.class_id))
            myRemaining += g.items;
        }
        return {
          id: ctx.block.id,
          title: ctx.block.title,
          mode: ctx.rules.mode,
          fullScore: ctx.questions.reduce((sum, q) => sum + q.fullScore, 0),
          progress,
          myMarks,
          myRemaining,
          myArbitration,
          canMark: ctx.markers.has(auth.userId) || arbiterOf(ctx.block, hw) === auth.userId,
        };
      });
      out.push({
        homeworkId: hw.id,
        homeworkTitle: hw.title,
        subjectName: hw.subject_name,
        createdAt: hw.created_at,
        mine: hw.created_by === auth.userId,
        blocks,
      });
    }
    return out;
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
      const members = await this.repo.schoolMembers(hw.org_id);
      const teaching = await this.repo.subjectTeachers(
        hw.org_id,
        hw.subject_id,
        classes.map((c) => c.id),
      );
      candidates = members.map((m) => ({
        userId: m.id,
        name: m.nickname || m.username,
        subjectClassIds: teaching.filter((t) => t.user_id === m.id).map((t) => t.class_id),
      }));
    }
    return {
      id: hw.id,
      title: hw.title,
      subjectName: hw.subject_name,
      subjectTeacher: hw.subject_teacher === 1,
      createdBy: hw.created_by,
      createdByName: hw.creator_name,
      classes: classes.map((c) => ({ id: c.id, name: c.name, students: Number(c.students ?? 0) })),
      sheets,
      blocks,
      candidates,
      questions: markableQuestions(this.paperOf(hw)),
      permissions: { edit: canEditBlocks(hw, auth) },
    };
  }

  async saveBlocks(auth: AuthContext, homeworkId: string, body: SaveMarkBlocks): Promise<MarkHomework> {
    const hw = await this.homework(auth, homeworkId);
    if (!canEditBlocks(hw, auth)) throw forbidden(MARK_MESSAGES.notCreator);
    const existing = await this.ensureBlocks(hw);
    const existingCtx = await this.contexts(hw, existing);
    const markable = markableQuestions(this.paperOf(hw));
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
    const members = new Set((await this.repo.schoolMembers(hw.org_id)).map((m) => m.id));
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
        const settings = {
          title: b.title,
          sort: i + 1,
          question_ids: JSON.stringify(b.questionIds),
          mode: b.mode,
          threshold_tenths: toTenths(b.threshold),
          average_rule: b.averageRule,
          half_points: b.halfPoints ? 1 : 0,
          assign_by: b.assignBy,
          arbiter_id: b.arbiterId,
          rubric: b.rubric,
          comments: JSON.stringify(b.comments),
          updated_at: now,
        };
        let id = b.id && keptIds.has(b.id) ? b.id : null;
        if (id) {
          await repo.updateBlock(id, settings);
          if (startedIds.has(id)) rescore.push(id);
        } else {
          id = newId();
          await repo.insertBlock({ id, org_id: hw.org_id, homework_id: hw.id, created_at: now, ...settings });
        }
        const rows =
          b.assignBy === 'class'
            ? b.markers.flatMap((m) =>
                [...new Set(m.classIds)].map((class_id) => ({ user_id: m.userId, class_id })),
              )
            : [...new Set(b.markers.map((m) => m.userId))].map((user_id) => ({ user_id, class_id: '' }));
        await repo.setMarkers(id, rows);
      }
    });
    // A changed mode, threshold or rule applies to what was already marked.
    for (const id of rescore) await this.rescoreBlock(auth, id);
    return this.homeworkView(auth, homeworkId);
  }

  private async rescoreBlock(auth: AuthContext, blockId: string): Promise<void> {
    const ctx = await this.blockCtx(auth, blockId);
    for (const item of await this.items(ctx)) {
      if (item.marks.length === 0) continue;
      await this.results.transaction((results) =>
        this.applyVerdict(results, ctx, item.sheetId, item.verdict, auth.userId),
      );
    }
  }

  // ───────────── the bench ─────────────

  async block(auth: AuthContext, blockId: string): Promise<MarkBlock> {
    const ctx = await this.blockCtx(auth, blockId);
    if (!this.involved(auth, ctx)) throw forbidden(MARK_MESSAGES.notMarker);
    return this.blockView(auth, ctx, await this.items(ctx), await this.expectedOf(ctx.hw));
  }

  private async itemViews(
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
      const mine = item.marks.find((m) => m.user_id === auth.userId);
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
        student: s ? { name: s.name, studentNo: s.student_no, className: s.class_name } : null,
        answers: item.answers.map((a) => ({
          questionId: a.question_id,
          cropUrl: a.crop_path
            ? `/teacher/mark/crop/${item.sheetId}/${encodeURIComponent(a.question_id)}`
            : null,
          blank: a.blank === 1,
          score: a.score_tenths === null ? null : toPoints(a.score_tenths),
        })),
        myMark: mine
          ? {
              scores: scoresInPoints(parseStored(ScoresSchema, mine.scores, {})),
              annotations: parseStored(AnnotationsSchema, mine.annotations, []),
              comment: mine.comment,
              updatedAt: mine.updated_at,
            }
          : null,
        marks: seesMarks
          ? item.marks.map((m) => ({
              markerName: m.nickname,
              kind: m.kind as 'mark' | 'arbitration' | 'group',
              scores: scoresInPoints(parseStored(ScoresSchema, m.scores, {})),
              total: toPoints(m.total_tenths),
              mine: m.user_id === auth.userId,
              createdAt: m.created_at,
              updatedAt: m.updated_at,
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
      if (c.user_id === auth.userId) mine.add(c.sheet_id);
      else othersClaims.set(c.sheet_id, (othersClaims.get(c.sheet_id) ?? 0) + 1);
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
      myMarks: items.filter((i) => i.marks.some((m) => m.user_id === auth.userId)).length,
    };
  }

  async item(auth: AuthContext, blockId: string, sheetId: string, reveal: boolean): Promise<MarkItem> {
    const ctx = await this.blockCtx(auth, blockId);
    const [item] = await this.items(ctx, [sheetId]);
    if (!item) throw new AppError('NOT_FOUND', MARK_MESSAGES.itemNotFound);
    const allowed =
      isOverseer(ctx.hw, auth) ||
      marksClass(ctx.markers, auth.userId, item.classId) ||
      item.marks.some((m) => m.user_id === auth.userId) ||
      arbiterOf(ctx.block, ctx.hw) === auth.userId;
    if (!allowed) throw forbidden(MARK_MESSAGES.notMarker);
    return (await this.itemViews(auth, ctx, [item], reveal))[0]!;
  }

  /** Checks submitted scores against the block: every question once, none empty, within full, on the step. */
  private scoresOf(ctx: BlockCtx, scores: SubmitMark['scores']): Record<string, number> {
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

  /** Writes an item's verdict into results: final scores, or none while it waits (a revision may undo a final). */
  private async applyVerdict(
    results: ResultsService,
    ctx: BlockCtx,
    sheetId: string,
    verdict: ItemVerdict,
    userId: string,
  ): Promise<void> {
    const patches = ctx.questionIds.map((questionId) =>
      verdict.state === 'final'
        ? { questionId, scoreTenths: verdict.scores[questionId] ?? 0, source: verdict.source }
        : { questionId, scoreTenths: null },
    );
    await results.writeAnswers(sheetId, patches, {
      userId,
      reason: verdict.state === 'final' ? `marking:${verdict.source}` : 'marking:pending',
    });
  }

  async submit(
    auth: AuthContext,
    blockId: string,
    body: SubmitMark,
    kind: 'mark' | 'group' = 'mark',
  ): Promise<SubmitMarkResult> {
    const ctx = await this.blockCtx(auth, blockId);
    const scores = this.scoresOf(ctx, body.scores);
    const total = Object.values(scores).reduce((s, v) => s + v, 0);
    const now = this.now();
    let outcome: SubmitMarkResult['outcome'] = 'final';
    let finalScores: Record<string, number | null> = {};
    await this.repo.transaction(async (repo, trx) => {
      const [item] = await this.items(ctx, [body.sheetId], repo);
      if (!item) throw new AppError('NOT_FOUND', MARK_MESSAGES.itemNotFound);
      const myGiven = item.marks.find((m) => m.user_id === auth.userId && m.kind !== 'arbitration');
      const myArbitration = item.marks.find((m) => m.user_id === auth.userId && m.kind === 'arbitration');
      const isArbiter = arbiterOf(ctx.block, ctx.hw) === auth.userId;
      const decider = isOverseer(ctx.hw, auth) || isArbiter;
      const marker = marksClass(ctx.markers, auth.userId, item.classId);
      const fields = {
        scores: JSON.stringify(scores),
        total_tenths: total,
        annotations: JSON.stringify(body.annotations),
        comment: body.comment,
        updated_at: now,
      };
      const insert = (markKind: string) =>
        repo.insertMark({
          id: newId(),
          org_id: ctx.hw.org_id,
          block_id: ctx.block.id,
          sheet_id: item.sheetId,
          user_id: auth.userId,
          kind: markKind,
          created_at: now,
          ...fields,
        });
      // The arbiter decides an item in arbitration; an overseer who marked it too revises their own mark instead.
      if (item.verdict.state === 'arbitration' && (isArbiter || (decider && !myGiven))) {
        await insert('arbitration');
      } else if (myArbitration || myGiven) {
        // 回评: my own mark, revised; the verdict follows.
        await repo.updateMark((myArbitration ?? myGiven)!.id, fields);
        outcome = 'revised';
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
      myMarks: items.filter((i) => i.marks.some((m) => m.user_id === auth.userId)).length,
    };
  }

  async history(auth: AuthContext, blockId: string, pageNo: number, size: number) {
    const ctx = await this.blockCtx(auth, blockId);
    if (!this.involved(auth, ctx)) throw forbidden(MARK_MESSAGES.notMarker);
    const total = await this.repo.countMyMarks(blockId, auth.userId);
    const rows = await this.repo.myMarksPage(blockId, auth.userId, (pageNo - 1) * size, size);
    const items = new Map(
      (
        await this.items(
          ctx,
          rows.map((r) => r.sheet_id),
        )
      ).map((i) => [i.sheetId, i]),
    );
    const records: MarkHistoryEntry[] = rows.map((r, i) => {
      const item = items.get(r.sheet_id);
      const final = item?.done ? item.answers.reduce((s, a) => s + (a.score_tenths ?? 0), 0) : null;
      return {
        sheetId: r.sheet_id,
        seq: total - (pageNo - 1) * size - i,
        kind: r.kind as MarkHistoryEntry['kind'],
        scores: scoresInPoints(parseStored(ScoresSchema, r.scores, {})),
        total: toPoints(r.total_tenths),
        finalTotal: final === null ? null : toPoints(final),
        updatedAt: r.updated_at,
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
      block_id: blockId,
      sheet_id: sheetId,
      user_id: auth.userId,
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
    await this.repo.updateBlock(blockId, { comments: JSON.stringify(unique), updated_at: this.now() });
    return unique;
  }

  // ───────────── grouped marking ─────────────

  async groups(auth: AuthContext, blockId: string): Promise<MarkGroup[]> {
    const ctx = await this.blockCtx(auth, blockId);
    if (!ctx.markers.has(auth.userId)) throw forbidden(MARK_MESSAGES.notMarker);
    const now = this.now();
    const claims = await this.repo.activeClaims(blockId, now);
    const claimedByOthers = new Set(claims.filter((c) => c.user_id !== auth.userId).map((c) => c.sheet_id));
    const open = (await this.items(ctx)).filter(
      (i) => this.taskFor(ctx, i, auth.userId, 0) === 'mark' && !claimedByOthers.has(i.sheetId),
    );
    const groups: { kind: 'blank' | 'similar'; items: Item[] }[] = [];
    const blank = open.filter((i) => i.allBlank);
    if (blank.length > 0) groups.push({ kind: 'blank', items: blank });
    const rest = open.filter((i) => !i.allBlank && i.answers.every((a) => a.crop_path));
    const paths = rest.flatMap((i) => i.answers.map((a) => a.crop_path!));
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
      const signature = item.answers.map((a) => hashes.get(a.crop_path!) ?? '');
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
          { sheetId, scores: body.scores, annotations: [], comment: body.comment },
          'group',
        );
        remaining = r.remaining;
        results.push({ sheetId, ok: true, message: null });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ sheetId, ok: false, message: error.message });
      }
    }
    if (results.every((r) => !r.ok)) remaining = this.remainingFor(ctx, await this.items(ctx), auth.userId);
    return { results, remaining };
  }

  // ───────────── crops ─────────────

  async crop(
    auth: AuthContext,
    sheetId: string,
    questionId: string,
  ): Promise<{ data: Buffer; type: string }> {
    const answer = await this.repo.findAnswer(sheetId, questionId);
    if (!answer || answer.org_id !== auth.orgId) throw new AppError('NOT_FOUND', MARK_MESSAGES.itemNotFound);
    const hw = await this.homework(auth, answer.homework_id);
    if (!isOverseer(hw, auth)) {
      const ctxs = await this.contexts(hw, await this.repo.blocksOf(hw.id));
      const ctx = ctxs.find((c) => c.questionIds.includes(questionId));
      const allowed =
        !!ctx &&
        (marksClass(ctx.markers, auth.userId, answer.class_id) ||
          arbiterOf(ctx.block, hw) === auth.userId ||
          (await this.repo.marksOf(ctx.block.id, [sheetId])).some((m) => m.user_id === auth.userId));
      if (!allowed) throw forbidden(MARK_MESSAGES.notMarker);
    }
    if (!answer.crop_path) throw new AppError('NOT_FOUND', MARK_MESSAGES.noCrop);
    const ext = answer.crop_path.split('.').pop()?.toLowerCase() ?? 'png';
    const type = ext === 'jpg' || ext === 'jpeg' ? 'image/jpeg' : ext === 'webp' ? 'image/webp' : 'image/png';
    return { data: await this.pages.readCrop(answer.crop_path), type };
  }
}

export { given as givenMark };

function given(m: Mark): GivenMark {
  return {
    userId: m.user_id,
    kind: m.kind,
    scores: parseStored(ScoresSchema, m.scores, {}),
    totalTenths: m.total_tenths,
    createdAt: m.created_at,
  };
}
