import { AREAS, QUESTION_OWNERS, type Area, type Question, type QuestionOwner } from '@zhzy/contracts';
import type { QuestionLink, QuestionRecord, QuestionsRepository } from './repository.js';

// The only place questions become the JSON callers see.

const isArea = (v: string | null): v is Area => v !== null && (AREAS as readonly string[]).includes(v);
const isOwner = (v: string): v is QuestionOwner => (QUESTION_OWNERS as readonly string[]).includes(v);

function groupRefs(links: QuestionLink[]): Map<string, { id: string; name: string }[]> {
  const out = new Map<string, { id: string; name: string }[]>();
  for (const l of links) {
    const list = out.get(l.questionId) ?? [];
    list.push({ id: l.id, name: l.name });
    out.set(l.questionId, list);
  }
  return out;
}

export function presentQuestion(
  q: QuestionRecord,
  knowledgePoints: { id: string; name: string }[],
  chapters: { id: string; name: string }[],
): Question {
  return {
    id: q.id,
    stageId: q.stageId,
    subjectId: q.subjectId,
    typeId: q.typeId,
    typeName: q.typeName,
    difficulty: q.difficulty,
    stem: q.stem,
    options: q.options,
    answer: q.answer,
    analysis: q.analysis,
    year: q.year,
    source: q.source,
    usageCount: q.usageCount,
    knowledgePoints,
    blankCount: q.blankCount !== null && q.blankCount > 0 ? q.blankCount : null,
    region: isArea(q.region) ? q.region : null,
    owner: isOwner(q.owner) ? q.owner : 'personal',
    chapters,
    originId: q.originId,
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}

/** Presents questions with their knowledge points and chapters (two queries for the whole list). */
export async function presentQuestions(
  repo: QuestionsRepository,
  questions: QuestionRecord[],
): Promise<Question[]> {
  const ids = questions.map((q) => q.id);
  const [kps, chapters] = await Promise.all([repo.knowledgePointsOf(ids), repo.chaptersOf(ids)]);
  const kpsOf = groupRefs(kps);
  const chaptersOf = groupRefs(chapters);
  return questions.map((q) => presentQuestion(q, kpsOf.get(q.id) ?? [], chaptersOf.get(q.id) ?? []));
}
