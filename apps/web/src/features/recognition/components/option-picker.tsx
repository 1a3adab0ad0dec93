import { cn } from '../../../lib/utils';
import { zhCNRecognition as r } from '../../../i18n/recognition';

/** Toggle buttons for a question's options: one for single choice and true/false, any number for multiple. */
export function OptionPicker({
  options,
  value,
  multiple,
  onChange,
  label,
}: {
  options: readonly string[];
  value: string;
  multiple: boolean;
  onChange: (next: string) => void;
  label: string;
}) {
  const toggle = (o: string) => {
    if (!multiple) return onChange(value === o ? '' : o);
    const set = new Set(value);
    if (set.has(o)) set.delete(o);
    else set.add(o);
    onChange(options.filter((x) => set.has(x)).join(''));
  };
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-1">
      {options.map((o) => {
        const on = value.includes(o);
        return (
          <button
            key={o}
            type="button"
            aria-pressed={on}
            onClick={() => toggle(o)}
            className={cn(
              'h-7 min-w-7 rounded-md border px-2 text-sm font-medium transition-colors',
              on
                ? 'border-sky-600 bg-sky-600 text-white'
                : 'border-slate-300 bg-white text-slate-700 hover:border-sky-400',
            )}
          >
            {o === 'T' ? r.exceptions.true : o === 'F' ? r.exceptions.false : o}
          </button>
        );
      })}
    </div>
  );
}

export const showResponse = (v: string | null) =>
  v === null
    ? '—'
    : v === ''
      ? r.review.blank
      : v.replace('T', r.exceptions.true).replace('F', r.exceptions.false);
