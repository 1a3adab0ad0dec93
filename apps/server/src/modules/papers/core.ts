import {
  dayInZone,
  RECYCLE_BIN_DAYS,
  type PaperDocument,
  type PaperQuestion,
  type PaperSection,
  type PaperSettingDefaults,
  type PaperSummary,
  type SavePaper,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId } from '../../lib/ids.js';
import { type DocumentSandbox } from '../../lib/sandbox/pool.js';
import { PAPER_MESSAGES, assertEditable, assertReadable, isOwner, permissionsFor } from './policy.js';
import type { ItemRow, PaperRow, PapersRepository, SectionRow } from './repository.js';
import { toPoints, toTenths } from '../results/scoring.js';
import { PAPERS_TEXT as T } from '../../i18n/papers.js';

import {
  DAY_MS,
  STANDARD_SETTINGS,
  parseSettings,
  NO_HOMEWORK_YET,
  OptionsJson,
  contentHash,
  defaultScoreOf,
  draftOf,
  fmt,
  parseIds,
  sectionNumeral,
  type Draft,
  type QuestionRow,
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
    r: QuestionRow,
    kps: { question_id: string; id: string; name: string }[],
  ): PaperQuestion {
    let options: PaperQuestion['options'] = [];
    try {
      options = OptionsJson.parse(JSON.parse(r.options));
    } catch {
      options = [];
    }
    return {
      id: r.id,
      typeId: r.type_id,
      typeName: r.type_name,
      difficulty: r.difficulty,
      stem: r.stem,
      options,
      answer: r.answer,
      analysis: r.analysis,
      owner: r.owner,
      knowledgePoints: kps.filter((k) => k.question_id === r.id).map((k) => ({ id: k.id, name: k.name })),
    };
  }

  protected async summaries(rows: PaperRow[], auth: AuthContext): Promise<PaperSummary[]> {
    const [totals, subjects, users] = await Promise.all([
      this.repo.totalsOf(rows.map((r) => r.id)),
      this.repo.subjectsByIds([...new Set(rows.map((r) => r.subject_id))]),
      this.repo.usersByIds([...new Set(rows.flatMap((r) => (r.owner_user_id ? [r.owner_user_id] : [])))]),
    ]);
    const subjectById = new Map(subjects.map((s) => [s.id, s]));
    const nameById = new Map(users.map((u) => [u.id, u.nickname]));
    const now = this.clock();
    return rows.map((r) => {
      const subject = subjectById.get(r.subject_id);
      const total = totals.get(r.id) ?? { count: 0, tenths: 0 };
      const purgeAt = r.deleted_at ? Date.parse(r.deleted_at) + RECYCLE_BIN_DAYS * DAY_MS : null;
      return {
        id: r.id,
        title: r.title,
        subtitle: r.subtitle,
        stageId: r.stage_id,
        stageName: subject?.stage_name ?? '',
        subjectId: r.subject_id,
        subjectName: subject?.name ?? '',
        textbookId: r.textbook_id,
        status: r.status === 'final' ? 'final' : 'draft',
        source:
          (['basket', 'smart', 'template', 'copy', 'word', 'blank'] as const).find((s) => s === r.source) ??
          'blank',
        version: r.version,
        questionCount: total.count,
        totalScore: toPoints(total.tenths),
        owner: r.owner === 'system' ? 'system' : 'personal',
        ownerName: r.owner === 'system' ? T.systemOwner : (nameById.get(r.owner_user_id ?? '') ?? ''),
        mine: isOwner(r, auth),
        shared: r.shared_at !== null,
        isTemplate: r.is_template === 1,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        deletedAt: r.deleted_at,
        purgeInDays: purgeAt === null ? null : Math.max(0, Math.ceil((purgeAt - now) / DAY_MS)),
        permissions: permissionsFor(r, auth),
      };
    });
  }

  protected async document(paper: PaperRow, auth: AuthContext): Promise<PaperDocument> {
    const [sections, items] = await Promise.all([
      this.repo.listSections(paper.id),
      this.repo.listItems(paper.id),
    ]);
    const questions = await this.questionsFor(items.map((i) => i.question_id));
    const settings = parseSettings(paper.settings);
    const [summary] = await this.summaries([paper], auth);
    let no = 0;
    const outSections: PaperSection[] = sections.map((s, index) => {
      if (settings.numbering === 'perSection') no = 0;
      const own = items.filter((i) => i.section_id === s.id);
      const scores = own.map((i) => i.score_tenths ?? s.default_score_tenths);
      const total = scores.reduce((a, b) => a + b, 0);
      const number = sectionNumeral(index);
      const title = s.title;
      const allSame = scores.every((x) => x === s.default_score_tenths);
      const detail =
        own.length === 0
          ? ''
          : allSame
            ? T.sectionNoteEach(own.length, fmt(toPoints(s.default_score_tenths)), fmt(toPoints(total)))
            : T.sectionNote(own.length, fmt(toPoints(total)));
      return {
        id: s.id,
        number,
        typeId: s.type_id,
        title,
        note: s.note,
        defaultScore: toPoints(s.default_score_tenths),
        heading: `${number}、${title}${detail}`,
        questionCount: own.length,
        totalScore: toPoints(total),
        items: own.map((i) => ({
          id: i.id,
          no: ++no,
          questionId: i.question_id,
          score: toPoints(i.score_tenths ?? s.default_score_tenths),
          scoreOverride: i.score_tenths === null ? null : toPoints(i.score_tenths),
          question: questions.get(i.question_id) ?? null,
        })),
      };
    });
    return {
      ...summary!,
      basketPaperId: paper.basket_paper_id,
      settings,
      sections: outSections,
    };
  }

  async detail(auth: AuthContext, id: string): Promise<PaperDocument> {
    return this.document(assertReadable(await this.repo.findPaper(id), auth), auth);
  }

  // ───────────── writing ─────────────

  /** Checks a draft against the paper's subject and the caller's visible questions. */
  protected async checkDraft(auth: AuthContext, paper: PaperRow, draft: Draft, existing: Set<string>) {
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
      if (rows.some((r) => r.subject_id !== paper.subject_id)) {
        throw new AppError('VALIDATION', T.otherSubject);
      }
    }
    const typeIds = draft.sections.flatMap((s) => (s.typeId ? [s.typeId] : []));
    if (typeIds.length > 0) {
      const types = await this.repo.typesByIds([...new Set(typeIds)]);
      if (types.length !== new Set(typeIds).size || types.some((t) => t.subject_id !== paper.subject_id)) {
        throw new AppError('VALIDATION', T.sectionTypeOtherSubject);
      }
    }
  }

  protected rowsOf(paperId: string, draft: Draft, oldSections: SectionRow[], oldItems: ItemRow[]) {
    const ownSectionIds = new Set(oldSections.map((s) => s.id));
    const itemIdByQuestion = new Map(oldItems.map((i) => [i.question_id, i.id]));
    const sections: SectionRow[] = [];
    const items: ItemRow[] = [];
    const usedSectionIds = new Set<string>();
    draft.sections.forEach((s, si) => {
      const id = s.id && ownSectionIds.has(s.id) && !usedSectionIds.has(s.id) ? s.id : newId();
      usedSectionIds.add(id);
      sections.push({
        id,
        paper_id: paperId,
        type_id: s.typeId,
        title: s.title,
        note: s.note,
        default_score_tenths: toTenths(s.defaultScore),
        sort: si + 1,
      });
      for (const item of s.items) {
        items.push({
          id: itemIdByQuestion.get(item.questionId) ?? newId(),
          paper_id: paperId,
          section_id: id,
          question_id: item.questionId,
          score_tenths: item.score == null ? null : toTenths(item.score),
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
    paper: PaperRow,
    version: number,
    draft: Draft,
    extra: Partial<PaperRow> = {},
  ): Promise<PaperDocument> {
    const hash = contentHash(draft);
    const extraChanges = Object.keys(extra).length > 0;
    if (hash === paper.content_hash && !extraChanges) return this.document(paper, auth);
    if (version !== paper.version) {
      if (hash === paper.content_hash) return this.document(paper, auth);
      throw new AppError('CONFLICT', PAPER_MESSAGES.stale, { data: { version: paper.version } });
    }
    const [oldSections, oldItems] = await Promise.all([
      this.repo.listSections(paper.id),
      this.repo.listItems(paper.id),
    ]);
    await this.checkDraft(auth, paper, draft, new Set(oldItems.map((i) => i.question_id)));
    const { sections, items } = this.rowsOf(paper.id, draft, oldSections, oldItems);
    const saved = await this.repo.transaction(async (repo) => {
      const ok = await repo.updatePaperIfVersion(paper.id, version, {
        title: draft.title,
        subtitle: draft.subtitle,
        status: draft.status,
        version: version + 1,
        content_hash: hash,
        updated_at: this.now(),
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
    const row = await this.repo.findSettingDefaults(auth.userId);
    return row
      ? { settings: parseSettings(row.settings), saved: true }
      : { settings: STANDARD_SETTINGS, saved: false };
  }

  protected async create(
    auth: AuthContext,
    p: {
      subjectId: string;
      textbookId: string | null;
      source: PaperRow['source'];
      draft: Draft;
      basketPaperId?: string | null;
      basketSeen?: string[];
      settings?: string;
    },
  ): Promise<PaperRow> {
    const orgId = requireSchool(auth);
    const subject = await this.repo.findSubject(p.subjectId);
    if (!subject) throw notFound(T.subjectNotFound);
    const now = this.now();
    const id = newId();
    const row: PaperRow = {
      id,
      owner: 'personal',
      org_id: orgId,
      owner_user_id: auth.userId,
      title: p.draft.title,
      subtitle: p.draft.subtitle,
      stage_id: subject.stage_id,
      subject_id: subject.id,
      textbook_id: p.textbookId,
      status: p.draft.status,
      source: p.source,
      basket_paper_id: p.basketPaperId ?? null,
      basket_seen: JSON.stringify(p.basketSeen ?? []),
      // A new paper starts with the teacher's own defaults; a copy keeps its source's settings.
      settings: p.settings ?? JSON.stringify((await this.settingDefaults(auth)).settings),
      version: 1,
      content_hash: contentHash(p.draft),
      shared_at: null,
      is_template: 0,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    const { sections, items } = this.rowsOf(id, p.draft, [], []);
    await this.repo.transaction(async (repo) => {
      await repo.insertPaper(row);
      await repo.replaceContent(id, sections, items);
    });
    return row;
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
      (await this.repo.typesByIds([...new Set([...rows.values()].map((r) => r.type_id))])).map((t) => [
        t.id,
        t,
      ]),
    );
    let added = 0;
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) continue;
      let section = draft.sections.find((s) => s.typeId === row.type_id);
      if (!section) {
        const typeName = types.get(row.type_id)?.name ?? row.type_name;
        section = {
          typeId: row.type_id,
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
    const basketItems = await this.repo.basketItems(basket.id);
    const basketIds = basketItems.map((i) => i.question_id);
    const existing = body.fresh
      ? undefined
      : await this.repo.findDraftOfBasket(auth.userId, orgId, basket.id);
    if (existing) {
      const seen = new Set(parseIds(existing.basket_seen));
      const doc = await this.document(existing, auth);
      const draft = draftOf(doc);
      const newOnes = basketIds.filter((id) => !seen.has(id));
      // Only what was put in the basket since: questions removed in /edit stay removed.
      await this.appendQuestions(draft, newOnes);
      const allSeen = [...new Set([...seen, ...basketIds])];
      if (allSeen.length === seen.size) return doc;
      return this.write(auth, existing, existing.version, draft, { basket_seen: JSON.stringify(allSeen) });
    }
    if (basketIds.length === 0) throw notFound(T.basketEmpty);
    const subject = await this.repo.findSubject(basket.subject_id);
    const draft: Draft = {
      title: T.basketTitle(
        `${subject?.stage_name ?? ''}${subject?.name ?? ''}`,
        dayInZone(this.now(), await this.repo.schoolTimeZone(orgId)),
      ),
      subtitle: '',
      status: 'draft',
      sections: [],
    };
    await this.appendQuestions(draft, basketIds);
    const textbookId = await this.checkTextbook(basket.subject_id, body.textbookId ?? basket.textbook_id);
    const row = await this.create(auth, {
      subjectId: basket.subject_id,
      textbookId,
      source: 'basket',
      draft,
      basketPaperId: basket.id,
      basketSeen: basketIds,
    });
    return this.document(row, auth);
  }
}
