import { calls, type ReviewStatus } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** The school's bank (approved), or for administrators the review queue (pending) and those turned down. */
export function useSchoolQuestions(status: ReviewStatus, page: number, keyword: string) {
  return useApi(
    ['school/question/page', status, page, keyword],
    async () =>
      (
        await api.call(calls.schoolQuestions, {
          query: { status, page, size: 10, ...(keyword ? { keyword } : {}) },
        })
      ).data,
    { keepPreviousData: true },
  );
}

export function useMyShares(page: number) {
  return useApi(
    ['teacher/question/shares', page],
    async () => (await api.call(calls.myQuestionShares, { query: { page, size: 10 } })).data,
    { keepPreviousData: true },
  );
}

/** The teacher's own questions of a subject (我的题库), to share to the school. */
export function useMyQuestions(subjectId: string | null, page: number) {
  return useApi(
    subjectId ? ['teacher/questions/mine', subjectId, page] : null,
    async () =>
      (
        await api.call(calls.questionPage, {
          query: { subjectId: subjectId!, scope: 'mine', page, size: 10, sort: 'newest' },
        })
      ).data,
    { keepPreviousData: true },
  );
}

export function useQuestionRecycleBin(page: number) {
  return useApi(
    ['teacher/question/recycle', page],
    async () => (await api.call(calls.questionRecycleBin, { query: { page, size: 10 } })).data,
    { keepPreviousData: true },
  );
}

export const shareQuestion = async (id: string) =>
  (await api.call(calls.shareQuestion, { params: { id } })).data;
export const reviewQuestion = async (id: string, action: 'approve' | 'reject', note?: string) =>
  (await api.call(calls.reviewQuestion, { params: { id }, body: { action, ...(note ? { note } : {}) } }))
    .data;
export const withdrawSchoolQuestion = async (id: string) => {
  await api.call(calls.withdrawSchoolQuestion, { params: { id } });
};
export const restoreQuestions = async (ids: string[]) =>
  (await api.call(calls.restoreQuestions, { body: { ids } })).data;
export const deleteQuestionsForever = async (ids: string[]) =>
  (await api.call(calls.deleteQuestionsForever, { body: { ids } })).data;
