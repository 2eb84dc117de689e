// PostgreSQL implementation of the Store (node-postgres pool), for deployments with several
// gateway/API replicas sharing one database. Same numbered migrations as SQLite in spirit (a
// `vigil_migrations` table, each migration applied once, under an advisory lock so replicas
// starting together never race). Writes that touch several rows are one statement or one
// transaction. The audit log is append-only in the database itself: a trigger refuses DELETE,
// TRUNCATE and any UPDATE except a redaction of `detail` made through redactAudit().
import pg from 'pg';
import type { ApprovalRecord, AuditEvent, AuditQuery, MessageRecord, Page, ReportRecord, Store, TenantRecord } from './types.ts';
import { baseTables } from './schema.ts';
import { j, newReport, newSession, now, reportRow } from './records.ts';

// Timestamps stay ISO-8601 text (UTC, milliseconds) as in SQLite: they sort as text, compare
// with the strings callers pass, and come back byte-identical.
const MIGRATIONS: string[] = [
  // 1: initial schema
  `
  CREATE TABLE reports (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, tenant TEXT, created_at TEXT NOT NULL, data JSON NOT NULL,
    n BIGSERIAL NOT NULL
  );
  CREATE INDEX reports_created ON reports(created_at DESC, n DESC);
  ${baseTables({ json: 'JSON', serial: 'BIGSERIAL PRIMARY KEY' })}
  CREATE INDEX audit_tenant_id ON audit_events(tenant, id);
  -- Append-only audit log. Only redactAudit() may rewrite an event's detail, and it says so by
  -- setting vigil.audit_redaction for its own transaction; every other change is refused.
  CREATE FUNCTION vigil_audit_guard() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'UPDATE'
       AND coalesce(current_setting('vigil.audit_redaction', true), '') = 'on'
       AND NEW.id = OLD.id AND NEW.ts = OLD.ts AND NEW.tenant IS NOT DISTINCT FROM OLD.tenant
       AND NEW.type = OLD.type AND NEW.outcome = OLD.outcome AND NEW.actor IS NOT DISTINCT FROM OLD.actor
       AND NEW.session_id IS NOT DISTINCT FROM OLD.session_id AND NEW.severity = OLD.severity THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
  END $$;
  CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION vigil_audit_guard();
  CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION vigil_audit_guard();
  `,
  // 2: reports are read per owner (tenant; NULL = local/single-tenant), as in SQLite's migration 3.
  `
  CREATE INDEX reports_tenant_created ON reports(tenant, created_at DESC, n DESC);
  `,
];

export const POSTGRES_MIGRATIONS = MIGRATIONS.length;

// BIGINT (int8) arrives as a string by default; ids and counts here stay far below 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresOptions {
  /** postgres://user@host:port/db — a `schema` query parameter selects the schema (default public). */
  url: string;
  schema?: string;
  poolSize?: number;
}

/** Splits `?schema=` off a connection URL (node-postgres does not know it). */
export function parseDatabaseUrl(url: string): { connectionString: string; schema: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`VIGIL_DATABASE_URL is not a URL: "${redact(url)}"`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new Error(`VIGIL_DATABASE_URL must start with postgres:// or postgresql://, got "${u.protocol}//"`);
  const schema = u.searchParams.get('schema') ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/i.test(schema))
    throw new Error(`database schema must be a plain identifier (letters, digits, _), got "${schema}"`);
  u.searchParams.delete('schema');
  return { connectionString: u.toString(), schema };
}

/** The URL without its password, for logs and error messages. */
export function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}

// "tenant IS ?" in SQLite; here a NULL tenant needs IS NULL (an index can serve both forms).
function tenantIs(col: string, tenant: string | null, args: unknown[]): string {
  if (tenant == null) return `${col} IS NULL`;
  args.push(tenant);
  return `${col} = $${args.length}`;
}

export class PostgresStore implements Store {
  readonly kind = 'postgres';
  readonly schema: string;
  private pool: pg.Pool;
  private closed = false;

  private constructor(opts: PostgresOptions) {
    const { connectionString, schema } = parseDatabaseUrl(opts.url);
    this.schema = opts.schema ?? schema;
    this.pool = new pg.Pool({
      connectionString,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      options: `-c search_path=${this.schema}`,
      types,
      application_name: 'vigil',
    });
    // An idle client losing its connection (database restart) must not crash the process.
    this.pool.on('error', () => undefined);
  }

  /** Connects, creates the schema if needed and applies pending migrations. */
  static async connect(opts: PostgresOptions): Promise<PostgresStore> {
    const s = new PostgresStore(opts);
    try {
      await s.migrate();
    } catch (e) {
      await s.pool.end().catch(() => undefined);
      throw e;
    }
    return s;
  }

  /** Applies pending migrations; returns the schema version afterwards. Safe with many replicas. */
  async migrate(): Promise<number> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      // One migrator per schema at a time; the others wait here, then find nothing to do.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`vigil.migrate:${this.schema}`]);
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await c.query('CREATE TABLE IF NOT EXISTS vigil_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      const r = await c.query('SELECT coalesce(max(version), 0) AS v FROM vigil_migrations');
      const version = Number(r.rows[0].v);
      for (let i = version; i < MIGRATIONS.length; i++) {
        await c.query(MIGRATIONS[i]);
        await c.query('INSERT INTO vigil_migrations (version, applied_at) VALUES ($1, $2)', [i + 1, now()]);
      }
      await c.query('COMMIT');
      return Math.max(version, MIGRATIONS.length);
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  private async q<T = any>(sql: string, args: unknown[] = []): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    return this.pool.query<T & pg.QueryResultRow>(sql, args);
  }

  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  async ping() {
    try {
      return (await this.q('SELECT 1 AS ok')).rowCount === 1;
    } catch {
      return false;
    }
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  // --- reports
  async putReport(r: { id?: string; kind: string; tenant?: string | null; data: Record<string, unknown> }): Promise<ReportRecord> {
    const rec = newReport(r);
    await this.q('INSERT INTO reports (id, kind, tenant, created_at, data) VALUES ($1, $2, $3, $4, $5)', reportRow(rec));
    return rec;
  }
  async getReport(id: string, tenant?: string | null) {
    // Another owner's report answers null, exactly like a missing one (see Store.getReport).
    const args: unknown[] = [id];
    const owner = tenant === undefined ? '' : ` AND ${tenantIs('tenant', tenant, args)}`;
    const row = (await this.q(`SELECT id, kind, tenant, created_at, data FROM reports WHERE id = $1${owner}`, args)).rows[0];
    if (!row) return null;
    const data = row.data;
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      return { ...row, data: {}, damaged: 'the stored body is not a JSON object' };
    return row;
  }
  async listReports(q: { limit: number; offset: number; tenant?: string | null }) {
    const args: unknown[] = [];
    const where = q.tenant === undefined ? '' : `WHERE ${tenantIs('tenant', q.tenant, args)}`;
    const total = Number((await this.q(`SELECT count(*) AS n FROM reports ${where}`, args)).rows[0].n);
    const rows = (
      await this.q(
        `SELECT id, kind, tenant, created_at, data->'summary' AS summary FROM reports ${where} ORDER BY created_at DESC, n DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
        [...args, q.limit, q.offset],
      )
    ).rows;
    return { items: rows.map((r) => ({ ...r, summary: r.summary ?? null })), total } as Page<any>;
  }

  // --- sessions
  async createSession(s: { id?: string; tenant: string | null; subject?: string | null; meta?: Record<string, unknown> }) {
    const rec = newSession(s);
    const t = rec.created_at;
    await this.q('INSERT INTO sessions (id, tenant, subject, created_at, updated_at, meta) VALUES ($1, $2, $3, $4, $5, $6)', [
      rec.id,
      rec.tenant,
      rec.subject,
      t,
      t,
      j(rec.meta),
    ]);
    return rec;
  }
  async getSession(id: string, tenant: string | null) {
    const args: unknown[] = [id];
    const row = (await this.q(`SELECT * FROM sessions WHERE id = $1 AND ${tenantIs('tenant', tenant, args)}`, args)).rows[0];
    return row ?? null;
  }
  async listSessions(q: { tenant: string | null; limit: number; subject?: string }) {
    const args: unknown[] = [];
    const where = [tenantIs('tenant', q.tenant, args)];
    if (q.subject) {
      args.push(q.subject);
      where.push(`subject = $${args.length}`);
    }
    args.push(q.limit);
    return (await this.q(`SELECT * FROM sessions WHERE ${where.join(' AND ')} ORDER BY updated_at DESC LIMIT $${args.length}`, args)).rows;
  }
  async appendMessages(sessionId: string, msgs: Array<Omit<MessageRecord, 'seq' | 'session_id' | 'created_at'>>) {
    const t = now();
    // One statement (so one round trip, atomically): insert every message in order, then touch
    // the session. unnest keeps the array order, so seq follows the order given.
    await this.q(
      `WITH ins AS (
         INSERT INTO messages (session_id, role, content, data, created_at)
         SELECT $1, m.role, m.content, m.data::json, $2 FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS m(role, content, data, i) ORDER BY m.i
         RETURNING 1
       )
       UPDATE sessions SET updated_at = $2 WHERE id = $1`,
      [sessionId, t, msgs.map((m) => m.role), msgs.map((m) => m.content), msgs.map((m) => (m.data == null ? null : j(m.data)))],
    );
  }
  async getMessages(sessionId: string) {
    return (await this.q('SELECT * FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId])).rows;
  }
  async deleteSession(id: string, tenant: string | null) {
    const args: unknown[] = [id];
    return ((await this.q(`DELETE FROM sessions WHERE id = $1 AND ${tenantIs('tenant', tenant, args)}`, args)).rowCount ?? 0) > 0;
  }
  async purgeSessionsBefore(cutoffIso: string) {
    return (await this.q('DELETE FROM sessions WHERE updated_at < $1', [cutoffIso])).rowCount ?? 0;
  }

  // --- audit
  async appendAudit(e: AuditEvent) {
    const ts = e.ts ?? now();
    // Ids must become visible in id order, or a reader paging by "after id" could skip an event
    // whose smaller id committed late (two replicas inserting at once). A transaction-scoped
    // advisory lock taken before the id is drawn serialises the appends; it is released at
    // commit, which is the end of this single statement.
    const r = await this.q<{ id: number }>(
      `WITH l AS MATERIALIZED (SELECT pg_advisory_xact_lock(hashtext('vigil.audit:' || current_schema())) AS x)
       INSERT INTO audit_events (ts, tenant, type, outcome, actor, session_id, severity, detail)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM l RETURNING id`,
      [ts, e.tenant, e.type, e.outcome, e.actor ?? null, e.session_id ?? null, e.severity ?? 3, j(e.detail)],
    );
    return { ...e, id: r.rows[0].id, ts };
  }
  async queryAudit(q: AuditQuery) {
    const args: unknown[] = [];
    const where = [tenantIs('tenant', q.tenant, args)];
    const add = (sql: string, v: unknown) => (args.push(v), where.push(`${sql} $${args.length}`));
    if (q.from) add('ts >=', q.from);
    if (q.to) add('ts <=', q.to);
    if (q.type) add('type =', q.type);
    if (q.outcome) add('outcome =', q.outcome);
    if (q.after !== undefined) add('id >', q.after);
    if (q.before !== undefined) add('id <', q.before);
    args.push(Math.min(q.limit ?? 100, 10_000));
    return (
      await this.q(
        `SELECT * FROM audit_events WHERE ${where.join(' AND ')} ORDER BY id ${q.order === 'desc' ? 'DESC' : 'ASC'} LIMIT $${args.length}`,
        args,
      )
    ).rows;
  }
  async redactAudit(tenant: string | null, match: (e: AuditEvent) => Record<string, unknown> | null) {
    return this.tx(async (c) => {
      await c.query("SELECT set_config('vigil.audit_redaction', 'on', true)");
      const args: unknown[] = [];
      const rows = (await c.query(`SELECT * FROM audit_events WHERE ${tenantIs('tenant', tenant, args)} ORDER BY id FOR UPDATE`, args))
        .rows as AuditEvent[];
      let n = 0;
      for (const r of rows) {
        const next = match(r);
        if (next) {
          await c.query('UPDATE audit_events SET detail = $1 WHERE id = $2', [j(next), r.id]);
          n++;
        }
      }
      return n;
    });
  }

  // --- tenants
  async putTenant(t: TenantRecord) {
    await this.q(
      `INSERT INTO tenants (name, key_hash, key_prefix, created_at, rate_limit, token_quota_per_day, max_concurrent_sessions, permissions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (name) DO UPDATE SET key_hash=excluded.key_hash, key_prefix=excluded.key_prefix, rate_limit=excluded.rate_limit,
         token_quota_per_day=excluded.token_quota_per_day, max_concurrent_sessions=excluded.max_concurrent_sessions, permissions=excluded.permissions`,
      [
        t.name,
        t.key_hash,
        t.key_prefix,
        t.created_at,
        t.rate_limit,
        t.token_quota_per_day,
        t.max_concurrent_sessions,
        t.permissions ? j(t.permissions) : null,
      ],
    );
  }
  async getTenant(name: string) {
    return ((await this.q('SELECT * FROM tenants WHERE name = $1', [name])).rows[0] as TenantRecord | undefined) ?? null;
  }
  async getTenantByKeyHash(hash: string) {
    return ((await this.q('SELECT * FROM tenants WHERE key_hash = $1', [hash])).rows[0] as TenantRecord | undefined) ?? null;
  }
  async listTenants() {
    return (await this.q('SELECT * FROM tenants ORDER BY name')).rows as TenantRecord[];
  }
  async hasTenants() {
    return ((await this.q('SELECT EXISTS (SELECT 1 FROM tenants) AS e')).rows[0] as { e: boolean }).e;
  }
  async removeTenant(name: string) {
    return ((await this.q('DELETE FROM tenants WHERE name = $1', [name])).rowCount ?? 0) > 0;
  }

  // --- approvals
  async putApproval(a: ApprovalRecord) {
    await this.q(
      `INSERT INTO approvals (id, tenant, session_id, skill, input, status, reason, created_at, expires_at, decided_at, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (id) DO UPDATE SET status=excluded.status, reason=excluded.reason, decided_at=excluded.decided_at, data=excluded.data`,
      [a.id, a.tenant, a.session_id, a.skill, j(a.input), a.status, a.reason, a.created_at, a.expires_at, a.decided_at, j(a.data)],
    );
  }
  async getApproval(id: string, tenant: string | null) {
    const args: unknown[] = [id];
    return (
      ((await this.q(`SELECT * FROM approvals WHERE id = $1 AND ${tenantIs('tenant', tenant, args)}`, args)).rows[0] as
        ApprovalRecord | undefined) ?? null
    );
  }
  async listApprovals(q: { tenant: string | null; status?: string }) {
    const args: unknown[] = [];
    const where = [tenantIs('tenant', q.tenant, args)];
    if (q.status) {
      args.push(q.status);
      where.push(`status = $${args.length}`);
    }
    return (await this.q(`SELECT * FROM approvals WHERE ${where.join(' AND ')} ORDER BY created_at DESC`, args)).rows as ApprovalRecord[];
  }

  // --- generic records
  async putRecord(collection: string, id: string, data: Record<string, unknown>, tenant: string | null = null) {
    await this.q(
      'INSERT INTO records (collection, id, tenant, data, updated_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (collection, tenant, id) DO UPDATE SET data=excluded.data, updated_at=excluded.updated_at',
      [collection, id, tenant ?? '', j(data), now()],
    );
  }
  async getRecord(collection: string, id: string, tenant: string | null = null) {
    const row = (await this.q('SELECT data FROM records WHERE collection = $1 AND id = $2 AND tenant = $3', [collection, id, tenant ?? '']))
      .rows[0];
    return (row?.data as Record<string, unknown> | undefined) ?? null;
  }
  async listRecords(collection: string, tenant: string | null = null) {
    return (
      await this.q('SELECT id, data, updated_at FROM records WHERE collection = $1 AND tenant = $2 ORDER BY updated_at DESC', [
        collection,
        tenant ?? '',
      ])
    ).rows as Array<{ id: string; data: Record<string, unknown>; updated_at: string }>;
  }
  async deleteRecord(collection: string, id: string, tenant: string | null = null) {
    return (
      ((await this.q('DELETE FROM records WHERE collection = $1 AND id = $2 AND tenant = $3', [collection, id, tenant ?? ''])).rowCount ??
        0) > 0
    );
  }

  /** Drops this store's schema (tests that ran in a schema of their own). */
  async dropSchema(): Promise<void> {
    if (this.schema === 'public') throw new Error('refusing to drop the public schema');
    await this.q(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
  }
}
