import { Dialog as HDialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { CloseIcon } from '../icons';
import { t } from '../../i18n/zh-CN';
import { cn } from '../../lib/utils';

const WIDTHS = { md: 'max-w-2xl', lg: 'max-w-3xl', xl: 'max-w-5xl', xxl: 'max-w-7xl' } as const;

/**
 * A modal for long forms (a question, a Word import): the title and the buttons stay in view while the body
 * scrolls, so nothing is ever out of reach however tall the content grows.
 */
export function LargeDialog({
  open,
  onClose,
  title,
  children,
  footer,
  width = 'lg',
  lead,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: keyof typeof WIDTHS;
  lead?: ReactNode;
}) {
  return (
    <HDialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-start justify-center p-2 sm:p-6">
        <DialogPanel
          className={cn(
            'flex max-h-full w-full flex-col rounded-xl bg-white shadow-xl ring-1 ring-slate-900/5',
            WIDTHS[width],
          )}
        >
          <div className="flex items-start justify-between gap-3 border-b border-slate-100 px-5 py-4 sm:px-6">
            <div>
              <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
              {lead && <div className="mt-1 text-sm text-slate-500">{lead}</div>}
            </div>
            <button
              type="button"
              onClick={onClose}
              className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-blue-600"
              aria-label={t.close}
            >
              <CloseIcon className="size-5" />
            </button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4 sm:px-6">{children}</div>
          {footer && <div className="border-t border-slate-100 px-5 py-3 sm:px-6">{footer}</div>}
        </DialogPanel>
      </div>
    </HDialog>
  );
}
