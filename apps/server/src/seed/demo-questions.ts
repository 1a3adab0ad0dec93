import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { booknodeId, chunks, knowledgeId, SUBJECT_IDS, typeId } from './catalog.js';
import { KNOWLEDGE_TREES } from './data/knowledge.js';
import type { KnowledgeSeed } from './data/types.js';

/**
 * Where a demo paper draws its questions from: chapters of 人教版 七年级上册 数学 (`m7a-5` is 第五章 一元一次方程)
 * and the knowledge-point subtrees those chapters teach. A question qualifies when it sits in one of the chapters'
 * sections and every knowledge point it carries lies under one of the roots, so 「一元一次方程 课后作业」 is never
 * analysed under 近似数 (issue #22 point 10, ADR 0049).
 */
export interface DemoScope {
  /** Chapter keys of textbook m7a, e.g. ['m7a-5']. */
  chapters: readonly string[];
  /** Knowledge-point keys whose subtrees the questions' points must lie in, e.g. ['k-m-eq1']. */
  knowledge: readonly string[];
}

/** The keys of a knowledge subtree (the root included). */
function subtreeKeys(root: string): Set<string> {
  const out = new Set<string>();
  const walk = (nodes: readonly KnowledgeSeed[], inside: boolean) => {
    for (const n of nodes) {
      const here = inside || n.key === root;
      if (here) out.add(n.key);
      if (n.children) walk(n.children, here);
    }
  };
  walk(KNOWLEDGE_TREES.数学, false);
  return out;
}

/** The system 数学 questions of a type within a scope (bank order), with their difficulty. */
export async function demoScopeQuestions(
  db: Kysely<Database>,
  scope: DemoScope,
  type: string,
): Promise<{ id: string; difficulty: number }[]> {
  const allowed = new Set(scope.knowledge.flatMap((k) => [...subtreeKeys(k)].map(knowledgeId)));
  const sections = await db
    .selectFrom('booknodes')
    .select('id')
    .where(
      'parent_id',
      'in',
      scope.chapters.map((c) => booknodeId(c)),
    )
    .execute();
  if (sections.length === 0) return [];
  const rows = await db
    .selectFrom('questions as q')
    .innerJoin('question_booknodes as qb', 'qb.question_id', 'q.id')
    .select(['q.id', 'q.difficulty'])
    .distinct()
    .where(
      'qb.booknode_id',
      'in',
      sections.map((x) => x.id),
    )
    .where('q.subject_id', '=', SUBJECT_IDS.数学)
    .where('q.type_id', '=', typeId('数学', type))
    .where('q.owner', '=', 'system')
    .where('q.deleted_at', 'is', null)
    .orderBy('q.id')
    .execute();
  if (rows.length === 0) return [];
  const points = new Map<string, string[]>();
  for (const ids of chunks(rows.map((r) => r.id)))
    for (const k of await db
      .selectFrom('question_knowledge_points')
      .select(['question_id', 'knowledge_point_id'])
      .where('question_id', 'in', ids)
      .execute())
      points.set(k.question_id, [...(points.get(k.question_id) ?? []), k.knowledge_point_id]);
  return rows.filter((r) => {
    const kps = points.get(r.id) ?? [];
    return kps.length > 0 && kps.every((k) => allowed.has(k));
  });
}
