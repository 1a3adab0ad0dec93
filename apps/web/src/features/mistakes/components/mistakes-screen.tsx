import { useId } from 'react';
import { ButtonLink } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { composition } from '../../../i18n/composition';

const s = composition.mistakes;

function DisabledPicker({
  label,
  placeholder,
  describedBy,
}: {
  label: string;
  placeholder: string;
  describedBy: string;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm text-slate-500" title={s.why}>
      {label}
      <select
        disabled
        aria-describedby={describedBy}
        className="h-9 w-48 cursor-not-allowed rounded-md border border-slate-200 bg-slate-50 px-3 text-slate-500"
      >
        <option>{placeholder}</option>
      </select>
    </label>
  );
}

/**
 * 错题重练. Wrong answers come from marked homework, which later issues record; until then this screen says
 * plainly what will appear here and what has to happen first, and keeps its pickers visible but disabled.
 */
export function MistakesScreen() {
  const why = useId();
  return (
    <div className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-white p-5">
        <p className="text-sm leading-6 text-slate-600">{s.intro}</p>
        <div className="mt-4 flex flex-wrap items-end gap-4">
          <DisabledPicker label={s.classes} placeholder={s.chooseClasses} describedBy={why} />
          <DisabledPicker label={s.homework} placeholder={s.chooseHomework} describedBy={why} />
          <DisabledPicker label={s.students} placeholder={s.allStudents} describedBy={why} />
          <label className="flex items-center gap-2 pb-2 text-sm text-slate-500" title={s.why}>
            <input type="checkbox" disabled className="size-4" aria-describedby={why} />
            {s.withSimilar}
          </label>
        </div>
        <p id={why} className="mt-3 text-xs text-slate-500">
          {s.why}
        </p>
      </div>
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
    </div>
  );
}
