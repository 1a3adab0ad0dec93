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
    const papers = await this.repo.listPapers(orgId, auth.userId);
    const ids = papers.map((p) => p.id);
    const [sections, items] = await Promise.all([this.repo.listSections(ids), this.repo.listItems(ids)]);
    const type: Basket['type'] = {};
    for (const p of papers) type[p.id] = [];
    for (const s of sections) {
      type[s.paper_id]?.push({
        id: s.id,
        typeId: s.type_id,
        dataName: s.type_name,
        questionCount: Number(s.question_count),
      });
    }
    return {
      sumCount: items.length,
      paperInfo: papers.map((p) => ({
        id: p.id,
        stageId: p.stage_id,
        subjectId: p.subject_id,
        stageName: p.stage_name,
        subjectName: p.subject_name,
        testPaperTextbook: p.textbook_id,
        questionCount: items.filter((i) => i.paper_id === p.id).length,
      })),
      type,
      questionIds: items.map((i) => i.question_id),
    };
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
