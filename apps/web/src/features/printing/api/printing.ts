import { buildPath, calls, type CardPdfRequest } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** A homework's score sheet from its results (analysis): one per class, or the asked class only. */
export function usePrintGrade(homeworkId: string | null, classId: string | null, order: 'rank' | 'number') {
  return useApi(
    homeworkId ? ['teacher/analysis/print-grade', homeworkId, classId, order] : null,
    async () =>
      (
        await api.call(calls.printGrade, {
          params: { id: homeworkId! },
          query: { order, ...(classId ? { classId } : {}) },
        })
      ).data,
  );
}

/**
 * Downloads the homework's card PDF (SPEC §7 file download: POST JSON, a blob answer saved under `filename`).
 * Resolves with the PDF so the page can also open it for the browser's own printing.
 */
export function downloadCardPdf(
  homeworkId: string,
  request: CardPdfRequest,
  filename: string,
  onProgress?: (loaded: number, total: number | null) => void,
): Promise<Blob> {
  return api.download(buildPath(calls.downloadHomeworkCards.path, { id: homeworkId }), request, filename, {
    ...(onProgress ? { onProgress } : {}),
  });
}
