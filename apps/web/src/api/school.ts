import { calls, type SchoolRole } from '@zhzy/contracts';
import { api } from '../lib/api';
import { useApi } from '../lib/swr';
import { keys } from './keys';

/** The school's details (name, logo, counts), read by /team/details and the team screens; `silent`: no toast. */
export function useSchoolDetail(orgId: string | null, enabled = true) {
  return useApi(
    enabled ? keys.schoolDetail(orgId) : null,
    async () => (await api.call(calls.schoolDetail, { query: orgId ? { orgId } : {}, silent: true })).data,
  );
}

/** The subjects the school offers. */
export function useSchoolSubjects(orgId: string, enabled = true) {
  return useApi(
    enabled ? keys.schoolSubjects(orgId) : null,
    async () => (await api.call(calls.schoolSubjects, { query: { orgId } })).data,
  );
}

/** The school's members, optionally by name or phone and role (the team list, group and grade-director pickers). */
export function useSchoolMembers(orgId: string, keyword: string, role: SchoolRole | '', enabled = true) {
  return useApi(
    enabled ? keys.schoolMembers(orgId, keyword, role) : null,
    async () =>
      (
        await api.call(calls.teamMembers, {
          query: { orgId, ...(keyword.trim() ? { keyword: keyword.trim() } : {}), ...(role ? { role } : {}) },
        })
      ).data,
    { keepPreviousData: true },
  );
}
