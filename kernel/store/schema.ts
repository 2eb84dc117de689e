// The tables both stores create in their first migration, written once: SQLite and PostgreSQL
// differ here only in the JSON column type and the auto-increment key. Each store keeps its own
// migration list around this (reports, indexes and the append-only audit triggers differ).
export interface Dialect {
  /** Column type of a JSON document (TEXT in SQLite, JSON in PostgreSQL). */
  json: string;
  /** An auto-increment integer primary key. */
  serial: string;
}

export function baseTables(d: Dialect): string {
  return `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY, tenant TEXT, subject TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, meta ${d.json} NOT NULL
  );
  CREATE INDEX sessions_tenant ON sessions(tenant, updated_at DESC);
  CREATE TABLE messages (
    seq ${d.serial}, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    role TEXT NOT NULL, content TEXT, data ${d.json}, created_at TEXT NOT NULL
  );
  CREATE INDEX messages_session ON messages(session_id, seq);
  CREATE TABLE audit_events (
    id ${d.serial}, ts TEXT NOT NULL, tenant TEXT, type TEXT NOT NULL, outcome TEXT NOT NULL,
    actor TEXT, session_id TEXT, severity INTEGER NOT NULL DEFAULT 3, detail ${d.json} NOT NULL
  );
  CREATE INDEX audit_tenant_ts ON audit_events(tenant, ts);
  CREATE TABLE tenants (
    name TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, key_prefix TEXT NOT NULL, created_at TEXT NOT NULL,
    rate_limit TEXT, token_quota_per_day INTEGER, max_concurrent_sessions INTEGER, permissions ${d.json}
  );
  CREATE TABLE approvals (
    id TEXT PRIMARY KEY, tenant TEXT, session_id TEXT NOT NULL, skill TEXT NOT NULL, input ${d.json} NOT NULL,
    status TEXT NOT NULL, reason TEXT, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, decided_at TEXT, data ${d.json} NOT NULL
  );
  CREATE INDEX approvals_tenant ON approvals(tenant, status);
  CREATE TABLE records (
    collection TEXT NOT NULL, id TEXT NOT NULL, tenant TEXT NOT NULL DEFAULT '', data ${d.json} NOT NULL, updated_at TEXT NOT NULL,
    PRIMARY KEY (collection, tenant, id)
  );
`;
}
