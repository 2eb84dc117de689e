// vigil-ai (layer 5): an LLM reviews the contract with the static layer's findings as context
// and proposes findings as JSON, validated item by item (invalid items are dropped and counted
// in meta). Proposals that match an earlier finding confirm it; the rest are `llm_only` with
// confidence capped at 0.3, so a model's unverified claim never outranks a rule or a proof.
// Backends are the gateway's (OpenAI-compatible providers, the offline demo); the config key
// analysis.ai.provider / analysis.ai.model picks one for analysis. With the demo backend the
// review is deterministic and only explains earlier findings (see review.ts).
import { definePlugin } from '../../kernel/index.ts';
import { createAiReviewTool } from './tool.ts';

export default definePlugin({
  setup(ctx) {
    ctx.registerTool(createAiReviewTool({ registry: ctx.services.registry, settingsFile: () => ctx.services.settings.file }));
  },
});
