import { calls } from '@zhzy/contracts';
import { api } from '../lib/api';
import { useApi } from '../lib/swr';
import { keys } from './keys';

/** Reads of the shared catalogue (stages, textbooks, trees, question types) that several features pick from. */

/** Stages with their subjects. */
export function useStages() {
  return useApi(keys.stages(), async () => (await api.call(calls.stageList)).data);
}

export function useTextbooks(subjectId: string | null) {
  return useApi(
    subjectId ? keys.textbooks(subjectId) : null,
    async () => (await api.call(calls.textbookList, { query: { subjectId: subjectId! } })).data,
  );
}

/** A textbook's chapter tree. */
export function useBooknodes(textbookId: string | null) {
  return useApi(
    textbookId ? keys.booknodes(textbookId) : null,
    async () => (await api.call(calls.booknodeTree, { query: { textbookId: textbookId! } })).data,
  );
}

export function useKnowledgeTree(subjectId: string | null) {
  return useApi(
    subjectId ? keys.knowledgeTree(subjectId) : null,
    async () => (await api.call(calls.knowledgeTree, { query: { subjectId: subjectId! } })).data,
  );
}

export function useQuestionTypes(subjectId: string | null) {
  return useApi(
    subjectId ? keys.questionTypes(subjectId) : null,
    async () => (await api.call(calls.questionTypeList, { query: { subjectId: subjectId! } })).data,
  );
}

/** 举一反三: up to `size` questions like this one (same type and knowledge points, near difficulty), none of `exclude`. */
export function useSimilarQuestions(questionId: string | null, size: number, exclude?: readonly string[]) {
  return useApi(
    questionId ? keys.similarQuestions(questionId, size, exclude ?? []) : null,
    async () =>
      (
        await api.call(calls.similarQuestions, {
          params: { id: questionId! },
          query: { size, ...(exclude ? { exclude: [...exclude] } : {}) },
        })
      ).data,
  );
}
