// Prometheus registry shared by the kernel and plugins (they add metrics through ctx.services.metrics).
import client, { Registry } from 'prom-client';

export function createMetrics(): Registry {
  const reg = new Registry();
  client.collectDefaultMetrics({ register: reg, prefix: 'vigil_' });
  new client.Histogram({
    name: 'vigil_http_request_duration_seconds',
    help: 'HTTP request latency by surface, route and status',
    labelNames: ['surface', 'method', 'route', 'status'],
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [reg],
  });
  return reg;
}

/** Returns the metric with that name, creating it once (plugins share metrics by name). */
export function metric<T extends client.Metric<string>>(reg: Registry, name: string, make: () => T): T {
  return (reg.getSingleMetric(name) as T | undefined) ?? make();
}
