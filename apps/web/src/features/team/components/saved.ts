import { toast } from '../../../lib/toast';

/** After a dialog's save went through: says so, refreshes what it changed and closes. */
export function saved(message: string, onSaved: () => void, onClose: () => void): void {
  toast.success(message);
  onSaved();
  onClose();
}
