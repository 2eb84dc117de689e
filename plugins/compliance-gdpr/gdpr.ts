// GDPR data-subject requests over the stored conversations and the audit trail.
// A subject is found by the session's `subject` column (set from the chat body) and by their
// e-mail address appearing in message text. E-mail matching is whole-address and
// case-insensitive, so "bob@x.io" does not match "jimbob@x.io" or "bob@x.io.evil".
import { createHash } from 'node:crypto';
import type { AuditEvent, Guardrail, MessageRecord, SessionRecord, Store } from '../../kernel/index.ts';

export interface SubjectQuery {
  tenant: string | null;
  subject: string;
  /** Extra addresses to look for in message text (the subject itself counts when it is one). */
  emails: string[];
  /** Upper bound on sessions scanned for e-mail matches. */
  maxScan: number;
}

export interface SubjectSession {
  session: SessionRecord;
  matched_by: Array<'subject' | 'email'>;
  messages: MessageRecord[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function subjectHash(subject: string): string {
  return createHash('sha256').update(subject.trim().toLowerCase(), 'utf8').digest('hex');
}

export function emailsFor(subject: string, extra: string[]): string[] {
  const all = [subject, ...extra].map((s) => s.trim().toLowerCase()).filter((s) => EMAIL.test(s));
  return [...new Set(all)];
}

/** True when `text` contains `email` as a whole address (not inside a longer one). */
export function mentionsEmail(text: string, email: string): boolean {
  const hay = text.toLowerCase();
  const isAddrChar = (c: string | undefined) => c !== undefined && /[a-z0-9._%+\-@]/.test(c);
  let i = hay.indexOf(email);
  while (i !== -1) {
    const before = hay[i - 1];
    const after = hay[i + email.length];
    // A trailing "." ends a sentence; ".x" would continue a domain.
    const afterOk = !isAddrChar(after) || (after === '.' && !/[a-z0-9]/.test(hay[i + email.length + 1] ?? ''));
    if (!isAddrChar(before) && afterOk) return true;
    i = hay.indexOf(email, i + 1);
  }
  return false;
}

export async function findSubject(store: Store, q: SubjectQuery): Promise<SubjectSession[]> {
  const out = new Map<string, SubjectSession>();
  for (const s of await store.listSessions({ tenant: q.tenant, subject: q.subject, limit: q.maxScan })) {
    out.set(s.id, { session: s, matched_by: ['subject'], messages: await store.getMessages(s.id) });
  }
  const emails = emailsFor(q.subject, q.emails);
  if (emails.length) {
    for (const s of await store.listSessions({ tenant: q.tenant, limit: q.maxScan })) {
      const known = out.get(s.id);
      const messages = known?.messages ?? (await store.getMessages(s.id));
      const hit = messages.some((m) => {
        const text = `${m.content ?? ''} ${m.data ? JSON.stringify(m.data) : ''}`;
        return emails.some((e) => mentionsEmail(text, e));
      });
      if (!hit) continue;
      if (known) known.matched_by.push('email');
      else out.set(s.id, { session: s, matched_by: ['email'], messages });
    }
  }
  return [...out.values()].sort((a, b) => a.session.created_at.localeCompare(b.session.created_at));
}

/** Audit events that concern the subject: their sessions, them as actor, or their address in the detail. */
export function auditConcerns(e: AuditEvent, subject: string, sessionIds: Set<string>, emails: string[]): boolean {
  if (e.session_id && sessionIds.has(e.session_id)) return true;
  if (e.actor && e.actor === subject) return true;
  const d = JSON.stringify(e.detail ?? {});
  if (d.includes(JSON.stringify(subject).slice(1, -1)) && subject.length >= 3) return true;
  return emails.some((m) => mentionsEmail(d, m));
}

export async function subjectAuditEvents(
  store: Store,
  tenant: string | null,
  subject: string,
  sessionIds: Set<string>,
  emails: string[],
): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  let after: number | undefined;
  for (;;) {
    const rows = await store.queryAudit({ tenant, after, limit: 1000 });
    for (const e of rows) if (auditConcerns(e, subject, sessionIds, emails)) out.push(e);
    if (rows.length < 1000) return out;
    after = rows[rows.length - 1].id;
  }
}

export interface PiiScanResult {
  scanned_sessions: number;
  scanned_messages: number;
  messages_with_pii: number;
  by_kind: Record<string, number>;
  sessions: Array<{ session_id: string; subject: string | null; kinds: Record<string, number> }>;
}

/** Runs the pii guardrail over stored messages; reports kinds and counts, never the matches. */
export async function scanStoredPii(store: Store, pii: Guardrail, tenant: string | null, maxScan: number): Promise<PiiScanResult> {
  const r: PiiScanResult = { scanned_sessions: 0, scanned_messages: 0, messages_with_pii: 0, by_kind: {}, sessions: [] };
  for (const s of await store.listSessions({ tenant, limit: maxScan })) {
    r.scanned_sessions++;
    const kinds: Record<string, number> = {};
    for (const m of await store.getMessages(s.id)) {
      if (!m.content) continue;
      r.scanned_messages++;
      const v = await pii.check(m.content, m.role === 'user' ? 'input' : m.role === 'tool' ? 'tool_result' : 'output');
      if (!v.findings.length) continue;
      r.messages_with_pii++;
      for (const f of v.findings) {
        kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
        r.by_kind[f.kind] = (r.by_kind[f.kind] ?? 0) + 1;
      }
    }
    if (Object.keys(kinds).length) r.sessions.push({ session_id: s.id, subject: s.subject, kinds });
  }
  return r;
}
