import type { z } from 'zod';
import {
  QUESTION_RECYCLE_DAYS,
  type BulkResult,
  type ImportQuestionsResult,
  type ImportQuestionsSchema,
  type MySharesQuerySchema,
  type Question,
  type QuestionInputSchema,
  type QuestionRecycleQuerySchema,
  type RecycledQuestion,
  type ReviewQuestionSchema,
  type ReviewStatus,
  type SchoolQuestion,
  type SchoolQuestionsQuerySchema,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { QUESTION_TYPE_NAMES as TYPES } from '../../i18n/messages.js';
import { JUDGE_ANSWERS } from '../../i18n/questions.js';
import { AppError } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId } from '../../lib/ids.js';
import {
  QUESTION_MESSAGES as M,
  assertOwnPersonal,
  assertReadable,
  assertSchoolAdmin,
  isOwnPersonal,
} from './policy.js';
import { presentQuestions } from './presenter.js';
import type { QuestionRecord, QuestionWrite, QuestionsRepository } from './repository.js';
import { countBlanks, richTextToPlain, sanitizeRichText } from './rich-content.js';
import { parseKeyword, questionSearchTokens } from './search-text.js';

const DAY_MS = 86_400_000;
const LETTERS = 'ABCDEFGH';
const CHOICE_TYPES = new Set<string>([TYPES.single, TYPES.multiple]);

type Input = z.output<typeof QuestionInputSchema>;

const badInput = (message: string) => new AppError('VALIDATION', message);

/**
 * The answer as stored: a choice answer as its sorted letters (one for 单选题, two or more for 多选题), a 判断题's as
 * 正确 or 错误; any other answer as written.
 */
function checkedAnswer(typeName: string, answer: string, optionCount: number): string {
  if (CHOICE_TYPES.has(typeName)) {
    if (optionCount < 2) throw badInput(M.tooFewOptions);
    const letters = LETTERS.slice(0, optionCount);
    const picked = [
      ...new Set(
        richTextToPlain(answer)
          .toUpperCase()
          .replace(/[\s,，、]/g, ''),
      ),
    ];
    if (picked.length === 0 || picked.some((c) => !letters.includes(c))) {
      throw badInput(M.choiceAnswer(`${letters[0]}–${letters[letters.length - 1]}`));
    }
    if (typeName === TYPES.single && picked.length !== 1) throw badInput(M.singleAnswer);
    if (typeName === TYPES.multiple && picked.length < 2) throw badInput(M.multipleAnswer);
    return picked.sort().join('');
  }
  if (typeName === TYPES.trueFalse) {
    const judged = JUDGE_ANSWERS[richTextToPlain(answer)];
    if (!judged) throw badInput(M.judgeAnswer);
    return judged;
  }
  return answer;
}

/** A question ready to write: sanitised content, checked links and its search tokens. */
interface Prepared {
  write: QuestionWrite;
  knowledgePoints: { id: string; name: string }[];
  booknodeIds: string[];
  searchTokens: string;
}

/** Own questions, edits as personal copies, sharing to the school with review, and the recycle bin. */
export class QuestionsService {
  constructor(
    private readonly repo: QuestionsRepository,
    private readonly clock: () => number = Date.now,
  ) {}

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  private async present(row: QuestionRecord): Promise<Question> {
    const [question] = await presentQuestions(this.repo, [row]);
    return question!;
  }

  async detail(auth: AuthContext, id: string): Promise<Question> {
    requireSchool(auth);
    return this.present(assertReadable(await this.repo.findQuestion(id), auth));
  }

  /** Checks and cleans what a teacher wrote: type of the subject, links of the subject, choice answers. */
  private async prepare(input: Input): Promise<Prepared> {
    const type = await this.repo.findType(input.typeId);
    if (!type || type.subjectId !== input.subjectId) throw badInput(M.wrongType);

    const stem = sanitizeRichText(input.stem);
    if (richTextToPlain(stem) === '' && !stem.includes('<img')) throw badInput(M.emptyStem);
    const choice = CHOICE_TYPES.has(type.name);
    const options = choice
      ? input.options
          .map((o) => sanitizeRichText(o.content))
          .filter((content) => content !== '')
          .map((content, i) => ({ label: LETTERS[i]!, content }))
      : [];
    const answer = checkedAnswer(type.name, sanitizeRichText(input.answer), options.length);
    const blankCount =
      type.name === TYPES.blank ? (input.blankCount ?? Math.max(1, countBlanks(stem))) : null;

    const kpIds = [...new Set(input.knowledgePointIds)];
    const knowledgePoints = await this.repo.knowledgePointsIn(input.subjectId, kpIds);
    if (knowledgePoints.length !== kpIds.length) throw badInput(M.wrongKnowledgePoint);
    const booknodeIds = [...new Set(input.booknodeIds)];
    if ((await this.repo.booknodesIn(input.subjectId, booknodeIds)).length !== booknodeIds.length) {
      throw badInput(M.wrongChapter);
    }
    const analysis = sanitizeRichText(input.analysis);
    const write: QuestionWrite = {
      subjectId: input.subjectId,
      typeId: input.typeId,
      difficulty: input.difficulty,
      stem,
      options,
      answer,
      analysis,
      blankCount,
      year: input.year ?? null,
      source: input.source?.trim() || null,
      region: input.region ?? null,
    };
    const ordered = kpIds.map((id) => knowledgePoints.find((k) => k.id === id)!);
    return {
      write,
      knowledgePoints: ordered,
      booknodeIds,
      searchTokens: questionSearchTokens({
        stem,
        options,
        answer,
        analysis,
        knowledgePoints: ordered.map((k) => k.name),
      }),
    };
  }

  async create(auth: AuthContext, input: Input): Promise<Question> {
    const orgId = requireSchool(auth);
    const prepared = await this.prepare(input);
    const id = newId();
    await this.repo.transaction((repo) =>
      repo.insert({
        id,
        ...prepared,
        owner: 'personal',
        orgId,
        ownerUserId: auth.userId,
        originId: null,
        reviewStatus: 'approved',
        now: this.now(),
      }),
    );
    return this.present((await this.repo.findQuestion(id))!);
  }

  /**
   * Questions read from a Word paper, into 我的题库 in one transaction (all or none), each checked as `create` checks
   * one; a refusal names the question. With `share`, each is then shared to the school bank for review.
   */
  async importMany(
    auth: AuthContext,
    body: z.output<typeof ImportQuestionsSchema>,
  ): Promise<ImportQuestionsResult> {
    const orgId = requireSchool(auth);
    const prepared: Prepared[] = [];
    for (const [i, input] of body.questions.entries()) {
      try {
        prepared.push(await this.prepare(input));
      } catch (error) {
        if (error instanceof AppError && error.code === 'VALIDATION')
          throw badInput(M.importedQuestion(i + 1, error.message));
        throw error;
      }
    }
    const ids = prepared.map(() => newId());
    const now = this.now();
    await this.repo.transaction(async (repo) => {
      for (const [i, p] of prepared.entries()) {
        await repo.insert({
          id: ids[i]!,
          ...p,
          owner: 'personal',
          orgId,
          ownerUserId: auth.userId,
          originId: null,
          reviewStatus: 'approved',
          now,
        });
      }
    });
    if (body.share) for (const id of ids) await this.share(auth, id);
    return { ids, shared: body.share ? ids.length : 0 };
  }

  /** The caller's own question changes in place; any other question they see is copied into theirs. */
  async edit(auth: AuthContext, id: string, input: Input): Promise<Question> {
    const orgId = requireSchool(auth);
    const row = assertReadable(await this.repo.findQuestion(id), auth);
    const prepared = await this.prepare(input);
    const now = this.now();
    if (isOwnPersonal(row, auth)) {
      await this.repo.transaction((repo) =>
        repo.update(
          id,
          prepared.write,
          now,
          prepared.knowledgePoints.map((k) => k.id),
          prepared.booknodeIds,
          prepared.searchTokens,
        ),
      );
      return this.present((await this.repo.findQuestion(id))!);
    }
    const copyId = newId();
    await this.repo.transaction((repo) =>
      repo.insert({
        id: copyId,
        ...prepared,
        owner: 'personal',
        orgId,
        ownerUserId: auth.userId,
        originId: row.id,
        reviewStatus: 'approved',
        now,
      }),
    );
    return this.present((await this.repo.findQuestion(copyId))!);
  }

  /** To the recycle bin: restorable for QUESTION_RECYCLE_DAYS days. */
  async remove(auth: AuthContext, id: string): Promise<void> {
    requireSchool(auth);
    assertOwnPersonal(await this.repo.findQuestion(id), auth);
    await this.repo.setDeleted(id, this.now());
  }

  async share(auth: AuthContext, id: string): Promise<SchoolQuestion> {
    const orgId = requireSchool(auth);
    const row = assertOwnPersonal(await this.repo.findQuestion(id), auth);
    if (await this.repo.findPendingShare(orgId, row.id)) throw new AppError('CONFLICT', M.alreadyPending);
    const [kps, chapters] = await Promise.all([
      this.repo.knowledgePointsOf([row.id]),
      this.repo.chaptersOf([row.id]),
    ]);
    const copyId = newId();
    const write: QuestionWrite = {
      subjectId: row.subjectId,
      typeId: row.typeId,
      difficulty: row.difficulty,
      stem: row.stem,
      options: row.options,
      answer: row.answer,
      analysis: row.analysis,
      blankCount: row.blankCount,
      year: row.year,
      source: row.source,
      region: row.region,
    };
    const knowledgePoints = kps.map((k) => ({ id: k.id, name: k.name }));
    await this.repo.transaction((repo) =>
      repo.insert({
        id: copyId,
        write,
        owner: 'school',
        orgId,
        ownerUserId: auth.userId,
        originId: row.id,
        reviewStatus: 'pending',
        now: this.now(),
        knowledgePoints,
        booknodeIds: chapters.map((c) => c.id),
        searchTokens: questionSearchTokens({
          stem: row.stem,
          options: row.options,
          answer: row.answer,
          analysis: row.analysis,
          knowledgePoints: knowledgePoints.map((k) => k.name),
        }),
      }),
    );
    return (await this.schoolRecords([(await this.repo.findQuestion(copyId))!]))[0]!;
  }

  private async schoolRecords(rows: QuestionRecord[]): Promise<SchoolQuestion[]> {
    const questions = await presentQuestions(this.repo, rows);
    const names = await this.repo.nicknames(
      rows.flatMap((r) => [r.ownerUserId, r.reviewedBy]).filter((x): x is string => !!x),
    );
    const person = (id: string | null) => (id ? { id, nickname: names.get(id) ?? '' } : null);
    return rows.map((r, i) => ({
      question: questions[i]!,
      reviewStatus: r.reviewStatus as ReviewStatus,
      sharedBy: person(r.ownerUserId),
      sharedAt: r.createdAt,
      reviewedBy: person(r.reviewedBy),
      reviewedAt: r.reviewedAt,
      reviewNote: r.reviewNote,
    }));
  }

  async myShares(auth: AuthContext, q: z.output<typeof MySharesQuerySchema>) {
    const orgId = requireSchool(auth);
    const { total, ids } = await this.repo.pageSchool({
      orgId,
      status: q.status,
      sharedBy: auth.userId,
      oldestFirst: false,
      page: { offset: (q.page - 1) * q.size, limit: q.size },
    });
    const records = await this.schoolRecords(await this.repo.questionsByIds(ids));
    return { records, total, page: q.page, size: q.size };
  }

  async schoolQuestions(auth: AuthContext, q: z.output<typeof SchoolQuestionsQuerySchema>) {
    const orgId = q.status === 'approved' ? requireSchool(auth) : assertSchoolAdmin(auth);
    const keyword = parseKeyword(q.keyword);
    if (keyword) await this.repo.indexPending();
    const { total, ids } = await this.repo.pageSchool({
      orgId,
      status: q.status,
      subjectId: q.subjectId,
      keyword,
      oldestFirst: q.status === 'pending',
      page: { offset: (q.page - 1) * q.size, limit: q.size },
    });
    const records = await this.schoolRecords(await this.repo.questionsByIds(ids));
    return { records, total, page: q.page, size: q.size };
  }

  async review(auth: AuthContext, id: string, body: z.output<typeof ReviewQuestionSchema>) {
    const orgId = assertSchoolAdmin(auth);
    const row = await this.repo.findQuestion(id);
    if (!row || row.owner !== 'school' || row.orgId !== orgId || row.deletedAt) {
      throw new AppError('NOT_FOUND', M.notFound);
    }
    if (row.reviewStatus !== 'pending') throw new AppError('CONFLICT', M.alreadyReviewed);
    await this.repo.setReview(id, {
      status: body.action === 'approve' ? 'approved' : 'rejected',
      by: auth.userId,
      at: this.now(),
      note: body.note?.trim() || null,
    });
    return (await this.schoolRecords([(await this.repo.findQuestion(id))!]))[0]!;
  }

  async withdraw(auth: AuthContext, id: string): Promise<void> {
    const orgId = assertSchoolAdmin(auth);
    const row = await this.repo.findQuestion(id);
    if (!row || row.owner !== 'school' || row.orgId !== orgId || row.deletedAt) {
      throw new AppError('NOT_FOUND', M.notFound);
    }
    await this.repo.setDeleted(id, this.now());
  }

  private recycleSince(): string {
    return new Date(this.clock() - QUESTION_RECYCLE_DAYS * DAY_MS).toISOString();
  }

  async recycleBin(auth: AuthContext, q: z.output<typeof QuestionRecycleQuerySchema>) {
    requireSchool(auth);
    const { total, ids } = await this.repo.pageRecycle({
      userId: auth.userId,
      since: this.recycleSince(),
      subjectId: q.subjectId,
      page: { offset: (q.page - 1) * q.size, limit: q.size },
    });
    const rows = await this.repo.questionsByIds(ids);
    const questions = await presentQuestions(this.repo, rows);
    const records: RecycledQuestion[] = rows.map((r, i) => ({
      question: questions[i]!,
      deletedAt: r.deletedAt!,
      purgeAt: new Date(Date.parse(r.deletedAt!) + QUESTION_RECYCLE_DAYS * DAY_MS).toISOString(),
    }));
    return { records, total, page: q.page, size: q.size };
  }

  /** The caller's question if it is in their recycle bin (deleted, not expired, not purged). */
  private inRecycleBin(row: QuestionRecord | undefined, auth: AuthContext): row is QuestionRecord {
    return (
      !!row &&
      row.owner === 'personal' &&
      row.ownerUserId === auth.userId &&
      !!row.deletedAt &&
      !row.purgedAt &&
      row.deletedAt >= this.recycleSince()
    );
  }

  async restore(auth: AuthContext, ids: string[]): Promise<BulkResult> {
    requireSchool(auth);
    const results: BulkResult['results'] = [];
    for (const id of [...new Set(ids)]) {
      const row = await this.repo.findQuestion(id);
      if (!this.inRecycleBin(row, auth)) {
        results.push({ id, ok: false, message: M.notInRecycleBin });
        continue;
      }
      await this.repo.setDeleted(id, null);
      results.push({ id, ok: true, message: null });
    }
    return { results };
  }

  async deleteForever(auth: AuthContext, ids: string[]): Promise<BulkResult> {
    requireSchool(auth);
    const results: BulkResult['results'] = [];
    for (const id of [...new Set(ids)]) {
      const row = await this.repo.findQuestion(id);
      if (!this.inRecycleBin(row, auth)) {
        results.push({ id, ok: false, message: M.notInRecycleBin });
        continue;
      }
      await this.repo.deleteForever(id, this.now());
      results.push({ id, ok: true, message: null });
    }
    return { results };
  }
}
