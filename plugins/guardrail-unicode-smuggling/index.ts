// Unicode-smuggling guardrail plugin: registers the `unicode_smuggling` layer
// (unicode.ts), first in the chain so later layers see clean text. Redact mode
// strips zero-width and bidi controls and folds mixed-script look-alike words to Latin; Unicode
// tag characters and variation-selector carriers block. Emoji ZWJ sequences, ZWNJ in Persian or
// Indic text and wholly Cyrillic/Greek words are left alone.
import { definePlugin } from '../../kernel/index.ts';
import { createUnicodeSmugglingGuardrail } from './unicode.ts';

export const unicodeSmugglingGuardrailPlugin = definePlugin({
  setup(ctx) {
    // Plugin config (manifest defaults < plugins.guardrail-unicode-smuggling in the service config) sets mode and settings;
    // the chain then applies guardrails.<layer> from the service config on top.
    ctx.registerGuardrail(createUnicodeSmugglingGuardrail(ctx.config));
  },
});

export default unicodeSmugglingGuardrailPlugin;
