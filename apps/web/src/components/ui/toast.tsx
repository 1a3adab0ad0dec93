import { useState } from 'react';
import { createPortal } from 'react-dom';
import { AlertIcon, CheckIcon, CloseIcon, InfoIcon } from '../icons';
import { dismissToast, useToasts, type ToastKind } from '../../lib/toast';
import { keepChromeSize } from '../../lib/use-rem-layout';
import { cn } from '../../lib/utils';
import { t } from '../../i18n/zh-CN';

const tone: Record<ToastKind, { box: string; icon: React.ReactNode }> = {
  success: {
    box: 'border-emerald-200 bg-emerald-50 text-emerald-800',
    icon: <CheckIcon className="size-5 text-emerald-600" />,
  },
  error: {
    box: 'border-red-200 bg-red-50 text-red-800',
    icon: <AlertIcon className="size-5 text-red-600" />,
  },
  info: {
    box: 'border-slate-200 bg-white text-slate-800',
    icon: <InfoIcon className="size-5 text-blue-600" />,
  },
};

/** The body-level element the toasts live in, outside the app's tree. */
export const TOAST_ROOT_ID = 'toast-root';

function toastRoot(): HTMLElement {
  let root = document.getElementById(TOAST_ROOT_ID);
  if (!root) {
    root = document.createElement('div');
    root.id = TOAST_ROOT_ID;
    document.body.appendChild(root);
  }
  return root;
}

/**
 * The toasts of the app, stacked in the bottom-right corner (above the phone's tab bar on a phone), where they never
 * cover a dialog's title: dialogs are centred, or at the top on a phone. Each is closable and leaves after its
 * duration. They live in their own element under <body>, outside the app's tree: an open dialog hides the app's
 * tree from assistive technology and makes it inert, and a toast must still be read out and closable then (a
 * click on it does not count as a click outside the dialog either).
 */
export function Toaster() {
  const items = useToasts();
  const [root] = useState(toastRoot);
  return createPortal(
    <section
      aria-label={t.toast.region}
      style={keepChromeSize}
      data-testid="toasts"
      className="pointer-events-none fixed inset-x-3 bottom-[calc(4.5rem+env(safe-area-inset-bottom))] z-[60] flex flex-col items-stretch gap-2 sm:inset-x-auto sm:right-4 sm:bottom-4 sm:w-80"
    >
      {items.map((item) => (
        <div
          key={item.id}
          role={item.kind === 'error' ? 'alert' : 'status'}
          data-kind={item.kind}
          data-duration={item.duration}
          className={cn(
            'pointer-events-auto flex w-full items-start gap-2.5 rounded-lg border px-4 py-3 text-sm shadow-lg',
            tone[item.kind].box,
          )}
        >
          <span className="mt-px shrink-0">{tone[item.kind].icon}</span>
          <p className="flex-1 leading-5 break-words">{item.message}</p>
          <button
            type="button"
            onClick={() => dismissToast(item.id)}
            aria-label={t.toast.close}
            className="-mr-1 shrink-0 rounded p-0.5 opacity-60 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            <CloseIcon className="size-4" />
          </button>
        </div>
      ))}
    </section>,
    root,
  );
}
