// Encoded-exfiltration layer for model output and tool results: secrets in clear (private keys,
// provider API keys, labelled hex private keys) and base64/hex/percent blobs, which are decoded and
// re-checked for PII, secrets and injection text. A blob that decodes to nothing sensitive is only
// reported when it is large or rides in a URL (the markdown-image exfiltration trick), since
// outputs legitimately carry hashes, ids and small encoded values. Bare 32-byte hex values are
// hashes in EVM work and are left alone unless labelled as a key (see secrets.ts). PII and
// injection text are recognised by the PII and prompt-injection layers' own detectors, reached as
// services (see index.ts), so there is one detector of each.
import type { GuardrailFinding } from '../../kernel/index.ts';
import { findEncodedBlobs } from '../../lib/guardrails/encoding.ts';
import { defineLayer, num, type InjectionRulesService, type PiiDetectorService } from '../../lib/guardrails/layer.ts';
import { findSecrets } from './secrets.ts';

/** The other layers' detectors this one re-checks decoded payloads with. */
export interface DecodedTextDetectors {
  pii: PiiDetectorService;
  injection: InjectionRulesService;
}

/** PII kinds looked for inside decoded payloads. */
const ENCODED_PII = ['email', 'phone', 'credit_card', 'national_id', 'iban'] as const;

export interface ExfiltrationSettings extends Record<string, unknown> {
  threshold: number;
  /** Opaque decoded blobs at least this many bytes are reported even when nothing inside is recognised. */
  max_opaque_bytes: number;
  /** Secrets in clear text are checked too (not only inside encodings). */
  plain_secrets: boolean;
}
export const exfiltrationDefaults: ExfiltrationSettings = { threshold: 0.6, max_opaque_bytes: 512, plain_secrets: true };

const DATA_URI = /data:(?:image|font|audio|video)\/[\w.+-]+;base64,$/i;
const IN_URL = /(?:https?:\/\/|www\.)[^\s"'<>)]*$/i;

export function findExfiltration(text: string, s: ExfiltrationSettings, detectors: DecodedTextDetectors): GuardrailFinding[] {
  const out: GuardrailFinding[] = [];
  const push = (kind: string, start: number, end: number, score: number, detail?: string, block?: boolean) =>
    out.push({ layer: 'encoded_exfiltration', kind, start, end, score, replacement: '[REDACTED:encoded_exfiltration]', detail, block });
  if (s.plain_secrets) {
    for (const h of findSecrets(text))
      push(`secret_${h.kind}`, h.start, h.end, h.score, undefined, h.kind === 'private_key_pem' || h.kind === 'hex_private_key');
  }
  for (const blob of findEncodedBlobs(text)) {
    if (out.some((f) => blob.start < f.end && blob.end > f.start)) continue;
    const before = text.slice(Math.max(0, blob.start - 300), blob.start);
    if (DATA_URI.test(before)) continue;
    const inUrl = IN_URL.test(before);
    if (blob.printable >= 0.85) {
      const secrets = findSecrets(blob.decoded);
      if (secrets.length) {
        push(`encoded_secret`, blob.start, blob.end, 0.97, `${blob.encoding}: ${secrets.map((x) => x.kind).join(', ')}`, true);
        continue;
      }
      const pii = detectors.pii.find(blob.decoded, ENCODED_PII);
      if (pii.length) {
        push('encoded_pii', blob.start, blob.end, 0.9, `${blob.encoding}: ${[...new Set(pii.map((x) => x.kind))].join(', ')}`);
        continue;
      }
      const inj = detectors.injection.match(blob.decoded);
      if (inj.length) {
        push('encoded_injection', blob.start, blob.end, 0.9, `${blob.encoding}: ${inj[0].rule}`);
        continue;
      }
    }
    if (inUrl && blob.bytes >= 12) push('encoded_in_url', blob.start, blob.end, 0.75, blob.encoding);
    else if (blob.bytes >= s.max_opaque_bytes) push('opaque_blob', blob.start, blob.end, 0.65, `${blob.encoding}, ${blob.bytes} bytes`);
  }
  return out.filter((f) => f.score >= s.threshold);
}

export function createEncodedExfiltrationGuardrail(detectors: DecodedTextDetectors, overrides: Record<string, unknown> = {}) {
  return defineLayer<ExfiltrationSettings>(
    {
      name: 'encoded_exfiltration',
      description:
        'Base64/hex/percent payloads decoded and re-checked for secrets, PII and injections; API keys and private keys in output',
      defaultMode: 'redact',
      directions: ['output', 'tool_result'],
      order: 50,
      defaults: exfiltrationDefaults,
      validate: (s) => ({
        ...s,
        max_opaque_bytes: num(s.max_opaque_bytes, 'encoded_exfiltration.max_opaque_bytes', 16, 1 << 30),
        plain_secrets: s.plain_secrets !== false,
      }),
      build: (s) => (text: string) => findExfiltration(text, s, detectors),
    },
    overrides,
  );
}
