// Encoded-exfiltration guardrail plugin: registers the `encoded_exfiltration` layer
// (exfiltration.ts) on model output and tool results. Decodes base64, hex and percent-encoded
// blobs and re-checks them for secrets, PII and injection text; finds API keys and private keys
// in clear. Bare 32-byte hex values (transaction and block hashes in EVM work) are not keys
// unless labelled as one; private keys block even in redact mode.
// PII and injection text are recognised by the 'pii-detector' (guardrail-pii) and
// 'injection-rules' (guardrail-prompt-injection) services. Without them this layer cannot do its
// job, so the plugin fails at start (its protected routes answer 503) rather than running blind.
import { definePlugin, type KernelServices } from '../../kernel/index.ts';
import type { InjectionRulesService, PiiDetectorService } from '../../lib/guardrails/layer.ts';
import { createEncodedExfiltrationGuardrail, type DecodedTextDetectors } from './exfiltration.ts';

const PROVIDERS = { 'pii-detector': 'guardrail-pii', 'injection-rules': 'guardrail-prompt-injection' } as const;

function need<T>(s: T | undefined, name: keyof typeof PROVIDERS): T {
  if (!s) throw new Error(`encoded_exfiltration needs the '${name}' service: enable the ${PROVIDERS[name]} plugin`);
  return s;
}

/** Looked up on first use: the providers may be set up after this plugin. */
function detectorsFrom(services: KernelServices): DecodedTextDetectors {
  let pii: PiiDetectorService | undefined;
  let injection: InjectionRulesService | undefined;
  return {
    pii: {
      find: (text, entities) => (pii ??= need(services.get<PiiDetectorService>('pii-detector'), 'pii-detector')).find(text, entities),
    },
    injection: {
      match: (text) => (injection ??= need(services.get<InjectionRulesService>('injection-rules'), 'injection-rules')).match(text),
    },
  };
}

export const encodedExfiltrationGuardrailPlugin = definePlugin({
  setup(ctx) {
    // Plugin config (manifest defaults < plugins.guardrail-encoded-exfiltration in the service config) sets mode and settings;
    // the chain then applies guardrails.<layer> from the service config on top.
    ctx.registerGuardrail(createEncodedExfiltrationGuardrail(detectorsFrom(ctx.services), ctx.config));
    ctx.onStart(() => {
      need(ctx.services.get<PiiDetectorService>('pii-detector'), 'pii-detector');
      need(ctx.services.get<InjectionRulesService>('injection-rules'), 'injection-rules');
    });
  },
});

export default encodedExfiltrationGuardrailPlugin;
