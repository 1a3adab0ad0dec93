import { calls, type SchoolClass } from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

export const schoolYearsKey = (orgId: string) => ['system/class/years', orgId] as const;

/** The school years of a school (SPEC §7: `GET /system/class?orgId&type=1&pid=`). */
export async function fetchSchoolYears(orgId: string): Promise<SchoolClass[]> {
  const answer = await api.call(calls.classList, { query: { orgId, type: '1', pid: '' } });
  return answer.data ?? [];
}

export function useSchoolYears(orgId: string | null) {
  return useApi(orgId ? schoolYearsKey(orgId) : null, () => fetchSchoolYears(orgId!));
}

/** Saves the default school year (form-encoded PUT); the answer is not read. */
export async function saveDefaultYear(orgId: string, classId: string): Promise<void> {
  await api.call(calls.updateClassDefault, { body: { orgId, classId } });
}
