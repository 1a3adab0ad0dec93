import { layoutCard } from '@zhzy/answer-card';
import type { CardStudent } from '@zhzy/answer-card/render';
import {
  HOMEWORK_MESSAGES,
  type CardLayout,
  type CardPaper,
  type CardPdfRequest,
  type CardSettings,
  type HomeworkCard,
  type HomeworkDetail,
  type HomeworkListQuery,
  type HomeworkPaper,
  type HomeworkSummary,
  type PaperCard,
  type PaperDocument,
  type PublishHomework,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId } from '../../lib/ids.js';
import type { PapersService } from '../papers/service.js';
import type { SystemRepository } from '../system/repository.js';
import { NO_SCANS_YET, type HomeworkProgress, type HomeworkProgressSource } from '../results/progress.js';
import { toTenths } from '../results/scoring.js';
import { cardFonts, safeFilename, type CardPdfJob } from './card-pdf.js';
import { cardPaperOf, defaultCardSettings, digitsFor, stableJson } from './card-paper.js';
import { frozenCardFinder, type CardLayoutResolver, type FrozenCard } from './frozen-cards.js';
import { assertPublishable, assertReadable, canDelete, canEditCard, publishRefusal } from './policy.js';
import type { AnswerCard, CardVersion, Homework, HomeworkListing, HomeworkRepository } from './repository.js';
import { homeworkCardOf, homeworkState, newCardVersion, summaryOf } from './summaries.js';
import { HOMEWORK_TEXT, SCHOOL_TEXT } from '../../i18n/messages.js';

// The homework service: a paper's card, publishing, the homework lists and a homework's frozen cards. Its parts:
// `summaries.ts` (what a caller reads), `frozen-cards.ts` (the recogniser's look-up), `recent.ts` (what smart
// composition avoids); their names are exported from here too.

export { NO_SCANS_YET, type HomeworkProgress, type HomeworkProgressSource } from '../results/progress.js';
export { cardLayoutResolver, type CardLayoutResolver, type FrozenCard } from './frozen-cards.js';
export { recentHomeworkQuestions } from './recent.js';
export { homeworkState } from './summaries.js';

/** What the card PDF route streams, and under which name. */
export interface CardPdfPlan {
  job: CardPdfJob;
  filename: string;
}

export class HomeworkService {
  private readonly frozen: CardLayoutResolver;

  constructor(
    private readonly repo: HomeworkRepository,
    private readonly papers: PapersService,
    private readonly system: SystemRepository,
    private readonly clock: () => number = Date.now,
    private readonly progress: HomeworkProgressSource = NO_SCANS_YET,
  ) {
    this.frozen = frozenCardFinder(repo);
  }

  private now() {
    return new Date(this.clock()).toISOString();
  }

  /** The caller's current school year: the one they chose in the top bar, else the school's default. */
  private async currentYear(auth: AuthContext): Promise<string | null> {
    return this.system.currentYearOf(requireSchool(auth), auth.userId);
  }

  /** A paper's card settings: as saved, else the defaults with a number grid as long as the school's numbers. */
  private async settingsOf(auth: AuthContext, card: AnswerCard | undefined): Promise<CardSettings> {
    if (card) return card.settings;
    const orgId = requireSchool(auth);
    const numbers = await this.repo.studentNumbersOf(orgId, await this.currentYear(auth));
    return defaultCardSettings(digitsFor(numbers));
  }

  /** The paper as the card sees it; a paper without questions has no card. */
  private cardPaper(doc: PaperDocument, title?: string): CardPaper {
    if (doc.questionCount === 0) throw new AppError('VALIDATION', HOMEWORK_MESSAGES.emptyPaper);
    return cardPaperOf(doc, title);
  }

  // ───────────── the card of a paper ─────────────

  private async paperCardOf(auth: AuthContext, doc: PaperDocument): Promise<PaperCard> {
    const card = await this.repo.findCard(doc.id);
    const settings = await this.settingsOf(auth, card);
    const paper = this.cardPaper(doc);
    const latestVersion = card?.latestVersion ?? 0;
    return {
      paperId: doc.id,
      cardId: doc.id,
      settings,
      saved: card?.saved === true,
      updatedAt: card?.saved ? card.updatedAt : null,
      latestVersion,
      editable: publishRefusal(doc) === null,
      paper,
      layout: layoutCard(paper, settings, { cardId: doc.id, version: latestVersion + 1 }),
    };
  }

  /** The designer's card of a paper the caller may read. */
  async paperCard(auth: AuthContext, paperId: string): Promise<PaperCard> {
    return this.paperCardOf(auth, await this.papers.detail(auth, paperId));
  }

  /** The layout with unsaved settings, as the next publication would freeze it. */
  async previewPaperCard(auth: AuthContext, paperId: string, settings: CardSettings): Promise<CardLayout> {
    const doc = await this.papers.detail(auth, paperId);
    const card = await this.repo.findCard(doc.id);
    return layoutCard(this.cardPaper(doc), settings, {
      cardId: doc.id,
      version: (card?.latestVersion ?? 0) + 1,
    });
  }

  async savePaperCard(auth: AuthContext, paperId: string, settings: CardSettings): Promise<PaperCard> {
    const orgId = requireSchool(auth);
    const doc = assertPublishable(await this.papers.detail(auth, paperId));
    this.cardPaper(doc);
    await this.repo.saveCardSettings({
      paperId: doc.id,
      orgId,
      settings,
      userId: auth.userId,
      now: this.now(),
    });
    return this.paperCardOf(auth, doc);
  }

  // ───────────── publishing ─────────────

  /** Checks the classes: in the caller's school (else 403) and in the current school year. */
  private async checkClasses(auth: AuthContext, classIds: string[], yearId: string) {
    const orgId = requireSchool(auth);
    const rows = await this.repo.classesByIds(classIds);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of classIds) {
      const row = byId.get(id);
      if (!row || row.orgId !== orgId) throw forbidden(HOMEWORK_MESSAGES.classNotInSchool);
      if (row.yearId !== yearId) throw new AppError('VALIDATION', HOMEWORK_MESSAGES.classNotInYear);
    }
  }

  /** Publishes a paper to classes, freezing a snapshot of the paper and the next version of its card. */
  async publish(auth: AuthContext, body: PublishHomework) {
    const orgId = requireSchool(auth);
    const doc = assertPublishable(await this.papers.detail(auth, body.paperId));
    const items = doc.sections.flatMap((s) => s.items);
    if (items.length === 0) throw new AppError('VALIDATION', HOMEWORK_MESSAGES.emptyPaper);
    const missing = items.find((i) => i.question === null);
    if (missing) throw new AppError('VALIDATION', HOMEWORK_MESSAGES.deletedQuestion(missing.no));
    const yearId = await this.currentYear(auth);
    if (!yearId) throw new AppError('VALIDATION', HOMEWORK_MESSAGES.noSchoolYear);
    await this.checkClasses(auth, body.classIds, yearId);

    const settings = await this.settingsOf(auth, await this.repo.findCard(doc.id));
    const cardPaper = this.cardPaper(doc, body.title);
    const snapshot: HomeworkPaper = {
      paperId: doc.id,
      paperVersion: doc.version,
      title: doc.title,
      subtitle: doc.subtitle,
      stageId: doc.stageId,
      stageName: doc.stageName,
      subjectId: doc.subjectId,
      subjectName: doc.subjectName,
      questionCount: doc.questionCount,
      totalScore: doc.totalScore,
      settings: doc.settings,
      sections: doc.sections,
    };
    const id = newId();
    const now = this.now();
    await this.repo.transaction(async (repo) => {
      await repo.ensureCard({
        paperId: doc.id,
        orgId,
        settings,
        userId: auth.userId,
        now,
      });
      const version = await repo.takeNextVersion(doc.id);
      const layout = layoutCard(cardPaper, settings, { cardId: doc.id, version });
      await repo.insertHomework(
        {
          id,
          orgId,
          yearId,
          type: body.type,
          title: body.title,
          paperId: doc.id,
          paperTitle: doc.title,
          stageId: doc.stageId,
          subjectId: doc.subjectId,
          startDate: body.startDate,
          dueDate: body.dueDate,
          subjectTeacher: body.subjectTeacher,
          questionCount: doc.questionCount,
          totalScoreTenths: toTenths(doc.totalScore),
          paper: snapshot,
          cardId: doc.id,
          cardVersion: version,
          createdBy: auth.userId,
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
        },
        body.classIds,
      );
      await repo.insertCardVersion(newCardVersion(orgId, id, auth.userId, now, settings, cardPaper, layout));
      await repo.countQuestionUse(doc.sections.flatMap((s) => s.items.map((i) => i.questionId)));
    });
    return this.detail(auth, id);
  }

  // ───────────── homework ─────────────

  private async summaries(
    auth: AuthContext,
    rows: HomeworkListing[],
    progress?: Map<string, HomeworkProgress>,
  ): Promise<HomeworkSummary[]> {
    const orgId = requireSchool(auth);
    const ids = rows.map((r) => r.id);
    const [classes, states] = await Promise.all([
      this.repo.classesOf(ids),
      progress ?? this.progress.progressOf(orgId, ids),
    ]);
    return rows.map((r) => summaryOf(auth, r, states.get(r.id), classes));
  }

  /** The school's homework of a school year (the caller's current one unless another is asked for). */
  async list(auth: AuthContext, q: HomeworkListQuery) {
    const orgId = requireSchool(auth);
    const yearId = q.schoolYearId ?? (await this.currentYear(auth)) ?? undefined;
    const filter = {
      orgId,
      yearId,
      classId: q.classId,
      subjectId: q.subjectId,
      type: q.type,
      from: q.from,
      to: q.to,
      createdBy: q.mine ? auth.userId : undefined,
    };
    const offset = (q.page - 1) * q.size;
    if (!q.state) {
      const { rows, total } = await this.repo.pageHomework(filter, { offset, limit: q.size });
      return { records: await this.summaries(auth, rows), total, page: q.page, size: q.size };
    }
    // States are computed, not stored: filter after computing them, then take the page.
    const rows = await this.repo.listHomework(filter);
    const progress = await this.progress.progressOf(
      orgId,
      rows.map((r) => r.id),
    );
    const matching = rows.filter((r) => homeworkState(progress.get(r.id)) === q.state);
    return {
      records: await this.summaries(auth, matching.slice(offset, offset + q.size), progress),
      total: matching.length,
      page: q.page,
      size: q.size,
    };
  }

  private async readable(auth: AuthContext, id: string): Promise<Homework> {
    requireSchool(auth);
    return assertReadable(await this.repo.findHomework(id), auth);
  }

  async detail(auth: AuthContext, id: string): Promise<HomeworkDetail> {
    const row = await this.readable(auth, id);
    const [summary] = await this.summaries(
      auth,
      await this.repo.listHomework({ orgId: row.orgId, ids: [row.id] }),
    );
    const paper = await this.repo.findPaperSnapshot(row.id);
    if (!summary || !paper) throw notFound(HOMEWORK_MESSAGES.notFound);
    return { ...summary, paper };
  }

  /** Soft delete: the homework leaves every list; its card versions stay for sheets already printed. */
  async remove(auth: AuthContext, id: string): Promise<void> {
    const row = await this.readable(auth, id);
    if (!canDelete(row, auth)) throw forbidden(HOMEWORK_MESSAGES.notYours);
    if (!(await this.repo.softDelete(row.id, this.now()))) throw notFound(HOMEWORK_MESSAGES.notFound);
  }

  // ───────────── the card of a homework ─────────────

  private async homeworkCardOf(row: Homework, version: CardVersion): Promise<HomeworkCard> {
    return homeworkCardOf(row, version, await this.repo.listCardVersions(row.id));
  }

  private async versionOf(row: Homework, version: number): Promise<CardVersion> {
    const found = await this.repo.findCardVersion(row.cardId, version);
    if (!found || found.homeworkId !== row.id) throw notFound(HOMEWORK_MESSAGES.versionNotFound);
    return found;
  }

  async card(auth: AuthContext, id: string, version?: number): Promise<HomeworkCard> {
    const row = await this.readable(auth, id);
    return this.homeworkCardOf(row, await this.versionOf(row, version ?? row.cardVersion));
  }

  /** A new card version for new settings (the paper stays as published); the same settings change nothing. */
  async editCard(auth: AuthContext, id: string, settings: CardSettings): Promise<HomeworkCard> {
    const row = await this.readable(auth, id);
    if (!canEditCard(row, auth)) throw forbidden(HOMEWORK_MESSAGES.notYours);
    const current = await this.versionOf(row, row.cardVersion);
    if (stableJson(current.settings) === stableJson(settings)) return this.homeworkCardOf(row, current);
    const paper = current.paper;
    const now = this.now();
    await this.repo.transaction(async (repo) => {
      const version = await repo.takeNextVersion(row.cardId);
      const layout = layoutCard(paper, settings, { cardId: row.cardId, version });
      await repo.insertCardVersion(
        newCardVersion(row.orgId, row.id, auth.userId, now, settings, paper, layout),
      );
      await repo.setCardVersion(row.id, version, now);
    });
    return this.card(auth, id);
  }

  /** What to print, checked: the current card version, and the students of the chosen classes in order. */
  async cardPdf(auth: AuthContext, id: string, request: CardPdfRequest): Promise<CardPdfPlan> {
    const row = await this.readable(auth, id);
    const { layout } = await this.versionOf(row, row.cardVersion);
    const title = safeFilename(row.title);
    if (request.kind === 'generic') {
      if (layout.identity === 'qr') throw new AppError('VALIDATION', HOMEWORK_MESSAGES.qrNeedsStudents);
      return { job: { layout, fonts: cardFonts() }, filename: HOMEWORK_TEXT.genericCardFile(title) };
    }
    const classes = await this.repo.classesOf([row.id]);
    const order = new Map(classes.map((c, i) => [c.classId, i]));
    const chosen = request.classIds ?? classes.map((c) => c.classId);
    if (chosen.length === 0 || chosen.some((c) => !order.has(c))) {
      throw new AppError('VALIDATION', HOMEWORK_MESSAGES.classNotInHomework);
    }
    const only = request.studentIds ? new Set(request.studentIds) : null;
    const rows = (await this.repo.studentsOfClasses([...new Set(chosen)]))
      .filter((s) => !only || only.has(s.id))
      .sort((a, b) => order.get(a.classId)! - order.get(b.classId)!);
    if (rows.length === 0) throw new AppError('VALIDATION', HOMEWORK_MESSAGES.noStudents);
    const students: CardStudent[] = rows.map((s) => ({
      id: s.id,
      name: s.name,
      number: s.studentNo,
      className: s.className,
    }));
    const names = classes.filter((c) => chosen.includes(c.classId)).map((c) => c.name);
    const who =
      names.length <= 3 ? names.join(SCHOOL_TEXT.listSeparator) : HOMEWORK_TEXT.classCount(names.length);
    return {
      job: { layout, students, fonts: cardFonts() },
      filename: HOMEWORK_TEXT.cardFile(title, safeFilename(who)),
    };
  }

  /**
   * The recogniser's look-up: exactly the (card id, version) of a page QR, any version ever frozen; null when unknown
   * or, given `orgId`, of another school. The caller decides what a deleted homework's sheet means.
   */
  findCardLayout(cardId: string, version: number, orgId?: string): Promise<FrozenCard | null> {
    return this.frozen(cardId, version, orgId);
  }
}
