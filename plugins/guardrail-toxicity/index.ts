// Toxicity guardrail plugin: registers the `toxicity` layer (lib/guardrails/toxicity.ts), a
// weighted multilingual lexicon with threat/hate/insult patterns on de-obfuscated text, scored
// 0..1 against `threshold`. Profanity alone stays under the default threshold ("this fucking
// build"), and everyday verbs in technical use ("kill the process") are not threats. It does not
// understand sarcasm, coded language or context; see the lib module for its limits.
import { definePlugin } from '../../kernel/index.ts';
import { createToxicityGuardrail } from '../../lib/guardrails/toxicity.ts';

export const toxicityGuardrailPlugin = definePlugin({
  setup(ctx) {
    // Plugin config (manifest defaults < plugins.guardrail-toxicity in the service config) sets mode and settings;
    // the chain then applies guardrails.<layer> from the service config on top.
    ctx.registerGuardrail(createToxicityGuardrail(ctx.config));
  },
});

export default toxicityGuardrailPlugin;
