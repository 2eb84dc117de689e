// Readiness checks of gateway-tenancy (security, guardrail modes, the edge), computed live on
// every report:
// `active` = verified on this instance, `available` = built in but not wired for this
// deployment, `attention` = wiring missing or a runtime check failed. Each non-active check
// names the configuration that would change it.
import type { KernelServices } from '../../kernel/index.ts';
import type { ReadinessCheck } from '../../lib/gateway/contracts.ts';
import { hostPolicy } from '../../kernel/protect.ts';
import type { TenantDirectory } from '../../lib/gateway/contracts.ts';

export async function securityChecks(o: {
  services: KernelServices;
  directory: TenantDirectory;
  configError: string | null;
  openPaths: string[];
  redis: boolean;
}): Promise<ReadinessCheck[]> {
  const s = o.services.settings;
  const tenants = o.configError ? [] : await o.directory.list();
  const checks: ReadinessCheck[] = [];
  checks.push(
    o.configError
      ? {
          id: 'tenancy',
          category: 'security',
          title: 'API key authentication',
          status: 'attention',
          detail: `tenant configuration is invalid (${o.configError}); protected routes answer 503`,
          next_action: 'fix the "tenants" section of the config file',
        }
      : tenants.length
        ? {
            id: 'tenancy',
            category: 'security',
            title: 'API key authentication',
            status: 'active',
            detail: `${tenants.length} tenant(s) with hashed API keys; every route except ${o.openPaths.join(', ')} needs a key`,
          }
        : {
            id: 'tenancy',
            category: 'security',
            title: 'API key authentication',
            status: 'available',
            detail: 'single-tenant local mode: no tenant is configured, so requests need no key',
            next_action:
              'create a tenant with `vigil tenants add NAME` (or declare tenants in the config file) to require API keys; wire SSO in front of the gateway if needed',
          },
  );
  const perTenantRate = tenants.filter((t) => t.rate_limit).length;
  checks.push(
    s.rateLimitPerKey || perTenantRate
      ? {
          id: 'rate_limits',
          category: 'security',
          title: 'Per-key rate limits',
          status: 'active',
          detail: `default ${s.rateLimitPerKey?.text ?? 'none'}, ${perTenantRate} tenant(s) with their own limit; counters ${o.redis ? 'shared in Redis' : 'in process memory'}`,
        }
      : {
          id: 'rate_limits',
          category: 'security',
          title: 'Per-key rate limits',
          status: 'available',
          detail: 'no request rate limit is configured',
          next_action:
            'start with --rate-limit-per-key 60/min (or set rate_limit per tenant); set rate_limit.redis_url when running several gateway instances',
        },
  );
  const quotaTenants = tenants.filter((t) => t.token_quota_per_day).length;
  checks.push(
    s.tokenQuotaPerDay || quotaTenants
      ? {
          id: 'token_quota',
          category: 'security',
          title: 'Daily LLM token quota',
          status: 'active',
          detail: `default ${s.tokenQuotaPerDay ?? 'unlimited'} tokens/day, ${quotaTenants} tenant(s) with their own quota; usage persisted in the store`,
        }
      : {
          id: 'token_quota',
          category: 'security',
          title: 'Daily LLM token quota',
          status: 'available',
          detail: 'LLM token use is not capped',
          next_action: 'start with --token-quota-per-day N (or set token_quota_per_day per tenant)',
        },
  );
  const capTenants = tenants.filter((t) => t.max_concurrent_sessions).length;
  checks.push(
    s.maxConcurrentSessions || capTenants
      ? {
          id: 'session_cap',
          category: 'security',
          title: 'Concurrent-session cap',
          status: 'active',
          detail: `default ${s.maxConcurrentSessions ?? 'unlimited'} per tenant, ${capTenants} tenant(s) with their own cap`,
        }
      : {
          id: 'session_cap',
          category: 'security',
          title: 'Concurrent-session cap',
          status: 'available',
          detail: 'concurrent sessions are not capped',
          next_action: 'start with --max-concurrent-sessions N (or set max_concurrent_sessions per tenant)',
        },
  );
  checks.push(guardrailCheck(o.services));
  return checks;
}

export function guardrailCheck(services: KernelServices): ReadinessCheck {
  const layers = services.registry.guardrails();
  const cfg = (services.settings.file.guardrails ?? {}) as Record<string, { mode?: string } | undefined>;
  const modes = layers.map((g) => ({ name: g.name, mode: String(cfg[g.name]?.mode ?? g.defaultMode) }));
  const on = modes.filter((m) => m.mode !== 'off');
  const detail = modes.map((m) => `${m.name}=${m.mode}`).join(', ');
  if (!on.length) {
    return {
      id: 'guardrail_modes',
      category: 'security',
      title: 'Guardrail modes',
      status: 'attention',
      detail: layers.length ? `every layer is off (${detail})` : 'no guardrail layer is loaded',
      next_action: 'enable the guardrail plugins and set guardrails.<layer>.mode in the config file',
    };
  }
  const inj = modes.find((m) => m.name === 'prompt_injection');
  if (!inj || inj.mode !== 'block') {
    return {
      id: 'guardrail_modes',
      category: 'security',
      title: 'Guardrail modes',
      status: 'attention',
      detail: `${on.length}/${modes.length} layers on (${detail}); prompt injection is not blocked`,
      next_action: 'set guardrails.prompt_injection.mode: block',
    };
  }
  return {
    id: 'guardrail_modes',
    category: 'security',
    title: 'Guardrail modes',
    status: 'active',
    detail: `${on.length}/${modes.length} layers on: ${detail}`,
  };
}

/** The edge of both surfaces: Host allowlist (DNS rebinding), the analysis API's auth mode, the
 *  limit on keyless requests, and the body limits. */
export function edgeChecks(o: {
  services: KernelServices;
  apiMode: 'keyed' | 'open' | 'local';
  apiOpenPaths: string[];
  anonymousLimit: string;
}): ReadinessCheck[] {
  const s = o.services.settings;
  const hosts = hostPolicy([s.bind.host, s.apiBind.host], s.allowedHosts);
  const out: ReadinessCheck[] = [];
  out.push(
    s.allowedHosts.includes('*')
      ? {
          id: 'host_allowlist',
          category: 'security',
          title: 'Host allowlist (DNS rebinding)',
          status: 'attention',
          detail: `every Host is served: ${hosts.describe()}`,
          next_action: 'list the names clients use with --allowed-hosts instead of "*"',
        }
      : {
          id: 'host_allowlist',
          category: 'security',
          title: 'Host allowlist (DNS rebinding)',
          status: 'active',
          detail: `both surfaces serve ${hosts.describe()}; any other Host gets 421 misdirected_request`,
        },
  );
  const open = o.apiOpenPaths.join(', ');
  out.push(
    o.apiMode === 'keyed'
      ? {
          id: 'analysis_api_auth',
          category: 'security',
          title: 'Analysis API authentication',
          status: 'active',
          detail: `keyed: the analysis API (${s.apiBind.host}:${s.apiBind.port}) needs a tenant key with permission contract_analysis; open: ${open}`,
        }
      : o.apiMode === 'open'
        ? {
            id: 'analysis_api_auth',
            category: 'security',
            title: 'Analysis API authentication',
            status: 'attention',
            detail: `open by --api-open: anyone who reaches ${s.apiBind.host}:${s.apiBind.port} can run analyses without a key (keyed callers are still scoped to their tenant)`,
            next_action: 'drop --api-open (and api_open in the config) so the analysis API requires tenant keys',
          }
        : {
            id: 'analysis_api_auth',
            category: 'security',
            title: 'Analysis API authentication',
            status: 'available',
            detail: 'local single-tenant: no tenant exists, so the analysis API needs no key',
            next_action: 'create a tenant with `vigil tenants add NAME --permissions contract_analysis` to require keys on both surfaces',
          },
  );
  out.push({
    id: 'request_edge',
    category: 'security',
    title: 'Request limits before authentication',
    status: 'active',
    detail: `keyless or bad-key requests limited to ${o.anonymousLimit} per client address once tenants exist (429 with Retry-After); bodies must arrive within ${Math.round(s.bodyTimeoutMs / 1000)} s (408); JSON deeper than 64 levels is refused (400); auth failures are audited as one row per address and minute`,
  });
  return out;
}
