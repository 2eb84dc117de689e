// Daily LLM token quota per tenant. Usage is a store record per tenant and UTC day, so it
// survives a restart; updates are serialised per tenant inside the process so two concurrent
// turns cannot both read the same total and lose one of their increments.
import { HttpError, type Store, type UsageMeter } from '../../../kernel/index.ts';
import { msUntilUtcMidnight, utcDay } from './limits.ts';

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

export function createUsageMeter(store: Store, quotaOf: (tenant: string | null) => Promise<number | null>, now: () => Date = () => new Date()): GovernedUsageMeter {
  const chains = new Map<string, Promise<unknown>>();
  const serial = <T>(tenant: string | null, fn: () => Promise<T>): Promise<T> => {
    const k = tenant ?? '';
    const next = (chains.get(k) ?? Promise.resolve()).then(fn, fn);
    const tail = next.catch(() => undefined);
    chains.set(k, tail);
    void tail.then(() => chains.get(k) === tail && chains.delete(k));
    return next;
  };
  const used = async (tenant: string | null, day: string) => Number((await store.getRecord(USAGE_COLLECTION, day, tenant))?.tokens ?? 0);

  const today = async (tenant: string | null): Promise<UsageReport> => {
    const n = now();
    const day = utcDay(n);
    const [tokens, quota] = await Promise.all([used(tenant, day), quotaOf(tenant)]);
    return {
      day,
      tokens,
      quota,
      remaining: quota == null ? null : Math.max(0, quota - tokens),
      resets_at: new Date(n.getTime() + msUntilUtcMidnight(n)).toISOString(),
    };
  };

  return {
    today,
    async assertAvailable(tenant) {
      const r = await today(tenant);
      if (r.quota != null && r.tokens >= r.quota) {
        const retry = Math.ceil(msUntilUtcMidnight(now()) / 1000);
        throw new HttpError(
          429,
          'quota_exceeded',
          `daily token quota of ${r.quota} is used up; it resets at ${r.resets_at}`,
          { quota: r.quota, used: r.tokens, resets_at: r.resets_at },
          { 'retry-after': String(retry) },
        );
      }
    },
    async consume(tenant, tokens) {
      const n = Math.round(Number(tokens));
      if (!Number.isFinite(n) || n <= 0) return;
      await serial(tenant, async () => {
        const day = utcDay(now());
        const prev = await store.getRecord(USAGE_COLLECTION, day, tenant);
        await store.putRecord(USAGE_COLLECTION, day, { tokens: Number(prev?.tokens ?? 0) + n, requests: Number(prev?.requests ?? 0) + 1 }, tenant);
      });
    },
  };
}
