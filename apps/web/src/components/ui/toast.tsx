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

/** The toasts of the app, top centre; each closable, each leaving after its duration. */
export function Toaster() {
  const items = useToasts();
  return (
    <section
      aria-label={t.toast.region}
      style={keepChromeSize}
      className="pointer-events-none fixed inset-x-0 top-3 z-[60] flex flex-col items-center gap-2 px-3"
    >
      {items.map((item) => (
        <div
          key={item.id}
          role={item.kind === 'error' ? 'alert' : 'status'}
          data-kind={item.kind}
          data-duration={item.duration}
          className={cn(
            'pointer-events-auto flex w-full max-w-md items-start gap-2.5 rounded-lg border px-4 py-3 text-sm shadow-lg',
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
    </section>
  );
}
