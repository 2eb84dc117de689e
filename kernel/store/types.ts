// One storage interface for everything vigil keeps. Async on purpose: the SQLite
// implementation is synchronous underneath, but a PostgreSQL one can follow without
// touching a single caller.

export interface ReportRecord {
  id: string;
  kind: string;
  tenant: string | null;
  created_at: string;
  data: Record<string, unknown>;
  /** Set when the stored body cannot be read back (not JSON): why; `data` is then {}. */
  damaged?: string;
}

export interface SessionRecord {
  id: string;
  tenant: string | null;
  subject: string | null;
  created_at: string;
  updated_at: string;
  meta: Record<string, unknown>;
}

export interface MessageRecord {
  seq: number;
  session_id: string;
  role: string;
  content: string | null;
  data: Record<string, unknown> | null;
  created_at: string;
}

export interface AuditEvent {
  id?: number;
  ts?: string;
  tenant: string | null;
  type: string;
  outcome: 'success' | 'failure' | 'blocked' | 'denied' | 'info';
  actor?: string | null;
  session_id?: string | null;
  severity?: number;
  detail: Record<string, unknown>;
}

export interface AuditQuery {
  tenant: string | null;
  from?: string;
  to?: string;
  type?: string;
  outcome?: string;
  /** Return events with id greater than this (cursor paging, oldest first). */
  after?: number;
  /** Return events with id less than this (cursor paging, newest first). */
  before?: number;
  /** 'asc' (default): oldest first; 'desc': newest first. */
  order?: 'asc' | 'desc';
  limit?: number;
}

export interface TenantRecord {
  name: string;
  key_hash: string;
  key_prefix: string;
  created_at: string;
  rate_limit: string | null;
  token_quota_per_day: number | null;
  max_concurrent_sessions: number | null;
  permissions: string[] | null;
}

export interface ApprovalRecord {
  id: string;
  tenant: string | null;
  session_id: string;
  skill: string;
  input: Record<string, unknown>;
  status: 'pending' | 'approved' | 'denied' | 'expired';
  reason: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  data: Record<string, unknown>;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface Store {
  readonly kind: string;
  ping(): Promise<boolean>;
  close(): Promise<void>;

  putReport(r: { id?: string; kind: string; tenant?: string | null; data: Record<string, unknown> }): Promise<ReportRecord>;
  /**
   * `tenant` undefined: any owner; a name or null: only a report of that owner (null = local,
   * no tenant). Another owner's report answers null, exactly like a missing one.
   */
  getReport(id: string, tenant?: string | null): Promise<ReportRecord | null>;
  /**
   * Newest first. `summary` is the body's `summary` as stored (untrusted; null when absent or
   * unreadable); `damaged` is set on rows whose body is not readable JSON. Never throws because
   * of a row's content.
   */
  listReports(q: {
    limit: number;
    offset: number;
    tenant?: string | null;
  }): Promise<Page<Omit<ReportRecord, 'data'> & { summary: unknown }>>;

  createSession(s: { id?: string; tenant: string | null; subject?: string | null; meta?: Record<string, unknown> }): Promise<SessionRecord>;
  /** Returns null when the session does not exist or belongs to another tenant. */
  getSession(id: string, tenant: string | null): Promise<SessionRecord | null>;
  listSessions(q: { tenant: string | null; limit: number; subject?: string }): Promise<SessionRecord[]>;
  appendMessages(sessionId: string, msgs: Array<Omit<MessageRecord, 'seq' | 'session_id' | 'created_at'>>): Promise<void>;
  getMessages(sessionId: string): Promise<MessageRecord[]>;
  deleteSession(id: string, tenant: string | null): Promise<boolean>;
  /** Sessions last updated before the cutoff are removed with their messages (retention). */
  purgeSessionsBefore(cutoffIso: string): Promise<number>;

  appendAudit(e: AuditEvent): Promise<AuditEvent>;
  queryAudit(q: AuditQuery): Promise<AuditEvent[]>;
  /** Replace detail of matching events (GDPR erasure redacts, never deletes, the audit trail). */
  redactAudit(tenant: string | null, match: (e: AuditEvent) => Record<string, unknown> | null): Promise<number>;

  putTenant(t: TenantRecord): Promise<void>;
  getTenant(name: string): Promise<TenantRecord | null>;
  getTenantByKeyHash(hash: string): Promise<TenantRecord | null>;
  listTenants(): Promise<TenantRecord[]>;
  /** Whether any tenant is stored: one indexed probe, for the per-request "keyed or local" decision. */
  hasTenants(): Promise<boolean>;
  removeTenant(name: string): Promise<boolean>;

  putApproval(a: ApprovalRecord): Promise<void>;
  getApproval(id: string, tenant: string | null): Promise<ApprovalRecord | null>;
  listApprovals(q: { tenant: string | null; status?: string }): Promise<ApprovalRecord[]>;

  /** Generic records (compliance registers, DPAs, counters). */
  putRecord(collection: string, id: string, data: Record<string, unknown>, tenant?: string | null): Promise<void>;
  getRecord(collection: string, id: string, tenant?: string | null): Promise<Record<string, unknown> | null>;
  listRecords(
    collection: string,
    tenant?: string | null,
  ): Promise<Array<{ id: string; data: Record<string, unknown>; updated_at: string }>>;
  deleteRecord(collection: string, id: string, tenant?: string | null): Promise<boolean>;
}
