// Guardrail check endpoint: POST /api/v1/guardrails/check {text, direction} on the gateway
// surface runs the same chain the agent uses (modes and settings from `guardrails.<layer>` in the
// service config) and answers {action, redacted_text, findings}. Useful to test a policy or to
// guard text outside the agent. Hits are counted on vigil_guardrail_hits_total{layer,action},
// the counter the gateway shares.
import { definePlugin } from '../../kernel/index.ts';
import { createGuardrailChain } from '../../lib/guardrails/chain.ts';
import { guardrailsRoutes } from './routes.ts';

export const guardrailsApiPlugin = definePlugin<{ max_text_chars: number }>({
  setup(ctx) {
    const chain = createGuardrailChain(ctx.services);
    ctx.registerRoutes('gateway', guardrailsRoutes({ chain, metrics: ctx.services.metrics, maxTextChars: ctx.config.max_text_chars }));
  },
});

export default guardrailsApiPlugin;
