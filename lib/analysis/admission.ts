// Admission control for analyses requested from outside: the REST analysis API (:8000) and MCP.
// The engine's worker pool is shared with the gateway's own skill calls (contract_audit in chat),
// so without a gate a few slow requests fill every worker and everything behind them times out.
//
// - At most `max_running` outside analyses run at once (default: one fewer than the pool's
//   threads, at least 1). The gateway's own calls never pass through here, so that much of the
//   pool stays theirs: capacity reserved for the gateway.
// - Up to `max_queued` more wait in arrival order; beyond that: 429 analysis_busy.
// - One client (an API key's tenant, or the client address when keyless) holds at most
//   `per_client` analyses, running or waiting; beyond that: 429 analysis_busy.
// - A waiting analysis gives up when its caller goes away or its own timeout passes.
// Every 429 carries Retry-After, estimated from how long recent analyses took.
// One gate per kernel (both surfaces share it): analysis-api provides it as the
// `analysis-admission` service (plugins/analysis-api/admission.ts); its numbers are in `stats()`
// for readiness. Here: that contract and the timeout rules both surfaces apply.
import type { KernelServices } from '../../kernel/index.ts';

export interface AdmissionLimits {
  max_running: number;
  max_queued: number;
  per_client: number;
}

export interface AnalysisGate {
  /** Waits for a slot; resolves to the release function, or throws 429 analysis_busy. */
  acquire(client: string, opts?: { signal?: AbortSignal; waitMs?: number }): Promise<() => void>;
  stats(): AdmissionLimits & { running: number; queued: number; refused: number };
}

export const DEFAULT_MAX_ANALYSIS_TIMEOUT_S = 300;

/** Server-side maximum for a request's timeout, in seconds (`serve --max-analysis-timeout`). */
export function maxAnalysisTimeout(services: KernelServices): number {
  return services.settings.maxAnalysisTimeoutS ?? DEFAULT_MAX_ANALYSIS_TIMEOUT_S;
}

export interface AppliedTimeout {
  /** Seconds the work may take. */
  applied: number;
  requested: number | null;
  clamped: boolean;
  /** Present when clamped: the sentence the answer carries. */
  note?: string;
}

/** A requested timeout (seconds) held to the server's maximum; the default is 300 s or that maximum. */
export function applyTimeout(requested: unknown, max: number): AppliedTimeout {
  const req = typeof requested === 'number' && Number.isFinite(requested) ? requested : null;
  const dflt = Math.min(DEFAULT_MAX_ANALYSIS_TIMEOUT_S, max);
  if (req === null) return { applied: dflt, requested: null, clamped: false };
  if (req <= max) return { applied: req, requested: req, clamped: false };
  return {
    applied: max,
    requested: req,
    clamped: true,
    note: `the requested timeout of ${req} s was lowered to the server's maximum of ${max} s (--max-analysis-timeout)`,
  };
}

/** Who an outside analysis counts against: the tenant of the key, else the client address. */
export function clientKey(tenant: { name: string | null } | null | undefined, address: string | null | undefined): string {
  if (tenant?.name) return `tenant:${tenant.name}`;
  return `addr:${address ?? 'local'}`;
}
