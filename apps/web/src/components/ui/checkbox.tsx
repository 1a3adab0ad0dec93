import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

/** A tick box with its label on the right; `className` sets the label's text (default small, dark grey). */
export function Checkbox({
  checked,
  onChange,
  children,
  className = 'text-sm text-slate-700',
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  className?: string;
}) {
  return (
    <label className={cn('flex items-center gap-2', className)}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 accent-blue-600"
      />
      {children}
    </label>
  );
}
