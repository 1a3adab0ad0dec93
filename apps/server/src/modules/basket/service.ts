import type { Basket } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import type { CatalogRepository } from '../catalog/repository.js';
import type { BasketRepository } from './repository.js';
import { CATALOG_TEXT } from '../../i18n/messages.js';

/** Baskets kept in memory, at most this many (least recently read go first). */
const CACHE_SIZE = 5_000;

/**
 * The question basket of SPEC §4: one paper per stage + subject, grouped by question type.
 * A basket read is the hottest call of composition: the built basket is kept in memory under the member's
 * `basket_version`, which every change bumps in its transaction and one indexed read checks — so a cached
 * basket is served after that one read and is never stale, on any instance.
 */
export class BasketService {
  private readonly cache = new Map<string, { version: number; basket: Basket }>();

  constructor(
    private readonly repo: BasketRepository,
    private readonly catalog: CatalogRepository,
    private readonly clock: () => number = Date.now,
  ) {}

  async get(auth: AuthContext): Promise<Basket> {
    const orgId = requireSchool(auth);
    const key = `${orgId}:${auth.userId}`;
    const hit = this.cache.get(key);
    // Read before the basket, so a basket kept under this version is never newer than its label.
    const version = await this.repo.basketVersion(orgId, auth.userId);
    if (hit && hit.version === version) return hit.basket;
    const basket = await this.build(orgId, auth.userId);
    this.cache.delete(key);
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { version, basket });
    return basket;
  }

  /** After a change: the new basket, read fresh. */
  private async fresh(auth: AuthContext, orgId: string): Promise<Basket> {
    this.cache.delete(`${orgId}:${auth.userId}`);
    return this.build(orgId, auth.userId);
  }

  private async build(orgId: string, userId: string): Promise<Basket> {
    const rows = await this.repo.listBasketLines(orgId, userId);
    const basket: Basket = { sumCount: rows.length, paperInfo: [], type: {}, questionIds: [] };
    const papers = new Map<string, Basket['paperInfo'][number]>();
    const sections = new Map<string, Basket['type'][string][number]>();
    for (const row of rows) {
      let paper = papers.get(row.paperId);
      if (!paper) {
        paper = {
          id: row.paperId,
          stageId: row.stageId,
          subjectId: row.subjectId,
          stageName: row.stageName,
          subjectName: row.subjectName,
          testPaperTextbook: row.textbookId,
          questionCount: 0,
        };
        papers.set(row.paperId, paper);
        basket.paperInfo.push(paper);
        basket.type[row.paperId] = [];
      }
      paper.questionCount += 1;
      let section = sections.get(row.sectionId);
      if (!section) {
        section = { id: row.sectionId, typeId: row.typeId, dataName: row.typeName, questionCount: 0 };
        sections.set(row.sectionId, section);
        basket.type[row.paperId]!.push(section);
      }
      section.questionCount += 1;
      basket.questionIds.push(row.questionId);
    }
    return basket;
  }

  /** Adds questions, each to the paper of its own stage and subject. */
  async add(auth: AuthContext, questionIds: string[]): Promise<Basket> {
    const orgId = requireSchool(auth);
    const unique = [...new Set(questionIds)];
    const found = await this.catalog.findVisibleQuestions(orgId, auth.userId, unique);
    if (found.length !== unique.length) throw notFound(CATALOG_TEXT.questionNotFound);
    const byId = new Map(found.map((q) => [q.id, q]));
    const now = new Date(this.clock()).toISOString();
    await this.repo.transaction(async (repo) => {
      for (const id of unique) {
        const q = byId.get(id)!;
        const paperId = await repo.ensurePaper({
          orgId,
          userId: auth.userId,
          stageId: q.stageId,
          subjectId: q.subjectId,
          now,
        });
        const sectionId = await repo.ensureSection(paperId, q.typeId);
        await repo.addItem({ paperId, sectionId, questionId: id, now });
      }
      await repo.bumpVersion(orgId, auth.userId);
    });
    return this.fresh(auth, orgId);
  }

  async remove(auth: AuthContext, questionIds: string[]): Promise<Basket> {
    const orgId = requireSchool(auth);
    await this.repo.transaction(async (repo) => {
      await repo.removeQuestions(orgId, auth.userId, questionIds);
      await repo.pruneEmpty(orgId, auth.userId);
      await repo.bumpVersion(orgId, auth.userId);
    });
    return this.fresh(auth, orgId);
  }

  /** Clears one basket paper of the caller. */
  async clear(auth: AuthContext, paperId: string): Promise<Basket> {
    const orgId = requireSchool(auth);
    if (!(await this.repo.findPaperOf(orgId, auth.userId, paperId)))
      throw notFound(CATALOG_TEXT.basketNotFound);
    await this.repo.transaction(async (repo) => {
      await repo.deletePaper(paperId);
      await repo.bumpVersion(orgId, auth.userId);
    });
    return this.fresh(auth, orgId);
  }

  /** Deletes one question-type row (with its questions) of the caller's basket. */
  async deleteType(auth: AuthContext, sectionId: string): Promise<Basket> {
    const orgId = requireSchool(auth);
    if (!(await this.repo.findSectionOf(orgId, auth.userId, sectionId)))
      throw notFound(CATALOG_TEXT.typeNotFound);
    await this.repo.transaction(async (repo) => {
      await repo.deleteSection(sectionId);
      await repo.pruneEmpty(orgId, auth.userId);
      await repo.bumpVersion(orgId, auth.userId);
    });
    return this.fresh(auth, orgId);
  }
}
