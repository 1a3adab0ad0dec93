import type { Kysely } from 'kysely';
import type { HomeworkDetail, HomeworkPaper } from '@zhzy/contracts';
import type { Database } from '../../src/db/schema.js';
import type { AuthContext } from '../../src/lib/call.js';
import { AnalysisRepository } from '../../src/modules/analysis/repository.js';
import { AnalysisService } from '../../src/modules/analysis/service.js';
import { cardQuestionOf } from '../../src/modules/homework/card-paper.js';
import { resultsProgress } from '../../src/modules/results/progress.js';
import { isObjective } from '../../src/modules/results/scoring.js';
import { ResultsService } from '../../src/modules/results/service.js';
import type { World } from '../homework-fixtures.js';

/** A question of the homework as the results spine writes it (full score in tenths). */
export interface MarkedQuestion {
  questionId: string;
  kind: ReturnType<typeof cardQuestionOf>['kind'];
  full: number;
}

/** A student of the homework's classes. */
export interface MarkedStudent {
  id: string;
  classId: string;
}

/**
 * A test of school A's first two classes, published by demo-teacher in a homework world, with what a test needs to
 * write its results through the spine as marking would: its questions, its students, a sheet opener and the
 * teacher's auth for services called in-process.
 */
export interface MarkedHomework {
  db: Kysely<Database>;
  results: ResultsService;
  hw: HomeworkDetail;
  auth: AuthContext;
  questions: MarkedQuestion[];
  students: MarkedStudent[];
  /** The sheet of each student who handed one in. */
  sheetOf: Map<string, string>;
  /** Opens a student's sheet (as recognition does) and returns its id. */
  open: (student: MarkedStudent) => Promise<string>;
  /** Writes a full set of marks for the sheet of the `i`-th student (scores and responses derived from `i`). */
  markAll: (i: number, sheetId: string, options?: { crops?: boolean }) => Promise<void>;
  /** An analysis service reading through `on` that keeps nothing between calls. */
  uncachedService: (on?: Kysely<Database>) => AnalysisService;
}

export async function markedHomework(w: World, clock: () => number, title: string): Promise<MarkedHomework> {
  const db = w.t.testDb.db.kysely;
  const results = new ResultsService(db, clock);
  const teacher = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'demo-teacher')
    .executeTakeFirstOrThrow();
  const auth: AuthContext = {
    userId: teacher.id,
    username: 'demo-teacher',
    sessionId: '',
    orgId: w.orgA,
    isCreator: false,
    isAdministrator: false,
    isGradeDirector: false,
  };
  const paper = await w.createPaper(w.me, title);
  const classIds = [w.classesA[0]!.id, w.classesA[1]!.id];
  const hw = await w.publish(w.me, {
    paperId: paper.id,
    type: 'test',
    title,
    classIds,
    startDate: '2026-11-02',
    dueDate: '2026-11-09',
  });
  const row = await db
    .selectFrom('homework as h')
    .innerJoin('card_versions as v', (j) =>
      j.onRef('v.card_id', '=', 'h.card_id').onRef('v.version', '=', 'h.card_version'),
    )
    .select(['h.org_id', 'h.paper_snapshot', 'h.card_id', 'h.card_version', 'v.page_count'])
    .where('h.id', '=', hw.id)
    .executeTakeFirstOrThrow();
  const questions = (JSON.parse(row.paper_snapshot) as HomeworkPaper).sections.flatMap((s) =>
    s.items.map((item) => ({
      questionId: item.questionId,
      kind: cardQuestionOf(item).kind,
      full: Math.round(item.score * 10),
    })),
  );
  const students = await db
    .selectFrom('students')
    .select(['id', 'class_id as classId'])
    .where('class_id', 'in', classIds)
    .orderBy('class_id')
    .orderBy('student_no')
    .execute();
  const sheetOf = new Map<string, string>();

  const open = async (student: MarkedStudent) => {
    const sheet = await results.transaction((r) =>
      r.openSheet({
        orgId: row.org_id,
        homeworkId: hw.id,
        studentId: student.id,
        classId: student.classId,
        cardId: row.card_id,
        cardVersion: row.card_version,
        pagesExpected: row.page_count,
        questions: questions.map((q) => ({
          questionId: q.questionId,
          kind: q.kind,
          fullScoreTenths: q.full,
        })),
      }),
    );
    sheetOf.set(student.id, sheet.id);
    return sheet.id;
  };

  const markAll = async (i: number, sheetId: string, options: { crops?: boolean } = {}) => {
    await results.transaction((r) =>
      r.writeAnswers(
        sheetId,
        questions.map((q, k) => ({
          questionId: q.questionId,
          scoreTenths: (i * 7 + k * 3) % (q.full + 1),
          source: 'marker' as const,
          ...(isObjective(q.kind)
            ? { response: 'ABCD'[(i + k) % 4]! }
            : options.crops
              ? { cropPath: `crops/${sheetId}/${q.questionId}.png` }
              : {}),
        })),
        { userId: null, reason: 'seed' },
      ),
    );
  };

  const uncachedService = (on: Kysely<Database> = db) =>
    new AnalysisService(
      new AnalysisRepository(on),
      resultsProgress(on),
      clock,
      () => Promise.resolve([]),
      () => Promise.reject(new Error('no crops here')),
      on,
    );

  return { db, results, hw, auth, questions, students, sheetOf, open, markAll, uncachedService };
}
