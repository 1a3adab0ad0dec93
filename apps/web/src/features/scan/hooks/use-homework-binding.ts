import { useEffect } from 'react';
import { useHomeworkDetail, useScanBatches } from '../../../api/homework';
import type { ScanSession } from '../stores/scan-session';

/**
 * /scan opened from a homework's 「扫描」 button: the session is bound to the homework (new scans are created for
 * it, only its batches are shown) and the homework is named.
 */
export function useHomeworkBinding(session: ScanSession, homeworkId: string | null) {
  const { data: homework } = useHomeworkDetail(homeworkId);
  const { data: batches } = useScanBatches(homeworkId);
  const hostBatchIds = homeworkId ? (batches?.map((b) => b.id).join(',') ?? null) : null;
  useEffect(() => {
    session.setHomework(homeworkId, hostBatchIds === null ? null : hostBatchIds.split(',').filter(Boolean));
  }, [session, homeworkId, hostBatchIds]);
  return homeworkId ? (homework ?? null) : null;
}
