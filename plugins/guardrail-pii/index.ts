// PII guardrail plugin: registers the `pii` layer (pii.ts, pii-normalize.ts, names.ts). Finds person names,
// e-mail addresses, phone numbers, payment cards, national identifiers (SSN, NINO, DNI/NIE, NIR,
// Aadhaar, PAN), IBANs and IP addresses and, in its default redact mode, replaces each with a
// typed placeholder ([EMAIL], [PERSON]...). Checksums (Luhn, mod-97, Verhoeff, DNI letter) keep
// order numbers and hashes out; names need lexicon + context, so code identifiers, ALL-CAPS
// acronyms and organisation names ("Alice Protocol") are not reported.
// Also provides the detector as the 'pii-detector' service, with the layer's default settings,
// for layers that re-check decoded text (encoded_exfiltration).
import { definePlugin } from '../../kernel/index.ts';
import type { PiiDetectorService } from '../../lib/guardrails/layer.ts';
import { createPiiGuardrail, findPii, piiDefaults } from './pii.ts';

export const piiGuardrailPlugin = definePlugin({
  setup(ctx) {
    // Plugin config (manifest defaults < plugins.guardrail-pii in the service config) sets mode and settings;
    // the chain then applies guardrails.<layer> from the service config on top.
    ctx.registerGuardrail(createPiiGuardrail(ctx.config));
    const detector: PiiDetectorService = { find: (text, entities) => findPii(text, { ...piiDefaults, entities: [...entities] }) };
    ctx.provide('pii-detector', detector);
  },
});

export default piiGuardrailPlugin;
