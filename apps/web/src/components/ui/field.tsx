import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from '../../lib/utils';

/** A labelled text input with an error line (announced) and an optional hint. */
export const TextField = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & {
    label: string;
    error?: string | null;
    hint?: ReactNode;
    addon?: ReactNode;
  }
>(function TextField({ label, error, hint, addon, className, id, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex items-stretch gap-2">
        <input
          ref={ref}
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={cn(error ? errorId : '', hint ? hintId : '') || undefined}
          className={cn(
            'h-10 w-full min-w-0 rounded-md border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500',
            'focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none',
            error ? 'border-red-400' : 'border-slate-300',
          )}
          {...rest}
        />
        {addon}
      </div>
      {hint && !error && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
});
