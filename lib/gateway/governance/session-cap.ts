// Concurrent-session cap per tenant. A session counts while a request is working in it (a chat
// turn, an open stream, a turn paused on an approval); two requests on the same session count
// once. Kept in process memory: with several gateway instances each enforces its own share.
import { HttpError } from '../../../kernel/index.ts';

export interface SessionCap {
  open(tenant: string | null, sessionId: string): void;
  close(tenant: string | null, sessionId: string): void;
  active(tenant?: string | null): number;
}

export function createSessionCap(limitOf: (tenant: string | null) => Promise<number | null> | number | null): SessionCap & {
  opened(tenant: string | null, sessionId: string): Promise<void>;
} {
  // tenant -> session id -> number of requests currently inside it
  const live = new Map<string, Map<string, number>>();
  const key = (t: string | null) => t ?? '';
  const cap: SessionCap = {
    open(tenant, sessionId) {
      const m = live.get(key(tenant)) ?? new Map<string, number>();
      live.set(key(tenant), m);
      m.set(sessionId, (m.get(sessionId) ?? 0) + 1);
    },
    close(tenant, sessionId) {
      const m = live.get(key(tenant));
      const n = m?.get(sessionId);
      if (!m || n === undefined) return;
      if (n <= 1) m.delete(sessionId);
      else m.set(sessionId, n - 1);
      if (m.size === 0) live.delete(key(tenant));
    },
    active(tenant) {
      if (tenant === undefined) return [...live.values()].reduce((a, m) => a + m.size, 0);
      return live.get(key(tenant))?.size ?? 0;
    },
  };
  return {
    ...cap,
    async opened(tenant, sessionId) {
      const limit = await limitOf(tenant);
      const m = live.get(key(tenant));
      // Check and insert without an await in between, so two racing requests cannot both pass.
      if (limit != null && !m?.has(sessionId) && (m?.size ?? 0) >= limit) {
        throw new HttpError(429, 'session_limit', `concurrent session limit of ${limit} reached; finish or close a session first`, { limit, active: m?.size ?? 0 });
      }
      cap.open(tenant, sessionId);
    },
  };
}
