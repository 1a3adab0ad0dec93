import { useCallback, useReducer } from 'react';

/** Undo keeps this many steps. */
export const HISTORY_LIMIT = 100;
/** Edits of the same field within this many ms are one step (typing a title is not 20 undo steps). */
export const COALESCE_MS = 1200;

export interface HistoryState<T> {
  past: T[];
  present: T;
  future: T[];
  /** The coalescing key and time of the last commit. */
  lastKey: string | null;
  lastAt: number;
}

export type HistoryAction<T> =
  | { type: 'commit'; update: (prev: T) => T; key?: string | undefined; at: number }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'replace'; update: (prev: T) => T }
  | { type: 'reset'; present: T };

export function initHistory<T>(present: T): HistoryState<T> {
  return { past: [], present, future: [], lastKey: null, lastAt: 0 };
}

/** Undo/redo over whole states: a commit clears the redo list; repeated commits of one key merge. */
export function historyReducer<T>(state: HistoryState<T>, action: HistoryAction<T>): HistoryState<T> {
  switch (action.type) {
    case 'commit': {
      const next = action.update(state.present);
      if (Object.is(next, state.present)) return state;
      const merge =
        action.key !== undefined &&
        action.key === state.lastKey &&
        action.at - state.lastAt < COALESCE_MS &&
        state.future.length === 0;
      if (merge) return { ...state, present: next, lastAt: action.at };
      return {
        past: [...state.past, state.present].slice(-HISTORY_LIMIT),
        present: next,
        future: [],
        lastKey: action.key ?? null,
        lastAt: action.at,
      };
    }
    case 'undo': {
      const prev = state.past[state.past.length - 1];
      if (prev === undefined) return state;
      return {
        past: state.past.slice(0, -1),
        present: prev,
        future: [state.present, ...state.future],
        lastKey: null,
        lastAt: 0,
      };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (next === undefined) return state;
      return { past: [...state.past, state.present], present: next, future: rest, lastKey: null, lastAt: 0 };
    }
    case 'replace':
      // Not a step of its own: e.g. the ids the host gave new sections on save.
      return { ...state, present: action.update(state.present) };
    case 'reset':
      return initHistory(action.present);
  }
}

/** A value with undo and redo. `commit(update, key)` merges quick repeated edits of the same key. */
export function useHistory<T>(initial: T) {
  const [state, dispatch] = useReducer(historyReducer<T>, initial, initHistory);
  const commit = useCallback(
    (update: (prev: T) => T, key?: string) => dispatch({ type: 'commit', update, key, at: Date.now() }),
    [],
  );
  const undo = useCallback(() => dispatch({ type: 'undo' }), []);
  const redo = useCallback(() => dispatch({ type: 'redo' }), []);
  const reset = useCallback((present: T) => dispatch({ type: 'reset', present }), []);
  const replace = useCallback((update: (prev: T) => T) => dispatch({ type: 'replace', update }), []);
  return {
    value: state.present,
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
    commit,
    undo,
    redo,
    reset,
    replace,
  };
}
