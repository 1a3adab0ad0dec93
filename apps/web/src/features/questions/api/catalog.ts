import { calls, type Area, type Question, type QuestionScope, type QuestionSort } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** Stages with their subjects. */
export function useStages() {
  return useApi(['system/stages'], async () => (await api.call(calls.stageList)).data);
}

export function useTextbooks(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/textbooks', subjectId] : null,
    async () => (await api.call(calls.textbookList, { query: { subjectId: subjectId! } })).data,
  );
}

export function useBooknodes(textbookId: string | null) {
  return useApi(
    textbookId ? ['teacher/booknodes', textbookId] : null,
    async () => (await api.call(calls.booknodeTree, { query: { textbookId: textbookId! } })).data,
  );
}

export function useKnowledgeTree(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/knowledge', subjectId] : null,
    async () => (await api.call(calls.knowledgeTree, { query: { subjectId: subjectId! } })).data,
  );
}

export function useQuestionTypes(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/question-types', subjectId] : null,
    async () => (await api.call(calls.questionTypeList, { query: { subjectId: subjectId! } })).data,
  );
}

/** What the year, source, region and difficulty filters can offer for a subject, with counts. */
export function useFilterOptions(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/question/filters', subjectId] : null,
    async () => (await api.call(calls.questionFilters, { query: { subjectId: subjectId! } })).data,
  );
}

export interface BankQuery {
  subjectId: string;
  typeId: string | null;
  difficulty: number | null;
  booknodeId: string | null;
  knowledgePointId: string | null;
  year: number | null;
  source: string | null;
  region: Area | null;
  keyword: string;
  scope: QuestionScope;
  sort: QuestionSort;
  page: number;
  size: number;
}

export interface QuestionPage {
  records: Question[];
  total: number;
  page: number;
  size: number;
}

/** A page of questions for the filters (empty values are left out of the query). */
export function useQuestionPage(q: BankQuery | null) {
  return useApi(
    q ? ['teacher/questions', JSON.stringify(q)] : null,
    async (): Promise<QuestionPage> => {
      const f = q!;
      const answer = await api.call(calls.questionPage, {
        query: {
          subjectId: f.subjectId,
          page: f.page,
          size: f.size,
          scope: f.scope,
          sort: f.sort,
          ...(f.typeId ? { typeId: f.typeId } : {}),
          ...(f.difficulty ? { difficulty: f.difficulty } : {}),
          ...(f.booknodeId ? { booknodeId: f.booknodeId } : {}),
          ...(f.knowledgePointId ? { knowledgePointId: f.knowledgePointId } : {}),
          ...(f.year ? { year: f.year } : {}),
          ...(f.source ? { source: f.source } : {}),
          ...(f.region ? { region: f.region } : {}),
          ...(f.keyword.trim() ? { keyword: f.keyword.trim() } : {}),
        },
      });
      return answer.data;
    },
    { keepPreviousData: true },
  );
}

/** 举一反三 for one card: same type and knowledge points, near difficulty. */
export function useSimilar(questionId: string | null) {
  return useApi(
    questionId ? ['teacher/question/similar', questionId, ''] : null,
    async () =>
      (await api.call(calls.similarQuestions, { params: { id: questionId! }, query: { size: 5 } })).data,
  );
}
