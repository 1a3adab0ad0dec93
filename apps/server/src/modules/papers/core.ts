import {
  dayInZone,
  RECYCLE_BIN_DAYS,
  type PaperDocument,
  type PaperQuestion,
  type PaperSection,
  type PaperSettingDefaults,
  type PaperSettings,
  type PaperSummary,
  type SavePaper,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId } from '../../lib/ids.js';
import { type DocumentSandbox } from '../../lib/sandbox/pool.js';
import { PAPER_MESSAGES, assertEditable, assertReadable, isOwner, permissionsFor } from './policy.js';
import {
  STANDARD_SETTINGS,
  type BankQuestion,
  type Paper,
  type PaperItemRecord,
  type PaperSectionRecord,
  type PaperSource,
  type PapersRepository,
} from './repository.js';
import { toPoints, toTenths } from '../results/scoring.js';
import { PAPERS_TEXT as T } from '../../i18n/papers.js';

import {
  DAY_MS,
  NO_HOMEWORK_YET,
  contentHash,
  defaultScoreOf,
  draftOf,
  fmt,
  sectionNumeral,
  type Draft,
  type RecentHomeworkQuestions,
} from './draft.js';

// The paper's core: reading a paper as a document, checking and writing a draft, creating papers (blank or from
// the basket). The use cases extend it: compose.ts (smart composition), word.ts (Word import and export) and
// service.ts (editing, settings and the paper library), the class the routes construct.

export class PapersCore {
  constructor(
    protected readonly repo: PapersRepository,
    protected readonly clock: () => number = Date.now,
    protected readonly recentHomework: RecentHomeworkQuestions = NO_HOMEWORK_YET,
    /** Word import and export run here; a service built only to read papers has none. */
    protected readonly documents?: DocumentSandbox,
  ) {}

  protected sandbox(): DocumentSandbox {
    if (!this.documents) throw new Error('this PapersService was built without a document sandbox');
    return this.documents;
  }

  protected now() {
    return new Date(this.clock()).toISOString();
  }

  // ───────────── reading ─────────────

  protected async questionsFor(ids: string[]): Promise<Map<string, PaperQuestion>> {
    const rows = await this.repo.questionsByIds(ids);
    const kps = await this.repo.knowledgePointsOf(ids);
    const out = new Map<string, PaperQuestion>();
    for (const r of rows) out.set(r.id, this.toQuestion(r, kps));
    return out;
  }

  protected toQuestion(
    q: BankQuestion,
    kps: { questionId: string; id: string; name: string }[],
  ): PaperQuestion {
    return {
      id: q.id,
      typeId: q.typeId,
      typeName: q.typeName,
      difficulty: q.difficulty,
      stem: q.stem,
      options: q.options,
      answer: q.answer,
      analysis: q.analysis,
      owner: q.owner,
      knowledgePoints: kps.filter((k) => k.questionId === q.id).map((k) => ({ id: k.id, name: k.name })),
    };
  }

  protected async summaries(papers: Paper[], auth: AuthContext): Promise<PaperSummary[]> {
    const [totals, subjects, users] = await Promise.all([
      this.repo.totalsOf(papers.map((p) => p.id)),
      this.repo.catalog.subjectsByIds([...new Set(papers.map((p) => p.subjectId))]),
      this.repo.usersByIds([...new Set(papers.flatMap((p) => (p.ownerUserId ? [p.ownerUserId] : [])))]),
    ]);
    const subjectById = new Map(subjects.map((s) => [s.id, s]));
    const nameById = new Map(users.map((u) => [u.id, u.nickname]));
    const now = this.clock();
    return papers.map((p) => {
      const subject = subjectById.get(p.subjectId);
      const total = totals.get(p.id) ?? { count: 0, tenths: 0 };
      const purgeAt = p.deletedAt ? Date.parse(p.deletedAt) + RECYCLE_BIN_DAYS * DAY_MS : null;
      return {
        id: p.id,
        title: p.title,
        subtitle: p.subtitle,
        stageId: p.stageId,
        stageName: subject?.stageName ?? '',
        subjectId: p.subjectId,
        subjectName: subject?.name ?? '',
        textbookId: p.textbookId,
        status: p.status,
        source: p.source,
        version: p.version,
        questionCount: total.count,
        totalScore: toPoints(total.tenths),
        owner: p.owner,
        ownerName: p.owner === 'system' ? T.systemOwner : (nameById.get(p.ownerUserId ?? '') ?? ''),
        mine: isOwner(p, auth),
        shared: p.sharedAt !== null,
        isTemplate: p.isTemplate,
        createdAt: p.createdAt,
        updatedAt: p.updatedAt,
        deletedAt: p.deletedAt,
        purgeInDays: purgeAt === null ? null : Math.max(0, Math.ceil((purgeAt - now) / DAY_MS)),
        permissions: permissionsFor(p, auth),
      };
    });
  }

  protected async document(paper: Paper, auth: AuthContext): Promise<PaperDocument> {
    const [sections, items] = await Promise.all([
      this.repo.listSections(paper.id),
      this.repo.listItems(paper.id),
    ]);
    const questions = await this.questionsFor(items.map((i) => i.questionId));
    const settings = paper.settings;
    const [summary] = await this.summaries([paper], auth);
    let no = 0;
    const outSections: PaperSection[] = sections.map((s, index) => {
      if (settings.numbering === 'perSection') no = 0;
      const own = items.filter((i) => i.sectionId === s.id);
      const scores = own.map((i) => i.scoreTenths ?? s.defaultScoreTenths);
      const total = scores.reduce((a, b) => a + b, 0);
      const number = sectionNumeral(index);
      const title = s.title;
      const allSame = scores.every((x) => x === s.defaultScoreTenths);
      const detail =
        own.length === 0
          ? ''
          : allSame
            ? T.sectionNoteEach(own.length, fmt(toPoints(s.defaultScoreTenths)), fmt(toPoints(total)))
            : T.sectionNote(own.length, fmt(toPoints(total)));
      return {
        id: s.id,
        number,
        typeId: s.typeId,
        title,
        note: s.note,
        defaultScore: toPoints(s.defaultScoreTenths),
        heading: `${number}、${title}${detail}`,
        questionCount: own.length,
        totalScore: toPoints(total),
        items: own.map((i) => ({
          id: i.id,
          no: ++no,
          questionId: i.questionId,
          score: toPoints(i.scoreTenths ?? s.defaultScoreTenths),
          scoreOverride: i.scoreTenths === null ? null : toPoints(i.scoreTenths),
          question: questions.get(i.questionId) ?? null,
        })),
      };
    });
    return {
      ...summary!,
      basketPaperId: paper.basketPaperId,
      settings,
      sections: outSections,
    };
  }

  async detail(auth: AuthContext, id: string): Promise<PaperDocument> {
    return this.document(assertReadable(await this.repo.findPaper(id), auth), auth);
  }

  // ───────────── writing ─────────────

  /** Checks a draft against the paper's subject and the caller's visible questions. */
  protected async checkDraft(auth: AuthContext, paper: Paper, draft: Draft, existing: Set<string>) {
    const orgId = requireSchool(auth);
    const ids = draft.sections.flatMap((s) => s.items.map((i) => i.questionId));
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) throw new AppError('VALIDATION', T.duplicateQuestion);
      seen.add(id);
    }
    const fresh = ids.filter((id) => !existing.has(id));
    if (fresh.length > 0) {
      const visible = await this.repo.visibleQuestionIds(orgId, auth.userId, fresh);
      if (fresh.some((id) => !visible.has(id))) throw notFound(T.questionNotFound);
      const rows = await this.repo.questionsByIds(fresh);
      if (rows.some((r) => r.subjectId !== paper.subjectId)) {
        throw new AppError('VALIDATION', T.otherSubject);
      }
    }
    const typeIds = draft.sections.flatMap((s) => (s.typeId ? [s.typeId] : []));
    if (typeIds.length > 0) {
      const types = await this.repo.typesByIds([...new Set(typeIds)]);
      if (types.length !== new Set(typeIds).size || types.some((t) => t.subjectId !== paper.subjectId)) {
        throw new AppError('VALIDATION', T.sectionTypeOtherSubject);
      }
    }
  }

  protected contentOf(
    paperId: string,
    draft: Draft,
    oldSections: PaperSectionRecord[],
    oldItems: PaperItemRecord[],
  ) {
    const ownSectionIds = new Set(oldSections.map((s) => s.id));
    const itemIdByQuestion = new Map(oldItems.map((i) => [i.questionId, i.id]));
    const sections: PaperSectionRecord[] = [];
    const items: PaperItemRecord[] = [];
    const usedSectionIds = new Set<string>();
    draft.sections.forEach((s, si) => {
      const id = s.id && ownSectionIds.has(s.id) && !usedSectionIds.has(s.id) ? s.id : newId();
      usedSectionIds.add(id);
      sections.push({
        id,
        paperId,
        typeId: s.typeId,
        title: s.title,
        note: s.note,
        defaultScoreTenths: toTenths(s.defaultScore),
        sort: si + 1,
      });
      for (const item of s.items) {
        items.push({
          id: itemIdByQuestion.get(item.questionId) ?? newId(),
          paperId,
          sectionId: id,
          questionId: item.questionId,
          scoreTenths: item.score == null ? null : toTenths(item.score),
          sort: items.length + 1,
        });
      }
    });
    return { sections, items };
  }

  /**
   * Saves the whole document: the one write path of /edit and of every small edit call.
   * Same content as stored → nothing written (a retried save is answered, not refused);
   * stale version with other content → 409.
   */
  protected async write(
    auth: AuthContext,
    paper: Paper,
    version: number,
    draft: Draft,
    extra: Partial<Paper> = {},
  ): Promise<PaperDocument> {
    const hash = contentHash(draft);
    const extraChanges = Object.keys(extra).length > 0;
    if (hash === paper.contentHash && !extraChanges) return this.document(paper, auth);
    if (version !== paper.version) {
      if (hash === paper.contentHash) return this.document(paper, auth);
      throw new AppError('CONFLICT', PAPER_MESSAGES.stale, { data: { version: paper.version } });
    }
    const [oldSections, oldItems] = await Promise.all([
      this.repo.listSections(paper.id),
      this.repo.listItems(paper.id),
    ]);
    await this.checkDraft(auth, paper, draft, new Set(oldItems.map((i) => i.questionId)));
    const { sections, items } = this.contentOf(paper.id, draft, oldSections, oldItems);
    const saved = await this.repo.transaction(async (repo) => {
      const ok = await repo.updatePaperIfVersion(paper.id, version, {
        title: draft.title,
        subtitle: draft.subtitle,
        status: draft.status,
        version: version + 1,
        contentHash: hash,
        updatedAt: this.now(),
        ...extra,
      });
      if (!ok) return false;
      await repo.replaceContent(paper.id, sections, items);
      return true;
    });
    if (!saved) throw new AppError('CONFLICT', PAPER_MESSAGES.stale);
    return this.document((await this.repo.findPaper(paper.id))!, auth);
  }

  async save(auth: AuthContext, id: string, body: SavePaper): Promise<PaperDocument> {
    const paper = assertEditable(await this.repo.findPaper(id), auth);
    return this.write(auth, paper, body.version, body);
  }

  /** Creates a paper of the caller from a draft (questions already checked by the caller of this). */
  /** The teacher's own settings for new papers, or the standard ones. */
  async settingDefaults(auth: AuthContext): Promise<PaperSettingDefaults> {
    const settings = await this.repo.findSettingDefaults(auth.userId);
    return settings ? { settings, saved: true } : { settings: STANDARD_SETTINGS, saved: false };
  }

  protected async create(
    auth: AuthContext,
    p: {
      subjectId: string;
      textbookId: string | null;
      source: PaperSource;
      draft: Draft;
      basketPaperId?: string | null;
      basketSeen?: string[];
      settings?: PaperSettings;
    },
  ): Promise<Paper> {
    const orgId = requireSchool(auth);
    const subject = await this.repo.catalog.findSubject(p.subjectId);
    if (!subject) throw notFound(T.subjectNotFound);
    const now = this.now();
    const id = newId();
    const paper: Paper = {
      id,
      owner: 'personal',
      orgId,
      ownerUserId: auth.userId,
      title: p.draft.title,
      subtitle: p.draft.subtitle,
      stageId: subject.stageId,
      subjectId: subject.id,
      textbookId: p.textbookId,
      status: p.draft.status,
      source: p.source,
      basketPaperId: p.basketPaperId ?? null,
      basketSeen: p.basketSeen ?? [],
      // A new paper starts with the teacher's own defaults; a copy keeps its source's settings.
      settings: p.settings ?? (await this.settingDefaults(auth)).settings,
      version: 1,
      contentHash: contentHash(p.draft),
      sharedAt: null,
      isTemplate: false,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    const { sections, items } = this.contentOf(id, p.draft, [], []);
    await this.repo.transaction(async (repo) => {
      await repo.insertPaper(paper);
      await repo.replaceContent(id, sections, items);
    });
    return paper;
  }

  async createBlank(
    auth: AuthContext,
    body: { subjectId: string; textbookId?: string | null | undefined; title: string; subtitle: string },
  ): Promise<PaperDocument> {
    const textbookId = await this.checkTextbook(body.subjectId, body.textbookId ?? null);
    const row = await this.create(auth, {
      subjectId: body.subjectId,
      textbookId,
      source: 'blank',
      draft: { title: body.title, subtitle: body.subtitle, status: 'draft', sections: [] },
    });
    return this.document(row, auth);
  }

  protected async checkTextbook(subjectId: string, textbookId: string | null) {
    if (!textbookId) return null;
    const book = await this.repo.catalog.findTextbook(textbookId);
    if (!book || book.subjectId !== subjectId) throw notFound(T.textbookNotFound);
    return book.id;
  }

  /** Appends questions to the sections of their types (a new section at the end for a new type). */
  protected async appendQuestions(draft: Draft, questionIds: string[]) {
    const present = new Set(draft.sections.flatMap((s) => s.items.map((i) => i.questionId)));
    const ids = questionIds.filter((id) => !present.has(id));
    if (ids.length === 0) return 0;
    const rows = new Map((await this.repo.questionsByIds(ids)).map((r) => [r.id, r]));
    const types = new Map(
      (await this.repo.typesByIds([...new Set([...rows.values()].map((r) => r.typeId))])).map((t) => [
        t.id,
        t,
      ]),
    );
    let added = 0;
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) continue;
      let section = draft.sections.find((s) => s.typeId === row.typeId);
      if (!section) {
        const typeName = types.get(row.typeId)?.name ?? row.typeName;
        section = {
          typeId: row.typeId,
          title: typeName,
          note: '',
          defaultScore: defaultScoreOf(typeName),
          items: [],
        };
        draft.sections.push(section);
      }
      section.items.push({ questionId: id, score: null });
      added += 1;
    }
    return added;
  }

  /** Opens the composition of a basket paper: the open draft made from it, or a new one. */
  async composeFromBasket(
    auth: AuthContext,
    body: { basketPaperId: string; fresh: boolean; textbookId?: string | null | undefined },
  ): Promise<PaperDocument> {
    const orgId = requireSchool(auth);
    const basket = await this.repo.findBasketPaper(orgId, auth.userId, body.basketPaperId);
    if (!basket) throw notFound(T.basketEmpty);
    const basketIds = await this.repo.basketQuestionIds(basket.id);
    const existing = body.fresh
      ? undefined
      : await this.repo.findDraftOfBasket(auth.userId, orgId, basket.id);
    if (existing) {
      const seen = new Set(existing.basketSeen);
      const doc = await this.document(existing, auth);
      const draft = draftOf(doc);
      const newOnes = basketIds.filter((id) => !seen.has(id));
      // Only what was put in the basket since: questions removed in /edit stay removed.
      await this.appendQuestions(draft, newOnes);
      const allSeen = [...new Set([...seen, ...basketIds])];
      if (allSeen.length === seen.size) return doc;
      return this.write(auth, existing, existing.version, draft, { basketSeen: allSeen });
    }
    if (basketIds.length === 0) throw notFound(T.basketEmpty);
    const subject = await this.repo.catalog.findSubject(basket.subjectId);
    const draft: Draft = {
      title: T.basketTitle(
        `${subject?.stageName ?? ''}${subject?.name ?? ''}`,
        dayInZone(this.now(), await this.repo.schoolTimeZone(orgId)),
      ),
      subtitle: '',
      status: 'draft',
      sections: [],
    };
    await this.appendQuestions(draft, basketIds);
    const textbookId = await this.checkTextbook(basket.subjectId, body.textbookId ?? basket.textbookId);
    const row = await this.create(auth, {
      subjectId: basket.subjectId,
      textbookId,
      source: 'basket',
      draft,
      basketPaperId: basket.id,
      basketSeen: basketIds,
    });
    return this.document(row, auth);
  }
}
