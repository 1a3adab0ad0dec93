import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

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
 * Pages received and answers still to score per homework of a school: answered from the index
 * `sheets (homework_id, org_id, pages_received, unscored_count)` alone (migration 0023, ADR 0031).
 */
export function receivedQuery(db: Db, orgId: string, homeworkIds: string[]) {
  return db
    .selectFrom('sheets')
    .select((eb) => [
      'homework_id',
      eb.fn.sum<number>('pages_received').as('pages'),
      eb.fn.sum<number>('unscored_count').as('unscored'),
    ])
    .where('org_id', '=', orgId)
    .where('homework_id', 'in', homeworkIds)
    .groupBy('homework_id');
}

/**
 * Homework progress from results: pages received against the pages expected (students of the homework's classes ×
 * pages of its current card), and answers still waiting for a score.
 */
export function resultsProgress(db: Db): HomeworkProgressSource {
  return {
    async progressOf(orgId, homeworkIds) {
      const out = new Map<string, HomeworkProgress>();
      if (homeworkIds.length === 0) return out;
      const received = await receivedQuery(db, orgId, homeworkIds).execute();
      if (received.length === 0) return out;
      const expected = await db
        .selectFrom('homework as h')
        .innerJoin('card_versions as v', (j) =>
          j.onRef('v.card_id', '=', 'h.card_id').onRef('v.version', '=', 'h.card_version'),
        )
        .innerJoin('homework_classes as hc', 'hc.homework_id', 'h.id')
        .innerJoin('students as s', 's.class_id', 'hc.class_id')
        .select((eb) => ['h.id', 'v.page_count', eb.fn.countAll<number>().as('students')])
        .where('h.org_id', '=', orgId)
        .where('h.id', 'in', homeworkIds)
        .groupBy(['h.id', 'v.page_count'])
        .execute();
      const expectedOf = new Map(expected.map((e) => [e.id, Number(e.students) * Number(e.page_count)]));
      for (const r of received) {
        out.set(r.homework_id, {
          pages: Number(r.pages ?? 0),
          expectedPages: expectedOf.get(r.homework_id) ?? 0,
          answersToMark: Number(r.unscored ?? 0),
        });
      }
      return out;
    },
  };
}
