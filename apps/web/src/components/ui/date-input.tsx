import { Popover as HPopover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useEffect, useState } from 'react';
import { isDay } from '@zhzy/contracts';
import { t } from '../../i18n/zh-CN';
import { todayInSchool } from '../../lib/school-day';
import { cn } from '../../lib/utils';
import { CalendarIcon } from '../icons';

/** The days of a month's grid, Monday first, with blanks before the 1st. */
function monthGrid(year: number, month: number): (number | null)[] {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = (first + 6) % 7;
  return [...Array<null>(lead).fill(null), ...Array.from({ length: days }, (_, i) => i + 1)];
}

const dayText = (y: number, m: number, d: number) =>
  `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/**
 * A date field in Chinese form whatever the browser's language: the day typed or shown as YYYY-MM-DD (a native
 * date input follows the browser's locale: 11/28/2026 in an English Chromium) and picked from a calendar with
 * 「2026年11月」 and 一…日. onChange gets '' or a whole valid day, never a half-typed one.
 */
export function DateInput({
  id,
  label,
  value,
  onChange,
  min,
  max,
  className,
  invalid,
  describedBy,
}: {
  id?: string;
  label: string;
  value: string;
  onChange: (day: string) => void;
  min?: string;
  max?: string;
  className?: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const shown = isDay(value) ? value : todayInSchool();
  const [view, setView] = useState({ y: Number(shown.slice(0, 4)), m: Number(shown.slice(5, 7)) });
  const move = (n: number) =>
    setView((v) => {
      const m = v.m + n;
      return m < 1 ? { y: v.y - 1, m: 12 } : m > 12 ? { y: v.y + 1, m: 1 } : { y: v.y, m };
    });
  const allowed = (day: string) => (!min || day >= min) && (!max || day <= max);

  return (
    <span className={cn('inline-flex items-stretch gap-1', className)} data-date-input>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        aria-label={id ? undefined : label}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        placeholder={t.date.placeholder}
        value={text}
        maxLength={11}
        onChange={(e) => {
          // 2026/11/28, 2026.11.28 and 2026年11月28日 (年 \u5e74, 月 \u6708, 日 \u65e5) read as 2026-11-28.
          const next = e.target.value
            .trim()
            .replace(/[/.\u5e74\u6708]/g, '-')
            .replace(/\u65e5$/, '');
          setText(e.target.value);
          if (next === '' || isDay(next)) onChange(next);
        }}
        onBlur={() => setText(value)}
        className={cn(
          'h-9 w-[7.5rem] min-w-0 rounded-md border bg-white px-2 text-sm text-slate-900 tabular-nums placeholder:text-slate-500',
          'focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none',
          invalid ? 'border-red-400' : 'border-slate-300',
        )}
      />
      <HPopover className="relative">
        <PopoverButton
          aria-label={t.date.open(label)}
          onClick={() => setView({ y: Number(shown.slice(0, 4)), m: Number(shown.slice(5, 7)) })}
          className="inline-flex h-9 w-9 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-500 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <CalendarIcon className="size-4" />
        </PopoverButton>
        <PopoverPanel
          anchor={{ to: 'bottom end', gap: 6 }}
          aria-label={label}
          className="z-50 w-64 rounded-xl border border-slate-200 bg-white p-3 shadow-xl"
          data-testid="date-calendar"
        >
          {({ close }) => (
            <div>
              <div className="mb-2 flex items-center justify-between">
                <button
                  type="button"
                  className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100"
                  aria-label={t.date.prev}
                  onClick={() => move(-1)}
                >
                  ‹
                </button>
                <span className="text-sm font-medium text-slate-900" aria-live="polite">
                  {t.date.month(view.y, view.m)}
                </span>
                <button
                  type="button"
                  className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100"
                  aria-label={t.date.next}
                  onClick={() => move(1)}
                >
                  ›
                </button>
              </div>
              <div className="grid grid-cols-7 gap-0.5 text-center text-xs">
                {t.date.weekdays.map((w) => (
                  <span key={w} className="py-1 text-slate-500">
                    {w}
                  </span>
                ))}
                {monthGrid(view.y, view.m).map((d, i) => {
                  if (d === null) return <span key={`b${i}`} />;
                  const day = dayText(view.y, view.m, d);
                  return (
                    <button
                      key={day}
                      type="button"
                      disabled={!allowed(day)}
                      aria-label={t.date.day(view.y, view.m, d)}
                      aria-pressed={day === value}
                      onClick={() => {
                        onChange(day);
                        close();
                      }}
                      className={cn(
                        'rounded py-1 tabular-nums disabled:text-slate-300',
                        day === value ? 'bg-blue-600 text-white' : 'text-slate-800 hover:bg-blue-50',
                      )}
                    >
                      {d}
                    </button>
                  );
                })}
              </div>
              <div className="mt-2 flex justify-between text-xs">
                <button
                  type="button"
                  className="text-blue-700 hover:underline disabled:text-slate-300"
                  disabled={!allowed(todayInSchool())}
                  onClick={() => {
                    onChange(todayInSchool());
                    close();
                  }}
                >
                  {t.date.today}
                </button>
                <button
                  type="button"
                  className="text-slate-500 hover:underline"
                  onClick={() => {
                    onChange('');
                    close();
                  }}
                >
                  {t.date.clear}
                </button>
              </div>
            </div>
          )}
        </PopoverPanel>
      </HPopover>
    </span>
  );
}
