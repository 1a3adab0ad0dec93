import { calls } from '@zhzy/contracts';
import { api } from './api';
import { useApi } from './swr';

/**
 * Reads several features share, with one cache key each (STYLE: data several features read gets a shared layer
 * below the features).
 */

export const homeworkDetailKey = (homeworkId: string) => ['teacher/homework/detail', homeworkId] as const;

/** The homework itself: its title, classes and what the caller may do with it. */
export function useHomeworkDetail(homeworkId: string | null) {
  return useApi(
    homeworkId ? homeworkDetailKey(homeworkId) : null,
    async () => (await api.call(calls.homeworkDetail, { params: { id: homeworkId! } })).data,
  );
}

export const scanBatchesKey = (homeworkId: string | null) => ['scan-batches', homeworkId] as const;

/**
 * The teacher's scan batches, newest first (the agent's and the uploads'), polled so a new batch shows up; with a
 * homework, only the batches bound to it (a scan started from its 「扫描」 button).
 */
export function useScanBatches(homeworkId: string | null = null) {
  return useApi(
    scanBatchesKey(homeworkId),
    async () => (await api.call(calls.listScanBatches, { query: homeworkId ? { homeworkId } : {} })).data,
    { refreshInterval: 5000 },
  );
}
