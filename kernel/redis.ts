// Shared state across replicas lives in Redis when VIGIL_REDIS_URL (or `redis_url` in the
// config file) is set: rate-limit counters, token quotas, concurrent-session caps, approval
// decisions and the analysis job queue. Every key starts with VIGIL_REDIS_PREFIX (default
// "vigil:") so several deployments — or parallel test runs — can share one Redis.
import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';

/** The resolved setting (resolveSettings reads VIGIL_REDIS_URL from its env, then the file). */
export function redisUrlOf(settings: { redisUrl?: string | null }): string | null {
  return settings.redisUrl ?? null;
}

export function redisPrefixOf(settings: { redisPrefix?: string }): string {
  const p = settings.redisPrefix ?? 'vigil:';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(p))
    throw new Error(`VIGIL_REDIS_PREFIX must be 1-64 characters of letters, digits, _ . : -, got "${p}"`);
  return p;
}

/** A name for one kernel as other replicas see it (session-cap entries, approval waiters). */
export function newReplicaId(): string {
  return `${process.pid}-${randomUUID().slice(0, 8)}`;
}

export function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

/** A connection that fails fast (commands error instead of queueing forever while Redis is down). */
export function openRedis(url: string, extra: RedisOptions = {}): Redis {
  if (!/^rediss?:\/\//i.test(url)) throw new Error(`VIGIL_REDIS_URL must be a redis:// or rediss:// URL, got "${url.split(':')[0]}:…"`);
  return new Redis(url, { connectTimeout: 2000, maxRetriesPerRequest: 1, enableOfflineQueue: true, ...extra });
}
