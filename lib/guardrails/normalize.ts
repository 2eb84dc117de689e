// Undoes the cheap obfuscations attackers use to slip past text rules, while remembering where
// every output character came from so findings can point at the original text.
//   - invisible characters (zero-width, bidi controls, Unicode tags, variation selectors, soft hyphen) are dropped;
//   - compatibility forms (fullwidth, mathematical bold, circled letters) fold through NFKC/NFKD,
//     accents are stripped, everything is lower-cased;
//   - Cyrillic/Greek look-alikes fold to Latin only inside words that mix scripts (or that are
//     nothing but look-alikes in a Latin text), so genuine Russian or Greek stays readable;
//   - leetspeak digits/symbols fold to letters only inside words that also hold letters;
//   - runs of single letters ("i g n o r e", "i.g.n.o.r.e") collapse into one word.

/** Zero-width, bidi, tag, variation-selector and other default-ignorable code points. */
export function isInvisible(cp: number): boolean {
  return (
    cp === 0x00ad || // soft hyphen
    cp === 0x034f || // combining grapheme joiner
    cp === 0x061c || // arabic letter mark
    cp === 0x115f || cp === 0x1160 ||
    cp === 0x17b4 || cp === 0x17b5 ||
    (cp >= 0x180b && cp <= 0x180f) ||
    (cp >= 0x200b && cp <= 0x200f) || // ZWSP, ZWNJ, ZWJ, LRM, RLM
    (cp >= 0x202a && cp <= 0x202e) || // bidi embeddings/overrides
    (cp >= 0x2060 && cp <= 0x206f) || // word joiner, invisible operators, bidi isolates
    cp === 0x3164 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) || // variation selectors
    cp === 0xfeff ||
    cp === 0xffa0 ||
    (cp >= 0x1bca0 && cp <= 0x1bca3) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe0fff) // tags + variation selectors supplement
  );
}

/** Cyrillic and Greek letters that render like Latin ones. */
export const CONFUSABLES: Record<string, string> = {
  // Cyrillic lower / upper
  'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't',
  'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ї': 'i', 'ј': 'j', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y', 'һ': 'h', 'ɡ': 'g',
  'ӏ': 'l', 'ո': 'n', 'ս': 'u', 'օ': 'o',
  'А': 'a', 'В': 'b', 'Е': 'e', 'К': 'k', 'М': 'm', 'Н': 'h', 'О': 'o', 'Р': 'p', 'С': 'c', 'Т': 't', 'Х': 'x',
  'У': 'y', 'Ѕ': 's', 'І': 'i', 'Ј': 'j', 'Ү': 'y', 'Һ': 'h', 'Ԛ': 'q', 'Ԝ': 'w',
  // Greek lower / upper
  'α': 'a', 'β': 'b', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'γ': 'y',
  'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'i', 'Κ': 'k', 'Μ': 'm', 'Ν': 'n', 'Ο': 'o', 'Ρ': 'p',
  'Τ': 't', 'Υ': 'y', 'Χ': 'x',
};

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', '$': 's', '9': 'g' };

export interface NormalizedText {
  /** Folded text used for matching. */
  text: string;
  /** map[i] = offset in the original string of the code unit that produced text[i]; map[text.length] = original length. */
  map: number[];
  /** Counts of what was undone, so callers can weigh obfuscation itself as a signal. */
  stats: { invisible: number; confusable: number; leet: number; spaced: number; spacedLetters: number };
}

const CYR_GREEK = /[\u0370-\u03ff\u0400-\u052f]/;
const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const WORD_CHAR = /[\p{L}\p{N}@$]/u;

/** Folds one code point (no script decisions): NFKD, strip accents, lower-case. */
function foldChar(ch: string): string {
  if (ch.charCodeAt(0) < 0x80) return ch.toLowerCase();
  const ascii = ch.normalize('NFKD').replace(COMBINING, '');
  return ascii.toLowerCase();
}

// Several layers normalise the same message in a row: remember the last few results.
const cache: Array<[string, NormalizedText]> = [];

export function normalizeForMatching(input: string): NormalizedText {
  for (const [k, v] of cache) if (k === input) return v;
  const out = normalizeUncached(input);
  cache.push([input, out]);
  if (cache.length > 4) cache.shift();
  return out;
}

const foldCache = new Map<number, string>();
const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isAsciiDigit = (c: number) => c >= 48 && c <= 57;
/** Letter test with an ASCII fast path. */
function isLetterCh(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return isAsciiLetter(c);
  return /\p{L}/u.test(ch);
}
function isWordCh(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return isAsciiLetter(c) || isAsciiDigit(c) || c === 64 || c === 36;
  return WORD_CHAR.test(ch);
}

function normalizeUncached(input: string): NormalizedText {
  const stats = { invisible: 0, confusable: 0, leet: 0, spaced: 0, spacedLetters: 0 };
  // Pass 1: drop invisibles, fold compatibility forms, keep provenance.
  const chars: string[] = [];
  const src: number[] = [];
  for (let i = 0; i < input.length; ) {
    const cp = input.codePointAt(i)!;
    if (cp < 0x80) {
      chars.push(String.fromCharCode(cp >= 65 && cp <= 90 ? cp + 32 : cp));
      src.push(i);
      i++;
      continue;
    }
    const len = cp > 0xffff ? 2 : 1;
    if (isInvisible(cp)) {
      stats.invisible++;
      i += len;
      continue;
    }
    let folded = foldCache.get(cp);
    if (folded === undefined) {
      folded = foldChar(String.fromCodePoint(cp));
      if (foldCache.size < 20000) foldCache.set(cp, folded);
    }
    for (const f of folded) {
      chars.push(f);
      src.push(i);
    }
    i += len;
  }
  // Latin-dominant text decides whether an all-look-alike word is an attack or just Russian.
  let latinCount = 0;
  let otherCount = 0;
  for (const c of chars) {
    const code = c.charCodeAt(0);
    if (code >= 97 && code <= 122) latinCount++;
    else if (code >= 0x370 && code <= 0x52f) otherCount++;
  }
  const latinText = latinCount > otherCount * 3;

  // Pass 2: per word, script and leet folding.
  let w = 0;
  while (w < chars.length) {
    if (!isWordCh(chars[w]!)) {
      w++;
      continue;
    }
    let e = w;
    while (e < chars.length && isWordCh(chars[e]!)) e++;
    let hasLatin = false;
    let hasConf = false;
    let hasOther = false;
    let hasLetter = false;
    let hasLeet = false;
    for (let k = w; k < e; k++) {
      const c = chars[k]!;
      const code = c.charCodeAt(0);
      if (code < 0x80) {
        if (code >= 97 && code <= 122) {
          hasLatin = true;
          hasLetter = true;
        } else if (LEET[c] !== undefined) hasLeet = true;
        continue;
      }
      if (CONFUSABLES[c] !== undefined) hasConf = true;
      else if (CYR_GREEK.test(c)) hasOther = true;
      if (/\p{L}/u.test(c)) hasLetter = true;
    }
    if (hasConf && (hasLatin || (latinText && !hasOther))) {
      for (let k = w; k < e; k++) {
        const m = CONFUSABLES[chars[k]!];
        if (m) {
          chars[k] = m;
          stats.confusable++;
        }
      }
    }
    // Leet only inside words with letters, and not hex-looking tokens (0x..., hashes) or plain numbers.
    if (hasLeet && hasLetter && e - w <= 24 && !(chars[w] === '0' && chars[w + 1] === 'x')) {
      let letters = 0;
      for (let k = w; k < e; k++) if (/[a-z]/.test(chars[k]!)) letters++;
      if (letters >= 2 || e - w <= 6) {
        for (let k = w; k < e; k++) {
          const m = LEET[chars[k]!];
          if (m) {
            chars[k] = m;
            stats.leet++;
          }
        }
      }
    }
    w = e;
  }

  // Pass 3: collapse runs of >= 4 single letters separated by one separator ("i g n o r e").
  const outChars: string[] = [];
  const outSrc: number[] = [];
  const isLetter = (k: number) => k >= 0 && k < chars.length && isLetterCh(chars[k]!);
  const isSep = (c: string | undefined) => c === ' ' || c === '.' || c === '-' || c === '_' || c === '*' || c === '|' || c === '/';
  let k = 0;
  while (k < chars.length) {
    if (isLetter(k) && !isLetter(k - 1) && !isLetter(k + 1) && isSep(chars[k + 1]) && isLetter(k + 2) && !isLetter(k + 3)) {
      // Candidate run: letter sep letter sep letter ...
      const run: number[] = [k];
      let p = k;
      while (isSep(chars[p + 1]) && isLetter(p + 2) && !isLetter(p + 3)) {
        p += 2;
        run.push(p);
        // A double space inside a spaced run usually marks a word break ("S a y  t h a t").
        if (chars[p + 1] === ' ' && chars[p + 2] === ' ') break;
      }
      if (run.length >= 4) {
        stats.spaced++;
        stats.spacedLetters += run.length;
        for (const r of run) {
          outChars.push(chars[r]!);
          outSrc.push(src[r]!);
        }
        k = p + 1;
        continue;
      }
    }
    outChars.push(chars[k]!);
    outSrc.push(src[k]!);
    k++;
  }
  outSrc.push(input.length);
  return { text: outChars.join(''), map: outSrc, stats };
}

/** Maps a [start,end) span of normalized text back to the original string. */
export function mapSpan(n: NormalizedText, start: number, end: number, original: string): [number, number] {
  const s = n.map[Math.min(Math.max(start, 0), n.map.length - 1)] ?? 0;
  if (end <= start) return [s, s];
  const last = n.map[Math.min(end - 1, n.map.length - 1)] ?? s;
  const c = original.charCodeAt(last);
  const e = last + (c >= 0xd800 && c <= 0xdbff ? 2 : 1);
  return [s, Math.min(Math.max(e, s), original.length)];
}

/** Letters-only form for phrase checks that must survive separators. */
export function squash(text: string): string {
  return text.replace(/[^\p{L}]+/gu, '');
}
