import { calls } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

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

/** Copies a paper into 我的试卷; answers the copy. */
export async function copyPaper(id: string) {
  return (await api.call(calls.copyPaper, { params: { id } })).data;
}
