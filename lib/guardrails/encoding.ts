// Finds base64, hex and percent-encoded blobs and decodes them, so other checks can look at what
// they hide. Work is capped: at most MAX_BLOBS blobs per text and MAX_DECODED bytes each.
export type Encoding = 'base64' | 'hex' | 'percent';

export interface EncodedBlob {
  start: number;
  end: number;
  encoding: Encoding;
  /** Decoded bytes as UTF-8 text (replacement chars where not valid). */
  decoded: string;
  /** Share of decoded characters that are printable text (1 = clean text). */
  printable: number;
  bytes: number;
}

const MAX_BLOBS = 32;
const MAX_DECODED = 64 * 1024;

// Base64 (standard or URL-safe) of at least 16 chars. The lookarounds keep us from starting
// inside a longer token; the length rule avoids backtracking on long runs.
const BASE64 = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])/g;
// Hex of at least 32 digits (16 bytes), optionally 0x-prefixed or \x-escaped.
const HEX = /(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{32,}(?![0-9A-Za-z])|(?:\\x[0-9a-fA-F]{2}){8,}/g;
const PERCENT = /(?:%[0-9a-fA-F]{2}){6,}/g;

function printableRatio(s: string): number {
  if (!s.length) return 0;
  let ok = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd) continue;
    if (c === 9 || c === 10 || c === 13 || (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && !(c >= 0xd800 && c <= 0xdfff))) ok++;
  }
  return ok / [...s].length;
}

/** A candidate is real base64 only if it mixes character classes like encoded data does. */
// Character classes by code: a regular-expression literal inside the loop below was a new
// RegExp object per character.
const isLowerCode = (c: number) => c >= 97 && c <= 122;
const isUpperOrDigitCode = (c: number) => (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

function looksLikeBase64(s: string): boolean {
  let len = s.length;
  while (len > 0 && s.charCodeAt(len - 1) === 61) len--;
  if (len % 4 === 1) return false;
  let hasUpper = false;
  let hasLower = false;
  let hasDigit = false;
  let flips = 0;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) hasUpper = true;
    else if (c >= 97 && c <= 122) hasLower = true;
    else if (c >= 48 && c <= 57) hasDigit = true;
    if (i > 0) {
      const p = s.charCodeAt(i - 1);
      if ((isLowerCode(p) && isUpperOrDigitCode(c)) || (isUpperOrDigitCode(p) && isLowerCode(c))) flips++;
    }
  }
  // Plain identifiers (camelCase words, paths) rarely have all three classes and many case flips.
  if (!(hasUpper && hasLower) && !(hasDigit && (hasUpper || hasLower))) return false;
  return flips >= len / 8;
}

/** Decodes one match: its bytes as text and their count, or null where it is not data of this encoding. */
type Decoder = (raw: string) => { decoded: string; bytes: number } | null;

function decodeHex(raw: string) {
  const digits = raw.startsWith('\\x') ? raw.replace(/\\x/g, '') : raw.replace(/^0x/, '');
  if (digits.length % 2) return null;
  const buf = Buffer.from(digits.slice(0, MAX_DECODED * 2), 'hex');
  return { decoded: buf.toString('utf8'), bytes: buf.length };
}

function decodeBase64(raw: string) {
  if (!looksLikeBase64(raw)) return null;
  const norm = raw.replace(/-/g, '+').replace(/_/g, '/');
  const buf = Buffer.from(norm.slice(0, Math.ceil((MAX_DECODED * 4) / 3)), 'base64');
  return buf.length ? { decoded: buf.toString('utf8'), bytes: buf.length } : null;
}

function decodePercent(raw: string) {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = Buffer.from(raw.replace(/%/g, ''), 'hex').toString('utf8');
  }
  return { decoded, bytes: raw.length / 3 };
}

/** In this order: a hex run is not read again as base64 (the character sets overlap). */
// The last entry says whether a text can hold a match at all: a text too short for a hex blob,
// or without "%", is not scanned for one.
const DECODERS: Array<[Encoding, RegExp, Decoder, (text: string) => boolean]> = [
  ['hex', HEX, decodeHex, (t) => t.length >= 32],
  ['base64', BASE64, decodeBase64, () => true],
  ['percent', PERCENT, decodePercent, (t) => t.includes('%')],
];

export function findEncodedBlobs(text: string): EncodedBlob[] {
  const out: EncodedBlob[] = [];
  // Indexed loops: this runs on every message of two layers.
  for (let k = 0; k < DECODERS.length; k++) {
    const [encoding, re, decode, possible] = DECODERS[k];
    if (!possible(text)) continue;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) && out.length < MAX_BLOBS) {
      const start = m.index;
      const end = start + m[0].length;
      let taken = false;
      for (let i = 0; i < out.length && !taken; i++) taken = start < out[i].end && end > out[i].start;
      if (taken) continue;
      const d = decode(m[0]);
      if (d) out.push({ start, end, encoding, decoded: d.decoded, printable: printableRatio(d.decoded), bytes: d.bytes });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
