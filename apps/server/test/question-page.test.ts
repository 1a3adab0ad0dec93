import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionFiltersSchema, QuestionSchema, page, type Question } from '@zhzy/contracts';
import { SUBJECT_IDS, booknodeId, knowledgeId, questionId, typeId } from '../src/seed/catalog.js';
import { MATH_7_CHECKED } from '../src/seed/data/generated/math-7-checked.js';
import { QUESTION_SEEDS } from '../src/seed/data/questions.js';
import { createSchool } from '../src/seed/school.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

type Headers = { authorization: string };
const QuestionPage = page(QuestionSchema);
// Test hosts seed the bank without the checked families (SEED_CHECKED_BANK=false): the questions they hold.
const CHECKED = new Set(MATH_7_CHECKED.map((q) => q.key));
const MATH = QUESTION_SEEDS.filter((q) => q.subject === '数学' && !CHECKED.has(q.key));
const mathIds = (pred: (q: (typeof MATH)[number]) => boolean) =>
  MATH.filter(pred).map((q) => questionId(q.key));

describe.each(DIALECTS)('the question page on %s', (dialect) => {
  let t: TestApp;
  let teacher: Headers;
  let stranger: Headers;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    await createSchool(t.testDb.db.kysely, {
      name: '第二中学',
      years: [{ name: '2026-2027学年', isDefault: true, classes: [] }],
      users: [{ username: 'b-teacher', password: 'Other@2026', nickname: '赵老师' }],
    });
    teacher = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    stranger = bearer((await signIn(t.app, 'b-teacher', 'Other@2026')).access_token);
  });
  afterAll(() => t.close());

  const get = async (query: string, who: Headers = teacher) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&${query}`,
      headers: who,
    });
    expect(res.statusCode, res.body).toBe(200);
    return QuestionPage.parse(res.json().data);
  };
  /** Every record of the query, page after page. */
  const all = async (query: string, who: Headers = teacher): Promise<Question[]> => {
    const out: Question[] = [];
    for (let n = 1; ; n++) {
      const data = await get(`${query}&size=100&page=${n}`, who);
      out.push(...data.records);
      if (data.records.length < 100) return out;
    }
  };
  const sorted = (ids: string[]) => [...ids].sort();

  it('keeps the first release’s answer: same path, same fields, ordered by type then id', async () => {
    const first = await get('size=20');
    expect(first.total).toBe(MATH.length);
    const typeOrder = ['单选题', '多选题', '判断题', '填空题', '解答题'];
    const expected = MATH.map((q) => ({ id: questionId(q.key), rank: typeOrder.indexOf(q.type) }))
      .sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, 20)
      .map((x) => x.id);
    expect(first.records.map((q) => q.id)).toEqual(expected);
    const q = first.records[0]!;
    for (const key of [
      'id',
      'stageId',
      'subjectId',
      'typeId',
      'typeName',
      'difficulty',
      'stem',
      'options',
      'answer',
      'analysis',
      'year',
      'source',
      'usageCount',
      'knowledgePoints',
    ])
      expect(q).toHaveProperty(key);
  });

  it('pages without overlap and with the same total on every page', async () => {
    const one = await get('size=7&page=1');
    const two = await get('size=7&page=2');
    expect(one.total).toBe(two.total);
    expect(one.records.map((q) => q.id).filter((id) => two.records.some((r) => r.id === id))).toEqual([]);
    expect(two.page).toBe(2);
  });

  it('filters by type, difficulty, year, source and region, alone and together', async () => {
    const single = typeId('数学', '单选题');
    expect(sorted((await all(`typeId=${single}`)).map((q) => q.id))).toEqual(
      sorted(mathIds((q) => q.type === '单选题')),
    );
    expect(sorted((await all('difficulty=4')).map((q) => q.id))).toEqual(
      sorted(mathIds((q) => q.difficulty === 4)),
    );
    expect(sorted((await all('year=2024')).map((q) => q.id))).toEqual(
      sorted(mathIds((q) => q.year === 2024)),
    );
    expect(sorted((await all(`source=${encodeURIComponent('期中')}`)).map((q) => q.id))).toEqual(
      sorted(mathIds((q) => q.source.includes('期中'))),
    );
    const combined = await all(`typeId=${single}&difficulty=2&year=2025`);
    expect(sorted(combined.map((q) => q.id))).toEqual(
      sorted(mathIds((q) => q.type === '单选题' && q.difficulty === 2 && q.year === 2025)),
    );
    const regions = await all(`region=${encodeURIComponent('全国')}`);
    expect(regions.length).toBeGreaterThan(0);
    expect(regions.every((q) => q.region === '全国')).toBe(true);
    const beijing = await all(`region=${encodeURIComponent('北京')}`);
    expect(beijing.every((q) => q.region === '北京')).toBe(true);
    expect(regions.length + beijing.length).toBeLessThanOrEqual(MATH.length);
  });

  it('refuses an unknown region or sort naming the field', async () => {
    for (const query of [
      `region=${encodeURIComponent('火星')}`,
      'sort=random',
      'scope=everyone',
      'year=1800',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&${query}`,
        headers: teacher,
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toMatch(new RegExp(query.split('=')[0]!));
    }
  });

  it('filters by a chapter with its sections, and by a knowledge point with the points under it', async () => {
    const chapter = await all(`booknodeId=${booknodeId('m7a-2')}`);
    expect(sorted(chapter.map((q) => q.id))).toEqual(
      sorted(mathIds((q) => q.sectionKey.startsWith('m7a-2-'))),
    );
    expect(chapter.every((q) => q.chapters.some((c) => c.name.startsWith('2.')))).toBe(true);
    const section = await all(`booknodeId=${booknodeId('m7a-2-3')}`);
    expect(sorted(section.map((q) => q.id))).toEqual(sorted(mathIds((q) => q.sectionKey === 'm7a-2-3')));

    const kpTree = await all(`knowledgePointId=${knowledgeId('k-m-coord')}`);
    expect(sorted(kpTree.map((q) => q.id))).toEqual(
      sorted(mathIds((q) => q.knowledgeKeys.some((k) => k.startsWith('k-m-coord-')))),
    );
    const leaf = await all(`knowledgePointId=${knowledgeId('k-m-rational-abs')}`);
    expect(sorted(leaf.map((q) => q.id))).toEqual(
      sorted(mathIds((q) => q.knowledgeKeys.includes('k-m-rational-abs'))),
    );
  });

  it('sorts by newest first and by most used first, deterministically', async () => {
    const newest = await all('sort=newest');
    const stamps = newest.map((q) => q.createdAt);
    expect(stamps).toEqual([...stamps].sort().reverse());
    // The demo bank dates its questions by their year, so the newest page starts with recent years.
    expect(newest[0]!.year).toBe(Math.max(...MATH.map((q) => q.year)));

    const used = ['q-m7a-1-2-01', 'q-m7a-2-1-01', 'q-m7b-7-1-01'];
    for (const [i, id] of used.entries())
      await t.testDb.db.kysely
        .updateTable('questions')
        .set({ usage_count: 50 - i * 10 })
        .where('id', '=', id)
        .execute();
    const most = await get('sort=mostUsed&size=5');
    expect(most.records.slice(0, 3).map((q) => q.id)).toEqual(used);
    expect(most.records.slice(0, 3).map((q) => q.usageCount)).toEqual([50, 40, 30]);
    expect((await get('sort=mostUsed&size=5')).records.map((q) => q.id)).toEqual(
      most.records.map((q) => q.id),
    );
  });

  it('draws from one bank at a time with scope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/question/personal',
      headers: teacher,
      payload: {
        subjectId: SUBJECT_IDS.数学,
        typeId: typeId('数学', '判断题'),
        difficulty: 1,
        stem: '<p>我的判断题：\\(0\\) 是自然数。</p>',
        answer: '正确',
        knowledgePointIds: [knowledgeId('k-m-rational-concept')],
      },
    });
    const mine = QuestionSchema.parse(res.json().data);
    expect((await all('scope=mine')).map((q) => q.id)).toEqual([mine.id]);
    expect((await all('scope=system')).every((q) => q.owner === 'system')).toBe(true);
    expect((await all('scope=system')).length).toBe(MATH.length);
    expect((await all('scope=school')).length).toBe(0);
    expect((await all('')).map((q) => q.id)).toContain(mine.id);
    expect((await all('', stranger)).map((q) => q.id)).not.toContain(mine.id);
  });

  describe('similar questions', () => {
    const similar = async (id: string, query = '') => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/teacher/question/similar/${id}?${query}`,
        headers: teacher,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Question[];
    };

    it('offers questions of the same type sharing its knowledge points, within one difficulty level, never itself', async () => {
      const source = QuestionSchema.parse(
        (
          await t.app.inject({
            method: 'GET',
            url: '/teacher/question/info/q-g-m7a-5-2-solve-01',
            headers: teacher,
          })
        ).json().data,
      );
      const found = await similar(source.id, 'size=20');
      expect(found.length).toBeGreaterThan(3);
      for (const q of found) {
        expect(q.id).not.toBe(source.id);
        expect(q.typeId).toBe(source.typeId);
        expect(Math.abs(q.difficulty - source.difficulty)).toBeLessThanOrEqual(1);
        expect(q.knowledgePoints.some((k) => source.knowledgePoints.some((s) => s.id === k.id))).toBe(true);
      }
      const shared = (q: Question) =>
        q.knowledgePoints.filter((k) => source.knowledgePoints.some((s) => s.id === k.id)).length;
      const keys = found.map((q) => [-shared(q), Math.abs(q.difficulty - source.difficulty), q.id] as const);
      const ordered = [...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : 1));
      expect(keys).toEqual(ordered);
    });

    it('answers the same list every time and leaves out what the caller excludes', async () => {
      const a = await similar('q-g-m7a-5-2-solve-01', 'size=5');
      expect((await similar('q-g-m7a-5-2-solve-01', 'size=5')).map((q) => q.id)).toEqual(a.map((q) => q.id));
      const without = await similar('q-g-m7a-5-2-solve-01', `size=5&exclude=${a[0]!.id},${a[1]!.id}`);
      expect(without.map((q) => q.id)).not.toContain(a[0]!.id);
      expect(without.map((q) => q.id)).not.toContain(a[1]!.id);
      expect(without.map((q) => q.id).slice(0, 3)).toEqual(a.slice(2).map((q) => q.id));
    });

    it('answers 404 for a question the caller cannot see', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/teacher/question/similar/no-such-question',
        headers: teacher,
      });
      expect(res.statusCode).toBe(404);
    });
  });

  it('offers the filter values of a subject with their counts', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/teacher/question/filters?subjectId=${SUBJECT_IDS.数学}`,
      headers: teacher,
    });
    const filters = QuestionFiltersSchema.parse(res.json().data);
    expect(filters.years.map((y) => y.value)).toEqual(
      [...new Set(MATH.map((q) => q.year))].sort((a, b) => b - a),
    );
    expect(filters.years.find((y) => y.value === 2024)?.count).toBe(
      MATH.filter((q) => q.year === 2024).length,
    );
    expect(filters.difficulties.reduce((s, d) => s + d.count, 0)).toBeGreaterThanOrEqual(MATH.length);
    expect(filters.regions[0]?.value).toBe('全国');
    expect(filters.sources.map((s) => s.value)).toContain('原创');
  });
});
