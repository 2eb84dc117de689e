// How both stores (SQLite and PostgreSQL) stamp and fill a new record, written once so the two
// backends hand back the same record for the same call.
import { randomUUID } from 'node:crypto';
import type { ReportRecord, SessionRecord, Store } from './types.ts';

/** Timestamps are ISO-8601 text (UTC, milliseconds) in both databases: they sort as text, compare
 *  with the strings callers pass, and come back byte-identical. A chat turn writes several rows
 *  in the same millisecond, so the text is made once per millisecond rather than once per row. */
let lastMs = -1;
let lastIso = '';
export const now = (): string => {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
};
/** A JSON column's text (absent values are JSON null). */
export const j = (v: unknown) => JSON.stringify(v ?? null);

export function newReport(r: Parameters<Store['putReport']>[0]): ReportRecord {
  return { id: r.id ?? randomUUID(), kind: r.kind, tenant: r.tenant ?? null, created_at: now(), data: r.data };
}

/** The values of `INSERT INTO reports (id, kind, tenant, created_at, data)`. */
export const reportRow = (r: ReportRecord) => [r.id, r.kind, r.tenant, r.created_at, j(r.data)];

export function newSession(s: Parameters<Store['createSession']>[0]): SessionRecord {
  const t = now();
  return { id: s.id ?? randomUUID(), tenant: s.tenant, subject: s.subject ?? null, created_at: t, updated_at: t, meta: s.meta ?? {} };
}
