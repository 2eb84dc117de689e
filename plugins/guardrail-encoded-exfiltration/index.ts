// Encoded-exfiltration guardrail plugin: registers the `encoded_exfiltration` layer
// (lib/guardrails/exfiltration.ts) on model output and tool results. Decodes base64, hex and
// percent-encoded blobs and re-checks them for secrets, PII and injection text; finds API keys
// and private keys in clear. Bare 32-byte hex values (transaction and block hashes in EVM work)
// are not keys unless labelled as one; private keys block even in redact mode.
import { definePlugin } from '../../kernel/index.ts';
import { createEncodedExfiltrationGuardrail } from '../../lib/guardrails/exfiltration.ts';

export const encodedExfiltrationGuardrailPlugin = definePlugin({
  setup(ctx) {
    // Plugin config (manifest defaults < plugins.guardrail-encoded-exfiltration in the service config) sets mode and settings;
    // the chain then applies guardrails.<layer> from the service config on top.
    ctx.registerGuardrail(createEncodedExfiltrationGuardrail(ctx.config));
  },
});

export default encodedExfiltrationGuardrailPlugin;
