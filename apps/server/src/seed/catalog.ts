import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { countBlanks } from '../modules/questions/rich-content.js';
import { questionSearchTokens } from '../modules/questions/search-text.js';
import { KNOWLEDGE_TREES } from './data/knowledge.js';
import { MATH_TEXTBOOKS } from './data/math-textbooks.js';
import { OTHER_TEXTBOOKS } from './data/other-textbooks.js';
import { MATH_7_CHECKED } from './data/generated/math-7-checked.js';
import { QUESTION_SEEDS } from './data/questions.js';
import type { QuestionSeed } from './data/types.js';
import { QUESTION_TYPES, type KnowledgeSeed, type SubjectName } from './data/types.js';

/** Stable ids of the reference data, so seeds can be re-run and rows referenced from tests. */
export const STAGE_JUNIOR = 'stage-junior';
export const SUBJECT_IDS: Record<SubjectName, string> = {
  语文: 'subj-junior-chinese',
  数学: 'subj-junior-math',
  英语: 'subj-junior-english',
  物理: 'subj-junior-physics',
};
const SUBJECT_ORDER: SubjectName[] = ['语文', '数学', '英语', '物理'];
const OBJECTIVE_TYPES = new Set(['单选题', '多选题', '判断题', '完形填空']);

export const typeId = (subject: SubjectName, name: string): string =>
  `qt-${SUBJECT_IDS[subject].slice('subj-junior-'.length)}-${QUESTION_TYPES[subject].indexOf(name) + 1}`;
export const textbookId = (key: string) => `tb-${key}`;
export const booknodeId = (key: string) => `bn-${key}`;
export const knowledgeId = (key: string) => `kp-${key}`;
export const questionId = (key: string) => (key.startsWith('q-') ? key : `q-${key}`);

const LETTERS = 'ABCDEFG';

/** Splits rows into batches small enough for either database's parameter limit. */
export function chunks<T>(rows: T[], size = 200): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

function flattenKnowledge(
  subjectId: string,
  nodes: KnowledgeSeed[],
  parent: string | null,
  out: Database['knowledge_points'][],
) {
  nodes.forEach((node, index) => {
    out.push({
      id: knowledgeId(node.key),
      subject_id: subjectId,
      parent_id: parent,
      name: node.name,
      sort: out.length + index,
    });
    if (node.children) flattenKnowledge(subjectId, node.children, knowledgeId(node.key), out);
  });
}

function knowledgeNames(nodes: KnowledgeSeed[]): [string, string][] {
  return nodes.flatMap((n) => [[n.key, n.name] as [string, string], ...knowledgeNames(n.children ?? [])]);
}
const KNOWLEDGE_NAMES = new Map(Object.values(KNOWLEDGE_TREES).flatMap(knowledgeNames));

/** A stable number from a key, for deterministic demo values. */
function keyHash(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0);
}

/** Areas of the demo bank: most questions nationwide, the rest spread over a few provinces. */
const DEMO_REGIONS = ['全国', '全国', '全国', '北京', '上海', '江苏', '浙江', '广东', '山东', '四川', '湖北'];

/** When a seed question "arrived": a fixed day of its year, so 最新 sorts the demo bank sensibly. */
function seedCreatedAt(key: string, year: number): string {
  const day = keyHash(key) % 300;
  return new Date(
    Date.UTC(year, 0, 1) + day * 86_400_000 + (keyHash(`${key}#`) % 86_400) * 1000,
  ).toISOString();
}

type SystemQuestionRow = Omit<Database['questions'], 'usage_count' | 'review_status' | 'updated_at'>;
const systemRowsCache = new Map<boolean, SystemQuestionRow[]>();

const CHECKED_KEYS = new Set(MATH_7_CHECKED.map((q) => q.key));
/** The system bank's seeds, with or without the checked families (config SEED_CHECKED_BANK). */
function bankSeeds(checkedBank: boolean): QuestionSeed[] {
  return checkedBank ? QUESTION_SEEDS : QUESTION_SEEDS.filter((q) => !CHECKED_KEYS.has(q.key));
}

/**
 * The system bank as rows, search tokens included. Segmenting ~650 questions takes a noticeable fraction of a
 * second, so the rows are built once per process (every test host seeds them again).
 */
export function systemQuestionRows(checkedBank = true): SystemQuestionRow[] {
  const cached = systemRowsCache.get(checkedBank);
  if (cached) return cached;
  const rows = bankSeeds(checkedBank).map((q): SystemQuestionRow => {
    const options = (q.options ?? []).map((content, i) => ({ label: LETTERS[i] ?? String(i + 1), content }));
    return {
      id: questionId(q.key),
      subject_id: SUBJECT_IDS[q.subject],
      type_id: typeId(q.subject, q.type),
      owner: 'system',
      org_id: null,
      owner_user_id: null,
      difficulty: q.difficulty,
      stem: q.stem,
      options: JSON.stringify(options),
      answer: q.answer,
      analysis: q.analysis,
      year: q.year,
      source: q.source,
      region: q.region ?? DEMO_REGIONS[keyHash(q.key) % DEMO_REGIONS.length]!,
      blank_count: q.type === '填空题' ? Math.max(1, countBlanks(q.stem)) : null,
      origin_id: null,
      reviewed_by: null,
      reviewed_at: null,
      review_note: null,
      purged_at: null,
      created_at: seedCreatedAt(q.key, q.year),
      deleted_at: null,
      search_tokens: questionSearchTokens({
        stem: q.stem,
        options,
        answer: q.answer,
        analysis: q.analysis,
        knowledgePoints: q.knowledgeKeys.map((k) => KNOWLEDGE_NAMES.get(k) ?? ''),
      }),
    };
  });
  systemRowsCache.set(checkedBank, rows);
  return rows;
}

const CATALOG_DATA = { MATH_TEXTBOOKS, OTHER_TEXTBOOKS, KNOWLEDGE_TREES, QUESTION_SEEDS, QUESTION_TYPES };
const CATALOG_HASH = createHash('sha256').update(JSON.stringify(CATALOG_DATA)).digest('hex').slice(0, 16);

/**
 * Seeds the reference catalogue every school shares — stages, subjects, question types, textbooks
 * with their chapter trees, knowledge points and the system question bank. Runs only when the data changed.
 */
export async function seedCatalog(
  db: Kysely<Database>,
  clock: () => number = Date.now,
  { checkedBank = true }: { checkedBank?: boolean } = {},
): Promise<boolean> {
  const CATALOG_VERSION = checkedBank ? CATALOG_HASH : `${CATALOG_HASH}-core`;
  const current = await db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', 'catalog_version')
    .executeTakeFirst();
  if (current?.value === CATALOG_VERSION) return false;
  const now = new Date(clock()).toISOString();
  await db.transaction().execute(async (trx) => {
    await insertSubjectsAndTypes(trx);
    await insertTextbooks(trx);
    await insertKnowledgePoints(trx);
    await upsertSystemQuestions(trx, checkedBank, now);
    await linkSystemQuestions(trx, bankSeeds(checkedBank));
    await trx
      .insertInto('meta')
      .values({ key: 'catalog_version', value: CATALOG_VERSION })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: CATALOG_VERSION }))
      .execute();
  });
  return true;
}

/** 初中, its subjects and each subject's question types. */
async function insertSubjectsAndTypes(trx: Transaction<Database>): Promise<void> {
  await trx
    .insertInto('stages')
    .values({ id: STAGE_JUNIOR, name: '初中', sort: 2 })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await trx
    .insertInto('subjects')
    .values(
      SUBJECT_ORDER.map((name, i) => ({
        id: SUBJECT_IDS[name],
        stage_id: STAGE_JUNIOR,
        name,
        sort: i + 1,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  await trx
    .insertInto('question_types')
    .values(
      SUBJECT_ORDER.flatMap((subject) =>
        QUESTION_TYPES[subject].map((name, i) => ({
          id: typeId(subject, name),
          subject_id: SUBJECT_IDS[subject],
          name,
          objective: OBJECTIVE_TYPES.has(name) ? 1 : 0,
          sort: i + 1,
        })),
      ),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The textbooks and their chapter trees (chapters, then their sections). */
async function insertTextbooks(trx: Transaction<Database>): Promise<void> {
  const textbooks = [...MATH_TEXTBOOKS, ...OTHER_TEXTBOOKS];
  await trx
    .insertInto('textbooks')
    .values(
      textbooks.map((t, i) => ({
        id: textbookId(t.key),
        subject_id: SUBJECT_IDS[t.subject],
        publisher: t.publisher,
        name: t.name,
        sort: i + 1,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  const nodes: Database['booknodes'][] = [];
  for (const t of textbooks) {
    t.chapters.forEach((chapter, ci) => {
      nodes.push({
        id: booknodeId(chapter.key),
        textbook_id: textbookId(t.key),
        parent_id: null,
        name: chapter.name,
        sort: ci + 1,
        depth: 1,
      });
      chapter.sections.forEach((section, si) => {
        nodes.push({
          id: booknodeId(section.key),
          textbook_id: textbookId(t.key),
          parent_id: booknodeId(chapter.key),
          name: section.name,
          sort: si + 1,
          depth: 2,
        });
      });
    });
  }
  for (const batch of chunks(nodes))
    await trx
      .insertInto('booknodes')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute();
}

/** Every subject's knowledge tree, flattened. */
async function insertKnowledgePoints(trx: Transaction<Database>): Promise<void> {
  const kps: Database['knowledge_points'][] = [];
  for (const subject of SUBJECT_ORDER)
    flattenKnowledge(SUBJECT_IDS[subject], KNOWLEDGE_TREES[subject], null, kps);
  for (const batch of chunks(kps))
    await trx
      .insertInto('knowledge_points')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute();
}

/** The system questions: content follows the seed (usage counts and links made since stay). */
async function upsertSystemQuestions(
  trx: Transaction<Database>,
  checkedBank: boolean,
  now: string,
): Promise<void> {
  const questions = systemQuestionRows(checkedBank).map((row) => ({ ...row, updated_at: now }));
  for (const batch of chunks(questions, 100))
    await trx
      .insertInto('questions')
      .values(batch)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          type_id: eb.ref('excluded.type_id'),
          difficulty: eb.ref('excluded.difficulty'),
          stem: eb.ref('excluded.stem'),
          options: eb.ref('excluded.options'),
          answer: eb.ref('excluded.answer'),
          analysis: eb.ref('excluded.analysis'),
          year: eb.ref('excluded.year'),
          source: eb.ref('excluded.source'),
          region: eb.ref('excluded.region'),
          blank_count: eb.ref('excluded.blank_count'),
          search_tokens: eb.ref('excluded.search_tokens'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
}

/** Each system question's textbook section and knowledge points. */
async function linkSystemQuestions(trx: Transaction<Database>, seeds: QuestionSeed[]): Promise<void> {
  const links = seeds.map((q) => ({
    question_id: questionId(q.key),
    booknode_id: booknodeId(q.sectionKey),
  }));
  for (const batch of chunks(links))
    await trx
      .insertInto('question_booknodes')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute();
  const kpLinks = seeds.flatMap((q) =>
    q.knowledgeKeys.map((k) => ({ question_id: questionId(q.key), knowledge_point_id: knowledgeId(k) })),
  );
  for (const batch of chunks(kpLinks)) {
    await trx
      .insertInto('question_knowledge_points')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
