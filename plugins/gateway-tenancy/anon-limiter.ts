// Per-client-address limit on requests that carry no valid key, applied once tenants exist and
// before any route runs: a flood of keyless or bad-key requests gets 429 with Retry-After
// instead of costing a key lookup, an audit row and a route each. Fixed windows in process
// memory; the map is swept so addresses that went quiet do not accumulate.
import type { RateLimit } from '../../kernel/index.ts';

export interface AnonymousLimiter {
  /** Counts one request from `ip`; returns seconds to wait when over the limit, else 0. */
  hit(ip: string): number;
  /** Seconds to wait without counting (0 when the address may still send). */
  blocked(ip: string): number;
  readonly limit: RateLimit;
  close(): void;
}

export function createAnonymousLimiter(limit: RateLimit, now: () => number = Date.now): AnonymousLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const sweep = setInterval(
    () => {
      const t = now();
      for (const [ip, w] of windows) if (t - w.start >= limit.windowMs) windows.delete(ip);
    },
    Math.max(1000, Math.min(limit.windowMs, 60_000)),
  );
  sweep.unref();
  const current = (ip: string) => {
    const t = now();
    let w = windows.get(ip);
    if (!w || t - w.start >= limit.windowMs) {
      w = { start: t, count: 0 };
      windows.set(ip, w);
    }
    return w;
  };
  const wait = (w: { start: number }) => Math.max(1, Math.ceil((w.start + limit.windowMs - now()) / 1000));
  return {
    limit,
    hit(ip) {
      const w = current(ip);
      w.count++;
      return w.count > limit.max ? wait(w) : 0;
    },
    blocked(ip) {
      const w = current(ip);
      return w.count >= limit.max ? wait(w) : 0;
    },
    close: () => clearInterval(sweep),
  };
}
