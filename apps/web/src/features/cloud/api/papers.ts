import { calls, type PaperListQuery, type PaperStatus } from '@zhzy/contracts';
import { keys } from '../../../api/keys';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** The filters of a paper list, as the screen holds them. */
export interface ListFilters {
  keyword: string;
  subjectId: string | null;
  status: PaperStatus | null;
  from: string;
  to: string;
  page: number;
}

export const NO_LIST_FILTERS: ListFilters = {
  keyword: '',
  subjectId: null,
  status: null,
  from: '',
  to: '',
  page: 1,
};

export type PaperListKind = 'mine' | 'school' | 'recycle';
const LIST_CALL = { mine: calls.myPapers, school: calls.schoolPapers, recycle: calls.recycleBin } as const;

function queryOf(f: ListFilters): PaperListQuery {
  return {
    page: f.page,
    size: 10,
    ...(f.keyword ? { keyword: f.keyword } : {}),
    ...(f.subjectId ? { subjectId: f.subjectId } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
  };
}

export const paperListKey = (kind: PaperListKind, f: ListFilters) => keys.paperList(kind, JSON.stringify(f));

export function usePaperList(kind: PaperListKind, f: ListFilters) {
  return useApi(
    paperListKey(kind, f),
    async () => (await api.call(LIST_CALL[kind], { query: queryOf(f) })).data,
    {
      keepPreviousData: true,
    },
  );
}

export const renamePaper = async (id: string, title: string) =>
  (await api.call(calls.renamePaper, { params: { id }, body: { title } })).data;
export const copyPaper = async (id: string) => (await api.call(calls.copyPaper, { params: { id } })).data;
export const sharePaper = async (id: string, shared: boolean, asTemplate: boolean) =>
  (await api.call(calls.sharePaper, { params: { id }, body: { shared, asTemplate } })).data;
export const deletePaper = async (id: string) => {
  await api.call(calls.deletePaper, { params: { id } });
};
export const restorePaper = async (id: string) =>
  (await api.call(calls.restorePaper, { params: { id } })).data;
export const purgePaper = async (id: string) => {
  await api.call(calls.purgePaper, { params: { id } });
};
