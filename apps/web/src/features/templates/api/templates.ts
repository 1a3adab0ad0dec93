import { calls } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

export function useStages() {
  return useApi(['system/stages'], async () => (await api.call(calls.stageList)).data);
}

export interface TemplateQuery {
  subjectId: string | null;
  keyword: string;
  page: number;
}

/** Shipped templates and the ones the school offers (GoodsPaper). */
export function useTemplates(q: TemplateQuery) {
  return useApi(
    ['teacher/paper/template', JSON.stringify(q)],
    async () =>
      (
        await api.call(calls.templatePapers, {
          query: {
            page: q.page,
            size: 12,
            ...(q.subjectId ? { subjectId: q.subjectId } : {}),
            ...(q.keyword ? { keyword: q.keyword } : {}),
          },
        })
      ).data,
    { keepPreviousData: true },
  );
}

export function usePaperDetail(id: string | null) {
  return useApi(
    id ? ['teacher/paper/detail', id] : null,
    async () => (await api.call(calls.paperDetail, { params: { id: id! } })).data,
  );
}

/** Copies a paper into 我的试卷; answers the copy. */
export async function copyPaper(id: string) {
  return (await api.call(calls.copyPaper, { params: { id } })).data;
}
