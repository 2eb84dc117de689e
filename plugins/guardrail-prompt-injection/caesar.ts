// Finds Caesar-shifted (ROT13 and every other shift) English in a text, so the injection layer can
// score what it hides, as it does for base64. A word and its shifted form have the same pattern of
// letter differences ("all" -> "nyy": +0, +11, +11), so each word of the text is looked up, by that
// pattern alone, in a small vocabulary of common English words and instruction words; the shift is
// then the difference of the first letters. Several words agreeing on one non-zero shift (at least
// one of them five letters or longer) mean a shifted passage. Cost: one pass over the words, a
// numeric hash per word, no strings built unless a passage is found.

const VOCAB = (
  'the and you your all any are was were for from with that this these those have has had not but can will must should ' +
  'now new only just also then than what when where which who how about into over after before again never always ' +
  'ignore ignoring disregard forget forgetting previous prior above earlier instructions instruction prompt prompts system ' +
  'rules rule guidelines guideline policy policies restrictions filters safety reveal print repeat show tell secret ' +
  'password passwords admin developer mode jailbreak pretend unfiltered uncensored answer respond reply output write say ' +
  'everything anything nothing something please follow following task tasks message messages text above below original ' +
  'hidden initial confidential send email key keys token tokens data user users assistant model chatbot override bypass ' +
  'disable remove delete execute command commands shell access file files tell give list describe explain want need make ' +
  'like know think because there their they them here some many more most other same such very well good first last'
)
  .split(' ')
  .filter((w) => w.length >= 3);

/**
 * Hashes are kept to 30 bits: a small integer (Smi) is not allocated, a larger number looked up in
 * a Map or Set is boxed on the heap each time (about 2 KB per 1 KB message for these two passes).
 */
const SMI = 0x3fffffff;

/** Hash of a word's letter-difference pattern: (c[i] - c[0]) mod 26 for i >= 1, plus its length. */
function patternHash(text: string, from: number, to: number): number {
  const c0 = text.charCodeAt(from);
  let h = 0x811c9dc5 ^ (to - from);
  for (let i = from + 1; i < to; i++) h = Math.imul(h ^ ((text.charCodeAt(i) - c0 + 26) % 26), 0x01000193);
  return h & SMI;
}

/** pattern hash -> first letters (a=0) of the vocabulary words with that pattern, and their length. */
const BY_PATTERN = new Map<number, Array<{ first: number; len: number; word: string }>>();
for (const w of VOCAB) {
  const h = patternHash(w, 0, w.length);
  const list = BY_PATTERN.get(h) ?? [];
  list.push({ first: w.charCodeAt(0) - 97, len: w.length, word: w });
  BY_PATTERN.set(h, list);
}

export interface ShiftedPassage {
  /** Shift that decodes the passage (13 for ROT13): decoded = (c - 97 + shift) mod 26. */
  shift: number;
  /** Span of the voting words in the scanned text. */
  start: number;
  end: number;
  votes: number;
}

const MAX_WORDS = 400;
const isLower = (c: number) => c >= 97 && c <= 122;

const votes = new Int16Array(26);
const firstAt = new Int32Array(26);
const lastAt = new Int32Array(26);
const longVote = new Uint8Array(26);

/** The most supported non-zero shift of lower-case ASCII words in `text`, or null. */
export function findShiftedPassage(text: string): ShiftedPassage | null {
  // Reused buffers (the scan is synchronous): no typed arrays allocated per message.
  votes.fill(0);
  firstAt.fill(-1);
  lastAt.fill(0);
  longVote.fill(0);
  let words = 0;
  let i = 0;
  const n = text.length;
  while (i < n && words < MAX_WORDS) {
    while (i < n && !isLower(text.charCodeAt(i))) i++;
    const s = i;
    while (i < n && isLower(text.charCodeAt(i))) i++;
    const e = i;
    // Whole words only: a run glued to digits or other letters is an identifier.
    if (e - s < 3 || e - s > 14) continue;
    const before = s > 0 ? text.charCodeAt(s - 1) : 32;
    const after = e < n ? text.charCodeAt(e) : 32;
    if ((before >= 48 && before <= 57) || (after >= 48 && after <= 57) || before > 127 || after > 127) continue;
    words++;
    const list = BY_PATTERN.get(patternHash(text, s, e));
    if (!list) continue;
    for (const v of list) {
      if (v.len !== e - s) continue;
      const shift = (v.first - (text.charCodeAt(s) - 97) + 26) % 26;
      if (shift === 0) continue;
      votes[shift]++;
      if (e - s >= 5) longVote[shift] = 1;
      if (firstAt[shift] === -1) firstAt[shift] = s;
      lastAt[shift] = e;
    }
  }
  let best = 0;
  for (let k = 1; k < 26; k++) if (votes[k] > votes[best]) best = k;
  if (best === 0 || votes[best] < 3 || !longVote[best]) return null;
  return { shift: best, start: firstAt[best], end: lastAt[best], votes: votes[best] };
}

/** Applies a Caesar shift to the ASCII letters of text (case kept). */
export function caesarShift(text: string, shift: number): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) out += String.fromCharCode(((c - 97 + shift) % 26) + 97);
    else if (c >= 65 && c <= 90) out += String.fromCharCode(((c - 65 + shift) % 26) + 65);
    else out += text[i];
  }
  return out;
}

// Reversed text ("snoitcurtsni suoiverp lla erongi"): words read backwards are looked up in the
// same vocabulary, by a hash computed from the last letter to the first (no string is built).
const fnv = (h: number, c: number) => Math.imul(h ^ c, 0x01000193);
const VOCAB_HASHES = new Set(
  VOCAB.map((w) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = fnv(h, w.charCodeAt(i));
    return h & SMI;
  }),
);

/**
 * A passage of lower-case words written backwards, or null: at least three words whose reversal is
 * a vocabulary word (one of five letters or more), more of them than words read forwards.
 */
export function findReversedPassage(text: string): { start: number; end: number; votes: number } | null {
  let votes = 0;
  let forwards = 0;
  let long = false;
  let start = -1;
  let end = 0;
  let words = 0;
  const n = text.length;
  for (let i = 0; i < n && words < MAX_WORDS;) {
    while (i < n && !isLower(text.charCodeAt(i))) i++;
    const s = i;
    while (i < n && isLower(text.charCodeAt(i))) i++;
    const e = i;
    if (e - s < 3 || e - s > 14) continue;
    words++;
    let back = 0x811c9dc5;
    let fwd = 0x811c9dc5;
    for (let k = e - 1; k >= s; k--) back = fnv(back, text.charCodeAt(k));
    for (let k = s; k < e; k++) fwd = fnv(fwd, text.charCodeAt(k));
    back &= SMI;
    fwd &= SMI;
    if (VOCAB_HASHES.has(fwd)) {
      // Plain English: once it clearly outweighs anything read backwards, stop reading.
      if (++forwards >= 2 * votes + 20) return null;
    } else if (VOCAB_HASHES.has(back)) {
      votes++;
      if (e - s >= 5) long = true;
      if (start < 0) start = s;
      end = e;
    }
  }
  return votes >= 3 && long && votes > forwards ? { start, end, votes } : null;
}

/** The text read backwards (by UTF-16 unit; the passages it is used on are ASCII). */
export function reverseText(text: string): string {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += text[i];
  return out;
}

/** Each word's letters reversed in place, word order kept ("erongI suoiverp" -> "Ignore previous"). */
export function reverseWords(text: string): string {
  return text.replace(/[\p{L}\p{N}'’]+/gu, (w) => reverseText(w));
}
