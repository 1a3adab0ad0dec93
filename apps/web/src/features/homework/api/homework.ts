import {
  calls,
  type HomeworkListQuery,
  type HomeworkState,
  type HomeworkType,
  type PublishHomework,
} from '@zhzy/contracts';
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

/** Every list key starts with this, so a publish or delete revalidates them all. */
export const HOMEWORK_LIST_KEY = 'teacher/homework/list';

export function useHomeworkList(f: HomeworkFilters) {
  return useApi(
    [HOMEWORK_LIST_KEY, JSON.stringify(f)],
    async () => (await api.call(calls.homeworkList, { query: queryOf(f) })).data,
    { keepPreviousData: true },
  );
}

export const deleteHomework = async (id: string) => {
  await api.call(calls.deleteHomework, { params: { id } });
};

export const publishHomework = async (body: PublishHomework) =>
  (await api.call(calls.publishHomework, { body })).data;

export function useStages() {
  return useApi(['system/stages'], async () => (await api.call(calls.stageList)).data);
}

/** The classes of the caller's default school year: years (type 1), then that year's classes (type 2). */
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

/** The caller's own papers, newest first, to publish one. */
export function useMyPapers(keyword: string, enabled: boolean) {
  return useApi(
    enabled ? ['teacher/paper/list', 'mine', 'publish-picker', keyword] : null,
    async () =>
      (await api.call(calls.myPapers, { query: { page: 1, size: 50, ...(keyword ? { keyword } : {}) } }))
        .data,
    { keepPreviousData: true },
  );
}

export function usePaperSummary(paperId: string | null) {
  return useApi(
    paperId ? ['teacher/paper/detail', paperId] : null,
    async () => (await api.call(calls.paperDetail, { params: { id: paperId! } })).data,
  );
}
