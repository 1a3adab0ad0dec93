import type { HomeworkDetail } from '@zhzy/contracts';
import { ResultsService, type AnswerPatch } from '../src/modules/results/service.js';
import type { DialectName } from '../src/db/connect.js';
import { Q, homeworkWorld, type World } from './homework-fixtures.js';

// The analysis tests' small class set whose every figure is worked out by hand (analysis.test.ts):
// paper 3+3+4+2+3+3+12 = 30 points (single3, single4, multi5, truefalse, blank3, blank0, written);
// class 1: totals 30, 18, 18, 0; class 2: totals 27, 14, and one sheet still being marked; everyone else absent.

const ORDER = [Q.single3, Q.single4, Q.multi5, Q.truefalse, Q.blank3, Q.blank0, Q.written] as const;
const FULL = [3, 3, 4, 2, 3, 3, 12];
const KIND = ['single', 'single', 'multiple', 'truefalse', 'blank', 'blank', 'written'] as const;

interface Plan {
  scores: (number | null)[];
  responses: [string, string, string, string];
  blank?: boolean[];
}

const CLASS1: Plan[] = [
  { scores: [3, 3, 4, 2, 3, 3, 12], responses: ['B', 'A', 'ACE', 'F'] },
  {
    scores: [3, 0, 4, 2, 3, 0, 6],
    responses: ['B', 'B', 'ACE', 'F'],
    blank: [false, false, false, false, false, true, false],
  },
  { scores: [0, 3, 0, 0, 3, 3, 9], responses: ['A', 'A', 'AC', 'T'] },
  {
    scores: [0, 0, 0, 0, 0, 0, 0],
    responses: ['A', '', '', ''],
    blank: [false, true, true, true, true, true, true],
  },
];
const CLASS2: Plan[] = [
  { scores: [3, 3, 4, 2, 3, 3, 9], responses: ['B', 'A', 'ACE', 'F'] },
  { scores: [3, 3, 0, 2, 0, 3, 3], responses: ['B', 'A', 'AB', 'F'] },
  { scores: [3, 3, 4, 2, 3, 3, null], responses: ['B', 'A', 'ACE', 'F'] },
];

export interface AnalysisWorld {
  w: World;
  /** 第一单元测验, published to the first two classes of school A. */
  hw: HomeworkDetail;
  c1: string;
  c2: string;
  /** Student ids by place: a1…a4 in class 1, b1…b3 in class 2 (by student number). */
  ids: Record<string, string>;
}

/** The homework world with the hand-worked class set written through the results service. */
export async function analysisWorld(dialect: DialectName): Promise<AnalysisWorld> {
  const w = await homeworkWorld(dialect);
  const ids: Record<string, string> = {};
  const paper = await w.createPaper(w.me);
  const c1 = w.classesA[0]!.id;
  const c2 = w.classesA[1]!.id;
  const hw = await w.publish(w.me, {
    paperId: paper.id,
    type: 'test',
    title: '第一单元测验',
    classIds: [c1, c2],
    startDate: '2026-11-02',
    dueDate: '2026-11-05',
  });
  const db = w.t.testDb.db.kysely;
  const users = await db.selectFrom('users').select(['id', 'username']).execute();
  const teacherId = users.find((u) => u.username === 'demo-teacher')!.id;
  const directorId = users.find((u) => u.username === 'demo-director')!.id;
  const repo = new ResultsService(db, () => Date.parse('2026-11-02T09:00:00.000Z'));
  const write = async (classId: string, plans: Plan[], markerId: string) => {
    const students = await db
      .selectFrom('students')
      .select(['id', 'name'])
      .where('class_id', '=', classId)
      .orderBy('student_no')
      .execute();
    for (const [i, plan] of plans.entries()) {
      const student = students[i]!;
      ids[`${classId === c1 ? 'a' : 'b'}${i + 1}`] = student.id;
      const sheet = await repo.openSheet({
        orgId: w.orgA,
        homeworkId: hw.id,
        studentId: student.id,
        classId,
        cardId: hw.card.cardId,
        cardVersion: hw.card.version,
        pagesExpected: hw.card.pageCount,
        questions: ORDER.map((questionId, q) => ({
          questionId,
          kind: KIND[q]!,
          fullScoreTenths: FULL[q]! * 10,
        })),
      });
      await repo.setPagesReceived(sheet.id, hw.card.pageCount);
      const objective: AnswerPatch[] = ORDER.slice(0, 4).map((questionId, q) => ({
        questionId,
        response: plan.responses[q]!,
        blank: plan.blank?.[q] ?? false,
        scoreTenths: plan.scores[q]! * 10,
        source: 'auto',
      }));
      await repo.writeAnswers(sheet.id, objective, { userId: null, reason: 'recognised' });
      const written: AnswerPatch[] = ORDER.slice(4).map((questionId, k) => {
        const q = k + 4;
        const score = plan.scores[q];
        return {
          questionId,
          blank: plan.blank?.[q] ?? false,
          cropPath: q === 6 && i === 0 ? `pages/analysis-test/${student.id}.png` : null,
          ...(score === null || score === undefined
            ? {}
            : { scoreTenths: score * 10, source: 'marker' as const }),
        };
      });
      await repo.writeAnswers(sheet.id, written, { userId: markerId, reason: 'marked' });
    }
  };
  await write(c1, CLASS1, teacherId);
  await write(c2, CLASS2, directorId);
  return { w, hw, c1, c2, ids };
}
