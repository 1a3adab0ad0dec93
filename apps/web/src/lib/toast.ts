import { useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS } from '@zhzy/contracts/constants';

export type ToastKind = 'success' | 'error' | 'info';

export interface ToastItem {
  id: number;
  message: string;
  kind: ToastKind;
  /** Auto-close after this many ms (SPEC §8: 5000; the add-success toast 3000). */
  duration: number;
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function publish(next: ToastItem[]): void {
  items = next;
  for (const l of [...listeners]) l();
}

/** Closes a toast. */
export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  publish(items.filter((i) => i.id !== id));
}

/** Shows a closable toast; the same message shown twice in a row is not stacked. */
export function toast(
  message: string,
  kind: ToastKind = 'info',
  duration: number = TOAST_DURATION_MS,
): number {
  const same = items.find((i) => i.message === message && i.kind === kind);
  if (same) dismissToast(same.id);
  const id = nextId++;
  publish([...items, { id, message, kind, duration }].slice(-4));
  timers.set(
    id,
    setTimeout(() => dismissToast(id), duration),
  );
  return id;
}

toast.success = (message: string, duration?: number) => toast(message, 'success', duration);
toast.error = (message: string, duration?: number) => toast(message, 'error', duration);

/** Removes every toast (tests). */
export function clearToasts(): void {
  for (const id of timers.keys()) dismissToast(id);
  publish([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
}
