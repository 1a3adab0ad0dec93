import { calls, type Question } from '@zhzy/contracts';
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

export function useQuestionTypes(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/question-types', subjectId] : null,
    async () => (await api.call(calls.questionTypeList, { query: { subjectId: subjectId! } })).data,
  );
}

export interface QuestionFilters {
  subjectId: string;
  typeId: string | null;
  difficulty: number | null;
  booknodeId: string | null;
  page: number;
  size: number;
}

export interface QuestionPage {
  records: Question[];
  total: number;
  page: number;
  size: number;
}

/** A page of questions for the filters (null values are left out of the query). */
export function useQuestionPage(filters: QuestionFilters | null) {
  return useApi(
    filters ? ['teacher/questions', JSON.stringify(filters)] : null,
    async (): Promise<QuestionPage> => {
      const f = filters!;
      const answer = await api.call(calls.questionPage, {
        query: {
          subjectId: f.subjectId,
          page: f.page,
          size: f.size,
          ...(f.typeId ? { typeId: f.typeId } : {}),
          ...(f.difficulty ? { difficulty: f.difficulty } : {}),
          ...(f.booknodeId ? { booknodeId: f.booknodeId } : {}),
        },
      });
      return answer.data;
    },
    { keepPreviousData: true },
  );
}
