// OpenTelemetry: started before the HTTP apps. Exports spans over OTLP/HTTP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (a Jaeger all-in-one listens on :4318) and stays silent
// otherwise; the context manager is always registered so spans nest under the request span.
import { trace, type Tracer } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';

export interface Telemetry {
  tracer: Tracer;
  exporting: boolean;
  endpoint: string | null;
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

let active: { sdk: NodeSDK; processors: SpanProcessor[]; refs: number } | null = null;

export function startTelemetry(opts: { serviceName?: string; version: string; env?: NodeJS.ProcessEnv }): Telemetry {
  const env = opts.env ?? process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || null;
  if (!active) {
    const processors: SpanProcessor[] = [];
    if (endpoint) {
      const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || endpoint.replace(/\/$/, '') + '/v1/traces';
      const exporter = new OTLPTraceExporter({ url });
      // Tests and short-lived CLI runs want spans out immediately; servers batch.
      processors.push(
        env.VIGIL_OTEL_SIMPLE === '1'
          ? new SimpleSpanProcessor(exporter)
          : new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 }),
      );
    }
    const sdk = new NodeSDK({
      resource: resourceFromAttributes({
        'service.name': opts.serviceName ?? env.OTEL_SERVICE_NAME ?? 'vigil',
        'service.version': opts.version,
      }),
      spanProcessors: processors,
      instrumentations: [],
      // Metrics go to Prometheus via prom-client; logs via pino.
      metricReader: undefined,
    });
    sdk.start();
    active = { sdk, processors, refs: 0 };
  }
  active.refs++;
  const cur = active;
  return {
    tracer: trace.getTracer('vigil', opts.version),
    exporting: cur.processors.length > 0,
    endpoint,
    async forceFlush() {
      await Promise.all(cur.processors.map((p) => p.forceFlush()));
    },
    async shutdown() {
      await Promise.all(cur.processors.map((p) => p.forceFlush().catch(() => {})));
      cur.refs--;
      // The global provider lives as long as the process (several kernels may share it in tests).
    },
  };
}
