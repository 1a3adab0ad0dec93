import type { CompiledQuery, DatabaseConnection, Dialect, Driver, OperationNode, QueryResult } from 'kysely';

/**
 * What a listener is told about on one table: inserts, deletes, and updates that set one of `columns` (every update
 * when absent). An update that sets only other columns (a basket's version, a last-seen time) is not a change of what
 * the listener keeps.
 */
export interface WatchedTable {
  inserts: boolean;
  deletes: boolean;
  columns?: readonly string[];
}

interface Listener {
  tables: ReadonlyMap<string, WatchedTable>;
  changed: () => void;
}

/** A statement's target table, and the columns an update sets (null: not an update, or not known). */
interface Write {
  table: string;
  kind: 'insert' | 'update' | 'delete';
  columns: string[] | null;
}

const nameOf = (node: OperationNode | undefined): string | null => {
  if (!node) return null;
  const n = node as {
    kind: string;
    node?: OperationNode;
    table?: { identifier?: { name?: string } };
  };
  if (n.kind === 'AliasNode') return nameOf(n.node);
  if (n.kind === 'TableNode') return n.table?.identifier?.name ?? null;
  return null;
};

// Raw SQL (sql`…`, precompiled statements, migrations): every table a write names, all columns.
const RAW_WRITE = /\b(insert\s+into|update|delete\s+from)\s+(?:"?\w+"?\.)?"?(\w+)"?/gi;

function rawWrites(text: string): Write[] {
  const writes: Write[] = [];
  for (const m of text.matchAll(RAW_WRITE)) {
    const verb = m[1]!.toLowerCase();
    const kind = verb.startsWith('insert') ? 'insert' : verb.startsWith('update') ? 'update' : 'delete';
    writes.push({ table: m[2]!.toLowerCase(), kind, columns: null });
  }
  return writes;
}

/** The writes of one compiled statement: from its query tree where Kysely built it, else from its SQL text. */
export function writesOf(query: CompiledQuery): Write[] {
  const node = query.query as OperationNode & Record<string, unknown>;
  switch (node.kind) {
    case 'SelectQueryNode':
      return node.with ? rawWrites(query.sql) : [];
    case 'InsertQueryNode': {
      const table = nameOf(node.into as OperationNode);
      return table ? [{ table, kind: 'insert', columns: null }] : rawWrites(query.sql);
    }
    case 'UpdateQueryNode': {
      const table = nameOf(node.table as OperationNode);
      const updates = (node.updates ?? []) as { column: { column?: { name?: string } } }[];
      const columns = updates.map((u) => u.column.column?.name ?? '');
      if (!table || node.with || node.from || columns.includes('')) return rawWrites(query.sql);
      return [{ table, kind: 'update', columns }];
    }
    case 'DeleteQueryNode': {
      const froms = ((node.from as { froms?: OperationNode[] } | undefined)?.froms ?? []).map(nameOf);
      if (node.with || froms.length === 0 || froms.includes(null)) return rawWrites(query.sql);
      return froms.map((table) => ({ table: table!, kind: 'delete' as const, columns: null }));
    }
    default:
      return rawWrites(query.sql);
  }
}

const TX_BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const TX_COMMIT = /^\s*(commit|end)\b/i;
const TX_ROLLBACK = /^\s*rollback\s*;?\s*$/i;

const PATCHED = Symbol('write-watch');

/**
 * How other processes on the same database hear of this one's writes (PostgreSQL: NOTIFY on the writing connection,
 * so a transaction's notice is delivered at its commit, and LISTEN on a connection of its own).
 */
export interface RemoteWrites {
  /** Announces the tables written, on the connection that wrote them (after the statement, before any commit). */
  announce(run: (query: CompiledQuery) => Promise<unknown>, tables: string[]): Promise<void>;
  /** Starts hearing other processes' announcements (told to `heard`); returns the way to stop. */
  listen(heard: (tables: string[] | 'all') => void): () => Promise<void>;
}

interface ConnectionState {
  inTransaction: boolean;
  /** Listeners told of a write in the open transaction: told again once it commits. */
  pending: Set<Listener>;
}

/**
 * Tells in-memory caches of this process that rows they depend on were written through this database handle
 * (ADR 0078): the driver's connections are watched, so every write counts — built by Kysely, raw SQL or
 * precompiled, in a transaction or not, from any module — without those modules knowing of the caches. A listener
 * is told before the statement runs, after it ran, and, inside a transaction, again after the commit: a cache
 * dropped then cannot keep what a reader read between the write and its commit. With `remote` (PostgreSQL), the
 * written tables are announced to the other instances on the same database, whose listeners are told once the
 * write commits; caches still bound their entries' age, for an announcement lost with a connection.
 */
export class WriteWatch {
  private readonly listeners = new Set<Listener>();
  private stopListening: (() => Promise<void>) | null = null;

  constructor(private readonly remote?: RemoteWrites) {}

  /** Calls `changed` on every write of the tables; returns the way to stop. */
  on(tables: Record<string, WatchedTable>, changed: () => void): () => void {
    const listener: Listener = { tables: new Map(Object.entries(tables)), changed };
    this.listeners.add(listener);
    if (this.remote && !this.stopListening) this.stopListening = this.remote.listen((t) => this.heard(t));
    return () => this.listeners.delete(listener);
  }

  /** Another process wrote these tables (or may have: `all`, after the announcements were not heard for a while). */
  heard(tables: string[] | 'all'): void {
    for (const l of this.listeners) if (tables === 'all' || tables.some((t) => l.tables.has(t))) l.changed();
  }

  /** Stops hearing other processes (the database is closing). */
  async close(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = null;
    await stop?.();
  }

  /** The listeners a statement concerns, and the tables it writes of theirs. */
  private concerned(query: CompiledQuery): { listeners: Listener[]; tables: string[] } {
    const none = { listeners: [], tables: [] };
    if (this.listeners.size === 0) return none;
    const writes = writesOf(query);
    if (writes.length === 0) return none;
    const hit: Listener[] = [];
    for (const listener of this.listeners) {
      const matches = writes.some((w) => {
        const spec = listener.tables.get(w.table);
        if (!spec) return false;
        if (w.kind === 'insert') return spec.inserts;
        if (w.kind === 'delete') return spec.deletes;
        return !spec.columns || !w.columns || w.columns.some((c) => spec.columns!.includes(c));
      });
      if (matches) hit.push(listener);
    }
    const tables = hit.length ? [...new Set(writes.map((w) => w.table))] : [];
    return { listeners: hit, tables };
  }

  private watchConnection(connection: DatabaseConnection): DatabaseConnection {
    const marked = connection as DatabaseConnection & { [PATCHED]?: ConnectionState };
    if (marked[PATCHED]) return connection;
    const state: ConnectionState = { inTransaction: false, pending: new Set() };
    marked[PATCHED] = state;
    const execute = connection.executeQuery.bind(connection);
    const stream = connection.streamQuery.bind(connection);
    const none = { listeners: [] as Listener[], tables: [] as string[] };
    const around = (query: CompiledQuery): { listeners: Listener[]; tables: string[] } => {
      // Most statements are reads built by Kysely: nothing to look at (no text scanned, no extra promise).
      const node = query.query as { kind?: string; with?: unknown } | undefined;
      if (node?.kind === 'SelectQueryNode' && !node.with) return none;
      const text = query.sql;
      if (TX_BEGIN.test(text)) {
        state.inTransaction = true;
        state.pending.clear();
        return none;
      }
      if (TX_ROLLBACK.test(text)) {
        // Nothing was committed; the drops before and after each write already happened.
        state.inTransaction = false;
        state.pending.clear();
        return none;
      }
      if (TX_COMMIT.test(text)) {
        state.inTransaction = false;
        if (state.pending.size === 0) return none;
        const committed = [...state.pending];
        state.pending.clear();
        return { listeners: committed, tables: [] };
      }
      const concerned = this.concerned(query);
      if (concerned.listeners.length === 0) return none;
      for (const l of concerned.listeners) {
        l.changed();
        if (state.inTransaction) state.pending.add(l);
      }
      return concerned;
    };
    const executeTold = async <R>(
      query: CompiledQuery,
      told: { listeners: Listener[]; tables: string[] },
    ): Promise<QueryResult<R>> => {
      try {
        const result = await execute<R>(query);
        // Delivered to the other instances when this statement's transaction commits (at once outside one).
        if (told.tables.length && this.remote) await this.remote.announce(execute, told.tables);
        return result;
      } finally {
        for (const l of told.listeners) l.changed();
      }
    };
    connection.executeQuery = <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      const told = around(query);
      return told === none ? execute<R>(query) : executeTold<R>(query, told);
    };
    connection.streamQuery = (query, chunkSize) => {
      // Streams are reads (cursors); a write streamed is still told before it runs.
      around(query);
      return stream(query, chunkSize);
    };
    return connection;
  }

  /** The dialect with its connections watched. */
  dialect(inner: Dialect): Dialect {
    const watchConnection = (c: DatabaseConnection) => this.watchConnection(c);
    return {
      createAdapter: () => inner.createAdapter(),
      createQueryCompiler: () => inner.createQueryCompiler(),
      createIntrospector: (db) => inner.createIntrospector(db),
      createDriver: (): Driver => {
        const driver = inner.createDriver();
        const acquire = driver.acquireConnection.bind(driver);
        driver.acquireConnection = async () => watchConnection(await acquire());
        return driver;
      },
    };
  }
}
