import type { HomeworkPaper, MarkQuestion } from '@zhzy/contracts';
import { deepFreeze } from '../../lib/freeze.js';
import { NO_SECTIONS, paperFromSnapshot } from '../homework/repository/records.js';
import { markableQuestions } from './core.js';

/** Parsed snapshots kept, at most this many homework (least recently read go first). */
const MAX_PAPERS = 200;

/**
 * A homework's frozen paper, parsed once per snapshot (ADR 0078): the marking task list read every listed
 * homework's snapshot (tens of KB of JSON) through its schema on every call. Kept by homework id with the text it
 * was parsed from; a different text (a snapshot replaced) is parsed again, so a kept paper is never stale. The
 * paper is deeply frozen: callers read it, never change it. The marking repository's homework mapper reads its
 * paper through here.
 */
export class PaperCache {
  private readonly papers = new Map<string, { text: string; paper: HomeworkPaper }>();
  private readonly markable = new WeakMap<HomeworkPaper, readonly MarkQuestion[]>();

  paperOf(homeworkId: string, text: string): HomeworkPaper {
    const kept = this.papers.get(homeworkId);
    if (kept && kept.text === text) {
      this.papers.delete(homeworkId);
      this.papers.set(homeworkId, kept);
      return kept.paper;
    }
    const paper = deepFreeze(paperFromSnapshot(text, NO_SECTIONS));
    this.papers.delete(homeworkId);
    if (this.papers.size >= MAX_PAPERS) this.papers.delete(this.papers.keys().next().value!);
    this.papers.set(homeworkId, { text, paper });
    return paper;
  }

  /** A paper's written questions (`markableQuestions`), worked out once per kept paper too; frozen. */
  markableOf(paper: HomeworkPaper): readonly MarkQuestion[] {
    let questions = this.markable.get(paper);
    if (!questions) {
      questions = deepFreeze(markableQuestions(paper));
      this.markable.set(paper, questions);
    }
    return questions;
  }
}

/** The process's kept papers (correct across hosts in one process: a paper is kept with the text it came from). */
export const keptPapers = new PaperCache();
