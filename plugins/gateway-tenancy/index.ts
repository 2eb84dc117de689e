// gateway-tenancy: who is calling, and how much they may do.
//
// With tenants configured (CLI-managed in the store, or declared in the config file) every
// gateway route outside the open list needs a key (`Authorization: Bearer` or `X-API-Key`), or
// the answer is 401 `unauthorized`. With none, the gateway runs in single-tenant local mode.
// Rate limits (@fastify/rate-limit, keyed by tenant, in memory or Redis), the daily token quota
// (persisted usage) and the concurrent-session cap are enforced per tenant, with the serve flags
// as defaults. Fail-closed: a broken `tenants:` config rejects protected requests with 503 rather
// than silently opening the gateway. Open paths match whole path segments, so /healthz or
// /dashboard-admin are not opened by accident.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { definePlugin, HttpError, Type, type RateLimit, type TenantRecord } from '../../kernel/index.ts';
import type { AuditSink, ReadinessRegistry, Tenancy, TenantContext } from '../../lib/gateway/contracts.ts';
import { extractApiKey } from '../../lib/gateway/governance/keys.ts';
import { parseRate } from '../../lib/gateway/governance/limits.ts';
import { parseConfigTenants } from '../../lib/gateway/governance/tenants.ts';
import { TenantDirectory } from './directory.ts';
import { createUsageMeter } from './usage-meter.ts';
import { createSessionCap } from './session-cap.ts';
import { securityChecks, edgeChecks } from './readiness.ts';
import { createAnonymousLimiter } from './anon-limiter.ts';
import { BUILTIN_PERMISSION_SETS, resolvePermissionPolicy } from '../../lib/gateway/agent/permissions.ts';
import { pathOf, underPath } from '../../kernel/protect.ts';
import { openRedis, redisPrefixOf, redisUrlOf, newReplicaId } from '../../kernel/redis.ts';

const LOCAL: TenantContext = Object.freeze({ name: null, permissions: null });

export default definePlugin<{ open_paths: string[]; api_open_paths: string[]; redis_url: string | null }>({
  async setup(ctx) {
    const { store, settings } = ctx.services;
    const audit: AuditSink = { record: async (e) => void (await ctx.services.get<AuditSink>('audit')?.record(e)) };

    let configError: string | null = null;
    let configTenants: TenantRecord[] = [];
    try {
      configTenants = parseConfigTenants(settings.file.tenants);
    } catch (e) {
      configError = (e as Error).message;
      ctx.log.error({ reason: configError }, 'tenant configuration is invalid; protected gateway routes answer 503 until it is fixed');
    }
    const dir = new TenantDirectory(store, configTenants, audit);

    const openPaths = [...new Set([...ctx.config.open_paths, ...((settings.file.auth?.open_paths as string[] | undefined) ?? [])])];
    const isOpen = (path: string) => openPaths.some((p) => path === p || (p !== '/' && path.startsWith(p.endsWith('/') ? p : p + '/')));

    // The tenant record resolved by the auth hook, for the rate limiter of the same request.
    const records = new WeakMap<FastifyRequest, TenantRecord>();
    const rates = new Map<string, RateLimit | null>();
    const rateOf = (text: string | null): RateLimit | null => {
      if (!text) return null;
      if (!rates.has(text)) {
        try {
          rates.set(text, parseRate(text));
        } catch {
          rates.set(text, null);
        }
      }
      return rates.get(text)!;
    };
    const limitFor = (req: FastifyRequest): RateLimit | null => rateOf(records.get(req)?.rate_limit ?? null) ?? settings.rateLimitPerKey;

    // Several replicas share rate limits, quotas and session caps through Redis (VIGIL_REDIS_URL).
    const redisUrl =
      ctx.config.redis_url ?? settings.file.rate_limit?.redis_url ?? process.env.VIGIL_RATE_LIMIT_REDIS_URL ?? redisUrlOf(settings);
    const prefix = redisPrefixOf(settings);
    const redis = redisUrl ? openRedis(redisUrl) : null;
    redis?.on('error', (err) => ctx.log.warn({ err: err.message }, 'gateway-tenancy Redis error'));
    const shared = redis ? { redis, prefix } : undefined;

    const recordOf = async (t: string | null) => (t == null ? null : dir.get(t));
    const usage = createUsageMeter(
      store,
      async (t) => (await recordOf(t))?.token_quota_per_day ?? settings.tokenQuotaPerDay,
      undefined,
      shared,
    );
    const cap = createSessionCap(
      async (t) => (await recordOf(t))?.max_concurrent_sessions ?? settings.maxConcurrentSessions,
      shared && { ...shared, replicaId: newReplicaId() },
    );

    const tenancy: Tenancy & {
      directory: TenantDirectory;
      activeSessions(t?: string | null): number;
      apiMode(): Promise<'keyed' | 'open' | 'local'>;
    } = {
      directory: dir,
      apiMode: () => apiMode(),
      enabled: () => dir.enabled(),
      of: (req) => req.tenant ?? LOCAL,
      sessionOpened: (t, id) => cap.opened(t, id),
      sessionClosed: async (t, id) => cap.close(t, id),
      activeSessions: (t) => cap.active(t),
    };
    ctx.provide('tenancy', tenancy);
    ctx.provide('usage', usage);
    ctx.provide('tenant-directory', dir);

    const limiter = createAnonymousLimiter(settings.anonymousRateLimit);
    const apiOpenPaths = [...new Set(ctx.config.api_open_paths)];
    const isApiOpen = (path: string) => apiOpenPaths.some((p) => (p === '/' ? pathOf(path) === '/' : underPath(path, p)));
    // A key without its own list uses the agent's default permission set, exactly as chat does.
    let defaultCaps: string[];
    try {
      defaultCaps = resolvePermissionPolicy(settings.file).defaultSet;
    } catch {
      defaultCaps = BUILTIN_PERMISSION_SETS.default!;
    }
    const apiMode = async (): Promise<'keyed' | 'open' | 'local'> =>
      settings.apiOpen ? 'open' : (await dir.enabled()) ? 'keyed' : 'local';

    // One authentication for both surfaces: the same keys, the same request property
    // (req.tenant = {name, permissions, key}), the same per-address limit on keyless requests.
    const authenticate = async (req: FastifyRequest, surface: 'gateway' | 'api') => {
      const path = req.url.split('?')[0];
      const open = surface === 'gateway' ? isOpen(path) : isApiOpen(path);
      if (configError && !open)
        throw new HttpError(
          503,
          'unavailable',
          'the tenant configuration is invalid, so every protected route is closed; see the server log',
        );
      const key = extractApiKey(req.headers);
      if (key) {
        const t = await dir.resolveKey(key).catch((e) => {
          req.log.error({ err: e }, 'key lookup failed');
          throw new HttpError(503, 'unavailable', 'API keys cannot be checked: the store does not answer; see /api/v1/health/');
        });
        if (t) {
          req.tenant = { name: t.name, permissions: t.permissions as TenantContext['permissions'], key: t.key_id };
          records.set(req, t);
          if (surface === 'api' && !open && !(t.permissions ?? defaultCaps).includes('contract_analysis')) {
            throw new HttpError(
              403,
              'forbidden',
              `the key ${t.key_id} lacks the permission contract_analysis, which the analysis API requires`,
              { permission: 'contract_analysis' },
            );
          }
          return;
        }
      }
      let enabled: boolean;
      try {
        enabled = await dir.enabled();
      } catch (e) {
        // A store that does not answer must not take health (which reports it) down with it;
        // protected routes are closed (503) rather than open.
        if (!open) {
          req.log.error({ err: e }, 'tenant lookup failed');
          throw new HttpError(503, 'unavailable', 'API keys cannot be checked: the store does not answer; see /api/v1/health/');
        }
        enabled = false;
      }
      if (!enabled) {
        req.tenant = LOCAL;
        return;
      }
      // --api-open: keyless analysis is the deliberate mode; a wrong key is still an error.
      const deliberatelyOpen = surface === 'api' && settings.apiOpen && !key;
      if (!deliberatelyOpen) {
        const wait = limiter.hit(req.ip);
        if (wait) {
          throw new HttpError(
            429,
            'rate_limited',
            `too many requests without a valid API key from ${req.ip} (limit ${limiter.limit.text} per address); retry in ${wait} s`,
            { limit: limiter.limit.text, scope: 'client_address', retry_after_seconds: wait },
            { 'retry-after': String(wait) },
          );
        }
      }
      if (open || deliberatelyOpen) {
        req.tenant = LOCAL;
        return;
      }
      throw new HttpError(
        401,
        'unauthorized',
        key ? 'the API key is not valid' : 'an API key is required: send "Authorization: Bearer <key>" or "X-API-Key: <key>"',
        undefined,
        { 'www-authenticate': 'Bearer realm="vigil"' },
      );
    };

    const mountLimits = async (app: FastifyInstance, surface: 'gateway' | 'api') => {
      const openOf = (req: FastifyRequest) => (surface === 'gateway' ? isOpen(req.url.split('?')[0]) : isApiOpen(req.url.split('?')[0]));
      await app.register(rateLimit, {
        global: true,
        hook: 'onRequest',
        // Runs after the auth hook (root hooks come before route hooks), so the key is the tenant.
        keyGenerator: (req) => (req.tenant?.name != null ? `tenant:${req.tenant.name}` : `ip:${req.ip}`),
        allowList: (req) => openOf(req) || limitFor(req) == null,
        max: (req) => limitFor(req)!.max,
        timeWindow: (req) => limitFor(req)!.windowMs,
        // A Redis outage lets requests through rather than taking the gateway down.
        skipOnError: true,
        ...(redis ? { redis, nameSpace: surface === 'gateway' ? `${prefix}rl:` : `${prefix}rl-api:` } : {}),
        errorResponseBuilder: (req, c) => {
          const secs = Math.max(1, Math.ceil(c.ttl / 1000));
          return new HttpError(
            429,
            'rate_limited',
            `rate limit of ${limitFor(req)?.text ?? c.max} exceeded; retry in ${secs} s`,
            { limit: limitFor(req)?.text ?? null, retry_after_seconds: secs },
            { 'retry-after': String(secs) },
          );
        },
      });
    };

    ctx.registerSurfaceHooks('gateway', async (app) => {
      app.decorateRequest('tenant', undefined);
      app.addHook('onRequest', async (req) => authenticate(req, 'gateway'));
      await mountLimits(app, 'gateway');
    });

    // The analysis API takes the same keys once a tenant exists (permission contract_analysis);
    // health, the root and the OpenAPI document stay open. `--api-open` keeps it keyless.
    ctx.registerSurfaceHooks('api', async (app) => {
      app.decorateRequest('tenant', undefined);
      app.addHook('onRequest', async (req) => authenticate(req, 'api'));
      await mountLimits(app, 'api');
    });

    ctx.registerRoutes('gateway', async (app) => {
      app.get(
        '/api/v1/tenants/me',
        {
          schema: {
            summary: "The calling tenant: mode, permissions, limits, today's token usage and active sessions",
            tags: ['tenants'],
            response: {
              200: Type.Object({
                mode: Type.Union([Type.Literal('multi-tenant'), Type.Literal('single-tenant')]),
                tenant: Type.Union([Type.String(), Type.Null()]),
                key: Type.Union([Type.String(), Type.Null()], { description: 'the key that made this request, "<tenant>/<label>"' }),
                key_prefix: Type.Union([Type.String(), Type.Null()]),
                permissions: Type.Union([Type.Array(Type.String()), Type.Null()]),
                limits: Type.Object({
                  rate_limit: Type.Union([Type.String(), Type.Null()]),
                  token_quota_per_day: Type.Union([Type.Integer(), Type.Null()]),
                  max_concurrent_sessions: Type.Union([Type.Integer(), Type.Null()]),
                }),
                usage: Type.Object({
                  day: Type.String(),
                  tokens: Type.Integer(),
                  quota: Type.Union([Type.Integer(), Type.Null()]),
                  remaining: Type.Union([Type.Integer(), Type.Null()]),
                  resets_at: Type.String(),
                }),
                active_sessions: Type.Integer(),
              }),
            },
          },
        },
        async (req) => {
          const t = tenancy.of(req);
          const rec = await recordOf(t.name);
          return {
            mode: (await dir.enabled()) ? 'multi-tenant' : 'single-tenant',
            tenant: t.name,
            key: t.key ?? null,
            key_prefix: records.get(req)?.key_prefix ?? rec?.key_prefix ?? null,
            permissions: t.permissions,
            limits: {
              rate_limit: rateOf(rec?.rate_limit ?? null)?.text ?? settings.rateLimitPerKey?.text ?? null,
              token_quota_per_day: rec?.token_quota_per_day ?? settings.tokenQuotaPerDay,
              max_concurrent_sessions: rec?.max_concurrent_sessions ?? settings.maxConcurrentSessions,
            },
            usage: await usage.today(t.name),
            active_sessions: await cap.activeShared(t.name),
          };
        },
      );
    });

    ctx.services
      .get<ReadinessRegistry>('readiness')
      ?.register(() => securityChecks({ services: ctx.services, directory: dir, configError, openPaths, redis: redisUrl != null }));
    ctx.services
      .get<ReadinessRegistry>('readiness')
      ?.register(async () =>
        edgeChecks({ services: ctx.services, apiMode: await apiMode(), apiOpenPaths, anonymousLimit: limiter.limit.text }),
      );
    ctx.onClose(async () => {
      limiter.close();
      await cap.stop();
      redis?.disconnect(); // not quit(): with Redis down it would wait for a reply forever
    });
  },
});
