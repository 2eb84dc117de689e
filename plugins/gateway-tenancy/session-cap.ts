// Concurrent-session cap per tenant. A session counts while a request is working in it (a chat
// turn, an open stream, a turn paused on an approval); two requests on the same session count
// once. One process: counted in memory. Several gateway replicas (a Redis connection given):
// counted in Redis, so the cap holds for the tenant across all replicas. Each replica's entries
// are tied to a heartbeat key, so the sessions of a replica that died stop counting within
// the heartbeat TTL instead of holding the tenant's slots forever.
import type { Redis } from 'ioredis';
import { HttpError } from '../../kernel/index.ts';

export interface SessionCap {
  open(tenant: string | null, sessionId: string): void;
  close(tenant: string | null, sessionId: string): void | Promise<void>;
  /** Sessions active in this process. */
  active(tenant?: string | null): number;
}

export interface SharedSessionState {
  redis: Redis;
  /** Key prefix, e.g. "vigil:". */
  prefix: string;
  replicaId: string;
  /** How long a silent replica's sessions keep counting (default 15 s). */
  heartbeatTtlMs?: number;
}

// Atomic check-and-count over every live replica's entries (field "<replica>|<session>").
const OPEN_LUA = `
local h = redis.call('HGETALL', KEYS[1])
local seen, n, alive = {}, 0, {}
for i = 1, #h, 2 do
  local f = h[i]
  local sep = string.find(f, '|', 1, true)
  local rep, sid = string.sub(f, 1, sep - 1), string.sub(f, sep + 1)
  local ok = alive[rep]
  if ok == nil then
    ok = (rep == ARGV[1]) or (redis.call('EXISTS', ARGV[4] .. rep) == 1)
    alive[rep] = ok
  end
  if not ok then
    redis.call('HDEL', KEYS[1], f)
  elseif not seen[sid] then
    seen[sid] = true
    n = n + 1
  end
end
local limit = tonumber(ARGV[3])
if limit >= 0 and not seen[ARGV[2]] and n >= limit then return {0, n} end
redis.call('HINCRBY', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 1)
redis.call('PEXPIRE', KEYS[1], 86400000)
if seen[ARGV[2]] then return {1, n} end
return {1, n + 1}
`;
const CLOSE_LUA = `
local v = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if v <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return v
`;
const COUNT_LUA = `
local h = redis.call('HKEYS', KEYS[1])
local seen, n = {}, 0
for _, f in ipairs(h) do
  local sep = string.find(f, '|', 1, true)
  local rep, sid = string.sub(f, 1, sep - 1), string.sub(f, sep + 1)
  if (rep == ARGV[1] or redis.call('EXISTS', ARGV[2] .. rep) == 1) and not seen[sid] then
    seen[sid] = true
    n = n + 1
  end
end
return n
`;

export function createSessionCap(
  limitOf: (tenant: string | null) => Promise<number | null> | number | null,
  shared?: SharedSessionState,
): SessionCap & {
  opened(tenant: string | null, sessionId: string): Promise<void>;
  /** Sessions active for the tenant across every replica (this process only without Redis). */
  activeShared(tenant: string | null): Promise<number>;
  close(tenant: string | null, sessionId: string): Promise<void>;
  stop(): Promise<void>;
} {
  // tenant -> session id -> number of requests currently inside it (this process)
  const live = new Map<string, Map<string, number>>();
  const key = (t: string | null) => t ?? '';
  const local = {
    open(this: void, tenant: string | null, sessionId: string) {
      const m = live.get(key(tenant)) ?? new Map<string, number>();
      live.set(key(tenant), m);
      m.set(sessionId, (m.get(sessionId) ?? 0) + 1);
    },
    close(tenant: string | null, sessionId: string): boolean {
      const m = live.get(key(tenant));
      const n = m?.get(sessionId);
      if (!m || n === undefined) return false;
      if (n <= 1) m.delete(sessionId);
      else m.set(sessionId, n - 1);
      if (m.size === 0) live.delete(key(tenant));
      return true;
    },
    active(this: void, tenant?: string | null) {
      if (tenant === undefined) return [...live.values()].reduce((a, m) => a + m.size, 0);
      return live.get(key(tenant))?.size ?? 0;
    },
  };

  const tooMany = (limit: number, active: number) =>
    new HttpError(429, 'session_limit', `concurrent session limit of ${limit} reached; finish or close a session first`, { limit, active });

  if (!shared) {
    return {
      open: local.open,
      active: local.active,
      async close(tenant, sessionId) {
        local.close(tenant, sessionId);
      },
      async opened(tenant, sessionId) {
        const limit = await limitOf(tenant);
        const m = live.get(key(tenant));
        // Check and insert without an await in between, so two racing requests cannot both pass.
        if (limit != null && !m?.has(sessionId) && (m?.size ?? 0) >= limit) throw tooMany(limit, m?.size ?? 0);
        local.open(tenant, sessionId);
      },
      activeShared: async (tenant) => local.active(tenant),
      async stop() {},
    };
  }

  const { redis, prefix, replicaId } = shared;
  const ttl = shared.heartbeatTtlMs ?? 15_000;
  const hbPrefix = `${prefix}replica:`;
  const hashKey = (t: string | null) => `${prefix}sessions:${t == null ? '-' : `t:${t}`}`;
  const beat = () => redis.set(hbPrefix + replicaId, '1', 'PX', ttl);
  let beating: Promise<unknown> = beat().catch(() => undefined);
  const timer = setInterval(() => void (beating = beat().catch(() => undefined)), Math.max(1000, Math.floor(ttl / 3)));
  timer.unref();
  const unavailable = (e: unknown) =>
    new HttpError(503, 'unavailable', 'the shared session counter (Redis) is unreachable; try again shortly', {
      reason: (e as Error).message,
    });

  return {
    open: local.open,
    active: local.active,
    async opened(tenant, sessionId) {
      const limit = await limitOf(tenant);
      await beating;
      let r: [number, number];
      try {
        r = (await redis.eval(OPEN_LUA, 1, hashKey(tenant), replicaId, sessionId, String(limit ?? -1), hbPrefix)) as [number, number];
      } catch (e) {
        // Fail closed: without the shared count the cap cannot be enforced.
        throw unavailable(e);
      }
      if (Number(r[0]) !== 1) throw tooMany(limit!, Number(r[1]));
      local.open(tenant, sessionId);
    },
    async close(tenant, sessionId) {
      if (!local.close(tenant, sessionId)) return;
      await redis.eval(CLOSE_LUA, 1, hashKey(tenant), `${replicaId}|${sessionId}`).catch(() => undefined);
    },
    async activeShared(tenant) {
      try {
        return Number(await redis.eval(COUNT_LUA, 1, hashKey(tenant), replicaId, hbPrefix));
      } catch {
        return local.active(tenant);
      }
    },
    async stop() {
      clearInterval(timer);
      // This replica's sessions stop counting at once for everyone else.
      await redis.del(hbPrefix + replicaId).catch(() => undefined);
    },
  };
}
