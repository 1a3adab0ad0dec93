import { calls } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

export const useSubjectStats = () =>
  useApi(
    ['teacher/data-center/subject'],
    async () => (await api.call(calls.subjectStats, { query: {} })).data,
  );

export const useDoneHomework = () =>
  useApi(
    ['teacher/data-center/homeworks'],
    async () =>
      (await api.call(calls.analysisHomeworks, { query: { page: 1, size: 50, withResults: false } })).data,
  );

export const useMarkingReport = (homeworkId: string | null) =>
  useApi(
    homeworkId ? ['teacher/data-center/correct-score', homeworkId] : null,
    async () => (await api.call(calls.markingReport, { query: { homeworkId: homeworkId! } })).data,
  );

export const useAverageScore = (homeworkId: string | null) =>
  useApi(
    homeworkId ? ['teacher/data-center/average-score', homeworkId] : null,
    async () => (await api.call(calls.averageScore, { query: { homeworkId: homeworkId! } })).data,
  );
