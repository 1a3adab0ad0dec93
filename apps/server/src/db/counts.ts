import { sql, type RawBuilder } from 'kysely';

/**
 * The students of a class, counted in a subquery beside each row that names the class (`column`, e.g. `hc.class_id`):
 * lists of classes read with their sizes in the same statement.
 */
export const studentsOfClass = (column: string): RawBuilder<number> =>
  sql<number>`(SELECT COUNT(*) FROM students st WHERE st.class_id = ${sql.ref(column)})`;
