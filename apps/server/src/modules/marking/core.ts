import { createHash } from 'node:crypto';
import {
  MARK_MESSAGES,
  type BlockProgress,
  type HomeworkPaper,
  type MarkBlock,
  type MarkQuestion,
  type RubricItem,
} from '@zhzy/contracts';
import { MARKING_TEXT } from '../../i18n/messages.js';
import type { AuthContext } from '../../lib/call.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import { cardQuestionOf } from '../homework/card-paper.js';
import type { ResultsService } from '../results/service.js';
import type { PageStorage } from '../scan/storage.js';
import {
  arbiterOf,
  assertHomework,
  canEditBlocks,
  isOverseer,
  marksClass,
  type MarkerMap,
} from './policy.js';
import { keptPapers } from './paper-cache.js';
import type {
  Block,
  ItemAnswer,
  Mark,
  MarkingHomework,
  MarkingRepository,
  Marker,
  NamedMark,
  RubricItemRecord,
} from './repository.js';
import {
  marksRequired,
  toPoints,
  verdictOf,
  type BlockRules,
  type GivenMark,
  type ItemVerdict,
} from '../results/scoring.js';

// Marking: blocks made from the paper snapshot, assignment, the queues that hand items to markers, scoring into
// results (single, double with threshold and arbitration, grouped), 回评 and problems. One file per use case
// (ADR 0051): core.ts the shared loading, assignment.ts, bench.ts, and service.ts the facade with the review side.

export type Homework = MarkingHomework;

/** A block with everything its items are judged by. */
export interface BlockCtx {
  hw: Homework;
  block: Block;
  questionIds: string[];
  rules: BlockRules;
  markers: MarkerMap;
  markerNames: Map<string, string>;
  questions: MarkQuestion[];
  /** The rubric items (评分项) of the block's questions, in key order (question by question). */
  rubricItems: RubricItem[];
}

/** One student's answer to a block, with its marks and where it stands. */
export interface Item {
  sheetId: string;
  classId: string;
  studentId: string;
  answers: ItemAnswer[];
  marks: NamedMark[];
  verdict: ItemVerdict;
  /** Every answer of the block has a score in results. */
  done: boolean;
  allBlank: boolean;
  problem: { note: string; userId: string; name: string } | null;
}

export const scoresInPoints = (scores: Record<string, number>) =>
  Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, toPoints(v)]));

/** Where the bench fetches an answer's crop (the markCrop call). */
export const cropUrlOf = (sheetId: string, questionId: string) =>
  `/teacher/mark/crop/${sheetId}/${encodeURIComponent(questionId)}`;

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

/** What every marking use case stands on: loading blocks and their items, progress, and writing verdicts to results. */
export class MarkingCore {
  constructor(
    protected readonly repo: MarkingRepository,
    protected readonly results: ResultsService,
    protected readonly pages: PageStorage,
    protected readonly clock: () => number = Date.now,
  ) {}

  protected now(): string {
    return nowIso(this.clock);
  }

  // ───────────── loading ─────────────

  protected async homework(auth: AuthContext, id: string): Promise<Homework> {
    return assertHomework(await this.repo.findHomework(id), auth);
  }

  /** Makes the default blocks of a homework the first time: one per written question, routed by its flag. */
  async ensureBlocks(hw: Homework): Promise<Block[]> {
    const existing = await this.repo.blocksOf(hw.id);
    if (existing.length > 0) return existing;
    const questions = markableQuestions(hw.paper);
    if (questions.length === 0) return [];
    const classes = await this.repo.homeworkClasses(hw.id);
    let markers: Marker[] = [{ userId: hw.createdBy, classId: '' }];
    let assignBy: 'question' | 'class' = 'question';
    if (hw.subjectTeacher) {
      // 是否分配给学科老师: each class's subject teachers mark it; a class without one falls to the creator.
      const teachers = await this.repo.subjectTeachers(
        hw.orgId,
        hw.subjectId,
        classes.map((c) => c.id),
      );
      assignBy = 'class';
      markers = classes.flatMap((c) => {
        const own = teachers.filter((t) => t.classId === c.id).map((t) => t.userId);
        return (own.length > 0 ? own : [hw.createdBy]).map((userId) => ({ userId, classId: c.id }));
      });
    }
    const now = this.now();
    try {
      await this.repo.transaction(async (repo) => {
        for (const [i, q] of questions.entries()) {
          const id = defaultBlockId(hw.id, q.questionId);
          await repo.insertBlock({
            id,
            orgId: hw.orgId,
            homeworkId: hw.id,
            title: MARKING_TEXT.blockTitle(q.no),
            sort: i + 1,
            questionIds: [q.questionId],
            assignBy,
            arbiterId: null,
            createdAt: now,
            updatedAt: now,
          });
          await repo.setMarkers(id, markers);
        }
      });
    } catch {
      // Another request made them at the same moment (same ids): read theirs.
    }
    return this.repo.blocksOf(hw.id);
  }

  protected async contexts(hw: Homework, blocks: Block[]): Promise<BlockCtx[]> {
    const questionIds = [...new Set(blocks.flatMap((b) => b.questionIds))];
    return this.contextsWith(
      hw,
      blocks,
      await this.repo.markersOf(blocks.map((b) => b.id)),
      await this.repo.rubricItems(hw.id, questionIds),
    );
  }

  /** The contexts of a homework's blocks, its markers taken from rows read before (of these blocks or more). */
  protected contextsWith(
    hw: Homework,
    blocks: Block[],
    markerRows: Awaited<ReturnType<MarkingRepository['markersOf']>>,
    rubricRows: RubricItemRecord[] = [],
  ): BlockCtx[] {
    const all = keptPapers.markableOf(hw.paper);
    const byId = new Map(all.map((q) => [q.questionId, q]));
    return blocks.map((block) => {
      const questionIds = block.questionIds;
      const markers: MarkerMap = new Map();
      const markerNames = new Map<string, string>();
      for (const m of markerRows.filter((r) => r.blockId === block.id)) {
        if (!markers.has(m.userId)) markers.set(m.userId, new Set());
        markers.get(m.userId)!.add(m.classId);
        markerNames.set(m.userId, m.nickname);
      }
      return {
        hw,
        block,
        questionIds,
        rules: {
          mode: block.mode,
          thresholdTenths: block.thresholdTenths,
          averageRule: block.averageRule,
          stepTenths: block.halfPoints ? 5 : 10,
        },
        markers,
        markerNames,
        rubricItems: questionIds.flatMap((q) =>
          rubricRows
            .filter((r) => r.questionId === q)
            .map((r): RubricItem => ({
              id: r.id,
              questionId: r.questionId,
              label: r.label,
              points: toPoints(r.pointsTenths),
            })),
        ),
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

  protected async blockCtx(auth: AuthContext, blockId: string): Promise<BlockCtx> {
    const block = await this.repo.findBlock(blockId);
    if (!block || block.orgId !== auth.orgId) throw new AppError('NOT_FOUND', MARK_MESSAGES.blockNotFound);
    const hw = await this.homework(auth, block.homeworkId);
    return (await this.contexts(hw, [block]))[0]!;
  }

  /** The items of a block (sheets that arrived), judged. */
  protected async items(
    ctx: BlockCtx,
    sheetIds?: string[],
    repo: MarkingRepository = this.repo,
  ): Promise<Item[]> {
    const answers = await repo.itemAnswers(ctx.hw.id, ctx.questionIds, sheetIds);
    const marks = await repo.marksOf(ctx.block.id, sheetIds);
    const problems = await repo.openProblems(ctx.block.id);
    const marksBySheet = new Map<string, NamedMark[]>();
    for (const m of marks) {
      if (!marksBySheet.has(m.sheetId)) marksBySheet.set(m.sheetId, []);
      marksBySheet.get(m.sheetId)!.push(m);
    }
    const problemOf = new Map(problems.map((p) => [p.sheetId, p]));
    const bySheet = new Map<string, ItemAnswer[]>();
    for (const a of answers) {
      if (!bySheet.has(a.sheetId)) bySheet.set(a.sheetId, []);
      bySheet.get(a.sheetId)!.push(a);
    }
    const out: Item[] = [];
    for (const [sheetId, rows] of bySheet) {
      // An item exists once its sheet brought something to look at: a crop, or a box read as blank.
      if (!rows.some((r) => r.cropPath !== null || r.blank)) continue;
      const itemMarks = marksBySheet.get(sheetId) ?? [];
      const p = problemOf.get(sheetId);
      out.push({
        sheetId,
        classId: rows[0]!.classId,
        studentId: rows[0]!.studentId,
        answers: ctx.questionIds.map((q) => rows.find((r) => r.questionId === q)).filter((r) => !!r),
        marks: itemMarks,
        verdict: verdictOf(ctx.rules, ctx.questionIds, itemMarks.map(givenMark)),
        done: rows.length === ctx.questionIds.length && rows.every((r) => r.scoreTenths !== null),
        allBlank: rows.every((r) => r.blank),
        problem: p ? { note: p.note, userId: p.userId, name: p.name } : null,
      });
    }
    return out;
  }

  /** What an item asks of a user now, or null when nothing. */
  protected taskFor(
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
    if (item.marks.some((m) => m.userId === userId)) return null;
    return claimedByOthers < item.verdict.marksNeeded ? 'mark' : null;
  }

  protected progress(ctx: BlockCtx, items: Item[], expected: number): BlockProgress {
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

  protected remainingFor(ctx: BlockCtx, items: Item[], userId: string): number {
    return items.filter((i) => this.taskFor(ctx, i, userId, 0) !== null).length;
  }

  protected async blockView(
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
      ...new Set([...ctx.markers.keys(), ...items.flatMap((i) => i.marks.map((m) => m.userId))]),
    ];
    const markNames = new Map(items.flatMap((i) => i.marks.map((m) => [m.userId, m.markerName] as const)));
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
      halfPoints: ctx.block.halfPoints,
      assignBy: ctx.block.assignBy,
      markers: [...ctx.markers.entries()].map(([userId, classes]) => ({
        userId,
        name: ctx.markerNames.get(userId) ?? '',
        classIds: [...classes].filter((c) => c !== ''),
      })),
      arbiterId: ctx.block.arbiterId,
      arbiterName: names.get(arbiter) ?? '',
      rubric: ctx.block.rubric,
      rubricItems: ctx.rubricItems,
      comments: ctx.block.comments,
      progress: this.progress(ctx, items, expected),
      teachers: teacherIds.map((userId) => ({
        userId,
        name: ctx.markerNames.get(userId) ?? markNames.get(userId) ?? '',
        marks: items.filter((i) => i.marks.some((m) => m.userId === userId)).length,
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

  protected async expectedOf(hw: Homework): Promise<number> {
    const classes = await this.repo.homeworkClasses(hw.id);
    return classes.reduce((s, c) => s + c.students, 0);
  }

  /** Whether the caller takes part in a block (marker or arbiter) or oversees it. */
  protected involved(auth: AuthContext, ctx: BlockCtx): boolean {
    return (
      isOverseer(ctx.hw, auth) || ctx.markers.has(auth.userId) || arbiterOf(ctx.block, ctx.hw) === auth.userId
    );
  }

  /** Writes an item's verdict into results: final scores, or none while it waits (a revision may undo a final). */
  protected async applyVerdict(
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
}

export function givenMark(m: Mark): GivenMark {
  return {
    userId: m.userId,
    kind: m.kind,
    scores: m.scores,
    totalTenths: m.totalTenths,
    createdAt: m.createdAt,
  };
}
