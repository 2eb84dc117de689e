// Daily LLM token quota per tenant. Usage is a store record per tenant and UTC day, so it
// survives a restart; updates are serialised per tenant inside the process so two concurrent
// turns cannot both read the same total and lose one of their increments. With several
// replicas (a Redis connection given) the count is an atomic Redis increment, shared by all of
// them, and the store record mirrors it (seeding Redis again if its keys were lost).
import type { Redis } from 'ioredis';
import { HttpError, type Store } from '../../kernel/index.ts';
import type { UsageMeter } from '../../lib/gateway/contracts.ts';
import { msUntilUtcMidnight, utcDay } from '../../lib/gateway/governance/limits.ts';

export const USAGE_COLLECTION = 'usage.tokens';

export interface UsageReport {
  day: string;
  tokens: number;
  quota: number | null;
  remaining: number | null;
  resets_at: string;
}

export interface GovernedUsageMeter extends UsageMeter {
  today(tenant: string | null): Promise<UsageReport>;
}

export interface SharedUsageState {
  redis: Redis;
  prefix: string;
}

// Seeds the day's counter from the stored mirror if Redis lost it, then adds atomically.
const CONSUME_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'tokens', ARGV[2], 'requests', ARGV[3])
end
local t = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[1])
local r = redis.call('HINCRBY', KEYS[1], 'requests', 1)
redis.call('PEXPIRE', KEYS[1], 172800000)
return {t, r}
`;

export function createUsageMeter(
  store: Store,
  quotaOf: (tenant: string | null) => Promise<number | null>,
  now: () => Date = () => new Date(),
  shared?: SharedUsageState,
): GovernedUsageMeter {
  const chains = new Map<string, Promise<unknown>>();
  const serial = <T>(tenant: string | null, fn: () => Promise<T>): Promise<T> => {
    const k = tenant ?? '';
    const next = (chains.get(k) ?? Promise.resolve()).then(fn, fn);
    const tail = next.catch(() => undefined);
    chains.set(k, tail);
    void tail.then(() => chains.get(k) === tail && chains.delete(k));
    return next;
  };
  // Increments not yet written (see consume), by tenant and day.
  // An entry leaves `pending` when its write starts and `writing` when the write is done, so
  // its tokens count (in one place or the other) until the store has them.
  type Pending = { key: string; tokens: number; requests: number; done: Promise<void> };
  const pending = new Map<string, Pending>();
  const writing = new Set<Pending>();
  const unwritten = (key: string) => (pending.get(key)?.tokens ?? 0) + [...writing].reduce((a, w) => a + (w.key === key ? w.tokens : 0), 0);
  const stored = async (tenant: string | null, day: string) => {
    const key = `${tenant ?? ''}\u0000${day}`;
    const extra = unwritten(key);
    return Number((await store.getRecord(USAGE_COLLECTION, day, tenant))?.tokens ?? 0) + Math.min(extra, unwritten(key));
  };
  const redisKey = (tenant: string | null, day: string) => `${shared!.prefix}usage:${day}:${tenant == null ? '-' : `t:${tenant}`}`;
  const used = async (tenant: string | null, day: string) => {
    if (!shared) return stored(tenant, day);
    let v: string | null;
    try {
      v = await shared.redis.hget(redisKey(tenant, day), 'tokens');
    } catch (e) {
      // Fail closed: a quota that cannot be read is not granted.
      throw new HttpError(503, 'unavailable', 'the shared token counter (Redis) is unreachable; try again shortly', {
        reason: (e as Error).message,
      });
    }
    return v == null ? stored(tenant, day) : Number(v);
  };

  const report = async (tenant: string | null, quota: number | null): Promise<UsageReport> => {
    const n = now();
    const day = utcDay(n);
    const tokens = await used(tenant, day);
    return {
      day,
      tokens,
      quota,
      remaining: quota == null ? null : Math.max(0, quota - tokens),
      resets_at: new Date(n.getTime() + msUntilUtcMidnight(n)).toISOString(),
    };
  };
  const today = async (tenant: string | null): Promise<UsageReport> => report(tenant, await quotaOf(tenant));

  return {
    today,
    async assertAvailable(tenant) {
      // Without a quota there is nothing to refuse: the day's usage is read only when there is one.
      const quota = await quotaOf(tenant);
      if (quota == null) return;
      const r = await report(tenant, quota);
      if (r.tokens >= quota) {
        const retry = Math.ceil(msUntilUtcMidnight(now()) / 1000);
        throw new HttpError(
          429,
          'quota_exceeded',
          `daily token quota of ${quota} is used up; it resets at ${r.resets_at}`,
          { quota, used: r.tokens, resets_at: r.resets_at },
          { 'retry-after': String(retry) },
        );
      }
    },
    async consume(tenant, tokens) {
      const n = Math.round(Number(tokens));
      if (!Number.isFinite(n) || n <= 0) return;
      if (shared) {
        const day = utcDay(now());
        const prev = await store.getRecord(USAGE_COLLECTION, day, tenant);
        const [tokens, requests] = (await shared.redis.eval(
          CONSUME_LUA,
          1,
          redisKey(tenant, day),
          String(n),
          String(Number(prev?.tokens ?? 0)),
          String(Number(prev?.requests ?? 0)),
        )) as [number, number];
        // Mirror in the store (serialised per tenant here, so this process never writes an older
        // total after a newer one); the Redis hash stays the source of truth.
        await serial(tenant, async () => {
          const cur = await store.getRecord(USAGE_COLLECTION, day, tenant);
          if (Number(cur?.tokens ?? 0) < Number(tokens))
            await store.putRecord(USAGE_COLLECTION, day, { tokens: Number(tokens), requests: Number(requests) }, tenant);
        });
        return;
      }
      // Turns finishing in the same turn of the event loop are added up and written once (one
      // read and one write per tenant instead of one each per turn); every caller still
      // resumes only after the write that includes its tokens.
      const day = utcDay(now());
      const k = `${tenant ?? ''}\u0000${day}`;
      let p = pending.get(k);
      if (!p) {
        p = { key: k, tokens: 0, requests: 0, done: null! };
        const entry = p;
        pending.set(k, entry);
        entry.done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          pending.delete(k);
          writing.add(entry);
          return serial(tenant, async () => {
            const prev = await store.getRecord(USAGE_COLLECTION, day, tenant);
            await store.putRecord(
              USAGE_COLLECTION,
              day,
              { tokens: Number(prev?.tokens ?? 0) + entry.tokens, requests: Number(prev?.requests ?? 0) + entry.requests },
              tenant,
            );
          }).finally(() => writing.delete(entry));
        });
      }
      p.tokens += n;
      p.requests += 1;
      await p.done;
    },
  };
}
