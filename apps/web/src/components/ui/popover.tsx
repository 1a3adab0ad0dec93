import { Popover as HPopover, PopoverButton, PopoverPanel } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

/**
 * A button that opens a non-modal panel (Escape or an outside click closes it). `overlay` is drawn over the button
 * but outside it (positioned against the wrapper, blind to the pointer), for a badge whose text the label already
 * carries: inside the button its text would be part of the visible label that the accessible name must contain.
 */
export function Popover({
  button,
  label,
  children,
  anchor = 'left start',
  panelClassName,
  buttonClassName,
  panelLabel,
  overlay,
}: {
  button: ReactNode;
  label: string;
  children: ReactNode | ((close: () => void) => ReactNode);
  anchor?: 'left start' | 'left' | 'bottom end' | 'bottom start' | 'bottom';
  panelClassName?: string;
  buttonClassName?: string;
  panelLabel?: string;
  overlay?: ReactNode;
}) {
  return (
    <HPopover className={overlay ? 'relative' : undefined}>
      <PopoverButton
        aria-label={label}
        className={cn(
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
          buttonClassName,
        )}
      >
        {button}
      </PopoverButton>
      {overlay}
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
