import { calls } from '@zhzy/contracts';
import { api } from '../lib/api';
import { useApi } from '../lib/swr';
import { keys } from './keys';

/**
 * The classes of the caller's default school year (SPEC §7's class call: years with type 1, then that year's
 * classes with type 2); no year and no classes when no year is the default.
 */
export function useDefaultYearClasses(orgId: string | null) {
  return useApi(orgId ? keys.defaultYearClasses(orgId) : null, async () => {
    const years = (await api.call(calls.classList, { query: { orgId: orgId!, type: '1', pid: '' } })).data;
    const year = years.find((y) => y.isDefault);
    if (!year) return { year: null, classes: [] };
    const classes = (await api.call(calls.classList, { query: { orgId: orgId!, type: '2', pid: year.id } }))
      .data;
    return { year, classes };
  });
}

/** A class's students from the school's roster, by student number (analysis pickers, /printcode labels). */
export function useClassStudents(classId: string | null) {
  return useApi(
    classId ? keys.classStudents(classId) : null,
    async () => (await api.call(calls.analysisStudents, { query: { classId: classId! } })).data,
  );
}
