import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionSchema, SmartResultSchema, type Question } from '@zhzy/contracts';
import { questionFamily } from '../src/modules/questions/family.js';
import { MATH_TEXTBOOKS } from '../src/seed/data/math-textbooks.js';
import { QUESTION_SEEDS } from '../src/seed/data/questions.js';
import { SUBJECT_IDS, booknodeId, knowledgeId, questionId, typeId } from '../src/seed/catalog.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

// 相似题 / 换一题 offer at least three candidates for every seeded 七年级 mathematics question: same type,
// difficulty within one level, sharing a knowledge point, else the section, else the chapter.

const SEVENTH = new Set(['m7a', 'm7b']);
const chapterOf = new Map(
  MATH_TEXTBOOKS.flatMap((t) => t.chapters.flatMap((c) => c.sections.map((s) => [booknodeId(s.key), c.key]))),
);

describe.each(DIALECTS)('similar questions on %s', (dialect) => {
  let t: TestApp;
  let me: { authorization: string };

  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { SEED_CHECKED_BANK: 'true' } });
    me = bearer((await signIn(t.app, 'demo-teacher')).access_token);
  });
  afterAll(() => t.close());

  const similar = async (id: string, size = 5): Promise<Question[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/teacher/question/similar/${id}?size=${size}`,
      headers: me,
    });
    expect(res.statusCode, res.body).toBe(200);
    return QuestionSchema.array().parse(res.json().data);
  };

  it('offers at least three of the same type and near difficulty, from the same knowledge point or chapter', async () => {
    // Every question on SQLite; every third on PostgreSQL (the same queries, a second dialect, half a minute less).
    const seeds = QUESTION_SEEDS.filter((q) => SEVENTH.has(q.textbookKey)).filter(
      (_, i) => dialect === 'sqlite' || i % 3 === 0,
    );
    expect(seeds.length).toBeGreaterThan(300);
    const short: string[] = [];
    for (const seed of seeds) {
      const id = questionId(seed.key);
      const found = await similar(id);
      if (found.length < 3) short.push(`${seed.key} ${seed.type} ${seed.difficulty}: ${found.length}`);
      const kps = new Set(seed.knowledgeKeys.map(knowledgeId));
      const chapters = new Set([chapterOf.get(booknodeId(seed.sectionKey))]);
      for (const q of found) {
        expect(q.id).not.toBe(id);
        expect(q.typeName).toBe(seed.type);
        expect(Math.abs(q.difficulty - seed.difficulty)).toBeLessThanOrEqual(1);
        const related =
          q.knowledgePoints.some((k) => kps.has(k.id)) ||
          q.chapters.some((c) => chapters.has(chapterOf.get(c.id)));
        expect(related, `${q.id} for ${id}`).toBe(true);
      }
      expect(new Set(found.map((q) => q.id)).size).toBe(found.length);
    }
    expect(short).toEqual([]);
  }, 120_000);

  it('puts questions sharing a knowledge point first and never offers what the caller excludes', async () => {
    const id = questionId('q-m7a-1-2-03');
    const first = await similar(id, 10);
    const source = QUESTION_SEEDS.find((q) => q.key === 'q-m7a-1-2-03')!;
    expect(first.length).toBeGreaterThanOrEqual(3);
    expect(first[0]!.knowledgePoints.map((k) => k.id)).toContain(`kp-${source.knowledgeKeys[0]}`);
    const exclude = first.slice(0, 2).map((q) => q.id);
    const res = await t.app.inject({
      method: 'GET',
      url: `/teacher/question/similar/${id}?size=10&exclude=${exclude.join(',')}`,
      headers: me,
    });
    const rest = QuestionSchema.array().parse(res.json().data);
    expect(rest.length).toBeGreaterThanOrEqual(3);
    expect(rest.map((q) => q.id)).not.toContain(exclude[0]);
    expect(rest.map((q) => q.id)).not.toContain(exclude[1]);
  });

  it('smart composition never puts two questions of one template in a paper, whatever the seed', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/teacher/paper/smart',
        headers: me,
        payload: {
          subjectId: SUBJECT_IDS.数学,
          booknodeIds: [booknodeId('m7a-5'), booknodeId('m7a-2')],
          types: [
            { typeId: typeId('数学', '单选题'), count: 10, score: 3 },
            { typeId: typeId('数学', '判断题'), count: 6, score: 2 },
            { typeId: typeId('数学', '填空题'), count: 8, score: 3 },
            { typeId: typeId('数学', '解答题'), count: 6, score: 8 },
          ],
          difficulty: 0.5,
          seed,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const result = SmartResultSchema.parse(res.json().data);
      const ids = result.selections.flatMap((s) => s.questions.map((q) => q.id));
      expect(ids.length).toBe(30);
      const families = ids.map(questionFamily);
      expect(new Set(families).size, `seed ${seed}`).toBe(families.length);
    }
  });
});
