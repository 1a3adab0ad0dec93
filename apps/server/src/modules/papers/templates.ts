import type { Kysely } from 'kysely';
import { PaperSettingsSchema } from '@zhzy/contracts';
import type { DialectName } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { SUBJECT_IDS, booknodeId, typeId } from '../../seed/catalog.js';
import { optimise } from './optimiser.js';
import { PapersRepository, type ItemRow, type SectionRow } from './repository.js';
import { sectionNumeral } from './service.js';

// Shipped template papers (GoodsPaper) for 七年级数学, assembled at seed time from the system bank by the
// smart-composition optimiser with a fixed seed. Ids are stable; a template is written once and never
// rewritten, so a teacher's copy and links keep pointing at what they saw.

interface TemplateSpec {
  id: string;
  title: string;
  subtitle: string;
  chapters: string[];
  types: { name: string; count: number; score: number }[];
  difficulty: number;
  examMinutes: number;
}

export const PAPER_TEMPLATES: TemplateSpec[] = [
  {
    id: 'gp-m7a-unit-1-2',
    title: '七年级上册 第一、二章 有理数 单元测试卷',
    subtitle: '人教版 · 七年级数学',
    chapters: ['m7a-1', 'm7a-2'],
    types: [
      { name: '单选题', count: 6, score: 4 },
      { name: '判断题', count: 3, score: 2 },
      { name: '填空题', count: 5, score: 4 },
      { name: '解答题', count: 5, score: 10 },
    ],
    difficulty: 0.35,
    examMinutes: 60,
  },
  {
    id: 'gp-m7a-midterm',
    title: '七年级上册 期中测试卷',
    subtitle: '人教版 · 七年级数学（第一章至第四章）',
    chapters: ['m7a-1', 'm7a-2', 'm7a-3', 'm7a-4'],
    types: [
      { name: '单选题', count: 8, score: 3 },
      { name: '多选题', count: 2, score: 4 },
      { name: '填空题', count: 6, score: 3 },
      { name: '解答题', count: 5, score: 10 },
    ],
    difficulty: 0.45,
    examMinutes: 90,
  },
  {
    id: 'gp-m7b-final',
    title: '七年级下册 期末测试卷',
    subtitle: '人教版 · 七年级数学（第七章至第十二章）',
    chapters: ['m7b-7', 'm7b-8', 'm7b-9', 'm7b-10', 'm7b-11', 'm7b-12'],
    types: [
      { name: '单选题', count: 10, score: 3 },
      { name: '填空题', count: 6, score: 3 },
      { name: '解答题', count: 4, score: 13 },
    ],
    difficulty: 0.5,
    examMinutes: 120,
  },
];

const META_KEY = 'paper_templates';
const TEMPLATE_SEED = 2026;

/** Seeds the shipped template papers once per database; false when they were there already. */
export async function seedPaperTemplates(
  db: Kysely<Database>,
  dialect: DialectName,
  clock: () => number = Date.now,
): Promise<boolean> {
  const repo = new PapersRepository(db, dialect);
  if ((await repo.findMeta(META_KEY))?.value === String(PAPER_TEMPLATES.length)) return false;
  const subjectId = SUBJECT_IDS.数学;
  const subject = await repo.findSubject(subjectId);
  if (!subject) return false;
  const now = new Date(clock()).toISOString();
  for (const spec of PAPER_TEMPLATES) {
    if (await repo.findPaper(spec.id)) continue;
    const nodes = await repo.booknodesAround(spec.chapters.map(booknodeId));
    const chapterIds = new Set(spec.chapters.map(booknodeId));
    const booknodeIds = nodes
      .filter((n) => chapterIds.has(n.id) || chapterIds.has(n.parent_id ?? ''))
      .map((n) => n.id);
    const types = spec.types.map((t) => ({ ...t, typeId: typeId('数学', t.name) }));
    // No school and no user: the pool is the system bank only.
    const candidates = await repo.pool({
      orgId: '',
      userId: '',
      subjectId,
      typeIds: types.map((t) => t.typeId),
      booknodeIds,
    });
    const result = optimise({
      candidates,
      types: types.map((t) => ({ typeId: t.typeId, count: t.count, scoreTenths: t.score * 10 })),
      target: spec.difficulty,
      seed: TEMPLATE_SEED,
    });
    const sections: SectionRow[] = [];
    const items: ItemRow[] = [];
    result.picks
      .map((p, i) => ({ p, t: types[i]! }))
      .filter(({ p }) => p.ids.length > 0)
      .forEach(({ p, t }, si) => {
        const sectionId = `${spec.id}-s${si + 1}`;
        sections.push({
          id: sectionId,
          paper_id: spec.id,
          type_id: t.typeId,
          title: t.name,
          note: '',
          default_score_tenths: t.score * 10,
          sort: si + 1,
        });
        p.ids.forEach((questionId, qi) =>
          items.push({
            id: `${sectionId}-q${qi + 1}`,
            paper_id: spec.id,
            section_id: sectionId,
            question_id: questionId,
            score_tenths: null,
            sort: items.length + 1,
          }),
        );
      });
    if (items.length === 0) continue;
    const settings = PaperSettingsSchema.parse({
      header: { examMinutes: spec.examMinutes, showNotice: true },
    });
    await repo.transaction(async (trx) => {
      await trx.insertPaper({
        id: spec.id,
        owner: 'system',
        org_id: null,
        owner_user_id: null,
        title: spec.title,
        subtitle: spec.subtitle,
        stage_id: subject.stage_id,
        subject_id: subjectId,
        textbook_id: spec.chapters[0]!.startsWith('m7a') ? 'tb-m7a' : 'tb-m7b',
        status: 'final',
        source: 'template',
        basket_paper_id: null,
        basket_seen: '[]',
        settings: JSON.stringify(settings),
        version: 1,
        content_hash: `template:${sections.map((s) => sectionNumeral(s.sort - 1)).join('')}`,
        shared_at: null,
        is_template: 1,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
      await trx.replaceContent(spec.id, sections, items);
    });
  }
  await repo.setMeta(META_KEY, String(PAPER_TEMPLATES.length));
  return true;
}
