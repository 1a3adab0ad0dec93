import { Popover as HPopover, PopoverButton, PopoverPanel } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

/** A button that opens a non-modal panel (Escape or an outside click closes it). */
export function Popover({
  button,
  label,
  children,
  anchor = 'left start',
  panelClassName,
  buttonClassName,
  panelLabel,
}: {
  button: ReactNode;
  label: string;
  children: ReactNode | ((close: () => void) => ReactNode);
  anchor?: 'left start' | 'left' | 'bottom end' | 'bottom start' | 'bottom';
  panelClassName?: string;
  buttonClassName?: string;
  panelLabel?: string;
}) {
  return (
    <HPopover>
      <PopoverButton
        aria-label={label}
        className={cn(
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
          buttonClassName,
        )}
      >
        {button}
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: anchor, gap: 12 }}
        aria-label={panelLabel ?? label}
        className={cn(
          'z-40 rounded-xl border border-slate-200 bg-white shadow-xl focus:outline-none',
          panelClassName,
        )}
      >
        {({ close }) => <>{typeof children === 'function' ? children(() => close()) : children}</>}
      </PopoverPanel>
    </HPopover>
  );
}
