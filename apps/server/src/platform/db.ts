import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** What repositories need: plain SQL with $n parameters. PostgreSQL and PGlite answer the same SQL. */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// int8 (count(*)) as a number: our counts never approach 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Parameterised statements are prepared once per connection (a named statement) and then only bound and executed:
 * PostgreSQL skips parsing and planning, which was most of its CPU on the hot list and booking calls. Statements
 * without parameters (migrations, DDL) stay unnamed. The names are bounded: our SQL texts are constants.
 */
const statementNames = new Map<string, string>();
function statement(text: string, params: unknown[] | undefined): pg.QueryConfig {
  if (!params?.length) return { text };
  let name = statementNames.get(text);
  if (!name) {
    name = `vm_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (statementNames.size < 2_000) statementNames.set(text, name);
  }
  return { text, values: params, name };
}

/**
 * Sends a query as one socket write. node-postgres writes each protocol message (bind, describe, execute, sync)
 * with its own write: four system calls and four TCP segments per query, each waking the database backend. Corked,
 * they leave together. A client submits synchronously when idle, which a client just taken from the pool is.
 */
function queryCorked(client: pg.PoolClient, config: pg.QueryConfig): Promise<pg.QueryResult> {
  const socket = (client as unknown as { connection?: { stream?: NodeJS.WritableStream & { cork?: () => void; uncork?: () => void } } }).connection?.stream;
  socket?.cork?.();
  try {
    return client.query(config);
  } finally {
    socket?.uncork?.();
  }
}

export function openPostgres(url: string, options: { schema?: string; max?: number } = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  // An idle client's error (e.g. PostgreSQL restarting) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // A client in use has no listener of the pool's: when its connection drops, node-postgres both fails the running
  // query (which we answer) and emits 'error', which without a listener is an uncaught exception.
  pool.on('connect', (client) => client.on('error', () => {}));
  return {
    kind: 'postgres',
    async query(text, params) {
      const client = await pool.connect();
      try {
        const { rows } = await queryCorked(client, statement(text, params));
        client.release();
        return rows;
      } catch (err) {
        // As pool.query does: a client that failed a query is not trusted again (the connection may be gone).
        client.release(err as Error);
        throw err;
      }
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: async (t, p) => (await queryCorked(client, statement(t, p))).rows });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Embedded PostgreSQL (WASM). `dir` null keeps it in memory, for tests; `loadDataDir` (in memory): the cluster to
 * start from, as PGlite's tarball.
 */
export async function openPglite(dir: string | null, options: { loadDataDir?: Blob } = {}): Promise<Db> {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  return pgliteDb(dir ? await PGlite.create(dir) : await PGlite.create(options));
}

/** A PGlite instance as our Db (its bigint columns read as numbers, as node-postgres is set up to). */
export function pgliteDb(lite: PGlite): Db {
  const int8 = { 20: (v: string) => Number(v) };
  return {
    kind: 'pglite',
    async query(text, params) {
      return (await lite.query(text, params as unknown[], { parsers: int8 })).rows as never;
    },
    async transaction(fn) {
      return lite.transaction((tx) =>
        fn({ query: async (t, p) => (await tx.query(t, p as unknown[], { parsers: int8 })).rows as never }),
      );
    },
    close: () => lite.close(),
  };
}

export const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

/**
 * Applies `migrations/NNN_name.sql` in order, each once, under an advisory lock so that several server
 * processes starting together against one PostgreSQL do not race.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = fs.readdirSync(migrationsDir).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(727274)');
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = fs.readFileSync(path.join(migrationsDir, file), 'utf8');
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
}

/** Parameterised query APIs take one statement at a time; our migrations keep `;` out of literals and bodies. */
function splitStatements(sql: string): string[] {
  return sql
    .replace(/--.*$/gm, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}
