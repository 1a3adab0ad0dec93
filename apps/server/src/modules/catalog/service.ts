import type { z } from 'zod';
import {
  AREAS,
  type Area,
  type Question,
  type QuestionFilters,
  type QuestionPageQuerySchema,
  type QuestionType,
  type SimilarQuestionsQuerySchema,
  type Stage,
  type Textbook,
  type TreeNode,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { assertReadable } from '../questions/policy.js';
import { presentQuestions } from '../questions/presenter.js';
import type { QuestionsRepository } from '../questions/repository.js';
import { parseKeyword } from '../questions/search-text.js';
import type { CatalogRepository } from './repository.js';
import { CATALOG_TEXT } from '../../i18n/messages.js';

/** Builds a tree from flat rows (parents listed before or after children, any order). */
export function buildTree(rows: { id: string; parentId: string | null; name: string }[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>(rows.map((r) => [r.id, { id: r.id, name: r.name, children: [] }]));
  const roots: TreeNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parentId ? nodes.get(row.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The ids of a node and all its descendants in a flat tree. */
export function subtreeIds(rows: { id: string; parentId: string | null }[], rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const r of rows) {
    if (!r.parentId) continue;
    const list = children.get(r.parentId) ?? [];
    list.push(r.id);
    children.set(r.parentId, list);
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

/** 相似题 / 换一题 look further (sections, then chapters) until they have at least this many to offer. */
export const SIMILAR_AT_LEAST = 3;

export class CatalogService {
  constructor(
    private readonly repo: CatalogRepository,
    private readonly questions: QuestionsRepository,
  ) {}

  async stages(): Promise<Stage[]> {
    const [stages, subjects] = await Promise.all([this.repo.listStages(), this.repo.listSubjects()]);
    return stages.map((s) => ({
      id: s.id,
      name: s.name,
      subjects: subjects
        .filter((x) => x.stageId === s.id)
        .map((x) => ({ id: x.id, stageId: x.stageId, name: x.name })),
    }));
  }

  textbooks(subjectId: string): Promise<Textbook[]> {
    return this.repo.listTextbooks(subjectId);
  }

  async booknodeTree(textbookId: string): Promise<TreeNode[]> {
    if (!(await this.repo.findTextbook(textbookId))) throw notFound(CATALOG_TEXT.textbookNotFound);
    return buildTree(await this.repo.listBooknodes(textbookId));
  }

  async knowledgeTree(subjectId: string): Promise<TreeNode[]> {
    return buildTree(await this.repo.listKnowledgePoints(subjectId));
  }

  questionTypes(subjectId: string): Promise<QuestionType[]> {
    return this.repo.listQuestionTypes(subjectId);
  }

  async questionPage(
    auth: AuthContext,
    q: z.output<typeof QuestionPageQuerySchema>,
  ): Promise<{ records: Question[]; total: number; page: number; size: number }> {
    const orgId = requireSchool(auth);
    let booknodeIds: string[] | undefined;
    if (q.booknodeId) {
      const node = await this.repo.findBooknode(q.booknodeId);
      if (!node) throw notFound(CATALOG_TEXT.chapterNotFound);
      booknodeIds = subtreeIds(await this.repo.listBooknodes(node.textbookId), node.id);
    }
    let knowledgePointIds: string[] | undefined;
    if (q.knowledgePointId) {
      const kp = await this.repo.findKnowledgePoint(q.knowledgePointId);
      if (!kp) throw notFound(CATALOG_TEXT.knowledgePointNotFound);
      knowledgePointIds = subtreeIds(await this.repo.listKnowledgePoints(kp.subjectId), kp.id);
    }
    const keyword = parseKeyword(q.keyword);
    // Questions written by other paths (imports, other modules) are indexed before a search reads the index.
    if (keyword) await this.questions.indexPending();
    const { total, ids } = await this.repo.pageQuestionIds({
      orgId,
      userId: auth.userId,
      subjectId: q.subjectId,
      typeId: q.typeId,
      difficulty: q.difficulty,
      booknodeIds,
      knowledgePointIds,
      keyword,
      year: q.year,
      source: q.source || undefined,
      region: q.region,
      scope: q.scope,
      sort: q.sort,
      offset: (q.page - 1) * q.size,
      limit: q.size,
    });
    const records = await presentQuestions(this.questions, await this.questions.questionsByIds(ids));
    return { records, total, page: q.page, size: q.size };
  }

  /**
   * 举一反三: same type, difficulty within one level, sharing knowledge points first, then the question's sections,
   * then the rest of its chapters, until at least SIMILAR_AT_LEAST (or `size`, when smaller) are found.
   */
  async similar(
    auth: AuthContext,
    id: string,
    q: z.output<typeof SimilarQuestionsQuerySchema>,
  ): Promise<Question[]> {
    const orgId = requireSchool(auth);
    const source = assertReadable(await this.questions.findQuestion(id), auth);
    const [kps, sections] = await Promise.all([
      this.questions.knowledgePointsOf([id]),
      this.questions.chaptersOf([id]),
    ]);
    const sectionIds = sections.map((c) => c.id);
    const tiers: { by: 'knowledge' | 'chapter'; linkIds: () => Promise<string[]> }[] = [
      { by: 'knowledge', linkIds: async () => kps.map((k) => k.id) },
      { by: 'chapter', linkIds: async () => sectionIds },
      { by: 'chapter', linkIds: () => this.repo.chapterNodes(sectionIds) },
    ];
    const enough = Math.min(SIMILAR_AT_LEAST, q.size);
    const ids: string[] = [];
    for (const tier of tiers) {
      if (ids.length >= enough) break;
      ids.push(
        ...(await this.repo.similarIds({
          orgId,
          userId: auth.userId,
          subjectId: source.subjectId,
          typeId: source.typeId,
          difficulty: source.difficulty,
          exclude: [id, ...(q.exclude ?? []), ...ids],
          limit: q.size - ids.length,
          by: tier.by,
          linkIds: await tier.linkIds(),
        })),
      );
    }
    return presentQuestions(this.questions, await this.questions.questionsByIds(ids));
  }

  async filters(auth: AuthContext, subjectId: string): Promise<QuestionFilters> {
    const orgId = requireSchool(auth);
    const c = await this.repo.filterCounts(orgId, auth.userId, subjectId);
    const n = (v: number | string) => Number(v);
    const regionOrder = (r: string) => (AREAS as readonly string[]).indexOf(r);
    return {
      years: c.years.map((r) => ({ value: n(r.value!), count: n(r.n) })).sort((a, b) => b.value - a.value),
      sources: c.sources
        .map((r) => ({ value: r.value!, count: n(r.n) }))
        .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value, 'zh')),
      regions: c.regions
        .filter((r): r is { value: Area; n: number } => regionOrder(r.value!) >= 0)
        .map((r) => ({ value: r.value, count: n(r.n) }))
        .sort((a, b) => regionOrder(a.value) - regionOrder(b.value)),
      difficulties: c.difficulties
        .map((r) => ({ value: n(r.value), count: n(r.n) }))
        .sort((a, b) => a.value - b.value),
    };
  }
}
