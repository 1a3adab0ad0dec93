import type { Kysely } from 'kysely';
import {
  HOMEWORK_MESSAGES,
  PAPER_MARKING_MESSAGES,
  RECOGNITION_MESSAGES,
  RECOGNITION_PROBLEM_MESSAGES,
  SCORE_DOUBT_MESSAGES,
  type PageRecognition,
  type PaperMarking,
  type PaperScore,
  type PaperScoreState,
  type RecognitionException,
  type ResolveException,
  type ResolvePaperScore,
  type ScoreReading,
} from '@zhzy/contracts';
import type { Database } from '../../db/schema.js';
import { PAPER_MARKING_TEXT } from '../../i18n/paper-marking.js';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { newId, nowIso } from '../../lib/ids.js';
import { assertReadable, canEditCard } from '../homework/policy.js';
import type { CardLayoutResolver } from '../homework/service.js';
import { parseStoredReading } from '../recognition/reading.js';
import { RecognitionRepository, type NewException } from '../recognition/repository.js';
import { ResultsService, type AnswerPatch } from '../results/service.js';
import type { PageStorage } from '../scan/storage.js';
import { scoreBoxesOf, stateOf } from './boxes.js';
import { cropUrlOf, present } from './presenter.js';
import {
  PaperMarkingRepository,
  SCORE_DOUBTFUL,
  type PaperMarkingHomework,
  type PaperScoreRecord,
} from './repository.js';

// 纸上批阅 (先阅后扫, ADR 0065). A homework whose card prints score boxes may be marked on paper: after a page of it is
// recognised and applied to its sheet, every score box the recogniser read is taken here —
//  - ok: the score goes into the results through the spine (source 'paper'), so the question's marking item is done
//    and no marking task is left for it;
//  - doubtful (faint, two ticks in a row, units missing, not red, over the full score, a 1-bit scan): no score, the
//    box waits for a person who types the score from the crop (or sends the question to on-screen marking);
//  - blank: marked on screen as before.
// A person's decision stands when the page is read again; a marker's score is never overwritten by a box.
// Every box keeps a crop of the answer with its box as the teacher marked them, for 讲评.
// A doubtful box is also a row of the scan exception queue (code `scoreDoubtful`): deciding it there or here
// resolves both. A box's score and its row are written in one transaction through the results spine.

type Db = Kysely<Database>;

/** Cuts the crops named in `result.crops` from a page file (the recognition pool's `cutCrops`). */
export type CutCrops = (bytes: Uint8Array, result: PageRecognition) => Promise<Map<string, Buffer>>;

export interface PaperMarkingDeps {
  db: Db;
  storage: PageStorage;
  findCard: CardLayoutResolver;
  cutCrops: CutCrops;
  clock: () => number;
}

/** Scores a box may write over: none yet, or one read from a box before. A marker's score stands. */
const OVERWRITABLE = new Set<string | null>([null, 'paper']);

export class PaperMarkingService {
  private readonly repo: PaperMarkingRepository;

  constructor(private readonly deps: PaperMarkingDeps) {
    this.repo = new PaperMarkingRepository(deps.db);
  }

  private now(): string {
    return nowIso(this.deps.clock);
  }

  /**
   * Runs `fn` with this module's repository, the results spine and recognition's repository (the scan exception
   * queue) bound to one transaction.
   */
  private inTransaction<T>(
    fn: (repo: PaperMarkingRepository, results: ResultsService, queue: RecognitionRepository) => Promise<T>,
  ) {
    return this.repo.transaction((repo, trx) =>
      fn(repo, new ResultsService(trx, this.deps.clock), new RecognitionRepository(trx)),
    );
  }

  // ───────────── the setting ─────────────

  /** The homework, when the caller's school's and not deleted. */
  private async homeworkOf(auth: AuthContext, id: string): Promise<PaperMarkingHomework> {
    return assertReadable(await this.repo.findHomework(id), auth);
  }

  private async boxesOfHomework(hw: PaperMarkingHomework) {
    const card = await this.deps.findCard(hw.cardId, hw.cardVersion, hw.orgId);
    return card ? scoreBoxesOf(card.layout) : new Map<string, never>();
  }

  async setting(auth: AuthContext, homeworkId: string): Promise<PaperMarking> {
    const hw = await this.homeworkOf(auth, homeworkId);
    const boxes = await this.boxesOfHomework(hw);
    return {
      homeworkId,
      enabled: hw.paperMarking && boxes.size > 0,
      questions: [...boxes.values()].map(({ page: _p, rect: _r, ...q }) => q),
    };
  }

  async setSetting(auth: AuthContext, homeworkId: string, enabled: boolean): Promise<PaperMarking> {
    const hw = await this.homeworkOf(auth, homeworkId);
    if (!canEditCard(hw, auth) && !auth.isAdministrator) throw forbidden(HOMEWORK_MESSAGES.notYours);
    if (enabled && (await this.boxesOfHomework(hw)).size === 0)
      throw new AppError('CONFLICT', PAPER_MARKING_MESSAGES.noScoreBoxes);
    await this.repo.setPaperMarking(homeworkId, enabled, this.now());
    return this.setting(auth, homeworkId);
  }

  // ───────────── a recognised page ─────────────

  /**
   * Takes the score boxes of a page recognised and applied to its sheet (a no-op for a page of a homework not
   * marked on paper, or without boxes): the scores into the results, the boxes' rows and the exceptions of the
   * doubtful ones, in one transaction. Returns what each box became, by question id.
   */
  async afterPage(pageId: string): Promise<Map<string, PaperScoreState>> {
    const page = await this.markedOnPaper(pageId);
    if (!page) return new Map();
    const scores = parseStoredReading(page.result).scores ?? [];
    if (scores.length === 0) return new Map();
    return this.inTransaction(async (repo, results, queue) => {
      const { out, read, cleared, rows, dropped } = await this.readingsOf(
        repo,
        results,
        page,
        pageId,
        scores,
      );
      if (read.length)
        await results.writeAnswers(page.sheetId, read, {
          userId: null,
          reason: PAPER_MARKING_TEXT.reasonRead,
        });
      if (cleared.length)
        await results.writeAnswers(page.sheetId, cleared, {
          userId: null,
          reason: PAPER_MARKING_TEXT.reasonCleared,
        });
      await repo.dropOpenExceptions(dropped);
      const raised: NewException[] = [];
      for (const { row, reading } of rows) {
        if (row.state !== 'doubtful') continue;
        row.exceptionId = newId();
        raised.push({
          id: row.exceptionId,
          orgId: page.orgId,
          batchId: page.batchId,
          pageId,
          homeworkId: page.homeworkId,
          sheetId: page.sheetId,
          studentId: page.studentId,
          pageNo: page.pageNo,
          code: SCORE_DOUBTFUL,
          message: PAPER_MARKING_TEXT.doubtfulBox(
            reading.number,
            reading.reason
              ? SCORE_DOUBT_MESSAGES[reading.reason]
              : RECOGNITION_PROBLEM_MESSAGES.scoreDoubtful,
          ),
          questionIds: [reading.questionId],
          createdAt: row.updatedAt,
        });
      }
      await queue.insertExceptions(raised);
      await repo.saveScores(rows.map((r) => r.row));
      return out;
    });
  }

  /**
   * A page set aside (忽略此页 / 已重新扫描, or the earlier twin of a duplicate kept in its place): what its boxes read is
   * no longer taken. A score read from one of its boxes leaves the results (unless a marker or a person wrote another
   * since) and every box no person decided waits for a person as doubtful (`pageSetAside`) in 纸上批阅 — never kept
   * silently. A page read again or rescanned replaces these rows with its own reading. Returns the rows set aside.
   */
  async pageSetAside(pageId: string): Promise<number> {
    const rows = await this.repo.undecidedOfPage(pageId);
    if (rows.length === 0) return 0;
    const now = this.now();
    await this.inTransaction(async (repo, results) => {
      for (const [sheetId, ofSheet] of groupBy(rows, (r) => r.sheetId)) {
        const answers = new Map((await results.listAnswers(sheetId)).map((a) => [a.questionId, a]));
        const cleared = ofSheet
          .filter((r) => {
            const a = answers.get(r.questionId);
            return r.state === 'scored' && a?.scoreSource === 'paper' && a.scoreTenths !== null;
          })
          .map((r) => ({ questionId: r.questionId, scoreTenths: null, source: 'paper' as const }));
        if (cleared.length)
          await results.writeAnswers(sheetId, cleared, {
            userId: null,
            reason: PAPER_MARKING_TEXT.reasonSetAside,
          });
      }
      await repo.setAside(
        rows.map((r) => r.id),
        'pageSetAside',
        now,
      );
    });
    return rows.length;
  }

  /** A recognised page applied to a sheet of a homework marked on paper, or null. */
  private async markedOnPaper(pageId: string) {
    const page = await this.repo.recognisedPage(pageId);
    if (
      !page ||
      page.status !== 'done' ||
      !page.sheetId ||
      !page.homeworkId ||
      !page.studentId ||
      !page.result ||
      !page.paperMarking ||
      page.homeworkDeleted
    )
      return null;
    return {
      sheetId: page.sheetId,
      homeworkId: page.homeworkId,
      studentId: page.studentId,
      orgId: page.orgId,
      batchId: page.batchId,
      pageNo: page.pageNo,
      result: page.result,
    };
  }

  /**
   * What each box of the page becomes: scores to write (read, or cleared when a box read before no longer reads),
   * the rows of `paper_scores` and the open exceptions they replace. A person's decision stands when the page is read
   * again; a marker's score is never overwritten.
   */
  private async readingsOf(
    repo: PaperMarkingRepository,
    results: ResultsService,
    page: NonNullable<Awaited<ReturnType<PaperMarkingService['markedOnPaper']>>>,
    pageId: string,
    scores: ScoreReading[],
  ) {
    const out = new Map<string, PaperScoreState>();
    const read: AnswerPatch[] = [];
    const cleared: AnswerPatch[] = [];
    const rows: { row: PaperScoreRecord; reading: ScoreReading }[] = [];
    const dropped: string[] = [];
    const answers = new Map((await results.listAnswers(page.sheetId)).map((a) => [a.questionId, a]));
    const earlier = new Map(
      (
        await repo.scoresOfSheet(
          page.sheetId,
          scores.map((s) => s.questionId),
        )
      ).map((r) => [r.questionId, r]),
    );
    const now = this.now();
    for (const s of scores) {
      const answer = answers.get(s.questionId);
      if (!answer) continue;
      const before = earlier.get(s.questionId);
      if (before && (before.state === 'resolved' || before.state === 'onScreen') && before.resolvedBy) {
        out.set(s.questionId, before.state);
        continue;
      }
      if (before?.exceptionId) dropped.push(before.exceptionId);
      const free = OVERWRITABLE.has(answer.scoreSource);
      const state = stateOf(s);
      const tenths = s.status === 'ok' && s.score !== null ? Math.round(s.score * 10) : null;
      if (free && tenths !== null && tenths <= answer.fullScoreTenths)
        read.push({ questionId: s.questionId, scoreTenths: tenths, source: 'paper' });
      else if (free && answer.scoreSource === 'paper' && answer.scoreTenths !== null && tenths === null)
        cleared.push({ questionId: s.questionId, scoreTenths: null, source: 'paper' });
      rows.push({
        reading: s,
        row: {
          id: before?.id ?? newId(),
          orgId: page.orgId,
          homeworkId: page.homeworkId,
          sheetId: page.sheetId,
          studentId: page.studentId,
          questionId: s.questionId,
          pageId,
          state,
          readTenths: tenths,
          reason: s.reason,
          colour: !!s.colour,
          cropPath: before?.pageId === pageId ? before.cropPath : null,
          exceptionId: null,
          resolvedBy: null,
          createdAt: before?.createdAt ?? now,
          updatedAt: now,
        },
      });
      out.set(s.questionId, state);
    }
    return { out, read, cleared, rows, dropped };
  }

  // ───────────── what a teacher sees and decides ─────────────

  async list(
    auth: AuthContext,
    homeworkId: string,
    query: { questionId?: string; state: 'doubtful' | 'all' },
  ): Promise<PaperScore[]> {
    const homework = await this.homeworkOf(auth, homeworkId);
    const rows = await this.repo.listScores(homeworkId, query);
    const order = new Map(
      homework.paper.sections
        .flatMap((s) => s.items)
        .map((item, i) => [item.questionId, { i, number: String(item.no) }]),
    );
    const rank = (s: string) => (s === 'doubtful' ? 0 : 1);
    rows.sort(
      (a, b) =>
        rank(a.state) - rank(b.state) ||
        (order.get(a.questionId)?.i ?? 0) - (order.get(b.questionId)?.i ?? 0) ||
        a.className.localeCompare(b.className) ||
        String(a.studentNo).localeCompare(String(b.studentNo)),
    );
    return rows.map((r) => present(r, order.get(r.questionId)?.number ?? ''));
  }

  private async scoreRow(auth: AuthContext, id: string) {
    const row = await this.repo.findScore(id);
    if (!row || row.orgId !== auth.orgId)
      throw new AppError('NOT_FOUND', PAPER_MARKING_MESSAGES.paperScoreNotFound);
    await this.homeworkOf(auth, row.homeworkId);
    return row;
  }

  /** A person decides a doubtful box (or corrects a decision): the score read by eye, or on-screen marking. */
  async resolve(auth: AuthContext, id: string, body: ResolvePaperScore): Promise<PaperScore> {
    const row = await this.scoreRow(auth, id);
    await this.decide(auth, row, body);
    const [presented] = (
      await this.list(auth, row.homeworkId, { questionId: row.questionId, state: 'all' })
    ).filter((p) => p.id === id);
    return presented!;
  }

  /**
   * The scan exception queue decides a doubtful box (`enterScore` with its score, or `markOnScreen`): the same
   * decision as in 纸上批阅. The caller has checked the exception is the school's and open.
   */
  async resolveException(auth: AuthContext, exceptionId: string, body: ResolveException): Promise<void> {
    const row = await this.repo.findScoreOfException(exceptionId);
    if (!row || row.orgId !== auth.orgId)
      throw new AppError('NOT_FOUND', RECOGNITION_MESSAGES.exceptionNotFound);
    if (body.action === 'enterScore') {
      if (body.score === undefined) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.needScore);
      await this.decide(auth, row, { action: 'enterScore', score: body.score });
    } else if (body.action === 'markOnScreen') await this.decide(auth, row, { action: 'markOnScreen' });
    else throw new AppError('VALIDATION', RECOGNITION_MESSAGES.actionNotAllowed);
  }

  /** What the exception queue shows of score exceptions: the box's question, full score and crop, by exception id. */
  async describeExceptions(
    exceptionIds: readonly string[],
  ): Promise<Map<string, Omit<NonNullable<RecognitionException['paperScore']>, 'number'>>> {
    const rows = await this.repo.scoresOfExceptions(exceptionIds);
    return new Map(
      rows.map((r) => [
        r.exceptionId,
        {
          id: r.id,
          fullScore: r.fullScoreTenths / 10,
          cropUrl: r.pageId ? cropUrlOf(r.id) : null,
        },
      ]),
    );
  }

  /** Writes a person's decision: the score (or its clearing), the box's state and its exception, in one go. */
  private async decide(auth: AuthContext, row: PaperScoreRecord, body: ResolvePaperScore): Promise<void> {
    const now = this.now();
    await this.inTransaction(async (repo, results, queue) => {
      const answer = (await results.listAnswers(row.sheetId)).find((a) => a.questionId === row.questionId);
      if (!answer) throw new AppError('NOT_FOUND', PAPER_MARKING_MESSAGES.paperScoreNotFound);
      const actor = (reason: string) => ({ userId: auth.userId, reason });
      if (body.action === 'enterScore') {
        const tenths = Math.round(body.score * 10);
        if (tenths > answer.fullScoreTenths)
          throw new AppError('VALIDATION', PAPER_MARKING_MESSAGES.scoreOverFull);
        await results.writeAnswers(
          row.sheetId,
          [{ questionId: row.questionId, scoreTenths: tenths, source: 'paper' }],
          actor(PAPER_MARKING_TEXT.reasonEntered),
        );
      } else if (answer.scoreSource === 'paper' && answer.scoreTenths !== null)
        await results.writeAnswers(
          row.sheetId,
          [{ questionId: row.questionId, scoreTenths: null, source: 'paper' }],
          actor(PAPER_MARKING_TEXT.reasonOnScreen),
        );
      await repo.setState(row.id, body.action === 'enterScore' ? 'resolved' : 'onScreen', auth.userId, now);
      if (row.exceptionId) await queue.resolveException(row.exceptionId, body.action, auth.userId, now);
    });
  }

  /**
   * The crop of the answer and its score box as the teacher marked them (JPEG), cut from the page file through the
   * recognised transform when first asked for and kept beside the page's other crops.
   */
  async crop(auth: AuthContext, id: string): Promise<{ bytes: Buffer; mime: string }> {
    const row = await this.scoreRow(auth, id);
    if (row.cropPath) {
      const kept = await this.deps.storage.readCrop(row.cropPath).catch(() => null);
      if (kept) return { bytes: kept, mime: 'image/jpeg' };
    }
    const missing = () => new AppError('NOT_FOUND', PAPER_MARKING_MESSAGES.paperScoreNotFound);
    if (!row.pageId) throw missing();
    const page = await this.repo.cropSource(row.pageId);
    if (!page?.result || !page.cardId || page.cardVersion === null) throw missing();
    const card = await this.deps.findCard(page.cardId, page.cardVersion, row.orgId);
    const box = card ? scoreBoxesOf(card.layout).get(row.questionId) : undefined;
    if (!box) throw missing();
    const result: PageRecognition = parseStoredReading(page.result);
    const id_ = `paper:${row.questionId}`;
    const images = await this.deps.cutCrops(await this.deps.storage.read(page.filePath), {
      ...result,
      crops: [
        {
          id: id_,
          elementId: id_,
          kind: 'written',
          questionIds: [row.questionId],
          rect: box.rect,
          width: Math.max(1, Math.round(box.rect.w * 8)),
          height: Math.max(1, Math.round(box.rect.h * 8)),
          format: 'jpeg',
          blank: false,
          coverage: 0,
        },
      ],
    });
    const bytes = images.get(id_);
    if (!bytes) throw missing();
    const file = `${page.filePath.replace(/\/[^/]+$/, '')}/crops/${row.pageId}/paper-${row.questionId}.jpg`;
    await this.deps.storage.write(file, bytes);
    await this.repo.setCropPath(id, file);
    return { bytes, mime: 'image/jpeg' };
  }
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) out.set(key(t), [...(out.get(key(t)) ?? []), t]);
  return out;
}
