import { useCallback, useState } from 'react';

/**
 * Which of a screen's actions is running (a row's or a button's spinner), one at a time: `run(key, action)` marks
 * `key` busy until the action settles. The api client has already shown a failed call's message, so `run` swallows
 * the error and resolves false; true when the call succeeded.
 */
export function useBusyKey<K = string>(): [
  busy: K | null,
  run: (key: K, action: () => Promise<unknown>) => Promise<boolean>,
] {
  const [busy, setBusy] = useState<K | null>(null);
  const run = useCallback(async (key: K, action: () => Promise<unknown>) => {
    setBusy(() => key);
    try {
      await action();
      return true;
    } catch {
      return false;
    } finally {
      setBusy(null);
    }
  }, []);
  return [busy, run];
}

/** A busy flag around one call at a time (a button's spinner); `useBusyKey` with a single key. */
export function useBusy(): [busy: boolean, run: (action: () => Promise<unknown>) => Promise<boolean>] {
  const [busy, runKey] = useBusyKey<true>();
  const run = useCallback((action: () => Promise<unknown>) => runKey(true, action), [runKey]);
  return [busy !== null, run];
}
