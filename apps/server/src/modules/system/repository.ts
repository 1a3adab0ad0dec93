import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** What a user is shown as: the part of a `users` row every profile read returns. */
export interface UserCard {
  id: string;
  username: string;
  nickname: string;
  avatar: string | null;
  phone: string | null;
}

/** A user's card from their row (the account's own read and the profile both). */
export function userCard(row: UserCard): UserCard {
  return { id: row.id, username: row.username, nickname: row.nickname, avatar: row.avatar, phone: row.phone };
}

/** The school year a member works in: the one they chose, else the school's default (among live years). */
export const chosenYear = <Y extends { id: string; isDefault: boolean }>(
  years: Y[],
  defaultYearId: string | null | undefined,
): Y | undefined => years.find((y) => y.id === defaultYearId) ?? years.find((y) => y.isDefault);

/** Users' profiles, schools, memberships, school years and classes. */
export class SystemRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A user's profile and their current school's name and logo (null without a school). */
  async findProfile(
    userId: string,
  ): Promise<(UserCard & { orgName: string | null; logoPath: string | null }) | undefined> {
    const row = await this.db
      .selectFrom('users as u')
      .leftJoin('orgs as o', 'o.id', 'u.default_org_id')
      .select([
        'u.id',
        'u.username',
        'u.nickname',
        'u.avatar',
        'u.phone',
        'o.name as org_name',
        'o.logo_path',
      ])
      .where('u.id', '=', userId)
      .executeTakeFirst();
    return row && { ...userCard(row), orgName: row.org_name ?? null, logoPath: row.logo_path ?? null };
  }

  async listOrgsOf(userId: string): Promise<{ id: string; name: string; logoPath: string | null }[]> {
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('orgs as o', 'o.id', 'm.org_id')
      .select(['o.id', 'o.name', 'o.logo_path'])
      .where('m.user_id', '=', userId)
      .orderBy('m.created_at')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, logoPath: r.logo_path }));
  }

  /** The user's membership of a school: only the school year they chose as their default is needed here. */
  async findMembership(orgId: string, userId: string): Promise<{ defaultYearId: string | null } | undefined> {
    const row = await this.db
      .selectFrom('memberships')
      .select(['default_year_id'])
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && { defaultYearId: row.default_year_id };
  }

  async listSchoolYears(orgId: string): Promise<{ id: string; name: string; isDefault: boolean }[]> {
    const rows = await this.db
      .selectFrom('school_years')
      .select(['id', 'name', 'is_default'])
      .where('org_id', '=', orgId)
      .where('archived', '=', 0)
      .orderBy('sort', 'desc')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default === 1 }));
  }

  /**
   * The school year a member works in (`chosenYear`: the one they chose, else the school's default) in one statement:
   * the school's live years, each beside the member's choice; null when it has none.
   */
  async currentYearOf(orgId: string, userId: string): Promise<string | null> {
    const rows = await this.db
      .selectFrom('school_years as y')
      .leftJoin('memberships as m', (j) => j.onRef('m.org_id', '=', 'y.org_id').on('m.user_id', '=', userId))
      .select(['y.id', 'y.is_default', 'm.default_year_id'])
      .where('y.org_id', '=', orgId)
      .where('y.archived', '=', 0)
      .execute();
    const years = rows.map((r) => ({ id: r.id, isDefault: r.is_default === 1 }));
    return chosenYear(years, rows[0]?.default_year_id)?.id ?? null;
  }

  async findSchoolYear(
    orgId: string,
    yearId: string,
  ): Promise<{ id: string; name: string; archived: boolean } | undefined> {
    const row = await this.db
      .selectFrom('school_years')
      .select(['id', 'name', 'archived'])
      .where('org_id', '=', orgId)
      .where('id', '=', yearId)
      .executeTakeFirst();
    return row && { id: row.id, name: row.name, archived: row.archived === 1 };
  }

  async listClasses(orgId: string, yearId: string): Promise<{ id: string; name: string; yearId: string }[]> {
    const rows = await this.db
      .selectFrom('classes')
      .select(['id', 'name', 'year_id'])
      .where('org_id', '=', orgId)
      .where('year_id', '=', yearId)
      .orderBy('sort')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, yearId: r.year_id }));
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
