// Copies an embedded SQLite store into PostgreSQL (`vigil store migrate --to postgres://…`).
// Every row keeps its identity: audit ids, message sequence numbers and timestamps are copied
// as they are, so cursors and exported audit trails stay valid. The copy is one transaction:
// it lands whole or not at all. A target that already holds data is refused (no merge).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PostgresStore } from './postgres.ts';

export const COPIED_TABLES = ['tenants', 'reports', 'sessions', 'messages', 'audit_events', 'approvals', 'records'] as const;

export interface MigrateResult {
  from: string;
  to: string;
  schema: string;
  copied: Record<(typeof COPIED_TABLES)[number], number>;
}

export class MigrateError extends Error {}

const COLUMNS: Record<(typeof COPIED_TABLES)[number], string[]> = {
  tenants: ['name', 'key_hash', 'key_prefix', 'created_at', 'rate_limit', 'token_quota_per_day', 'max_concurrent_sessions', 'permissions'],
  reports: ['id', 'kind', 'tenant', 'created_at', 'data'],
  sessions: ['id', 'tenant', 'subject', 'created_at', 'updated_at', 'meta'],
  messages: ['seq', 'session_id', 'role', 'content', 'data', 'created_at'],
  audit_events: ['id', 'ts', 'tenant', 'type', 'outcome', 'actor', 'session_id', 'severity', 'detail'],
  approvals: ['id', 'tenant', 'session_id', 'skill', 'input', 'status', 'reason', 'created_at', 'expires_at', 'decided_at', 'data'],
  records: ['collection', 'id', 'tenant', 'data', 'updated_at'],
};
// Which columns carry a BIGSERIAL whose sequence must continue after the copied ids.
const SEQUENCES: Partial<Record<(typeof COPIED_TABLES)[number], string>> = { messages: 'seq', audit_events: 'id', reports: 'n' };
const ORDER: Record<(typeof COPIED_TABLES)[number], string> = {
  tenants: 'name',
  reports: 'created_at, rowid',
  sessions: 'created_at, id',
  messages: 'seq',
  audit_events: 'id',
  approvals: 'created_at, id',
  records: 'collection, tenant, id',
};

export async function migrateSqliteToPostgres(dataDir: string, url: string, opts: { batch?: number } = {}): Promise<MigrateResult> {
  const file = path.join(dataDir, 'vigil.db');
  if (!fs.existsSync(file)) throw new MigrateError(`no SQLite store at ${file}; pass --data-dir with the directory that holds vigil.db`);
  const src = new Database(file, { readonly: true, fileMustExist: true });
  const version = src.pragma('user_version', { simple: true }) as number;
  if (version < 1) {
    src.close();
    throw new MigrateError(`${file} has no vigil schema (user_version ${version})`);
  }
  const target = await PostgresStore.connect({ url });
  const pool = (target as unknown as { pool: import('pg').Pool }).pool;
  const batch = opts.batch ?? 500;
  const copied = Object.fromEntries(COPIED_TABLES.map((t) => [t, 0])) as MigrateResult['copied'];
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    for (const t of COPIED_TABLES) {
      const n = Number((await c.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
      if (n > 0)
        throw new MigrateError(`the PostgreSQL store already holds data (${n} rows in ${t}); migrate into an empty database or schema`);
    }
    // One snapshot of the source for the whole copy, even if a gateway is still writing to it.
    src.exec('BEGIN');
    for (const t of COPIED_TABLES) {
      const cols = COLUMNS[t];
      const rows = src.prepare(`SELECT ${cols.join(', ')} FROM ${t} ORDER BY ${ORDER[t]}`).iterate() as IterableIterator<
        Record<string, unknown>
      >;
      let chunk: Record<string, unknown>[] = [];
      const flush = async () => {
        if (!chunk.length) return;
        const args: unknown[] = [];
        const values = chunk.map((r) => `(${cols.map((col) => (args.push(r[col]), `$${args.length}`)).join(', ')})`);
        await c.query(`INSERT INTO ${t} (${cols.join(', ')}) VALUES ${values.join(', ')}`, args);
        copied[t] += chunk.length;
        chunk = [];
      };
      for (const r of rows) {
        chunk.push(r);
        if (chunk.length >= batch) await flush();
      }
      await flush();
      const seqCol = SEQUENCES[t];
      if (seqCol)
        await c.query(`SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${seqCol}) FROM ${t}), 0) + 1, false)`, [
          t,
          seqCol,
        ]);
    }
    src.exec('COMMIT');
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
    src.close();
    await target.close();
  }
  const { redact } = await import('./postgres.ts');
  return { from: file, to: redact(url), schema: target.schema, copied };
}
