import { useSyncExternalStore } from 'react';
import { storage } from './session';
import { createEmitter } from './events';

/** The stage/subject selection shared by the question bank and the basket (SPEC §3). */
export interface SubjectSelection {
  stageId: string;
  subjectId: string;
}

const KEY = 'subjectSelection';
const changes = createEmitter<void>();
let cached: { text: string; value: SubjectSelection | null } | null = null;

export function readSelection(): SubjectSelection | null {
  const raw = storage.get<SubjectSelection>(KEY);
  const text = JSON.stringify(raw);
  if (cached?.text === text) return cached.value;
  const value =
    raw &&
    typeof raw === 'object' &&
    'stageId' in raw &&
    typeof raw.stageId === 'string' &&
    typeof raw.subjectId === 'string'
      ? { stageId: raw.stageId, subjectId: raw.subjectId }
      : null;
  cached = { text, value };
  return value;
}

export function setSelection(value: SubjectSelection | null): void {
  if (value) storage.set(KEY, value);
  else storage.remove(KEY);
  changes.emit();
}

export function useSelection(): SubjectSelection | null {
  return useSyncExternalStore((l) => changes.subscribe(l), readSelection, readSelection);
}
