// PII guardrail plugin: registers the `pii` layer (lib/guardrails/pii.ts). Finds person names,
// e-mail addresses, phone numbers, payment cards, national identifiers (SSN, NINO, DNI/NIE, NIR,
// Aadhaar, PAN), IBANs and IP addresses and, in its default redact mode, replaces each with a
// typed placeholder ([EMAIL], [PERSON]...). Checksums (Luhn, mod-97, Verhoeff, DNI letter) keep
// order numbers and hashes out; names need lexicon + context, so code identifiers, ALL-CAPS
// acronyms and organisation names ("Alice Protocol") are not reported.
import { definePlugin } from '../../kernel/index.ts';
import { createPiiGuardrail } from '../../lib/guardrails/pii.ts';

export const piiGuardrailPlugin = definePlugin({
  setup(ctx) {
    // Plugin config (manifest defaults < plugins.guardrail-pii in the service config) sets mode and settings;
    // the chain then applies guardrails.<layer> from the service config on top.
    ctx.registerGuardrail(createPiiGuardrail(ctx.config));
  },
});

export default piiGuardrailPlugin;
