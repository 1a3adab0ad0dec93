import { calls } from '@zhzy/contracts';
import { api } from '../lib/api';
import { useApi } from '../lib/swr';
import { keys } from './keys';

/** The homework itself: its title, classes and what the caller may do with it. */
export function useHomeworkDetail(homeworkId: string | null) {
  return useApi(
    homeworkId ? keys.homeworkDetail(homeworkId) : null,
    async () => (await api.call(calls.homeworkDetail, { params: { id: homeworkId! } })).data,
  );
}

/**
 * The teacher's scan batches, newest first (the agent's and the uploads'), polled so a new batch shows up; with a
 * homework, only the batches bound to it (a scan started from its 「扫描」 button).
 */
export function useScanBatches(homeworkId: string | null = null) {
  return useApi(
    keys.scanBatches(homeworkId),
    async () => (await api.call(calls.listScanBatches, { query: homeworkId ? { homeworkId } : {} })).data,
    { refreshInterval: 5000 },
  );
}

/** The first `size` of the school's homework, newest first (the print pages' picker, the virtual scanner's). */
export function useRecentHomework(size: number, enabled = true) {
  return useApi(
    enabled ? keys.homeworkList('recent', String(size)) : null,
    async () => (await api.call(calls.homeworkList, { query: { page: 1, size } })).data,
  );
}

/** The score boxes read on a homework's sheets (纸上批阅): the doubtful ones, or all of them (讲评 crops). */
export function usePaperScores(homeworkId: string, state: 'doubtful' | 'all') {
  return useApi(
    keys.paperScores(homeworkId, state),
    async () => (await api.call(calls.paperScores, { params: { id: homeworkId }, query: { state } })).data,
    // Pages are read while the window is open: each showing asks the host again, and an open list follows the scan.
    { revalidateOnMount: true, refreshInterval: 15_000 },
  );
}
