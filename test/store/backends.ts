// The store backends every store test runs against: the embedded SQLite file and PostgreSQL
// (VIGIL_TEST_DATABASE_URL, default the local server). Each PostgreSQL store lives in a schema
// of its own, dropped afterwards, so parallel runs and helpers never see each other's rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { SqliteStore } from '../../kernel/store/sqlite.ts';
import { PostgresStore } from '../../kernel/store/postgres.ts';
import type { Store } from '../../kernel/store/types.ts';

export const PG_URL = process.env.VIGIL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<string | null> | null = null;
/** null when PostgreSQL answers, else why it does not (the reason a test is skipped). */
export function postgresProblem(): Promise<string | null> {
  reachable ??= (async () => {
    const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
    try {
      await c.connect();
      await c.query('SELECT 1');
      return null;
    } catch (e) {
      return `PostgreSQL at ${PG_URL} is unreachable (${(e as Error).message}); set VIGIL_TEST_DATABASE_URL or start the server`;
    } finally {
      await c.end().catch(() => undefined);
    }
  })();
  return reachable;
}

export function uniqueSchema(prefix = 'vt'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export function pgUrlWithSchema(schema: string): string {
  const u = new URL(PG_URL);
  u.searchParams.set('schema', schema);
  return u.toString();
}

export interface Backend {
  name: 'sqlite' | 'postgres';
  open(): Promise<{ store: Store; cleanup: () => Promise<void> }>;
}

export const BACKENDS: Backend[] = [
  {
    name: 'sqlite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-store-'));
      const store = SqliteStore.open(dir);
      return { store, cleanup: async () => (await store.close(), fs.rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'postgres',
    async open() {
      const store = await PostgresStore.connect({ url: pgUrlWithSchema(uniqueSchema()) });
      return {
        store,
        cleanup: async () => {
          await store.dropSchema();
          await store.close();
        },
      };
    },
  },
];
