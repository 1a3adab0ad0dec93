import { useEffect, useId, useState } from 'react';
import { ButtonLink, Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { composition } from '../../../i18n/composition';
import { useClassStudents } from '../../../api/classes';
import { downloadMistakeBookPdf, useAnalysisFilters, useAnalysisHomeworks } from '../api/analysis';
import { MistakeBookView } from './mistake-book';
import { RehearsePublish } from './rehearse-publish';
import { LoadState } from './parts';
import { DateInput } from '../../../components/ui/date-input';
import { addDays, isDay } from '@zhzy/contracts';
import { todayInSchool } from '../../../lib/school-day';
import { cn } from '../../../lib/utils';

const s = composition.mistakes;

function Picker({
  label,
  value,
  onChange,
  placeholder,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder: string;
  options: { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1 text-sm text-slate-700">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-9 min-w-48 rounded-md border border-slate-300 bg-white px-3 text-slate-800"
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The four steps that make wrong answers appear here, when the school year has no marked homework yet. */
function NothingMarked() {
  return (
    <section
      aria-labelledby="mistakes-empty"
      className="rounded-xl border border-slate-200 bg-white px-6 py-10"
    >
      <div className="mx-auto max-w-2xl">
        <h2 id="mistakes-empty" className="text-center text-lg font-semibold text-slate-900">
          {s.emptyTitle}
        </h2>
        <p className="mt-2 text-center text-sm leading-6 text-slate-600">{s.emptyText}</p>
        <ol className="mt-8 grid gap-3 sm:grid-cols-4">
          {s.steps.map((step, i) => (
            <li key={step.title} className="rounded-lg bg-slate-50 px-4 py-3">
              <span className="flex size-6 items-center justify-center rounded-full bg-blue-600 text-xs font-semibold text-white">
                {i + 1}
              </span>
              <p className="mt-2 text-sm font-medium text-slate-800">{step.title}</p>
              <p className="mt-1 text-xs leading-5 text-slate-500">{step.text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-6 text-center text-sm leading-6 text-slate-600">{s.then}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <ButtonLink to={paths.rehearse.select}>{s.goCompose}</ButtonLink>
          <ButtonLink to={paths.paperlist} variant="secondary">
            {s.goHomework}
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}

/**
 * 错题重练: the analysis module's 错题本 (one feature, ADR 0048) reached by class → marked homework (or a date
 * range) → students. Each student's wrong questions with the answer given, the key, the score and similar
 * questions; the personal 错题本 of one or several students, or the whole class's, as PDF; and the questions into
 * the basket to compose and publish a redo paper.
 */
export function MistakesScreen() {
  const filters = useAnalysisFilters();
  const [classId, setClassId] = useState('');
  const [mode, setMode] = useState<'homework' | 'range'>('homework');
  const [homeworkId, setHomeworkId] = useState('');
  const [from, setFrom] = useState(() => addDays(todayInSchool(), -30));
  const [to, setTo] = useState(() => todayInSchool());
  const [studentId, setStudentId] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState<'class' | 'picked' | null>(null);
  const list = useAnalysisHomeworks(
    { page: 1, size: 100, withResults: true, ...(classId ? { classId } : {}) },
    classId !== '',
  );
  const roster = useClassStudents(classId || null);
  const classes = filters.data?.classes ?? [];
  const homework = list.data?.records ?? [];
  const students = roster.data ?? [];

  // A class with one marked homework: take it; a changed class forgets the homework and student.
  useEffect(() => {
    if (!list.data || homeworkId) return;
    if (list.data.records.length === 1) setHomeworkId(list.data.records[0]!.id);
  }, [list.data, homeworkId]);

  if (!filters.data)
    return <LoadState error={filters.error as unknown} onRetry={() => void filters.mutate()} />;
  if (classes.length === 0) return <NothingMarked />;

  const shown = studentId || null;
  const current = homework.find((h) => h.id === homeworkId) ?? null;
  const className = classes.find((c) => c.id === classId)?.name ?? '';
  const rangeValid = isDay(from) && isDay(to) && from <= to;
  const ready = mode === 'homework' ? homeworkId !== '' : rangeValid;
  const range = mode === 'range' && rangeValid ? { from, to } : null;
  /** What the books cover: one homework, or the homework of a date range. */
  const scope = mode === 'homework' ? { homeworkId } : { from, to };
  const scopeName = mode === 'homework' ? (current?.title ?? '') : s.rangeName(from, to);

  const download = (which: 'class' | 'picked') => {
    setBusy(which);
    const names = students.filter((st) => picked.includes(st.id)).map((st) => st.name);
    downloadMistakeBookPdf(
      which === 'class' ? { classId, similar: 2, ...scope } : { studentIds: picked, similar: 2, ...scope },
      which === 'class'
        ? `${className}-${scopeName}-${s.classBook}.pdf`
        : `${names.length === 1 ? names[0] : s.pickedFile(names.length)}-${scopeName}-${s.classBook}.pdf`,
    )
      .catch(() => undefined)
      .finally(() => setBusy(null));
  };

  const empty = (text: string) => (
    <p className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-600">
      {text}
    </p>
  );

  return (
    <div className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-white p-5">
        <p className="text-sm leading-6 text-slate-600">{s.intro}</p>
        <div className="mt-4 flex flex-wrap items-end gap-4">
          <Picker
            label={s.classes}
            value={classId}
            placeholder={s.chooseClasses}
            options={classes.map((c) => ({ value: c.id, label: c.name }))}
            onChange={(v) => {
              setClassId(v);
              setHomeworkId('');
              setStudentId('');
              setPicked([]);
            }}
          />
          <div
            role="radiogroup"
            aria-label={s.scope}
            className="flex h-9 rounded-md border border-slate-300 text-sm"
          >
            {(['homework', 'range'] as const).map((m) => (
              <button
                key={m}
                type="button"
                role="radio"
                aria-checked={mode === m}
                onClick={() => {
                  setMode(m);
                  setStudentId('');
                }}
                className={cn(
                  'px-3 first:rounded-l-md last:rounded-r-md',
                  mode === m ? 'bg-blue-600 text-white' : 'bg-white text-slate-700 hover:bg-slate-50',
                )}
              >
                {m === 'homework' ? s.byHomework : s.byRange}
              </button>
            ))}
          </div>
          {mode === 'homework' ? (
            <Picker
              label={s.homework}
              value={homeworkId}
              placeholder={s.chooseHomework}
              options={homework.map((h) => ({ value: h.id, label: `${h.title}（${h.startDate}）` }))}
              onChange={setHomeworkId}
            />
          ) : (
            <>
              <div className="flex flex-col gap-1 text-sm text-slate-700">
                <span>{s.from}</span>
                <DateInput label={s.from} value={from} max={to} onChange={setFrom} invalid={!rangeValid} />
              </div>
              <div className="flex flex-col gap-1 text-sm text-slate-700">
                <span>{s.to}</span>
                <DateInput label={s.to} value={to} min={from} onChange={setTo} invalid={!rangeValid} />
              </div>
            </>
          )}
          <Picker
            label={s.students}
            value={studentId}
            placeholder={s.chooseStudent}
            options={students.map((st) => ({ value: st.id, label: `${st.name}（${st.studentNo}）` }))}
            onChange={setStudentId}
          />
          <Button
            variant="secondary"
            loading={busy === 'class'}
            disabled={!classId || !ready}
            onClick={() => download('class')}
          >
            {s.classPdf}
          </Button>
        </div>
        {mode === 'range' && !rangeValid && <p className="mt-2 text-sm text-red-600">{s.badRange}</p>}
      </div>
      {classId && ready && (
        <RehearsePublish
          key={`${classId}-${homeworkId}-${mode}`}
          classId={classId}
          scope={scope}
          picked={picked}
        />
      )}
      {!classId ? (
        empty(s.pickClass)
      ) : mode === 'homework' && list.data && homework.length === 0 ? (
        empty(s.noMarked)
      ) : !ready ? (
        empty(mode === 'homework' ? s.pickHomework : s.badRange)
      ) : !shown ? (
        <section className="rounded-xl border border-slate-200 bg-white p-5">
          <h2 className="text-base font-semibold text-slate-900">{s.pickStudent}</h2>
          {!roster.data ? (
            <LoadState error={roster.error as unknown} onRetry={() => void roster.mutate()} />
          ) : (
            <>
              <ul className="mt-3 flex flex-wrap gap-2">
                {students.map((st) => (
                  <li key={st.id}>
                    <Button variant="secondary" onClick={() => setStudentId(st.id)}>
                      {st.name}
                    </Button>
                  </li>
                ))}
              </ul>
              <fieldset className="mt-5 border-t border-slate-100 pt-4">
                <legend className="text-sm font-medium text-slate-800">{s.severalTitle}</legend>
                <p className="mt-1 text-xs text-slate-500">{s.severalHint}</p>
                <div className="mt-2 grid grid-cols-3 gap-1.5 sm:grid-cols-6">
                  {students.map((st) => (
                    <label key={st.id} className="flex items-center gap-2 text-sm text-slate-700">
                      <input
                        type="checkbox"
                        className="size-4 accent-blue-600"
                        checked={picked.includes(st.id)}
                        onChange={(e) =>
                          setPicked(
                            e.target.checked ? [...picked, st.id] : picked.filter((id) => id !== st.id),
                          )
                        }
                      />
                      {st.name}
                    </label>
                  ))}
                </div>
                <Button
                  className="mt-3"
                  loading={busy === 'picked'}
                  disabled={picked.length === 0}
                  onClick={() => download('picked')}
                >
                  {s.pickedPdf(picked.length)}
                </Button>
              </fieldset>
            </>
          )}
        </section>
      ) : (
        <MistakeBookView
          key={`${shown}-${homeworkId}-${range?.from ?? ''}-${range?.to ?? ''}`}
          studentId={shown}
          subjectId={mode === 'homework' ? (current?.subjectId ?? null) : null}
          homeworkId={mode === 'homework' ? homeworkId : null}
          range={range}
        />
      )}
    </div>
  );
}
