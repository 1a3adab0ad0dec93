import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuthContext } from '../../lib/call.js';
import { SUBJECT_IDS, typeId } from '../../seed/catalog.js';
import { demoScopeQuestions } from '../../seed/demo-questions.js';
import { DEMO_ACCOUNTS, demoMember } from '../../seed/demo.js';
import type { HomeworkService } from '../homework/service.js';
import type { PapersService } from '../papers/service.js';
import type { PageStorage } from '../scan/storage.js';
import { writeSampleSheets, type SampleAnswer } from './sample-scans.js';

const SEEDED_KEY = 'marking_demo_seeded';

/** What students of the demo class wrote: a few answers per question, some left blank, a few copied. */
const BLANK_ANSWERS = ['3', '-3', '3', '±3', '1/3', '3', '-1/3'];
const WRITTEN_ANSWERS = [
  '解：原式 = -8 + 12\n= 4',
  '解：原式 = -8 + 12 = 4\n答：结果为 4',
  '解：(-2)³ = -8\n-8 + 12 = 4',
  '解：原式 = 8 + 12\n= 20',
  '解：原式 = -6 + 12\n= 6',
  '-8+12=4',
];

/** An answer key as a student would write it: no markup, formulas as typed, at most three short lines. */
export function plainAnswer(html: string): string {
  const text = html
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\\[()[\]]/g, '')
    .replace(/\\frac\{([^}]*)\}\{([^}]*)\}/g, '$1/$2')
    .replace(/\\(times|cdot)/g, '×')
    .replace(/\\div/g, '÷')
    .replace(/\\[a-zA-Z]+/g, '')
    .replace(/[{}]/g, '');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 3)
    .map((l) => [...l].slice(0, 28).join(''))
    .join('\n');
}

export interface MarkingSeedDeps {
  db: Kysely<Database>;
  papers: PapersService;
  homework: HomeworkService;
  pages: PageStorage;
  clock: () => number;
}

/**
 * Gives 演示学校 a scanned test in 阅卷中: 七年级(1)班's sheets of a 数学 unit test (objective questions scored by the
 * key, crops of the 填空 and 解答 answers), published by demo-teacher with 是否分配给学科老师 on, so demo-teacher (the
 * class's 数学 teacher) can mark at once. Runs once per database, after the school seed; false when done before or
 * when the demo school is missing.
 */
export async function seedMarkingDemo(deps: MarkingSeedDeps): Promise<boolean> {
  const { db } = deps;
  const done = await db.selectFrom('meta').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
  if (done) return false;
  const teacher = await demoMember(db, DEMO_ACCOUNTS.teacher);
  if (!teacher) return false;
  const klass = await db
    .selectFrom('classes as c')
    .innerJoin('school_years as y', 'y.id', 'c.year_id')
    .select(['c.id'])
    .where('c.org_id', '=', teacher.auth.orgId)
    .where('y.is_default', '=', 1)
    .where('c.name', '=', '七年级(1)班')
    .executeTakeFirst();
  if (!klass) return false;
  const questions = await pickQuestions(db);
  if (!questions) return false;
  const hw = await publishTest(deps, teacher.auth, klass.id, questions);
  await writeClassSheets(deps, hw.id, klass.id, questions);
  await db
    .insertInto('meta')
    .values({ key: SEEDED_KEY, value: new Date(deps.clock()).toISOString() })
    .execute();
  return true;
}

/** The test's questions by kind. */
interface TestQuestions {
  singles: { id: string }[];
  blanks: { id: string }[];
  written: { id: string }[];
}

/** 有理数单元测验: questions of 第一章 有理数 only (ADR 0049); null without 填空 or 解答 questions. */
async function pickQuestions(db: Kysely<Database>): Promise<TestQuestions | null> {
  const pick = async (type: string, n: number) =>
    (await demoScopeQuestions(db, { chapters: ['m7a-1'], knowledge: ['k-m-rational'] }, type)).slice(0, n);
  const [singles, blanks, written] = await Promise.all([
    pick('单选题', 4),
    pick('填空题', 2),
    pick('解答题', 2),
  ]);
  if (blanks.length === 0 || written.length === 0) return null;
  return { singles, blanks, written };
}

/** demo-teacher's final paper of the test, published today to the class with 是否分配给学科老师 on. */
async function publishTest(
  deps: MarkingSeedDeps,
  auth: AuthContext,
  classId: string,
  { singles, blanks, written }: TestQuestions,
) {
  const title = '七年级数学 有理数单元测验';
  const blank = await deps.papers.createBlank(auth, {
    subjectId: SUBJECT_IDS.数学,
    title,
    subtitle: '',
  });
  const section = (type: string, score: number, ids: { id: string }[]) => ({
    typeId: typeId('数学', type),
    title: type,
    note: '',
    defaultScore: score,
    items: ids.map((q) => ({ questionId: q.id })),
  });
  const paper = await deps.papers.save(auth, blank.id, {
    version: blank.version,
    title,
    subtitle: '考试时间 40 分钟',
    status: 'final',
    sections: [
      ...(singles.length > 0 ? [section('单选题', 4, singles)] : []),
      section('填空题', 4, blanks),
      section('解答题', 10, written),
    ],
  });
  const today = new Date(deps.clock()).toISOString().slice(0, 10);
  return deps.homework.publish(auth, {
    paperId: paper.id,
    type: 'test',
    title,
    classIds: [classId],
    startDate: today,
    dueDate: today,
    subjectTeacher: true,
  });
}

/** The class's scanned sheets: right answers from the key (as plain text), wrong ones from a few typical slips. */
async function writeClassSheets(
  deps: MarkingSeedDeps,
  homeworkId: string,
  classId: string,
  { blanks, written }: TestQuestions,
): Promise<void> {
  const { db } = deps;
  const students = await db
    .selectFrom('students')
    .select(['id', 'class_id as classId'])
    .where('class_id', '=', classId)
    .orderBy('student_no')
    .execute();
  const blankIds = new Set(blanks.map((b) => b.id));
  const keys = new Map(
    (
      await db
        .selectFrom('questions')
        .select(['id', 'answer'])
        .where(
          'id',
          'in',
          [...blanks, ...written].map((q) => q.id),
        )
        .execute()
    ).map((q) => [q.id, plainAnswer(q.answer)]),
  );
  await writeSampleSheets(
    db,
    deps.pages,
    {
      homeworkId,
      students,
      answer: (i, questionId, no): SampleAnswer & { hand?: string } => {
        if ((i * 7 + no) % 11 === 0) return { blank: true };
        const key = keys.get(questionId) ?? '';
        const right = (i + no) % 3 !== 0;
        if (blankIds.has(questionId))
          return { text: right && key ? key : BLANK_ANSWERS[(i + no) % BLANK_ANSWERS.length]! };
        // Three students copied one answer (same hand): grouped marking shows them together.
        if (i === 4 || i === 9 || i === 14) return { text: key || WRITTEN_ANSWERS[0]!, hand: `copied-${no}` };
        return { text: right && key ? key : WRITTEN_ANSWERS[(i * 3 + no) % WRITTEN_ANSWERS.length]! };
      },
    },
    deps.clock,
  );
}
