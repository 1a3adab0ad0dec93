import { sql, type Kysely } from 'kysely';
import { precompiled } from '../../db/precompiled.js';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';

/** One question in a user's basket, with its type section and paper (the basket view is built from these). */
export interface BasketLine {
  paperId: string;
  stageId: string;
  subjectId: string;
  textbookId: string | null;
  stageName: string;
  subjectName: string;
  sectionId: string;
  typeId: string;
  typeName: string;
  questionId: string;
}

/** The question basket: one paper per user, school, stage and subject; type sections; items. */
export class BasketRepository {
  private readonly basketRows;
  private readonly versionRow;

  constructor(private readonly db: Kysely<Database>) {
    // Read on every basket view (the bearer check no longer carries it, ADR 0078): compiled once.
    this.versionRow = precompiled(
      this.db,
      (orgId: string, userId: string) =>
        this.db
          .selectFrom('memberships')
          .select('basket_version')
          .where('org_id', '=', orgId)
          .where('user_id', '=', userId),
      2,
    );
    // Read on every basket view: compiled once.
    this.basketRows = precompiled(
      this.db,
      (orgId: string, userId: string) =>
        this.db
          .selectFrom('basket_items as i')
          .innerJoin('basket_sections as b', 'b.id', 'i.section_id')
          .innerJoin('question_types as t', 't.id', 'b.type_id')
          .innerJoin('basket_papers as p', 'p.id', 'i.paper_id')
          .innerJoin('stages as g', 'g.id', 'p.stage_id')
          .innerJoin('subjects as s', 's.id', 'p.subject_id')
          .select([
            'p.id as paper_id',
            'p.stage_id',
            'p.subject_id',
            'p.textbook_id',
            'g.name as stage_name',
            's.name as subject_name',
            'b.id as section_id',
            'b.type_id',
            't.name as type_name',
            'i.question_id',
          ])
          .where('p.org_id', '=', orgId)
          .where('p.user_id', '=', userId)
          .orderBy('p.updated_at', 'desc')
          .orderBy('p.id')
          .orderBy('b.sort')
          .orderBy('i.sort'),
      2,
    );
  }

  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (repo: BasketRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new BasketRepository(trx)));
  }

  /**
   * The whole basket of a user in one query: one row per question, with its type section and paper.
   * Empty sections and papers are pruned on every change, so every paper and section has a row here.
   */
  async listBasketLines(orgId: string, userId: string): Promise<BasketLine[]> {
    return (await this.basketRows(orgId, userId)).map((r) => ({
      paperId: r.paper_id,
      stageId: r.stage_id,
      subjectId: r.subject_id,
      textbookId: r.textbook_id,
      stageName: r.stage_name,
      subjectName: r.subject_name,
      sectionId: r.section_id,
      typeId: r.type_id,
      typeName: r.type_name,
      questionId: r.question_id,
    }));
  }

  /** The member's basket version now (0 when they are not a member). */
  async basketVersion(orgId: string, userId: string): Promise<number> {
    const [row] = await this.versionRow(orgId, userId);
    return row?.basket_version ?? 0;
  }

  /** Marks the member's basket changed, so every instance's cached copy of it is stale. */
  async bumpVersion(orgId: string, userId: string) {
    await this.db
      .updateTable('memberships')
      .set((eb) => ({ basket_version: eb('basket_version', '+', 1) }))
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
  }

  findPaperOf(orgId: string, userId: string, paperId: string) {
    return this.db
      .selectFrom('basket_papers')
      .select(['id'])
      .where('id', '=', paperId)
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  findSectionOf(orgId: string, userId: string, sectionId: string) {
    return this.db
      .selectFrom('basket_sections as b')
      .innerJoin('basket_papers as p', 'p.id', 'b.paper_id')
      .select(['b.id', 'b.paper_id'])
      .where('b.id', '=', sectionId)
      .where('p.org_id', '=', orgId)
      .where('p.user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The paper for a stage and subject, created when missing. */
  async ensurePaper(p: { orgId: string; userId: string; stageId: string; subjectId: string; now: string }) {
    await this.db
      .insertInto('basket_papers')
      .values({
        id: newId(),
        org_id: p.orgId,
        user_id: p.userId,
        stage_id: p.stageId,
        subject_id: p.subjectId,
        textbook_id: null,
        created_at: p.now,
        updated_at: p.now,
      })
      .onConflict((oc) => oc.columns(['org_id', 'user_id', 'stage_id', 'subject_id']).doNothing())
      .execute();
    const row = await this.db
      .selectFrom('basket_papers')
      .select('id')
      .where('org_id', '=', p.orgId)
      .where('user_id', '=', p.userId)
      .where('stage_id', '=', p.stageId)
      .where('subject_id', '=', p.subjectId)
      .executeTakeFirstOrThrow();
    await this.db.updateTable('basket_papers').set({ updated_at: p.now }).where('id', '=', row.id).execute();
    return row.id;
  }

  /** The type section of a paper, created (last) when missing. */
  async ensureSection(paperId: string, typeId: string) {
    const existing = await this.db
      .selectFrom('basket_sections')
      .select('id')
      .where('paper_id', '=', paperId)
      .where('type_id', '=', typeId)
      .executeTakeFirst();
    if (existing) return existing.id;
    const max = await this.db
      .selectFrom('basket_sections')
      .select(sql<number | null>`max(sort)`.as('m'))
      .where('paper_id', '=', paperId)
      .executeTakeFirst();
    const id = newId();
    await this.db
      .insertInto('basket_sections')
      .values({ id, paper_id: paperId, type_id: typeId, sort: Number(max?.m ?? 0) + 1 })
      .execute();
    return id;
  }

  async addItem(i: { paperId: string; sectionId: string; questionId: string; now: string }) {
    const max = await this.db
      .selectFrom('basket_items')
      .select(sql<number | null>`max(sort)`.as('m'))
      .where('paper_id', '=', i.paperId)
      .executeTakeFirst();
    await this.db
      .insertInto('basket_items')
      .values({
        id: newId(),
        paper_id: i.paperId,
        section_id: i.sectionId,
        question_id: i.questionId,
        sort: Number(max?.m ?? 0) + 1,
        created_at: i.now,
      })
      .onConflict((oc) => oc.columns(['paper_id', 'question_id']).doNothing())
      .execute();
  }

  async removeQuestions(orgId: string, userId: string, questionIds: string[]) {
    const papers = this.db
      .selectFrom('basket_papers')
      .select('id')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId);
    await this.db
      .deleteFrom('basket_items')
      .where('paper_id', 'in', papers)
      .where('question_id', 'in', questionIds)
      .execute();
  }

  async deleteSection(sectionId: string) {
    await this.db.deleteFrom('basket_items').where('section_id', '=', sectionId).execute();
    await this.db.deleteFrom('basket_sections').where('id', '=', sectionId).execute();
  }

  async deletePaper(paperId: string) {
    await this.db.deleteFrom('basket_items').where('paper_id', '=', paperId).execute();
    await this.db.deleteFrom('basket_sections').where('paper_id', '=', paperId).execute();
    await this.db.deleteFrom('basket_papers').where('id', '=', paperId).execute();
  }

  /** Removes sections without questions and papers without sections of the caller. */
  async pruneEmpty(orgId: string, userId: string) {
    const papers = this.db
      .selectFrom('basket_papers')
      .select('id')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId);
    await this.db
      .deleteFrom('basket_sections')
      .where('paper_id', 'in', papers)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('basket_items as i')
              .select('i.id')
              .whereRef('i.section_id', '=', 'basket_sections.id'),
          ),
        ),
      )
      .execute();
    await this.db
      .deleteFrom('basket_papers')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('basket_sections as b')
              .select('b.id')
              .whereRef('b.paper_id', '=', 'basket_papers.id'),
          ),
        ),
      )
      .execute();
  }
}
