// compliance-iso27001: evidence an ISO/IEC 27001 auditor asks for, read from the running gateway.
//
// Access control (Annex A 5.15-5.18): how callers authenticate, the calling tenant's key prefix,
// limits and permission set, and its key lifecycle events from the audit log. A tenant sees its
// own record and only the number of other tenants, never their names. Incident log (A 5.24-5.28):
// the tenant's blocked, denied and failed events from the audit log, newest first; ordinary 4xx
// such as a 404 are failures of the caller and are listed, successful requests never are. Asset
// registry (A 5.9): skills with their capabilities, LLM backends and plugins with versions.
import { definePlugin, Type, type AuditEvent, type ComplianceStatus } from '../../kernel/index.ts';
import type { ApprovalGate, Tenancy } from '../../lib/gateway/contracts.ts';
import { parseAuditFilters } from '../../lib/gateway/governance/audit-log.ts';
import type { TenantDirectory } from '../../lib/gateway/contracts.ts';

const INCIDENT_OUTCOMES = ['blocked', 'denied', 'failure'] as const;
const KEY_EVENTS = ['tenant.created', 'tenant.key_rotated', 'tenant.removed'];

export default definePlugin({
  async setup(ctx) {
    const { store, registry, settings } = ctx.services;
    const dir = () => ctx.services.get<TenantDirectory>('tenant-directory');

    const status = async (): Promise<ComplianceStatus> => {
      const tenancy = ctx.services.get<Tenancy>('tenancy');
      const multi = tenancy ? await tenancy.enabled().catch(() => false) : false;
      const audit = !!ctx.services.get('audit');
      const next: string[] = [];
      if (!audit) next.push('enable the gateway-audit plugin: the incident log and key history come from the audit log');
      if (!multi) next.push('create tenants (vigil tenants add) so access is controlled by per-tenant API keys');
      return {
        id: 'iso27001',
        title: 'ISO/IEC 27001',
        status: !audit ? 'attention' : multi ? 'active' : 'available',
        detail: `access control: ${multi ? 'per-tenant API keys' : 'single-tenant local mode (no keys)'}; incident log: ${audit ? 'from the audit log' : 'unavailable'}; asset registry: ${registry.skills().length} skills, ${registry.llms().length} models, ${registry.plugins().length} plugins`,
        next_actions: next,
      };
    };
    ctx.registerCompliance({ id: 'iso27001', title: 'ISO/IEC 27001', status });

    ctx.registerRoutes('gateway', async (app) => {
      app.get(
        '/api/v1/compliance/iso27001/status',
        { schema: { summary: 'Status of this compliance module', tags: ['compliance-iso27001'] } },
        async () => status(),
      );
      const tags = ['compliance-iso27001'];
      app.get(
        '/api/v1/compliance/iso27001/access-control',
        { schema: { summary: 'Access-control evidence for the calling tenant', tags } },
        async (req) => {
          const tenant = req.tenant?.name ?? null;
          const d = dir();
          const all = d ? await d.list() : [];
          const own = tenant ? (all.find((t) => t.name === tenant) ?? null) : null;
          const keyEvents: AuditEvent[] = [];
          for (const type of KEY_EVENTS) keyEvents.push(...(await store.queryAudit({ tenant, type, limit: 1000 })));
          const gate = ctx.services.get<ApprovalGate & { policy?: unknown }>('approvals');
          return {
            authentication: all.length ? 'api_key' : 'none (single-tenant local mode)',
            key_presentation: ['Authorization: Bearer <key>', 'X-API-Key: <key>'],
            key_storage: 'SHA-256 hashes of 256-bit random keys; only a display prefix is kept in clear',
            tenants_total: all.length,
            tenant: own,
            permissions: req.tenant?.permissions ?? null,
            default_limits: {
              rate_limit: settings.rateLimitPerKey?.text ?? null,
              token_quota_per_day: settings.tokenQuotaPerDay,
              max_concurrent_sessions: settings.maxConcurrentSessions,
            },
            approval_policy: gate?.policy ?? null,
            key_events: keyEvents.sort((a, b) => (a.id ?? 0) - (b.id ?? 0)),
          };
        },
      );

      app.get(
        '/api/v1/compliance/iso27001/incidents',
        {
          schema: {
            summary: "The calling tenant's incident log: blocked, denied and failed events from the audit log, newest first",
            tags,
            querystring: Type.Object({
              from: Type.Optional(Type.String()),
              to: Type.Optional(Type.String()),
              limit: Type.Optional(Type.String()),
            }),
          },
        },
        async (req) => {
          const f = parseAuditFilters(req.query as Record<string, unknown>, { defaultLimit: 200, maxLimit: 1000 });
          const tenant = req.tenant?.name ?? null;
          const found: AuditEvent[] = [];
          // Newest first across outcomes: each outcome's newest `limit` events, merged.
          for (const outcome of INCIDENT_OUTCOMES) {
            found.push(...(await store.queryAudit({ tenant, from: f.from, to: f.to, outcome, order: 'desc', limit: f.limit })));
          }
          found.sort((a, b) => (b.id ?? 0) - (a.id ?? 0));
          const items = found.slice(0, f.limit).map((e) => ({
            id: e.id,
            ts: e.ts,
            type: e.type,
            outcome: e.outcome,
            severity: e.severity,
            session_id: e.session_id ?? null,
            summary: summarize(e),
            detail: e.detail,
          }));
          const by_outcome = Object.fromEntries(INCIDENT_OUTCOMES.map((o) => [o, items.filter((i) => i.outcome === o).length]));
          return { incidents: items, by_outcome };
        },
      );

      app.get(
        '/api/v1/compliance/iso27001/assets',
        { schema: { summary: 'Asset registry: skills, models (LLM backends) and plugins', tags } },
        async () => {
          const plugins = registry.plugins();
          const owner = (tag: string) => plugins.find((p) => p.registered.includes(tag));
          return {
            skills: registry.skills().map((s) => ({
              name: s.name,
              description: s.description,
              capabilities: s.capabilities,
              plugin: s.plugin ?? null,
              runtime: s.runtime ?? null,
            })),
            models: registry.llms().map((l) => {
              const p = owner(`llm:${l.provider}`);
              return {
                provider: l.provider,
                model: l.defaultModel,
                configured: l.configured(),
                plugin: p?.id ?? null,
                plugin_version: p?.version ?? null,
              };
            }),
            plugins: plugins.map((p) => ({
              id: p.id,
              kind: p.kind,
              version: p.version,
              runtime: p.runtime,
              status: p.status,
              error: p.error,
            })),
          };
        },
      );
    });
  },
});

function summarize(e: AuditEvent): string {
  const d = e.detail ?? {};
  if (e.type === 'http.request')
    // eslint-disable-next-line @typescript-eslint/no-base-to-string, @typescript-eslint/restrict-template-expressions -- audit detail values are JSON scalars
    return `${d.method ?? ''} ${d.route ?? d.path ?? ''} answered ${d.status ?? '?'}${d.error_code ? ` (${d.error_code})` : ''}`;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string, @typescript-eslint/restrict-template-expressions -- audit detail values are JSON scalars
  if (d.layer) return `${e.type}: ${e.outcome} by the ${d.layer} guardrail`;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string, @typescript-eslint/restrict-template-expressions -- audit detail values are JSON scalars
  if (d.skill) return `${e.type}: ${e.outcome} for skill ${d.skill}`;
  return `${e.type}: ${e.outcome}`;
}
