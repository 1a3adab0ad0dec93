import { useSyncExternalStore } from 'react';
import { createEmitter } from '../../../lib/events';

/** Whether the login box is open, and on which tab; opened from the home page or the top bar. */
export type AuthTab = 'login' | 'register';

let state: { open: boolean; tab: AuthTab } = { open: false, tab: 'login' };
const changes = createEmitter<void>();

export function openAuthDialog(tab: AuthTab = 'login'): void {
  state = { open: true, tab };
  changes.emit();
}

export function closeAuthDialog(): void {
  state = { ...state, open: false };
  changes.emit();
}

export function setAuthTab(tab: AuthTab): void {
  state = { ...state, tab };
  changes.emit();
}

export function useAuthDialog() {
  return useSyncExternalStore(
    (l) => changes.subscribe(l),
    () => state,
    () => state,
  );
}
