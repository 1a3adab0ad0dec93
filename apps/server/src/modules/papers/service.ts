import {
  addDays,
  dayStartInZone,
  RECYCLE_BIN_DAYS,
  type PaperListQuery,
  type PaperSettingDefaults,
  type PaperSettings,
  type PaperSummary,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId } from '../../lib/ids.js';
import { PAPER_MESSAGES, assertEditable, assertOwned, assertReadable } from './policy.js';
import { STANDARD_SETTINGS, type PaperListKind } from './repository.js';
// One sanitiser for all rich content: the question bank's (it also keeps formulas intact).
import { richTextToPlain as plainText, sanitizeRichText as sanitizeRich } from '../questions/rich-content.js';
import { PAPERS_TEXT as T } from '../../i18n/papers.js';

import { DAY_MS, draftOf } from './draft.js';
import { PapersWord } from './word.js';

export {
  NO_HOMEWORK_YET,
  defaultScoreOf,
  sectionNumeral,
  subtreeIds,
  type RecentHomeworkQuestions,
} from './draft.js';
export { distinctiveWords, previewFor, sharedShare } from './word.js';

/** The papers service the routes construct: editing, settings and the paper library, over the use cases it extends. */
export class PapersService extends PapersWord {
  protected async editable(auth: AuthContext, id: string, version: number) {
    const paper = assertEditable(await this.repo.findPaper(id), auth);
    const doc = await this.document(paper, auth);
    return { paper, doc, draft: draftOf(doc), version };
  }

  async addQuestions(auth: AuthContext, id: string, body: { version: number; questionIds: string[] }) {
    const { paper, draft } = await this.editable(auth, id, body.version);
    const orgId = requireSchool(auth);
    const visible = await this.repo.visibleQuestionIds(orgId, auth.userId, body.questionIds);
    if (body.questionIds.some((q) => !visible.has(q))) throw notFound(T.questionNotFound);
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
      throw notFound(T.notInPaper);
    }
    if (draft.sections.some((s) => s.items.some((i) => i.questionId === body.newQuestionId))) {
      throw new AppError('VALIDATION', T.replacementInPaper);
    }
    const visible = await this.repo.visibleQuestionIds(orgId, auth.userId, [body.newQuestionId]);
    if (!visible.has(body.newQuestionId)) throw notFound(T.questionNotFound);
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
    if (!item) throw notFound(T.notInPaper);
    const [original] = await this.repo.questionsByIds([body.questionId]);
    if (!original) throw notFound(T.questionNotFound);
    const stem = sanitizeRich(body.stem);
    if (!plainText(stem) && !stem.includes('<img')) throw new AppError('VALIDATION', T.stemRequired);
    const copyId = newId();
    const [kps, booknodeIds] = await Promise.all([
      this.repo.knowledgePointsOf([original.id]),
      this.repo.booknodeIdsOf([original.id]),
    ]);
    await this.repo.insertQuestion({
      id: copyId,
      subjectId: original.subjectId,
      typeId: original.typeId,
      orgId,
      ownerUserId: auth.userId,
      difficulty: body.difficulty ?? original.difficulty,
      stem,
      options: body.options.map((o) => ({ label: o.label, content: sanitizeRich(o.content) })),
      answer: sanitizeRich(body.answer),
      analysis: sanitizeRich(body.analysis),
      year: original.year,
      source: T.adaptedSource,
      createdAt: this.now(),
      booknodeIds,
      knowledgePointIds: kps.map((k) => k.id),
    });
    item.questionId = copyId;
    return this.write(auth, paper, body.version, draft);
  }

  // ───────────── settings ─────────────

  async settings(auth: AuthContext, id: string): Promise<PaperSettings> {
    return assertReadable(await this.repo.findPaper(id), auth).settings;
  }

  /** Settings are saved apart from the document (last write wins), so /paperset never makes /edit stale. */
  async saveSettings(auth: AuthContext, id: string, settings: PaperSettings): Promise<PaperSettings> {
    const paper = assertEditable(await this.repo.findPaper(id), auth);
    await this.repo.updatePaper(paper.id, { settings, updatedAt: this.now() });
    return settings;
  }

  /** The teacher's own defaults, or the standard settings when none were saved. */
  async saveSettingDefaults(auth: AuthContext, settings: PaperSettings): Promise<PaperSettingDefaults> {
    await this.repo.saveSettingDefaults(auth.userId, settings, this.now());
    return { settings, saved: true };
  }

  async resetSettingDefaults(auth: AuthContext): Promise<PaperSettingDefaults> {
    await this.repo.deleteSettingDefaults(auth.userId);
    return { settings: STANDARD_SETTINGS, saved: false };
  }

  // ───────────── my papers, school papers, recycle bin ─────────────

  protected async summaryOf(id: string, auth: AuthContext) {
    const [summary] = await this.summaries([(await this.repo.findPaper(id))!], auth);
    return summary!;
  }

  async rename(auth: AuthContext, id: string, title: string): Promise<PaperSummary> {
    const paper = assertEditable(await this.repo.findPaper(id), auth);
    // A rename changes the document: an /edit holding the old version must reload.
    await this.repo.updatePaper(paper.id, {
      title,
      version: paper.version + 1,
      contentHash: '',
      updatedAt: this.now(),
    });
    return this.summaryOf(paper.id, auth);
  }

  async copy(auth: AuthContext, id: string): Promise<PaperSummary> {
    const source = assertReadable(await this.repo.findPaper(id), auth);
    if (source.deletedAt) throw new AppError('CONFLICT', PAPER_MESSAGES.inRecycleBin);
    const doc = await this.document(source, auth);
    const draft = draftOf(doc);
    for (const s of draft.sections) s.id = undefined;
    if (source.owner !== 'system' || !source.isTemplate) draft.title = T.copyTitle(draft.title).slice(0, 80);
    draft.status = 'draft';
    const row = await this.create(auth, {
      subjectId: source.subjectId,
      textbookId: source.textbookId,
      source: source.isTemplate ? 'template' : 'copy',
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
      sharedAt: body.shared ? (paper.sharedAt ?? this.now()) : null,
      isTemplate: body.shared && body.asTemplate,
    });
    return this.summaryOf(paper.id, auth);
  }

  async remove(auth: AuthContext, id: string): Promise<void> {
    const paper = assertOwned(await this.repo.findPaper(id), auth);
    if (paper.deletedAt) return;
    await this.repo.updatePaper(paper.id, { deletedAt: this.now() });
  }

  async restore(auth: AuthContext, id: string): Promise<PaperSummary> {
    const paper = assertOwned(await this.repo.findPaper(id), auth);
    if (!paper.deletedAt) throw new AppError('CONFLICT', T.notInRecycleBin);
    await this.repo.updatePaper(paper.id, { deletedAt: null, updatedAt: this.now() });
    return this.summaryOf(paper.id, auth);
  }

  async purge(auth: AuthContext, id: string): Promise<void> {
    const paper = assertOwned(await this.repo.findPaper(id), auth);
    if (!paper.deletedAt) throw new AppError('CONFLICT', PAPER_MESSAGES.notInRecycleBin);
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
    const zone = q.from || q.to ? await this.repo.schoolTimeZone(orgId) : undefined;
    const { total, papers } = await this.repo.pagePapers({
      kind,
      orgId,
      userId: auth.userId,
      keyword: q.keyword || undefined,
      subjectId: q.subjectId,
      status: q.status,
      fromIso: q.from ? dayStartInZone(q.from, zone) : undefined,
      toIso: q.to
        ? new Date(Date.parse(dayStartInZone(addDays(q.to, 1), zone)) - 1).toISOString()
        : undefined,
      recycleCutoffIso: new Date(this.clock() - RECYCLE_BIN_DAYS * DAY_MS).toISOString(),
      offset: (q.page - 1) * q.size,
      limit: q.size,
    });
    return { records: await this.summaries(papers, auth), total, page: q.page, size: q.size };
  }

  // ───────────── smart composition ─────────────
}
