import { buildPath, calls, type CardPdfRequest, type HomeworkListQuery } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

export { useHomeworkDetail } from '../../../lib/shared-calls';

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

export function usePaperDetail(id: string | null) {
  return useApi(
    id ? ['teacher/paper/detail', id] : null,
    async () => (await api.call(calls.paperDetail, { params: { id: id! } })).data,
  );
}

/** The school's recent homework, to pick one on a print page opened without one. */
export function useRecentHomework(query: HomeworkListQuery | null) {
  return useApi(
    query ? ['teacher/homework/list', 'print-picker', JSON.stringify(query)] : null,
    async () => (await api.call(calls.homeworkList, { query: query! })).data,
  );
}

/** The classes of the caller's default school year (SPEC §7's class call: years with type 1, classes with type 2). */
export function useDefaultYearClasses(orgId: string | null) {
  return useApi(orgId ? ['system/class/default-year-classes', orgId] : null, async () => {
    const years = (await api.call(calls.classList, { query: { orgId: orgId!, type: '1', pid: '' } })).data;
    const year = years.find((y) => y.isDefault);
    if (!year) return { year: null, classes: [] };
    const classes = (await api.call(calls.classList, { query: { orgId: orgId!, type: '2', pid: year.id } }))
      .data;
    return { year, classes };
  });
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
