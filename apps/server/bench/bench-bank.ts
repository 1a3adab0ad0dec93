// A question bank of any size (100,000 for the search benchmark), for benchmarks only: the product never
// seeds it. Questions are variations of the demo bank — numbers changed, a context phrase in front, metadata
// spread like a real bank (years, regions, sources, owners, usage) — with search tokens computed the way the
// host computes them, so the index holds what it would hold after real writes.
import { AREAS } from '@zhzy/contracts';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { questionSearchTokens, tokenize } from '../src/modules/questions/search-text.js';
import { SUBJECT_IDS, booknodeId, chunks, knowledgeId, typeId } from '../src/seed/catalog.js';
import { seededRandom } from '../src/seed/data/generated/kit.js';
import { KNOWLEDGE_TREES } from '../src/seed/data/knowledge.js';
import { QUESTION_SEEDS } from '../src/seed/data/questions.js';
import type { KnowledgeSeed } from '../src/seed/data/types.js';

const LETTERS = 'ABCDEFG';
const SOURCES = [
  '原创',
  '期中练习',
  '期末复习',
  '单元测试',
  '课后作业',
  '中考模拟',
  '月考',
  '寒假作业',
  '暑假作业',
  '竞赛选拔',
];
const CONTEXT_WORDS = [
  '校本',
  '周测',
  '复习',
  '拓展',
  '提高',
  '基础',
  '巩固',
  '练习',
  '专题',
  '培优',
  '易错',
  '压轴',
  '预习',
  '检测',
  '回顾',
  '探究',
];

function knowledgeNames(nodes: KnowledgeSeed[]): [string, string][] {
  return nodes.flatMap((n) => [[n.key, n.name] as [string, string], ...knowledgeNames(n.children ?? [])]);
}
const KP_NAMES = new Map(Object.values(KNOWLEDGE_TREES).flatMap(knowledgeNames));

interface Template {
  seed: (typeof QUESTION_SEEDS)[number];
  options: { label: string; content: string }[];
  tokens: string[];
}

/** Tokens of each demo question, computed once; a variant only renumbers them. */
function templates(): Template[] {
  return QUESTION_SEEDS.map((seed) => {
    const options = (seed.options ?? []).map((content, i) => ({ label: LETTERS[i]!, content }));
    const tokens = questionSearchTokens({
      stem: seed.stem,
      options,
      answer: seed.answer,
      analysis: seed.analysis,
      knowledgePoints: seed.knowledgeKeys.map((k) => KP_NAMES.get(k) ?? ''),
    }).split(' ');
    return { seed, options, tokens };
  });
}

/**
 * Inserts `count` generated questions (ids `bench-0000001`…) with their knowledge points and chapters.
 * Deterministic for a given count. `orgId`/`userId` own the school and personal share of the bank.
 */
export async function insertBenchBank(
  db: Kysely<Database>,
  count: number,
  owners: { orgId: string; userId: string },
  onProgress?: (done: number) => void,
): Promise<void> {
  const rng = seededRandom(20_260_100);
  const all = templates();
  const contextTokens = new Map<string, string[]>();
  const start = Date.UTC(2021, 0, 1);
  const span = Date.UTC(2026, 9, 31) - start;

  const rows: Insertable<Database['questions']>[] = [];
  const kpLinks: Database['question_knowledge_points'][] = [];
  const chapterLinks: Database['question_booknodes'][] = [];
  const flush = async () => {
    await db.transaction().execute(async (trx) => {
      for (const batch of chunks(rows, 400)) await trx.insertInto('questions').values(batch).execute();
      for (const batch of chunks(kpLinks, 2000))
        await trx.insertInto('question_knowledge_points').values(batch).execute();
      for (const batch of chunks(chapterLinks, 2000))
        await trx.insertInto('question_booknodes').values(batch).execute();
    });
    rows.length = 0;
    kpLinks.length = 0;
    chapterLinks.length = 0;
  };

  for (let n = 1; n <= count; n++) {
    const t = all[Math.floor(rng() * all.length)]!;
    const s = t.seed;
    // The same renumbering for the text and its tokens keeps them in step.
    const shift = 1 + Math.floor(rng() * 97);
    const renumber = (text: string) =>
      text.replace(/\d+/g, (d) =>
        String((Number(d.slice(-6)) * 7 + shift) % 10 ** Math.min(d.length + 1, 6)),
      );
    const area = AREAS[Math.floor(rng() * AREAS.length)]!;
    const word = CONTEXT_WORDS[Math.floor(rng() * CONTEXT_WORDS.length)]!;
    const context = `${area}${word}`;
    let ctxTokens = contextTokens.get(context);
    if (!ctxTokens) {
      ctxTokens = tokenize(context);
      contextTokens.set(context, ctxTokens);
    }
    const id = `bench-${String(n).padStart(7, '0')}`;
    const roll = rng();
    const owner = roll < 0.97 ? 'system' : roll < 0.99 ? 'school' : 'personal';
    const createdAt = new Date(start + Math.floor(rng() * span)).toISOString();
    const year = Math.min(2026, 2015 + Math.floor(rng() * 12));
    rows.push({
      id,
      subject_id: SUBJECT_IDS[s.subject],
      type_id: typeId(s.subject, s.type),
      owner,
      org_id: owner === 'system' ? null : owners.orgId,
      owner_user_id: owner === 'system' ? null : owners.userId,
      difficulty: Math.max(1, Math.min(5, s.difficulty + Math.floor(rng() * 3) - 1)),
      stem: `<p>（${context}）</p>${renumber(s.stem)}`,
      options: JSON.stringify(t.options.map((o) => ({ label: o.label, content: renumber(o.content) }))),
      answer: renumber(s.answer),
      analysis: renumber(s.analysis),
      year,
      source: `${year}年${SOURCES[Math.floor(rng() * SOURCES.length)]!}`,
      usage_count: Math.floor(rng() ** 4 * 500),
      blank_count: s.type === '填空题' ? 1 + Math.floor(rng() * 3) : null,
      region: area,
      origin_id: null,
      review_status: 'approved',
      reviewed_by: null,
      reviewed_at: null,
      review_note: null,
      purged_at: null,
      created_at: createdAt,
      updated_at: createdAt,
      deleted_at: rng() < 0.01 ? createdAt : null,
      search_tokens: [...ctxTokens, ...t.tokens.map((tok) => tok.replace(/\d+/g, (d) => renumber(d)))].join(
        ' ',
      ),
    });
    for (const k of s.knowledgeKeys) kpLinks.push({ question_id: id, knowledge_point_id: knowledgeId(k) });
    chapterLinks.push({ question_id: id, booknode_id: booknodeId(s.sectionKey) });
    if (rows.length === 5000) {
      await flush();
      onProgress?.(n);
    }
  }
  if (rows.length > 0) await flush();
  onProgress?.(count);
}
