// Toxicity guardrail plugin: registers the `toxicity` layer (toxicity.ts). Scores
// each message 0..1 per category (insult, identity attack, dehumanisation, threat, sexual,
// self-harm) from a classifier trained by train.ts (model.json), group-targeted rules and
// obscenity's slur lexicon; counter-speech, reporting and negation are damped, profanity alone
// stays under the insult threshold. See README.md for data, licences and limits.
import path from 'node:path';
import { definePlugin } from '../../kernel/index.ts';
import { createToxicityGuardrail, loadToxicityModel } from './toxicity.ts';

export const toxicityGuardrailPlugin = definePlugin({
  setup(ctx) {
    const { model_file: modelFile, ...settings } = ctx.config;
    // A missing or corrupt model is a setup error (status "error"), never a silent rules-only run.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a config value; a bad one fails to load with its text in the error
    const model = settings.use_classifier === false ? null : loadToxicityModel(path.resolve(ctx.dir, String(modelFile ?? 'model.json')));
    ctx.registerGuardrail(createToxicityGuardrail(settings, model));
  },
});

export default toxicityGuardrailPlugin;
