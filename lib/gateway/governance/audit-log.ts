// The audit log: structured, per tenant, append-only (the store offers no update or delete of
// events; GDPR erasure only redacts an event's detail). Filters are validated here so a
// malformed query is a 400 that names the field, never an empty page that hides the mistake.
import { HttpError, type AuditEvent, type Store } from '../../../kernel/index.ts';
import type { AuditSink } from '../contracts.ts';

export const AUDIT_OUTCOMES = ['success', 'failure', 'blocked', 'denied', 'info'] as const;
const MAX_DETAIL_BYTES = 16 * 1024;

export interface AuditFilters {
  from?: string;
  to?: string;
  type?: string;
  outcome?: AuditEvent['outcome'];
  after?: number;
  /** Newest-first paging: events with id below this. */
  before?: number;
  order: 'asc' | 'desc';
  limit: number;
}

export interface AuditPage {
  events: AuditEvent[];
  next_cursor: string | null;
}

export interface AuditLog extends AuditSink {
  /** Appends and returns the stored event (with id and ts). */
  append(e: AuditEvent): Promise<AuditEvent>;
  query(tenant: string | null, f: AuditFilters): Promise<AuditPage>;
  get(tenant: string | null, id: number): Promise<AuditEvent | null>;
  /** Every matching event, oldest first, read in pages so an export never loads the whole log. */
  stream(
    tenant: string | null,
    f: Omit<AuditFilters, 'limit' | 'after' | 'before' | 'order'> & { after?: number },
  ): AsyncGenerator<AuditEvent>;
}

const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Normalises an ISO 8601 time to the stored form (UTC, milliseconds) or throws a 400. */
export function parseIsoTime(v: string, field: string): string {
  const s = v.trim();
  const m = ISO.exec(s);
  // A time without a zone is read as UTC, like the stored timestamps; a bare date is midnight UTC.
  const withZone = m && s.length > 10 && !m[1] ? s + 'Z' : s;
  const t = m ? Date.parse(withZone) : NaN;
  if (Number.isNaN(t))
    throw new HttpError(400, 'invalid_request', `"${field}" must be an ISO 8601 time such as 2025-01-31T12:00:00Z, got "${v}"`, { field });
  return new Date(t).toISOString();
}

// A cursor remembers the direction it was made for ('a' oldest first, 'd' newest first), so a
// page can never silently continue in the other direction.
export function encodeCursor(id: number, order: 'asc' | 'desc' = 'asc'): string {
  return Buffer.from(`${order === 'desc' ? 'd' : 'a'}:${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(c: string): { id: number; order: 'asc' | 'desc' } {
  const raw = /^[A-Za-z0-9_-]{1,64}$/.test(c) ? Buffer.from(c, 'base64url').toString('utf8') : '';
  const m = /^([ad]):(\d{1,15})$/.exec(raw);
  if (!m) throw new HttpError(400, 'invalid_request', '"cursor" is not a cursor returned by this endpoint', { field: 'cursor' });
  return { id: Number(m[2]), order: m[1] === 'd' ? 'desc' : 'asc' };
}

/** Validates query-string filters (all strings) into AuditFilters. */
export function parseAuditFilters(q: Record<string, unknown>, opts: { defaultLimit?: number; maxLimit?: number } = {}): AuditFilters {
  const str = (k: string): string | undefined => {
    const v = q[k];
    if (v === undefined || v === '') return undefined;
    if (Array.isArray(v)) throw new HttpError(400, 'invalid_request', `"${k}" may be given once`, { field: k });
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a query-string value (arrays are rejected above)
    return String(v);
  };
  const max = opts.maxLimit ?? 1000;
  const f: AuditFilters = { limit: opts.defaultLimit ?? 100, order: 'asc' };
  const from = str('from');
  const to = str('to');
  if (from) f.from = parseIsoTime(from, 'from');
  if (to) f.to = parseIsoTime(to, 'to');
  if (f.from && f.to && f.from > f.to) throw new HttpError(400, 'invalid_request', '"from" must not be later than "to"', { field: 'from' });
  const type = str('type');
  if (type !== undefined) {
    if (!/^[a-z0-9_.:-]{1,100}$/i.test(type))
      throw new HttpError(400, 'invalid_request', `"type" must be an event type such as http.request, got "${type}"`, { field: 'type' });
    f.type = type;
  }
  const outcome = str('outcome');
  if (outcome !== undefined) {
    if (!(AUDIT_OUTCOMES as readonly string[]).includes(outcome)) {
      throw new HttpError(400, 'invalid_request', `"outcome" must be one of ${AUDIT_OUTCOMES.join(', ')}, got "${outcome}"`, {
        field: 'outcome',
      });
    }
    f.outcome = outcome as AuditEvent['outcome'];
  }
  const limit = str('limit');
  if (limit !== undefined) {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n < 1 || n > max)
      throw new HttpError(400, 'invalid_request', `"limit" must be an integer from 1 to ${max}, got "${limit}"`, { field: 'limit' });
    f.limit = n;
  }
  const order = str('order');
  if (order !== undefined && order !== 'asc' && order !== 'desc') {
    throw new HttpError(400, 'invalid_request', `"order" must be asc (oldest first) or desc (newest first), got "${order}"`, {
      field: 'order',
    });
  }
  const cursor = str('cursor');
  if (cursor !== undefined) {
    const c = decodeCursor(cursor);
    if (order !== undefined && order !== c.order) {
      throw new HttpError(
        400,
        'invalid_request',
        `"cursor" continues a ${c.order === 'desc' ? 'newest-first' : 'oldest-first'} listing but "order" is ${order}`,
        { field: 'cursor' },
      );
    }
    f.order = c.order;
    if (c.order === 'desc') f.before = c.id;
    else f.after = c.id;
  } else if (order) f.order = order;
  return f;
}

function normalise(e: AuditEvent): AuditEvent {
  if (!e || typeof e.type !== 'string' || !e.type) throw new Error('audit event needs a type');
  if (!(AUDIT_OUTCOMES as readonly string[]).includes(e.outcome))
    throw new Error(`audit event outcome must be one of ${AUDIT_OUTCOMES.join(', ')}`);
  let detail = e.detail && typeof e.detail === 'object' ? e.detail : {};
  const json = JSON.stringify(detail);
  // One oversized event (a huge tool argument) must not bloat the log or a SIEM line.
  if (json.length > MAX_DETAIL_BYTES) detail = { truncated: true, preview: json.slice(0, 2048) };
  const sev = Number(e.severity ?? 3);
  return {
    tenant: e.tenant ?? null,
    type: e.type.slice(0, 100),
    outcome: e.outcome,
    actor: e.actor ?? null,
    session_id: e.session_id ?? null,
    severity: Number.isFinite(sev) ? Math.min(10, Math.max(0, Math.round(sev))) : 3,
    detail,
    ...(e.ts ? { ts: e.ts } : {}),
  };
}

export function createAuditLog(store: Store): AuditLog {
  const append = (e: AuditEvent) => store.appendAudit(normalise(e));
  return {
    append,
    async record(e) {
      await append(e);
    },
    async query(tenant, f) {
      // One extra row tells whether another page exists without a COUNT over the log.
      const rows = await store.queryAudit({
        tenant,
        from: f.from,
        to: f.to,
        type: f.type,
        outcome: f.outcome,
        after: f.after,
        before: f.before,
        order: f.order,
        limit: f.limit + 1,
      });
      const events = rows.slice(0, f.limit);
      const more = rows.length > f.limit;
      return { events, next_cursor: more ? encodeCursor(events[events.length - 1].id!, f.order) : null };
    },
    async get(tenant, id) {
      if (!Number.isSafeInteger(id) || id < 1) return null;
      const rows = await store.queryAudit({ tenant, after: id - 1, limit: 1 });
      return rows[0]?.id === id ? rows[0] : null;
    },
    async *stream(tenant, f) {
      let after = f.after;
      for (;;) {
        const rows = await store.queryAudit({ tenant, from: f.from, to: f.to, type: f.type, outcome: f.outcome, after, limit: 500 });
        for (const r of rows) yield r;
        if (rows.length < 500) return;
        after = rows[rows.length - 1].id;
      }
    },
  };
}
