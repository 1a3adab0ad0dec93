import { useEffect, useId, useState } from 'react';
import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';
import { parseScore } from '../utils/draft';

const fmt = (n: number) => String(Math.round(n * 10) / 10);

/**
 * A score box: every valid value is committed as it is typed (so totals follow at once), an invalid one is
 * marked and never committed; ↑/↓ step by one point, Enter or leaving the box shows the committed value again.
 */
export function ScoreInput({
  value,
  onCommit,
  label,
  highlight = false,
  hint,
  id,
  className,
}: {
  value: number;
  onCommit: (score: number) => void;
  label: string;
  /** Marks a question whose score differs from its section's. */
  highlight?: boolean;
  hint?: string;
  id?: string;
  className?: string;
}) {
  const [text, setText] = useState(fmt(value));
  const errorId = useId();
  // A value changed elsewhere (undo, the section's score) replaces the text unless the text already says it.
  useEffect(() => {
    setText((current) => (parseScore(current) === value ? current : fmt(value)));
  }, [value]);
  const invalid = parseScore(text) === null;

  const change = (next: string) => {
    setText(next);
    const score = parseScore(next);
    if (score !== null && score !== value) onCommit(score);
  };

  return (
    <span className={cn('inline-flex items-center gap-1', className)}>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        aria-label={label}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        title={invalid ? composition.compose.scoreInvalid : hint}
        value={text}
        onFocus={(e) => e.target.select()}
        onBlur={() => setText(fmt(value))}
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
            e.preventDefault();
            const base = parseScore(text) ?? value;
            const next = Math.max(
              0,
              Math.min(200, Math.round((base + (e.key === 'ArrowUp' ? 1 : -1)) * 10) / 10),
            );
            change(fmt(next));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            setText(fmt(parseScore(text) ?? value));
          }
        }}
        className={cn(
          'h-8 w-14 rounded-md border bg-white px-2 text-center text-sm tabular-nums text-slate-900',
          'focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none',
          invalid
            ? 'border-red-400 bg-red-50'
            : highlight
              ? 'border-amber-400 bg-amber-50'
              : 'border-slate-300',
        )}
      />
      <span className="text-sm text-slate-500">{composition.compose.points}</span>
      {invalid && (
        <span id={errorId} className="sr-only">
          {composition.compose.scoreInvalid}
        </span>
      )}
    </span>
  );
}
