// The one place where SQLite and PostgreSQL differ. Nothing else in the host writes dialect-only SQL.
import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './connect.js';

/** Whether an error is a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown };
  return (
    e.code === '23505' || // PostgreSQL unique_violation
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** Case-insensitive "contains" for a keyword search, escaped for LIKE. */
export function containsPattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column LIKE pattern` that is case-insensitive on both databases. */
export function ilike(dialect: DialectName, column: string, pattern: string): RawBuilder<boolean> {
  return dialect === 'postgres'
    ? sql<boolean>`${sql.ref(column)} ilike ${pattern} escape '\\'`
    : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}
