import { Dialog as HDialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { CloseIcon } from '../icons';
import { Button } from './button';
import { cn } from '../../lib/utils';
import { t } from '../../i18n/zh-CN';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Tailwind width classes of the panel. */
  className?: string;
  /** When false, neither the backdrop nor Escape closes it (e.g. scan settings). */
  dismissable?: boolean;
  /** Hide the visible title (it stays as the accessible name). */
  hideTitle?: boolean;
}

/** A modal dialog: focus trapped, labelled by its title, closable by the × button. */
export function Dialog({
  open,
  onClose,
  title,
  children,
  className,
  dismissable = true,
  hideTitle = false,
}: DialogProps) {
  return (
    <HDialog open={open} onClose={dismissable ? onClose : () => undefined} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-start justify-center overflow-y-auto p-4 sm:items-center">
        <DialogPanel
          className={cn(
            'relative my-8 w-full rounded-xl bg-white p-6 shadow-xl ring-1 ring-slate-900/5',
            // cn does not merge classes: a width of the caller's replaces the default instead of racing it in CSS.
            !/(^|\s)max-w-/.test(className ?? '') && 'max-w-md',
            className,
          )}
        >
          <DialogTitle className={cn('pr-8 text-lg font-semibold text-slate-900', hideTitle && 'sr-only')}>
            {title}
          </DialogTitle>
          <button
            type="button"
            onClick={onClose}
            className="absolute top-4 right-4 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-blue-600"
            aria-label={t.close}
          >
            <CloseIcon className="size-5" />
          </button>
          <div className={hideTitle ? '' : 'mt-4'}>{children}</div>
        </DialogPanel>
      </div>
    </HDialog>
  );
}

/**
 * A form dialog's footer: 取消 (closes) and the submit button, busy while the form is sent. With `onSubmit` (a dialog
 * without a form) the button calls it instead of submitting.
 */
export function DialogActions({
  onCancel,
  busy,
  submitLabel,
  className,
  onSubmit,
}: {
  onCancel: () => void;
  busy: boolean;
  submitLabel: string;
  className?: string;
  onSubmit?: () => void;
}) {
  return (
    <div className={cn('flex justify-end gap-2', className)}>
      <Button variant="secondary" onClick={onCancel}>
        {t.cancel}
      </Button>
      <Button {...(onSubmit ? { onClick: onSubmit } : { type: 'submit' as const })} loading={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
