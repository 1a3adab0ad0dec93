import { calls, type ResolvePaperScore } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** A homework's 纸上批阅 setting and the questions its card prints score boxes for. */
export function usePaperMarking(homeworkId: string) {
  return useApi(
    ['teacher/homework/paper-marking', homeworkId],
    async () => (await api.call(calls.homeworkPaperMarking, { params: { id: homeworkId } })).data,
  );
}

export const setPaperMarking = async (homeworkId: string, enabled: boolean) =>
  (await api.call(calls.setHomeworkPaperMarking, { params: { id: homeworkId }, body: { enabled } })).data;

export const resolvePaperScore = async (id: string, body: ResolvePaperScore) =>
  (await api.call(calls.resolvePaperScore, { params: { id }, body })).data;
