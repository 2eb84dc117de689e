// Reachability of the shared services the scale tests use (the machine and CI run them).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.VIGIL_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let redisCheck: Promise<string | null> | null = null;
/** null when Redis answers, else the reason (a test is skipped with it). */
export function redisProblem(): Promise<string | null> {
  redisCheck ??= (async () => {
    const r = new Redis(REDIS_URL, { connectTimeout: 1500, maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    r.on('error', () => undefined);
    try {
      await r.connect();
      return (await r.ping()) === 'PONG' ? null : 'Redis did not answer PING';
    } catch (e) {
      return `Redis at ${REDIS_URL} is unreachable (${(e as Error).message}); set VIGIL_TEST_REDIS_URL or start the server`;
    } finally {
      r.disconnect();
    }
  })();
  return redisCheck;
}

/** A key prefix no other run uses; delete its keys with dropPrefix() afterwards. */
export function uniquePrefix(): string {
  return `vigiltest:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

export async function dropPrefix(prefix: string): Promise<void> {
  const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await r.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}
