import { calls } from '@zhzy/contracts';
import { api } from './api';
import { useApi } from './swr';

/** A class's students from the school's roster, by student number (analysis pickers, /printcode labels). */
export function useClassStudents(classId: string | null) {
  return useApi(
    classId ? ['teacher/analysis/students', classId] : null,
    async () => (await api.call(calls.analysisStudents, { query: { classId: classId! } })).data,
  );
}
