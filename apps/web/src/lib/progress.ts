import { useSyncExternalStore } from 'react';
import { PROGRESS_BAR } from '@zhzy/contracts/constants';

/**
 * The top progress bar (SPEC §9): starts at 0.08, moves in 200 ms steps, trickles every 800 ms while
 * anything (a navigation or a request) is under way, then completes and fades.
 */
export interface ProgressState {
  /** 0..1, or null when hidden. */
  value: number | null;
}

let state: ProgressState = { value: null };
let sources = 0;
let trickleTimer: ReturnType<typeof setInterval> | null = null;
let doneTimer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

function set(value: number | null): void {
  state = { value };
  for (const l of [...listeners]) l();
}

/** nprogress's trickle amounts: fast at first, slower as it nears the end, never reaching 1. */
export function trickleAmount(n: number): number {
  if (n < 0.2) return 0.1;
  if (n < 0.5) return 0.04;
  if (n < 0.8) return 0.02;
  if (n < 0.99) return 0.005;
  return 0;
}

function clamp(n: number): number {
  return Math.min(Math.max(n, PROGRESS_BAR.minimum), 0.994);
}

function start(): void {
  if (doneTimer) {
    clearTimeout(doneTimer);
    doneTimer = null;
  }
  if (state.value === null || state.value >= 1) set(PROGRESS_BAR.minimum);
  trickleTimer ??= setInterval(() => {
    const v = state.value ?? PROGRESS_BAR.minimum;
    set(clamp(v + trickleAmount(v)));
  }, PROGRESS_BAR.trickleMs);
}

function done(): void {
  if (trickleTimer) clearInterval(trickleTimer);
  trickleTimer = null;
  if (state.value === null) return;
  set(1);
  doneTimer = setTimeout(() => {
    doneTimer = null;
    set(null);
  }, PROGRESS_BAR.speedMs * 2);
}

/** Marks one piece of work as running (true) or finished (false). */
export function setBusy(busy: boolean): void {
  if (busy) {
    sources += 1;
    if (sources === 1) start();
  } else if (sources > 0) {
    sources -= 1;
    if (sources === 0) done();
  }
}

export function useProgress(): ProgressState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
    () => state,
  );
}
