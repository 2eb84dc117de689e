// Check digits that turn "looks like an ID" into "is a valid ID": far fewer false positives than
// format-only patterns on order numbers, timestamps and hashes.

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Card brands by issuer prefix and length (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
export function cardBrand(d: string): string | null {
  const n = d.length;
  if (/^4/.test(d) && (n === 13 || n === 16 || n === 19)) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/.test(d) && n === 16) return 'mastercard';
  if (/^3[47]/.test(d) && n === 15) return 'amex';
  if (/^(6011|65|64[4-9])/.test(d) && n >= 16 && n <= 19) return 'discover';
  if (/^35(2[89]|[3-8])/.test(d) && n >= 16 && n <= 19) return 'jcb';
  if (/^3(0[0-5]|[68])/.test(d) && n >= 14 && n <= 19) return 'diners';
  if (/^62/.test(d) && n >= 16 && n <= 19) return 'unionpay';
  if (/^(5018|5020|5038|6304|6759|676[1-3])/.test(d) && n >= 12 && n <= 19) return 'maestro';
  return null;
}

/** ISO 13616 IBAN lengths per country. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

export function ibanValid(raw: string): boolean {
  const s = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(s)) return false;
  const len = IBAN_LENGTHS[s.slice(0, 2)];
  if (len === undefined || len !== s.length) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const v = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const c of v) rem = (rem * 10 + (c.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

// Verhoeff tables (Aadhaar check digit).
const VD = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VP = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
export function verhoeffValid(digits: string): boolean {
  let c = 0;
  const rev = digits.split('').reverse();
  for (let i = 0; i < rev.length; i++) c = VD[c][VP[i % 8][Number(rev[i])]]!;
  return c === 0;
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
/** Spanish DNI (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter). */
export function dniNieValid(raw: string): boolean {
  const s = raw.replace(/[\s-]/g, '').toUpperCase();
  let m = /^(\d{8})([A-Z])$/.exec(s);
  if (m) return DNI_LETTERS[Number(m[1]) % 23] === m[2];
  m = /^([XYZ])(\d{7})([A-Z])$/.exec(s);
  if (m) return DNI_LETTERS[Number('XYZ'.indexOf(m[1]) + m[2]) % 23] === m[3];
  return false;
}

/** French NIR (INSEE number): 13 digits + 2-digit key = 97 - (n mod 97); Corsica 2A/2B. */
export function nirValid(raw: string): boolean {
  const s = raw.replace(/\s+/g, '').toUpperCase();
  const m = /^([12]\d{4})(\d{2}|2A|2B)(\d{6})(\d{2})$/.exec(s);
  if (!m) return false;
  const dept = m[2] === '2A' ? '19' : m[2] === '2B' ? '18' : m[2];
  const n = BigInt(m[1] + dept + m[3]);
  return Number(97n - (n % 97n)) === Number(m[4]);
}
