import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Users' profiles, schools, memberships, school years and classes. */
export class SystemRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findProfile(userId: string) {
    return this.db
      .selectFrom('users as u')
      .leftJoin('orgs as o', 'o.id', 'u.default_org_id')
      .select([
        'u.id',
        'u.username',
        'u.nickname',
        'u.avatar',
        'u.phone',
        'u.default_org_id',
        'o.name as org_name',
        'o.logo_path',
      ])
      .where('u.id', '=', userId)
      .executeTakeFirst();
  }

  listOrgsOf(userId: string) {
    return this.db
      .selectFrom('memberships as m')
      .innerJoin('orgs as o', 'o.id', 'm.org_id')
      .select(['o.id', 'o.name', 'o.logo_path'])
      .where('m.user_id', '=', userId)
      .orderBy('m.created_at')
      .execute();
  }

  findMembership(orgId: string, userId: string) {
    return this.db
      .selectFrom('memberships')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  listSchoolYears(orgId: string) {
    return this.db
      .selectFrom('school_years')
      .select(['id', 'name', 'is_default'])
      .where('org_id', '=', orgId)
      .where('archived', '=', 0)
      .orderBy('sort', 'desc')
      .execute();
  }

  findSchoolYear(orgId: string, yearId: string) {
    return this.db
      .selectFrom('school_years')
      .select(['id', 'name', 'archived'])
      .where('org_id', '=', orgId)
      .where('id', '=', yearId)
      .executeTakeFirst();
  }

  listClasses(orgId: string, yearId: string) {
    return this.db
      .selectFrom('classes')
      .select(['id', 'name', 'year_id'])
      .where('org_id', '=', orgId)
      .where('year_id', '=', yearId)
      .orderBy('sort')
      .execute();
  }

  async setDefaultYear(orgId: string, userId: string, yearId: string) {
    await this.db
      .updateTable('memberships')
      .set({ default_year_id: yearId })
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
  }
}
