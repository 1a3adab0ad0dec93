import type { Kysely } from 'kysely';
import { PaperSettingsSchema } from '@zhzy/contracts';
import type { DialectName } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { SUBJECT_IDS, booknodeId, typeId } from '../../seed/catalog.js';
import { PAPER_TEMPLATE_SPECS, TEMPLATE_SUBJECT, type TemplateSpec } from '../../i18n/paper-templates.js';
import { optimise } from './optimiser.js';
import { PapersRepository, type PaperItemRecord, type PaperSectionRecord } from './repository.js';
import { sectionNumeral } from './service.js';

// Shipped template papers (GoodsPaper) for 七年级数学, assembled at seed time from the system bank by the
// smart-composition optimiser with a fixed seed. Ids are stable; a template is written once and never
// rewritten, so a teacher's copy and links keep pointing at what they saw.

/** The shipped templates (their specs live with the host's Chinese text). */
export const PAPER_TEMPLATES = PAPER_TEMPLATE_SPECS;

const META_KEY = 'paper_templates';
const TEMPLATE_SEED = 2026;

/** Seeds the shipped template papers once per database; false when they were there already. */
export async function seedPaperTemplates(
  db: Kysely<Database>,
  dialect: DialectName,
  clock: () => number = Date.now,
): Promise<boolean> {
  const repo = new PapersRepository(db, dialect);
  if ((await repo.findMeta(META_KEY)) === String(PAPER_TEMPLATES.length)) return false;
  const subjectId = SUBJECT_IDS[TEMPLATE_SUBJECT];
  const subject = await repo.catalog.findSubject(subjectId);
  if (!subject) return false;
  const now = new Date(clock()).toISOString();
  for (const spec of PAPER_TEMPLATES) {
    if (await repo.findPaper(spec.id)) continue;
    const { sections, items } = await composeTemplate(repo, spec, subjectId);
    if (items.length === 0) continue;
    await insertTemplate(repo, spec, { subjectId, stageId: subject.stageId, now }, sections, items);
  }
  await repo.setMeta(META_KEY, String(PAPER_TEMPLATES.length));
  return true;
}

/** The template's sections and items: the optimiser's picks from the system bank over the template's chapters. */
async function composeTemplate(
  repo: PapersRepository,
  spec: TemplateSpec,
  subjectId: string,
): Promise<{ sections: PaperSectionRecord[]; items: PaperItemRecord[] }> {
  const nodes = await repo.booknodesAround(spec.chapters.map(booknodeId));
  const chapterIds = new Set(spec.chapters.map(booknodeId));
  const booknodeIds = nodes
    .filter((n) => chapterIds.has(n.id) || chapterIds.has(n.parentId ?? ''))
    .map((n) => n.id);
  const types = spec.types.map((t) => ({ ...t, typeId: typeId(TEMPLATE_SUBJECT, t.name) }));
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
  const sections: PaperSectionRecord[] = [];
  const items: PaperItemRecord[] = [];
  result.picks
    .map((p, i) => ({ p, t: types[i]! }))
    .filter(({ p }) => p.ids.length > 0)
    .forEach(({ p, t }, si) => {
      const sectionId = `${spec.id}-s${si + 1}`;
      sections.push({
        id: sectionId,
        paperId: spec.id,
        typeId: t.typeId,
        title: t.name,
        note: '',
        defaultScoreTenths: t.score * 10,
        sort: si + 1,
      });
      p.ids.forEach((questionId, qi) =>
        items.push({
          id: `${sectionId}-q${qi + 1}`,
          paperId: spec.id,
          sectionId,
          questionId,
          scoreTenths: null,
          sort: items.length + 1,
        }),
      );
    });
  return { sections, items };
}

/** Writes the template paper, a final system paper, with its content. */
async function insertTemplate(
  repo: PapersRepository,
  spec: TemplateSpec,
  at: { subjectId: string; stageId: string; now: string },
  sections: PaperSectionRecord[],
  items: PaperItemRecord[],
): Promise<void> {
  const settings = PaperSettingsSchema.parse({
    header: { examMinutes: spec.examMinutes, showNotice: true },
  });
  await repo.transaction(async (trx) => {
    await trx.insertPaper({
      id: spec.id,
      owner: 'system',
      orgId: null,
      ownerUserId: null,
      title: spec.title,
      subtitle: spec.subtitle,
      stageId: at.stageId,
      subjectId: at.subjectId,
      textbookId: spec.chapters[0]!.startsWith('m7a') ? 'tb-m7a' : 'tb-m7b',
      status: 'final',
      source: 'template',
      basketPaperId: null,
      basketSeen: [],
      settings,
      version: 1,
      contentHash: `template:${sections.map((s) => sectionNumeral(s.sort - 1)).join('')}`,
      sharedAt: null,
      isTemplate: true,
      createdAt: at.now,
      updatedAt: at.now,
      deletedAt: null,
    });
    await trx.replaceContent(spec.id, sections, items);
  });
}
