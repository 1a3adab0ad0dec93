import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DEMO_ACCOUNTS, demoMember } from '../../seed/demo.js';
import { draftOf } from './draft.js';
import type { PapersService } from './service.js';

const SEEDED_KEY = 'shared_papers_demo_seeded';

/** What 李主任 (the 数学 teaching group's director) shares with the school: a shipped template, checked and final. */
export const DEMO_SHARED_PAPERS = [
  { templateId: 'gp-m7a-unit-1-2', title: '七年级上册 第一、二章 有理数 单元测试卷（教研组审定）' },
  { templateId: 'gp-m7a-midterm', title: '七年级上册 期中测试卷（教研组审定）' },
] as const;

/**
 * Gives 演示学校 a 校本资源 shelf that is not empty on the first day: 李主任 copies two shipped template papers, marks
 * them final and shares them to the school, as a teaching group does before term. Runs once per database, after the
 * templates and the school are seeded; false when done before or when the demo school or a template is missing.
 */
export async function seedSharedDemoPapers(deps: {
  db: Kysely<Database>;
  papers: PapersService;
  clock: () => number;
}): Promise<boolean> {
  const { db, papers, clock } = deps;
  const done = await db.selectFrom('meta').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
  if (done) return false;
  const director = await demoMember(db, DEMO_ACCOUNTS.director);
  if (!director) return false;
  const templates = await db
    .selectFrom('papers')
    .select('id')
    .where(
      'id',
      'in',
      DEMO_SHARED_PAPERS.map((p) => p.templateId),
    )
    .execute();
  if (templates.length < DEMO_SHARED_PAPERS.length) return false;

  const { auth } = director;
  for (const shared of DEMO_SHARED_PAPERS) {
    const copy = await papers.copy(auth, shared.templateId);
    const doc = await papers.detail(auth, copy.id);
    await papers.save(auth, copy.id, {
      ...draftOf(doc),
      version: doc.version,
      title: shared.title,
      status: 'final',
    });
    await papers.share(auth, copy.id, { shared: true, asTemplate: false });
  }
  await db
    .insertInto('meta')
    .values({ key: SEEDED_KEY, value: new Date(clock()).toISOString() })
    .execute();
  return true;
}
