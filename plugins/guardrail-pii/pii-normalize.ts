// Normalisation the PII layer runs before detection, with a map back to the original text so
// every span it reports is exact there:
//   - NFKC per character (fullwidth "４１１１" and "ｊｏｈｎ＠ｅｘａｍｐｌｅ．ｃｏｍ" become ASCII);
//   - every Unicode decimal digit (Arabic-Indic ٤, Devanagari ४, Bengali, Thai...) becomes 0-9;
//   - invisible characters (zero-width, soft hyphen, bidi controls) are dropped, so "41\u200b11" is 4111;
//   - spelled-out e-mail punctuation, "john.doe (at) example (dot) com" / "[at]" / "{dot}" / " at ... dot ",
//     becomes "john.doe@example.com" (spans still cover the whole spelled-out form).
// Separators inside numbers (". - _ /" and spaces) are handled by the numeric detectors, which
// read digit groups rather than a text with the separators removed: "4111.1111.1111.1111" is one
// card, "call 555 1234 or 4111 ..." stays two things.
import { isInvisible } from '../../lib/guardrails/normalize.ts';

export interface PiiText {
  text: string;
  /** start[i] = offset in the original of the character that produced text[i]; null: text is the original. */
  start: Int32Array | null;
  /** end[i] = end offset in the original of that character. */
  end: Int32Array | null;
}

const digitValue = new Map<number, number>();
const ND = /\p{Nd}/u;
/** The value of a Unicode decimal digit (they come in runs of ten from zero), or -1. */
function decimalValue(cp: number): number {
  const known = digitValue.get(cp);
  if (known !== undefined) return known;
  let v = -1;
  if (ND.test(String.fromCodePoint(cp))) {
    let z = cp;
    while (z > 0 && cp - z < 10 && ND.test(String.fromCodePoint(z - 1))) z--;
    v = (cp - z) % 10;
  }
  if (digitValue.size < 4096) digitValue.set(cp, v);
  return v;
}

const nfkcCache = new Map<number, string>();
function foldChar(cp: number): string {
  let f = nfkcCache.get(cp);
  if (f !== undefined) return f;
  const d = decimalValue(cp);
  f = d >= 0 ? String.fromCharCode(48 + d) : String.fromCodePoint(cp).normalize('NFKC');
  if (nfkcCache.size < 20000) nfkcCache.set(cp, f);
  return f;
}

// "(at)", "[at]", "{at}", "<at>", " at " -> "@"; the same for dot. Spaces around a bracketed form go too.
const SPELLED = /\s*[([{<]\s*(at|dot)\s*[)\]}>]\s*|(?<=[\p{L}\p{N}])\s+(at|dot)\s+(?=[\p{L}\p{N}])/giu;
// Bare " at "/" dot " only count in an address-shaped run: word at word dot word.
const BARE_ADDRESS = /[\p{L}\p{N}._%+-]+\s+at\s+[\p{L}\p{N}-]+(?:\s+dot\s+[\p{L}\p{N}-]+)+/giu;

const BRACKETED = /[([{<]\s*(?:at|dot)\s*[)\]}>]/i;
function hasSpelledAddress(t: string): boolean {
  if (BRACKETED.test(t)) return true;
  if (!/\sdot\s/i.test(t)) return false;
  BARE_ADDRESS.lastIndex = 0;
  return BARE_ADDRESS.test(t);
}

let startBuf = new Int32Array(4096);
let endBuf = new Int32Array(4096);
let unitBuf = new Uint16Array(4096);

export function normalizePii(input: string): PiiText {
  let plain = true;
  for (let i = 0; i < input.length; i++) {
    if (input.charCodeAt(i) >= 0x80) {
      plain = false;
      break;
    }
  }
  if (plain && !hasSpelledAddress(input)) return { text: input, start: null, end: null };
  // Folded UTF-16 units and their provenance in shared buffers (normalisation is synchronous and
  // the maps are read before the next call), so a message costs its text and nothing per character.
  const need = input.length * 4 + 8;
  if (startBuf.length < need) {
    startBuf = new Int32Array(need);
    endBuf = new Int32Array(need);
    unitBuf = new Uint16Array(need);
  }
  let n = 0;
  for (let i = 0; i < input.length;) {
    const cp = input.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    if (cp < 0x80) {
      unitBuf[n] = cp;
      startBuf[n] = i;
      endBuf[n++] = i + 1;
      i++;
      continue;
    }
    if (isInvisible(cp)) {
      i += len;
      continue;
    }
    const f = foldChar(cp);
    for (let k = 0; k < f.length; k++) {
      unitBuf[n] = f.charCodeAt(k);
      startBuf[n] = i;
      endBuf[n++] = i + len;
    }
    i += len;
  }
  // Most non-ASCII text (accented letters, CJK) is unchanged by the folding: then the original
  // string is the text and no map is needed.
  let same = n === input.length;
  for (let k = 0; same && k < n; k++) if (unitBuf[k] !== input.charCodeAt(k)) same = false;
  if (same && !hasSpelledAddress(input)) return { text: input, start: null, end: null };
  let out = '';
  for (let c = 0; c < n; c += 8192)
    out += String.fromCharCode.apply(null, unitBuf.subarray(c, Math.min(n, c + 8192)) as unknown as number[]);
  let start = startBuf.subarray(0, n);
  let end = endBuf.subarray(0, n);
  // Spelled-out "@" and "." (only when the text has them, so most messages skip this).
  if (hasSpelledAddress(out)) {
    BARE_ADDRESS.lastIndex = 0;
    const bare: Array<[number, number]> = [];
    let m: RegExpExecArray | null;
    while ((m = BARE_ADDRESS.exec(out))) bare.push([m.index, m.index + m[0].length]);
    let text = '';
    const s2: number[] = [];
    const e2: number[] = [];
    let last = 0;
    const start0 = start;
    const end0 = end;
    SPELLED.lastIndex = 0;
    while ((m = SPELLED.exec(out))) {
      const bracketed = m[1] !== undefined;
      if (!bracketed && !bare.some(([a, b]) => m!.index >= a && m!.index < b)) continue;
      for (let k = last; k < m.index; k++) {
        text += out[k];
        s2.push(start0[k]);
        e2.push(end0[k]);
      }
      const word = (m[1] ?? m[2]).toLowerCase();
      text += word === 'at' ? '@' : '.';
      s2.push(start0[m.index]);
      e2.push(end0[m.index + m[0].length - 1]);
      last = m.index + m[0].length;
    }
    if (last > 0) {
      for (let k = last; k < out.length; k++) {
        text += out[k];
        s2.push(start0[k]);
        e2.push(end0[k]);
      }
      out = text;
      start = Int32Array.from(s2);
      end = Int32Array.from(e2);
    }
  }
  return { text: out, start, end };
}

/** Original [start, end) of normalised [s, e). */
export function originalSpan(p: PiiText, s: number, e: number): [number, number] {
  if (!p.start || !p.end) return [s, e];
  if (e <= s) return [p.start[s] ?? 0, p.start[s] ?? 0];
  return [p.start[s], p.end[e - 1]];
}
