import {
  buildPath,
  calls,
  type AnalysisExport,
  type AnalysisHomeworksQuery,
  type MistakeBookPdf,
} from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

// Every call of the analysis screens: one SWR key per answer, scoped to the signed-in user by useApi.

export function useAnalysisFilters() {
  return useApi(
    ['teacher/analysis/filters'],
    async () => (await api.call(calls.analysisFilters, { query: {} })).data,
  );
}

export function useAnalysisHomeworks(query: AnalysisHomeworksQuery, enabled = true) {
  return useApi(
    enabled ? ['teacher/analysis/homeworks', JSON.stringify(query)] : null,
    async () => (await api.call(calls.analysisHomeworks, { query })).data,
    { keepPreviousData: true },
  );
}

export function useHomeworkAnalysis(homeworkId: string | null, classId: string | null) {
  return useApi(
    homeworkId ? ['teacher/analysis/homework', homeworkId, classId] : null,
    async () =>
      (
        await api.call(calls.homeworkAnalysis, {
          params: { id: homeworkId! },
          query: classId ? { classId } : {},
        })
      ).data,
  );
}

export function useGradeTrend(subjectId: string | null) {
  return useApi(
    subjectId ? ['teacher/analysis/grade/trend', subjectId] : null,
    async () => (await api.call(calls.gradeTrend, { query: { subjectId: subjectId!, limit: 20 } })).data,
  );
}

export function useClassAnalysis(homeworkId: string | null, classId: string | null) {
  return useApi(
    homeworkId && classId ? ['teacher/analysis/class', homeworkId, classId] : null,
    async () =>
      (await api.call(calls.classAnalysis, { query: { homeworkId: homeworkId!, classId: classId! } })).data,
  );
}

export function useStudentAnalysis(studentId: string | null, subjectId: string | null) {
  return useApi(
    studentId ? ['teacher/analysis/student', studentId, subjectId] : null,
    async () =>
      (
        await api.call(calls.studentAnalysis, {
          query: { studentId: studentId!, ...(subjectId ? { subjectId } : {}) },
        })
      ).data,
  );
}

export function useCommentary(homeworkId: string | null, classId: string | null) {
  return useApi(
    homeworkId ? ['teacher/analysis/commentary', homeworkId, classId] : null,
    async () =>
      (await api.call(calls.commentary, { params: { id: homeworkId! }, query: classId ? { classId } : {} }))
        .data,
  );
}

export function useHomeworkDetails(homeworkId: string | null, classId: string | null) {
  return useApi(
    homeworkId ? ['teacher/analysis/details', homeworkId, classId] : null,
    async () =>
      (
        await api.call(calls.homeworkDetails, {
          params: { id: homeworkId! },
          query: classId ? { classId } : {},
        })
      ).data,
  );
}

export function useMistakeBook(
  studentId: string | null,
  filter: {
    subjectId?: string | null;
    homeworkId?: string | null;
    /** A date range (YYYY-MM-DD) instead of one homework. */
    from?: string | null;
    to?: string | null;
    similar: number;
  },
) {
  return useApi(
    studentId
      ? [
          'teacher/analysis/mistake-book',
          studentId,
          filter.subjectId ?? null,
          filter.homeworkId ?? null,
          filter.from ?? null,
          filter.to ?? null,
          filter.similar,
        ]
      : null,
    async () =>
      (
        await api.call(calls.mistakeBook, {
          query: {
            studentId: studentId!,
            similar: filter.similar,
            ...(filter.subjectId ? { subjectId: filter.subjectId } : {}),
            ...(filter.homeworkId ? { homeworkId: filter.homeworkId } : {}),
            ...(filter.from ? { from: filter.from } : {}),
            ...(filter.to ? { to: filter.to } : {}),
          },
        })
      ).data,
  );
}

/** SPEC §7 file download of the report PDF (progress bar, 下载失败 on failure). */
export const downloadReportPdf = (homeworkId: string, classId: string | null, filename: string) =>
  api.download(buildPath(calls.reportPdf.path, { id: homeworkId }), classId ? { classId } : {}, filename);

/** SPEC §7 file download of 错题本 as one PDF. */
export const downloadMistakeBookPdf = (body: MistakeBookPdf, filename: string) =>
  api.download(calls.mistakeBookPdf.path, body, filename);

/** The host's Excel of a table (the score list carries ranks where allowed, Z and T scores). */
export const downloadAnalysisExport = (body: AnalysisExport, filename: string) =>
  api.download(calls.exportAnalysis.path, body, filename);
