import { useEffect, useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AnalysisHomeworkItem } from '@zhzy/contracts';
import { Listbox } from '../../../components/ui/listbox';
import { zhAnalysis as ta } from '../../../i18n/analysis';
import { useAnalysisFilters, useAnalysisHomeworks } from '../api/analysis';

const tp = ta.picker;

/** The screen's selection, kept in the address (so /paperlist's 分析 and a shared link open the same view). */
export function useAnalysisSelection() {
  const [params, setParams] = useSearchParams();
  const get = (k: string) => params.get(k) || null;
  const set = (patch: Record<string, string | null>, replace = false) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace });
  };
  return {
    homeworkId: get('homeworkId'),
    classId: get('classId'),
    subjectId: get('subjectId'),
    studentId: get('studentId'),
    set,
  };
}

/** The newest homework with at least one scored student (what a screen opens with when none is chosen). */
export function firstWithResults(records: AnalysisHomeworkItem[]): AnalysisHomeworkItem | null {
  return records.find((r) => r.scoredCount > 0) ?? null;
}

/**
 * The toolbar of the homework screens: 学科, then 作业 (newest first, with how many students are scored), then
 * optionally the class (全年级 or one class of the homework). Opens the newest homework with results when the
 * address names none.
 */
export function HomeworkToolbar({
  classMode,
  actions,
}: {
  /** 'optional': 全年级 or a class; 'required': a class must be chosen; 'none': no class picker. */
  classMode: 'optional' | 'required' | 'none';
  actions?: ReactNode;
}) {
  const sel = useAnalysisSelection();
  const filters = useAnalysisFilters();
  const list = useAnalysisHomeworks({
    page: 1,
    size: 50,
    withResults: false,
    ...(sel.subjectId ? { subjectId: sel.subjectId } : {}),
  });
  const records = useMemo(() => list.data?.records ?? [], [list.data]);
  const current = records.find((r) => r.id === sel.homeworkId) ?? null;

  // Open the newest homework with results when none is named (or the named one is not in this subject).
  useEffect(() => {
    if (sel.homeworkId || !list.data) return;
    const first = firstWithResults(records) ?? records[0];
    if (first) sel.set({ homeworkId: first.id, classId: null }, true);
  }, [sel.homeworkId, list.data]);

  // A class must be chosen: take the first class of the homework.
  useEffect(() => {
    if (classMode !== 'required' || !current) return;
    if (!sel.classId || !current.classes.some((k) => k.id === sel.classId)) {
      const first = current.classes[0];
      if (first) sel.set({ classId: first.id }, true);
    }
  }, [classMode, current, sel.classId]);

  const subjects = filters.data?.subjects ?? [];
  const homeworkOptions = records.map((r) => ({
    value: r.id,
    label: `${tp.homeworkLabel(r.title, r.typeName, r.startDate)} · ${tp.progress(r.scoredCount, r.studentCount)}`,
  }));
  if (sel.homeworkId && !current) {
    homeworkOptions.unshift({ value: sel.homeworkId, label: tp.pickHomework });
  }
  const classOptions = current
    ? [
        ...(classMode === 'optional' ? [{ value: '', label: tp.allClasses }] : []),
        ...current.classes.map((k) => ({ value: k.id, label: k.name })),
      ]
    : [];

  return (
    <div className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 print:hidden">
      <Listbox
        label={tp.subject}
        value={sel.subjectId ?? ''}
        placeholder={tp.allSubjects}
        options={[
          { value: '', label: tp.allSubjects },
          ...subjects.map((s) => ({ value: s.id, label: `${s.stageName}${s.name}` })),
        ]}
        onChange={(v) => sel.set({ subjectId: v || null, homeworkId: null, classId: null })}
      />
      <Listbox
        label={tp.homework}
        value={sel.homeworkId ?? ''}
        placeholder={list.data ? tp.pickHomework : tp.loading}
        options={homeworkOptions}
        onChange={(v) => sel.set({ homeworkId: v, classId: null })}
        buttonClassName="w-72 sm:w-96"
      />
      {classMode !== 'none' && current && (
        <Listbox
          label={tp.class}
          value={sel.classId ?? ''}
          placeholder={classMode === 'optional' ? tp.allClasses : tp.pickClass}
          options={classOptions}
          onChange={(v) => sel.set({ classId: v || null })}
        />
      )}
      {actions && <div className="ml-auto flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

/** Whether the toolbar has finished and found nothing to analyse. */
export function useNoHomework() {
  const sel = useAnalysisSelection();
  const list = useAnalysisHomeworks({
    page: 1,
    size: 50,
    withResults: false,
    ...(sel.subjectId ? { subjectId: sel.subjectId } : {}),
  });
  return {
    empty: Boolean(list.data && list.data.records.length === 0 && !sel.homeworkId),
    error: list.error as unknown,
  };
}
