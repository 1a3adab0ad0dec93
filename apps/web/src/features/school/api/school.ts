import type { z } from 'zod';
import {
  ImportErrorsSchema,
  calls,
  type GenderSchema,
  type CreateSchool,
  type UpdateSchool,
} from '@zhzy/contracts';
import { isApiError } from '@zhzy/api-client';
import { SCHOOL_DATA } from '../../../api/keys';
import { api, sessionChanged } from '../../../lib/api';
import { useApi, useApiRevalidate } from '../../../lib/swr';

/** Every key of this feature starts with this, so one write revalidates what it touched. */
export const SCHOOL_KEY = 'school';

export function useYears(orgId: string, includeArchived: boolean) {
  return useApi(
    [SCHOOL_KEY, 'years', orgId, includeArchived ? 1 : 0],
    async () => (await api.call(calls.schoolYears, { query: { orgId, includeArchived } })).data,
  );
}

export function useClasses(yearId: string | null) {
  return useApi(
    yearId ? [SCHOOL_KEY, 'classes', yearId] : null,
    async () => (await api.call(calls.schoolClasses, { query: { yearId: yearId! } })).data,
  );
}

export interface StudentFilters {
  yearId: string;
  classId: string;
  keyword: string;
  page: number;
}
export const STUDENT_PAGE_SIZE = 50;

export function useStudents(orgId: string, f: StudentFilters) {
  return useApi(
    f.yearId ? [SCHOOL_KEY, 'students', orgId, JSON.stringify(f)] : null,
    async () =>
      (
        await api.call(calls.students, {
          query: {
            orgId,
            yearId: f.yearId,
            ...(f.classId ? { classId: f.classId } : {}),
            ...(f.keyword.trim() ? { keyword: f.keyword.trim() } : {}),
            page: f.page,
            size: STUDENT_PAGE_SIZE,
          },
        })
      ).data,
    { keepPreviousData: true },
  );
}

export function useGradeDirectors(orgId: string) {
  return useApi(
    [SCHOOL_KEY, 'directors', orgId],
    async () => (await api.call(calls.gradeDirectors, { query: { orgId } })).data,
  );
}

export function useAudit(orgId: string, page: number, enabled: boolean) {
  return useApi(
    enabled ? [SCHOOL_KEY, 'audit', orgId, page] : null,
    async () => (await api.call(calls.auditLog, { query: { orgId, page, size: 20 } })).data,
    { keepPreviousData: true },
  );
}

/** Revalidates every key of the feature and the school data it shares (each write may change counts shown elsewhere). */
export function useRevalidateSchool() {
  const revalidate = useApiRevalidate();
  return () => {
    void revalidate(SCHOOL_KEY);
    void revalidate(SCHOOL_DATA);
  };
}

/** Stores the new user info (top bar logo, default school) after a change that shows in the chrome. */
export async function refreshUser(): Promise<void> {
  try {
    await api.refreshUser({ silent: true });
  } finally {
    sessionChanged();
  }
}

export const createSchool = async (body: CreateSchool) => (await api.call(calls.createSchool, { body })).data;
export const updateSchool = async (body: UpdateSchool) => (await api.call(calls.updateSchool, { body })).data;
export const uploadLogo = async (orgId: string, file: Blob) =>
  (await api.call(calls.uploadSchoolLogo, { body: { orgId, file } })).data;

export const createYear = async (orgId: string, name: string, isDefault: boolean) =>
  (await api.call(calls.createSchoolYear, { body: { orgId, name, isDefault } })).data;
export const renameYear = async (id: string, name: string) =>
  (await api.call(calls.renameSchoolYear, { params: { id }, body: { name } })).data;
export const setDefaultYear = async (id: string) =>
  (await api.call(calls.setDefaultSchoolYear, { params: { id } })).data;
export const archiveYear = async (id: string, archived: boolean) =>
  (await api.call(calls.archiveSchoolYear, { params: { id }, body: { archived } })).data;
export const graduateYear = async (id: string) =>
  (await api.call(calls.graduateSchoolYear, { params: { id } })).data;

export const createClass = async (yearId: string, name: string, grade: string | null) =>
  (
    await api.call(calls.createClass, {
      body: { yearId, name, ...(grade ? { grade: grade as never } : {}) },
    })
  ).data;
export const updateClass = async (id: string, name: string, grade: string | null) =>
  (await api.call(calls.updateClass, { params: { id }, body: { name, grade: (grade || null) as never } }))
    .data;
export const deleteClass = async (id: string) => {
  await api.call(calls.deleteClass, { params: { id } });
};

export const setSubjects = async (orgId: string, subjectIds: string[]) =>
  (await api.call(calls.setSchoolSubjects, { body: { orgId, subjectIds } })).data;
export const setDirectors = async (orgId: string, grade: string, memberIds: string[]) =>
  (await api.call(calls.setGradeDirectors, { body: { orgId, grade: grade as never, memberIds } })).data;

export interface StudentInput {
  name: string;
  studentNo: string;
  gender: z.infer<typeof GenderSchema> | null;
}
export const createStudent = async (classId: string, s: StudentInput) =>
  (await api.call(calls.createStudent, { body: { classId, ...s } })).data;
export const updateStudent = async (id: string, s: StudentInput) =>
  (await api.call(calls.updateStudent, { params: { id }, body: s })).data;
export const moveStudents = async (studentIds: string[], classId: string) =>
  (await api.call(calls.moveStudents, { body: { studentIds, classId } })).data;

export const downloadTemplate = (filename: string) => api.download(calls.studentTemplate.path, {}, filename);
export const exportClass = (classId: string, filename: string) =>
  api.download(calls.exportStudents.path, { classId }, filename);

export type ImportOutcome =
  | { ok: true; imported: number; createdClasses: string[] }
  | { ok: false; message: string; errors: { row: number; message: string }[] };

/** All rows or none: a refusal comes back with every broken row, shown in the dialog rather than a toast. */
export async function importStudents(input: {
  file: File;
  yearId: string;
  classId: string;
  createMissingClasses: boolean;
}): Promise<ImportOutcome> {
  try {
    const data = (
      await api.call(calls.importStudents, {
        body: {
          file: input.file,
          yearId: input.yearId,
          ...(input.classId ? { classId: input.classId } : {}),
          createMissingClasses: input.createMissingClasses,
        },
        silent: true,
      })
    ).data;
    return { ok: true, imported: data.imported, createdClasses: data.createdClasses.map((c) => c.name) };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const parsed = ImportErrorsSchema.safeParse(error.data);
    return { ok: false, message: error.message, errors: parsed.success ? parsed.data.errors : [] };
  }
}
