import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AnswerKind, Database } from '../../db/schema.js';
import type { AuthContext } from '../../lib/call.js';
import { typeId, SUBJECT_IDS } from '../../seed/catalog.js';
import { DEMO_ACCOUNTS, DEMO_SCHOOL_NAME } from '../../seed/demo.js';
import type { HomeworkService } from '../homework/service.js';
import type { PapersService } from '../papers/service.js';
import { ResultsService, type AnswerPatch } from '../results/service.js';
import { demoScopeQuestions, type DemoScope } from '../../seed/demo-questions.js';
import { plainAnswer } from '../marking/seed.js';
import { renderAnswerCrop, type SampleAnswer } from '../marking/sample-scans.js';
import type { PageStorage } from '../scan/storage.js';
import { questionsOf } from './model.js';

// Demo results so every analysis screen means something on the first start: demo-teacher's 数学 homework and tests
// for the three 七年级 classes over the last weeks, with scores drawn from a simple item-response model (each
// student's ability, each class's level, each question's difficulty), plausible wrong options, a few blanks, a trend
// over time, written answers marked by demo-teacher (classes 1 and 2) and by demo-director (class 3, a little
// lenient, so the marking report has something to say). The newest homework is still being marked and one more
// was published today and waits for scanning, so the homework list shows every state.

const SEEDED_KEY = 'analysis_demo_seeded';
const DAY_MS = 86_400_000;

/** Deterministic PRNG (mulberry32), so every fresh demo database looks the same. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller). */
function normal(random: () => number): number {
  const u = Math.max(1e-9, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** The papers: title, type, weeks before today, and whether written answers are all marked. */
// Each paper draws its questions from the chapters its title names (人教版 七年级上册: 第一章 有理数, 第二章 有理数的运算,
// 第四章 整式的加减, 第五章 一元一次方程; 期中 covers 第一至四章 — 第三章 代数式 brings 代数式 points), and only
// questions whose knowledge points all lie in those chapters' subtrees (ADR 0049).
const RATIONAL = { chapters: ['m7a-1'], knowledge: ['k-m-rational'] };
const PLAN: readonly {
  title: string;
  type: 'homework' | 'test';
  weeksAgo: number;
  state: 'done' | 'marking' | 'toScan';
  scope: DemoScope;
}[] = [
  { title: '有理数 单元作业', type: 'homework', weeksAgo: 7, state: 'done', scope: RATIONAL },
  {
    title: '有理数的运算 课后作业',
    type: 'homework',
    weeksAgo: 6,
    state: 'done',
    scope: { chapters: ['m7a-2'], knowledge: ['k-m-rational'] },
  },
  { title: '第一单元测验', type: 'test', weeksAgo: 5, state: 'done', scope: RATIONAL },
  {
    title: '整式的加减 课后作业',
    type: 'homework',
    weeksAgo: 3,
    state: 'done',
    scope: { chapters: ['m7a-4'], knowledge: ['k-m-poly'] },
  },
  {
    title: '期中模拟测试',
    type: 'test',
    weeksAgo: 1,
    state: 'done',
    scope: {
      chapters: ['m7a-1', 'm7a-2', 'm7a-3', 'm7a-4'],
      knowledge: ['k-m-rational', 'k-m-alg', 'k-m-poly'],
    },
  },
  {
    title: '一元一次方程 课后作业',
    type: 'homework',
    weeksAgo: 0,
    state: 'marking',
    scope: { chapters: ['m7a-5'], knowledge: ['k-m-eq1'] },
  },
  {
    title: '一元一次方程 随堂练习',
    type: 'homework',
    weeksAgo: -1,
    state: 'toScan',
    scope: { chapters: ['m7a-5'], knowledge: ['k-m-eq1'] },
  },
];

/** Sections: type, how many, points each (8×3 + 2×4 + 2×2 + 4×3 + 4×13 = 100). */
const SECTIONS = [
  { type: '单选题', count: 8, score: 3 },
  { type: '多选题', count: 2, score: 4 },
  { type: '判断题', count: 2, score: 2 },
  { type: '填空题', count: 4, score: 3 },
  { type: '解答题', count: 4, score: 13 },
] as const;

/** Class levels (ability offsets) and how fast each class improves per week. */
const CLASS_LEVEL = [0.3, 0, -0.3];
const CLASS_DRIFT = [0.01, 0.05, -0.01];

export interface AnalysisSeedDeps {
  db: Kysely<Database>;
  clock: () => number;
  papers: PapersService;
  homework: HomeworkService;
  /** Where the crops of written answers go (as recognition would store them). */
  pages: PageStorage;
}

/** Handwriting styles per answer: students share a few, so a paper needs few drawings (seeding stays fast). */
const HANDS = 3;

/** A plausible slip on a worked answer: one number of it changed (a sign lost, an off-by-one). */
function slip(text: string, seed: number): string {
  const numbers = [...text.matchAll(/-?\d+(?:\.\d+)?/g)];
  if (numbers.length === 0) return `${text.split('\n')[0] ?? ''}\n？`;
  const m = numbers[seed % numbers.length]!;
  const n = Number(m[0]);
  const wrong = seed % 2 === 0 && n !== 0 ? String(-n) : String(Math.round((n + 1 + (seed % 3)) * 100) / 100);
  return text.slice(0, m.index) + wrong + text.slice(m.index + m[0].length);
}

/**
 * Crops of a written question's answers, by how well it was answered: the key (full marks), its first line then a
 * slip (part marks), a slip throughout (no marks), or an empty box; each in a few hands, stored content-addressed.
 */
async function answerCrops(
  pages: PageStorage,
  orgId: string,
  questionId: string,
  key: string,
): Promise<{ full: string[]; part: string[]; wrong: string[]; blank: string }> {
  const store = async (answer: SampleAnswer, hand: string) => {
    const png = await renderAnswerCrop(answer, hand, 640, 180);
    const path = pages.relativePath(orgId, createHash('sha256').update(png).digest('hex'), 'png');
    await pages.write(path, png);
    return path;
  };
  const lines = (key || '？').split('\n');
  const part = lines.length > 1 ? `${lines[0]}\n${slip(lines.slice(1).join('\n'), 1)}` : slip(key || '？', 1);
  const hands = Array.from({ length: HANDS }, (_, i) => `${questionId}:${i}`);
  const [full, partial, wrong, blank] = await Promise.all([
    Promise.all(hands.map((h) => store({ text: key || '？' }, h))),
    Promise.all(hands.map((h) => store({ text: part }, h))),
    Promise.all(hands.map((h, i) => store({ text: slip(key || '？', i + 2) }, h))),
    store({ blank: true }, 'blank'),
  ]);
  return { full, part: partial, wrong, blank };
}

/** Who and what the demo results are for: 演示学校, its two demo accounts, the 七年级 classes and their students. */
interface DemoCast {
  orgId: string;
  teacher: { id: string; username: string };
  director: { id: string; username: string };
  classes: { id: string; name: string }[];
  students: { id: string; classId: string }[];
}

/** A paper's question pool per question type. */
type Pool = Map<string, { id: string; difficulty: number }[]>;

/** Seeds the demo results once per database; false when done before or when there is no demo school. */
export async function seedAnalysisDemo(deps: AnalysisSeedDeps): Promise<boolean> {
  const { db, clock } = deps;
  const done = await db.selectFrom('meta').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
  if (done) return false;
  const cast = await loadDemoCast(db);
  if (!cast) return false;
  const pools = await loadPools(db);
  if (!pools) return false;
  const auth = teacherAuth(cast);
  const random = prng(20_261_109);
  // Each student's ability: class level plus their own, fixed over the term.
  const ability = new Map(
    cast.students.map((s) => [
      s.id,
      CLASS_LEVEL[cast.classes.findIndex((c) => c.id === s.classId)]! + normal(random) * 0.9,
    ]),
  );
  const now = clock();
  for (const [h, plan] of PLAN.entries()) {
    const hw = await publishPlan(deps, auth, cast, plan, paperSections(pools[h]!, h), now);
    if (plan.state === 'toScan') continue;
    await seedPlanResults(deps, { cast, plan, hw, random, ability, now });
  }
  await db
    .insertInto('meta')
    .values({ key: SEEDED_KEY, value: new Date(now).toISOString() })
    .execute();
  return true;
}

/** 演示学校 with demo-teacher, demo-director and its 七年级 classes of the default year; null when missing. */
async function loadDemoCast(db: Kysely<Database>): Promise<DemoCast | null> {
  const org = await db
    .selectFrom('orgs')
    .select('id')
    .where('name', '=', DEMO_SCHOOL_NAME)
    .executeTakeFirst();
  if (!org) return null;
  const users = await db
    .selectFrom('users as u')
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'u.id').on('m.org_id', '=', org.id))
    .select(['u.id', 'u.username'])
    .where('u.username', 'in', [DEMO_ACCOUNTS.teacher, DEMO_ACCOUNTS.director])
    .execute();
  const teacher = users.find((u) => u.username === DEMO_ACCOUNTS.teacher);
  const director = users.find((u) => u.username === DEMO_ACCOUNTS.director);
  if (!teacher || !director) return null;
  const year = await db
    .selectFrom('school_years')
    .select('id')
    .where('org_id', '=', org.id)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  if (!year) return null;
  const classes = await db
    .selectFrom('classes')
    .select(['id', 'name'])
    .where('year_id', '=', year.id)
    .where('name', 'like', '七年级%')
    .orderBy('sort')
    .orderBy('name')
    .execute();
  if (classes.length === 0) return null;
  const students = await db
    .selectFrom('students')
    .select(['id', 'class_id as classId'])
    .where(
      'class_id',
      'in',
      classes.map((c) => c.id),
    )
    .orderBy('student_no')
    .execute();
  return { orgId: org.id, teacher, director, classes, students };
}

/** Each paper's pool per question type: its chapters' questions (see PLAN); null when the bank has none. */
async function loadPools(db: Kysely<Database>): Promise<Pool[] | null> {
  const pools: Pool[] = [];
  for (const plan of PLAN) {
    const pool: Pool = new Map();
    for (const s of SECTIONS) pool.set(s.type, await demoScopeQuestions(db, plan.scope, s.type));
    // A bank without the generated families (SEED_CHECKED_BANK off) has fewer: the paper is shorter then.
    if (SECTIONS.every((s) => pool.get(s.type)!.length === 0)) return null;
    pools.push(pool);
  }
  return pools;
}

/** demo-teacher acting in 演示学校, as the seed publishes through the services. */
function teacherAuth(cast: DemoCast): AuthContext {
  return {
    userId: cast.teacher.id,
    username: cast.teacher.username,
    sessionId: 'seed',
    orgId: cast.orgId,
    isCreator: false,
    isAdministrator: false,
    isGradeDirector: false,
  };
}

/** The sections of paper `h`: questions spread over its pool (the bank lists a chapter section by section). */
function paperSections(pool: Pool, h: number) {
  return SECTIONS.filter((s) => pool.get(s.type)!.length > 0).map((s) => {
    // Spread over the pool, shifted per paper.
    const list = pool.get(s.type)!;
    const count = Math.min(s.count, list.length);
    const stride = list.length / count;
    const items = Array.from(
      { length: count },
      (_, k) => list[(Math.floor(k * stride) + h) % list.length]!.id,
    );
    return {
      typeId: typeId('数学', s.type),
      title: s.type,
      note: '',
      defaultScore: s.score,
      items: [...new Set(items)].map((questionId) => ({ questionId })),
    };
  });
}

type Plan = (typeof PLAN)[number];
type PublishedHomework = Awaited<ReturnType<HomeworkService['publish']>>;

/** Creates the plan's paper, makes it final and publishes it to the 七年级 classes on the plan's dates. */
async function publishPlan(
  deps: AnalysisSeedDeps,
  auth: AuthContext,
  cast: DemoCast,
  plan: Plan,
  sections: ReturnType<typeof paperSections>,
  now: number,
): Promise<PublishedHomework> {
  const day = (offsetDays: number) => new Date(now + offsetDays * DAY_MS).toISOString().slice(0, 10);
  const blank = await deps.papers.createBlank(auth, {
    subjectId: SUBJECT_IDS.数学,
    title: `七年级数学 ${plan.title}`,
    subtitle: `满分 ${sections.reduce((sum, s) => sum + s.items.length * s.defaultScore, 0)} 分`,
  });
  await deps.papers.save(auth, blank.id, {
    version: blank.version,
    title: blank.title,
    subtitle: blank.subtitle,
    status: 'final',
    sections,
  });
  return deps.homework.publish(auth, {
    paperId: blank.id,
    type: plan.type,
    title: plan.title,
    classIds: cast.classes.map((c) => c.id),
    startDate: day(-plan.weeksAgo * 7 - 2),
    dueDate: day(-plan.weeksAgo * 7),
    subjectTeacher: false,
  });
}

/** What one plan's results are drawn from. */
interface PlanResults {
  cast: DemoCast;
  plan: Plan;
  hw: PublishedHomework;
  random: () => number;
  ability: Map<string, number>;
  now: number;
}

type SeedQuestion = ReturnType<typeof questionsOf>[number];
type Crops = Awaited<ReturnType<typeof answerCrops>>;

/** One sheet per student of a scanned plan, with recognised objective answers and marked written ones. */
async function seedPlanResults(deps: AnalysisSeedDeps, run: PlanResults): Promise<void> {
  const { cast, plan, hw, random, now } = run;
  const markedAt = plan.state === 'marking' ? now : Math.min(now, now - plan.weeksAgo * 7 * DAY_MS + DAY_MS);
  const results = new ResultsService(deps.db, () => markedAt);
  const questions = questionsOf(hw.paper);
  const difficultyOf = new Map(
    hw.paper.sections.flatMap((s) =>
      s.items.map((i) => [i.questionId, i.question?.difficulty ?? 3] as const),
    ),
  );
  // One popular wrong option per objective question (its distractor).
  const distractor = questions.map((q) => {
    const wrong = q.optionLabels.filter((o) => !q.answer.includes(o));
    return wrong[Math.floor(random() * wrong.length)] ?? '';
  });
  // Crops of the written answers, drawn before the transaction (each question's few variants).
  const crops = new Map<string, Crops>();
  for (const q of questions.filter((x) => !x.objective))
    crops.set(q.questionId, await answerCrops(deps.pages, cast.orgId, q.questionId, plainAnswer(q.answer)));
  await results.transaction(async (repo) => {
    for (const [si, student] of cast.students.entries()) {
      const c = cast.classes.findIndex((x) => x.id === student.classId);
      const theta =
        run.ability.get(student.id)! + CLASS_DRIFT[c]! * (7 - plan.weeksAgo) + normal(random) * 0.3;
      const sheet = await repo.openSheet({
        orgId: cast.orgId,
        homeworkId: hw.id,
        studentId: student.id,
        classId: student.classId,
        cardId: hw.card.cardId,
        cardVersion: hw.card.version,
        pagesExpected: hw.card.pageCount,
        questions: questions.map((q) => ({
          questionId: q.questionId,
          kind: q.kind as AnswerKind,
          fullScoreTenths: Math.round(q.full * 10),
        })),
      });
      await repo.setPagesReceived(sheet.id, hw.card.pageCount);
      await repo.setReviewStatus(sheet.id, 'confirmed');
      const objective: AnswerPatch[] = [];
      const written: AnswerPatch[] = [];
      // The newest homework: class 3's written answers are not marked yet.
      const unmarked = plan.state === 'marking' && c === 2;
      questions.forEach((q, qi) => {
        const b = (difficultyOf.get(q.questionId)! - 3) * 0.5 - 0.2;
        const p = logistic(1.7 * (theta - b));
        const isBlank = random() < 0.015 + (p < 0.25 ? 0.05 : 0);
        if (q.objective) objective.push(objectiveAnswer(q, p, isBlank, distractor[qi]!, random));
        else {
          const hand = { crop: crops.get(q.questionId)!, index: si % HANDS };
          written.push(writtenAnswer(q, p, isBlank, hand, { unmarked, lenient: c === 2 ? 0.08 : 0 }, random));
        }
      });
      await repo.writeAnswers(sheet.id, objective, { userId: null, reason: 'seed: recognised' });
      await repo.writeAnswers(sheet.id, written, {
        userId: c === 2 ? cast.director.id : cast.teacher.id,
        reason: 'seed: marked',
      });
    }
  });
}

/** A student's objective answer: the key with probability p, else a slip (a missing option, the distractor). */
function objectiveAnswer(
  q: SeedQuestion,
  p: number,
  isBlank: boolean,
  distractor: string,
  random: () => number,
): AnswerPatch {
  let response = '';
  if (!isBlank) {
    if (random() < p) response = q.answer;
    else if (q.kind === 'multiple' && q.answer.length > 1 && random() < 0.6)
      response = q.answer.slice(0, q.answer.length - 1);
    else if (q.kind === 'truefalse') response = q.answer === 'T' ? 'F' : 'T';
    else
      response =
        random() < 0.6 || q.optionLabels.length < 2
          ? distractor
          : q.optionLabels.filter((o) => o !== q.answer)[Math.floor(random() * (q.optionLabels.length - 1))]!;
  }
  const exact = response !== '' && response === q.answer;
  const partial =
    q.kind === 'multiple' && !exact && response !== '' && [...response].every((o) => q.answer.includes(o));
  const score = exact ? q.full : partial ? q.full / 2 : 0;
  return {
    questionId: q.questionId,
    response,
    responseStatus: response === '' ? 'blank' : 'ok',
    blank: response === '',
    scoreTenths: Math.round(score * 10),
    source: 'auto',
  };
}

/** A student's written answer: a crop in their hand and, unless still unmarked, a mark near their ability. */
function writtenAnswer(
  q: SeedQuestion,
  p: number,
  isBlank: boolean,
  hand: { crop: Crops; index: number },
  marking: { unmarked: boolean; lenient: number },
  random: () => number,
): AnswerPatch {
  const { crop, index } = hand;
  if (marking.unmarked) {
    // Not marked yet: what the student wrote follows their ability, as the marks will.
    const cropPath = isBlank ? crop.blank : random() < p ? crop.full[index]! : crop.wrong[index]!;
    return { questionId: q.questionId, blank: isBlank, cropPath };
  }
  const rate = isBlank ? 0 : Math.min(1, Math.max(0, p + marking.lenient + normal(random) * 0.15));
  const step = q.kind === 'blank' ? q.full : 1;
  const score = Math.min(q.full, Math.round((rate * q.full) / step) * step);
  const cropPath = isBlank
    ? crop.blank
    : score >= q.full
      ? crop.full[index]!
      : score * 2 >= q.full
        ? crop.part[index]!
        : crop.wrong[index]!;
  return {
    questionId: q.questionId,
    blank: isBlank,
    cropPath,
    scoreTenths: Math.round(score * 10),
    source: 'seed',
  };
}
