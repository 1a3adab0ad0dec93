import {
  calls,
  type HomeworkListQuery,
  type HomeworkState,
  type HomeworkType,
  type PublishHomework,
} from '@zhzy/contracts';
import { keys } from '../../../api/keys';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** The filters of /paperlist as the screen holds them ('' is "all"). */
export interface HomeworkFilters {
  classId: string;
  subjectId: string;
  type: HomeworkType | '';
  state: HomeworkState | '';
  from: string;
  to: string;
  mine: boolean;
  page: number;
}

export const NO_FILTERS: HomeworkFilters = {
  classId: '',
  subjectId: '',
  type: '',
  state: '',
  from: '',
  to: '',
  mine: false,
  page: 1,
};

export const PAGE_SIZE = 10;

export function queryOf(f: HomeworkFilters): HomeworkListQuery {
  return {
    page: f.page,
    size: PAGE_SIZE,
    ...(f.classId ? { classId: f.classId } : {}),
    ...(f.subjectId ? { subjectId: f.subjectId } : {}),
    ...(f.type ? { type: f.type } : {}),
    ...(f.state ? { state: f.state } : {}),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
    ...(f.mine ? { mine: true } : {}),
  };
}

export function useHomeworkList(f: HomeworkFilters) {
  return useApi(
    keys.homeworkList(JSON.stringify(f)),
    async () => (await api.call(calls.homeworkList, { query: queryOf(f) })).data,
    { keepPreviousData: true },
  );
}

export const deleteHomework = async (id: string) => {
  await api.call(calls.deleteHomework, { params: { id } });
};

export const publishHomework = async (body: PublishHomework) =>
  (await api.call(calls.publishHomework, { body })).data;

/** The caller's own papers, newest first, to publish one. */
export function useMyPapers(keyword: string, enabled: boolean) {
  return useApi(
    enabled ? keys.paperList('mine', 'publish-picker', keyword) : null,
    async () =>
      (await api.call(calls.myPapers, { query: { page: 1, size: 50, ...(keyword ? { keyword } : {}) } }))
        .data,
    { keepPreviousData: true },
  );
}
