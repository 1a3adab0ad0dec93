import { useCallback, useState } from 'react';

/**
 * A busy flag around one call at a time (a button's spinner). The api client has already shown a failed
 * call's message, so `run` swallows the error and resolves false; true when the call succeeded.
 */
export function useBusy(): [busy: boolean, run: (action: () => Promise<unknown>) => Promise<boolean>] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return [busy, run];
}
