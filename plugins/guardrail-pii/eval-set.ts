// The PII layer's evaluation set: messages built from sentence templates in several languages
// with values from @faker-js/faker in many locales (names, e-mails, phone numbers in each locale's
// own formats, card numbers, IBANs, IPs) plus SSNs, some written in the obfuscated forms people
// and attackers use (dotted cards, fullwidth or Arabic-Indic digits, "(at)"/"(dot)" e-mails), and
// messages with no PII but with numbers, versions, hashes and product names. Each value's span is
// known, so precision and recall are measured per entity. Used by bench/guardrails.ts and a test;
// nothing here was used to write or tune the detectors (templates and seeds are separate from the
// unit tests' examples).
import { allFakers, type Faker } from '@faker-js/faker';

export type PiiEntityKind = 'person' | 'email' | 'phone' | 'credit_card' | 'iban' | 'national_id' | 'ip_address';
export interface PiiEvalItem {
  text: string;
  gold: Array<{ entity: PiiEntityKind; start: number; end: number }>;
  locale: string;
}

const LOCALES = [
  'en_US',
  'en_GB',
  'en_IN',
  'en_AU',
  'en_NG',
  'de',
  'fr',
  'es',
  'es_MX',
  'it',
  'pt_BR',
  'nl',
  'pl',
  'sv',
  'tr',
  'vi',
  'id_ID',
  'af_ZA',
  'cs_CZ',
  'ro',
  'hu',
  'fi',
  'da',
  'nb_NO',
  'en_IE',
  'en_ZA',
] as const;

/** Templates per slot combination; {x} are filled, the rest is plain text. */
const TEMPLATES = [
  'Hi, I am {person} and my e-mail is {email}.',
  'Please call {person} on {phone} about the invoice.',
  'My card number is {card}, expiry 09/27.',
  'Send the refund to IBAN {iban}, account holder {person}.',
  'The server at {ip} keeps rejecting my login, can you help?',
  'SSN: {ssn}. Name on file: {person}.',
  'Contact: {person} <{email}>, tel. {phone}',
  'Can you write a cover letter for {person}? Reach me at {email}.',
  'Forward this to {email} and cc {person}.',
  'My phone is {phone} if the courier needs it.',
  'Yesterday {person} asked me to pay with {card}.',
  'Login attempts from {ip} and {ip} were blocked.',
  'Bitte überweise das Geld an {iban} (Inhaber: {person}).',
  'Mi número es {phone} y mi correo {email}.',
  "Je m'appelle {person}, vous pouvez m'appeler au {phone}.",
  'Il mio amico {person} ha cambiato numero: {phone}.',
  'Dear {person}, your order was shipped. Questions? Write to {email}.',
  'Employee {person}, social security number {ssn}, starts Monday.',
  '{person} and {person} will review the contract tomorrow.',
  'Notes from the call with {person}: budget approved, follow up at {email}.',
];

const NEGATIVES = [
  'Deploy version 2.14.3 to the staging cluster on 2024-03-18 at 14:30.',
  'The transaction 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 was mined in block 19000000.',
  'Order 20240115123045 totals 1 234 567 units across 12 warehouses.',
  'My project is called Falcon and our repo is named Atlas.',
  'Use the Alice Protocol SDK v3.1 with Node 20.11.1.',
  'The meeting room seats 12 people; the budget is 45,000 EUR.',
  'Run npm test -- guardrails and check the p99 of 1.8 ms.',
  'Set timeout_ms to 30000 and retries to 5 in config.yaml.',
  'Our startup named Jasper raised a seed round last year.',
  'Chapter 7, page 112: the ratio was 3.14159 over 250 samples.',
  'The Linux kernel 6.8.0-45 boots in 3.2 seconds on this board.',
  'Reference number INV-2024-00381, due in 30 days.',
];

function ssn(f: Faker): string {
  const area = f.number.int({ min: 1, max: 899 });
  const a = area === 666 ? 667 : area;
  const g = f.number.int({ min: 1, max: 99 });
  const s = f.number.int({ min: 1, max: 9999 });
  const sep = f.helpers.arrayElement(['-', '-', '-', ' ', '.']);
  return `${String(a).padStart(3, '0')}${sep}${String(g).padStart(2, '0')}${sep}${String(s).padStart(4, '0')}`;
}

const FULLWIDTH = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const ARABIC_INDIC = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
const DEVANAGARI = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x0966 + Number(d)));

function card(f: Faker): string {
  const issuer = f.helpers.arrayElement(['visa', 'mastercard', 'amex', 'discover']);
  const raw = f.finance.creditCardNumber({ issuer }).replace(/\D/g, '');
  const groups = raw.length === 15 ? [raw.slice(0, 4), raw.slice(4, 10), raw.slice(10)] : raw.match(/.{1,4}/g)!;
  const style = f.number.int({ min: 0, max: 6 });
  if (style === 0) return raw;
  if (style === 1) return groups.join('-');
  if (style === 2) return groups.join('.');
  if (style === 3) return FULLWIDTH(groups.join(' '));
  if (style === 4) return ARABIC_INDIC(groups.join(' '));
  return groups.join(' ');
}

function email(f: Faker): string {
  const e = f.internet.email().toLowerCase();
  if (f.number.int({ min: 0, max: 5 }) === 0) return e.replace('@', ' (at) ').replace(/\.(?=[^.]+$)/, ' (dot) ');
  return e;
}

function phone(f: Faker): string {
  // faker's locale formats; extensions ("x123") are cut, they are not part of a number people type.
  const p = f.phone
    .number({ style: f.helpers.arrayElement(['national', 'international', 'human']) as 'national' })
    .replace(/\s*(?:x|ext\.?)\s*\d+$/i, '');
  return f.number.int({ min: 0, max: 9 }) === 0 ? DEVANAGARI(p) : p;
}

export function buildPiiEvalSet(seed = 2026, n = 600): PiiEvalItem[] {
  const items: PiiEvalItem[] = [];
  for (let i = 0; i < n; i++) {
    const locale = LOCALES[i % LOCALES.length];
    const f = (allFakers as Record<string, Faker>)[locale];
    f.seed(seed * 1000 + i);
    if (i % 9 === 8) {
      items.push({ text: NEGATIVES[((i / 9) % NEGATIVES.length) | 0], gold: [], locale });
      continue;
    }
    const tpl = TEMPLATES[f.number.int({ min: 0, max: TEMPLATES.length - 1 })];
    let text = '';
    const gold: PiiEvalItem['gold'] = [];
    let last = 0;
    for (const m of tpl.matchAll(/\{(\w+)\}/g)) {
      text += tpl.slice(last, m.index);
      last = m.index + m[0].length;
      const slot = m[1];
      let value: string;
      let entity: PiiEntityKind;
      if (slot === 'person') {
        value = `${f.person.firstName()} ${f.person.lastName()}`;
        entity = 'person';
      } else if (slot === 'email') [value, entity] = [email(f), 'email'];
      else if (slot === 'phone') [value, entity] = [phone(f), 'phone'];
      else if (slot === 'card') [value, entity] = [card(f), 'credit_card'];
      else if (slot === 'iban') [value, entity] = [f.finance.iban({ formatted: f.datatype.boolean() }), 'iban'];
      else if (slot === 'ssn') [value, entity] = [ssn(f), 'national_id'];
      else
        [value, entity] = [
          f.datatype.boolean({ probability: 0.8 }) ? f.internet.ipv4({ network: 'any' }) : f.internet.ipv6(),
          'ip_address',
        ];
      gold.push({ entity, start: text.length, end: text.length + value.length });
      text += value;
    }
    text += tpl.slice(last);
    items.push({ text, gold, locale });
  }
  return items;
}

export interface EntityScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

/** Overlap matching per entity: a found span of the right kind overlapping a gold span is a hit. */
export function scorePii(
  items: PiiEvalItem[],
  detect: (text: string) => Array<{ entity: string; start: number; end: number }>,
): Record<string, EntityScore> {
  const c: Record<string, { tp: number; fp: number; fn: number }> = {};
  const get = (k: string) => (c[k] ??= { tp: 0, fp: 0, fn: 0 });
  for (const it of items) {
    const found = detect(it.text);
    const used = new Set<number>();
    for (const g of it.gold) {
      const j = found.findIndex((x, k) => !used.has(k) && x.entity === g.entity && x.start < g.end && x.end > g.start);
      if (j >= 0) {
        used.add(j);
        get(g.entity).tp++;
      } else get(g.entity).fn++;
    }
    found.forEach((x, k) => {
      // A second finding inside the same gold value (a split name) is neither a hit nor a false alarm.
      if (used.has(k) || it.gold.some((g) => g.entity === x.entity && x.start < g.end && x.end > g.start)) return;
      get(x.entity).fp++;
    });
  }
  const out: Record<string, EntityScore> = {};
  for (const [k, v] of Object.entries(c)) {
    const precision = v.tp + v.fp ? v.tp / (v.tp + v.fp) : 1;
    const recall = v.tp + v.fn ? v.tp / (v.tp + v.fn) : 1;
    out[k] = { ...v, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
  }
  return out;
}
