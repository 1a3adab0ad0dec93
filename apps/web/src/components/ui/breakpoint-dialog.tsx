import { Dialog as HDialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect, useState, type ReactNode } from 'react';
import { DIALOG_BREAKPOINTS, DIALOG_WIDTHS } from '@zhzy/contracts/constants';
import { CloseIcon } from '../icons';
import { t } from '../../i18n/zh-CN';

/** SPEC §2/§9: a dialog is 80 % of the window under 550 px, 30 % under 1400 px, otherwise 25 %. */
export function dialogWidthFor(windowWidth: number): string {
  const share =
    windowWidth < DIALOG_BREAKPOINTS.small
      ? DIALOG_WIDTHS.small
      : windowWidth < DIALOG_BREAKPOINTS.medium
        ? DIALOG_WIDTHS.medium
        : DIALOG_WIDTHS.large;
  // A share of the window, not of the padded overlay it sits in.
  return share.replace('%', 'vw');
}

/** The window's inner width, following resizes. */
export function useWindowWidth(): number {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? 1440 : window.innerWidth));
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

/**
 * A modal dialog whose width follows the SPEC's breakpoints. With `dismissable` false neither a backdrop click
 * nor Escape closes it (the × button and the dialog's own buttons still do).
 */
export function BreakpointDialog({
  open,
  onClose,
  title,
  children,
  dismissable = true,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  dismissable?: boolean;
}) {
  const width = dialogWidthFor(useWindowWidth());
  return (
    <HDialog open={open} onClose={dismissable ? onClose : () => undefined} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-start justify-center overflow-y-auto py-4 sm:items-center">
        <DialogPanel
          style={{ width }}
          data-width={width}
          className="relative my-8 max-w-none rounded-xl bg-white p-5 shadow-xl ring-1 ring-slate-900/5 sm:p-6"
        >
          <DialogTitle className="pr-8 text-lg font-semibold text-slate-900">{title}</DialogTitle>
          <button
            type="button"
            onClick={onClose}
            className="absolute top-4 right-4 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-blue-600"
            aria-label={t.close}
          >
            <CloseIcon className="size-5" />
          </button>
          <div className="mt-4">{children}</div>
        </DialogPanel>
      </div>
    </HDialog>
  );
}
