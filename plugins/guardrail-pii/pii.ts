// PII layer: person names, e-mail addresses, phone numbers, payment cards, national identifiers
// (US SSN, UK NINO, Spanish DNI/NIE, French NIR, Indian Aadhaar and PAN), IBANs and IP addresses,
// each with its span so the chain can redact it. Checksums gate the numeric ones (Luhn for cards,
// mod-97 for IBAN and NIR, Verhoeff for Aadhaar, the DNI letter), so order numbers, timestamps and
// hashes are not reported. Phone numbers need an international "+" form, the North-American
// layout, or a nearby word such as "phone"/"tel"; dates, versions and EVM hex never match.
import { isIPv6 } from 'node:net';
import { isPossiblePhoneNumber, isValidPhoneNumber, type CountryCode } from 'libphonenumber-js';
import type { GuardrailFinding } from '../../kernel/index.ts';
import { cardBrand, dniNieValid, ibanValid, luhnValid, nirValid, verhoeffValid } from './checksums.ts';
import { defineLayer, strList } from '../../lib/guardrails/layer.ts';
import { findNames } from './names.ts';
import { normalizePii, originalSpan } from './pii-normalize.ts';

export const PII_ENTITIES = ['person', 'email', 'phone', 'credit_card', 'national_id', 'iban', 'ip_address'] as const;
export type PiiEntity = (typeof PII_ENTITIES)[number];

export interface PiiSettings extends Record<string, unknown> {
  /** Entity kinds to look for. */
  entities: string[];
  /** Minimum score for a span to count. */
  threshold: number;
  /** Exact strings never reported (e.g. a support address the assistant may show). */
  allow: string[];
  /** Report private-range (10/8, 172.16/12, 192.168/16, link-local, fc00::/7) and multicast IPs too: on by default,
   * since an internal address in a log still says where a person or machine is. Loopback and unspecified
   * addresses (127.x, 0.x, ::1, ::) are never reported: they identify nothing. */
  private_ips: boolean;
}

export const piiDefaults: PiiSettings = { entities: [...PII_ENTITIES], threshold: 0.5, allow: [], private_ips: true };

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

const EMAIL =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,8}\p{L}{2,24}(?![\p{L}\p{N}-])/gu;
// Phone candidates: an international "+" form, or digit groups joined by separators (with an
// optional "(area)" and a leading "1-"/"0"), or a bare run of 7-13 digits next to a word such as
// "phone". libphonenumber-js then decides whether the digits are a valid number (for the "+"
// form on its own, for the others in one of PHONE_COUNTRIES).
const PHONE_INTL = /(?<![\w+])(?:\+|00)\d{1,3}(?:[ .\-/\u00a0]?\(?\d{1,5}\)?){1,6}(?![\w])/g;
// The whole run of digit groups is the candidate: no digit group may touch it on either side.
const PHONE_GROUPED = /(?<![\w+./-]|\d[ .-])(?:1[ .-])?(?:\(\d{2,5}\)[ .-]?|\d{2,6}[ ./-])\d{2,8}(?:[ .-]\d{2,6}){0,3}(?![\w/-]|[ .,-]\d)/g;
/** The North-American layouts, "(415) 555-2671", "415-555-2671", "415.555.2671": a phone even with a fictional area code. */
const NANP_LAYOUT = /^(?:1[ .-])?(?:\(\d{3}\)[ .-]?|\d{3}([.-]))\d{3}[ .-]\d{4}$/;
/** "1 234 567", "12.345.678": thousands separators, an amount. */
const THOUSANDS = /^\d{1,3}(?:([ .])\d{3})(?:\1\d{3})*$/;
const PHONE_BARE = /(?<![\w+.-])\d{7,13}(?![\w-]|[.,]\d)/g;
/** Countries whose numbering plans decide national numbers, most likely first. */
const PHONE_COUNTRIES: CountryCode[] = [
  'US',
  'GB',
  'DE',
  'FR',
  'IN',
  'ES',
  'IT',
  'NL',
  'BR',
  'AU',
  'MX',
  'PL',
  'SE',
  'CH',
  'AT',
  'BE',
  'IE',
  'ZA',
  'NG',
  'KE',
  'PH',
  'ID',
  'TR',
  'JP',
  'CN',
  'KR',
  'RU',
  'PT',
  'DK',
  'NO',
  'FI',
  'AR',
  'CO',
  'EG',
  'PK',
];
// "My number is ...": a possessive before "number" names a phone ("the order number" does not).
const PHONE_CONTEXT =
  /(?:(?:my|our|his|her|their|your) (?:new |own |direct |private )?number|phone|tel(?:ephone)?|mobile|cell|call|fax|whatsapp|appeler|appelez|llamar|llama|llámame|chiamare|chiamami|anrufen|ruf|ligar|liga|bellen|bel|zadzwoń|zadzwon|ara|arayın|gọi|hubungi|telp|hp|wa|contact|reach|kontakt|numer|número|numero|nº|no\.|nr\.?|sms|text me|ring|telefon|teléfono|telefono|téléphone|portable|handy|móvil|movil|cellulare|celular|numéro|numero|número|nummer)\b[^\n]{0,25}$/iu;
// Digits touching letters are part of an identifier (a hash, "0x…", a SKU), not a card number.
const CARD = /(?<![\dA-Za-z\-./_])\d(?:[ .\-_/]?\d){11,18}(?![\dA-Za-z]|[.\-_/]\d)/g;
// 3-2-4 digits with one separator used throughout ("123-45-6789", "123 45 6789", "123.45.6789").
const SSN = /(?<![\d\-./_])(?!000|666|9\d\d)\d{3}([ .\-_/])(?!00)\d{2}\1(?!0000)\d{4}(?![\d]|[.\-_/]\d)/g;
const SSN_BARE = /(?<!\d)(?!000|666|9\d\d)\d{3}(?!00)\d{2}(?!0000)\d{4}(?!\d)/g;
const SSN_CONTEXT = /(?:ssn|social security)[^\n]{0,20}$/i;
const NINO = /(?<![A-Za-z0-9])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])/g;
const DNI = /(?<![A-Za-z0-9])(?:\d{8}|[XYZ]-?\d{7})-?[A-HJ-NP-TV-Z](?![A-Za-z0-9])/g;
const NIR = /(?<![\d])[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\d])/g;
const AADHAAR = /(?<![\d])[2-9]\d{3} ?\d{4} ?\d{4}(?![\d])/g;
const PAN = /(?<![A-Za-z0-9])[A-Z]{3}[PCHABGJLFTE][A-Z]\d{4}[A-Z](?![A-Za-z0-9])/g;
// Upper or lower case ("ch93 0076 ..."), as typed; mod-97 and the country's length decide.
const IBAN = /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]){11,30}(?![A-Za-z0-9])/g;
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
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || a >= 224;
}
const nowhereIPv4 = (ip: string) => ip.startsWith('127.') || ip.startsWith('0.') || ip === '255.255.255.255';

/** Whether a digit string is a valid phone number: as written when international, else in one of PHONE_COUNTRIES. */
function validPhone(candidate: string, loose = false): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return false;
  // Loose (a phone layout or a "phone:" label next to it): a possible number, as test data and
  // fictional numbers (555...) are; otherwise a valid one.
  const check = loose ? isPossiblePhoneNumber : isValidPhoneNumber;
  if (/^\s*(?:\+|00)/.test(candidate)) return check('+' + candidate.replace(/^\s*(?:\+|00)/, ''));
  for (const c of PHONE_COUNTRIES) if (check(candidate, c)) return true;
  return false;
}

/**
 * Length of the valid IBAN that `candidate` starts with, or 0. The pattern may run on into the
 * words after it ("ch93 0076 2011 6238 5295 7 thanks"): shorter prefixes ending at a space are tried too.
 */
function ibanLength(candidate: string): number {
  for (let end = candidate.length; end > 0; end = candidate.lastIndexOf(' ', end - 1)) {
    if (ibanValid(candidate.slice(0, end))) return end;
  }
  return 0;
}

function countDigits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

const DATE_LIKE = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/;
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/;

export function findPii(original: string, s: PiiSettings): Span[] {
  // Detection runs on the normalised text (NFKC, ASCII digits, no invisibles, spelled-out "@");
  // spans are mapped back to the original at the end.
  const norm = normalizePii(original);
  const text = norm.text;
  const on = new Set(s.entities);
  const spans: Span[] = [];
  const push = (entity: PiiEntity, kind: string, start: number, end: number, score: number) => {
    if (on.has(entity)) spans.push({ entity, kind, start, end, score });
  };
  // Each pattern below needs at least so many ASCII digits (or an "@", ":" or "."): a text with
  // fewer cannot match it, so it is not scanned (most chat text has few or no digits).
  const digits = countDigits(text);
  if (text.includes('@')) each(EMAIL, text, (m) => push('email', 'email', m.index, m.index + m[0].length, 0.95));
  if (digits >= 2)
    each(IBAN, text, (m) => {
      const len = ibanLength(m[0]);
      if (len) push('iban', 'iban', m.index, m.index + len, 0.95);
    });
  if (digits >= 12)
    each(CARD, text, (m) => {
      const d = m[0].replace(/\D/g, '');
      // Mixed separators ("1234 5678-9012") are rarely cards; a uniform layout is.
      const seps = new Set(m[0].replace(/\d/g, ''));
      if (seps.size <= 1 && d.length >= 12 && d.length <= 19 && luhnValid(d) && cardBrand(d))
        push('credit_card', `credit_card_${cardBrand(d)}`, m.index, m.index + m[0].length, 0.95);
    });
  if (digits >= 9) each(SSN, text, (m) => push('national_id', 'us_ssn', m.index, m.index + m[0].length, m[1] === '-' ? 0.9 : 0.8));
  if (digits >= 9)
    each(SSN_BARE, text, (m) => {
      if (SSN_CONTEXT.test(text.slice(Math.max(0, m.index - 40), m.index)))
        push('national_id', 'us_ssn', m.index, m.index + m[0].length, 0.85);
    });
  if (digits >= 6) each(NINO, text, (m) => push('national_id', 'uk_nino', m.index, m.index + m[0].length, 0.85));
  if (digits >= 7)
    each(DNI, text, (m) => {
      if (dniNieValid(m[0])) push('national_id', /^[XYZ]/.test(m[0]) ? 'es_nie' : 'es_dni', m.index, m.index + m[0].length, 0.9);
    });
  if (digits >= 13)
    each(NIR, text, (m) => {
      if (nirValid(m[0])) push('national_id', 'fr_nir', m.index, m.index + m[0].length, 0.9);
    });
  if (digits >= 12)
    each(AADHAAR, text, (m) => {
      const d = m[0].replace(/\s/g, '');
      if (verhoeffValid(d) && !luhnValid(d)) push('national_id', 'in_aadhaar', m.index, m.index + m[0].length, 0.85);
      else if (verhoeffValid(d)) push('national_id', 'in_aadhaar', m.index, m.index + m[0].length, 0.7);
    });
  if (digits >= 4) each(PAN, text, (m) => push('national_id', 'in_pan', m.index, m.index + m[0].length, 0.8));
  if (digits >= 4 && text.includes('.'))
    each(IPV4, text, (m) => {
      const before = text.slice(Math.max(0, m.index - 12), m.index);
      if (/(?:^|[^a-z])(?:v|version|ver\.?|release|node|solidity|pragma)\s*[:=^~]?\s*$/i.test(before)) return;
      if (nowhereIPv4(m[0]) || (!s.private_ips && privateIPv4(m[0]))) return;
      push('ip_address', 'ipv4', m.index, m.index + m[0].length, 0.85);
    });
  if (text.includes(':'))
    each(IPV6, text, (m) => {
      const v = m[0];
      if ((v.match(/:/g) ?? []).length < 2 || !isIPv6(v)) return;
      if (/^::1?$/.test(v) || (!s.private_ips && /^(?:fe80:|fc|fd)/i.test(v))) return;
      push('ip_address', 'ipv6', m.index, m.index + v.length, 0.85);
    });
  if (on.has('phone')) {
    // Digit groups inside an IBAN or a card found above are not phone numbers, and validating
    // them against every country is the layer's costliest step.
    const inAccount = (a: number, z: number) =>
      spans.some((x) => (x.entity === 'iban' || x.entity === 'credit_card') && x.start <= a && z <= x.end);
    if (digits >= 2)
      each(PHONE_INTL, text, (m) => {
        if (inAccount(m.index, m.index + m[0].length)) return;
        const context = PHONE_CONTEXT.test(text.slice(Math.max(0, m.index - 40), m.index));
        if (validPhone(m[0], context)) push('phone', 'phone', m.index, m.index + m[0].length, 0.9);
      });
    if (digits >= 4)
      each(PHONE_GROUPED, text, (m) => {
        const v = m[0];
        if (inAccount(m.index, m.index + v.length)) return;
        if (DATE_LIKE.test(v) || DOTTED_QUAD.test(v) || /^\d{1,2}\.\d/.test(v)) return;
        const context = PHONE_CONTEXT.test(text.slice(Math.max(0, m.index - 40), m.index));
        if (!context && THOUSANDS.test(v)) return;
        const nanp = NANP_LAYOUT.test(v);
        // Without a label, a national number starts with a trunk "0", an "(area)" or "1-", or has
        // the North-American layout; "2341 2341 2347" is more likely an ID or a reference.
        if (!context && !nanp && !/^(?:0|\(|1[ .-])/.test(v)) return;
        if (validPhone(v, context || nanp)) push('phone', 'phone', m.index, m.index + v.length, context ? 0.9 : 0.8);
      });
    if (digits >= 7)
      each(PHONE_BARE, text, (m) => {
        if (
          !inAccount(m.index, m.index + m[0].length) &&
          PHONE_CONTEXT.test(text.slice(Math.max(0, m.index - 40), m.index)) &&
          validPhone(m[0], true)
        )
          push('phone', 'phone', m.index, m.index + m[0].length, 0.8);
      });
  }
  if (on.has('person')) {
    for (const n of findNames(text)) push('person', 'person', n.start, n.end, n.score);
  }
  const kept = resolveOverlaps(spans.filter((x) => x.score >= s.threshold));
  const out: Span[] = [];
  for (const x of kept) {
    const [a, b] = originalSpan(norm, x.start, x.end);
    if (!s.allow.includes(original.slice(a, b)) && !s.allow.includes(text.slice(x.start, x.end))) out.push({ ...x, start: a, end: b });
  }
  return out;
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
      description:
        'Names, e-mail, phone numbers, payment cards (Luhn), national IDs (SSN, NINO, DNI/NIE, NIR, Aadhaar, PAN), IBAN (mod-97), IP addresses',
      defaultMode: 'redact',
      directions: ['input', 'output', 'tool_args', 'tool_result'],
      order: 60,
      defaults: piiDefaults,
      validate(s) {
        const entities = strList(s.entities, 'pii.entities');
        const bad = entities.filter((e) => !(PII_ENTITIES as readonly string[]).includes(e));
        if (bad.length) throw new Error(`pii.entities: unknown ${bad.join(', ')}; use ${PII_ENTITIES.join(', ')}`);
        return {
          ...s,
          entities,
          allow: strList(s.allow, 'pii.allow'),
          private_ips: s.private_ips === true,
        };
      },
      build(s) {
        return (text: string): GuardrailFinding[] =>
          findPii(text, s).map((x) => ({
            layer: 'pii',
            kind: x.kind,
            start: x.start,
            end: x.end,
            score: x.score,
            replacement: REPLACEMENT[x.entity],
          }));
      },
    },
    overrides,
  );
}
