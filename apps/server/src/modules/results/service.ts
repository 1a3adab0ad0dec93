import type { Kysely } from 'kysely';
import type { AnswerKind, Database, ResponseStatus, ScoreSource } from '../../db/schema.js';
import { newId, nowIso } from '../../lib/ids.js';
import { packAnswers, readPack, type PackLayout, type PackableAnswer, type PackedSheet } from './packing.js';
import type { AnalysisSheet, AnswerChange, AnswerRead, Sheet, SheetAnswer } from './repository/records.js';
import { ResultsRepository } from './repository.js';
import { sheetTotals } from './scoring.js';
import { keepUp } from './upkeep.js';
import { bumpSheetVersion, readVersions } from './versions.js';

// The results spine (ADR 0051): a sheet per (homework, student) and an answer per question. This service is the only
// writer of answers, scores, the change log, packs and results versions — recognition, the teacher's review, marking
// and seeding all write through it — so totals, packs and versions can never drift from the answers. Analysis reads
// results through it too. Callers scope by school before calling; every method trusts the ids it is given.

export type { AnalysisSheet, AnswerRead, ScoreChange, Sheet, SheetAnswer } from './repository/records.js';

/** What opening a sheet takes: whose it is, its card and pages, and the paper's questions. */
export interface OpenSheet extends Pick<
  Sheet,
  'orgId' | 'homeworkId' | 'studentId' | 'classId' | 'cardId' | 'cardVersion' | 'pagesExpected'
> {
  /** Every question of the homework's paper, in paper order. */
  questions: readonly { questionId: string; kind: AnswerKind; fullScoreTenths: number }[];
}

/** What one writer changes of one answer; fields left out stay as they are. */
export interface AnswerPatch {
  questionId: string;
  response?: string | null;
  responseStatus?: ResponseStatus | null;
  cropPath?: string | null;
  blank?: boolean;
  /** Null clears the score (the answer waits for a marker again). */
  scoreTenths?: number | null;
  /** Required whenever scoreTenths is given. */
  source?: ScoreSource;
}

/** Who writes and why: recorded with every change of a response or a score. */
export interface ResultsActor {
  userId: string | null;
  reason: string;
}

/** One homework's sheets as analysis reads them: answers packed where the pack fits the paper, rows elsewhere. */
export interface SheetsWithAnswers {
  sheets: AnalysisSheet[];
  /** Packs of the paper's questions (key and length checked), by sheet id. */
  packed: Map<string, PackedSheet>;
  /** Answers of the sheets without a usable pack. */
  answers: AnswerRead[];
}

type Db = Kysely<Database>;

/** Sheets per query when many are read or packed at once. */
const CHUNK = 500;

export class ResultsService {
  private readonly repo: ResultsRepository;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {
    this.repo = new ResultsRepository(db);
  }

  /** Runs `fn` with a service bound to one transaction. */
  transaction<T>(fn: (results: ResultsService) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new ResultsService(trx, this.clock)));
  }

  // ───────────── reads ─────────────

  findSheet(sheetId: string) {
    return this.repo.findSheet(sheetId);
  }

  findSheetOf(homeworkId: string, studentId: string) {
    return this.repo.findSheetOf(homeworkId, studentId);
  }

  listSheets(homeworkId: string) {
    return this.repo.listSheets(homeworkId);
  }

  listAnswers(sheetId: string) {
    return this.repo.listAnswers(sheetId);
  }

  /** Every answer of a homework (analysis and marking read these). */
  listHomeworkAnswers(homeworkId: string, questionId?: string) {
    return this.repo.listHomeworkAnswers(homeworkId, questionId);
  }

  /** The change log of one answer, oldest first. */
  listChanges(sheetId: string, questionId: string) {
    return this.repo.listChanges(sheetId, questionId);
  }

  /** Current versions of some keys (results versions are homework ids); 0 for a key never written. */
  versions(keys: readonly string[]): Promise<Map<string, number>> {
    return readVersions(this.db, keys);
  }

  /**
   * Sheets of one homework (totals in tenths) with every answer; with `since`, only those written after that results
   * version (migration 0022, ADR 0030). Answers come from each sheet's pack (ADR 0033, ADR 0037): one row per sheet
   * to decode instead of one per answer, taken only when it is a pack of the paper's questions (`layout`); a sheet
   * without one (written before the migration) or with another's has its answer rows read.
   */
  async sheetsWithAnswers(
    homeworkId: string,
    layout: PackLayout,
    since?: number,
  ): Promise<SheetsWithAnswers> {
    const sheets = await this.repo.analysisSheets(homeworkId, since);
    const packed = new Map<string, PackedSheet>();
    const unpacked: string[] = [];
    for (const r of sheets) {
      const pack = readPack(r.answersPacked, layout);
      if (pack) packed.set(r.id, pack);
      else unpacked.push(r.id);
    }
    const answers: AnswerRead[] = [];
    for (let i = 0; i < unpacked.length; i += CHUNK)
      answers.push(...(await this.repo.answersOfSheets(unpacked.slice(i, i + CHUNK))));
    return { sheets, packed, answers };
  }

  // ───────────── writes ─────────────

  /**
   * The sheet of a student for a homework, with an answer row for every question; created on first call, returned
   * as it is afterwards (a second page of the same student lands on the same sheet).
   */
  async openSheet(input: OpenSheet): Promise<Sheet> {
    const existing = await this.repo.findSheetOf(input.homeworkId, input.studentId);
    if (existing) return existing;
    if (!this.db.isTransaction) return this.transaction((r) => r.openSheet(input));
    const now = nowIso(this.clock);
    const id = newId();
    await this.repo.insertSheet({
      id,
      orgId: input.orgId,
      homeworkId: input.homeworkId,
      studentId: input.studentId,
      classId: input.classId,
      cardId: input.cardId,
      cardVersion: input.cardVersion,
      pagesExpected: input.pagesExpected,
      unscoredCount: input.questions.length,
      answersPacked: packAnswers(
        input.questions.map((q) => ({
          questionId: q.questionId,
          scoreTenths: null,
          response: null,
          blank: false,
          cropPath: null,
        })),
      ),
      createdAt: now,
    });
    await this.repo.insertAnswers(
      input.questions.map((q) => ({
        sheetId: id,
        orgId: input.orgId,
        homeworkId: input.homeworkId,
        questionId: q.questionId,
        kind: q.kind,
        fullScoreTenths: q.fullScoreTenths,
        updatedAt: now,
      })),
    );
    await bumpSheetVersion(this.db, id);
    await keepUp(this.db, [id]);
    return (await this.repo.findSheet(id))!;
  }

  async setPagesReceived(sheetId: string, pages: number): Promise<void> {
    await this.repo.updateSheet(sheetId, { pagesReceived: pages, updatedAt: nowIso(this.clock) });
    await bumpSheetVersion(this.db, sheetId);
  }

  async setReviewStatus(sheetId: string, status: 'pending' | 'confirmed'): Promise<void> {
    await this.repo.updateSheet(sheetId, { reviewStatus: status, updatedAt: nowIso(this.clock) });
    await bumpSheetVersion(this.db, sheetId);
  }

  /**
   * Applies patches to answers of one sheet, records every change of a response or a score (who, why, before,
   * after) and recomputes the sheet's totals. Call inside `transaction` when several writers may race.
   * Returns the number of answers whose response or score changed.
   */
  async writeAnswers(sheetId: string, patches: readonly AnswerPatch[], actor: ResultsActor): Promise<number> {
    if (patches.length === 0) return 0;
    // The answers, totals, versions and the registered upkeep are written together or not at all.
    if (!this.db.isTransaction) return this.transaction((r) => r.writeAnswers(sheetId, patches, actor));
    const sheet = await this.repo.sheetScope(sheetId);
    if (!sheet) throw new Error(`sheet ${sheetId} not found`);
    const current = new Map((await this.repo.listAnswers(sheetId)).map((a) => [a.questionId, a]));
    const now = nowIso(this.clock);
    let changed = 0;
    for (const patch of patches) {
      const before = current.get(patch.questionId);
      if (!before) throw new Error(`question ${patch.questionId} is not on sheet ${sheetId}`);
      assertScore(patch, before);
      await this.repo.updateAnswer(sheetId, patch.questionId, answerSet(patch, actor, now));
      const responseChanged = patch.response !== undefined && patch.response !== before.response;
      const scoreChanged = patch.scoreTenths !== undefined && patch.scoreTenths !== before.scoreTenths;
      if (!responseChanged && !scoreChanged) continue;
      changed += 1;
      await this.repo.insertChange({
        id: newId(),
        orgId: sheet.orgId,
        homeworkId: sheet.homeworkId,
        sheetId,
        questionId: patch.questionId,
        userId: actor.userId,
        reason: actor.reason,
        beforeResponse: before.response,
        afterResponse: patch.response !== undefined ? patch.response : before.response,
        beforeScoreTenths: before.scoreTenths,
        afterScoreTenths: patch.scoreTenths !== undefined ? patch.scoreTenths : before.scoreTenths,
        createdAt: now,
      });
    }
    await this.recomputeTotals(sheetId);
    return changed;
  }

  /**
   * Objective, subjective and total scores, the unscored count and the packed answers (ADR 0033), from the answers
   * as they are now.
   */
  async recomputeTotals(sheetId: string): Promise<void> {
    const answers = await this.repo.listAnswers(sheetId);
    const totals = sheetTotals(answers);
    await this.repo.updateSheet(sheetId, {
      objectiveScoreTenths: totals.objectiveTenths,
      subjectiveScoreTenths: totals.subjectiveTenths,
      totalScoreTenths: totals.totalTenths,
      unscoredCount: totals.unscored,
      answersPacked: packAnswers(answers),
      updatedAt: nowIso(this.clock),
    });
    await bumpSheetVersion(this.db, sheetId);
    // What other modules keep in step with the answers (marking's item counters, ADR 0071), registered in upkeep.ts.
    await keepUp(this.db, [sheetId]);
  }

  /**
   * Packs some sheets anew from their answer rows: for bulk writers that insert answers set-based instead of through
   * `writeAnswers` (a generated district), so their sheets carry the pack `recomputeTotals` would write. Figures do
   * not change, so no version moves.
   */
  async repack(sheetIds: readonly string[]): Promise<void> {
    for (let i = 0; i < sheetIds.length; i += CHUNK) {
      const ids = sheetIds.slice(i, i + CHUNK);
      const answers = new Map<string, PackableAnswer[]>(ids.map((id) => [id, []]));
      for (const r of await this.repo.packableAnswers(ids)) answers.get(r.sheetId)!.push(r);
      await this.repo.setPacks(new Map(ids.map((id) => [id, packAnswers(answers.get(id)!)])));
    }
  }
}

/** A patch's score is whole tenths within the question's full score, and says where it comes from. */
function assertScore(patch: AnswerPatch, before: SheetAnswer): void {
  if (patch.scoreTenths === undefined || patch.scoreTenths === null) return;
  if (!Number.isInteger(patch.scoreTenths) || patch.scoreTenths < 0)
    throw new Error(`score ${patch.scoreTenths} is not a whole number of tenths`);
  if (patch.scoreTenths > before.fullScoreTenths)
    throw new Error(`score ${patch.scoreTenths} above full ${before.fullScoreTenths}`);
  if (!patch.source) throw new Error('a score needs its source');
}

/** What a patch changes of its answer. */
function answerSet(patch: AnswerPatch, actor: ResultsActor, now: string): AnswerChange {
  const { questionId: _question, source, ...fields } = patch;
  return {
    ...fields,
    ...(patch.scoreTenths !== undefined ? { scoreSource: patch.scoreTenths === null ? null : source! } : {}),
    updatedAt: now,
    updatedBy: actor.userId,
  };
}
