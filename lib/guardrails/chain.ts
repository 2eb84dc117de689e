// The guardrail chain as a service (`guardrails`): gateway-core runs it (plugins/gateway-core/agent/chain.ts)
// for every message of the agent, and the check endpoint and others call the same chain, so a
// policy behaves the same everywhere and every hit is counted once on vigil_guardrail_hits_total.
import type { GuardrailChainResult, GuardrailDirection, GuardrailMode } from '../../kernel/index.ts';

export interface GuardrailChain {
  run(text: string, direction?: GuardrailDirection): Promise<GuardrailChainResult>;
  /** Layers as configured: name, mode, directions, order, settings. */
  describe(): Array<{
    name: string;
    mode: GuardrailMode;
    directions: GuardrailDirection[];
    order: number;
    settings: Record<string, unknown>;
  }>;
  /** Re-reads the registry (after plugins were added or reloaded). */
  reload(): void;
}
