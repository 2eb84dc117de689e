// Readiness checks of gateway-audit (audit log, store, tracing, metrics), computed live on every
// report:
// `active` = verified on this instance, `available` = built in but not wired for this
// deployment, `attention` = wiring missing or a runtime check failed. Each non-active check
// names the configuration that would change it.
import type { KernelServices } from '../../kernel/index.ts';
import type { ReadinessCheck } from '../../lib/gateway/contracts.ts';

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
