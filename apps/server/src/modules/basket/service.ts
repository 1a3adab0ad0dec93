import type { Basket } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { CatalogRepository } from '../catalog/repository.js';
import type { BasketRepository } from './repository.js';

function requireSchool(auth: AuthContext): string {
  if (!auth.orgId) throw forbidden();
  return auth.orgId;
}

/** The question basket of SPEC §4: one paper per stage + subject, grouped by question type. */
export class BasketService {
  constructor(
    private readonly repo: BasketRepository,
    private readonly catalog: CatalogRepository,
    private readonly clock: () => number = Date.now,
  ) {}

  async get(auth: AuthContext): Promise<Basket> {
    const orgId = requireSchool(auth);
    const rows = await this.repo.listBasketRows(orgId, auth.userId);
    const basket: Basket = { sumCount: rows.length, paperInfo: [], type: {}, questionIds: [] };
    const papers = new Map<string, Basket['paperInfo'][number]>();
    const sections = new Map<string, Basket['type'][string][number]>();
    for (const row of rows) {
      let paper = papers.get(row.paper_id);
      if (!paper) {
        paper = {
          id: row.paper_id,
          stageId: row.stage_id,
          subjectId: row.subject_id,
          stageName: row.stage_name,
          subjectName: row.subject_name,
          testPaperTextbook: row.textbook_id,
          questionCount: 0,
        };
        papers.set(row.paper_id, paper);
        basket.paperInfo.push(paper);
        basket.type[row.paper_id] = [];
      }
      paper.questionCount += 1;
      let section = sections.get(row.section_id);
      if (!section) {
        section = { id: row.section_id, typeId: row.type_id, dataName: row.type_name, questionCount: 0 };
        sections.set(row.section_id, section);
        basket.type[row.paper_id]!.push(section);
      }
      section.questionCount += 1;
      basket.questionIds.push(row.question_id);
    }
    return basket;
  }

  /** Adds questions, each to the paper of its own stage and subject. */
  async add(auth: AuthContext, questionIds: string[]): Promise<Basket> {
    const orgId = requireSchool(auth);
    const unique = [...new Set(questionIds)];
    const found = await this.catalog.findVisibleQuestions(orgId, auth.userId, unique);
    if (found.length !== unique.length) throw notFound('试题不存在或已删除');
    const byId = new Map(found.map((q) => [q.id, q]));
    const now = new Date(this.clock()).toISOString();
    await this.repo.transaction(async (repo) => {
      for (const id of unique) {
        const q = byId.get(id)!;
        const paperId = await repo.ensurePaper({
          orgId,
          userId: auth.userId,
          stageId: q.stage_id,
          subjectId: q.subject_id,
          now,
        });
        const sectionId = await repo.ensureSection(paperId, q.type_id);
        await repo.addItem({ paperId, sectionId, questionId: id, now });
      }
    });
    return this.get(auth);
  }

  async remove(auth: AuthContext, questionIds: string[]): Promise<Basket> {
    const orgId = requireSchool(auth);
    await this.repo.transaction(async (repo) => {
      await repo.removeQuestions(orgId, auth.userId, questionIds);
      await repo.pruneEmpty(orgId, auth.userId);
    });
    return this.get(auth);
  }

  /** Clears one basket paper of the caller. */
  async clear(auth: AuthContext, paperId: string): Promise<Basket> {
    const orgId = requireSchool(auth);
    if (!(await this.repo.findPaperOf(orgId, auth.userId, paperId))) throw notFound('试题篮不存在');
    await this.repo.transaction((repo) => repo.deletePaper(paperId));
    return this.get(auth);
  }

  /** Deletes one question-type row (with its questions) of the caller's basket. */
  async deleteType(auth: AuthContext, sectionId: string): Promise<Basket> {
    const orgId = requireSchool(auth);
    if (!(await this.repo.findSectionOf(orgId, auth.userId, sectionId))) throw notFound('题型不存在');
    await this.repo.transaction(async (repo) => {
      await repo.deleteSection(sectionId);
      await repo.pruneEmpty(orgId, auth.userId);
    });
    return this.get(auth);
  }
}
