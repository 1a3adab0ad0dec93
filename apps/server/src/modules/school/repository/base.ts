import type { Kysely } from 'kysely';
import type { DialectName } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';

/** A SQL count or max as a number (null: none). */
export const count = (value: unknown): number => Number(value ?? 0);

/** A boolean change as a 0/1 flag column (undefined: left as it is). */
export const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** One data area of the school module: SQL over its own tables, on a connection or a transaction. */
export abstract class AreaRepository {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly dialect: DialectName,
  ) {}

  /** Drops one member's rows of a school from per-member tables (grades directed, subjects and classes taught). */
  protected async deleteMemberRows(
    orgId: string,
    userId: string,
    tables: readonly ('grade_directors' | 'teaching_assignments' | 'member_subjects')[],
  ): Promise<void> {
    for (const table of tables)
      await this.db.deleteFrom(table).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
  }
}
