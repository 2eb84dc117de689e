// Guardrail check endpoint: POST /api/v1/guardrails/check {text, direction} on the gateway
// surface runs the same chain the agent uses (modes and settings from `guardrails.<layer>` in the
// service config) and answers {action, redacted_text, findings}. Useful to test a policy or to
// guard text outside the agent. The chain is gateway-core's `guardrails` service, which counts hits
// on vigil_guardrail_hits_total{layer,action}.
import { definePlugin } from '../../kernel/index.ts';
import { guardrailsRoutes } from './routes.ts';

export const guardrailsApiPlugin = definePlugin<{ max_text_chars: number }>({
  setup(ctx) {
    const chain = ctx.services.get('guardrails')!; // required: its provider is loaded first
    ctx.registerRoutes('gateway', guardrailsRoutes({ chain, maxTextChars: ctx.config.max_text_chars }));
  },
});

export default guardrailsApiPlugin;
