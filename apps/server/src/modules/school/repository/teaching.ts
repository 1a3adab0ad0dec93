import { sortByClassName } from '@zhzy/contracts';
import { chunks } from '../../../seed/catalog.js';
import { AreaRepository } from './base.js';

/** A subject of the catalogue with its stage. */
export interface CatalogueSubject {
  id: string;
  name: string;
  stageId: string;
  stageName: string;
}

/** A subject one member teaches. */
export interface MemberSubject extends CatalogueSubject {
  userId: string;
}

/** A class one member teaches one subject in. */
export interface TeachingClass {
  userId: string;
  subjectId: string;
  id: string;
  name: string;
  grade: string | null;
  yearId: string;
  yearName: string;
}

/** The subjects a school offers and who teaches what in which class. */
export class TeachingRepository extends AreaRepository {
  async catalogueSubjects(): Promise<CatalogueSubject[]> {
    const rows = await this.db
      .selectFrom('subjects as s')
      .innerJoin('stages as st', 'st.id', 's.stage_id')
      .select(['s.id', 's.name', 's.stage_id', 'st.name as stage_name'])
      .orderBy('st.sort')
      .orderBy('s.sort')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, stageId: r.stage_id, stageName: r.stage_name }));
  }

  stages() {
    return this.db.selectFrom('stages').selectAll().orderBy('sort').execute();
  }

  async offeredSubjectIds(orgId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('school_subjects')
      .select('subject_id')
      .where('org_id', '=', orgId)
      .execute();
    return rows.map((r) => r.subject_id);
  }

  async setOfferedSubjects(orgId: string, subjectIds: string[]) {
    await this.db.deleteFrom('school_subjects').where('org_id', '=', orgId).execute();
    if (subjectIds.length > 0) {
      await this.db
        .insertInto('school_subjects')
        .values(subjectIds.map((subjectId) => ({ org_id: orgId, subject_id: subjectId })))
        .execute();
    }
  }

  /** Subjects the members teach (all members, or one). */
  async memberSubjects(orgId: string, userId?: string): Promise<MemberSubject[]> {
    let query = this.db
      .selectFrom('member_subjects as ms')
      .innerJoin('subjects as s', 's.id', 'ms.subject_id')
      .innerJoin('stages as st', 'st.id', 's.stage_id')
      .select(['ms.user_id', 's.id', 's.name', 's.stage_id', 'st.name as stage_name'])
      .where('ms.org_id', '=', orgId);
    if (userId) query = query.where('ms.user_id', '=', userId);
    const rows = await query.orderBy('ms.sort').execute();
    return rows.map((r) => ({
      userId: r.user_id,
      id: r.id,
      name: r.name,
      stageId: r.stage_id,
      stageName: r.stage_name,
    }));
  }

  /** Classes the members teach, per subject (classes of archived years left out). */
  async teachingClasses(orgId: string, userId?: string): Promise<TeachingClass[]> {
    let query = this.db
      .selectFrom('teaching_assignments as t')
      .innerJoin('classes as c', 'c.id', 't.class_id')
      .innerJoin('school_years as y', 'y.id', 'c.year_id')
      .select(['t.user_id', 't.subject_id', 'c.id', 'c.name', 'c.grade', 'c.year_id', 'y.name as year_name'])
      .where('t.org_id', '=', orgId)
      .where('y.archived', '=', 0);
    if (userId) query = query.where('t.user_id', '=', userId);
    const rows = (await query.orderBy('y.sort', 'desc').orderBy('c.sort').execute()).map(
      (r): TeachingClass => ({
        userId: r.user_id,
        subjectId: r.subject_id,
        id: r.id,
        name: r.name,
        grade: r.grade,
        yearId: r.year_id,
        yearName: r.year_name,
      }),
    );
    // Years newest first (as queried), classes in natural order within each.
    const years = [...new Set(rows.map((r) => r.yearId))];
    return years.flatMap((y) =>
      sortByClassName(
        rows.filter((r) => r.yearId === y),
        (r) => r.name,
      ),
    );
  }

  async setTeaching(orgId: string, userId: string, teaching: { subjectId: string; classIds: string[] }[]) {
    await this.deleteMemberRows(orgId, userId, ['teaching_assignments', 'member_subjects']);
    if (teaching.length === 0) return;
    await this.db
      .insertInto('member_subjects')
      .values(
        teaching.map((t, i) => ({ org_id: orgId, user_id: userId, subject_id: t.subjectId, sort: i + 1 })),
      )
      .execute();
    const rows = teaching.flatMap((t) =>
      t.classIds.map((classId) => ({
        org_id: orgId,
        user_id: userId,
        subject_id: t.subjectId,
        class_id: classId,
      })),
    );
    for (const batch of chunks(rows))
      await this.db.insertInto('teaching_assignments').values(batch).execute();
  }
}
