import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { t } from '../../i18n/zh-CN';

/** Asks before something that cannot be undone; the safe choice has the focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger = false,
  busy = false,
  onConfirm,
  onClose,
  extra,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** A third choice shown between cancel and confirm. */
  extra?: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <div className="text-sm leading-6 text-slate-600">{children}</div>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose} autoFocus>
          {t.cancel}
        </Button>
        {extra}
        <Button
          variant={danger ? 'danger' : 'primary'}
          className={danger ? 'border-red-600 bg-red-600 text-white hover:bg-red-700' : undefined}
          loading={busy}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
