// PII layer: person names, e-mail addresses, phone numbers, payment cards, national identifiers
// (US SSN, UK NINO, Spanish DNI/NIE, French NIR, Indian Aadhaar and PAN), IBANs and IP addresses,
// each with its span so the chain can redact it. Checksums gate the numeric ones (Luhn for cards,
// mod-97 for IBAN and NIR, Verhoeff for Aadhaar, the DNI letter), so order numbers, timestamps and
// hashes are not reported. Phone numbers need an international "+" form, the North-American
// layout, or a nearby word such as "phone"/"tel"; dates, versions and EVM hex never match.
import { isIPv6 } from 'node:net';
import type { GuardrailFinding } from '../../kernel/index.ts';
import { cardBrand, dniNieValid, ibanValid, luhnValid, nirValid, verhoeffValid } from './checksums.ts';
import { defineLayer, num, strList } from './layer.ts';
import { findNames } from './names.ts';

export const PII_ENTITIES = ['person', 'email', 'phone', 'credit_card', 'national_id', 'iban', 'ip_address'] as const;
export type PiiEntity = (typeof PII_ENTITIES)[number];

export interface PiiSettings extends Record<string, unknown> {
  /** Entity kinds to look for. */
  entities: string[];
  /** Minimum score for a span to count. */
  threshold: number;
  /** Exact strings never reported (e.g. a support address the assistant may show). */
  allow: string[];
  /** Report private-range and loopback IPs too (off: they identify no one outside the network). */
  private_ips: boolean;
}

export const piiDefaults: PiiSettings = { entities: [...PII_ENTITIES], threshold: 0.5, allow: [], private_ips: false };

const REPLACEMENT: Record<PiiEntity, string> = {
  person: '[PERSON]',
  email: '[EMAIL]',
  phone: '[PHONE]',
  credit_card: '[CREDIT_CARD]',
  national_id: '[NATIONAL_ID]',
  iban: '[IBAN]',
  ip_address: '[IP_ADDRESS]',
};

interface Span {
  entity: PiiEntity;
  kind: string;
  start: number;
  end: number;
  score: number;
}

const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,8}\p{L}{2,24}(?![\p{L}\p{N}-])/gu;
const PHONE_INTL = /(?<![\w+])\+\d{1,3}(?:[ .\-\u00a0]?\(?\d{1,5}\)?){1,6}(?![\w])/g;
const PHONE_NANP = /(?<![\w+\-])(?:\(\d{3}\)[ .\-]?|\d{3}[.\-])\d{3}[ .\-]\d{4}(?![\w\-])/g;
const PHONE_LOCAL = /(?<![\w+.\-])0\d{1,4}[ /.\-]?\d{2,8}(?:[ .\-]\d{2,6}){0,3}(?![\w\-])/g;
const PHONE_CONTEXT = /(?:phone|tel(?:ephone)?|mobile|cell|call|fax|whatsapp|sms|text me|ring|telefon|teléfono|telefono|téléphone|portable|handy|móvil|movil|cellulare|celular|numéro|numero|número|nummer)\b[^\n]{0,25}$/iu;
const CARD = /(?<![\d-])\d(?:[ \-]?\d){11,18}(?![\d])/g;
const SSN = /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g;
const SSN_BARE = /(?<!\d)(?!000|666|9\d\d)\d{3}(?!00)\d{2}(?!0000)\d{4}(?!\d)/g;
const SSN_CONTEXT = /(?:ssn|social security)[^\n]{0,20}$/i;
const NINO = /(?<![A-Za-z0-9])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])/g;
const DNI = /(?<![A-Za-z0-9])(?:\d{8}|[XYZ]-?\d{7})-?[A-HJ-NP-TV-Z](?![A-Za-z0-9])/g;
const NIR = /(?<![\d])[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\d])/g;
const AADHAAR = /(?<![\d])[2-9]\d{3} ?\d{4} ?\d{4}(?![\d])/g;
const PAN = /(?<![A-Za-z0-9])[A-Z]{3}[PCHABGJLFTE][A-Z]\d{4}[A-Z](?![A-Za-z0-9])/g;
const IBAN = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![A-Za-z0-9])/g;
const IPV4 = /(?<![\d.\w])(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(?![\d]|\.\d)/g;
const IPV6 = /(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:])/g;

function each(re: RegExp, text: string, fn: (m: RegExpExecArray) => void, cap = 500) {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = re.exec(text)) && n++ < cap) {
    fn(m);
    if (m[0].length === 0) re.lastIndex++;
  }
}

function privateIPv4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number) as [number, number];
  return a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || a >= 224;
}

export function findPii(text: string, s: PiiSettings): Span[] {
  const on = new Set(s.entities);
  const spans: Span[] = [];
  const push = (entity: PiiEntity, kind: string, start: number, end: number, score: number) => {
    if (on.has(entity)) spans.push({ entity, kind, start, end, score });
  };
  each(EMAIL, text, (m) => push('email', 'email', m.index, m.index + m[0].length, 0.95));
  each(IBAN, text, (m) => {
    if (ibanValid(m[0])) push('iban', 'iban', m.index, m.index + m[0].length, 0.95);
  });
  each(CARD, text, (m) => {
    const d = m[0].replace(/\D/g, '');
    // Mixed separators ("1234 5678-9012") are rarely cards; a uniform layout is.
    const seps = new Set(m[0].replace(/\d/g, ''));
    if (seps.size <= 1 && d.length >= 12 && d.length <= 19 && luhnValid(d) && cardBrand(d)) push('credit_card', `credit_card_${cardBrand(d)}`, m.index, m.index + m[0].length, 0.95);
  });
  each(SSN, text, (m) => push('national_id', 'us_ssn', m.index, m.index + m[0].length, 0.9));
  each(SSN_BARE, text, (m) => {
    if (SSN_CONTEXT.test(text.slice(Math.max(0, m.index - 40), m.index))) push('national_id', 'us_ssn', m.index, m.index + m[0].length, 0.85);
  });
  each(NINO, text, (m) => push('national_id', 'uk_nino', m.index, m.index + m[0].length, 0.85));
  each(DNI, text, (m) => {
    if (dniNieValid(m[0])) push('national_id', /^[XYZ]/.test(m[0]) ? 'es_nie' : 'es_dni', m.index, m.index + m[0].length, 0.9);
  });
  each(NIR, text, (m) => {
    if (nirValid(m[0])) push('national_id', 'fr_nir', m.index, m.index + m[0].length, 0.9);
  });
  each(AADHAAR, text, (m) => {
    const d = m[0].replace(/\s/g, '');
    if (verhoeffValid(d) && !luhnValid(d)) push('national_id', 'in_aadhaar', m.index, m.index + m[0].length, 0.85);
    else if (verhoeffValid(d)) push('national_id', 'in_aadhaar', m.index, m.index + m[0].length, 0.7);
  });
  each(PAN, text, (m) => push('national_id', 'in_pan', m.index, m.index + m[0].length, 0.8));
  each(IPV4, text, (m) => {
    const before = text.slice(Math.max(0, m.index - 12), m.index);
    if (/(?:^|[^a-z])(?:v|version|ver\.?|release|node|solidity|pragma)\s*[:=^~]?\s*$/i.test(before)) return;
    if (!s.private_ips && privateIPv4(m[0])) return;
    push('ip_address', 'ipv4', m.index, m.index + m[0].length, 0.85);
  });
  each(IPV6, text, (m) => {
    const v = m[0];
    if ((v.match(/:/g) ?? []).length < 2 || !isIPv6(v)) return;
    if (!s.private_ips && (/^(?:::1?|fe80:|fc|fd)/i.test(v))) return;
    push('ip_address', 'ipv6', m.index, m.index + v.length, 0.85);
  });
  each(PHONE_INTL, text, (m) => {
    const d = m[0].replace(/\D/g, '');
    if (d.length >= 8 && d.length <= 15) push('phone', 'phone', m.index, m.index + m[0].length, 0.9);
  });
  each(PHONE_NANP, text, (m) => push('phone', 'phone', m.index, m.index + m[0].length, 0.85));
  each(PHONE_LOCAL, text, (m) => {
    const d = m[0].replace(/\D/g, '');
    if (d.length < 7 || d.length > 13) return;
    if (/^\d{4}-\d{2}-\d{2}/.test(m[0]) || /^0\d\.\d/.test(m[0])) return;
    if (PHONE_CONTEXT.test(text.slice(Math.max(0, m.index - 40), m.index))) push('phone', 'phone', m.index, m.index + m[0].length, 0.8);
  });
  if (on.has('person')) {
    for (const n of findNames(text)) push('person', 'person', n.start, n.end, n.score);
  }
  return resolveOverlaps(spans.filter((x) => x.score >= s.threshold && !s.allow.includes(text.slice(x.start, x.end))));
}

/** Keeps the strongest of overlapping spans (an IBAN beats the phone number inside it). */
function resolveOverlaps(spans: Span[]): Span[] {
  spans.sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Span[] = [];
  for (const sp of spans) {
    if (!kept.some((k) => sp.start < k.end && sp.end > k.start)) kept.push(sp);
  }
  return kept.sort((a, b) => a.start - b.start);
}

export function createPiiGuardrail(overrides: Record<string, unknown> = {}) {
  return defineLayer<PiiSettings>(
    {
      name: 'pii',
      description: 'Names, e-mail, phone numbers, payment cards (Luhn), national IDs (SSN, NINO, DNI/NIE, NIR, Aadhaar, PAN), IBAN (mod-97), IP addresses',
      defaultMode: 'redact',
      directions: ['input', 'output', 'tool_args', 'tool_result'],
      order: 60,
      defaults: piiDefaults,
      validate(s) {
        const entities = strList(s.entities, 'pii.entities');
        const bad = entities.filter((e) => !(PII_ENTITIES as readonly string[]).includes(e));
        if (bad.length) throw new Error(`pii.entities: unknown ${bad.join(', ')}; use ${PII_ENTITIES.join(', ')}`);
        return { ...s, entities, threshold: num(s.threshold, 'pii.threshold', 0, 1), allow: strList(s.allow, 'pii.allow'), private_ips: s.private_ips === true };
      },
      build(s) {
        return (text: string): GuardrailFinding[] =>
          findPii(text, s).map((x) => ({ layer: 'pii', kind: x.kind, start: x.start, end: x.end, score: x.score, replacement: REPLACEMENT[x.entity] }));
      },
    },
    overrides,
  );
}
