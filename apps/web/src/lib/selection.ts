import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { storage } from './session';
import { createEmitter } from './events';

/** The stage/subject selection shared by the question bank and the basket (SPEC §3), as stored. */
const SubjectSelectionSchema = z.object({ stageId: z.string(), subjectId: z.string() });
export type SubjectSelection = z.infer<typeof SubjectSelectionSchema>;

const KEY = 'subjectSelection';
const changes = createEmitter<void>();
let cached: { text: string; value: SubjectSelection | null } | null = null;

export function readSelection(): SubjectSelection | null {
  const raw = storage.get(KEY);
  const text = JSON.stringify(raw);
  if (cached?.text === text) return cached.value;
  const parsed = SubjectSelectionSchema.safeParse(raw);
  const value = parsed.success ? { stageId: parsed.data.stageId, subjectId: parsed.data.subjectId } : null;
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
