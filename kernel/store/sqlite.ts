// SQLite implementation of the Store (better-sqlite3, WAL mode, numbered migrations).
// Every write is a single statement or a transaction, so a crash mid-write never leaves a
// half-written audit event or report behind.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { ApprovalRecord, AuditEvent, AuditQuery, MessageRecord, Page, ReportRecord, Store, TenantRecord } from './types.ts';
import { baseTables } from './schema.ts';
import { j, newReport, newSession, now, reportRow } from './records.ts';

const require = createRequire(import.meta.url);

const MIGRATIONS: string[] = [
  // 1: initial schema
  `
  CREATE TABLE reports (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, tenant TEXT, created_at TEXT NOT NULL, data TEXT NOT NULL
  );
  CREATE INDEX reports_created ON reports(created_at DESC);
  ${baseTables({ json: 'TEXT', serial: 'INTEGER PRIMARY KEY AUTOINCREMENT' })}
  `,
  // 2: the audit log is append-only in the file itself, as in PostgreSQL: no DELETE, and an
  // UPDATE may only rewrite detail (GDPR redaction).
  `
  CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
    BEGIN SELECT RAISE(ABORT, 'audit_events is append-only: DELETE refused'); END;
  CREATE TRIGGER audit_events_detail_only BEFORE UPDATE OF id, ts, tenant, type, outcome, actor, session_id, severity ON audit_events
    BEGIN SELECT RAISE(ABORT, 'audit_events is append-only: only detail may be redacted'); END;
  `,
  // 3: reports are read per owner (tenant; NULL = local/single-tenant, which every row written
  // before owners were recorded is) — lookups and listings filter on it.
  `
  CREATE INDEX reports_tenant_created ON reports(tenant, created_at DESC);
  `,
];

// Runs PASSIVE checkpoints (they never block the writer) every 100 ms in a worker thread. The
// checkpoint's fsync still stalls the main connection's WAL appends on the same disk for as long
// as it takes, and that grows with the pages it copies: under a gateway's write load, a checkpoint
// a second put 30-45 ms stalls into the p99 of every request, one every 100 ms keeps them near the
// request's own time (bench:gateway, docs/BENCHMARKS.md). With nothing to copy it returns at once.
const CHECKPOINT_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const t = setInterval(() => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} }, workerData.everyMs);
parentPort.on('message', () => { clearInterval(t); try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} db.close(); process.exit(0); });
`;

const CHECKPOINT_EVERY_MS = 100;

function startCheckpointer(file: string): { stop(): Promise<void> } | null {
  try {
    const w = new Worker(CHECKPOINT_WORKER, {
      eval: true,
      workerData: { file, module: require.resolve('better-sqlite3'), everyMs: CHECKPOINT_EVERY_MS },
    });
    w.unref();
    w.on('error', () => undefined);
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    // Close waits for the worker's own connection to close: until then it may still write the
    // WAL files, and a caller that removes the data directory right after close would race it.
    return {
      stop: async () => {
        w.postMessage('stop');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise<void>((r) => (timer = setTimeout(r, 2000)))]);
        clearTimeout(timer);
      },
    };
  } catch {
    return null;
  }
}
/** Tables written through the group commit (SqliteStore.queue). */
type Table = 'sessions' | 'messages' | 'audit_events' | 'records';
const pj = <T>(s: string | null): T => (s == null ? (null as T) : (JSON.parse(s) as T));

export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  private db: Database.Database;

  constructor(file: string) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    this.migrate();
    if (file !== ':memory:' && process.env.VIGIL_SQLITE_CHECKPOINT_THREAD !== '0') {
      // A WAL checkpoint copies pages back into the database file and fsyncs it: run on the
      // main thread (SQLite's default, every 1000 pages) it stalls every request for that long.
      // A worker thread checkpoints instead; the main connection only steps in if the WAL grows
      // far past that (the worker died or cannot keep up).
      this.db.pragma('wal_autocheckpoint = 20000');
      this.checkpointer = startCheckpointer(file);
    }
  }
  private checkpointer: { stop(): Promise<void> } | null = null;

  // Compiling a statement costs more than running it: keep each one after its first use.
  private statements = new Map<string, Database.Statement>();
  private stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  // Group commit. The writes of a chat turn (its session, messages, audit events, usage record)
  // are queued and committed together with every other write made in the same turn of the
  // event loop, in one transaction at the next one: one WAL commit for all of them instead of
  // one per statement, which under load was the main cost of the store. Each caller's promise
  // resolves only after that commit, so an acknowledged write is a stored write. A write that
  // fails (a constraint) fails alone: the batch is rolled back and its writes are retried one
  // transaction each. Values are serialised when the write is queued, so a value that cannot be
  // stored is refused at once. Every other operation first commits the queued writes to the
  // tables it reads or writes, so reads see every write made before them, in program order.
  private writes: Array<{ run: () => unknown; resolve: (v: any) => void; reject: (err: unknown) => void }> = [];
  private dirty = new Set<Table>();
  private queue<T>(tables: Table[], run: () => T): Promise<T> {
    if (!this.db.open) return Promise.reject(new TypeError('The database connection is not open'));
    for (const t of tables) this.dirty.add(t);
    return new Promise<T>((resolve, reject) => {
      if (this.writes.push({ run, resolve, reject }) === 1) setImmediate(this.flushWrites);
    });
  }
  private readonly flushWrites = () => {
    const batch = this.writes;
    if (!batch.length) return;
    this.writes = [];
    this.dirty.clear();
    const out = new Array<unknown>(batch.length);
    try {
      this.db.transaction(() => {
        for (let i = 0; i < batch.length; i++) out[i] = batch[i].run();
      })();
    } catch (err) {
      // Busy or I/O errors would fail again one by one (and wait busy_timeout each time).
      const c = (err as { code?: unknown }).code;
      const code = typeof c === 'string' ? c : '';
      if (batch.length === 1 || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL') {
        for (const w of batch) w.reject(err);
        return;
      }
      for (const w of batch) {
        try {
          w.resolve(this.db.transaction(w.run)());
        } catch (one) {
          w.reject(one);
        }
      }
      return;
    }
    for (let i = 0; i < batch.length; i++) batch[i].resolve(out[i]);
  };
  /** Commits queued writes first when any of them touches one of these tables. */
  private settle(...tables: Table[]) {
    if (this.writes.length && tables.some((t) => this.dirty.has(t))) this.flushWrites();
  }

  static open(dataDir: string): SqliteStore {
    return new SqliteStore(path.join(dataDir, 'vigil.db'));
  }

  private migrate() {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    for (let i = version; i < MIGRATIONS.length; i++) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[i]);
        this.db.pragma(`user_version = ${i + 1}`);
      })();
    }
  }

  async ping() {
    try {
      return this.stmt('SELECT 1 AS ok').get() !== undefined;
    } catch {
      return false;
    }
  }

  async close() {
    if (this.writes.length) this.flushWrites();
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }

  // --- reports
  async putReport(r: { id?: string; kind: string; tenant?: string | null; data: Record<string, unknown> }): Promise<ReportRecord> {
    const rec = newReport(r);
    this.stmt('INSERT INTO reports (id, kind, tenant, created_at, data) VALUES (?, ?, ?, ?, ?)').run(...reportRow(rec));
    return rec;
  }
  async getReport(id: string, tenant?: string | null) {
    const row = (
      tenant === undefined
        ? this.stmt('SELECT * FROM reports WHERE id = ?').get(id)
        : this.stmt('SELECT * FROM reports WHERE id = ? AND tenant IS ?').get(id, tenant)
    ) as any;
    if (!row) return null;
    try {
      const data = JSON.parse(row.data);
      if (data === null || typeof data !== 'object' || Array.isArray(data))
        return { ...row, data: {}, damaged: 'the stored body is not a JSON object' };
      return { ...row, data };
    } catch (e) {
      return { ...row, data: {}, damaged: `the stored body is not readable JSON (${(e as Error).message})` };
    }
  }
  async listReports(q: { limit: number; offset: number; tenant?: string | null }) {
    const where = q.tenant === undefined ? '' : 'WHERE tenant IS ?';
    const args = q.tenant === undefined ? [] : [q.tenant];
    const total = (this.stmt(`SELECT COUNT(*) AS n FROM reports ${where}`).get(...args) as any).n as number;
    // json_extract fails the whole query on one row SQLite cannot parse (e.g. nested deeper than
    // its limit), so it only runs on rows json_valid accepts; the others are listed as damaged.
    const rows = this.stmt(
      `SELECT id, kind, tenant, created_at, json_valid(data) AS ok, CASE WHEN json_valid(data) THEN json_extract(data, '$.summary') END AS summary FROM reports ${where} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    ).all(...args, q.limit, q.offset) as any[];
    const items = rows.map(({ ok, summary, ...r }) => {
      let s: unknown = summary ?? null;
      if (typeof summary === 'string') {
        try {
          s = JSON.parse(summary);
        } catch {
          /* a plain string summary stays as it is */
        }
      }
      return ok ? { ...r, summary: s } : { ...r, summary: null, damaged: 'the stored body is not readable JSON' };
    });
    return { items, total } as Page<any>;
  }

  // --- sessions
  async createSession(s: { id?: string; tenant: string | null; subject?: string | null; meta?: Record<string, unknown> }) {
    const rec = newSession(s);
    const t = rec.created_at;
    const meta = j(rec.meta);
    const ins = this.stmt('INSERT INTO sessions (id, tenant, subject, created_at, updated_at, meta) VALUES (?, ?, ?, ?, ?, ?)');
    return this.queue(['sessions'], () => {
      ins.run(rec.id, rec.tenant, rec.subject, t, t, meta);
      return rec;
    });
  }
  async getSession(id: string, tenant: string | null) {
    this.settle('sessions');
    const row = this.stmt('SELECT * FROM sessions WHERE id = ? AND tenant IS ?').get(id, tenant) as any;
    return row ? { ...row, meta: pj(row.meta) } : null;
  }
  async listSessions(q: { tenant: string | null; limit: number; subject?: string }) {
    this.settle('sessions');
    const rows = (
      q.subject
        ? this.stmt('SELECT * FROM sessions WHERE tenant IS ? AND subject = ? ORDER BY updated_at DESC LIMIT ?').all(
            q.tenant,
            q.subject,
            q.limit,
          )
        : this.stmt('SELECT * FROM sessions WHERE tenant IS ? ORDER BY updated_at DESC LIMIT ?').all(q.tenant, q.limit)
    ) as any[];
    return rows.map((r) => ({ ...r, meta: pj(r.meta) }));
  }
  async appendMessages(sessionId: string, msgs: Array<Omit<MessageRecord, 'seq' | 'session_id' | 'created_at'>>) {
    const t = now();
    const rows = msgs.map((m) => [m.role, m.content, m.data == null ? null : j(m.data)] as const);
    await this.queue(['sessions', 'messages'], () => this.appendTx(sessionId, rows, t));
  }
  // All or nothing without a savepoint of its own: a queued write always runs inside a
  // transaction (the batch's, or its own when the batch is retried one write at a time), and a
  // write that throws rolls the whole transaction back. (A savepoint here cost two more
  // statements per chat turn and could never be rolled back alone.)
  private appendTx(sessionId: string, rows: ReadonlyArray<readonly [string, string | null, string | null]>, t: string): void {
    const ins = this.stmt('INSERT INTO messages (session_id, role, content, data, created_at) VALUES (?, ?, ?, ?, ?)');
    for (const [role, content, data] of rows) ins.run(sessionId, role, content, data, t);
    this.stmt('UPDATE sessions SET updated_at = ? WHERE id = ?').run(t, sessionId);
  }
  async getMessages(sessionId: string) {
    this.settle('messages');
    const rows = this.stmt('SELECT * FROM messages WHERE session_id = ? ORDER BY seq').all(sessionId) as any[];
    return rows.map((r) => ({ ...r, data: pj(r.data) }));
  }
  async deleteSession(id: string, tenant: string | null) {
    this.settle('sessions', 'messages');
    return this.stmt('DELETE FROM sessions WHERE id = ? AND tenant IS ?').run(id, tenant).changes > 0;
  }
  async purgeSessionsBefore(cutoffIso: string) {
    this.settle('sessions', 'messages');
    return this.stmt('DELETE FROM sessions WHERE updated_at < ?').run(cutoffIso).changes;
  }

  // --- audit (append-only: there is no update or delete of events, only redaction of detail)
  // Appended through the group commit (see queue()): one WAL commit for all the events of a
  // turn of the event loop, each caller answered after it.
  async appendAudit(e: AuditEvent): Promise<AuditEvent> {
    const ts = e.ts ?? now();
    const detail = j(e.detail);
    const ins = this.stmt(
      'INSERT INTO audit_events (ts, tenant, type, outcome, actor, session_id, severity, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    return this.queue(['audit_events'], () => ({
      ...e,
      id: Number(ins.run(ts, e.tenant, e.type, e.outcome, e.actor ?? null, e.session_id ?? null, e.severity ?? 3, detail).lastInsertRowid),
      ts,
    }));
  }
  async queryAudit(q: AuditQuery) {
    this.settle('audit_events'); // reads see every append made before them
    const where = ['tenant IS ?'];
    const args: unknown[] = [q.tenant];
    if (q.from) {
      where.push('ts >= ?');
      args.push(q.from);
    }
    if (q.to) {
      where.push('ts <= ?');
      args.push(q.to);
    }
    if (q.type) {
      where.push('type = ?');
      args.push(q.type);
    }
    if (q.outcome) {
      where.push('outcome = ?');
      args.push(q.outcome);
    }
    if (q.after !== undefined) {
      where.push('id > ?');
      args.push(q.after);
    }
    if (q.before !== undefined) {
      where.push('id < ?');
      args.push(q.before);
    }
    const rows = this.stmt(
      `SELECT * FROM audit_events WHERE ${where.join(' AND ')} ORDER BY id ${q.order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`,
    ).all(...args, Math.min(q.limit ?? 100, 10_000)) as any[];
    return rows.map((r) => ({ ...r, detail: pj(r.detail) }));
  }
  async redactAudit(tenant: string | null, match: (e: AuditEvent) => Record<string, unknown> | null) {
    this.settle('audit_events');
    const rows = this.stmt('SELECT * FROM audit_events WHERE tenant IS ?').all(tenant) as any[];
    const upd = this.stmt('UPDATE audit_events SET detail = ? WHERE id = ?');
    let n = 0;
    this.db.transaction(() => {
      for (const r of rows) {
        const next = match({ ...r, detail: pj(r.detail) });
        if (next) {
          upd.run(j(next), r.id);
          n++;
        }
      }
    })();
    return n;
  }

  // --- tenants
  async putTenant(t: TenantRecord) {
    this.stmt(
      `INSERT INTO tenants (name, key_hash, key_prefix, created_at, rate_limit, token_quota_per_day, max_concurrent_sessions, permissions)
         VALUES (@name, @key_hash, @key_prefix, @created_at, @rate_limit, @token_quota_per_day, @max_concurrent_sessions, @permissions)
         ON CONFLICT(name) DO UPDATE SET key_hash=excluded.key_hash, key_prefix=excluded.key_prefix, rate_limit=excluded.rate_limit,
           token_quota_per_day=excluded.token_quota_per_day, max_concurrent_sessions=excluded.max_concurrent_sessions, permissions=excluded.permissions`,
    ).run({ ...t, permissions: t.permissions ? j(t.permissions) : null });
  }
  private tenantRow(row: any): TenantRecord | null {
    return row ? { ...row, permissions: pj(row.permissions) } : null;
  }
  async getTenant(name: string) {
    return this.tenantRow(this.stmt('SELECT * FROM tenants WHERE name = ?').get(name));
  }
  async getTenantByKeyHash(hash: string) {
    return this.tenantRow(this.stmt('SELECT * FROM tenants WHERE key_hash = ?').get(hash));
  }
  async listTenants() {
    return (this.stmt('SELECT * FROM tenants ORDER BY name').all() as any[]).map((r) => this.tenantRow(r)!);
  }
  async hasTenants() {
    return this.stmt('SELECT EXISTS (SELECT 1 FROM tenants) AS e').pluck().get() === 1;
  }
  async removeTenant(name: string) {
    return this.stmt('DELETE FROM tenants WHERE name = ?').run(name).changes > 0;
  }

  // --- approvals
  async putApproval(a: ApprovalRecord) {
    this.stmt(
      `INSERT INTO approvals (id, tenant, session_id, skill, input, status, reason, created_at, expires_at, decided_at, data)
         VALUES (@id, @tenant, @session_id, @skill, @input, @status, @reason, @created_at, @expires_at, @decided_at, @data)
         ON CONFLICT(id) DO UPDATE SET status=excluded.status, reason=excluded.reason, decided_at=excluded.decided_at, data=excluded.data`,
    ).run({ ...a, input: j(a.input), data: j(a.data) });
  }
  private approvalRow(r: any): ApprovalRecord | null {
    return r ? { ...r, input: pj(r.input), data: pj(r.data) } : null;
  }
  async getApproval(id: string, tenant: string | null) {
    return this.approvalRow(this.stmt('SELECT * FROM approvals WHERE id = ? AND tenant IS ?').get(id, tenant));
  }
  async listApprovals(q: { tenant: string | null; status?: string }) {
    const rows = (
      q.status
        ? this.stmt('SELECT * FROM approvals WHERE tenant IS ? AND status = ? ORDER BY created_at DESC').all(q.tenant, q.status)
        : this.stmt('SELECT * FROM approvals WHERE tenant IS ? ORDER BY created_at DESC').all(q.tenant)
    ) as any[];
    return rows.map((r) => this.approvalRow(r)!);
  }

  // --- generic records
  async putRecord(collection: string, id: string, data: Record<string, unknown>, tenant: string | null = null) {
    const up = this.stmt(
      'INSERT INTO records (collection, id, tenant, data, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(collection, tenant, id) DO UPDATE SET data=excluded.data, updated_at=excluded.updated_at',
    );
    const body = j(data);
    const t = now();
    await this.queue(['records'], () => up.run(collection, id, tenant ?? '', body, t));
  }
  async getRecord(collection: string, id: string, tenant: string | null = null) {
    this.settle('records');
    const row = this.stmt('SELECT data FROM records WHERE collection = ? AND id = ? AND tenant = ?').get(
      collection,
      id,
      tenant ?? '',
    ) as any;
    return row ? pj<Record<string, unknown>>(row.data) : null;
  }
  async listRecords(collection: string, tenant: string | null = null) {
    this.settle('records');
    const rows = this.stmt('SELECT id, data, updated_at FROM records WHERE collection = ? AND tenant = ? ORDER BY updated_at DESC').all(
      collection,
      tenant ?? '',
    ) as any[];
    return rows.map((r) => ({ id: r.id, data: pj<Record<string, unknown>>(r.data), updated_at: r.updated_at }));
  }
  async deleteRecord(collection: string, id: string, tenant: string | null = null) {
    this.settle('records');
    return this.stmt('DELETE FROM records WHERE collection = ? AND id = ? AND tenant = ?').run(collection, id, tenant ?? '').changes > 0;
  }
}
