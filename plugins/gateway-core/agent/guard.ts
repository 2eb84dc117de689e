// The gateway's door to the guardrail chain (./chain.ts): one call per message and direction,
// configured from the `guardrails` section of the service config. The same counted chain is the
// `guardrails` service the check endpoint calls, so hits are counted in one place.
import type { Registry } from 'prom-client';
import type { GuardrailChainResult, GuardrailDirection, KernelServices } from '../../../kernel/index.ts';
import type { GuardrailChain } from '../../../lib/guardrails/chain.ts';
import { createGuardrailChain } from './chain.ts';
import { countGuardrailHits, guardrailHitsCounter } from './hits.ts';

export type ChainRunner = (text: string, direction: GuardrailDirection) => Promise<GuardrailChainResult>;

export interface GuardrailAccess {
  run: ChainRunner;
  /** Layers in force (registered and not "off"). */
  layers(): string[];
  available: boolean;
  problem: string | null;
}

/** The chain whose every run with findings is counted on vigil_guardrail_hits_total. */
export function countedChain(chain: GuardrailChain, metrics: Registry): GuardrailChain {
  const hits = guardrailHitsCounter(metrics);
  return {
    ...chain,
    run: async (text, direction) => {
      const r = await chain.run(text, direction);
      if (r.findings.length) countGuardrailHits(hits, r);
      return r;
    },
  };
}

/** Throws on a bad `guardrails` config section, so the gateway fails at start with the key named. */
export function loadGuardrails(services: KernelServices): GuardrailAccess & { chain: GuardrailChain } {
  const chain = countedChain(createGuardrailChain(services), services.metrics);
  chain.describe(); // validates per-layer config now rather than on the first request
  return {
    chain,
    available: true,
    problem: null,
    layers: () =>
      chain
        .describe()
        .filter((l) => l.mode !== 'off')
        .map((l) => l.name),
    run: (text, direction) => chain.run(text, direction),
  };
}
