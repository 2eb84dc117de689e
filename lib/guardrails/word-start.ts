// Word-start rules without a leading look-behind. The text rules of the injection and toxicity
// layers begin with (?<![\p{L}\p{N}]) so they only match at the start of a word. A regular
// expression that begins with a look-behind must run it at every position of the text, which on
// texts with non-Latin-1 characters (Cyrillic, Khmer, CJK...) costs about half of the rule's time.
// Without it the engine can skip ahead to where the first word of a rule could start; the
// word-start condition is then checked on each match, and a match inside a word is retried one
// character later. The matches are the same: at a position inside a word every alternative of
// such a rule fails in the original, and at a word start the alternatives are tried in the
// same order.

/** The look-behind the rules use to anchor at a word start. */
export const WORD_START = '(?<![\\p{L}\\p{N}])';

export interface WordRegex {
  re: RegExp;
  /** True when the leading look-behind was removed and must be checked on each match. */
  checkStart: boolean;
}

/** Splits a pattern at its top-level "|" (outside groups, classes and escapes). */
export function topLevelAlternatives(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(src.slice(from, i));
      from = i + 1;
    }
  }
  out.push(src.slice(from));
  return out;
}

/** Compiles `src`; when every top-level alternative starts with WORD_START, without it. */
export function wordRegex(src: string, flags: string): WordRegex {
  const alts = topLevelAlternatives(src);
  if (!alts.every((a) => a.startsWith(WORD_START))) return { re: new RegExp(src, flags), checkStart: false };
  return { re: new RegExp(alts.map((a) => a.slice(WORD_START.length)).join('|'), flags), checkStart: true };
}

// Letter/number classes of BMP code points, computed once each: 1 = known, 2 = letter or number.
const classes = new Uint8Array(0x10000);
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
/** Whether code point `cp` is a letter or number (\p{L} or \p{N}), cached per BMP code point. */
export function letterOrNumber(cp: number): boolean {
  if (cp < 0x80) return (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || (cp >= 48 && cp <= 57);
  if (cp < 0x10000 && classes[cp]) return classes[cp] === 3;
  const yes = LETTER_OR_NUMBER.test(String.fromCodePoint(cp));
  if (cp < 0x10000) classes[cp] = yes ? 3 : 1;
  return yes;
}

/** Whether the character before `i` is not a letter or number (what WORD_START asserts). */
export function atWordStart(text: string, i: number): boolean {
  if (i <= 0) return true;
  let cp = text.charCodeAt(i - 1);
  if (cp >= 0xdc00 && cp <= 0xdfff && i >= 2) {
    const hi = text.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) cp = (hi - 0xd800) * 0x400 + (cp - 0xdc00) + 0x10000;
  }
  return !letterOrNumber(cp);
}

/** The next match from re.lastIndex (a global WordRegex), the one the original pattern would find. */
export function execWord(w: WordRegex, text: string): RegExpExecArray | null {
  for (;;) {
    const m = w.re.exec(text);
    if (!m || !w.checkStart || atWordStart(text, m.index)) return m;
    // Inside a word: no position before the word's end can start a match either (each follows a
    // letter or number), so the search resumes there, not one character later: a rule whose
    // words occur inside longer ones ("ein" in "keinen") is otherwise retried at every letter.
    let i = m.index;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length;
      if (!letterOrNumber(pair ? text.codePointAt(i)! : c)) break;
      i += pair ? 2 : 1;
    }
    // A match that starts on a non-letter (a rule beginning with punctuation) moves on by one.
    if (i === m.index) i += text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff ? 2 : 1;
    w.re.lastIndex = i;
  }
}
