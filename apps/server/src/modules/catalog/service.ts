import { z } from 'zod';
import {
  QuestionOptionSchema,
  type Question,
  type QuestionPageQuerySchema,
  type QuestionType,
  type Stage,
  type Textbook,
  type TreeNode,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { CatalogRepository } from './repository.js';

const OptionsJson = z.array(QuestionOptionSchema);

/** Builds a tree from flat rows (parents listed before or after children, any order). */
export function buildTree(rows: { id: string; parent_id: string | null; name: string }[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>(rows.map((r) => [r.id, { id: r.id, name: r.name, children: [] }]));
  const roots: TreeNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The ids of a node and all its descendants in a flat tree. */
export function subtreeIds(rows: { id: string; parent_id: string | null }[], rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const r of rows) {
    if (!r.parent_id) continue;
    const list = children.get(r.parent_id) ?? [];
    list.push(r.id);
    children.set(r.parent_id, list);
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

function requireSchool(auth: AuthContext): string {
  if (!auth.orgId) throw forbidden();
  return auth.orgId;
}

export class CatalogService {
  constructor(private readonly repo: CatalogRepository) {}

  async stages(): Promise<Stage[]> {
    const [stages, subjects] = await Promise.all([this.repo.listStages(), this.repo.listSubjects()]);
    return stages.map((s) => ({
      id: s.id,
      name: s.name,
      subjects: subjects
        .filter((x) => x.stage_id === s.id)
        .map((x) => ({ id: x.id, stageId: x.stage_id, name: x.name })),
    }));
  }

  async textbooks(subjectId: string): Promise<Textbook[]> {
    const rows = await this.repo.listTextbooks(subjectId);
    return rows.map((r) => ({ id: r.id, subjectId: r.subject_id, publisher: r.publisher, name: r.name }));
  }

  async booknodeTree(textbookId: string): Promise<TreeNode[]> {
    if (!(await this.repo.findTextbook(textbookId))) throw notFound('教材不存在');
    return buildTree(await this.repo.listBooknodes(textbookId));
  }

  async knowledgeTree(subjectId: string): Promise<TreeNode[]> {
    return buildTree(await this.repo.listKnowledgePoints(subjectId));
  }

  async questionTypes(subjectId: string): Promise<QuestionType[]> {
    const rows = await this.repo.listQuestionTypes(subjectId);
    return rows.map((r) => ({
      id: r.id,
      subjectId: r.subject_id,
      name: r.name,
      objective: r.objective === 1,
    }));
  }

  async questionPage(auth: AuthContext, q: z.output<typeof QuestionPageQuerySchema>) {
    const orgId = requireSchool(auth);
    let booknodeIds: string[] | undefined;
    if (q.booknodeId) {
      const node = await this.repo.findBooknode(q.booknodeId);
      if (!node) throw notFound('章节不存在');
      booknodeIds = subtreeIds(await this.repo.listBooknodes(node.textbook_id), node.id);
    }
    let knowledgePointIds: string[] | undefined;
    if (q.knowledgePointId) {
      const kp = await this.repo.findKnowledgePoint(q.knowledgePointId);
      if (!kp) throw notFound('知识点不存在');
      knowledgePointIds = subtreeIds(await this.repo.listKnowledgePoints(kp.subject_id), kp.id);
    }
    const { total, rows } = await this.repo.pageQuestions({
      orgId,
      userId: auth.userId,
      subjectId: q.subjectId,
      typeId: q.typeId,
      difficulty: q.difficulty,
      booknodeIds,
      knowledgePointIds,
      keyword: q.keyword || undefined,
      offset: (q.page - 1) * q.size,
      limit: q.size,
    });
    const kps = await this.repo.knowledgePointsOf(rows.map((r) => r.id));
    const records: Question[] = rows.map((r) => ({
      id: r.id,
      stageId: r.stage_id,
      subjectId: r.subject_id,
      typeId: r.type_id,
      typeName: r.type_name,
      difficulty: r.difficulty,
      stem: r.stem,
      options: OptionsJson.parse(JSON.parse(r.options)),
      answer: r.answer,
      analysis: r.analysis,
      year: r.year,
      source: r.source,
      usageCount: r.usage_count,
      knowledgePoints: kps.filter((k) => k.question_id === r.id).map((k) => ({ id: k.id, name: k.name })),
    }));
    return { records, total, page: q.page, size: q.size };
  }
}
