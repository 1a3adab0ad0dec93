import { calls, type Area, type Question, type QuestionScope, type QuestionSort } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

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
