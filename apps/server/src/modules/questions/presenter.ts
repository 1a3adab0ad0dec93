import { AREAS, QUESTION_OWNERS, type Area, type Question, type QuestionOwner } from '@zhzy/contracts';
import { parseOptions, type QuestionRow, type QuestionsRepository } from './repository.js';

// The only place question rows become the JSON callers see.

const isArea = (v: string | null): v is Area => v !== null && (AREAS as readonly string[]).includes(v);
const isOwner = (v: string): v is QuestionOwner => (QUESTION_OWNERS as readonly string[]).includes(v);

type Ref = { question_id: string; id: string; name: string };

function groupRefs(rows: Ref[]): Map<string, { id: string; name: string }[]> {
  const out = new Map<string, { id: string; name: string }[]>();
  for (const r of rows) {
    const list = out.get(r.question_id) ?? [];
    list.push({ id: r.id, name: r.name });
    out.set(r.question_id, list);
  }
  return out;
}

export function presentQuestion(
  row: QuestionRow,
  knowledgePoints: { id: string; name: string }[],
  chapters: { id: string; name: string }[],
): Question {
  return {
    id: row.id,
    stageId: row.stage_id,
    subjectId: row.subject_id,
    typeId: row.type_id,
    typeName: row.type_name,
    difficulty: row.difficulty,
    stem: row.stem,
    options: parseOptions(row.options),
    answer: row.answer,
    analysis: row.analysis,
    year: row.year,
    source: row.source,
    usageCount: row.usage_count,
    knowledgePoints,
    blankCount: row.blank_count !== null && row.blank_count > 0 ? row.blank_count : null,
    region: isArea(row.region) ? row.region : null,
    owner: isOwner(row.owner) ? row.owner : 'personal',
    chapters,
    originId: row.origin_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Presents rows with their knowledge points and chapters (two queries for the whole list). */
export async function presentQuestions(repo: QuestionsRepository, rows: QuestionRow[]): Promise<Question[]> {
  const ids = rows.map((r) => r.id);
  const [kps, chapters] = await Promise.all([repo.knowledgePointsOf(ids), repo.chaptersOf(ids)]);
  const kpsOf = groupRefs(kps);
  const chaptersOf = groupRefs(chapters);
  return rows.map((r) => presentQuestion(r, kpsOf.get(r.id) ?? [], chaptersOf.get(r.id) ?? []));
}
