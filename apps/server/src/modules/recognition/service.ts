import {
  compareClassNames,
  RECOGNITION_MESSAGES,
  RECOGNITION_PROBLEM_MESSAGES,
  buildPath,
  calls,
  type AnswerKey,
  type ExceptionAction,
  type PageRecognition,
  type ReadQuestion,
  type RecognitionException,
  type RecognitionExceptionCode,
  type RecognitionTally,
  type ResolveException,
  type ReviewSheet,
  type SheetReview,
  type UpdateAnswerKey,
} from '@zhzy/contracts';
import { overlayOf } from '@zhzy/answer-card/recognise';
import { isUniqueViolation } from '../../db/dialect.js';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId, nowIso } from '../../lib/ids.js';
import type { CardLayoutResolver, FrozenCard } from '../homework/service.js';
import type { HomeworkRow } from '../homework/repository.js';
import { type AnswerPatch, type ResultsService, type SheetRow } from '../results/service.js';
import { assertCanUseBatch } from '../scan/policy.js';
import type { ScanBatchRow, ScanPageRow } from '../scan/repository.js';
import type { PageStorage } from '../scan/storage.js';
import { WorkerCrashError, WorkerMemoryError, type CardHint, type RecognitionPool } from './pool.js';
import type {
  NewException,
  RecognitionExceptionRow,
  RecognitionPageRow,
  RecognitionRepository,
} from './repository.js';
import {
  CROP_PATH,
  answerPatches,
  cropPath,
  emptyPageRow,
  homeworkQuestions,
  isBlankBack,
  parseCropPaths,
  parseQuestionIds,
  parseStoredReading,
  type HomeworkQuestion,
  type PageIdentity,
  type PageStudent,
  type StoredReading,
} from './reading.js';
import {
  DEFAULT_PARTIAL_RULE,
  isObjective,
  normaliseKey,
  scoreObjective,
  toPoints,
  type ObjectiveKind,
  type PartialRule,
} from '../results/scoring.js';

/** The job every stored scan page enqueues. */
export const RECOGNISE_PAGE_JOB = 'recognise-page';

/** The fixes offered for each kind of exception, the usual one first. */
export const EXCEPTION_ACTIONS: Readonly<Record<RecognitionExceptionCode, readonly ExceptionAction[]>> = {
  imageUnreadable: ['rescanned', 'ignore'],
  anchorsNotFound: ['rescanned', 'ignore'],
  anchorsDistorted: ['accept', 'rescanned'],
  qrUnreadable: ['rescanned', 'ignore'],
  cardUnknown: ['ignore', 'rescanned'],
  studentNumberInvalid: ['assignStudent', 'ignore'],
  studentNumberMissing: ['assignStudent', 'ignore'],
  unknownStudent: ['assignStudent', 'ignore'],
  duplicateSheet: ['ignore', 'accept'],
  missingPage: ['rescanned', 'accept'],
  blankPage: ['accept', 'ignore'],
  multipleMarks: ['chooseMarks', 'accept'],
  uncertainMark: ['chooseMarks', 'accept'],
};

/** Problems that keep a page from being applied to a sheet at all. */
const PAGE_BLOCKERS = new Set<RecognitionExceptionCode>([
  'imageUnreadable',
  'anchorsNotFound',
  'qrUnreadable',
  'cardUnknown',
  'studentNumberInvalid',
  'studentNumberMissing',
]);

const REASON_RECOGNISED = '识别';
const REASON_CHOSEN = '异常处理：人工选择答案';
const REASON_ACCEPTED = '异常处理：确认识别结果';
const REASON_OVERRIDE = '复核改判';
const REASON_REKEY = '答案修改后重新评分';

const CONFIRM_BLOCKED = '请先处理这张答题卡的异常，再确认';

const tenthsToPoints = (t: number | null) => (t === null ? null : t / 10);

export interface RecognitionServiceDeps {
  repo: RecognitionRepository;
  results: ResultsService;
  storage: PageStorage;
  pool: RecognitionPool;
  findCard: CardLayoutResolver;
  findBatch: (id: string) => Promise<ScanBatchRow | undefined>;
  /**
   * Queues a page's recognition; a page of higher `priority` runs before waiting pages of lower priority (a school's
   * n-th waiting page gets -n, so schools take turns).
   */
  enqueue: (pageId: string, priority: number) => Promise<void>;
  clock: () => number;
}

export class RecognitionService {
  constructor(private readonly deps: RecognitionServiceDeps) {}

  private now(): string {
    return nowIso(this.deps.clock);
  }

  // ───────────── intake ─────────────

  /**
   * Makes a crop file exist when it is a crop of a recognised page not cut yet: cuts every crop of that page from
   * the page's file in a worker and stores them. True when `relative` was such a crop (and now exists). Concurrent
   * requests for one page's crops share one cut.
   */
  cropOnDemand(relative: string): Promise<boolean> {
    const scanId = CROP_PATH.exec(relative)?.[1];
    if (!scanId) return Promise.resolve(false);
    let cut = this.cutting.get(scanId);
    if (!cut) {
      cut = this.cutCrops(scanId).finally(() => this.cutting.delete(scanId));
      this.cutting.set(scanId, cut);
    }
    return cut.then((written) => written.includes(relative));
  }

  private readonly cutting = new Map<string, Promise<string[]>>();

  private async cutCrops(scanId: string): Promise<string[]> {
    const [scan, rec] = await Promise.all([
      this.deps.repo.findScanPage(scanId),
      this.deps.repo.findPage(scanId),
    ]);
    if (!scan || !rec?.result) return [];
    const result = parseStoredReading(rec.result);
    const paths = result.cropPaths ?? {};
    if (!result.crops.some((c) => paths[c.id])) return [];
    const images = await this.deps.pool.cutCrops(await this.deps.storage.read(scan.file_path), result);
    const written: string[] = [];
    for (const crop of result.crops) {
      const file = paths[crop.id];
      const bytes = images.get(crop.id);
      if (!file || !bytes) continue;
      await this.deps.storage.write(file, bytes);
      written.push(file);
    }
    return written;
  }

  /** A page was stored: remember it as queued and queue its recognition. */
  async pageStored(page: ScanPageRow, replaced?: ScanPageRow): Promise<void> {
    const now = this.now();
    const existing = await this.deps.repo.findPage(page.id);
    if (!existing) await this.deps.repo.upsertPage(emptyPageRow(page, now));
    // A rescan: the page it replaces is no longer the student's, and nothing raised about it is left to resolve (the
    // new page raises again whatever it still shows). Accepting the old page's problem would apply a page set aside.
    if (replaced) {
      const old = await this.deps.repo.findPage(replaced.id);
      if (old && old.status !== 'rescanned') {
        await this.deps.repo.updatePage(old.page_id, { status: 'rescanned', updated_at: now });
        await this.deps.repo.resolvePageExceptions(old.page_id, 'rescanned', page.created_by, now);
        if (old.sheet_id && old.status === 'done')
          await this.deps.results.setPagesReceived(
            old.sheet_id,
            await this.deps.repo.pagesOfSheet(old.sheet_id),
          );
      }
    }
    await this.enqueue(page.id, page.org_id);
  }

  /**
   * Fair share between schools: a page waits behind the pages its own school stored before it, never behind another
   * school's backlog (one school's thousand pages do not delay another school's first). Its rank is counted from
   * the stored rows, so pages uploaded at the same moment still get distinct places.
   */
  private async enqueue(pageId: string, orgId: string): Promise<void> {
    const row = await this.deps.repo.findPage(pageId);
    const ahead = row ? await this.deps.repo.queuedAhead(orgId, row) : 0;
    await this.deps.enqueue(pageId, -ahead);
  }

  /**
   * The job: reads one page in the worker pool and applies it. A page already read is left as it is (a queue may
   * deliver a job twice); `force` reads it again (the exceptions it raised are raised again, answers rewritten only
   * where they changed).
   */
  async recognise(pageId: string, options: { force?: boolean } = {}): Promise<void> {
    const scan = await this.deps.repo.findScanPage(pageId);
    if (!scan) return;
    const existing = await this.deps.repo.findPage(pageId);
    if (existing && existing.status !== 'queued' && !options.force) return;
    const now = this.now();
    const base = existing ?? emptyPageRow(scan, now);
    const attempts = base.attempts + 1;
    let out: { result: PageRecognition; images: Map<string, Buffer> };
    try {
      const bytes = await this.deps.storage.read(scan.file_path);
      out = await this.deps.pool.recognise(
        bytes,
        async (cardId, version) => {
          const card = await this.deps.findCard(cardId, version, scan.org_id);
          return card && !card.homeworkDeletedAt ? card.layout : undefined;
        },
        scan.dpi ?? undefined,
        await this.batchHint(scan.batch_id),
      );
    } catch (error) {
      // One bad page never stops a batch: it becomes an exception a teacher can see.
      const crashed = error instanceof WorkerCrashError;
      const reason =
        error instanceof WorkerMemoryError
          ? RECOGNITION_MESSAGES.workerOutOfMemory
          : crashed
            ? RECOGNITION_MESSAGES.workerCrashed
            : undefined;
      await this.deps.repo.transaction(async (repo) => {
        await repo.upsertPage({
          ...base,
          status: 'failed',
          outcome: 'failed',
          attempts,
          error: error instanceof Error ? error.message : String(error),
          updated_at: this.now(),
        });
        await repo.clearOpenExceptions(pageId);
        await repo.insertExceptions([this.exception(scan, base, 'imageUnreadable', reason)]);
      });
      return;
    }
    const { result, images } = out;
    // Crops of written answers belong in the page store beside the page. Workers read pages without crop images:
    // each crop's place is recorded now, and the images are cut from the page when first read (`cropOnDemand`).
    const cropPaths = new Map<string, string>();
    for (const crop of result.crops) {
      const file = cropPath(scan, crop);
      const bytes = images.get(crop.id);
      if (bytes) await this.deps.storage.write(file, bytes);
      cropPaths.set(crop.id, file);
    }
    // A page read again: crops cut from its earlier reading are cut again from this one.
    if (existing?.result) {
      const earlier = parseCropPaths(existing.result);
      const written = new Set(result.crops.filter((c) => images.has(c.id)).map((c) => cropPaths.get(c.id)));
      for (const file of Object.values(earlier)) if (!written.has(file)) await this.deps.storage.remove(file);
    }
    const row: RecognitionPageRow = {
      ...base,
      status: 'failed',
      outcome: result.status,
      card_id: result.identity?.cardId ?? null,
      card_version: result.identity?.version ?? null,
      page_no: result.identity?.page ?? null,
      identity_source: result.identity?.source ?? null,
      residual_mm: result.transform?.residualMm ?? null,
      total_ms: result.timings.total ?? null,
      result: JSON.stringify({ ...result, cropPaths: Object.fromEntries(cropPaths) }),
      attempts,
      error: null,
      updated_at: now,
    };
    await this.applyWithRetry(scan, row, null);
  }

  /**
   * Batches have no target homework: a page whose code cannot be read is tried as page 1 of the card every other
   * page of its batch read so far was taken for (only one card: a mixed batch gives no hint), and is identified by
   * its number bubbles. Otherwise it stays a `qrUnreadable` exception.
   */
  private async batchHint(batchId: string): Promise<CardHint | undefined> {
    const cards = await this.deps.repo.batchCards(batchId);
    if (cards.length !== 1) return undefined;
    return { cardId: cards[0]!.card_id, version: cards[0]!.card_version, page: 1 };
  }

  /** Two pages of one student may race to open the sheet: the loser tries once more and finds it. */
  private async applyWithRetry(scan: ScanPageRow, row: RecognitionPageRow, studentId: string | null) {
    try {
      await this.apply(scan, row, studentId);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await this.apply(scan, row, studentId);
    }
  }

  private exception(
    scan: Pick<ScanPageRow, 'id' | 'org_id' | 'batch_id'>,
    row: Pick<RecognitionPageRow, 'homework_id' | 'sheet_id' | 'student_id' | 'page_no'>,
    code: RecognitionExceptionCode,
    message?: string,
    questionIds: string[] = [],
  ): NewException {
    return {
      id: newId(),
      org_id: scan.org_id,
      batch_id: scan.batch_id,
      page_id: scan.id,
      homework_id: row.homework_id,
      sheet_id: row.sheet_id,
      student_id: row.student_id,
      page_no: row.page_no,
      code,
      message: message ?? RECOGNITION_PROBLEM_MESSAGES[code],
      question_ids: JSON.stringify(questionIds),
      created_at: this.now(),
    };
  }

  /**
   * Applies a read page: card → homework → student → sheet → answers and crops. What cannot be applied is held
   * (status failed) with its exceptions; `studentId` is a teacher's assignment.
   */
  private async apply(scan: ScanPageRow, input: RecognitionPageRow, studentId: string | null): Promise<void> {
    const reading = parseStoredReading(input.result!);
    const row: RecognitionPageRow = {
      ...input,
      homework_id: null,
      student_id: null,
      sheet_id: null,
      status: 'failed',
    };
    if (isBlankBack(scan, reading)) return this.setAside(scan, row);
    const raised: NewException[] = [];
    const found = await this.cardOfReading(scan, row, reading, studentId, raised);
    if (!found) return this.settlePage(scan, row, raised);
    const { card, identity } = found;
    const homework = (await this.deps.repo.findHomework(card.homeworkId))!;
    const student = await this.studentOfPage(scan, row, identity, homework, studentId, raised);
    if (!student) return this.settlePage(scan, row, raised);
    row.student_id = student.id;
    if (await this.isDuplicatePage(scan, row, homework, student, identity.page, raised))
      return this.settlePage(scan, row, raised);
    const sheet = await this.writeSheet(homework, card, student, reading);
    row.sheet_id = sheet.id;
    row.status = 'done';
    for (const p of reading.problems) {
      if (PAGE_BLOCKERS.has(p.code)) continue;
      raised.push(this.exception(scan, row, p.code, p.message, p.questionIds ?? []));
    }
    await this.settlePage(scan, row, raised);
    await this.deps.results.setPagesReceived(sheet.id, await this.deps.repo.pagesOfSheet(sheet.id));
    await this.applyFollower(scan, row);
  }

  /** Stores the page as it now stands and replaces its open exceptions with what it raised. */
  private async settlePage(
    scan: ScanPageRow,
    row: RecognitionPageRow,
    raised: NewException[],
  ): Promise<void> {
    await this.deps.repo.transaction(async (repo) => {
      await repo.upsertPage(row);
      await repo.clearOpenExceptions(scan.id);
      await repo.insertExceptions(raised);
    });
  }

  /** A page expected to be blank (see `isBlankBack`) is set aside without asking the teacher anything. */
  private async setAside(scan: ScanPageRow, row: RecognitionPageRow): Promise<void> {
    row.status = 'ignored';
    await this.deps.repo.transaction(async (repo) => {
      await repo.upsertPage(row);
      await repo.clearOpenExceptions(scan.id);
    });
  }

  /**
   * The card of a reading when the page can be applied (its homework noted on `row`); null, with what to raise,
   * when the card is unknown, another school's or of a deleted homework ("another paper", whatever the recogniser
   * could see), or when a page-level problem blocks the page and no teacher has named its student.
   */
  private async cardOfReading(
    scan: ScanPageRow,
    row: RecognitionPageRow,
    reading: StoredReading,
    studentId: string | null,
    raised: NewException[],
  ): Promise<{ card: FrozenCard; identity: PageIdentity } | null> {
    const id = reading.identity;
    const card = id ? await this.deps.findCard(id.cardId, id.version) : null;
    if (id && (!card || card.orgId !== scan.org_id || card.homeworkDeletedAt)) {
      const message = !card
        ? RECOGNITION_PROBLEM_MESSAGES.cardUnknown
        : card.orgId !== scan.org_id
          ? RECOGNITION_MESSAGES.otherSchool
          : RECOGNITION_MESSAGES.homeworkDeleted;
      raised.push(this.exception(scan, row, 'cardUnknown', message));
      return null;
    }
    if (card) row.homework_id = card.homeworkId;
    const blockers = reading.problems.filter((p) => PAGE_BLOCKERS.has(p.code) && p.level === 'page');
    if (!id || !card || (blockers.length > 0 && !studentId)) {
      for (const p of blockers.length ? blockers : reading.problems.filter((p) => p.level === 'page'))
        raised.push(this.exception(scan, row, p.code, p.message));
      if (raised.length === 0) raised.push(this.exception(scan, row, 'anchorsNotFound'));
      return null;
    }
    return { card, identity: id };
  }

  /** Who the page belongs to: the teacher's choice, the personalised QR, else the number bubbles (or sticker). */
  private async studentOfPage(
    scan: ScanPageRow,
    row: RecognitionPageRow,
    id: PageIdentity,
    homework: HomeworkRow,
    studentId: string | null,
    raised: NewException[],
  ): Promise<PageStudent | undefined> {
    if (studentId) return (await this.deps.repo.findHomeworkStudent(homework.id, { id: studentId }))[0];
    if (id.studentId) {
      const student = (await this.deps.repo.findHomeworkStudent(homework.id, { id: id.studentId }))[0];
      if (!student) raised.push(this.exception(scan, row, 'unknownStudent'));
      return student;
    }
    if (id.studentNumber) {
      const found = await this.deps.repo.findHomeworkStudent(homework.id, { studentNo: id.studentNumber });
      if (found.length === 1) return found[0];
      raised.push(
        this.exception(
          scan,
          row,
          'unknownStudent',
          `考号 ${id.studentNumber} 不在这份作业的学生名单中，请指定学生`,
        ),
      );
      return undefined;
    }
    const student = await this.studentOfPreviousPage(scan, row, id, homework);
    if (!student)
      raised.push(
        this.exception(
          scan,
          row,
          'studentNumberMissing',
          id.page > 1
            ? `无法确定这张第 ${id.page} 页答题卡属于哪位学生（前一页不是同一学生的第 ${id.page - 1} 页），请指定学生`
            : undefined,
        ),
      );
    return student;
  }

  /**
   * A later page of a card without a personalised code carries no student: it follows the page before it in the
   * feeder when that is the previous page of the same card.
   */
  private async studentOfPreviousPage(
    scan: ScanPageRow,
    row: RecognitionPageRow,
    id: PageIdentity,
    homework: HomeworkRow,
  ): Promise<PageStudent | undefined> {
    const before = await this.deps.repo.neighbour(scan.batch_id, scan.seq, 'before');
    if (
      id.page > 1 &&
      before?.status === 'done' &&
      before.card_id === id.cardId &&
      before.page_no === id.page - 1 &&
      before.student_id
    ) {
      const student = (await this.deps.repo.findHomeworkStudent(homework.id, { id: before.student_id }))[0];
      row.identity_source = 'sequence';
      return student;
    }
    return undefined;
  }

  /** True, with a `duplicateSheet` exception, when the student already has another page with this number. */
  private async isDuplicatePage(
    scan: ScanPageRow,
    row: RecognitionPageRow,
    homework: HomeworkRow,
    student: PageStudent,
    pageNo: number,
    raised: NewException[],
  ): Promise<boolean> {
    const twin = await this.deps.repo.findTwin(homework.id, student.id, pageNo, scan.id);
    if (!twin) return false;
    row.sheet_id = twin.sheet_id;
    raised.push(
      this.exception(
        scan,
        row,
        'duplicateSheet',
        `${student.name}已有一张第 ${pageNo} 页的答题卡，这一张是重复的（可能重复扫描或学生信息填错）`,
      ),
    );
    return true;
  }

  /** Opens the student's sheet and writes the page's answers and crops through the results spine. */
  private async writeSheet(
    homework: HomeworkRow,
    card: FrozenCard,
    student: PageStudent,
    reading: StoredReading,
  ): Promise<SheetRow> {
    const questions = homeworkQuestions(homework);
    const patches = answerPatches(
      reading,
      questions,
      await this.keysOf(homework, questions),
      await this.ruleOf(homework.id),
    );
    // Two transactions one after the other, never nested (SQLite has one connection).
    return this.deps.results.transaction(async (results) => {
      const opened = await results.openSheet({
        orgId: homework.org_id,
        homeworkId: homework.id,
        studentId: student.id,
        classId: student.class_id,
        cardId: card.cardId,
        cardVersion: card.version,
        pagesExpected: card.layout.pages.length,
        questions: questions.map((q) => ({
          questionId: q.questionId,
          kind: q.kind,
          fullScoreTenths: q.fullScoreTenths,
        })),
      });
      await results.writeAnswers(opened.id, patches, { userId: null, reason: REASON_RECOGNISED });
      return opened;
    });
  }

  /** The next page of the feeder may have waited for this one to know its student (workers run in parallel). */
  private async applyFollower(scan: ScanPageRow, row: RecognitionPageRow): Promise<void> {
    if (row.page_no === null || !row.student_id) return;
    const next = await this.deps.repo.neighbour(scan.batch_id, scan.seq, 'after');
    if (!next || next.status !== 'failed' || next.student_id || !next.result) return;
    if (next.card_id !== row.card_id || next.page_no !== row.page_no + 1) return;
    const open = await this.deps.repo.listPageExceptions(next.page_id);
    if (!open.some((e) => e.status === 'open' && e.code === 'studentNumberMissing')) return;
    const nextScan = await this.deps.repo.findScanPage(next.page_id);
    if (!nextScan) return;
    const { seq: _seq, ...nextRow } = next;
    await this.applyWithRetry(nextScan, nextRow, null);
  }

  private async keysOf(
    homework: HomeworkRow,
    questions: HomeworkQuestion[],
  ): Promise<Map<string, string | null>> {
    const overrides = new Map(
      (await this.deps.repo.answerKeys(homework.id)).map((k) => [k.question_id, k.answer]),
    );
    const out = new Map<string, string | null>();
    for (const q of questions) {
      if (!isObjective(q.kind)) continue;
      out.set(q.questionId, overrides.get(q.questionId) ?? normaliseKey(q.kind, q.answer));
    }
    return out;
  }

  private async ruleOf(homeworkId: string): Promise<PartialRule> {
    return (await this.deps.repo.scoringRule(homeworkId))?.partial_rule ?? DEFAULT_PARTIAL_RULE;
  }

  // ───────────── access ─────────────

  private async batchOf(auth: AuthContext, batchId: string): Promise<ScanBatchRow> {
    const batch = await this.deps.findBatch(batchId);
    assertCanUseBatch(auth, batch);
    return batch;
  }

  private async homeworkOf(auth: AuthContext, homeworkId: string, write = false): Promise<HomeworkRow> {
    const row = await this.deps.repo.findHomework(homeworkId);
    if (!row || row.deleted_at || row.org_id !== auth.orgId)
      throw notFound(RECOGNITION_MESSAGES.homeworkNotFound);
    if (
      write &&
      row.created_by !== auth.userId &&
      !auth.isAdministrator &&
      !auth.isCreator &&
      !auth.isGradeDirector
    )
      throw forbidden();
    return row;
  }

  private async sheetOf(auth: AuthContext, sheetId: string, write = false) {
    const sheet = await this.deps.results.findSheet(sheetId);
    if (!sheet || sheet.org_id !== auth.orgId) throw notFound(RECOGNITION_MESSAGES.sheetNotFound);
    const homework = await this.homeworkOf(auth, sheet.homework_id, write);
    return { sheet, homework };
  }

  // ───────────── exceptions ─────────────

  async listExceptions(
    auth: AuthContext,
    q: { batchId?: string | undefined; homeworkId?: string | undefined; status: 'open' | 'resolved' | 'all' },
  ): Promise<RecognitionException[]> {
    const orgId = requireSchool(auth);
    if (q.batchId) await this.batchOf(auth, q.batchId);
    else if (q.homeworkId) await this.homeworkOf(auth, q.homeworkId);
    else throw new AppError('VALIDATION', '请指定扫描批次或作业');
    const rows = await this.deps.repo.listExceptions(orgId, {
      ...(q.batchId ? { batchId: q.batchId } : {}),
      ...(q.homeworkId ? { homeworkId: q.homeworkId } : {}),
      ...(q.status !== 'all' ? { status: q.status } : {}),
    });
    return this.presentExceptions(rows);
  }

  private async presentExceptions(rows: RecognitionExceptionRow[]): Promise<RecognitionException[]> {
    const students = new Map(
      (
        await this.deps.repo.studentsByIds([
          ...new Set(rows.flatMap((r) => (r.student_id ? [r.student_id] : []))),
        ])
      ).map((s) => [s.id, s]),
    );
    const titles = new Map(
      (
        await this.deps.repo.homeworkTitles([
          ...new Set(rows.flatMap((r) => (r.homework_id ? [r.homework_id] : []))),
        ])
      ).map((h) => [h.id, h.title]),
    );
    const pageCache = new Map<string, { seq: number; result: PageRecognition | null }>();
    const out: RecognitionException[] = [];
    for (const r of rows) {
      let page: { seq: number; result: PageRecognition | null } | undefined;
      if (r.page_id) {
        page = pageCache.get(r.page_id);
        if (!page) {
          const scan = await this.deps.repo.findScanPage(r.page_id);
          const rec = await this.deps.repo.findPage(r.page_id);
          page = {
            seq: scan?.seq ?? 0,
            result: rec?.result ? parseStoredReading(rec.result) : null,
          };
          pageCache.set(r.page_id, page);
        }
      }
      const questionIds = parseQuestionIds(r.question_ids);
      const questions: ReadQuestion[] = [];
      for (const qid of questionIds) {
        const m = page?.result?.marks.find((x) => x.questionId === qid);
        if (!m) continue;
        questions.push({
          questionId: qid,
          number: m.number,
          kind: m.kind,
          options: m.bubbles.map((b) => b.option),
          chosen: m.chosen,
          status: m.status,
          confidence: m.confidence,
        });
      }
      const code = r.code as RecognitionExceptionCode;
      out.push({
        id: r.id,
        batchId: r.batch_id,
        pageId: r.page_id,
        pageSeq: page ? page.seq : null,
        pageNo: r.page_no,
        homeworkId: r.homework_id,
        homeworkTitle: r.homework_id ? (titles.get(r.homework_id) ?? null) : null,
        sheetId: r.sheet_id,
        studentId: r.student_id,
        studentName: r.student_id ? (students.get(r.student_id)?.name ?? null) : null,
        code,
        message: r.message,
        questionIds,
        questions,
        actions: [...EXCEPTION_ACTIONS[code]],
        imageUrl: r.page_id ? buildPath(calls.scanPageImage.path, { id: r.page_id }) : null,
        status: r.status === 'resolved' ? 'resolved' : 'open',
        resolution: (r.resolution as ExceptionAction | null) ?? null,
        createdAt: r.created_at,
      });
    }
    return out;
  }

  async resolve(auth: AuthContext, id: string, body: ResolveException): Promise<RecognitionException> {
    const ex = await this.deps.repo.findException(id);
    if (!ex || ex.org_id !== auth.orgId || ex.status !== 'open')
      throw notFound(RECOGNITION_MESSAGES.exceptionNotFound);
    await this.batchOf(auth, ex.batch_id);
    const code = ex.code as RecognitionExceptionCode;
    if (!EXCEPTION_ACTIONS[code].includes(body.action))
      throw new AppError('VALIDATION', RECOGNITION_MESSAGES.actionNotAllowed);
    const now = this.now();
    const page = ex.page_id ? await this.deps.repo.findPage(ex.page_id) : undefined;
    const scan = ex.page_id ? await this.deps.repo.findScanPage(ex.page_id) : undefined;
    switch (body.action) {
      case 'ignore':
      case 'rescanned': {
        if (page) {
          await this.deps.repo.updatePage(page.page_id, {
            status: body.action === 'ignore' ? 'ignored' : 'rescanned',
            updated_at: now,
          });
          await this.deps.repo.resolvePageExceptions(page.page_id, body.action, auth.userId, now);
          if (page.sheet_id && page.status === 'done')
            await this.deps.results.setPagesReceived(
              page.sheet_id,
              await this.deps.repo.pagesOfSheet(page.sheet_id),
            );
        }
        await this.deps.repo.resolveException(ex.id, body.action, auth.userId, now);
        break;
      }
      case 'assignStudent': {
        if (!body.studentId) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.needStudent);
        if (!page || !scan || !page.result) throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
        const result = parseStoredReading(page.result);
        const card = result.identity
          ? await this.deps.findCard(result.identity.cardId, result.identity.version, ex.org_id)
          : null;
        if (!card) throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
        const student = (
          await this.deps.repo.findHomeworkStudent(card.homeworkId, { id: body.studentId })
        )[0];
        if (!student) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.studentNotInHomework);
        if (
          result.identity &&
          (await this.deps.repo.findTwin(card.homeworkId, student.id, result.identity.page, page.page_id))
        )
          throw new AppError('CONFLICT', RECOGNITION_MESSAGES.studentAlreadyHasSheet);
        // Resolved first: applying the page again replaces its open exceptions with what it raises now.
        await this.deps.repo.resolveException(ex.id, body.action, auth.userId, now);
        for (const other of await this.deps.repo.listPageExceptions(page.page_id))
          if (
            other.status === 'open' &&
            EXCEPTION_ACTIONS[other.code as RecognitionExceptionCode].includes('assignStudent')
          )
            await this.deps.repo.resolveException(other.id, body.action, auth.userId, now);
        await this.applyWithRetry(scan, { ...page, identity_source: 'teacher', updated_at: now }, student.id);
        break;
      }
      case 'chooseMarks':
      case 'accept': {
        if (code === 'duplicateSheet') {
          // Keep this page: the earlier one is set aside and this one applied in its place.
          if (!page || !scan || !page.homework_id || !page.student_id || page.page_no === null)
            throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
          const twin = await this.deps.repo.findTwin(
            page.homework_id,
            page.student_id,
            page.page_no,
            page.page_id,
          );
          if (twin) {
            await this.deps.repo.updatePage(twin.page_id, { status: 'ignored', updated_at: now });
            await this.deps.repo.resolvePageExceptions(twin.page_id, 'ignore', auth.userId, now);
          }
          await this.deps.repo.resolveException(ex.id, body.action, auth.userId, now);
          await this.applyWithRetry(scan, page, page.student_id);
          break;
        }
        if (code === 'multipleMarks' || code === 'uncertainMark') {
          await this.chooseMarks(
            auth,
            ex,
            page,
            body.action === 'chooseMarks' ? (body.answers ?? null) : null,
          );
        }
        await this.deps.repo.resolveException(ex.id, body.action, auth.userId, now);
        break;
      }
    }
    const [done] = await this.presentExceptions([(await this.deps.repo.findException(ex.id))!]);
    return done!;
  }

  /** Writes the teacher's choice (or, accepting, what was read) for the questions of an exception. */
  private async chooseMarks(
    auth: AuthContext,
    ex: RecognitionExceptionRow,
    page: RecognitionPageRow | undefined,
    answers: Record<string, string> | null,
  ): Promise<void> {
    if (!ex.sheet_id || !page?.result) throw new AppError('CONFLICT', RECOGNITION_MESSAGES.pageNotRead);
    const result = parseStoredReading(page.result);
    const ids = parseQuestionIds(ex.question_ids);
    const homework = (await this.deps.repo.findHomework(ex.homework_id!))!;
    const questions = new Map(homeworkQuestions(homework).map((q) => [q.questionId, q]));
    const patches: { questionId: string; response: string }[] = [];
    for (const qid of ids) {
      const read = result.marks.find((m) => m.questionId === qid);
      const chosen = answers ? answers[qid] : read?.chosen;
      if (chosen === undefined) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.needAnswers);
      patches.push({ questionId: qid, response: chosen });
      if (!questions.has(qid)) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.questionNotInHomework);
    }
    await this.writeResponses(
      auth,
      ex.sheet_id,
      homework,
      patches,
      answers ? REASON_CHOSEN : REASON_ACCEPTED,
      answers ? 'override' : 'auto',
    );
  }

  /** Validates and writes chosen options with their score from the key (every change recorded). */
  private async writeResponses(
    auth: AuthContext,
    sheetId: string,
    homework: HomeworkRow,
    answers: { questionId: string; response: string }[],
    reason: string,
    source: 'override' | 'auto',
  ): Promise<void> {
    const questions = homeworkQuestions(homework);
    const byId = new Map(questions.map((q) => [q.questionId, q]));
    const keys = await this.keysOf(homework, questions);
    const rule = await this.ruleOf(homework.id);
    const patches: AnswerPatch[] = [];
    for (const a of answers) {
      const q = byId.get(a.questionId);
      if (!q) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.questionNotInHomework);
      if (!isObjective(q.kind)) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.notObjective);
      const picked = [...new Set(a.response.toUpperCase())].sort().join('');
      const order = (o: string) => q.options.indexOf(o);
      const response = [...picked].sort((x, y) => order(x) - order(y)).join('');
      if ([...response].some((o) => !q.options.includes(o)))
        throw new AppError('VALIDATION', `第${q.number}题：${RECOGNITION_MESSAGES.badOption}`);
      // Several options on a single choice or true/false: a teacher choosing picks one; a teacher accepting what was
      // read confirms the student marked them all, which scores nothing.
      const several = q.kind !== 'multiple' && response.length > 1;
      if (several && source === 'override')
        throw new AppError('VALIDATION', `第${q.number}题：${RECOGNITION_MESSAGES.singleNeedsOne}`);
      patches.push({
        questionId: q.questionId,
        response,
        responseStatus: response === '' ? 'blank' : several ? 'multiple' : 'ok',
        scoreTenths: several
          ? 0
          : scoreObjective(q.kind, keys.get(q.questionId) ?? null, response, q.fullScoreTenths, rule),
        source,
      });
    }
    await this.deps.results.transaction((results) =>
      results.writeAnswers(sheetId, patches, { userId: auth.userId, reason }),
    );
  }

  // ───────────── batch tally and check ─────────────

  async tally(auth: AuthContext, batchId: string): Promise<RecognitionTally> {
    const batch = await this.batchOf(auth, batchId);
    const pages = await this.deps.repo.listBatchPages(batch.id);
    const open = await this.deps.repo.listExceptions(batch.org_id, { batchId: batch.id, status: 'open' });
    const openByPage = new Map<string, number>();
    for (const e of open) if (e.page_id) openByPage.set(e.page_id, (openByPage.get(e.page_id) ?? 0) + 1);
    const homeworkIds = [
      ...new Set(pages.flatMap((p) => (p.homework_id && p.status === 'done' ? [p.homework_id] : []))),
    ];
    const sheetIds = new Set(pages.flatMap((p) => (p.sheet_id && p.status === 'done' ? [p.sheet_id] : [])));
    const homework: RecognitionTally['homework'] = [];
    for (const hid of homeworkIds) {
      const row = await this.deps.repo.findHomework(hid);
      if (!row || row.deleted_at) continue;
      const students = await this.deps.repo.homeworkStudents(hid);
      const sheets = await this.deps.results.listSheets(hid);
      const have = new Set(sheets.map((s) => s.student_id));
      homework.push({
        id: hid,
        title: row.title,
        students: students.length,
        sheetsRead: sheets.length,
        missing: students
          .filter((s) => !have.has(s.id))
          .map((s) => ({ id: s.id, name: s.name, studentNo: s.student_no, className: s.class_name })),
      });
    }
    return {
      batchId: batch.id,
      pagesReceived: pages.length,
      pagesRead: pages.filter((p) => p.status !== null && p.status !== 'queued').length,
      pagesQueued: pages.filter((p) => p.status === null || p.status === 'queued').length,
      sheetsRead: sheetIds.size,
      exceptionsOpen: open.length,
      homework,
      pages: pages.slice(0, 200).map((p) => ({
        pageId: p.id,
        seq: p.seq,
        status: p.status ?? 'queued',
        studentName: p.student_name ?? null,
        homeworkTitle: p.homework_title ?? null,
        pageNo: p.page_no ?? null,
        objectiveScore: p.status === 'done' ? tenthsToPoints(p.objective_score_tenths ?? null) : null,
        openExceptions: openByPage.get(p.id) ?? 0,
      })),
    };
  }

  /** When scanning ends: every student of the batch's homework with some pages but not all gets a missing page. */
  async check(auth: AuthContext, batchId: string): Promise<RecognitionTally> {
    const batch = await this.batchOf(auth, batchId);
    const pages = await this.deps.repo.listBatchPages(batch.id);
    const sheetIds = [
      ...new Set(pages.flatMap((p) => (p.sheet_id && p.status === 'done' ? [p.sheet_id] : []))),
    ];
    const raised: NewException[] = [];
    for (const sid of sheetIds) {
      const sheet = await this.deps.results.findSheet(sid);
      if (!sheet || sheet.pages_received >= sheet.pages_expected) continue;
      const have = new Set((await this.deps.repo.sheetPages(sid)).map((p) => p.page_no));
      for (let n = 1; n <= sheet.pages_expected; n++) {
        if (have.has(n) || (await this.deps.repo.openMissingPage(sid, n))) continue;
        const student = (await this.deps.repo.studentsByIds([sheet.student_id]))[0];
        raised.push({
          id: newId(),
          org_id: batch.org_id,
          batch_id: batch.id,
          page_id: null,
          homework_id: sheet.homework_id,
          sheet_id: sheet.id,
          student_id: sheet.student_id,
          page_no: n,
          code: 'missingPage',
          message: `${student?.name ?? '该学生'}的答题卡缺少第 ${n} 页，请检查是否漏扫`,
          question_ids: '[]',
          created_at: this.now(),
        });
      }
    }
    await this.deps.repo.insertExceptions(raised);
    return this.tally(auth, batchId);
  }

  // ───────────── review ─────────────

  private async presentSheets(sheets: SheetRow[]): Promise<ReviewSheet[]> {
    const students = new Map(
      (await this.deps.repo.studentsByIds(sheets.map((s) => s.student_id))).map((s) => [s.id, s]),
    );
    const open = await this.deps.repo.countOpen({ sheetIds: sheets.map((s) => s.id) });
    return sheets.map((s) => {
      const st = students.get(s.student_id);
      return {
        id: s.id,
        homeworkId: s.homework_id,
        studentId: s.student_id,
        studentName: st?.name ?? '',
        studentNo: st?.student_no ?? '',
        className: st?.class_name ?? '',
        pagesReceived: s.pages_received,
        pagesExpected: s.pages_expected,
        reviewStatus: s.review_status === 'confirmed' ? 'confirmed' : 'pending',
        objectiveScore: toPoints(s.objective_score_tenths),
        totalScore: toPoints(s.total_score_tenths),
        openExceptions: open.get(s.id) ?? 0,
      };
    });
  }

  async reviewSheets(auth: AuthContext, homeworkId: string): Promise<ReviewSheet[]> {
    const homework = await this.homeworkOf(auth, homeworkId);
    const sheets = await this.deps.results.listSheets(homework.id);
    const list = await this.presentSheets(sheets);
    return list.sort(
      (a, b) => compareClassNames(a.className, b.className) || a.studentNo.localeCompare(b.studentNo),
    );
  }

  async reviewSheet(auth: AuthContext, sheetId: string): Promise<SheetReview> {
    const { sheet, homework } = await this.sheetOf(auth, sheetId);
    const questions = homeworkQuestions(homework);
    const keys = await this.keysOf(homework, questions);
    const answers = new Map((await this.deps.results.listAnswers(sheet.id)).map((a) => [a.question_id, a]));
    const pages: SheetReview['pages'] = [];
    for (const p of await this.deps.repo.sheetPages(sheet.id)) {
      const result = p.result ? parseStoredReading(p.result) : null;
      const card =
        p.card_id && p.card_version
          ? await this.deps.findCard(p.card_id, p.card_version, sheet.org_id)
          : null;
      pages.push({
        pageId: p.page_id,
        pageNo: p.page_no ?? 1,
        imageUrl: buildPath(calls.scanPageImage.path, { id: p.page_id }),
        width: p.width,
        height: p.height,
        overlay:
          result && card
            ? overlayOf(result, card.layout)
                .filter((s) => s.kind !== 'anchor')
                .map((s) => ({
                  kind: s.kind,
                  quad: s.quad.map((pt) => ({
                    x: Math.round(pt.x * 10) / 10,
                    y: Math.round(pt.y * 10) / 10,
                  })),
                  ...(s.questionId !== undefined ? { questionId: s.questionId } : {}),
                  ...(s.option !== undefined ? { option: s.option } : {}),
                  ...(s.digit !== undefined ? { digit: s.digit } : {}),
                  ...(s.state !== undefined ? { state: s.state } : {}),
                  ...(s.blank !== undefined ? { blank: s.blank } : {}),
                }))
            : [],
      });
    }
    const ordered = await this.reviewSheets(auth, homework.id);
    const at = ordered.findIndex((s) => s.id === sheet.id);
    const [present] = await this.presentSheets([sheet]);
    return {
      sheet: present!,
      answers: questions.map((q) => {
        const a = answers.get(q.questionId);
        return {
          questionId: q.questionId,
          number: q.number,
          kind: q.kind,
          options: q.options,
          response: a?.response ?? null,
          responseStatus: a?.response_status ?? null,
          key: keys.get(q.questionId) ?? null,
          score: tenthsToPoints(a?.score_tenths ?? null),
          fullScore: q.fullScoreTenths / 10,
          scoreSource: a?.score_source ?? null,
          blank: a?.blank === 1,
          hasCrop: Boolean(a?.crop_path),
        };
      }),
      pages,
      prevId: at > 0 ? ordered[at - 1]!.id : null,
      nextId: at >= 0 && at < ordered.length - 1 ? ordered[at + 1]!.id : null,
    };
  }

  async override(
    auth: AuthContext,
    sheetId: string,
    answers: { questionId: string; response: string }[],
  ): Promise<SheetReview> {
    const { sheet, homework } = await this.sheetOf(auth, sheetId, true);
    await this.writeResponses(auth, sheet.id, homework, answers, REASON_OVERRIDE, 'override');
    // An override answers the exceptions on those questions.
    const now = this.now();
    const changed = new Set(answers.map((a) => a.questionId));
    for (const ex of await this.deps.repo.listExceptions(sheet.org_id, {
      homeworkId: homework.id,
      status: 'open',
    })) {
      if (ex.sheet_id !== sheet.id) continue;
      const ids = parseQuestionIds(ex.question_ids);
      if (ids.length > 0 && ids.every((q) => changed.has(q)))
        await this.deps.repo.resolveException(ex.id, 'chooseMarks', auth.userId, now);
    }
    if (sheet.review_status === 'confirmed') await this.deps.results.setReviewStatus(sheet.id, 'pending');
    return this.reviewSheet(auth, sheet.id);
  }

  async confirm(auth: AuthContext, sheetId: string): Promise<ReviewSheet> {
    const { sheet } = await this.sheetOf(auth, sheetId, true);
    const open = await this.deps.repo.countOpen({ sheetIds: [sheet.id] });
    if ((open.get(sheet.id) ?? 0) > 0) throw new AppError('CONFLICT', CONFIRM_BLOCKED);
    await this.deps.results.setReviewStatus(sheet.id, 'confirmed');
    const [present] = await this.presentSheets([(await this.deps.results.findSheet(sheet.id))!]);
    return present!;
  }

  // ───────────── answer key ─────────────

  async answerKey(auth: AuthContext, homeworkId: string): Promise<AnswerKey> {
    const homework = await this.homeworkOf(auth, homeworkId);
    const questions = homeworkQuestions(homework).filter((q) => isObjective(q.kind));
    const keys = await this.keysOf(homework, questions);
    return {
      homeworkId: homework.id,
      partialRule: await this.ruleOf(homework.id),
      questions: questions.map((q) => ({
        questionId: q.questionId,
        number: q.number,
        kind: q.kind as ObjectiveKind,
        options: q.options,
        key: keys.get(q.questionId) ?? null,
        fullScore: q.fullScoreTenths / 10,
      })),
    };
  }

  /** Changes keys and the partial rule, then re-scores every sheet already scored (each change recorded). */
  async updateAnswerKey(
    auth: AuthContext,
    homeworkId: string,
    body: UpdateAnswerKey,
  ): Promise<{ changed: number; sheets: number }> {
    const homework = await this.homeworkOf(auth, homeworkId, true);
    const questions = homeworkQuestions(homework);
    const byId = new Map(questions.map((q) => [q.questionId, q]));
    const now = this.now();
    const updates: { questionId: string; key: string }[] = [];
    for (const q of body.questions ?? []) {
      const hq = byId.get(q.questionId);
      if (!hq) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.questionNotInHomework);
      if (!isObjective(hq.kind)) throw new AppError('VALIDATION', RECOGNITION_MESSAGES.notObjective);
      const key = normaliseKey(hq.kind, q.answer);
      if (!key || [...key].some((o) => !hq.options.includes(o)))
        throw new AppError('VALIDATION', `第${hq.number}题：${RECOGNITION_MESSAGES.badKey}`);
      updates.push({ questionId: q.questionId, key });
    }
    for (const u of updates)
      await this.deps.repo.setAnswerKey({
        homework_id: homework.id,
        question_id: u.questionId,
        org_id: homework.org_id,
        answer: u.key,
        updated_by: auth.userId,
        updated_at: now,
      });
    if (body.partialRule)
      await this.deps.repo.setScoringRule({
        homework_id: homework.id,
        org_id: homework.org_id,
        partial_rule: body.partialRule,
        updated_by: auth.userId,
        updated_at: now,
      });
    const keys = await this.keysOf(homework, questions);
    const rule = await this.ruleOf(homework.id);
    let changed = 0;
    let sheets = 0;
    for (const sheet of await this.deps.results.listSheets(homework.id)) {
      const patches: AnswerPatch[] = [];
      for (const a of await this.deps.results.listAnswers(sheet.id)) {
        const q = byId.get(a.question_id);
        if (!q || !isObjective(q.kind) || a.response === null || a.score_tenths === null) continue;
        const score = scoreObjective(
          q.kind,
          keys.get(q.questionId) ?? null,
          a.response,
          q.fullScoreTenths,
          rule,
        );
        if (score !== a.score_tenths)
          patches.push({ questionId: q.questionId, scoreTenths: score, source: a.score_source ?? 'auto' });
      }
      if (patches.length === 0) continue;
      sheets += 1;
      changed += await this.deps.results.transaction((r) =>
        r.writeAnswers(sheet.id, patches, { userId: auth.userId, reason: REASON_REKEY }),
      );
    }
    return { changed, sheets };
  }

  /** Pages left queued by a stop (the in-process queue forgets them): queued again at start. */
  async requeueUnfinished(): Promise<number> {
    const rows = await this.deps.repo.queuedPages();
    const ahead = new Map<string, number>();
    for (const r of rows) {
      const n = ahead.get(r.org_id) ?? 0;
      ahead.set(r.org_id, n + 1);
      await this.deps.enqueue(r.page_id, -n);
    }
    return rows.length;
  }
}
