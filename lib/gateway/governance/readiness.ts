// Readiness checks contributed by the governance plugins, computed live on every report:
// `active` = verified on this instance, `available` = built in but not wired for this
// deployment, `attention` = wiring missing or a runtime check failed. Each non-active check
// names the configuration that would change it.
import type { KernelServices, ReadinessCheck } from '../../../kernel/index.ts';
import type { TenantDirectory } from './tenants.ts';
import type { ApprovalPolicy } from './approval-gate.ts';
import { hostPolicy } from '../../../kernel/protect.ts';

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

export async function observabilityChecks(services: KernelServices, auditLoaded: boolean): Promise<ReadinessCheck[]> {
  const out: ReadinessCheck[] = [];
  const storeOk = await services.store.ping().catch(() => false);
  out.push(
    !auditLoaded
      ? {
          id: 'audit_log',
          category: 'governance',
          title: 'Structured audit log',
          status: 'attention',
          detail: 'the audit service is not loaded',
          next_action: 'enable the gateway-audit plugin',
        }
      : storeOk
        ? {
            id: 'audit_log',
            category: 'governance',
            title: 'Structured audit log',
            status: 'active',
            detail: `append-only, per tenant, in the ${services.store.kind} store; query /api/v1/audit/events, SIEM export /api/v1/audit/export?format=jsonl|cef`,
          }
        : {
            id: 'audit_log',
            category: 'governance',
            title: 'Structured audit log',
            status: 'attention',
            detail: `the ${services.store.kind} store does not answer, so events cannot be written`,
            next_action: 'check the data directory (VIGIL_DATA_DIR) and disk space',
          },
  );
  const otel = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  out.push(
    otel
      ? {
          id: 'tracing',
          category: 'observability',
          title: 'OpenTelemetry tracing',
          status: 'active',
          detail: `spans exported over OTLP/HTTP to ${otel}`,
        }
      : {
          id: 'tracing',
          category: 'observability',
          title: 'OpenTelemetry tracing',
          status: 'available',
          detail: 'spans are created but not exported',
          next_action: 'set OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://localhost:4318 for a Jaeger all-in-one)',
        },
  );
  const families = (await services.metrics.getMetricsAsJSON()).length;
  out.push(
    families
      ? {
          id: 'metrics',
          category: 'observability',
          title: 'Prometheus metrics',
          status: 'active',
          detail: `${families} metric families exposed at /metrics`,
        }
      : {
          id: 'metrics',
          category: 'observability',
          title: 'Prometheus metrics',
          status: 'attention',
          detail: 'no metric is registered',
          next_action: 'check that the kernel metrics registry is created at start',
        },
  );
  return out;
}

export function approvalsCheck(policy: ApprovalPolicy | null, error: string | null, pending: number): ReadinessCheck {
  if (error)
    return {
      id: 'approvals',
      category: 'governance',
      title: 'Human approval gates',
      status: 'attention',
      detail: `approval policy is invalid (${error}); every gated skill call fails until it is fixed`,
      next_action: 'fix the "approvals" section of the config file',
    };
  if (!policy || (!policy.skills.length && !policy.capabilities.length)) {
    return {
      id: 'approvals',
      category: 'governance',
      title: 'Human approval gates',
      status: 'available',
      detail: 'no skill or capability needs a human decision',
      next_action: 'set approvals.skills / approvals.capabilities (e.g. [shell_exec, file_write]) in the config file',
    };
  }
  return {
    id: 'approvals',
    category: 'governance',
    title: 'Human approval gates',
    status: 'active',
    detail: `skills [${policy.skills.join(', ')}], capabilities [${policy.capabilities.join(', ')}] need approval; expire after ${policy.ttlSeconds} s; ${pending} pending now`,
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

/** Separation of duties on approvals: who can decide, and whether anyone but the operator can. */
export async function separationCheck(services: KernelServices, policy: ApprovalPolicy | null): Promise<ReadinessCheck> {
  const title = 'Approval separation of duties';
  const dir = services.get<TenantDirectory>('tenant-directory');
  const tenants = dir ? await dir.list().catch(() => []) : [];
  if (!tenants.length) {
    return {
      id: 'approval_separation',
      category: 'governance',
      title,
      status: 'available',
      detail: 'single-tenant local mode: there are no keys to separate, so the local caller decides approvals',
      next_action:
        'create tenants (`vigil tenants add`) and approver keys (`vigil tenants add-key NAME --label approver --permissions approvals_decide`)',
    };
  }
  let approvers = 0;
  for (const t of tenants) approvers += (await dir!.keys(t.name)).filter((k) => (k.permissions ?? []).includes('approvals_decide')).length;
  const gated = !!policy && (policy.skills.length > 0 || policy.capabilities.length > 0);
  const detail = `the key that caused an approval request can never decide it; ${approvers} approver key(s) (permission approvals_decide) across ${tenants.length} tenant(s); the operator decides with \`vigil approvals list|approve|deny\`; the audit log names the decider`;
  return gated && approvers === 0
    ? {
        id: 'approval_separation',
        category: 'governance',
        title,
        status: 'attention',
        detail: `${detail}; only the operator can decide today`,
        next_action: 'issue approver keys: `vigil tenants add-key NAME --label approver --permissions approvals_decide`',
      }
    : { id: 'approval_separation', category: 'governance', title, status: 'active', detail };
}
