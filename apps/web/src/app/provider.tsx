import { useEffect, type ReactNode } from 'react';
import { Toaster } from '../components/ui/toast';
import { ProgressBar } from '../components/progress-bar';
import { signedOutEvents } from '../lib/session';

/** Forgets every cached answer (SWR is loaded on demand, so the visitor page never carries it). */
export async function clearDataCache(): Promise<void> {
  const { mutate } = await import('swr');
  await mutate(() => true, undefined, { revalidate: false });
}

/** The toasts, the top progress bar and the sign-out handling around the app. */
export function AppProvider({ children, onSignedOut }: { children: ReactNode; onSignedOut: () => void }) {
  useEffect(
    () =>
      signedOutEvents.subscribe(() => {
        onSignedOut();
        void clearDataCache();
      }),
    [onSignedOut],
  );
  return (
    <>
      <ProgressBar />
      {children}
      <Toaster />
    </>
  );
}
