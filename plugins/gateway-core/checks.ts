// Built-in readiness checks, each computed from the running instance when the report is asked for.
import type { ReadinessCheck, Tenancy } from '../../lib/gateway/contracts.ts';
import type { Shared } from './routes.ts';

export function builtinChecks(sh: Shared) {
  return async (): Promise<ReadinessCheck[]> => {
    const { services, agent } = sh;
    const out: ReadinessCheck[] = [];
    out.push({
      id: 'rest_api',
      category: 'runtime',
      title: 'REST management API',
      status: sh.routes.length ? 'active' : 'attention',
      detail: `Management endpoints are mounted under /api/v1 (${sh.routes.filter((r) => r.startsWith('/api/v1')).length} routes from the gateway core: ${sh.routes.filter((r) => r.startsWith('/api/v1')).join(', ')}); OpenAPI 3.0 at /openapi.json.`,
    });
    const storeOk = await services.store.ping().catch(() => false);
    out.push({
      id: 'storage',
      category: 'runtime',
      title: 'Session and audit storage',
      status: storeOk ? 'active' : 'attention',
      detail: storeOk ? `${services.store.kind} store answers a ping` : `${services.store.kind} store does not answer`,
      next_action: storeOk ? undefined : 'Check the data directory (--data-dir / VIGIL_DATA_DIR) is writable.',
    });
    const b = agent.backend();
    out.push({
      id: 'llm_backend',
      category: 'runtime',
      title: 'LLM backend',
      status: b.problem ? 'attention' : 'active',
      detail:
        b.problem ??
        (b.provider === 'demo'
          ? `demo backend ${b.label}: offline and deterministic, calls skills from explicit requests`
          : `${b.label} (chosen by ${b.source})`),
      next_action: b.problem
        ? `Fix the LLM configuration: ${b.problem}.`
        : b.provider === 'demo'
          ? 'Set a provider key (e.g. OPENAI_API_KEY) or VIGIL_MODEL=provider/model for live answers.'
          : undefined,
    });
    const skills = agent.skillsFor({ name: null, permissions: null });
    const allowed = skills.filter((s) => s.allowed).length;
    out.push({
      id: 'skills',
      category: 'runtime',
      title: 'Agent skills',
      status: skills.length ? 'active' : 'attention',
      detail: `${skills.length} skills registered, ${allowed} allowed by the default permission set`,
      next_action: skills.length ? undefined : 'No skill plugin is loaded; check `vigil plugins`.',
    });
    out.push({
      id: 'agent_loop',
      category: 'runtime',
      title: 'Agent loop limits',
      status: 'active',
      detail: `at most ${agent.opts.maxTurns} model calls per turn, skill calls time out after ${agent.opts.skillTimeoutMs} ms`,
    });
    out.push({
      id: 'permission_set',
      category: 'security',
      title: 'Agent permission set',
      status: 'active',
      detail: `default set "${agent.policy.defaultName}": ${agent.policy.defaultSet.join(', ') || 'no capabilities'}`,
    });
    const layers = agent.guardrails.layers();
    out.push({
      id: 'guardrails',
      category: 'security',
      title: 'Guardrail chain',
      status: agent.guardrails.available && layers.length ? 'active' : 'attention',
      detail: !agent.guardrails.available
        ? (agent.guardrails.problem ?? 'unavailable')
        : layers.length
          ? `${layers.length} layers on every request and response: ${layers.join(', ')}`
          : 'no guardrail layer is loaded',
      next_action: layers.length ? undefined : 'Load the guardrail plugins (plugins/guardrail-*).',
    });
    const failed = services.registry.plugins().filter((p) => p.status === 'error');
    out.push({
      id: 'plugins',
      category: 'runtime',
      title: 'Plugins',
      status: failed.length ? 'attention' : 'active',
      detail: failed.length
        ? `${failed.length} plugins failed: ${failed.map((f) => `${f.id} (${f.error})`).join('; ')}`
        : `${services.registry.plugins().filter((p) => p.status === 'loaded').length} plugins loaded, none failed`,
      next_action: failed.length ? 'Run `vigil plugins` to see why plugins failed to load.' : undefined,
    });
    const exporting = !!(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
    out.push({
      id: 'tracing',
      category: 'observability',
      title: 'OpenTelemetry tracing',
      status: exporting ? 'active' : 'available',
      detail: exporting
        ? `spans exported over OTLP/HTTP to ${process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT}`
        : 'spans are recorded but not exported (OTEL_EXPORTER_OTLP_ENDPOINT is not set)',
      next_action: exporting ? undefined : 'Set OTEL_EXPORTER_OTLP_ENDPOINT (e.g. a Jaeger all-in-one on :4318) to export traces.',
    });
    const families = (await services.metrics.getMetricsAsJSON()).length;
    out.push({
      id: 'metrics',
      category: 'observability',
      title: 'Prometheus metrics',
      status: 'active',
      detail: `/metrics serves ${families} metric families`,
    });
    // Governance checks: contributed by their plugins when loaded; these say what is missing.
    const tenancy = services.get<Tenancy>('tenancy');
    if (!tenancy) {
      out.push({
        id: 'tenancy',
        category: 'security',
        title: 'Multi-tenant API keys',
        status: 'available',
        detail: 'single-tenant local mode: no tenancy plugin is loaded, requests need no key',
        next_action: 'Load the tenancy plugin and create per-tenant API keys.',
      });
    } else if (!(await tenancy.enabled().catch(() => false))) {
      out.push({
        id: 'tenancy',
        category: 'security',
        title: 'Multi-tenant API keys',
        status: 'available',
        detail: 'single-tenant local mode: no tenant is configured, requests need no key',
        next_action: 'Create tenants with per-tenant API keys (vigil tenants add).',
      });
    }
    if (!services.get('approvals'))
      out.push({
        id: 'approvals',
        category: 'governance',
        title: 'Human approval gates',
        status: 'available',
        detail: 'no approval plugin is loaded: permitted skills run without human review',
        next_action: 'Load the approvals plugin and set an approval policy.',
      });
    if (!services.get('audit'))
      out.push({
        id: 'audit_log',
        category: 'governance',
        title: 'Audit log',
        status: 'available',
        detail: 'no audit plugin is loaded: turns and skill calls are not recorded',
        next_action: 'Load the audit plugin to keep a structured audit log.',
      });
    return out;
  };
}
