import { useRef, type KeyboardEvent } from 'react';
import { cn } from '../../lib/utils';

/** A small radio group drawn as joined buttons (arrow keys move the choice). */
export function Segmented<V extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string;
  value: V;
  options: { value: V; label: string }[];
  onChange: (v: V) => void;
  className?: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: KeyboardEvent, index: number) => {
    const step =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? -1
          : 0;
    if (!step) return;
    e.preventDefault();
    const next = (index + step + options.length) % options.length;
    onChange(options[next]!.value);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className={cn('inline-flex rounded-lg bg-slate-100 p-0.5', className)}
    >
      {options.map((o, i) => {
        const on = o.value === value;
        return (
          <button
            key={o.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={on}
            tabIndex={on || (i === 0 && !options.some((x) => x.value === value)) ? 0 : -1}
            onKeyDown={(e) => onKey(e, i)}
            onClick={() => onChange(o.value)}
            className={cn(
              'h-7 rounded-md px-3 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-blue-600',
              on ? 'bg-white font-medium text-blue-700 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
