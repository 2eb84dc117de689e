// Prompt-injection guardrail plugin: registers the `prompt_injection` layer (injection.ts). Text
// is de-obfuscated first (case, spacing, leetspeak, homoglyphs, zero-width characters;
// base64/hex payloads decoded), then scored by multilingual rules (instruction overrides,
// jailbreak personas, prompt extraction, fake chat delimiters) and by a logistic-regression
// classifier over hashed word and character n-grams (model.json, trained by train.ts), combined
// by noisy-OR. Rules need an instruction-like object, so "ignore whitespace in git diff" or
// questions about prompt injection do not block. Also provides the rules as the
// 'injection-rules' service, for layers that re-check decoded text (encoded_exfiltration).
import path from 'node:path';
import { definePlugin } from '../../kernel/index.ts';
import type { InjectionRulesService } from '../../lib/guardrails/layer.ts';
import { normalizeForMatching } from '../../lib/guardrails/normalize.ts';
import { createPromptInjectionGuardrail, loadInjectionModelFile, matchRules } from './injection.ts';

export const promptInjectionGuardrailPlugin = definePlugin({
  setup(ctx) {
    const { model_file: modelFile, ...settings } = ctx.config;
    const useModel = settings.use_classifier !== false;
    // A missing or corrupt model is a setup error (the plugin shows status "error"), never a silent rules-only run.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a config value; a bad one fails to load with its text in the error
    const model = useModel ? loadInjectionModelFile(path.resolve(ctx.dir, String(modelFile ?? 'model.json'))) : null;
    ctx.registerGuardrail(createPromptInjectionGuardrail(model, settings));
    const rules: InjectionRulesService = { match: (text) => matchRules(normalizeForMatching(text)) };
    ctx.provide('injection-rules', rules);
  },
});

export default promptInjectionGuardrailPlugin;
