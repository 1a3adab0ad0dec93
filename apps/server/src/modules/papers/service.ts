import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  dayInZone,
  MESSAGES,
  PaperSettingsSchema,
  RECYCLE_BIN_DAYS,
  type ImportPreview,
  type PaperDocument,
  type PaperListQuery,
  type PaperQuestion,
  type PaperSection,
  type PaperSettingDefaults,
  type PaperSettings,
  type PaperSummary,
  type SmartCompose,
  type SmartResult,
  type ImportSaveSchema,
  type SavePaper,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId } from '../../lib/ids.js';
import { ZipGuardError } from '../../lib/zip-guard.js';
import { SandboxLimitError, limitRefusal, type DocumentSandbox } from '../../lib/sandbox/pool.js';
import { optimise } from './optimiser.js';
import { questionFamily } from '../questions/family.js';
import {
  PAPER_MESSAGES,
  assertEditable,
  assertOwned,
  assertReadable,
  isOwner,
  permissionsFor,
} from './policy.js';
import type { ItemRow, PaperListKind, PaperRow, PapersRepository, SectionRow } from './repository.js';
// One sanitiser for all rich content: the question bank's (it also keeps formulas intact).
import { richTextToPlain as plainText, sanitizeRichText as sanitizeRich } from '../questions/rich-content.js';
import { contentText, tokenize } from '../questions/search-text.js';
import type { ParsedPaper } from './word-import.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The ids of a node and all its descendants in a flat tree. */
export function subtreeIds(rows: { id: string; parent_id: string | null }[], rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const r of rows) {
    if (!r.parent_id) continue;
    children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r.id]);
  }
  const out: string[] = [];
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    out.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}
const CHINESE_NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/** 一 … 十, 十一 … 三十 (a paper has at most 30 sections). */
export function sectionNumeral(index: number): string {
  const n = index + 1;
  if (n <= 10) return CHINESE_NUMERALS[n - 1]!;
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  return `${tens === 1 ? '' : CHINESE_NUMERALS[tens - 1]!}十${ones ? CHINESE_NUMERALS[ones - 1]! : ''}`;
}

/** Score per question a new section of a type starts with (the teacher changes it in /edit). */
const DEFAULT_SCORES: Record<string, number> = {
  单选题: 3,
  多选题: 4,
  判断题: 2,
  填空题: 3,
  解答题: 10,
  实验题: 6,
  计算题: 8,
  完形填空: 15,
  阅读理解: 10,
  书面表达: 15,
  作文: 50,
};
export const defaultScoreOf = (typeName: string) => DEFAULT_SCORES[typeName] ?? 5;

const toTenths = (points: number) => Math.round(points * 10);
const toPoints = (tenths: number) => tenths / 10;
const fmt = (points: number) => String(Math.round(points * 10) / 10);

const OptionsJson = z.array(z.object({ label: z.string(), content: z.string() }));
const IdList = z.array(z.string());

const STANDARD_SETTINGS: PaperSettings = PaperSettingsSchema.parse({});

function parseSettings(json: string): PaperSettings {
  try {
    return PaperSettingsSchema.parse(JSON.parse(json));
  } catch {
    return STANDARD_SETTINGS;
  }
}

function parseIds(json: string): string[] {
  try {
    return IdList.parse(JSON.parse(json));
  } catch {
    return [];
  }
}

/** The content of a paper as /edit saves it (scores in points). */
interface Draft {
  title: string;
  subtitle: string;
  status: 'draft' | 'final';
  sections: {
    id?: string | undefined;
    typeId: string | null;
    title: string;
    note: string;
    defaultScore: number;
    items: { questionId: string; score?: number | null | undefined }[];
  }[];
}

function contentHash(draft: Draft): string {
  const normal = {
    t: draft.title,
    s: draft.subtitle,
    st: draft.status,
    x: draft.sections.map((s) => ({
      id: s.id ?? null,
      ty: s.typeId,
      ti: s.title,
      n: s.note,
      d: toTenths(s.defaultScore),
      i: s.items.map((i) => [i.questionId, i.score == null ? null : toTenths(i.score)]),
    })),
  };
  return createHash('sha256').update(JSON.stringify(normal)).digest('hex');
}

/** Which questions of their most recent homework the given classes did: filled by the homework issue. */
export interface RecentHomeworkQuestions {
  questionIdsOf(orgId: string, classIds: string[]): Promise<string[]>;
}
/** Until homework exists, no class has done any question. */
export const NO_HOMEWORK_YET: RecentHomeworkQuestions = { questionIdsOf: async () => [] };

type QuestionRow = Awaited<ReturnType<PapersRepository['questionsByIds']>>[number];

export class PapersService {
  constructor(
    private readonly repo: PapersRepository,
    private readonly clock: () => number = Date.now,
    private readonly recentHomework: RecentHomeworkQuestions = NO_HOMEWORK_YET,
    /** Word import and export run here; a service built only to read papers has none. */
    private readonly documents?: DocumentSandbox,
  ) {}

  private sandbox(): DocumentSandbox {
    if (!this.documents) throw new Error('this PapersService was built without a document sandbox');
    return this.documents;
  }

  private now() {
    return new Date(this.clock()).toISOString();
  }

  // ───────────── reading ─────────────

  private async questionsFor(ids: string[]): Promise<Map<string, PaperQuestion>> {
    const rows = await this.repo.questionsByIds(ids);
    const kps = await this.repo.knowledgePointsOf(ids);
    const out = new Map<string, PaperQuestion>();
    for (const r of rows) out.set(r.id, this.toQuestion(r, kps));
    return out;
  }

  private toQuestion(
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

  private async summaries(rows: PaperRow[], auth: AuthContext): Promise<PaperSummary[]> {
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
        ownerName: r.owner === 'system' ? '智能作业' : (nameById.get(r.owner_user_id ?? '') ?? ''),
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

  private async document(paper: PaperRow, auth: AuthContext): Promise<PaperDocument> {
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
            ? `（本大题共 ${own.length} 小题，每小题 ${fmt(toPoints(s.default_score_tenths))} 分，共 ${fmt(toPoints(total))} 分）`
            : `（本大题共 ${own.length} 小题，共 ${fmt(toPoints(total))} 分）`;
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

  private draftOf(doc: PaperDocument): Draft {
    return {
      title: doc.title,
      subtitle: doc.subtitle,
      status: doc.status,
      sections: doc.sections.map((s) => ({
        id: s.id,
        typeId: s.typeId,
        title: s.title,
        note: s.note,
        defaultScore: s.defaultScore,
        items: s.items.map((i) => ({ questionId: i.questionId, score: i.scoreOverride })),
      })),
    };
  }

  // ───────────── writing ─────────────

  /** Checks a draft against the paper's subject and the caller's visible questions. */
  private async checkDraft(auth: AuthContext, paper: PaperRow, draft: Draft, existing: Set<string>) {
    const orgId = requireSchool(auth);
    const ids = draft.sections.flatMap((s) => s.items.map((i) => i.questionId));
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) throw new AppError('VALIDATION', '同一道试题不能在试卷中出现两次');
      seen.add(id);
    }
    const fresh = ids.filter((id) => !existing.has(id));
    if (fresh.length > 0) {
      const visible = await this.repo.visibleQuestionIds(orgId, auth.userId, fresh);
      if (fresh.some((id) => !visible.has(id))) throw notFound('试题不存在或已删除');
      const rows = await this.repo.questionsByIds(fresh);
      if (rows.some((r) => r.subject_id !== paper.subject_id)) {
        throw new AppError('VALIDATION', '只能加入本学科的试题');
      }
    }
    const typeIds = draft.sections.flatMap((s) => (s.typeId ? [s.typeId] : []));
    if (typeIds.length > 0) {
      const types = await this.repo.typesByIds([...new Set(typeIds)]);
      if (types.length !== new Set(typeIds).size || types.some((t) => t.subject_id !== paper.subject_id)) {
        throw new AppError('VALIDATION', '大题的题型不属于本学科');
      }
    }
  }

  private rowsOf(paperId: string, draft: Draft, oldSections: SectionRow[], oldItems: ItemRow[]) {
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
  private async write(
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
  private async create(
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
    if (!subject) throw notFound('学科不存在');
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

  private async checkTextbook(subjectId: string, textbookId: string | null) {
    if (!textbookId) return null;
    const book = await this.repo.findTextbook(textbookId);
    if (!book || book.subject_id !== subjectId) throw notFound('教材不存在');
    return book.id;
  }

  /** Appends questions to the sections of their types (a new section at the end for a new type). */
  private async appendQuestions(draft: Draft, questionIds: string[]) {
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
    if (!basket) throw notFound('试题篮不存在或已清空');
    const basketItems = await this.repo.basketItems(basket.id);
    const basketIds = basketItems.map((i) => i.question_id);
    const existing = body.fresh
      ? undefined
      : await this.repo.findDraftOfBasket(auth.userId, orgId, basket.id);
    if (existing) {
      const seen = new Set(parseIds(existing.basket_seen));
      const doc = await this.document(existing, auth);
      const draft = this.draftOf(doc);
      const newOnes = basketIds.filter((id) => !seen.has(id));
      // Only what was put in the basket since: questions removed in /edit stay removed.
      await this.appendQuestions(draft, newOnes);
      const allSeen = [...new Set([...seen, ...basketIds])];
      if (allSeen.length === seen.size) return doc;
      return this.write(auth, existing, existing.version, draft, { basket_seen: JSON.stringify(allSeen) });
    }
    if (basketIds.length === 0) throw notFound('试题篮不存在或已清空');
    const subject = await this.repo.findSubject(basket.subject_id);
    const draft: Draft = {
      title: `${subject?.stage_name ?? ''}${subject?.name ?? ''}试卷（${dayInZone(this.now(), await this.repo.schoolTimeZone(orgId))}）`,
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

  private async editable(auth: AuthContext, id: string, version: number) {
    const paper = assertEditable(await this.repo.findPaper(id), auth);
    const doc = await this.document(paper, auth);
    return { paper, doc, draft: this.draftOf(doc), version };
  }

  async addQuestions(auth: AuthContext, id: string, body: { version: number; questionIds: string[] }) {
    const { paper, draft } = await this.editable(auth, id, body.version);
    const orgId = requireSchool(auth);
    const visible = await this.repo.visibleQuestionIds(orgId, auth.userId, body.questionIds);
    if (body.questionIds.some((q) => !visible.has(q))) throw notFound('试题不存在或已删除');
    await this.appendQuestions(draft, body.questionIds);
    return this.write(auth, paper, body.version, draft);
  }

  async replaceQuestion(
    auth: AuthContext,
    id: string,
    body: { version: number; questionId: string; newQuestionId: string },
  ) {
    const { paper, draft } = await this.editable(auth, id, body.version);
    const orgId = requireSchool(auth);
    const item = draft.sections.flatMap((s) => s.items).find((i) => i.questionId === body.questionId);
    if (!item) {
      // A retried replace: the new question already took the old one's place.
      if (draft.sections.some((s) => s.items.some((i) => i.questionId === body.newQuestionId))) {
        return this.document(paper, auth);
      }
      throw notFound('该试题不在试卷中');
    }
    if (draft.sections.some((s) => s.items.some((i) => i.questionId === body.newQuestionId))) {
      throw new AppError('VALIDATION', '替换的试题已在试卷中');
    }
    const visible = await this.repo.visibleQuestionIds(orgId, auth.userId, [body.newQuestionId]);
    if (!visible.has(body.newQuestionId)) throw notFound('试题不存在或已删除');
    item.questionId = body.newQuestionId;
    return this.write(auth, paper, body.version, draft);
  }

  /** Inline edit: the edited text becomes the caller's personal copy, which takes the question's place. */
  async editQuestion(
    auth: AuthContext,
    id: string,
    body: {
      version: number;
      questionId: string;
      stem: string;
      options: { label: string; content: string }[];
      answer: string;
      analysis: string;
      difficulty?: number | undefined;
    },
  ) {
    const { paper, draft } = await this.editable(auth, id, body.version);
    const orgId = requireSchool(auth);
    if (body.version !== paper.version)
      throw new AppError('CONFLICT', PAPER_MESSAGES.stale, { data: { version: paper.version } });
    const item = draft.sections.flatMap((s) => s.items).find((i) => i.questionId === body.questionId);
    if (!item) throw notFound('该试题不在试卷中');
    const [original] = await this.repo.questionsByIds([body.questionId]);
    if (!original) throw notFound('试题不存在或已删除');
    const stem = sanitizeRich(body.stem);
    if (!plainText(stem) && !stem.includes('<img')) throw new AppError('VALIDATION', '请输入题干');
    const copyId = newId();
    const [kps, nodes] = await Promise.all([
      this.repo.knowledgePointsOf([original.id]),
      this.repo.booknodesOf([original.id]),
    ]);
    await this.repo.insertQuestion({
      id: copyId,
      subject_id: original.subject_id,
      type_id: original.type_id,
      org_id: orgId,
      owner_user_id: auth.userId,
      difficulty: body.difficulty ?? original.difficulty,
      stem,
      options: JSON.stringify(
        body.options.map((o) => ({ label: o.label, content: sanitizeRich(o.content) })),
      ),
      answer: sanitizeRich(body.answer),
      analysis: sanitizeRich(body.analysis),
      year: original.year,
      source: '个人改编',
      created_at: this.now(),
      booknodeIds: nodes.map((n) => n.booknode_id),
      knowledgePointIds: kps.map((k) => k.id),
    });
    item.questionId = copyId;
    return this.write(auth, paper, body.version, draft);
  }

  // ───────────── settings ─────────────

  async settings(auth: AuthContext, id: string): Promise<PaperSettings> {
    return parseSettings(assertReadable(await this.repo.findPaper(id), auth).settings);
  }

  /** Settings are saved apart from the document (last write wins), so /paperset never makes /edit stale. */
  async saveSettings(auth: AuthContext, id: string, settings: PaperSettings): Promise<PaperSettings> {
    const paper = assertEditable(await this.repo.findPaper(id), auth);
    await this.repo.updatePaper(paper.id, { settings: JSON.stringify(settings), updated_at: this.now() });
    return settings;
  }

  /** The teacher's own defaults, or the standard settings when none were saved. */
  async settingDefaults(auth: AuthContext): Promise<PaperSettingDefaults> {
    const row = await this.repo.findSettingDefaults(auth.userId);
    return row
      ? { settings: parseSettings(row.settings), saved: true }
      : { settings: STANDARD_SETTINGS, saved: false };
  }

  async saveSettingDefaults(auth: AuthContext, settings: PaperSettings): Promise<PaperSettingDefaults> {
    await this.repo.saveSettingDefaults(auth.userId, JSON.stringify(settings), this.now());
    return { settings, saved: true };
  }

  async resetSettingDefaults(auth: AuthContext): Promise<PaperSettingDefaults> {
    await this.repo.deleteSettingDefaults(auth.userId);
    return { settings: STANDARD_SETTINGS, saved: false };
  }

  // ───────────── my papers, school papers, recycle bin ─────────────

  private async summaryOf(id: string, auth: AuthContext) {
    const [summary] = await this.summaries([(await this.repo.findPaper(id))!], auth);
    return summary!;
  }

  async rename(auth: AuthContext, id: string, title: string): Promise<PaperSummary> {
    const paper = assertEditable(await this.repo.findPaper(id), auth);
    // A rename changes the document: an /edit holding the old version must reload.
    await this.repo.updatePaper(paper.id, {
      title,
      version: paper.version + 1,
      content_hash: '',
      updated_at: this.now(),
    });
    return this.summaryOf(paper.id, auth);
  }

  async copy(auth: AuthContext, id: string): Promise<PaperSummary> {
    const source = assertReadable(await this.repo.findPaper(id), auth);
    if (source.deleted_at) throw new AppError('CONFLICT', PAPER_MESSAGES.inRecycleBin);
    const doc = await this.document(source, auth);
    const draft = this.draftOf(doc);
    for (const s of draft.sections) s.id = undefined;
    if (source.owner !== 'system' || !source.is_template) draft.title = `${draft.title}（副本）`.slice(0, 80);
    draft.status = 'draft';
    const row = await this.create(auth, {
      subjectId: source.subject_id,
      textbookId: source.textbook_id,
      source: source.is_template ? 'template' : 'copy',
      draft,
      settings: source.settings,
    });
    return this.summaryOf(row.id, auth);
  }

  async share(
    auth: AuthContext,
    id: string,
    body: { shared: boolean; asTemplate: boolean },
  ): Promise<PaperSummary> {
    const paper = assertEditable(await this.repo.findPaper(id), auth);
    await this.repo.updatePaper(paper.id, {
      shared_at: body.shared ? (paper.shared_at ?? this.now()) : null,
      is_template: body.shared && body.asTemplate ? 1 : 0,
    });
    return this.summaryOf(paper.id, auth);
  }

  async remove(auth: AuthContext, id: string): Promise<void> {
    const paper = assertOwned(await this.repo.findPaper(id), auth);
    if (paper.deleted_at) return;
    await this.repo.updatePaper(paper.id, { deleted_at: this.now() });
  }

  async restore(auth: AuthContext, id: string): Promise<PaperSummary> {
    const paper = assertOwned(await this.repo.findPaper(id), auth);
    if (!paper.deleted_at) throw new AppError('CONFLICT', '试卷不在回收站中');
    await this.repo.updatePaper(paper.id, { deleted_at: null, updated_at: this.now() });
    return this.summaryOf(paper.id, auth);
  }

  async purge(auth: AuthContext, id: string): Promise<void> {
    const paper = assertOwned(await this.repo.findPaper(id), auth);
    if (!paper.deleted_at) throw new AppError('CONFLICT', PAPER_MESSAGES.notInRecycleBin);
    await this.repo.transaction((repo) => repo.deletePapers([paper.id]));
  }

  /** Deletes for ever what has been in a recycle bin for 30 days; the boot and a daily timer run it. */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.clock() - RECYCLE_BIN_DAYS * DAY_MS).toISOString();
    const ids = await this.repo.expiredDeleted(cutoff);
    if (ids.length > 0) await this.repo.transaction((repo) => repo.deletePapers(ids));
    return ids.length;
  }

  async list(auth: AuthContext, kind: PaperListKind, q: PaperListQuery) {
    const orgId = requireSchool(auth);
    const { total, rows } = await this.repo.pagePapers({
      kind,
      orgId,
      userId: auth.userId,
      keyword: q.keyword || undefined,
      subjectId: q.subjectId,
      status: q.status,
      fromIso: q.from ? `${q.from}T00:00:00.000Z` : undefined,
      toIso: q.to ? `${q.to}T23:59:59.999Z` : undefined,
      recycleCutoffIso: new Date(this.clock() - RECYCLE_BIN_DAYS * DAY_MS).toISOString(),
      offset: (q.page - 1) * q.size,
      limit: q.size,
    });
    return { records: await this.summaries(rows, auth), total, page: q.page, size: q.size };
  }

  // ───────────── smart composition ─────────────

  async smartCompose(auth: AuthContext, body: SmartCompose): Promise<SmartResult> {
    const orgId = requireSchool(auth);
    const subject = await this.repo.findSubject(body.subjectId);
    if (!subject) throw notFound('学科不存在');
    const types = await this.repo.typesByIds(body.types.map((t) => t.typeId));
    if (types.length !== body.types.length || types.some((t) => t.subject_id !== subject.id)) {
      throw new AppError('VALIDATION', '所选题型不属于该学科');
    }
    const typeName = new Map(types.map((t) => [t.id, t.name]));
    if (body.classIds.length > 0) {
      const classes = await this.repo.classesOf(orgId, body.classIds);
      if (classes.length !== new Set(body.classIds).size) throw forbidden('只能选择本校的班级');
    }
    const avoid = new Set(await this.recentHomework.questionIdsOf(orgId, body.classIds));

    let booknodeIds: string[] | undefined;
    if (body.booknodeIds.length > 0) {
      const nodes = await this.repo.booknodesAround(body.booknodeIds);
      const known = new Set(nodes.map((n) => n.id));
      if (body.booknodeIds.some((id) => !known.has(id))) throw notFound('章节不存在');
      booknodeIds = [...new Set(body.booknodeIds.flatMap((id) => subtreeIds(nodes, id)))];
    }
    const kpTree = await this.repo.knowledgePoints(subject.id);
    const kpName = new Map(kpTree.map((k) => [k.id, k.name]));
    let knowledgePointIds: string[] | undefined;
    if (body.knowledgePointIds.length > 0) {
      if (body.knowledgePointIds.some((id) => !kpName.has(id))) throw notFound('知识点不存在');
      knowledgePointIds = [...new Set(body.knowledgePointIds.flatMap((id) => subtreeIds(kpTree, id)))];
    }

    const candidates = await this.repo.pool({
      orgId,
      userId: auth.userId,
      subjectId: subject.id,
      typeIds: body.types.map((t) => t.typeId),
      booknodeIds,
      knowledgePointIds,
    });
    const requested = knowledgePointIds ? new Set(knowledgePointIds) : undefined;
    const coverable = new Set(
      candidates.flatMap((c) => c.knowledgePointIds).filter((k) => !requested || requested.has(k)),
    );
    const result = optimise({
      candidates: candidates.map((c) => ({ ...c, family: questionFamily(c.id) })),
      types: body.types.map((t) => ({ typeId: t.typeId, count: t.count, scoreTenths: toTenths(t.score) })),
      target: body.difficulty,
      avoid,
      universe: coverable,
      seed: body.seed,
    });

    const explanations: string[] = [];
    const total = result.picks.reduce((s, p) => s + p.ids.length, 0);
    if (total === 0) explanations.push('没有符合条件的试题，请扩大章节或知识点范围，或换一种题型');
    for (const p of result.picks) {
      const name = typeName.get(p.typeId) ?? '';
      if (p.ids.length < p.requested) {
        explanations.push(`${name}只有 ${p.ids.length} 道符合条件，少于要求的 ${p.requested} 道`);
      }
      if (p.avoidedUsed > 0) {
        explanations.push(`${name}可选试题不足，其中 ${p.avoidedUsed} 道在所选班级最近的作业中出现过`);
      }
    }
    if (total > 0 && !result.withinTolerance && result.difficulty !== null) {
      explanations.push(
        `所选范围内的试题达不到目标难度系数 ${body.difficulty.toFixed(2)}，已选出最接近的组合，难度系数为 ${result.difficulty.toFixed(2)}`,
      );
    }
    if (body.knowledgePointIds.length > 0) {
      const empty = body.knowledgePointIds.filter(
        (id) => !subtreeIds(kpTree, id).some((k) => coverable.has(k)),
      );
      if (empty.length > 0) {
        explanations.push(`所选知识点中有 ${empty.length} 个没有符合条件的试题：${names(empty, kpName)}`);
      }
    }
    const covered = new Set(result.covered);
    const missing = [...coverable].filter((k) => !covered.has(k));
    if (total > 0 && missing.length > 0) {
      explanations.push(`受题量限制，有 ${missing.length} 个知识点没有覆盖到：${names(missing, kpName)}`);
    }

    const questions = await this.questionsFor(result.picks.flatMap((p) => p.ids));
    let paper: PaperDocument | null = null;
    if (body.createPaper) {
      if (total === 0) throw new AppError('VALIDATION', '没有符合条件的试题，无法生成试卷');
      const textbookId = await this.checkTextbook(subject.id, body.textbookId ?? null);
      const row = await this.create(auth, {
        subjectId: subject.id,
        textbookId,
        source: 'smart',
        draft: {
          title:
            body.title ??
            `${subject.stage_name}${subject.name}智能组卷（${dayInZone(this.now(), await this.repo.schoolTimeZone(orgId))}）`,
          subtitle: '',
          status: 'draft',
          sections: result.picks
            .filter((p) => p.ids.length > 0)
            .map((p, i) => ({
              typeId: p.typeId,
              title: typeName.get(p.typeId) ?? '',
              note: '',
              defaultScore: body.types[i]?.score ?? 0,
              items: p.ids.map((questionId) => ({ questionId, score: null })),
            })),
        },
      });
      paper = await this.document(row, auth);
    }
    const scoreOf = new Map(body.types.map((t) => [t.typeId, t.score]));
    return {
      selections: result.picks.map((p) => ({
        typeId: p.typeId,
        typeName: typeName.get(p.typeId) ?? '',
        requested: p.requested,
        score: scoreOf.get(p.typeId) ?? 0,
        questions: p.ids.map((id) => questions.get(id)!).filter(Boolean),
      })),
      targetDifficulty: body.difficulty,
      achievedDifficulty: total > 0 ? Math.round(result.difficulty! * 1000) / 1000 : null,
      withinTolerance: total > 0 && result.withinTolerance,
      coverage: {
        covered: result.covered.map((id) => ({ id, name: kpName.get(id) ?? id })),
        missing: missing.map((id) => ({ id, name: kpName.get(id) ?? id })),
      },
      explanations,
      totalScore: toPoints(
        result.picks.reduce((s, p) => s + p.ids.length * toTenths(scoreOf.get(p.typeId) ?? 0), 0),
      ),
      paper,
    };
  }

  // ───────────── Word ─────────────

  async exportWord(auth: AuthContext, id: string, copy: 'student' | 'teacher') {
    const paper = assertReadable(await this.repo.findPaper(id), auth);
    const doc = await this.document(paper, auth);
    const buffer = Buffer.from(
      await this.sandbox()
        .run('renderPaperDocx', [doc, copy])
        .catch((error: unknown) => {
          throw limitRefusal(error);
        }),
    );
    const suffix = copy === 'teacher' ? '（教师用卷）' : '';
    return { buffer, filename: `${doc.title}${suffix}.docx` };
  }

  async importPreview(auth: AuthContext, subjectId: string, bytes: Uint8Array): Promise<ImportPreview> {
    requireSchool(auth);
    const subject = await this.repo.findSubject(subjectId);
    if (!subject) throw notFound('学科不存在');
    let parsed: ParsedPaper;
    try {
      // Parsed in the document sandbox: a hostile document costs a child process, never the host's event loop.
      parsed = await this.sandbox().run('parseDocx', [bytes]);
    } catch (error) {
      if (error instanceof ZipGuardError && error.problem === 'tooLarge')
        throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.archiveTooLarge, { detail: error.message });
      if (error instanceof SandboxLimitError) throw limitRefusal(error);
      throw new AppError('VALIDATION', '无法读取该文件，请上传 .docx 格式的 Word 文档');
    }
    const types = await this.repo.questionTypes(subject.id);
    const kps = await this.repo.knowledgePoints(subject.id);
    const preview = previewFor(parsed, subject.id, types, kps);
    await this.suggestKnowledgePoints(preview, subject.id, kps);
    return preview;
  }

  /**
   * A question imported without 【知识点】 gets the knowledge points of the bank question most like it, when one is
   * close enough (most of its distinctive words are shared), with a note asking the teacher to check them.
   */
  private async suggestKnowledgePoints(
    preview: ImportPreview,
    subjectId: string,
    kps: { id: string; name: string }[],
  ): Promise<void> {
    const nameOf = new Map(kps.map((k) => [k.id, k.name]));
    for (const section of preview.sections) {
      for (const q of section.questions) {
        if (q.knowledgePointIds.length > 0) continue;
        const words = distinctiveWords([q.stem, ...q.options.map((o) => o.content)].join('\n'));
        if (words.length < MIN_SUGGESTION_WORDS) continue;
        const related = await this.repo.relatedQuestions(subjectId, words, SUGGESTION_CANDIDATES);
        const best = related
          .map((r) => ({ id: r.id, share: sharedShare(words, r.tokens) }))
          .sort((a, b) => b.share - a.share)[0];
        if (!best || best.share < SUGGESTION_MIN_SHARE) continue;
        const ids = (await this.repo.knowledgePointsOf([best.id]))
          .map((k) => k.id)
          .filter((id) => nameOf.has(id));
        if (ids.length === 0) continue;
        q.knowledgePointIds = ids;
        q.warnings.push(
          `第 ${q.no} 题没有标注知识点，已按题库中的相似试题推荐“${names(ids, nameOf)}”，请核对`,
        );
      }
    }
  }

  async importSave(auth: AuthContext, body: z.output<typeof ImportSaveSchema>): Promise<PaperDocument> {
    const orgId = requireSchool(auth);
    const subject = await this.repo.findSubject(body.subjectId);
    if (!subject) throw notFound('学科不存在');
    const textbookId = await this.checkTextbook(subject.id, body.textbookId ?? null);
    const types = new Map((await this.repo.questionTypes(subject.id)).map((t) => [t.id, t]));
    const kpIds = new Set((await this.repo.knowledgePoints(subject.id)).map((k) => k.id));
    const now = this.now();
    const draft: Draft = { title: body.title, subtitle: body.subtitle, status: 'draft', sections: [] };
    const questions: Parameters<PapersRepository['insertQuestion']>[0][] = [];
    for (const section of body.sections) {
      if (!types.has(section.typeId)) throw new AppError('VALIDATION', '题型不属于所选学科');
      const items: Draft['sections'][number]['items'] = [];
      for (const q of section.questions) {
        if (!types.has(q.typeId)) throw new AppError('VALIDATION', '题型不属于所选学科');
        const stem = sanitizeRich(q.stem);
        if (!plainText(stem) && !stem.includes('<img')) {
          throw new AppError('VALIDATION', `第 ${q.no} 题的题干是空的，请补充或删除该题`);
        }
        const id = newId();
        questions.push({
          id,
          subject_id: subject.id,
          type_id: q.typeId,
          org_id: orgId,
          owner_user_id: auth.userId,
          difficulty: q.difficulty,
          stem,
          options: JSON.stringify(
            q.options.map((o) => ({ label: o.label, content: sanitizeRich(o.content) })),
          ),
          answer: sanitizeRich(q.answer),
          analysis: sanitizeRich(q.analysis),
          year: new Date(this.clock()).getUTCFullYear(),
          source: 'Word 导入',
          created_at: now,
          booknodeIds: [],
          knowledgePointIds: q.knowledgePointIds.filter((k) => kpIds.has(k)),
        });
        items.push({ questionId: id, score: q.score });
      }
      draft.sections.push({
        typeId: section.typeId,
        title: section.title,
        note: '',
        defaultScore: section.defaultScore,
        items,
      });
    }
    // The questions first (in one transaction), then the paper that holds them.
    await this.repo.transaction(async (repo) => {
      for (const q of questions) await repo.insertQuestion(q);
    });
    const row = await this.create(auth, { subjectId: subject.id, textbookId, source: 'word', draft });
    return this.document(row, auth);
  }
}

/** A question needs this many distinctive words before a suggestion is trusted. */
const MIN_SUGGESTION_WORDS = 3;
/** Bank questions compared with each imported one. */
const SUGGESTION_CANDIDATES = 5;
/** Share of the imported question's distinctive words a bank question must hold to lend its knowledge points. */
const SUGGESTION_MIN_SHARE = 0.6;
/** Words looked up per question (the first ones: a stem says what it is about early). */
const SUGGESTION_MAX_WORDS = 24;

/** Words of two or more characters that are not numbers: what tells one question's topic from another's. */
export function distinctiveWords(html: string): string[] {
  const words = tokenize(contentText(html)).filter((w) => w.length >= 2 && !/^\d+$/.test(w));
  return [...new Set(words)].slice(0, SUGGESTION_MAX_WORDS);
}

/** Share of `words` found among a bank question's indexed tokens. */
export function sharedShare(words: readonly string[], tokens: string): number {
  if (words.length === 0) return 0;
  const have = new Set(tokens.split(' '));
  return words.filter((w) => have.has(w)).length / words.length;
}

function names(ids: string[], nameOf: Map<string, string>, max = 5): string {
  const list = ids.slice(0, max).map((id) => nameOf.get(id) ?? id);
  return `${list.join('、')}${ids.length > max ? ` 等` : ''}`;
}

/** Maps a parsed document to the subject's types and knowledge points, adding warnings. */
export function previewFor(
  parsed: ParsedPaper,
  subjectId: string,
  types: { id: string; name: string; objective: number }[],
  kps: { id: string; name: string }[],
): ImportPreview {
  const warnings = [...parsed.warnings];
  const byName = new Map(types.map((t) => [t.name, t]));
  const fallback = types.find((t) => t.name === '解答题') ?? types.at(-1);
  if (!fallback) throw new AppError('VALIDATION', '该学科还没有题型，无法导入');
  const pickType = (name: string | null, hasOptions: boolean, answer: string) => {
    if (name) {
      const exact = byName.get(name);
      if (exact) return exact;
    }
    if (hasOptions) {
      const multi = /^[A-H]{2,}$/.test(answer.replace(/[\s,，、]/g, ''));
      return byName.get(multi ? '多选题' : '单选题') ?? byName.get('单选题') ?? fallback;
    }
    if (/^(正确|错误|对|错|√|×|✓|✗)$/.test(answer.trim()) && byName.has('判断题'))
      return byName.get('判断题')!;
    if (name && byName.has(name)) return byName.get(name)!;
    return fallback;
  };
  const kpByName = new Map(kps.map((k) => [k.name, k.id]));
  const sections: ImportPreview['sections'] = [];
  let count = 0;
  for (const s of parsed.sections) {
    const out: ImportPreview['sections'][number] = {
      title: s.title,
      typeId: '',
      defaultScore: s.score ?? 0,
      questions: [],
    };
    for (const q of s.questions) {
      count += 1;
      const qWarnings = [...q.warnings];
      const type = pickType(s.typeName, q.options.length > 0, plainText(q.answer));
      const kpIds: string[] = [];
      for (const name of q.knowledgePoints) {
        const id = kpByName.get(name);
        if (id) kpIds.push(id);
        else qWarnings.push(`第 ${q.no} 题的知识点“${name}”不在知识点库中，请重新选择`);
      }
      if (type.objective === 1 && q.options.length === 0 && type.name !== '判断题') {
        qWarnings.push(`第 ${q.no} 题是${type.name}，但没有识别到选项`);
      }
      out.questions.push({
        no: q.no,
        typeId: type.id,
        stem: q.stem,
        options: q.options,
        answer: q.answer,
        analysis: q.analysis,
        difficulty: 3,
        knowledgePointIds: kpIds,
        score: null,
        warnings: qWarnings,
      });
    }
    const firstType = out.questions[0]?.typeId;
    out.typeId = (s.typeName ? byName.get(s.typeName)?.id : undefined) ?? firstType ?? fallback.id;
    if (!s.score) {
      const typeName = types.find((t) => t.id === out.typeId)?.name ?? '';
      out.defaultScore = defaultScoreOf(typeName);
      if (out.questions.length > 0)
        warnings.push(`“${s.title}”没有写明每小题分值，已按 ${out.defaultScore} 分计，请核对`);
    }
    if (out.questions.length > 0) sections.push(out);
  }
  if (count === 0) warnings.push('没有识别到试题：请确认题目以“1.”或“1、”开头，选项以“A.”开头');
  return {
    subjectId,
    title: parsed.title,
    subtitle: parsed.subtitle,
    sections,
    warnings,
    questionCount: count,
  };
}
