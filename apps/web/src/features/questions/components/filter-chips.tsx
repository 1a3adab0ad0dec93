import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';

/** One row of single-choice filter chips with 全部 first. */
export function FilterChips<V extends string | number>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: V; label: string; title?: string | undefined }[];
  value: V | null;
  onChange: (v: V | null) => void;
}) {
  const chip = (active: boolean) =>
    cn(
      'h-7 rounded-md px-3 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-blue-600',
      active ? 'bg-blue-50 font-medium text-blue-700' : 'text-slate-600 hover:bg-slate-100',
    );
  return (
    <div className="flex flex-wrap items-center gap-x-1 gap-y-2" role="group" aria-label={label}>
      <span className="w-12 shrink-0 text-sm text-slate-500">{label}</span>
      <button
        type="button"
        aria-pressed={value === null}
        className={chip(value === null)}
        onClick={() => onChange(null)}
      >
        {composition.questions.all}
      </button>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={value === o.value}
          title={o.title}
          className={chip(value === o.value)}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
