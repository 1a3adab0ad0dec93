/** A tiny typed event emitter: the lower layers (lib) tell the app layer what happened. */
export type Listener<T> = (value: T) => void;

export interface Emitter<T> {
  emit(value: T): void;
  subscribe(listener: Listener<T>): () => void;
}

export function createEmitter<T>(): Emitter<T> {
  const listeners = new Set<Listener<T>>();
  return {
    emit(value) {
      for (const l of [...listeners]) l(value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
