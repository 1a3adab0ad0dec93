import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

/**
 * A query built and compiled once; each call only binds its arguments. Building and compiling a Kysely
 * query costs more than running a small indexed query, so the per-request hot paths (the bearer check,
 * the basket read) use this. Arguments are strings (ids, hashes, timestamps).
 */
export function precompiled<DB, A extends string[], R>(
  db: Kysely<DB>,
  build: (...args: A) => Compilable<R>,
  arity: A['length'],
): (...args: A) => Promise<R[]> {
  let compiled: { sql: string; template: readonly unknown[]; slots: number[] } | undefined;
  return async (...args: A) => {
    if (!compiled) {
      // Unique sentinels mark where each argument lands among the compiled parameters.
      const sentinels = Array.from({ length: arity }, (_, i) => `\u0000arg${i}\u0000`) as A;
      const query = build(...sentinels).compile();
      const slots = query.parameters.map((value) => sentinels.indexOf(value as string));
      compiled = { sql: query.sql, template: query.parameters, slots };
    }
    const { sql, template, slots } = compiled;
    const parameters = template.map((value, i) => (slots[i]! >= 0 ? args[slots[i]!] : value));
    const result = await db.executeQuery(CompiledQuery.raw(sql, parameters));
    return result.rows as R[];
  };
}
