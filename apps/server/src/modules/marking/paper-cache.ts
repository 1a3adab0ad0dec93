import { HomeworkPaperSchema, type HomeworkPaper, type MarkQuestion } from '@zhzy/contracts';
import { markableQuestions, parseStored } from './core.js';

/** Parsed snapshots kept, at most this many homework (least recently read go first). */
const MAX_PAPERS = 200;

/** Freezes an object and everything in it: a kept paper is shared by every request that reads it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A homework's frozen paper, parsed once per snapshot (ADR 0078): the marking task list read every listed
 * homework's snapshot (tens of KB of JSON) through its schema on every call. Kept by homework id with the text it
 * was parsed from; a different text (a snapshot replaced) is parsed again, so a kept paper is never stale. The
 * paper is deeply frozen: callers read it, never change it.
 */
export class PaperCache {
  private readonly papers = new Map<
    string,
    { text: string; paper: HomeworkPaper; markable?: readonly MarkQuestion[] }
  >();

  private entry(homeworkId: string, text: string) {
    const kept = this.papers.get(homeworkId);
    if (kept && kept.text === text) {
      this.papers.delete(homeworkId);
      this.papers.set(homeworkId, kept);
      return kept;
    }
    const paper = deepFreeze(
      parseStored(HomeworkPaperSchema, text, { sections: [] } as unknown as HomeworkPaper),
    );
    this.papers.delete(homeworkId);
    if (this.papers.size >= MAX_PAPERS) this.papers.delete(this.papers.keys().next().value!);
    const entry = { text, paper };
    this.papers.set(homeworkId, entry);
    return entry;
  }

  paperOf(homeworkId: string, text: string): HomeworkPaper {
    return this.entry(homeworkId, text).paper;
  }

  /** The paper's written questions (`markableQuestions`), worked out once per snapshot too; frozen. */
  markableOf(homeworkId: string, text: string): readonly MarkQuestion[] {
    const entry: { paper: HomeworkPaper; markable?: readonly MarkQuestion[] } = this.entry(homeworkId, text);
    entry.markable ??= deepFreeze(markableQuestions(entry.paper));
    return entry.markable;
  }
}

/** The process's kept papers (correct across hosts in one process: a paper is kept with the text it came from). */
export const keptPapers = new PaperCache();
