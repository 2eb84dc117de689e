// gateway-audit: the audit trail a security team asks for.
//
// Every gateway request is recorded once it is answered (method, route, status, tenant,
// latency, request id, client address), next to the events other plugins record through the
// `audit` service (agent turns, skill calls, guardrail hits, approvals, key changes). Events are
// per tenant: a tenant reads and exports only its own. Liveness probes (/health, /metrics) are
// skipped by default so a scraper every few seconds does not bury the real events; failed
// authentication is aggregated per client address and minute (`auth.failure`). Query
// filters are validated (a malformed time is a 400, not an empty page); exports stream page by
// page so a large log never sits in memory.
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { definePlugin, HttpError, Type } from '../../kernel/index.ts';
import type { ReadinessRegistry } from '../../lib/gateway/contracts.ts';
import { createAuditLog, parseAuditFilters } from '../../lib/gateway/governance/audit-log.ts';
import { toCef } from './cef.ts';
import { observabilityChecks } from './readiness.ts';

const DENIED = new Set(['unauthorized', 'forbidden', 'rate_limited', 'quota_exceeded', 'session_limit', 'path_not_allowed']);

const EventSchema = Type.Object({
  id: Type.Integer(),
  ts: Type.String(),
  tenant: Type.Union([Type.String(), Type.Null()]),
  type: Type.String(),
  outcome: Type.String(),
  actor: Type.Union([Type.String(), Type.Null()]),
  session_id: Type.Union([Type.String(), Type.Null()]),
  severity: Type.Integer(),
  detail: Type.Object({}, { additionalProperties: true }),
});
const FilterQuery = {
  from: Type.Optional(Type.String({ description: 'ISO 8601 time, inclusive' })),
  to: Type.Optional(Type.String({ description: 'ISO 8601 time, inclusive' })),
  type: Type.Optional(Type.String({ description: 'event type, e.g. http.request, agent.turn, skill.call' })),
  outcome: Type.Optional(Type.String({ description: 'success, failure, blocked, denied or info' })),
};

export default definePlugin<{ skip_paths: string[] }>({
  async setup(ctx) {
    const { store, metrics, version } = { ...ctx.services, version: ctx.manifest.version };
    const log = createAuditLog(store);
    const written = new Counter({
      name: 'vigil_audit_events_total',
      help: 'Audit events written, by type and outcome',
      labelNames: ['type', 'outcome'],
      registers: [metrics],
    });
    const failed = new Counter({
      name: 'vigil_audit_write_failures_total',
      help: 'Audit events that could not be written',
      registers: [metrics],
    });
    const sink = {
      ...log,
      async record(e: Parameters<typeof log.record>[0]) {
        try {
          await log.append(e);
          written.inc({ type: e.type, outcome: e.outcome });
        } catch (err) {
          failed.inc();
          throw err;
        }
      },
    };
    ctx.provide('audit', sink);

    const skip = (path: string) => ctx.config.skip_paths.some((p) => path === p || path.startsWith(p + '/'));
    const errors = new WeakMap<FastifyRequest, string>();
    const gatewayVersion = (): string => {
      const core = ctx.services.registry.plugins().find((p) => p.id === 'gateway-core');
      return core?.version ?? version;
    };

    // Authentication failures (401, and 429 from the keyless-request limit) are counted per client
    // address and minute and written as one `auth.failure` row when the minute is over: a flood of
    // bad keys is one line per address per minute in the trail, not thousands.
    interface Bucket {
      ip: string;
      minute: string;
      surface: string;
      count: number;
      statuses: Record<string, number>;
      paths: Record<string, number>;
    }
    const buckets = new Map<string, Bucket>();
    const flushFailures = async (all = false) => {
      const current = new Date().toISOString().slice(0, 16);
      for (const [k, b] of buckets) {
        if (!all && b.minute >= current) continue;
        buckets.delete(k);
        try {
          await sink.record({
            tenant: null,
            type: 'auth.failure',
            outcome: 'denied',
            actor: null,
            severity: b.count >= 100 ? 7 : 5,
            detail: { ip: b.ip, minute: b.minute, surface: b.surface, count: b.count, statuses: b.statuses, paths: b.paths },
          });
        } catch (err) {
          ctx.log.error({ err }, 'aggregated auth-failure audit event could not be written');
        }
      }
    };
    const countFailure = (surface: string, req: FastifyRequest, status: number) => {
      const minute = new Date().toISOString().slice(0, 16);
      const k = `${surface}|${req.ip}|${minute}`;
      let b = buckets.get(k);
      if (!b) buckets.set(k, (b = { ip: req.ip, minute, surface, count: 0, statuses: {}, paths: {} }));
      b.count++;
      b.statuses[status] = (b.statuses[status] ?? 0) + 1;
      const route = req.routeOptions?.url ?? 'unmatched';
      // A bounded set of routes per bucket: a scanner walking random paths must not grow a row.
      if (b.paths[route] !== undefined || Object.keys(b.paths).length < 20) b.paths[route] = (b.paths[route] ?? 0) + 1;
    };
    const isAuthFailure = (req: FastifyRequest, status: number, code: string | undefined) =>
      status === 401 || (status === 429 && code === 'rate_limited' && req.tenant?.name == null);
    const flusher = setInterval(() => void flushFailures(), 10_000);
    flusher.unref();
    (sink as typeof sink & { flushAuthFailures: typeof flushFailures }).flushAuthFailures = flushFailures;

    const captureCode = (app: import('fastify').FastifyInstance) =>
      app.addHook('onError', async (req, _reply, err) => {
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'string') errors.set(req, code);
      });
    // The analysis API's requests are not audited one by one, but its auth failures are.
    ctx.registerSurfaceHooks('api', (app) => {
      captureCode(app);
      app.addHook('onResponse', async (req, reply) => {
        if (isAuthFailure(req, reply.statusCode, errors.get(req))) countFailure('api', req, reply.statusCode);
      });
    });

    ctx.registerSurfaceHooks('gateway', (app) => {
      captureCode(app);
      app.addHook('onResponse', async (req, reply) => {
        const path = req.url.split('?')[0];
        if (skip(path)) return;
        const status = reply.statusCode;
        const code = errors.get(req);
        if (isAuthFailure(req, status, code)) return countFailure('gateway', req, status);
        const outcome =
          code === 'guardrail_blocked'
            ? 'blocked'
            : (code && DENIED.has(code)) || status === 401 || status === 403 || status === 429
              ? 'denied'
              : status >= 400
                ? 'failure'
                : 'success';
        const latency = req.startedAt ? Number(process.hrtime.bigint() - req.startedAt) / 1e6 : null;
        try {
          await sink.record({
            tenant: req.tenant?.name ?? null,
            type: 'http.request',
            outcome,
            actor: req.tenant?.name ?? null,
            severity: status >= 500 ? 7 : outcome === 'denied' || outcome === 'blocked' ? 5 : status >= 400 ? 4 : 2,
            detail: {
              method: req.method,
              route: req.routeOptions?.url ?? null,
              // The route pattern, not the path, once a route matched: paths carry ids and
              // e-mail addresses (GDPR subject URLs) that must not end up in the audit trail.
              ...(req.routeOptions?.url ? {} : { path }),
              status,
              latency_ms: latency == null ? null : Math.round(latency * 100) / 100,
              request_id: req.id,
              ip: req.ip,
              ...(code ? { error_code: code } : {}),
            },
          });
        } catch (err) {
          req.log.error({ err }, 'audit event for the request could not be written');
        }
      });
    });

    ctx.registerRoutes('gateway', async (app) => {
      app.get(
        '/api/v1/audit/events',
        {
          schema: {
            summary: "The calling tenant's audit events, oldest first (or newest first with order=desc), with cursor paging",
            tags: ['audit'],
            querystring: Type.Object({
              ...FilterQuery,
              order: Type.Optional(Type.String({ description: 'asc (default, oldest first) or desc (newest first)' })),
              cursor: Type.Optional(Type.String()),
              limit: Type.Optional(Type.String({ description: '1..1000, default 100' })),
            }),
            response: { 200: Type.Object({ events: Type.Array(EventSchema), next_cursor: Type.Union([Type.String(), Type.Null()]) }) },
          },
        },
        async (req) => log.query(req.tenant?.name ?? null, parseAuditFilters(req.query as Record<string, unknown>)),
      );

      app.get(
        '/api/v1/audit/events/:id',
        {
          schema: {
            summary: 'One audit event of the calling tenant',
            tags: ['audit'],
            params: Type.Object({ id: Type.String() }),
            response: { 200: EventSchema },
          },
        },
        async (req) => {
          const raw = (req.params as { id: string }).id;
          const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
          const e = Number.isNaN(id) ? null : await log.get(req.tenant?.name ?? null, id);
          // Another tenant's event is indistinguishable from a missing one.
          if (!e) throw new HttpError(404, 'not_found', `no audit event ${raw}`);
          return e;
        },
      );

      app.get(
        '/api/v1/audit/export',
        {
          schema: {
            summary: "Streams the calling tenant's audit events for a SIEM: JSON lines or CEF",
            tags: ['audit'],
            querystring: Type.Object({ ...FilterQuery, format: Type.Optional(Type.String({ description: 'jsonl (default) or cef' })) }),
          },
        },
        async (req, reply) => {
          const q = req.query as Record<string, unknown>;
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a query-string value; anything else is rejected below
          const format = String(q.format ?? 'jsonl');
          if (format !== 'jsonl' && format !== 'cef')
            throw new HttpError(400, 'invalid_request', `"format" must be jsonl or cef, got "${format}"`, { field: 'format' });
          const { limit: _l, after: _a, before: _b, order, ...f } = parseAuditFilters({ ...q, format: undefined });
          // A SIEM ingests in time order; a newest-first export would read as a reversed clock.
          if (order === 'desc')
            throw new HttpError(400, 'invalid_request', 'the export streams oldest first; "order=desc" is for GET /api/v1/audit/events', {
              field: 'order',
            });
          const tenant = req.tenant?.name ?? null;
          const v = gatewayVersion();
          async function* lines() {
            for await (const e of log.stream(tenant, f)) yield (format === 'cef' ? toCef(e, v) : JSON.stringify(e)) + '\n';
          }
          const day = new Date().toISOString().slice(0, 10);
          reply
            .type(format === 'cef' ? 'text/plain; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
            .header(
              'content-disposition',
              `attachment; filename="vigil-audit-${tenant ?? 'local'}-${day}.${format === 'cef' ? 'cef' : 'jsonl'}"`,
            );
          return reply.send(Readable.from(lines()));
        },
      );
    });

    ctx.services.get<ReadinessRegistry>('readiness')?.register(() => observabilityChecks(ctx.services, true));
    ctx.onClose(async () => {
      clearInterval(flusher);
      await flushFailures(true);
    });
  },
});
