// The one Prometheus counter for guardrail hits: the `guardrails` service counts every run that
// found something, whoever called it (the agent, the check endpoint).
import { Counter, type Registry } from 'prom-client';
import type { GuardrailChainResult } from '../../../kernel/index.ts';

export const GUARDRAIL_HITS_METRIC = 'vigil_guardrail_hits_total';

export function guardrailHitsCounter(registry: Registry): Counter<'layer' | 'action'> {
  const existing = registry.getSingleMetric(GUARDRAIL_HITS_METRIC);
  if (existing) return existing as Counter<'layer' | 'action'>;
  return new Counter({
    name: GUARDRAIL_HITS_METRIC,
    help: 'Guardrail layer hits, by layer and the action taken (log, redact, block)',
    labelNames: ['layer', 'action'] as const,
    registers: [registry],
  });
}

/** Counts one hit per (layer, action) pair present in a chain result. */
export function countGuardrailHits(counter: Counter<'layer' | 'action'>, result: GuardrailChainResult): void {
  const seen = new Set<string>();
  for (const f of result.findings) {
    const key = `${f.layer}\u0000${f.action}`;
    if (seen.has(key)) continue;
    seen.add(key);
    counter.inc({ layer: f.layer, action: f.action });
  }
}
