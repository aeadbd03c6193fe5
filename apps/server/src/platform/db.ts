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

export function openPostgres(url: string, options: { schema?: string; max?: number } = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  // An idle client's error (e.g. PostgreSQL restarting) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return {
    kind: 'postgres',
    async query(text, params) {
      return (await pool.query(text, params as unknown[])).rows;
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: async (t, p) => (await client.query(t, p as unknown[])).rows });
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

/** Embedded PostgreSQL (WASM). `dir` null keeps it in memory, for tests. */
export async function openPglite(dir: string | null): Promise<Db> {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  const lite = dir ? await PGlite.create(dir) : await PGlite.create();
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

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

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
