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
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
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
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  һ: 'h',
  ɡ: 'g',
  ӏ: 'l',
  ո: 'n',
  ս: 'u',
  օ: 'o',
  А: 'a',
  В: 'b',
  Е: 'e',
  К: 'k',
  М: 'm',
  Н: 'h',
  О: 'o',
  Р: 'p',
  С: 'c',
  Т: 't',
  Х: 'x',
  У: 'y',
  Ѕ: 's',
  І: 'i',
  Ј: 'j',
  Ү: 'y',
  Һ: 'h',
  Ԛ: 'q',
  Ԝ: 'w',
  // Greek lower / upper
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
};

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's', '9': 'g' };

export interface NormalizedText {
  /** Folded text used for matching. */
  text: string;
  /** map[i] = offset in the original string of the character that produced text[i]; map[text.length] = original length. */
  map: Int32Array;
  /** Counts of what was undone, so callers can weigh obfuscation itself as a signal. */
  stats: { invisible: number; confusable: number; leet: number; spaced: number; spacedLetters: number };
}

// Latin/Greek/Cyrillic combining marks, and Arabic harakat/hamza marks (so "الأوامر" folds like "الاوامر").
// eslint-disable-next-line no-misleading-character-class -- a class of bare combining marks, matched one by one on purpose
export const COMBINING_MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u064b-\u065f\u0670]/g;
const WORD_CHAR = /[\p{L}\p{N}@$]/u;

/** Folds one code point (no script decisions): NFKD, strip accents, lower-case. */
function foldChar(ch: string): string {
  if (ch.charCodeAt(0) < 0x80) return ch.toLowerCase();
  // Typographic apostrophes (phones and word processors type them): "don’t" reads as "don't".
  if (ch === '\u2019' || ch === '\u2018' || ch === '\u02bc') return "'";
  const ascii = ch.normalize('NFKD').replace(COMBINING_MARKS, '');
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
const LEET_CP = new Int32Array(128);
for (const [k, v] of Object.entries(LEET)) LEET_CP[k.charCodeAt(0)] = v.charCodeAt(0);
const CONFUSABLE_CP = new Map<number, number>(Object.entries(CONFUSABLES).map(([k, v]) => [k.codePointAt(0)!, v.charCodeAt(0)]));
// Character classes of non-ASCII BMP code points, computed once each: 1 = known, 2 = letter, 4 = word character.
const KNOWN = 1;
const LETTER = 2;
const WORDCH = 4;
const classes = new Uint8Array(0x10000);
function classOf(cp: number): number {
  if (cp < 0x80) {
    const letter = (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90);
    return (letter ? LETTER : 0) | (letter || (cp >= 48 && cp <= 57) || cp === 64 || cp === 36 ? WORDCH : 0);
  }
  if (cp < 0x10000 && classes[cp]) return classes[cp];
  const ch = String.fromCodePoint(cp);
  const c = KNOWN | (/\p{L}/u.test(ch) ? LETTER : 0) | (WORD_CHAR.test(ch) ? WORDCH : 0);
  if (cp < 0x10000) classes[cp] = c;
  return c;
}
const isCyrGreek = (cp: number) => cp >= 0x370 && cp <= 0x52f;
const isSepCp = (c: number) => c === 32 || c === 46 || c === 45 || c === 95 || c === 42 || c === 124 || c === 47;

// Working buffers (normalisation is synchronous): one element per code point of the folded text.
let cps: Int32Array = new Int32Array(4096);
let srcs: Int32Array = new Int32Array(4096);
let outCps = new Int32Array(4096);
let outSrcs = new Int32Array(4096);
let units = new Uint16Array(8192);
/** `units` as bytes, for decoding (UTF-16LE is the machine's own order on little-endian hosts). */
let unitBytes: Buffer | null = null;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function normalizeUncached(input: string): NormalizedText {
  const stats = { invisible: 0, confusable: 0, leet: 0, spaced: 0, spacedLetters: 0 };
  // Pass 1: drop invisibles, fold compatibility forms, keep provenance.
  let n = 0;
  for (let i = 0; i < input.length;) {
    const cp = input.codePointAt(i)!;
    if (n + 32 > cps.length) {
      cps = grow32(cps, n + 32);
      srcs = grow32(srcs, n + 32);
    }
    if (cp < 0x80) {
      cps[n] = cp >= 65 && cp <= 90 ? cp + 32 : cp;
      srcs[n++] = i;
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
    if (n + folded.length + 32 > cps.length) {
      cps = grow32(cps, n + folded.length + 32);
      srcs = grow32(srcs, n + folded.length + 32);
    }
    for (let j = 0; j < folded.length;) {
      const f = folded.codePointAt(j)!;
      cps[n] = f;
      srcs[n++] = i;
      j += f > 0xffff ? 2 : 1;
    }
    i += len;
  }
  // Latin-dominant text decides whether an all-look-alike word is an attack or just Russian.
  let latinCount = 0;
  let otherCount = 0;
  for (let k = 0; k < n; k++) {
    const code = cps[k];
    if (code >= 97 && code <= 122) latinCount++;
    else if (isCyrGreek(code)) otherCount++;
  }
  const latinText = latinCount > otherCount * 3;

  // Pass 2: per word, script and leet folding.
  let w = 0;
  while (w < n) {
    if (!(classOf(cps[w]) & WORDCH)) {
      w++;
      continue;
    }
    let e = w;
    while (e < n && classOf(cps[e]) & WORDCH) e++;
    let hasLatin = false;
    let hasConf = false;
    let hasOther = false;
    let hasLetter = false;
    let hasLeet = false;
    for (let k = w; k < e; k++) {
      const code = cps[k];
      if (code < 0x80) {
        if (code >= 97 && code <= 122) {
          hasLatin = true;
          hasLetter = true;
        } else if (LEET_CP[code]) hasLeet = true;
        continue;
      }
      if (CONFUSABLE_CP.has(code)) hasConf = true;
      else if (isCyrGreek(code)) hasOther = true;
      if (classOf(code) & LETTER) hasLetter = true;
    }
    if (hasConf && (hasLatin || (latinText && !hasOther))) {
      for (let k = w; k < e; k++) {
        const m = CONFUSABLE_CP.get(cps[k]);
        if (m !== undefined) {
          cps[k] = m;
          stats.confusable++;
        }
      }
    }
    // Leet only inside words with letters, and not hex-looking tokens (0x..., hashes) or plain numbers.
    if (hasLeet && hasLetter && e - w <= 24 && !(cps[w] === 48 && w + 1 < n && cps[w + 1] === 120)) {
      let letters = 0;
      for (let k = w; k < e; k++) if (cps[k] >= 97 && cps[k] <= 122) letters++;
      if (letters >= 2 || e - w <= 6) {
        for (let k = w; k < e; k++) {
          const c = cps[k];
          if (c < 0x80 && LEET_CP[c]) {
            cps[k] = LEET_CP[c]!;
            stats.leet++;
          }
        }
      }
    }
    w = e;
  }

  // Pass 3: collapse runs of >= 4 single letters separated by one separator ("i g n o r e").
  if (outCps.length < n + 1) {
    outCps = new Int32Array(cps.length);
    outSrcs = new Int32Array(cps.length);
  }
  let o = 0;
  const isLetter = (k: number) => k >= 0 && k < n && (classOf(cps[k]) & LETTER) !== 0;
  const isSep = (k: number) => k < n && isSepCp(cps[k]);
  let k = 0;
  while (k < n) {
    if (isLetter(k) && !isLetter(k - 1) && !isLetter(k + 1) && isSep(k + 1) && isLetter(k + 2) && !isLetter(k + 3)) {
      // Candidate run: letter sep letter sep letter ...
      let p = k;
      let runLength = 1;
      while (isSep(p + 1) && isLetter(p + 2) && !isLetter(p + 3)) {
        p += 2;
        runLength++;
        // A double space inside a spaced run usually marks a word break ("S a y  t h a t").
        if (cps[p + 1] === 32 && cps[p + 2] === 32 && p + 2 < n) break;
      }
      if (runLength >= 4) {
        stats.spaced++;
        stats.spacedLetters += runLength;
        for (let r = k; r <= p; r += 2) {
          outCps[o] = cps[r]!;
          outSrcs[o++] = srcs[r]!;
        }
        k = p + 1;
        continue;
      }
    }
    outCps[o] = cps[k]!;
    outSrcs[o++] = srcs[k]!;
    k++;
  }
  // Text and a provenance entry per UTF-16 code unit. The map is allocated at its exact size
  // (one typed array, not a larger one and a view of it), and the text is decoded from the
  // UTF-16 units in one native call: both were most of this function's own time.
  let astral = 0;
  for (let j = 0; j < o; j++) if (outCps[j] > 0xffff) astral++;
  const u = o + astral;
  if (units.length < u) {
    units = new Uint16Array(Math.max(4 * o, u));
    unitBytes = null;
  }
  const map = new Int32Array(u + 1);
  let q = 0;
  for (let j = 0; j < o; j++) {
    const c = outCps[j];
    if (c > 0xffff) {
      units[q] = 0xd800 + ((c - 0x10000) >> 10);
      map[q++] = outSrcs[j]!;
      units[q] = 0xdc00 + ((c - 0x10000) & 0x3ff);
    } else units[q] = c;
    map[q++] = outSrcs[j]!;
  }
  map[u] = input.length;
  return { text: decodeUnits(u), map, stats };
}

/** The first `u` code units of `units` as a string. */
function decodeUnits(u: number): string {
  if (LITTLE_ENDIAN) {
    unitBytes ??= Buffer.from(units.buffer, units.byteOffset, units.byteLength);
    return unitBytes.toString('utf16le', 0, 2 * u);
  }
  let text = '';
  for (let c = 0; c < u; c += 8192)
    text += String.fromCharCode.apply(null, units.subarray(c, Math.min(u, c + 8192)) as unknown as number[]);
  return text;
}

function grow32(a: Int32Array, need: number): Int32Array {
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
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

const LETTER_AT = /\p{L}/uy;

/**
 * Letters-only form of normalized text for phrase checks that must survive separators, with the
 * index of the letter run each kept letter came from. A run is a sequence of letters that were
 * adjacent in the original text: the normalizer joins spaced letters ("j a i l" -> "jail"), so
 * runs are counted on the original positions (`n.map`), where the joined letters stand apart.
 */
export function squash(n: NormalizedText): { letters: string; run: Uint16Array } {
  const t = n.text;
  const letters = t.replace(/[^\p{L}]+/gu, '');
  const run = new Uint16Array(letters.length);
  let k = 0;
  let r = 0;
  let prevOrig = -2;
  let prevEnd = -1;
  // One letter (one or two code units) at a time, with a sticky test: no match objects.
  for (let i = 0; i < t.length && k < run.length;) {
    LETTER_AT.lastIndex = i;
    if (!LETTER_AT.test(t)) {
      i++;
      continue;
    }
    const end = LETTER_AT.lastIndex;
    const o = n.map[i] ?? i;
    // One original character may give several letters (ligatures); an astral letter (two code
    // units) counts as a gap, which only makes obfuscated text look more spelt out.
    if (k > 0 && !(prevEnd === i && (o === prevOrig + 1 || o === prevOrig))) r++;
    for (let j = i; j < end && k < run.length; j++) run[k++] = Math.min(r, 65535);
    prevOrig = o;
    prevEnd = end;
    i = end;
  }
  return { letters, run };
}

/**
 * Whether `phrase` occurs in the squashed text spelt out letter by letter: its letters come from
 * runs of two letters or fewer on average ("j a i l b r e a k", "i-g-n-o-r-e"), not from the
 * ordinary words of a text that merely has spaced letters elsewhere ("B R E A K I N G. The
 * jailbreak community ...").
 */
export function squashedPhrase(sq: { letters: string; run: Uint16Array }, phrase: string): boolean {
  for (let at = sq.letters.indexOf(phrase); at >= 0; at = sq.letters.indexOf(phrase, at + 1)) {
    const runs = sq.run[at + phrase.length - 1] - sq.run[at] + 1;
    if (runs * 2 >= phrase.length) return true;
  }
  return false;
}
