import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ResultsRepository } from './repository.js';

export { receivedQuery } from './repository.js';

// Homework progress from results (ADR 0051): pages received and answers still to score, read by the homework list
// and analysis through `HomeworkProgressSource`.

type Db = Kysely<Database>;

/** How far a homework has come; every count is over the homework's students and its card's pages. */
export interface HomeworkProgress {
  /** Scanned pages that belong to this homework. */
  pages: number;
  /** Sheets expected: students of its classes × pages of the card. */
  expectedPages: number;
  /** Written answers still waiting for a teacher. */
  answersToMark: number;
}

/** What the homework module asks of results; a homework without a sheet has no entry. */
export interface HomeworkProgressSource {
  progressOf(orgId: string, homeworkIds: string[]): Promise<Map<string, HomeworkProgress>>;
}

/** Progress when nothing has been scanned (a homework module without results). */
export const NO_SCANS_YET: HomeworkProgressSource = { progressOf: async () => new Map() };

/**
 * Homework progress from results: pages received against the pages expected (students of the homework's classes ×
 * pages of its current card), and answers still waiting for a score.
 */
export function resultsProgress(db: Db): HomeworkProgressSource {
  const repo = new ResultsRepository(db);
  return {
    async progressOf(orgId, homeworkIds) {
      const out = new Map<string, HomeworkProgress>();
      if (homeworkIds.length === 0) return out;
      for (const r of await repo.receivedCounts(orgId, homeworkIds)) {
        out.set(r.homeworkId, {
          pages: r.pages,
          expectedPages: r.expectedPages,
          answersToMark: r.unscored,
        });
      }
      return out;
    },
  };
}
