import { sql, type Kysely } from 'kysely';

// Frozen in time: never imports application code. Issue 21 (ADR 0042):
// - usernames unique whatever their case (`Teacher` and `teacher` are one name). Existing clashes stop the
//   migration with the list of names, so the operator renames them instead of the index silently failing;
// - `refresh_tokens.successor`: the pair that replaced a rotated token, sealed with that token, so a second tab
//   refreshing within the grace window gets the same pair;
// - sign-in counters are keyed anew (`acct:<user id>`, `pair:…`, `addr:…`): old rows are dropped.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const clashes = await sql<{ name: string; n: number | string }>`
    select lower(username) as name, count(*) as n from users group by lower(username) having count(*) > 1
  `.execute(db);
  if (clashes.rows.length > 0) {
    const names = clashes.rows.map((r) => `${r.name}（${Number(r.n)} 个账号）`).join('、');
    throw new Error(
      `用户名仅大小写不同的账号须先改名，才能启用不区分大小写的唯一用户名：${names}` +
        ' (usernames differing only in case must be renamed first)',
    );
  }
  await sql`create unique index users_username_ci on users (lower(username))`.execute(db);
  await db.schema.alterTable('refresh_tokens').addColumn('successor', 'text').execute();
  await db.deleteFrom('login_failures').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('successor').execute();
  await sql`drop index users_username_ci`.execute(db);
}
