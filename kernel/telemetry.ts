// OpenTelemetry: started before the HTTP apps. Exports spans over OTLP/HTTP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (a Jaeger all-in-one listens on :4318) and stays silent
// otherwise. The SDK registers a tracer provider (and the context manager that nests spans under
// the request span) only when it has a span processor, so without an endpoint the tracer is the
// API's no-op one either way: the SDK and its exporters (~1 CPU-second to import) are then not
// loaded at all.
import { trace, type Tracer } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Telemetry {
  tracer: Tracer;
  exporting: boolean;
  endpoint: string | null;
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

let active: Promise<{ sdk: NodeSDK | null; processors: SpanProcessor[]; refs: number }> | null = null;

async function startSdk(
  opts: { serviceName?: string; version: string },
  env: NodeJS.ProcessEnv,
  endpoint: string | null,
): Promise<{ sdk: NodeSDK | null; processors: SpanProcessor[]; refs: number }> {
  if (!endpoint) return { sdk: null, processors: [], refs: 0 };
  const [{ NodeSDK }, { OTLPTraceExporter }, { BatchSpanProcessor, SimpleSpanProcessor }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || endpoint.replace(/\/$/, '') + '/v1/traces';
  const exporter = new OTLPTraceExporter({ url });
  // Tests and short-lived CLI runs want spans out immediately; servers batch.
  const processors: SpanProcessor[] = [
    env.VIGIL_OTEL_SIMPLE === '1' ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 }),
  ];
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
  return { sdk, processors, refs: 0 };
}

/** The first call decides for the process (several kernels may share it in tests). */
export async function startTelemetry(opts: { serviceName?: string; version: string; env?: NodeJS.ProcessEnv }): Promise<Telemetry> {
  const env = opts.env ?? process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || null;
  active ??= startSdk(opts, env, endpoint);
  const cur = await active;
  cur.refs++;
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
