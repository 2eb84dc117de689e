// The gateway's door to the guardrail chain (lib/guardrails/chain.ts): one call per message and
// direction, configured from the `guardrails` section of the service config, and one shared
// hit counter (vigil_guardrail_hits_total) with the guardrail check endpoint.
import type { GuardrailChainResult, GuardrailDirection, KernelServices } from '../../../kernel/index.ts';
import { createGuardrailChain } from '../../../lib/guardrails/chain.ts';
import { countGuardrailHits, guardrailHitsCounter } from '../../../lib/guardrails/metrics.ts';

export type ChainRunner = (text: string, direction: GuardrailDirection) => Promise<GuardrailChainResult>;

export interface GuardrailAccess {
  run: ChainRunner;
  /** Layers in force (registered and not "off"). */
  layers(): string[];
  available: boolean;
  problem: string | null;
}

/** Throws on a bad `guardrails` config section, so the gateway fails at start with the key named. */
export function loadGuardrails(services: KernelServices): GuardrailAccess {
  const chain = createGuardrailChain(services);
  chain.describe(); // validates per-layer config now rather than on the first request
  const hits = guardrailHitsCounter(services.metrics);
  return {
    available: true,
    problem: null,
    layers: () =>
      chain
        .describe()
        .filter((l) => l.mode !== 'off')
        .map((l) => l.name),
    run: async (text, direction) => {
      const r = await chain.run(text, direction);
      if (r.findings.length) countGuardrailHits(hits, r);
      return r;
    },
  };
}
