// Toxicity layer: a score 0..1 per category — insult, identity_attack (hate against a protected
// group), dehumanisation, threat, sexual, self_harm (encouragement) — from three sources combined by
// noisy-OR:
//   1. a classifier, one logistic-regression head per category over hashed word and character
//      n-grams (plugins/guardrail-toxicity/model.json, trained by plugins/guardrail-toxicity/train.ts
//      on the Davidson tweets and the project's own examples);
//   2. structural rules on de-obfuscated text: a protected group as the target of derogation
//      ("<group> are disgusting"), dehumanisation ("<group> are vermin") or violence ("death to
//      <group>"), self-harm encouragement, threats aimed at the reader;
//   3. obscenity's English slur and profanity lexicon (it undoes leetspeak, repeated letters and
//      look-alike characters): slurs count as identity attacks, profanity only as a weak insult.
// Counter-speech, reporting and negation ("saying <group> are vermin is bigotry", "he was arrested
// for shouting ...", "I don't hate <group>") damp every category, so quoting hate to condemn it
// passes. Profanity aimed at no one stays under the insult threshold.
// Misses: sarcasm, coded language and dog whistles, hate in languages other than English (the rules
// know a few German/Spanish/French/Italian/Portuguese phrases), targets the group lexicon lacks.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import type { GuardrailFinding } from '../../kernel/index.ts';
import {
  noisyOr,
  packHeads,
  packQuantizedHeads,
  tokenFeatures,
  windowScores,
  type LoadedModel,
  type MultiHeadModel,
} from '../../lib/guardrails/classifier.ts';
import { containsAny } from '../../lib/guardrails/contains-any.ts';
import { defineLayer, num } from '../../lib/guardrails/layer.ts';
import { mapSpan, normalizeForMatching, type NormalizedText } from '../../lib/guardrails/normalize.ts';
import {
  atWordStart,
  execWord,
  letterOrNumber,
  topLevelAlternatives,
  WORD_START,
  wordRegex,
  type WordRegex,
} from '../../lib/guardrails/word-start.ts';

export const TOXICITY_CATEGORIES = ['insult', 'identity_attack', 'dehumanisation', 'threat', 'sexual', 'self_harm'] as const;
export type ToxicityCategory = (typeof TOXICITY_CATEGORIES)[number];

export interface ToxicitySettings extends Record<string, unknown> {
  /** Score at or above which a category is reported (every category without its own threshold). */
  threshold: number;
  /** Per-category thresholds; insult is high by default so rude words alone do not block. */
  category_thresholds: Partial<Record<ToxicityCategory, number>>;
  use_classifier: boolean;
}
export const toxicityDefaults: ToxicitySettings = { threshold: 0.5, category_thresholds: { insult: 0.8 }, use_classifier: true };

// ---- classifier -------------------------------------------------------------------------------

interface ToxHeadFile {
  bias: number;
  scale: number;
  idx: string;
  w: string;
}
export interface ToxicityModelFile {
  format: 'vigil-tox-v1';
  dims: number;
  heads: Record<ToxicityCategory, ToxHeadFile>;
  /** Per head, the probability that scores 0.5 (set on a validation split by train.ts). */
  calibration?: Partial<Record<ToxicityCategory, number>>;
}
export type ToxicityModel = Record<ToxicityCategory, LoadedModel>;

export function defaultToxicityModelPath(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'model.json');
}

/** Each loaded model's heads, interleaved and still quantised, for one-pass scoring (toxicityModelFromJson). */
const packed = new WeakMap<ToxicityModel, MultiHeadModel>();
const headOut = new Float64Array(TOXICITY_CATEGORIES.length);

/** A model file's heads as dense weight vectors; each head's threshold is its calibration point. */
export function toxicityModelFromJson(raw: ToxicityModelFile, what = 'model'): ToxicityModel {
  if (raw?.format !== 'vigil-tox-v1' || !raw.heads) throw new Error(`${what} is not a vigil-tox-v1 model`);
  const out = {} as ToxicityModel;
  const quantized: Array<{ bias: number; scale: number; idx: Int32Array; w: Int8Array }> = [];
  for (const c of TOXICITY_CATEGORIES) {
    const h = raw.heads[c];
    if (!h) throw new Error(`${what}: no "${c}" head`);
    const ib = Buffer.from(h.idx, 'base64');
    const wb = Buffer.from(h.w, 'base64');
    const idx = new Int32Array(ib.buffer.slice(ib.byteOffset, ib.byteOffset + ib.length));
    const w = new Int8Array(wb.buffer.slice(wb.byteOffset, wb.byteOffset + wb.length));
    const weights = new Float32Array(raw.dims);
    for (let i = 0; i < idx.length; i++) weights[idx[i]] = w[i] * h.scale;
    const t = raw.calibration?.[c];
    out[c] = { dims: raw.dims, bias: h.bias, weights, threshold: typeof t === 'number' && t > 0 && t < 1 ? t : 0.5 };
    quantized.push({ bias: h.bias, scale: h.scale, idx, w });
  }
  packed.set(out, packQuantizedHeads(raw.dims, quantized));
  return out;
}

export function loadToxicityModel(file = defaultToxicityModelPath()): ToxicityModel {
  let raw: ToxicityModelFile;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8')) as ToxicityModelFile;
  } catch (e) {
    throw new Error(
      `toxicity model not found or unreadable at ${file} (run: node --import tsx plugins/guardrail-toxicity/train.ts): ${(e as Error).message}`,
      { cause: e },
    );
  }
  return toxicityModelFromJson(raw, file);
}

let defaultModel: ToxicityModel | null = null;
function sharedDefaultModel(): ToxicityModel {
  return (defaultModel ??= loadToxicityModel());
}

// ---- rules ------------------------------------------------------------------------------------

interface Rule {
  cats: Partial<Record<ToxicityCategory, number>>;
  re: WordRegex;
  id: string;
  /** Needs a protected group in the text: skipped (one scan) when there is none. */
  group: boolean;
  /** Substrings one of which a window must hold for the rule to be tried (containsAny: one literal scan). */
  need?: RegExp;
}

/**
 * The word lists the rules are built from (groups, hostile predicates, violence, insults, slurs
 * with their weights, sexual terms), in data/lexicon.json: data, kept out of the code.
 */
interface Lexicon {
  GROUP_NOUNS: string[];
  GROUP_ADJ: string[];
  SINGULAR_NOUNS: string[];
  NEG_ADJ: string[];
  DEHUMANISING: string[];
  KILL: string[];
  BE: string[];
  /** More hostile predicate words, besides NEG_ADJ and DEHUMANISING. */
  NEG_WORD: string[];
  HATE_VERB: string[];
  VIOLENT_PP: string[];
  /** More violent verbs, besides KILL. */
  KILL_MORE: string[];
  THREAT_VERBS: string[];
  INSULTS: string[];
  SLURS: Record<string, number>;
  /** Slurs obscenity's English list lacks, as patterns (with their sense guards) and weights. */
  EXTRA_SLURS: Record<string, number>;
  SEXUAL: string[];
}
const LEX = JSON.parse(fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'lexicon.json'), 'utf8')) as Lexicon;

const b = WORD_START;
const e = '(?![\\p{L}\\p{N}])';
const alt = (xs: string[]) => `(?:${xs.join('|')})`;
const isLower = (c: number) => c >= 97 && c <= 122;

// Protected groups: religion, ethnicity/race/nationality, migration status, sex and gender,
// sexual orientation, gender identity, disability. Adjective forms take "people/men/women/folks".
const GROUP_NOUNS = LEX.GROUP_NOUNS;
const GROUP_ADJ = LEX.GROUP_ADJ;
/**
 * Group rules never inline the group words: each message's mentions are found once (findMentions)
 * and, in a working copy of the text, every target phrase is overwritten by a run of one capital
 * letter of the same length (normalised text has no capitals, and same length keeps every offset
 * and span exact): P for a plural group ("muslims", "gay people", "people with disabilities"; R for a group noun that is a hostile word too, "retards"), S
 * for a singular member ("muslim", "gay man"), A for a group adjective before any other word
 * ("black neighbourhood"). A rule then reads `P+` where it used to hold 170 alternatives.
 */
const GROUP_DET = '(?:(?:all|these|those|the|most|every|many|some|you|fucking|damn|filthy|dirty)\\s+)*';
const GROUP = `${GROUP_DET}[PR]+`;
/** A singular member: a determiner, perhaps a modifier, and the member ("every single muslim"). */
const SINGULAR = `(?:a|an|any|every|every last|each and every|each|one|that|this|the first|the next|no|some|another|the only good)\\s+(?:(?:single|fucking|damn|filthy|dirty|stupid|bloody)\\s+)?S+`;
/** Nouns after a group adjective that make a plural group ("black people") or a member ("black man"). */
const PLURAL_HEAD =
  /\s+(?:people|persons|men|women|folks|kids|children|guys|girls|boys|immigrants|families|community|communities|users)(?![\p{L}\p{N}])/uy;
const SINGULAR_HEAD = /\s+(?:person|man|woman|guy|girl|boy|kid|child|neighbou?r|family)(?![\p{L}\p{N}])/uy;
const PEOPLE_WHO = /(?:people|persons) (?:who are|with) /y;
/** A singular determiner before, and a clause end, verb or adverb after, make a bare group adjective a member. */
const MEMBER_BEFORE = /(?<=(?:^|[^\p{L}])(?:a|an|any|every|each|this|that|one|another|no|some)\s+)/uy;
const MEMBER_AFTER =
  /(?=\s*(?:[.,;:!?]|$)|\s+(?:is|was|who|that|will|would|should|can|could|must|has|had|here|there|in|walks|comes|moves|lives|gets|does|ever|near|around|next)(?![\p{L}\p{N}]))/uy;

/**
 * A group phrase of the lexicon, in the order the lists give (nouns, adjectives, singular nouns):
 * at one position the first phrase that matches as whole words is the mention.
 */
interface Phrase {
  text: string;
  noun: boolean;
  adj: boolean;
  singular: boolean;
  /** A hostile word too ("retards", "mentally ill"): it counts as hostility, and a bare adjective keeps its text for the predicate rules. */
  hostile: boolean;
}
/** The literal phrases a lexicon entry stands for: its "(?:a|b)" groups and "x?" letters expanded. */
function expandPhrase(p: string): string[] {
  const g = /\(\?:([^()]*)\)/.exec(p);
  if (g) return g[1].split('|').flatMap((x) => expandPhrase(p.slice(0, g.index) + x + p.slice(g.index + g[0].length)));
  const q = /([a-z])\?/.exec(p);
  if (q)
    return [q.index + 1, q.index].flatMap((k) =>
      expandPhrase(p.slice(0, k) + p.slice(q.index + 1, k > q.index ? q.index + 1 : q.index) + p.slice(q.index + 2)),
    );
  if (!/^[a-z]+(?:[ -][a-z]+)*$/.test(p)) throw new Error(`toxicity lexicon: group entry "${p}" is not a phrase of a-z words`);
  return [p];
}
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/**
 * Group phrases by a hash of their first word (its run of a-z letters): the mention scanner hashes
 * each word of the text in place and checks only the phrases that start with it — no expression
 * with hundreds of alternatives, no string cut per word.
 */
const PHRASES_BY_FIRST = (() => {
  const out = new Map<number, Phrase[]>();
  const seen = new Set<string>();
  const singular = new Set(LEX.SINGULAR_NOUNS.flatMap(expandPhrase));
  const nouns = new Set(GROUP_NOUNS.flatMap(expandPhrase));
  const adjs = new Set(GROUP_ADJ.flatMap(expandPhrase));
  const hostileWord = new RegExp(`^${alt([...LEX.NEG_ADJ, ...LEX.DEHUMANISING, ...LEX.NEG_WORD])}$`, 'u');
  for (const text of [...GROUP_NOUNS, ...GROUP_ADJ, ...LEX.SINGULAR_NOUNS, 'homo', 'disabilities'].flatMap(expandPhrase)) {
    if (seen.has(text)) continue;
    seen.add(text);
    let h = FNV_OFFSET;
    for (let i = 0; i < text.length && isLower(text.charCodeAt(i)); i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    const noun = nouns.has(text);
    const phrase = { text, noun, adj: adjs.has(text), singular: singular.has(text), hostile: hostileWord.test(text) };
    const list = out.get(h);
    if (list) list.push(phrase);
    else out.set(h, [phrase]);
  }
  return out;
})();
/** The group phrase at word start i of t, whose first word is t[i, j) with hash h, if any. */
function phraseAt(t: string, i: number, h: number): Phrase | null {
  const cands = PHRASES_BY_FIRST.get(h);
  if (!cands || !atWordStart(t, i)) return null;
  for (let k = 0; k < cands.length; k++) {
    const p = cands[k];
    const end = i + p.text.length;
    if (t.startsWith(p.text, i) && (end >= t.length || !letterOrNumber(t.codePointAt(end)!))) return p;
  }
  return null;
}

/** The token every protected-group mention becomes in the classifier's input (maskGroups). */
const GROUP_TOKEN = 'zgroupz';
/**
 * The classifier's view of normalised text: each protected-group mention replaced by one token,
 * so that the heads learn what is said about a group rather than which groups the hateful
 * training texts name (unmasked, "<group> have made this country better" scored 0.89 on the
 * identity head). Training (training.ts) and scoring use it alike; text without a group is
 * returned as it is.
 */
export function maskGroups(t: string): string {
  const n = findMentions(t);
  return n ? maskSpans(t, n) : t;
}
/** Up to this many group mentions are read per message (windows, placeholders and mask alike). */
const MAX_MENTIONS = 50;
const mentionAt = new Int32Array(MAX_MENTIONS);
const mentionEnd = new Int32Array(MAX_MENTIONS);
/** Per mention, the target phrase its placeholder covers and the placeholder (0: none, "homo"). */
const placeAt = new Int32Array(MAX_MENTIONS);
const placeEnd = new Int32Array(MAX_MENTIONS);
const placeKind = new Uint8Array(MAX_MENTIONS);
/** Per mention, whether its phrase is a hostile word too (findMentions). */
const mentionHostile = new Uint8Array(MAX_MENTIONS);
const P = 80; // 'P'
const R = 82; // 'R'
const S = 83; // 'S'
const A = 65; // 'A'
const RUNS: Record<number, string> = { [P]: 'P', [R]: 'R', [S]: 'S', [A]: 'A' };
for (const k of [P, R, S, A]) RUNS[k] = RUNS[k].repeat(64);
/** Lengths of the lead-ins PEOPLE_WHO matches ("people with ", ..., "persons who are "). */
const PEOPLE_WHO_LENGTHS = [12, 13, 15, 16];

/**
 * Finds the first MAX_MENTIONS group mentions of t (mentionAt/mentionEnd) and, for each, the
 * target phrase its placeholder will cover (see GROUP): a plural group (P, or R for a group noun
 * that is a hostile word too), a singular member (S), a bare group adjective (A); a mention inside
 * the previous phrase ("women" of "black women") or that is none of these ("homo") gets none.
 * Returns the number of mentions.
 */
function findMentions(t: string): number {
  let n = 0;
  let placed = 0;
  for (let i = 0; i < t.length && n < MAX_MENTIONS;) {
    if (!isLower(t.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    let h = FNV_OFFSET;
    for (; j < t.length && isLower(t.charCodeAt(j)); j++) h = Math.imul(h ^ t.charCodeAt(j), FNV_PRIME);
    const p = phraseAt(t, i, h);
    if (!p) {
      i = j;
      continue;
    }
    let a = i;
    let z = i + p.text.length;
    i = z;
    mentionAt[n] = a;
    mentionEnd[n] = z;
    mentionHostile[n] = p.hostile ? 1 : 0;
    placeKind[n++] = 0;
    if (a < placed) continue;
    let kind = 0;
    const lead = p.adj || p.text === 'disabilities' ? peopleWhoBefore(t, a, placed) : -1;
    if (lead >= 0) {
      a = lead;
      kind = P;
    } else if (p.adj && ((PLURAL_HEAD.lastIndex = z), PLURAL_HEAD.test(t))) {
      z = PLURAL_HEAD.lastIndex;
      kind = P;
    } else if (p.adj && ((SINGULAR_HEAD.lastIndex = z), SINGULAR_HEAD.test(t))) {
      z = SINGULAR_HEAD.lastIndex;
      kind = S;
    } else if (p.noun) kind = p.hostile ? R : P;
    else if (p.singular) kind = S;
    else if (p.adj && !p.hostile)
      // A bare adjective as a member noun ("every Haitian here", "a Romanian walks in").
      kind = ((MEMBER_BEFORE.lastIndex = a), MEMBER_BEFORE.test(t)) && ((MEMBER_AFTER.lastIndex = z), MEMBER_AFTER.test(t)) ? S : A;
    if (!kind) continue;
    placeAt[n - 1] = a;
    placeEnd[n - 1] = z;
    placeKind[n - 1] = kind;
    placed = z;
  }
  return n;
}
/** Where "people with " / "persons who are " (at a word start, not before `from`) ends at `at` of t, or -1. */
function peopleWhoBefore(t: string, at: number, from: number): number {
  for (let i = 0; i < PEOPLE_WHO_LENGTHS.length; i++) {
    const s = at - PEOPLE_WHO_LENGTHS[i];
    if (s < from) break;
    PEOPLE_WHO.lastIndex = s;
    if (PEOPLE_WHO.test(t) && PEOPLE_WHO.lastIndex === at && atWordStart(t, s)) return s;
  }
  return -1;
}
/** Whether position `at` lies inside one of the first n mentions that is not a hostile word. */
function inNeutralMention(at: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (at >= mentionAt[k] && at < mentionEnd[k] && !mentionHostile[k]) return true;
  return false;
}
/** t with its first n mentions (mentionAt/mentionEnd) replaced by GROUP_TOKEN. */
function maskSpans(t: string, n: number): string {
  let out = '';
  let from = 0;
  for (let k = 0; k < n; k++) {
    out += t.slice(from, mentionAt[k]) + GROUP_TOKEN;
    from = mentionEnd[k];
  }
  return out + t.slice(from);
}
/**
 * rt[a, z) with each placed phrase of the first n mentions inside it overwritten by its placeholder
 * letter: same length, so offsets in the window are offsets in rt. Only windows are built, not
 * the whole text: the copy costs what the windows cover.
 */
function placedWindow(rt: string, a: number, z: number, n: number): string {
  let out = '';
  let from = a;
  let any = false;
  for (let k = 0; k < n; k++) {
    const kind = placeKind[k];
    if (!kind || placeAt[k] < a || placeEnd[k] > z) continue;
    let len = placeEnd[k] - placeAt[k];
    out += rt.slice(from, placeAt[k]);
    for (; len > 64; len -= 64) out += RUNS[kind];
    out += RUNS[kind].slice(0, len);
    from = placeEnd[k];
    any = true;
  }
  return any ? out + rt.slice(from, z) : rt.slice(a, z);
}

// A predicate written "not X" is also said with a contraction: "<group> aren't human", "isn't welcome".
// The auxiliaries are listed: a leading \p{L}+ would be tried (and backtracked) at every word.
const NOT_CONTRACTED = "(?:is|are|was|were|do|does|did|have|has|had|should|would|could|ca|wo|must|need|ai)n't";
const contracted = (xs: string[]) => xs.map((x) => x.replace(/^not /, `(?:not|${NOT_CONTRACTED}) `));
const NEG_ADJ = alt(contracted(LEX.NEG_ADJ));
const DEHUMANISING = alt(contracted(LEX.DEHUMANISING));
const KILL = alt(LEX.KILL);
const BE = alt(LEX.BE);

/** Any hostile word (negative evaluation, dehumanising term, violence, hatred, profanity): without
 * one, and without a rule hit or slur, the classifier alone cannot call a text hateful. */
const HOSTILE = wordRegex(
  `${WORD_START}(?:${NEG_ADJ}|${DEHUMANISING}|${KILL}|hate|hates|hated|hating|despise|detest|loathe|die|death|dead|burn|kill\\p{L}*|fuck\\p{L}*|shit\\p{L}*|damn|bitch\\p{L}*|trash|scum\\p{L}*|ugly|nasty|stink\\p{L}*|smell\\p{L}*|go back|get out|deport\\p{L}*|ban|banned|invad\\p{L}*|steal\\p{L}*|rap\\p{L}*|terror\\p{L}*)(?![\\p{L}\\p{N}])`,
  'gu',
);

/** A group spoken of as the one blamed, targeted or wronged. */
const GROUP_VICTIM =
  /(?<![\p{L}])(?:get|gets|got|getting|are|is|were|was|being|be)\s+(?:always\s+|often\s+|unfairly\s+)?(?:blamed|targeted|scapegoated|singled out|stopped|searched|picked on|accused|attacked|harassed|bullied|discriminated|excluded|mocked|treated)(?![\p{L}])/u;
/** Words that generalise over a group (a question's presupposition, "only good for", "by nature"). */
const GENERALISING =
  /(?<![\p{L}])(?:so|always|never|ever|constantly|all of them|every (?:single|last) (?:one|\p{L}+)|only good for|good for nothing|naturally|by nature|in their (?:nature|blood|genes|dna|culture)|obsessed|anything that|wherever they go|typical|need to|needs to|have to|has to|is there (?:a|one) single|are there any|who actually|isn'?t a|aren'?t all)(?![\p{L}])/u;
/** ", not <word>" as a contrast, not a denial ("..., not true" and "..., not at all" still deny). */
const CONTRAST_NOT =
  /^[^,;\u2014-]*[,;\u2014-]\s*not\s+(?!true|so|really|right|correct|the case|fair|okay|ok|at all|all|every|always|quite)\p{L}/u;
const RULES: Rule[] = [];
/**
 * One compiled expression per top-level alternative of `${b}(?:A|B|C)${e}`: a single expression
 * with many alternatives that begin with a large group alternation is tried in full at every
 * position (14 ms per KB for one rule), separate ones each skip ahead to where they can match.
 */
function splitAlternatives(src: string): string[] {
  const head = `${b}(?:`;
  const tail = `)${e}`;
  if (!src.startsWith(head) || !src.endsWith(tail)) return [src];
  // The group opened after the word start must be the one closed before the end.
  let depth = 0;
  let inClass = false;
  for (let i = head.length - 3; i < src.length - tail.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return [src];
  }
  const inner = topLevelAlternatives(src.slice(head.length, -tail.length));
  return inner.length > 1 ? inner.map((a) => `${head}${a}${tail}`) : [src];
}
const rule = (id: string, cats: Rule['cats'], src: string) => {
  for (const part of splitAlternatives(src))
    RULES.push({ id, cats, re: wordRegex(part, 'gu'), group: src.includes(GROUP) || src.includes(SINGULAR) });
};
// Hate against groups.
rule(
  'group_dehumanised',
  { identity_attack: 0.9, dehumanisation: 0.9 },
  `${b}${GROUP}\\s+${BE}\\s+(?:(?:just|all|nothing but|like|basically|literally|simply)\\s+)*(?:(?:dirty|filthy|disgusting|stinking|subhuman)\\s+)?${DEHUMANISING}${e}`,
);
rule(
  'group_breed',
  { identity_attack: 0.85, dehumanisation: 0.85 },
  `${b}${GROUP}\\s+(?:breed|multiply|swarm|infest)\\w*(?:\\s+like\\s+\\p{L}+)?`,
);
rule(
  'treat_like',
  { identity_attack: 0.85, dehumanisation: 0.85 },
  `${b}(?:treat|exterminate|crush|kill)\\s+${GROUP}\\s+like\\s+(?:the\\s+)?${DEHUMANISING}`,
);
rule(
  'group_derogated',
  { identity_attack: 0.85 },
  `${b}${GROUP}\\s+(?:${BE}|(?:will )?always be|remain)\\s+(?:(?:so|all|just|such|really|truly|inherently|naturally|genetically|basically|always|fucking|honestly)\\s+)*${NEG_ADJ}${e}`,
);
rule(
  'hate_group',
  { identity_attack: 0.85 },
  `${b}(?:i|we|everyone|everybody)\\s+(?:(?:really|truly|fucking|just|absolutely|honestly)\\s+)?(?:hate|despise|detest|loathe|can'?t stand|cannot stand|am sick of|are sick of|am disgusted by)\\s+${GROUP}${e}`,
);
rule(
  'group_makes_sick',
  { identity_attack: 0.8 },
  `${b}${GROUP}\\s+(?:make me (?:sick|want to (?:puke|vomit))|disgust me|ruin everything|(?:should|must) (?:not|never) be allowed\\b(?!\\s+to be (?:exploited|abused|harmed|mistreated|hurt|attacked|discriminated|left|treated|bullied|harassed|targeted|deported|denied|evicted|detained))[^.!?\\n]{0,40}|(?:don'?t|do not) belong (?:here|in (?:this|our) country)|should (?:go back|leave|get out)\\b[^.!?\\n]{0,30})`,
);
rule(
  'never_trust',
  { identity_attack: 0.8 },
  // "No <group>" as a sign or a verdict, not as a count ("no Roma were present", "no women applied").
  `${b}(?:never trust|don'?t trust|do not hire|never hire|no)\\s+${GROUP}(?:\\s+(?:allowed|welcome|should (?:ever )?be hired))?${e}(?!\\s+(?:were|was|are|is|have|has|had|attended|came|took|reported|died|lived|responded|answered|applied|showed|turned|voted|live|work|were)(?![\\p{L}]))`,
);
// "Typical <group>" as a verdict, not "typical <group> food": the phrase ends there or names behaviour.
rule(
  'typical_group',
  { identity_attack: 0.75 },
  `${b}typical\\s+(?:${GROUP}|S+|A+)(?:\\s+(?:behaviou?r|move|mentality|attitude|thing|logic|trick|nonsense|crap|bullshit|shit|tactics))?(?=\\s*(?:[,.!?;\\u2014-]|$)|\\s+(?:always|never|again|as usual|innit|isn'?t it|for you)(?![\\p{L}]))`,
);
rule(
  'why_group',
  { identity_attack: 0.8 },
  `${b}why (?:are|do)\\s+${GROUP}\\s+(?:always\\s+|all\\s+|so\\s+)*(?:${NEG_ADJ}|smell|steal|lie|stink)${e}`,
);
// The subject ("I will", "someone should") is left out of the match: an optional lead-in is tried
// at every position of the text; the verb and its target are what make the threat.
rule(
  'group_violence',
  { identity_attack: 0.95, threat: 0.95 },
  `${b}${KILL}\\s+(?:(?:all|every|the|any|each|more|those|these|some)\\s+(?:of\\s+)?(?:the\\s+)?)*(?:homes? of\\s+|next\\s+)?${GROUP}${e}`,
);
rule(
  'group_should_die',
  { identity_attack: 0.95, threat: 0.95 },
  `${b}${GROUP}\\s+(?:should|must|deserve to|need to|ought to|will|have to)\\s+(?:all\\s+)?(?:be\\s+)?(?:die|killed|exterminated|gassed|shot|hanged|hung|burned|burnt|burn|hang|wiped out|deported|eradicated|eliminated|put (?:down|in camps)|lynched|beaten|raped|sterilised|sterilized)${e}`,
);
rule(
  'death_to',
  { identity_attack: 0.9, threat: 0.9 },
  `${b}(?:death to|gas the|exterminate the|tod den|muerte a los|mort aux|morte agli?)\\s+\\p{L}+`,
);
rule('hate_ml', { identity_attack: 0.8 }, `${b}(?:ich hasse|odio a los|je deteste les|odio gli|odeio os)\\s+(?:alle\\s+)?${GROUP}${e}`);
// ---- target + hostile predicate ---------------------------------------------------------------
// The rules above know fixed phrasings; hate is mostly compositional: a protected group (plural,
// singular, or "they" after one was named) as the subject of a hostile predicate, the object of a
// hate verb or of violence, or excluded ("belong in a cage", "better off without"). The predicate
// may carry any number of intensifiers and determiners ("are a bunch of thieving cowards", "are too
// stupid to ..."), but no other word, so "<group> are often victims of violent criminals" is not
// read as calling the group criminals.
const TARGET = `(?:${GROUP}|${SINGULAR})`;
/** Hostile predicate words: negative evaluations of people, dehumanising terms, disease and filth. */
/** R: a group noun that is a hostile word too (findMentions). */
const NEG_WORD = alt(['R+', NEG_ADJ, DEHUMANISING, ...LEX.NEG_WORD]);
/** Words that may stand between the verb and the hostile word: intensifiers, determiners, more hostile words. */
const MODS = `(?:\\p{L}+ly|so|such|too|very|really|all|just|only|nothing|more|most|than|but|better|worse|lower|less|dirtier|filthier|a|an|the|bunch|pack|lot|load|kind|sort|of|like|little|utter|total|complete|absolute|fucking|bloody|damn|goddamn|same|sewer|gutter|stray|mangy|rabid|diseased|${NEG_WORD})`;
const PRED = `(?:\\s+${MODS}){0,6}\\s+${NEG_WORD}`;
// HATE_VERB holds "hb": "h8" after leetspeak folding (8 -> b).
const HATE_VERB = alt(LEX.HATE_VERB);
const VIOLENT_PP = alt(LEX.VIOLENT_PP);
const KILL_MORE = alt([KILL, ...LEX.KILL_MORE]);
const targetRule = (id: string, cats: Rule['cats'], src: string, words?: readonly string[]) => {
  // One literal alternation for the list (containsAny): a String.includes per word cost ~0.6 µs per KB each.
  const need = words && containsAny(words);
  for (const part of splitAlternatives(src)) RULES.push({ id, cats, re: wordRegex(part, 'gu'), group: true, need });
};
targetRule(
  'target_predicate',
  { identity_attack: 0.85 },
  `${b}(?:${TARGET}|they|those people)(?:\\s+(?:who|that|i|we|you)(?:\\s+[\\p{L}']+){1,5})?\\s+(?:${BE}|was|will always be|will never be anything but|remain|seem|look|act like|are nothing more than|are no better than|are basically|are literally|are all|(?:always\\s+)?(?:have|has|need|needs|got) to be)${PRED}${e}`,
);
targetRule(
  'find_target',
  { identity_attack: 0.85 },
  `${b}(?:i|we)\\s+(?:\\p{L}+\\s+)?(?:find|consider|call|think of)\\s+${TARGET}(?:\\s+as)?${PRED}${e}`,
);
targetRule(
  'hate_target',
  { identity_attack: 0.85 },
  `${b}(?:i|we|everyone|everybody|most people)\\s+(?:(?:\\p{L}+ly|really|truly|just|fucking|so|still|do|all)\\s+)*(?:${HATE_VERB})\\s+(?:(?:all|every single one of|every one of|each of|any of)\\s+)?${TARGET}${e}`,
);
targetRule(
  'target_disgusts',
  { identity_attack: 0.85 },
  `${b}(?:${TARGET}(?:[^.!?\\n]{0,20}?\\s)?(?:make|makes|made|fill|fills)\\s+(?:me|us)\\s+(?:(?:feel|so|want to)\\s+)*(?:sick|ill|nauseous|puke|vomit|throw up|with (?:disgust|rage|hatred|contempt|revulsion))|${TARGET}(?:[^.!?\\n]{0,20}?\\s)?makes? my skin crawl|${TARGET}\\s+(?:disgust|disgusts|repulse|repulses|revolt|revolts|sicken|sickens)\\s+(?:me|us)|(?:nothing|no one|nobody)\\s+(?:repulses|disgusts|sickens|revolts|annoys|angers)\\s+(?:me|us)\\s+more than\\s+${TARGET}|(?:anything|anyone|nothing)\\s+(?:more|as)${PRED}\\s+(?:than|as)\\s+${TARGET})${e}`,
);
targetRule(
  'target_excluded',
  { identity_attack: 0.85 },
  `${b}(?:${TARGET}\\s+(?:belongs?|should be kept|should live|should stay)\\s+(?:in|at|behind)\\s+(?:a|an|the)\\s+(?:cage|zoo|camp|prison|jail|oven|gas chamber|gutter|bin|trash|sewer|ghetto|kennel|barn)|(?:(?:would|will|could|wouldn'?t|isn'?t|is)\\s+(?:\\p{L}+\\s+){0,3}(?:not\\s+)?be\\s+)?(?:better|safer|cleaner|nicer|happier)\\s+(?:off\\s+)?without\\s+${TARGET}|keep\\s+${TARGET}\\s+(?:away|out|on their (?:own\\s+)?side|in their (?:place|own (?:areas?|neighbou?rhoods?|countries))|where they belong)|(?:would|'d) rather\\b[^.!?\\n]{0,60}\\bthan\\b[^.!?\\n]{0,20}?${TARGET}|${TARGET}\\s+(?:have|has) no place|${TARGET}\\s+(?:will|should|can|must)\\s+never be (?:welcome|accepted|trusted|equal)|${TARGET}\\s+(?:are|is)\\s+not worth (?:anything|shit|a thing|the air|saving|it|a damn)|no\\s+(?:S+|A+\\s+\\p{L}+)\\s+(?:is worth|deserves?\\s+(?:kindness|respect|rights|dignity|mercy|compassion|to (?:live|exist|be (?:here|loved|respected|happy))))|(?:don'?t|do not|never|can'?t|cannot)\\s+(?:think|consider|see|believe|accept)\\s+(?:of\\s+)?${TARGET}\\s+(?:are|as|is)\\s+(?:real\\s+|fully\\s+)?(?:human|humans|human beings|people|persons|equals?))${e}`,
);
targetRule(
  'target_violence',
  { identity_attack: 0.95, threat: 0.95 },
  `${b}(?:${KILL_MORE}|wipe)\\s+(?:(?:all|every|the|any|each|more|those|these|some|of|next)\\s+)*${TARGET}(?:\\s+(?:off|out|up|down|i|we|who))?${e}`,
);
targetRule(
  'target_should_suffer',
  { identity_attack: 0.95, threat: 0.95 },
  `${b}(?:${TARGET}\\s+(?:should|must|ought to|need to|needs to|deserve to|deserves to|have to|has to|will|are going to|is going to)\\s+(?:all\\s+)?(?:be\\s+)?(?:\\p{L}+ly\\s+)?${VIOLENT_PP}|(?:if|wish|hope|when|until)\\s+(?:all\\s+)?(?:the\\s+)?${TARGET}\\s+(?:were|was|are|is|got|get|would be)\\s+(?:all\\s+)?${VIOLENT_PP}|${TARGET}\\s+(?:deserves?|need|needs|should get)\\s+(?:a bullet|a rope|the rope|to (?:die|hang|burn|suffer|be shot))|(?:death|destruction)\\s+(?:to|2)\\s+(?:all\\s+)?${TARGET}|${TARGET}\\s+(?:is|are)\\s+(?:a\\s+)?dead(?:\\s+(?:one|ones))?|(?:make|making)\\s+${TARGET}(?:\\s+[\\p{L}']+){0,4}?\\s+(?:pay|suffer|bleed))${e}`,
);
// Harm announced to a member of the group ("any <g> who shows up will get his skull cracked").
targetRule(
  'target_harmed',
  { identity_attack: 0.95, threat: 0.95 },
  `${b}${TARGET}(?:\\s+[\\p{L}']+){0,5}?\\s+(?:will|is going to|are going to|gonna|should|would)\\s+get\\s+(?:(?:his|her|their|its|a)\\s+)?(?:skull|head|teeth|face|legs?|neck|throat|arms?|ribs?)s?\\s+(?:cracked|smashed|kicked in|bashed in|caved in|broken|snapped|slit|cut|knocked out)${e}`,
);
targetRule(
  'target_profanity',
  { identity_attack: 0.8, insult: 0.8 },
  `${b}(?:(?:fuck|screw|damn|to hell with|down with)\\s+(?:(?:all|these|those|the|every|you)\\s+)*${TARGET}|(?:bloody|fucking|damn|damned|goddamn|filthy|dirty|stinking)\\s+[PR]+\\s+(?:everywhere|all over the place|taking over)|${TARGET}\\s+(?:are|is)\\s+(?:all\\s+)?full of (?:shit|crap))${e}`,
);
// Hate put as a question or a story, with no hostile word: a rhetorical question that wishes a
// group gone or calls it unwanted ("why can't <group> just disappear?", "who would want a
// <member> as a neighbour?", "are <group> not just a plague?"), a decline blamed on a group's
// arrival ("... was safe before <group> arrived"), a group to be barred ("<group> should be
// banned from our schools").
targetRule(
  'target_rhetorical',
  { identity_attack: 0.8 },
  `${b}(?:why\\s+(?:can'?t|cannot|won'?t|don'?t|do|can)\\s+(?:all\\s+)?(?:the\\s+)?${TARGET}\\s+(?:not\\s+)?(?:just\\s+|simply\\s+)?(?:disappear|vanish|go away|go back|leave|die|drop dead|fuck off|piss off|get out)|who\\s+(?:would|wants to|would ever|could)\\s+(?:ever\\s+)?(?:want|hire|marry|trust|date|rent to|live next to|sit next to)\\s+${TARGET}(?:\\s+as\\s+(?:a|an|their|his|her|my|our)\\s+\\p{L}+)?\\s*\\?|(?:are|aren'?t)\\s+${GROUP}(?:\\s+not)?${PRED})${e}`,
);
targetRule(
  'target_blamed',
  { identity_attack: 0.8 },
  `${b}(?:(?:was|were|used to be)\\s+(?:so\\s+)?(?:safe|safer|better|nice|nicer|clean|cleaner|great|peaceful)\\s+(?:before|until)\\s+(?:all\\s+)?(?:the|these|those)?\\s*${TARGET}|(?:went|gone|going)\\s+(?:downhill|to (?:hell|shit|the dogs|pot)|bad|wrong)\\s+(?:when|after|once|since|the day)\\s+(?:all\\s+)?(?:the|these|those)?\\s*${TARGET})\\s+(?:arrived|came|moved in|showed up|got here|took over|turned up|started coming|were let in)${e}`,
);
targetRule(
  'target_barred',
  { identity_attack: 0.8 },
  `${b}${TARGET}\\s+(?:should|must|ought to|need to|needs to|have to|has to)\\s+(?:all\\s+)?(?:\\p{L}+ly\\s+)?be\\s+(?:banned|barred|kept out(?!\\s+of\\s+(?:danger|harm|harm's way|trouble|the (?:rain|sun|cold|heat|way)|sight))|excluded|expelled|thrown out|kicked out|segregated|rounded up|locked up|put away)${e}`,
);
// ---- implicit hate: what is said of a group, with no hostile word (session 10) -----------------
// Each rule is a predicate class with a group as its subject or object, never a phrase list of
// one sentence: incompatibility, conspiracy or control, inferiority, rights denied, removal, harm
// to the group's places or to people inside them, a member as the cause of a decline. A group
// adjective before any plural noun counts as the group ("gay teachers", "Black families").
// The target is written out small rather than as TARGET (a fifth less expression source for these
// rules): the placeholders carry the group, so determiners only need to be skipped, and a member
// (S) or group adjective (A) before a plural noun is a group.
/** A group as the first word of a rule: determiners before it need no matching (a rule is searched for anywhere). */
const GT0 = `(?:[PRS]+(?:\\s+\\p{L}+s)?|A+\\s+\\p{L}+s)`;
const GT = `(?:(?:all|every|each|the|those|these|of|some|any|most|no|a|an|one|another|this|that)\\s+)*${GT0}`;
const NOT_ = `(?:not|never|no longer|${NOT_CONTRACTED})`;
/** "... do not mix / will never go together" after two things joined by "and". */
const NO_MIX = `(?:(?:simply|just|really|will|can|could|ever)\\s+)*(?:${NOT_}|cannot)\\s+(?:(?:ever|really|simply)\\s+)?(?:mix|go together|coexist|get along|fit together|be reconciled|be compatible|(?:been|be|belong) in the same (?:sentence|room|breath|place))`;
targetRule(
  'target_incompatible',
  { identity_attack: 0.8 },
  `${b}(?:${GT0}\\s+and\\s+(?:\\p{L}+\\s+){1,3}?${NO_MIX}|and\\s+${GT}\\s+${NO_MIX}|${GT0}\\s+(?:(?:will|can|could|simply|just|really)\\s+)*(?:${NOT_}|cannot)\\s+(?:(?:ever|really|simply|truly)\\s+)?(?:fit in(?:to)?|integrate|assimilate|adapt to|be compatible with)(?!\\s+(?:because|since|when|if|unless|until|without)\\b)|${GT0}\\s+(?:are|is)\\s+(?:\\p{L}+ly\\s+)?(?:incompatible|not compatible) with)${e}`,
);
targetRule(
  'target_conspiracy',
  { identity_attack: 0.85 },
  `${b}(?:${GT0}(?:\\s+(?:money|lobby|elites?|bankers))?\\s+(?:(?:secretly|quietly|really|always|still|basically|already|slowly|all|just|somehow|end up|ends up|seem to|seems to|manage to|tend to|are|is)\\s+)*(?:control|controls|controlling|run|runs|running|own|owns|owning|rule|rules|ruling|dominate|dominates|dominating|taking over|take over|takes over|buying up|infiltrat\\p{L}*|pull(?:s|ing)? the strings(?: of| in| behind)?|(?:are|is) behind|plot(?:s|ting)?(?: against| to)?|scheme|scheming|conspir\\p{L}*)\\s+(?:(?:the|our|this|all|every|all of|most of|half of|whole)\\s+)*(?:\\p{L}+\\s+)?(?:media|banks?|banking|money|world|governments?|country|politics|hollywood|finance|economy|press|news|schools?|universities|courts?|police|everything|wars?|europe|america|west|elections?|continent|nation|state|system|housing|property|jobs|us|society|council|parliament|congress|industry|markets?|business(?:es)?|land|trade|institutions|agenda|crash(?:es)?|crisis|crises|recessions?|depressions?|pandemics?|revolutions?|riots?|scandals?)|(?:behind|beneath)\\s+(?:every|all|each|most)\\s+\\p{L}+(?:\\s+\\p{L}+){0,4}?\\s+(?:is|are|you(?:'ll| will) find|stands?|lurks?|hides?)\\s+(?:the\\s+)?${GT})${e}`,
);
targetRule(
  'target_inferior',
  { identity_attack: 0.85 },
  `${b}${GT0}\\s+(?:(?:are|is|will always be|remain)\\s+)(?:(?:just|simply|all|far|much|so|naturally|genetically|inherently|biologically|basically|by nature|always)\\s+)*(?:less\\s+(?:\\p{L}+\\s+)?|not as\\s+|nowhere near as\\s+|never as\\s+|inferior to\\s+|lower than\\s+|beneath\\s+|below\\s+)(?:intelligent|smart|capable|clever|bright|evolved|civili[sz]ed|developed|human|advanced|rational|able|competent|honest|trustworthy|moral|valuable|worthy|gifted|talented|men|women|people|us|the rest of us|(?:every|any)(?:one|body) else|normal people|whites|europeans)${e}`,
);
targetRule(
  'target_rights_denied',
  { identity_attack: 0.85 },
  `${b}(?:${GT0}\\s+(?:(?:should|must|ought to|need to|needs to|deserve to|deserves to)\\s+(?:not|never|no longer)|(?:should|must)n'?t)(?:\\s+ever)?\\s+(?:(?:be\\s+)?(?:allowed|permitted|able|given the (?:right|chance)|have the right|get)\\s+(?:to\\s+)?(?:\\p{L}+\\s+){0,2}?(?:vote|votes|voting|marry|marriage|adopt|adoption|work|jobs?|teach|serve|own|live|hold (?:any\\s+)?(?:office|jobs?|positions?|power)|run for|enter|stay|study|drive|raise|use|have (?:kids|children|rights|a say)|sit on|be (?:citizens|teachers|doctors|judges|officers|parents|here|in charge)|become (?:citizens|teachers|doctors|judges|officers|parents|priests|ministers|president|members|police))|be (?:anywhere )?near (?:our |the |any )?(?:children|kids|schools?|playgrounds?))|${GT0}\\s+(?:should|must|ought to|need to|needs to|deserve to|deserves to)\\s+(?:all\\s+)?(?:(?:lose|be (?:denied|stripped of|refused))\\s+(?:the\\s+|their\\s+|all\\s+|any\\s+)*(?:rights?|right to \\p{L}+|citizenship|vote|votes|passports?|benefits)|have\\s+(?:no|any)\\s+(?:rights?|say|vote))|(?:deny|strip|take away from|refuse)\\s+(?:all\\s+|the\\s+|those\\s+|these\\s+)*${GT}\\s+(?:of\\s+)?(?:their\\s+|the\\s+|any\\s+)*(?:rights?|right to \\p{L}+|citizenship|vote|votes|passports?|jobs|housing)|no\\s+(?:S+|A+\\s+\\p{L}+)\\s+should\\s+(?:ever\\s+)?(?:be\\s+)?(?:allowed|permitted|able|have the right)|${GT0}\\s+(?:have|has)\\s+no\\s+(?:business|right)\\s+(?:to\\s+|in\\s+|\\p{L}+ing(?![\\p{L}]))|${GT0}\\s+belongs?\\s+(?:in|at|back in)\\s+[^,.!?\\n]{1,30}?,?\\s+not\\s+(?:in|at|here|among|with|on))${e}`,
);
targetRule(
  'target_removed',
  { identity_attack: 0.9, threat: 0.85 },
  `${b}(?:(?:drive|drag|chase|run|kick|throw|force|boot|hound|smoke|burn|clear|flush|turf|chuck|get|send)\\s+(?:all\\s+|every\\s+|each\\s+|the\\s+|those\\s+|these\\s+|of\\s+)*${GT}\\s+(?:(?:\\p{L}+\\s+){0,2}?)(?:out|off|away|back|over the border)|round(?:ing)?\\s+up\\s+(?:all\\s+|every\\s+|the\\s+|those\\s+|these\\s+)*${GT}|(?:put|ship|send|load|pack|herd)\\s+(?:all\\s+|every\\s+|the\\s+|those\\s+|these\\s+)*${GT}\\s+(?:on|onto|in|into)\\s+(?:a|the)\\s+(?:\\p{L}+\\s+)?(?:trains?|boats?|trucks?|buses|planes?|camps?|cattle cars?|wagons?)|${GT0}\\s+(?:should|must|need to|needs to|will|are going to|have to)\\s+(?:all\\s+)?be\\s+(?:driven|dragged|chased|run|kicked|thrown|forced|burned|burnt|smoked|rounded)\\s+(?:out|up|off|away))${e}`,
);
// Harm to a group's places, or to its people through them: the place of worship names the group
// ("torch that mosque"); another place needs the group ("that gay bar", "with the <group> inside").
const HARM_PLACE = `(?:burn(?:\\s+down)?|(?:put|take|set) a (?:match|torch|lighter) to|torch|firebomb|fire-?bomb|petrol-?bomb|blow up|bomb|set (?:fire to|alight|on fire)|raze|smash up|desecrate|vandali[sz]e|throw (?:a )?(?:brick|bricks|rocks?|stones?|petrol bombs?|molotovs?) (?:at|through)|(?:bricks?|molotovs?|petrol bombs?) through)`;
const DET_PLACE = `(?:(?:the|that|this|their|every|a|an|any|those|these|our|local|next|nearest|new|big|whole|fucking|damn|filthy|windows? of (?:the|that|their|every))\\s+)*`;
rule(
  'worship_place_harm',
  { identity_attack: 0.85, threat: 0.9 },
  `${b}${HARM_PLACE}\\s+${DET_PLACE}(?:\\p{L}+\\s+)?(?:mosques?|synagogues?|churche?s?|temples?|gurdwaras?|shrines?|mandirs?|kingdom halls?)${e}`,
);
targetRule(
  'target_place_harm',
  { identity_attack: 0.9, threat: 0.9 },
  `${b}(?:${HARM_PLACE}\\s+${DET_PLACE}(?:[AP]+|S+)\\s+(?:\\p{L}+\\s+)?(?:camps?|hostels?|shelters?|homes?|houses?|shops?|stores?|businesses|neighbou?rhoods?|bars?|clubs?|cent(?:re|er)s?|schools?|streets?|quarters?|estates?|villages?)|(?:burn|torch|fire|petrol|bomb|lock|brick|blow|light|gas|explo|flame|grenade|gasoline)\\p{L}*\\b[^.!?\\n]{0,60}?\\bwith\\s+(?:all\\s+)?(?:the\\s+|those\\s+|these\\s+|their\\s+)?(?:[PR]+|A+\\s+\\p{L}+)\\s+(?:still\\s+|locked\\s+|trapped\\s+)?(?:inside|in (?:it|there|them)))${e}`,
);
// Veiled threats through the weapon, not a violent verb: "a <member> walks past, he is getting a
// bullet", "pay the <group> camp a visit tonight with some petrol"; not a beating "from the press" or
// "in the polls".
const THREAT_OBJECT = `(?:bullets?|beating|kicking|knife|blade|noose|rope)`;
const VISIT_WEAPON = `(?:petrol|gasoline|lighters?|lighter fluid|a match|matches|fuel|kerosene|paraffin|acid|torches|bats|baseball bats|guns|knives|ropes?|pitchforks|molotovs?|crowbars|machetes|bullets|cans of petrol|jerry ?cans?)`;
targetRule(
  'veiled_threat',
  { identity_attack: 0.85, threat: 0.9 },
  `${b}(?:(?:S+|[PR]+|A+\\s+\\p{L}+)\\b[^.!?\\n]{0,60}?\\b(?:is|are|'s|will be|gonna be)\\s+(?:getting|gonna get|going to get)\\s+(?:a|some|the)\\s+${THREAT_OBJECT}(?![-\\p{L}])(?!\\s+(?:from|in|at|on|over|by|for)\\b)|(?:pay|give)\\s+(?:the\\s+|those\\s+|that\\s+|their\\s+|a\\s+)?(?:[AP]+|S+|R+)(?:\\s+\\p{L}+)?\\s+(?:a\\s+)?(?:little\\s+|friendly\\s+|late[- ]night\\s+)?visit\\b[^.!?\\n]{0,40}?\\bwith\\s+(?:some\\s+|a few\\s+|a\\s+|our\\s+)?(?:\\p{L}+\\s+)?${VISIT_WEAPON}(?![-\\p{L}]))${e}`,
);
targetRule(
  'member_decline',
  { identity_attack: 0.8 },
  `${b}(?:(?:hire|elect|let|put|give|make|appoint|employ|promote|vote for|rent to|trust|allow)\\s+(?:a|an|one|any)\\s+(?:S+|A+)(?:\\s+[\\p{L}']+){0,6}?\\s+and\\s+(?:just\\s+)?(?:watch|see|wait|you(?:'ll| will) see)\\b[^.!?\\n]{0,50}?\\b(?:downhill|collapse\\p{L}*|crash\\p{L}*|disappear\\p{L}*|go(?:es)? under|fall\\p{L}* apart|go(?:es)? bankrupt|ruin\\p{L}*|to hell|to shit|burn\\p{L}*|fail\\p{L}*|sink\\p{L}*)|(?:since|once|when|after|wherever|ever since|the moment)\\s+(?:all\\s+)?(?:the\\s+|these\\s+|those\\s+)?${GT}\\s+(?:\\p{L}+\\s+){0,3}?(?:arrived|arrive|came|come|moved in|move in|showed up|show up|settled?|settles|took over|take over|started|got here)\\b[^.!?\\n]{0,60}?\\b(?:downhill|to (?:ruin|hell|shit|the dogs|pot)|crime (?:\\p{L}+\\s+)?(?:goes up|went up|rose|has risen|soared|exploded|skyrocketed|follows)|crash\\p{L}*|(?:gone|went|go|goes) bad|fall\\p{L}* apart|ruin\\p{L}*|filth\\p{L}*|stink\\p{L}*|smell\\p{L}*|garbage|rubbish|trash|needles|litter\\p{L}*|follows? them))${e}`,
);
// ---- generalisations and consequences (session 11) --------------------------------------------
// A group as the subject of a generalising predicate about character, competence or habits, with
// no hostile word the predicate lexicons know: "typical <member>", "<group> can't be trusted",
// "they all steal", "<group> make terrible parents", "hire a <member> and count the silverware",
// and questions that presuppose it ("why is it always the <group> causing trouble?", "ever met an
// honest <member>?"). Each rule is a predicate class over the placeholders, not one sentence.
/** Habitual wrongdoing said of a group as a whole. */
const BAD_HABIT = `(?:understand (?:only )?(?:force|violence|the whip|the stick)|scam their own|sell their own|reek|reeks|reeking|lie|lies|lying|steal|steals|stealing|cheat|cheats|cheating|scam|scams|scamming|rob|robs|rape|rapes|stink|stinks|smell|smells|beg|begs|scrounge|scrounges|sponge|sponges|leech|leeches|mooch|mooches|riot|riots|loot|loots|groom|grooms|grooming|breed|breeds|sell drugs|deal drugs|sponge off (?:us|the state|everyone)|live off (?:benefits|welfare|handouts|the state|us))`;
targetRule(
  'group_habit',
  { identity_attack: 0.8 },
  `${b}(?:${GT0}|they)\\s+(?:(?:all|always|just|only|basically|constantly|still|do|will|would|end up|ends up|seem to|tend to|are (?:trained|raised|taught|born) to|trained to|raised to|taught to|born to)\\s+)*${BAD_HABIT}(?=\\s*(?:[,.!?;:]|$)|\\s+(?:everything|anything|whatever|from|off|of|at|all|every|when|wherever|whenever|like|it|our|your|you|us|to)\\b)`,
  [
    'lie',
    'lying',
    'steal',
    'cheat',
    'scam',
    'rob',
    'rape',
    'stink',
    'smell',
    'beg',
    'scroung',
    'sponge',
    'leech',
    'mooch',
    'riot',
    'loot',
    'groom',
    'breed',
    'drugs',
    'live off',
    'reek',
  ],
);
/** What a group is said to be unable to do: competence and character, not facts of a condition or a law. */
const CANT_DO = `(?:be trusted|be faithful|be loyal|be honest|tell the truth|manage (?:money|anything|a business|their money)|do (?:maths|math|science|anything right|a proper job|their job)|think for themselves|think logically|control themselves|keep (?:a job|their hands|it in|their word|a promise|their mouths? shut)|lead|run (?:a country|anything|a business|a company)|handle (?:pressure|money|responsibility|power|stress|criticism)|work hard|hold (?:down )?a job|raise (?:kids|children|a family)|be good (?:parents|fathers|mothers|leaders|neighbou?rs)|pay their (?:way|bills|taxes|debts)|keep (?:anything|their homes?|their houses?|their streets?) clean|be civili[sz]ed|behave)`;
targetRule(
  'group_cannot',
  { identity_attack: 0.8 },
  `${b}${GT0}\\s+(?:(?:just|simply|really|all|still|will|ever)\\s+)*(?:can'?t|cannot|can never|will never|never|are unable to|are incapable of|don'?t know how to)\\s+(?:(?:ever|really|simply|be able to)\\s+)*${CANT_DO}${e}`,
);
targetRule(
  'group_bad_at',
  { identity_attack: 0.8 },
  `${b}${GT0}\\s+(?:(?:all|always|just|simply|really)\\s+)*(?:make|makes|are|is)\\s+(?:(?:such|so|really|truly)\\s+)*(?:terrible|awful|bad|lousy|horrible|useless|hopeless|the worst|poor|shit|shitty|crap|crappy|pathetic)\\s+(?:parents|fathers|mothers|leaders|workers|employees|neighbou?rs|teachers|doctors|drivers|citizens|soldiers|husbands|wives|tenants|bosses|friends|colleagues|engineers|managers|students)${e}`,
);
targetRule(
  'group_never_habit',
  { identity_attack: 0.75 },
  `${b}${GT0}\\s+(?:(?:just|simply|all|really)\\s+)*(?:never|don'?t|do not|won'?t|refuse to)\\s+(?:ever\\s+)?(?:wash|bathe|shower|clean up after themselves|pay (?:taxes|their taxes|rent|their way|their bills|their debts)|learn (?:english|the language|our language))${e}`,
);
targetRule(
  'group_only_here_for',
  { identity_attack: 0.8 },
  `${b}${GT0}\\s+(?:(?:all|only|just)\\s+)*(?:come|came|are|moved|move)\\s+(?:here|over here|to this country|to our country)\\s+(?:(?:only|just)\\s+)?(?:for|to)\\b[^.!?\\n]{0,40}?\\b(?:benefits|welfare|handouts|free (?:stuff|money|housing|healthcare)|crime|drugs|steal|scrounge|sponge|leech|rape|our (?:women|jobs|money|homes))`,
);
// The replacement conspiracy: a group "replacing us" or "taking over" with no object named.
targetRule(
  'group_replacement',
  { identity_attack: 0.85 },
  `${b}${GT0}\\s+(?:(?:are|is|will|all|slowly|deliberately|already|just|being (?:brought|shipped|imported|used) (?:in\\s+)?to)\\s+)*(?:replac(?:e|ing)\\s+(?:us|whites|white people|europeans|christians|the natives|natives|our people|the locals)|taking over(?=\\s*(?:[,.!?;:]|$)|\\s+(?:and|everywhere|slowly|fast)(?![\\p{L}])))`,
  ['replac', 'taking over'],
);
// Exclusion as a slogan (at a clause start: not "help the <group> family out") or a house rule: "<group> out of our country!", "we don't rent to <group>",
// "<group> should stay silent / in the kitchen" (not "... if they want": a choice, not a rule).
targetRule(
  'group_shut_out',
  { identity_attack: 0.8 },
  `${b}(?:(?<=(?:^|[.!?;:,\\n])\\s*)[PR]+(?:\\s+\\p{L}+s)?\\s+out(?:\\s+of\\s+(?:our|my|this)\\s+\\p{L}+)?(?:\\s+now)?(?=\\s*(?:[!.,;]|$))|(?:we|i)\\s+(?:don'?t|do not|won'?t|will not|never|refuse to)\\s+(?:rent|sell|lease|serve|hire|employ)\\s+(?:to\\s+)?(?:any\\s+)?${GT0}(?=\\s*(?:[!.,;]|$)|\\s+(?:here|anymore|again|ever|in (?:this|my|our))(?![\\p{L}]))|${GT0}\\s+(?:should|must|need to|ought to|have to)\\s+(?:stay|be kept|keep|remain)\\s+(?:silent|quiet|in the kitchen|in their place|out of sight|in the closet|hidden|barefoot)(?![^.!?\\n]{0,40}(?<![\\p{L}])(?:if|when|unless|while)(?![\\p{L}])))`,
  ['out', 'rent', 'sell', 'lease', 'serve', 'hire', 'employ', 'stay', 'kept', 'keep', 'remain'],
);
targetRule(
  'group_profiteer',
  { identity_attack: 0.8 },
  `${b}${GT0}\\s+(?:(?:always|somehow|all|just|still)\\s+)*(?:(?:find|finds|found) a way to\\s+|manage to\\s+|seem to\\s+)?(?:profit|profits|profiteer|cash in|get rich|make money)\\s+(?:from|off|on)\\s+(?:every\\s+|a\\s+|the\\s+|other people's\\s+|our\\s+)?(?:wars?|crisis|crises|suffering|tragedy|tragedies|misery|disasters?|deaths?|pandemics?|poverty)`,
);
/** A decline or loss presented as what follows from a member's presence. */
const CONSEQUENCE = `(?:count (?:the|your) \\p{L}+|hide (?:your|the) (?:wallet|valuables|purse|jewell?ery|daughters?|wife|kids|silverware)|lock (?:up )?(?:your|the) (?:doors?|car|valuables|daughters?|wife|kids|silverware)|(?:walk|walks|walked|walking) out (?:the|of the) door|(?:goes|go|went|going) missing|(?:looks?|looking|turns? into|turned into|becomes?) (?:like )?a (?:landfill|dump|pigsty|slum|tip|shithole|zoo|brothel|ghetto|crack den|rubbish heap)|(?:lose|loses|losing|lost) (?:all )?(?:your |their |the )?(?:customers|money|clients|business|everything)|(?:ends?|ended) up (?:broken|bankrupt|ruined|in ruins|a mess|stolen|on fire|in the gutter))`;
const DECLINE = `(?:slips?|slipped|fails?|failed|collaps\\p{L}*|crash\\p{L}*|goes wrong|went wrong|breaks|broke|goes downhill|went downhill|falls? apart|fell apart|sinks?|sank|tanks?|tanked|gets? worse|got worse|(?:is|was) ruined)`;
/** A short outcome after "and": something gone, ruined or worth less ("... and it's gone by morning"). */
const LOSS = `(?:(?:it|they|everything|all of it|half (?:the|your|of the) \\p{L}+|the \\p{L}+(?: \\p{L}+)?|your \\p{L}+(?: \\p{L}+)?)(?:'s|'re| is| are| was| were| will be| goes| go| went| get| gets)?\\s+(?:(?:all|just|soon|quickly)\\s+)?(?:gone|trashed|wrecked|stolen|missing|ruined|destroyed|disappears?|disappeared|vanish(?:es|ed)?|(?:start(?:s|ed)?|begin|began) (?:disappearing|going missing|vanishing|to disappear|to go missing)|drops?|dropped|crash(?:es|ed)?|worthless|filthy|a (?:dump|slum|tip|pigsty|mess|shithole)))`;
targetRule(
  'member_consequence',
  { identity_attack: 0.8 },
  `${b}(?:(?:hire|let|give|put|rent to|employ|invite|marry|trust|leave|elect|appoint|promote|send|move)\\s+(?:(?:a|an|one|any|some|the|those|these)\\s+)?(?:S+|A+(?:\\s+\\p{L}+)?|[PR]+)\\b[^.!?\\n]{0,60}?\\b(?:and|then)\\s+(?:[^.!?\\n]{0,50}?\\s)?(?:${CONSEQUENCE}|${LOSS})|(?:every time|whenever|wherever|each time|any time)\\s+(?:(?:a|an|one|some|the|those|these)\\s+)?(?:S+|A+(?:\\s+\\p{L}+)?|[PR]+)\\b[^.!?\\n]{0,60}?\\b(?:${DECLINE}|${CONSEQUENCE}|${LOSS}))${e}`,
  [
    'gone',
    'trash',
    'wreck',
    'stolen',
    'missing',
    'ruin',
    'destroy',
    'disappear',
    'vanish',
    'drop',
    'crash',
    'worthless',
    'filthy',
    'dump',
    'slum',
    'tip',
    'pigsty',
    'mess',
    'shithole',
    'count ',
    'hide ',
    'lock ',
    'out the door',
    'out of the door',
    'landfill',
    'zoo',
    'brothel',
    'ghetto',
    'crack den',
    'rubbish',
    'lose',
    'losing',
    'lost',
    'ended up',
    'ends up',
    'end up',
    'slip',
    'fail',
    'collaps',
    'wrong',
    'break',
    'broke',
    'downhill',
    'apart',
    'sink',
    'sank',
    'tank',
    'worse',
    'ruined',
  ],
);
targetRule(
  'decline_after_arrival',
  { identity_attack: 0.8 },
  `${b}(?:crime|the crime rate|crime rates|(?:the\\s+)?(?:street|area|town|neighbou?rhood|school|city|park|estate|village|country))\\s+(?:\\p{L}+\\s+){0,6}?(?:went up|rose|soared|exploded|doubled|went downhill|went to (?:hell|shit|the dogs)|got worse|started (?:smelling|stinking|to smell|to stink)|fell apart|became a (?:dump|slum|shithole|ghetto))\\b[^.!?\\n]{0,30}?\\b(?:when|after|once|since|the (?:same )?(?:year|day|month|week))\\s+(?:all\\s+)?(?:the\\s+|these\\s+|those\\s+)?${GT}\\s+(?:\\p{L}+\\s+){0,2}?(?:arrived|came|moved|showed up|settled|took over|got here|were let in)${e}`,
  ['arrived', 'came', 'moved', 'showed up', 'settled', 'took over', 'got here', 'let in'],
);
targetRule(
  'rhetorical_presupposition',
  { identity_attack: 0.8 },
  `${b}(?:why (?:is|are) it always\\s+(?:the\\s+)?${GT0}\\s+(?:(?:who|that)\\s+(?:are\\s+)?)?(?:causing|making|starting|committing|dealing|selling|stealing|robbing|raping|stabbing|shooting|begging|rioting|looting|fighting|littering|shoplifting|scamming|cheating|lying|whining|playing the (?:victim|race card)|ruining|wrecking)|(?:(?:has|have)\\s+(?:any\\s?(?:one|body)|you)\\s+(?:ever\\s+)?(?:met|seen|known|found)|(?:name|show me|find me)(?:\\s+even)?)\\s+(?:a|an|one|a single)\\s+(?:honest|clean|smart|intelligent|hard-?working|decent|sober|law-abiding|polite|educated|sane|normal|trustworthy|peaceful|competent|useful|good|working)\\s+(?:S+|A+(?:\\s+\\p{L}+)?)|is there (?:a|one|even one|a single|one single)\\s+(?:single\\s+)?(?:S+|A+(?:\\s+\\p{L}+)?)\\s+who\\s+(?:isn'?t|is not|doesn'?t|does not|hasn'?t|has not)|are there any\\s+${GT0}\\s+(?:who|that)\\s+(?:actually|really|even)|what (?:else )?(?:do|did|would|can|could) (?:you|we|anyone|u) expect from\\s+(?:the\\s+|a\\s+|an\\s+|those\\s+|these\\s+)?(?:[PRS]+|A+\\s+\\p{L}+)(?=\\s*[,?!.:;\\u2014-]|\\s*$))`,
  ['why', 'met', 'seen', 'known', 'found', 'name', 'show me', 'find me', 'expect', 'is there', 'are there'],
);
targetRule(
  'target_not_normal',
  { identity_attack: 0.8 },
  `${b}${GT0}\\s+(?:just\\s+|simply\\s+|really\\s+)?(?:do not|don'?t|never|can'?t|cannot|will never)\\s+(?:\\p{L}+\\s+){1,4}?(?:the way|like|as)\\s+(?:normal|real|decent|proper|civili[sz]ed|regular)\\s+(?:people|families|folks|humans|men|women|citizens|parents|kids|children)${e}`,
);
rule(
  'group_objectified',
  { identity_attack: 0.85, dehumanisation: 0.85 },
  `${b}${GROUP}\\s+${BE}\\s+(?:(?:just|only|nothing but|mere|merely|simply)\\s+)*(?:property|objects|possessions|things|livestock|breeding stock)(?=\\s*(?:[,.;!?]|$)|\\s+(?:nothing|not (?:people|humans?|persons)|to be (?:owned|used|bought|sold)|of (?:their|the|men|husbands?)))`,
);

/**
 * Hostile words with typos a reader still understands ("vermiiin", "disgsuting"): the literal words
 * of the predicate lexicons, five letters or more. repairSpelling() rewrites such a word in place.
 */
const FUZZY_LEXICON = new Set(
  [NEG_WORD, HATE_VERB, KILL_MORE, VIOLENT_PP]
    .join('|')
    .split(/[|()]/)
    .map((w) => w.replace(/\?:/g, ''))
    .filter((w) => /^[a-z]{4,}$/.test(w)),
);
/** Every one-swap misspelling of a lexicon word of five letters or more, to that word. */
const FUZZY_SWAPS = (() => {
  const out = new Map<string, string>();
  for (const w of FUZZY_LEXICON)
    for (let i = 0; w.length >= 5 && i + 1 < w.length; i++) {
      if (w[i] === w[i + 1]) continue;
      const v = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
      if (!FUZZY_LEXICON.has(v) && !out.has(v)) out.set(v, w);
    }
  return out;
})();
/** Length and first two letters of every lexicon word and one-swap variant: most words are ruled out without a substring. */
const FUZZY_KEYS = new Set([...FUZZY_LEXICON, ...FUZZY_SWAPS.keys()].map((w) => fuzzyKey(w.length, w.charCodeAt(0), w.charCodeAt(1))));
/**
 * Whether a word with a doubled letter may collapse to a lexicon word (repairSpelling): the length
 * and first two letters of each collapsed form are looked up before any string is built.
 */
function mayCollapse(w: string): boolean {
  // Runs collapsed to one letter, runs of 3+ collapsed to two, and the last letter dropped.
  let one = 0;
  let two = 0;
  let o0 = 0;
  let o1 = 0;
  let t0 = 0;
  let t1 = 0;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    const run = i > 0 && c === w.charCodeAt(i - 1) ? (i > 1 && c === w.charCodeAt(i - 2) ? 3 : 2) : 1;
    if (run === 1) {
      if (one === 0) o0 = c;
      else if (one === 1) o1 = c;
      one++;
    }
    if (run <= 2) {
      if (two === 0) t0 = c;
      else if (two === 1) t1 = c;
      two++;
    }
  }
  return (
    FUZZY_KEYS.has(fuzzyKey(one, o0, o1)) ||
    FUZZY_KEYS.has(fuzzyKey(two, t0, t1)) ||
    FUZZY_KEYS.has(fuzzyKey(w.length - 1, w.charCodeAt(0), w.charCodeAt(1)))
  );
}
/** A word with "-" or "!" between its letters. */
const SPLIT_WORD = /(?<![a-z])[a-z]+(?:[!-][a-z]+)+(?![a-z])/g;
function fuzzyKey(len: number, c0: number, c1: number): number {
  return len * 65536 + c0 * 256 + c1;
}
/**
 * The text with misspelt hostile words repaired, same length and offsets (a collapsed letter run
 * is padded with spaces, which the rules read as a word gap): runs of one repeated letter and
 * one swap of neighbouring letters are undone when that yields a lexicon word. Null if nothing
 * changed. Words are runs of a-z (the lexicon's letters) scanned in place; a substring is cut
 * only for a word that may be a swap of a lexicon word or has a doubled letter.
 */
function repairSpelling(t: string): string | null {
  let r: string | null = null;
  // A hostile word split into syllables or with "!" for "i" ("dis-gus-ting", "d!sgust!ng").
  SPLIT_WORD.lastIndex = 0;
  for (let m = t.includes('-') || t.includes('!') ? SPLIT_WORD.exec(t) : null; m; m = SPLIT_WORD.exec(t)) {
    // Length and first letters of the joined word first: most hyphenated words are ruled out uncut.
    let len = 0;
    let c0 = 0;
    let c1 = 0;
    for (let i = 0; i < m[0].length; i++) {
      let c = m[0].charCodeAt(i);
      if (c === 45) continue;
      if (c === 33) c = 105;
      if (len === 0) c0 = c;
      else if (len === 1) c1 = c;
      len++;
    }
    if (!FUZZY_KEYS.has(fuzzyKey(len, c0, c1))) continue;
    const w = m[0].replace(/!/g, 'i').replace(/-/g, '');
    const fix = FUZZY_LEXICON.has(w) ? w : FUZZY_SWAPS.get(w);
    if (fix) r = (r ?? t).slice(0, m.index) + fix.padEnd(m[0].length, ' ') + (r ?? t).slice(m.index + m[0].length);
  }
  t = r ?? t;
  for (let i = 0; i < t.length;) {
    if (!isLower(t.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    let doubled = false;
    while (j < t.length && isLower(t.charCodeAt(j))) {
      if (j > i && t.charCodeAt(j) === t.charCodeAt(j - 1)) doubled = true;
      j++;
    }
    const a = i;
    i = j;
    // Part of a longer word in another script, or too short to be a lexicon word.
    if (j - a < 4 || (a > 0 && t.charCodeAt(a - 1) >= 0x80) || (j < t.length && t.charCodeAt(j) >= 0x80)) continue;
    const maySwap = FUZZY_KEYS.has(fuzzyKey(j - a, t.charCodeAt(a), t.charCodeAt(a + 1)));
    if (!maySwap && !doubled) continue;
    const w = t.slice(a, j);
    if (FUZZY_LEXICON.has(w)) continue;
    let fix = FUZZY_SWAPS.get(w) ?? null;
    if (!fix && doubled && mayCollapse(w)) {
      const collapsed = w.replace(/(\p{L})\1+/gu, '$1');
      const twice = w.replace(/(\p{L})\1{2,}/gu, '$1$1');
      if (FUZZY_LEXICON.has(collapsed)) fix = collapsed;
      else if (twice !== w && FUZZY_LEXICON.has(twice)) fix = twice;
      else if (w.length <= 12 && FUZZY_LEXICON.has(w.slice(0, -1)) && w[w.length - 1] === w[w.length - 2]) fix = w.slice(0, -1);
    }
    if (!fix) continue;
    r ??= t;
    r = r.slice(0, a) + fix.padEnd(w.length, ' ') + r.slice(j);
  }
  return r;
}

// ---- a group and a hostile word in one clause ---------------------------------------------------
// The fallback for phrasings no rule above knows ("seeing a <g> ruins my day", "<group> are
// incapable of honest work", "bloody <group> everywhere"): a protected group (or "they" after one
// was named) and a hostile word in the same clause, unless the group is the victim ("violence
// against <group>", "<group> face hatred", "<group> were attacked") or the hostile word is negated
// ("<group> are not a threat"). Weaker than a rule hit, still over the threshold. Profanity and
// violent verbs do not count here (Davidson's "offensive" tweets pair "girls" or "men" with them
// all the time: "enough to kill two and a half men"); the rules above handle "fuck <group>" and
// threats.
const TARGET_ANY = wordRegex(`${b}(?:${TARGET}|they|them|these people|those people)${e}`, 'gu');
const HOSTILE_ANY = wordRegex(
  `${b}(?:${NEG_WORD}|${HATE_VERB}|${VIOLENT_PP}|rodents?|hates?|hated|hating|(?:my|our) (?:hatred|hate|disgust|contempt|loathing)|throw up|puke|vomit|disgust\\p{L}*|repuls\\p{L}*|ruins?|ruined|murder\\p{L}*|shoot|knife|stab\\p{L}*|gas|end them|go back|back (?:to )?where (?:they|you) (?:came from|belong)|sleep with one eye open|(?:days|time) (?:is|are) numbered|teach (?:them|him|her|those \\p{L}+|these \\p{L}+) a lesson|(?:had|'d) better (?:watch out|be careful|run|leave|hide)|won'?t be safe|(?:know|find out) where (?:they|you) live|(?:have|has) it coming|get what(?:'s| is) coming|(?:i|we)\\s+(?:\\p{L}+\\s+)?(?:have|feel|got)\\s+(?:zero|no|0)\\s+(?:respect|tolerance|sympathy|patience|time)\\s+for|(?:should|must|can) (?:stick to|stay in|keep to) (?:\\p{L}+ing|the kitchen|their (?:place|own kind|own country))|(?:only|just) (?:good|fit) for|good for nothing|know (?:their|your) place|(?:clutch|hold on to|hide|lock up|guard)\\s+(?:your|my|our)\\s+(?:wallets?|purses?|bags?|valuables|daughters?|wives|kids|children)|smell\\p{L}*\\s+(?:awful|bad|terrible|horrible|disgusting|foul)|never wash|back home|kept out(?!\\s+of\\s+(?:danger|harm|harm's way|trouble|the (?:rain|sun|cold|heat|way)|sight))|keep (?:them|\\p{L}+) out(?!\\s+of\\s+(?:danger|harm|harm's way|trouble|the (?:rain|sun|cold|heat|way)|sight))|get out|want (?:them|you) gone|disappear|breed|multiply|swarm|infest\\p{L}*|incapable|liars?|vile|inferior|degenerates?|(?:not|never|no|${NOT_CONTRACTED})\\s+(?:\\p{L}+\\s+){0,3}?(?:worthy|welcome|human|real people|trusted|respect\\p{L}*|equals?|kindness|rights)|deserves? no|never (?:let|allow|trust|hire|respect|marry)|(?:do not|don'?t|never) want|(?:have|has|got) no (?:morals|shame|decency|honou?r|manners|brains|values|conscience|culture|loyalty|dignity|souls?)|(?:an )?insult to (?:humans|humanity|the human race|real people)|(?:better|safer|cleaner|nicer|happier)\\s+(?:\\p{L}+\\s+){0,3}?(?:with|if there were) (?:fewer|less|no))${e}`,
  'gu',
);
// "n't" is glued to its verb ("aren't", "don't"), so it needs no word boundary before it.
const NEGATED_BEFORE = /(?:(?:^|[^\p{L}])(?:not|never|no|nobody|nothing|nor|without|hardly)|n't)(?:\s+\p{L}+){0,2}\s*$/u;
const VICTIM_BEFORE =
  /(?:against|towards?|(?:killing|killings|murders?|massacres?|genocide|persecution|oppression|deaths?|abuse|mistreatment|treatment|deportations?|discrimination|attacks?|violence|crimes?) (?:of|on|against|towards?))\s+(?:(?:the|all|these|those|many|some)\s+)?$/u;
const VICTIM_AFTER =
  /^\s+(?:(?:are|is|were|was|have been|has been|being|get|got|keep getting|often|still|too often)\s+)*(?:\p{L}+ly\s+)?(?:face|faced|facing|suffer\p{L}*|experienc\p{L}*|endur\p{L}*|victims?|flee\p{L}*|fled|escap\p{L}*|targeted|harassed|attacked|killed|murdered|persecuted|discriminated|mistreated|abused|bullied|insulted|threatened|hurt|beaten|stabbed|shot|slaughtered|massacred|oppressed|marginali[sz]ed|excluded|denied|deported|dying|died|die|fear|feared)(?![\p{L}])/u;
/** . ; ! ? or a newline (a char code check: a regexp run per character is costly, interpreted). */
const isClauseEnd = (c: number) => c === 46 || c === 59 || c === 33 || c === 63 || c === 10;

/**
 * Threats carried by an object or an outcome rather than a violent verb, in one clause that names a
 * group, a member, a group's place ("the Turkish shop", "their house") or a place of worship:
 * the outcome said of the target ("their church will burn", "the <member> family won't see the
 * morning", "will be ashes by Sunday"), or an arson or weapon object with intent or an outcome
 * ("we'll drop by the <group> bakery with a can of gasoline", "one jerry can and that mosque is
 * history"). A clause that negates ("nobody should ...") or has no intent (a fire reported in the
 * past tense) is no threat. Runs on the group windows (placeholders) and, for places of worship,
 * on any text that names one.
 */
const WORSHIP_PLACE = /(?<![\p{L}\p{N}])(?:mosques?|synagogues?|church(?:es)?|temples?|gurdwaras?|mandirs?|shrines?)(?![\p{L}\p{N}])/u;
const WORSHIP_STEM = containsAny(['mosque', 'synagogue', 'church', 'temple', 'gurdwara', 'mandir', 'shrine']);
/** Whether t names a place of worship: a literal scan first (the regexp, interpreted, cost ~80 µs per KB). */
function namesWorshipPlace(t: string): boolean {
  return WORSHIP_STEM.test(t) && WORSHIP_PLACE.test(t);
}
const THREAT_TARGET = new RegExp(
  `(?:[PRS]{2,}|A{2,}\\s+\\p{L}+|(?<![\\p{L}])(?:their|his|her)\\s+(?:houses?|homes?|flats?|shops?|cars?|kids|famil(?:y|ies)|camps?|place|street)(?![\\p{L}])|${WORSHIP_PLACE.source})`,
  'gu',
);
const THREAT_OUTCOME = new RegExp(
  `[^.;!?\\n]{0,40}?(?<![\\p{L}])(?:(?:is|are|'s) (?:going|gonna go) up in (?:flames|smoke)|(?:will|'ll|is going to|are going to|gonna|is gonna|would|should|needs? to|deserves? to)\\s+(?:\\p{L}+ly\\s+)?(?:burn(?:\\s+down|\\s+to the ground)?(?=\\s*(?:[,.!?;:]|$)|\\s+(?:one|some|tonight|tomorrow|soon|by|next|this|within|before|and|like|nicely|beautifully|well|bright|too|with)(?![\\p{L}]))|be (?:ashes|ash|rubble|a crater|a pile of (?:ash|ashes|rubble)|on fire|in flames|burning|burnt|burned|razed|flattened|blown up|blown to (?:bits|pieces))|go up (?:in flames|in smoke|nicely|beautifully|like a)|light up (?:nicely|beautifully|like a)|find (?:their|his|her|its) (?:house|home|flat|shop|car|place) (?:on fire|in flames|burn(?:ed|t|ing)))|(?:will|'ll|are going to|is going to)\\s+(?:be sorry|regret (?:it|this|the day)|pay for (?:it|this)|get what'?s coming)(?!\\s+(?:to|that|for|about)(?![\\p{L}]))|needs?\\s+(?:a|some)\\s+(?:fire|match|torch|molotov)(?![\\p{L}-])(?!\\s+(?:exit|alarm|door|escape|extinguisher|safety|inspection|drill|marshal|certificate|brigade|station|service)s?(?![\\p{L}]))|(?:gets?|is getting|are getting|will get|'s getting|(?:is|are) in for)\\s+a\\s+(?:little\\s+|big\\s+|nasty\\s+)?(?:surprise|lesson)(?!\\s*(?:party|parties|gift|visit|from|in|on|about|at)(?![\\p{L}]))|(?:won'?t|will not|will never|never)\\s+(?:wake up|see (?:the (?:morning|sunrise|next day)|tomorrow|another day|christmas)|live to see|be (?:standing|alive|breathing))(?![\\p{L}])(?![^.;!?\\n]{0,30}(?<![\\p{L}])(?:without|unless|if|because)(?![\\p{L}])))(?![\\p{L}])`,
  'yu',
);
const THREAT_INSTRUMENT =
  /(?<![\p{L}])(?:(?:petrol|gasoline)(?!\s+(?:stations?|pumps?|prices?|tanks?|cars?|engines?|mowers?|heads?))|gas cans?|jerry ?cans?|lighter fluid|molotovs?|pipe ?bombs?|pressure cookers?|fertili[sz]er bombs?|dynamite|explosives?|grenades?|accelerant|kerosene|paraffin|machetes?|baseball bats|bats|crowbars|guns|rifles|ammo|nooses?)(?![\p{L}])/gu;
const THREAT_INTENT =
  /(?<![\p{L}])(?:'ll (?:drop by|visit|pay|come|be back)|drop(?:ping)? by|pay(?:ing)? (?:them|it|the\s+\p{L}+|that\s+\p{L}+) a visit|(?:coming|armed|back) with|(?:we|i) know (?:where|which)|(?:the |their |his |her )?address(?:es)? of|let'?s|tonight|one of these (?:nights|days)|this (?:weekend|friday|saturday|sunday)|send (?:a|the) message|(?:is|are|'s|will be) (?:history|gone|toast|done for|finished|a memory|no more))(?![\p{L}])/gu;
/** A stated harmless purpose ("petrol for the generators", "... because the power is out"). */
const THREAT_PURPOSE =
  /(?<![\p{L}])(?:because|so (?:that|they)|to help|for (?:the|their) (?:generators?|stoves?|cars?|lamps?|heating|cooking|tractors?|boats?|trucks?)|donat\p{L}*|supplies|aid|relief)(?![\p{L}])/gu;
const THREAT_NEGATED =
  /(?<![\p{L}])(?:no one|nobody|not|never|don'?t|do not|won'?t|wouldn'?t|shouldn'?t|should not|must not)(?![\p{L}])|n't(?![\p{L}])/gu;
/**
 * Idioms that carry a threat without a violent word, said in a clause that names the target
 * ("<group> better watch their backs", "should sleep with one eye open", "accidents happen to
 * <group> who ...", "leaves in an ambulance", "we've got the names and addresses of every <member>").
 */
const VEILED_IDIOM =
  /(?<![\p{L}])(?:watch (?:their|your|his|her) backs?|sleep with one eye open|accidents (?:happen|can happen)|(?:leaves?|leaving|go(?:es)? home|ends? up|carried out) in (?:an ambulance|a body ?bag|a box|a coffin|pieces|bits)|(?:going|go|end up|ends up|thrown) (?:in|into) the (?:river|canal|sea|lake|harbour)|names and addresses|(?:we|i) know where (?:they|you|he|she) (?:live|lives|sleep|sleeps)|deserve(?:s)? (?:whatever|everything) (?:happens|they get|is coming|comes))(?![\p{L}])/gu;
/** A warning, leak or investigation reported: the idiom is someone else's, or a danger described. */
const THREAT_REPORTED =
  /(?<![\p{L}])(?:warn\p{L}*|advis\p{L}*|urg\p{L}*|leak\p{L}*|investigat\p{L}*|police|reported|charged|arrested|convicted|court)(?![\p{L}])/gu;
/** A wished disaster for the target ("I hope the <group> boats sink"), not "dies down" or "burns out". */
const WISHED_HARM =
  /(?<![\p{L}])(?:i|we) (?:hope|pray|wish)\b[^.;!?\n]{0,50}?(?<![\p{L}])(?:sink|sinks|drown|drowns|burn(?! out)|burns(?! out)|die(?! down)|dies(?! down)|crash|crashes|catch fire|catches fire|blow up|blows up|get shot|gets shot)(?![\p{L}])/gu;
/** Whether global `re` matches inside t[a, z) (its first match from a ends by z); no string is cut. */
function inSpan(re: RegExp, t: string, a: number, z: number): boolean {
  re.lastIndex = a;
  return re.test(t) && re.lastIndex <= z;
}
function objectThreats(sub: string, out: Array<[number, number]>): void {
  // Clause by clause, by offsets into the window: slicing each clause cost ~1.5 KB per message.
  // The first target at or after a clause start is found once and reused for the clauses before it
  // (a match at a position does not depend on where the search began), so the window is not
  // rescanned from every clause; with no target left, no later clause can hit.
  let ti = -1;
  let tl = 0;
  for (let a = 0; a < sub.length;) {
    let z = a;
    while (z < sub.length && !isClauseEnd(sub.charCodeAt(z))) z++;
    if (ti < a) {
      THREAT_TARGET.lastIndex = a;
      const m = THREAT_TARGET.exec(sub);
      if (!m) return;
      ti = m.index;
      tl = THREAT_TARGET.lastIndex;
    }
    if (tl <= z) {
      THREAT_OUTCOME.lastIndex = tl;
      if (THREAT_OUTCOME.test(sub) && THREAT_OUTCOME.lastIndex <= z) {
        // The hit starts at the target, so a negation before it in the clause still negates.
        out.push([ti, THREAT_OUTCOME.lastIndex]);
      } else if (!inSpan(THREAT_NEGATED, sub, a, z)) {
        if (
          (inSpan(THREAT_INSTRUMENT, sub, a, z) && inSpan(THREAT_INTENT, sub, a, z) && !inSpan(THREAT_PURPOSE, sub, a, z)) ||
          ((inSpan(VEILED_IDIOM, sub, a, z) || inSpan(WISHED_HARM, sub, a, z)) && !inSpan(THREAT_REPORTED, sub, Math.max(0, a - 80), z))
        )
          out.push([a, z]);
      }
    }
    a = z + 1;
  }
}

/** Spans [start, end) of rt where a target and a hostile word share a clause. */
function groupHostility(rt: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let named = false;
  TARGET_ANY.re.lastIndex = 0;
  for (let t = execWord(TARGET_ANY, rt), k = 0; t && k < 20; t = execWord(TARGET_ANY, rt), k++) {
    const ts = t.index;
    const te = ts + t[0].length;
    const pronoun = /^(?:they|them|these people|those people)$/.test(t[0]);
    if (pronoun && !named) continue;
    if (!pronoun) named = true;
    if (VICTIM_BEFORE.test(rt.slice(Math.max(0, ts - 40), ts)) || VICTIM_AFTER.test(rt.slice(te, te + 50))) continue;
    let cs = ts;
    while (cs > 0 && !isClauseEnd(rt.charCodeAt(cs - 1))) cs--;
    let ce = te;
    while (ce < rt.length && !isClauseEnd(rt.charCodeAt(ce))) ce++;
    HOSTILE_ANY.re.lastIndex = cs;
    for (let h = execWord(HOSTILE_ANY, rt); h && h.index < ce; h = execWord(HOSTILE_ANY, rt)) {
      const he = h.index + h[0].length;
      if (he > ce) break;
      if (h.index < te && he > ts) continue;
      if (
        !/^(?:not|never|no|deserves? no|(?:do not|don'?t|never) want)/.test(h[0]) &&
        NEGATED_BEFORE.test(rt.slice(Math.max(cs, h.index - 20), h.index))
      )
        continue;
      out.push([Math.min(ts, h.index), Math.max(te, he)]);
      break;
    }
  }
  return out;
}

rule(
  'slur_excluded',
  { identity_attack: 0.85 },
  `${b}no\\s+(?:more\\s+)?(?:fags?|faggots?|niggers?|niggas?|kikes?|ragheads?|towelheads?|wetbacks?|trann(?:y|ie)s?|spics?|chinks?|gooks?|beaners?|pakis?)\\s+(?:allowed|welcome|wanted|here|please)${e}`,
);
// Threats and self-harm encouragement aimed at the reader.
const THREAT_VERBS = alt(LEX.THREAT_VERBS);
rule(
  'threat_person',
  { threat: 0.95 },
  `${b}(?:i|we)(?:'ll| will| am going to| are going to| gonna|'m going to|'re going to| want to| wanna| shall)\\s+(?:\\p{L}+\\s+)?${THREAT_VERBS}\\s+(?:you|u|him|her|them|your|his|their|everyone|all)${e}`,
);
rule(
  'threat_phrase',
  { threat: 0.9 },
  `${b}(?:you(?:'re| are) (?:going to|gonna) die|(?:make|watch) (?:you|them) (?:bleed|suffer|scream|burn)|you (?:will|'ll) die|i know where you live|watch your back|you(?:'re| are) dead(?: meat)?|you won'?t see tomorrow)${e}`,
);
rule(
  'threat_ml',
  { threat: 0.9 },
  `${b}(?:te (?:voy a|vamos a) (?:matar|romper)|je vais te (?:tuer|buter|crever)|ich (?:werde|will) dich (?:umbringen|toten|abstechen)|ti (?:ammazzo|uccido)|vou te matar|te mato|ich bring dich um)${e}`,
);
rule(
  'self_harm_encourage',
  { self_harm: 0.95 },
  `${b}(?:(?:you should|go|just|please|why don'?t you|do us a favou?r and|do everyone a favou?r and)\\s+(?:\\p{L}+\\s+)?(?:kill|hang|cut|shoot|drown|end)\\s+(?:yourself|urself|your life|it all)|kys|kill urself|(?:nobody|no one) (?:would|will) (?:care|miss you)\\b[^.!?\\n]{0,30}(?:died|killed yourself|gone|dead)|jump off a (?:bridge|building|cliff)|drink bleach|end it already|cut yourself again|you deserve to die|you should die|go die)${e}`,
);
rule(
  'self_harm_howto',
  { self_harm: 0.55 },
  `${b}(?:how (?:do i|to|can i) (?:kill myself|commit suicide|end my life|cut myself)|best way to (?:kill myself|commit suicide|die))${e}`,
);
rule(
  'sexual_harass',
  { sexual: 0.85 },
  `${b}(?:send (?:me )?(?:nudes|pics of your (?:body|tits|ass))|show me your (?:tits|boobs|ass|pussy|dick|cock)|i(?:'ll| will| want to| wanna| am going to|'m going to| gonna) (?:rape|grope|fuck|molest) (?:you|her|him)|suck my (?:dick|cock)|sit on my face)${e}`,
);
// Insults aimed at the reader.
// INSULTS: "retard" not as the verb ("retard the timing").
const INSULTS = alt(LEX.INSULTS);
rule(
  'insult_you',
  { insult: 0.8 },
  `${b}(?:you(?:'re| are| r)?|u r|ur|du bist|eres|tu es|t'es|sei|voce e|you stupid|you fucking|you little|you absolute)\\s+(?:such\\s+)?(?:an?\\s+|a\\s+fucking\\s+|ein(?:e)?\\s+|un(?:a|e)?\\s+|um(?:a)?\\s+)?(?:\\p{L}+\\s+)?${INSULTS}${e}`,
);
rule(
  'insult_phrase',
  { insult: 0.85 },
  `${b}(?:fuck you|fuck off|screw you|go to hell|shut (?:the fuck )?up,? (?:you|bitch)|vete a la mierda|va te faire foutre|fick dich|vaffanculo|vai (?:se|te) foder)${e}`,
);

// Counter-speech, reporting and negation: hate that is quoted, condemned or denied.
// Negation counts only outside a rule's own match: "<group> are not human" is dehumanising,
// "<group> are not vermin, they are our neighbours" is not.
/** A negation in a rhetorical question that affirms ("is it not obvious that", "isn't it clear that"). */
const RHETORICAL_NOT = /(?:\b(?:is|was) it not|\b(?:isn'?t|wasn'?t) it) (?:obvious|clear|evident|plain|true|a fact) that\b/;
const NEGATION =
  /\b(?:do not|don'?t|does not|doesn'?t|never|would never|will never|nobody should|no one should|nobody (?:here )?(?:thinks|believes|says|claims)|shouldn'?t|should not|isn'?t|aren'?t|are not|is not|not|no)\b/gi;
const DAMPERS = new RegExp(
  [
    '\\b(?:bigot(?:ry|ed|s)?|racis[mt]|sexis[mt]|homophob\\w*|transphob\\w*|xenophob\\w*|antisemit\\w*|islamophob\\w*|hateful|hate speech|dehumanis\\w*|dehumaniz\\w*|unacceptable|disgusting when|wrong to|lies? that|myth that|false that|untrue that|not true that|nonsense that|absurd that|ridiculous to (?:say|claim|think)|stereotype\\w*|debunk\\w*|conspiracy theor\\w*|tropes?)\\b',
    '\\b(?:(?:your|his|her|their|the|such|this|that) hatred (?:of|for|towards?)|(?:people|anyone|those|someone|whoever) who (?:attacks?|hates?|insults?|threatens?|harass(?:es)?|abuses?|targets?|bull(?:y|ies)|calls?|mocks?)|(?:is|are) (?:never|not|no longer) (?:ok|okay|acceptable|fine|right|justified|excusable|funny)|says? more about|^(?:threatening|attacking|insulting|harassing|calling|mocking|hating|demonising|demonizing) )\\b',
    "\\b(?:(?:sick|tired|fed up) of (?:hearing|reading|being told|people (?:saying|claiming))|(?:the )?court (?:heard|was told)|told the court|testif\\w*|the jury|pleaded guilty|found guilty|charged with|accused of (?:calling|shouting|saying|posting|writing)|(?:is|it's|that's) (?:discrimination|discriminatory)|reported|report(?:s|ed|ing)? (?:a|the|this)|arrested|convicted|(?<!\\bbe )banned|condemn\\w*|propaganda|documents?|quoted?|shouted|chanted|called (?:them|us)|anyone who says|people who say|if you (?:think|believe|say)|stop (?:saying|spreading|calling)|saying that|claims? that|comments? like|posts? (?:that|saying)|survived)\\b",
  ].join('|'),
  'i',
);
const DAMP = 0.35;

// ---- obscenity lexicon ------------------------------------------------------------------------

/** Slurs by weight: lower where the word is widely reclaimed or has other senses ("nigga" in AAVE, "dyke", "coon"). */
const SLURS = new Map<string, number>(Object.entries(LEX.SLURS));
const SEXUAL = new Set(LEX.SEXUAL);
// Slurs obscenity's English list lacks, matched on the de-obfuscated text ("w3tb4ck" -> "wetback"),
// each with its weight (lexicon.json); a pattern's lookahead keeps other senses out ("coon hound").
const EXTRA_SLUR_PATTERNS = Object.entries(LEX.EXTRA_SLURS).map(([p, w]) => ({ re: new RegExp(p, 'uy'), w }));
const EXTRA_SLURS = wordRegex(`${WORD_START}(?:${Object.keys(LEX.EXTRA_SLURS).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
/** The weight of the extra slur that matched at `at` of t. */
function extraSlurWeight(t: string, at: number): number {
  for (const x of EXTRA_SLUR_PATTERNS) {
    x.re.lastIndex = at;
    if (x.re.test(t)) return x.w;
  }
  return 0.85;
}
/**
 * Long slurs also inside a word, as spaced-letter joining leaves them ("you are a f a g g o t" ->
 * "afaggot"); "snigger" is not one. The short "fag" only after a joined article ("a f a g" ->
 * "afag", a word start checked in code: a look-behind here made the scan 4x slower).
 */
const EMBEDDED_SLURS = /faggot|(?<!s)nigger|afags?(?![a-z])/g;
/**
 * Slurs with letters masked by `*`, `!`, `#` or `%` inside the word ("n!gger", "f*ggot", "k!ke",
 * "ch*nk"): leetspeak folding leaves these characters, and obscenity does not read them as letters.
 * A masked word matches a slur form of the same length whose letters agree where they are shown;
 * the first and last letters must be shown and at most a third of the letters (at least one) masked,
 * so "f***" or "c**n" (guessable as several words) stay unread. Profanity ("f*ck", "sh!t") is not in
 * the list: only slurs are de-masked, and each still goes through its sense guards.
 */
const MASKED_WORD = /(?<![\p{L}\p{N}])[a-z](?:[a-z]*[*!#%]+)+[a-z]+(?![\p{L}\p{N}*!#%])/gu;
const MASK_INSIDE = /[a-z][*!#%]+[a-z]/;
const MASKABLE_SLURS = (() => {
  const forms = new Map<string, string>();
  const add = (form: string, base: string) => {
    if (/^[a-z]{3,}$/.test(form) && !forms.has(form)) forms.set(form, base);
  };
  for (const w of SLURS.keys()) {
    add(w, w);
    add(w.endsWith('y') ? `${w.slice(0, -1)}ies` : `${w}s`, w);
  }
  // The extra slurs that are plain words with an optional plural ("wetbacks?", "gooks?").
  for (const p of Object.keys(LEX.EXTRA_SLURS)) {
    const m = /^([a-z]+)(s\?)?$/.exec(p);
    if (m) {
      add(m[1], m[1]);
      if (m[2]) add(`${m[1]}s`, m[1]);
    }
  }
  const byLength = new Map<number, Array<[string, string]>>();
  for (const [form, base] of forms) {
    const list = byLength.get(form.length) ?? [];
    list.push([form, base]);
    byLength.set(form.length, list);
  }
  return byLength;
})();
/** The slur (its base form) a masked word of t at [a, z) spells, if exactly that reading fits. */
function unmaskSlur(t: string, a: number, z: number): string | null {
  const cands = MASKABLE_SLURS.get(z - a);
  if (!cands) return null;
  let masked = 0;
  for (let i = a; i < z; i++) if (!isLower(t.charCodeAt(i))) masked++;
  if (masked > Math.max(1, Math.floor((z - a) / 3))) return null;
  let best: string | null = null;
  for (const [form, base] of cands) {
    let ok = true;
    for (let i = 0; ok && i < form.length; i++) {
      const c = t.charCodeAt(a + i);
      ok = !isLower(c) || c === form.charCodeAt(i);
    }
    if (!ok) continue;
    // Two slurs fit ("c*on"/"c*ons" cannot, but a future list might): the weaker reading wins.
    if (best === null || (SLURS.get(base) ?? 0.85) < (SLURS.get(best) ?? 0.85)) best = base;
  }
  return best;
}
let matcher: RegExpMatcher | null = null;
const dataset = englishDataset.build();
/**
 * A cheap superset of obscenity's list on the de-obfuscated text (each listed word with repeated
 * letters allowed): obscenity's own matcher allocates ~250 KB per KB of text, so it only runs on
 * messages that may hold one of its words.
 */
export const LEXICON_PREFILTER = (() => {
  const words = ((englishDataset as unknown as { containers: Array<{ metadata?: { originalWord?: string } }> }).containers ?? [])
    .map((c) => c.metadata?.originalWord ?? '')
    .filter((w) => /^[a-z]+$/.test(w));
  const parts = words.map((w) => {
    const stem = [...w].map((ch) => `${ch}+`).join('');
    // Short words only as words with a common ending ("ass" is not in "class" or "assume", "anal"
    // not in "analysis"); longer ones by their first five letters anywhere ("motherfucker");
    // the n-word and "fag" by their variants.
    if (w === 'nigger') return '(?<![a-z])n+i+g+(?:g+|[aeu]h?[rz]?s?(?![a-z]))';
    if (w === 'fag') return '(?<![a-z])f+a+g+(?:g+[oi]t+)?s?(?![a-z])';
    if (w.length <= 3) return `(?<![a-z])${stem}s?(?![a-z])`;
    if (w.length === 4) return `(?<![a-z])${stem}(?:s|es|ing|ed|er|ers|y|ty|head|hole|face)?(?![a-z])`;
    return [...w.slice(0, 5)].map((ch) => `${ch}+`).join('');
  });
  return parts.length ? new RegExp(parts.join('|'), 'g') : /$^/g;
})();

/** obscenity's matches, run only on the neighbourhood (a few words) of each prefilter hit. */
function lexiconMatches(text: string, n: NormalizedText): Array<{ word: string; start: number; end: number }> {
  LEXICON_PREFILTER.lastIndex = 0;
  let m = LEXICON_PREFILTER.exec(n.text);
  if (!m) return [];
  matcher ??= new RegExpMatcher({ ...dataset, ...englishRecommendedTransformers });
  const out: Array<{ word: string; start: number; end: number }> = [];
  let done = 0;
  for (let k = 0; m && k < 16; k++, m = LEXICON_PREFILTER.exec(n.text)) {
    const [a0, b0] = mapSpan(n, Math.max(0, m.index - 24), Math.min(n.text.length, m.index + m[0].length + 24), text);
    const a = Math.max(a0, done);
    if (b0 <= a) continue;
    const piece = text.slice(a, b0);
    done = b0;
    if (!matcher.hasMatch(piece)) continue;
    for (const x of matcher.getAllMatches(piece, true)) {
      out.push({
        word: englishDataset.getPayloadWithPhraseMetadata(x).phraseMetadata?.originalWord ?? '',
        start: a + x.startIndex,
        end: a + x.endIndex + 1,
      });
    }
  }
  return out;
}

/**
 * Whether a slur the lexicon found is used in another sense ("smoke a fag", "faggots of wood",
 * "retard the timing", "flame retardant") or claimed in-group ("as a dyke", "we queers",
 * "my niggas"): the words around it decide, never the slur alone.
 */
function slurSense(word: string, text: string, start: number, end: number): 'slur' | 'other' | 'in_group' {
  const before = text.slice(Math.max(0, start - 30), start).toLowerCase();
  const after = text.slice(end, end + 40).toLowerCase();
  if (
    word === 'fag' &&
    /(?:smok\w*|light\w*|lit|pack of|roll\w*|bum\w*|cadge\w*|ciggy|cig)\s+(?:(?:a|another|my|his|her|one|quick|last)\s+)?$/.test(before)
  )
    return 'other';
  if (word === 'fag' && /^\w*\s+(?:of\s+(?:wood|sticks|twigs|kindling|brushwood|firewood)|and (?:peas|gravy|mash))/.test(after))
    return 'other';
  if (word === 'retard') {
    // "retardant", "retardation" and the verb ("retard the timing", "retards growth").
    if (/^(?:ant|ants|ation)/.test(after)) return 'other';
    if (
      /^(?:s|ed|ing)?\s+(?:the|its|their|his|her|our|growth|progress|development|ignition|timing|flame|fire|combustion|corrosion|spread|rate|aging|ageing)\b/.test(
        after,
      )
    )
      return 'other';
  }
  // "coon" as the short name of the animal the text names ("a raccoon, or coon").
  if (/^coons?$/.test(word) && /(?:^|[^\p{L}])racc?oons?(?![\p{L}])/u.test(text.slice(Math.max(0, start - 200), end + 200).toLowerCase()))
    return 'other';
  if (/(?:^|[^\p{L}])(?:as an?|i'?m an?|i am an?|we(?: are)?|us|fellow|proud|my fellow|our)\s+(?:proud\s+|fellow\s+)?$/u.test(before))
    return 'in_group';
  if (word === 'nigga' && /(?:^|[^\p{L}])(?:my|our|wassup|sup|yo)\s+$/u.test(before)) return 'in_group';
  return 'slur';
}

/**
 * A slur mentioned as a word rather than aimed at anyone: named as a word ("the word X", "the term
 * X"), said to be a slur or offensive ("X is a racial slur", "marks X as offensive"), or in the
 * sentence of someone else's reporting verb or inside quotation marks (reportedAt).
 */
const SLUR_AS_WORD_BEFORE =
  /(?:^|[^\p{L}])(?:the|that|this|a|an)\s+(?:\p{L}+\s+)?(?:word|words|term|terms|slur|slurs|epithet|label|insult|name|expression)\s*[:"'\u201c\u2018]?\s*$|(?:marks?|marked|lists?|listed|defines?|defined|labels?|labell?ed|classif(?:y|ies|ied)|spell(?:s|ed)?|says?|said|uses?|used|using|writes?|wrote)\s*[:"'\u201c\u2018]\s*$/u;
const SLUR_AS_WORD_AFTER =
  /^["'\u201d\u2019]?\s*(?:is|was|are|were|as|has|had|counts as|remains)\s+(?:(?:a|an|the|considered|still|often|widely|deeply|now|very|highly|extremely|long|been|become|used as|seen as|regarded as|racial|ethnic|homophobic|ableist|religious|old|common)\s+)*(?:slur|slurs|offensive|derogatory|insult|insulting|epithet|pejorative|racist|homophobic|ableist|hurtful)(?![\p{L}])/u;
/** Someone else's insult reported: "he called me a <slur>", "I was called a <slur> at school", "they shouted <slur>". */
const SLUR_REPORTED =
  /(?:^|[^\p{L}])(?<!(?:^|[^\p{L}])(?:i|we) )(?:call(?:ed|ing)? (?:me|us|him|her|them|my|his|our|their|your|people|someone|a|an|the)|(?:was|were|got|get|been|being|am|is|are) called|shout(?:ed|ing)|yell(?:ed|ing)|scream(?:ed|ing)|chant(?:ed|ing)|testified)(?![\p{L}])/u;
function slurMentioned(lower: string, start: number, end: number): boolean {
  return (
    SLUR_REPORTED.test(sentenceLead(lower, start)) ||
    SLUR_AS_WORD_BEFORE.test(lower.slice(Math.max(0, start - 40), start)) ||
    SLUR_AS_WORD_AFTER.test(lower.slice(end, end + 60))
  );
}

const isSentenceEnd = (c: number) => c === 46 || c === 33 || c === 63 || c === 10;

/** Whether positions a and b of t lie in the same clause (no . ; ! ? or newline between them). */
function sameClause(t: string, a: number, b: number): boolean {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  for (let i = lo; i < hi; i++) if (isClauseEnd(t.charCodeAt(i))) return false;
  return true;
}

/** Whether a counter-speech word (DAMPERS) is in the sentence of t holding position `at`. */
function damperInSentence(t: string, at: number): boolean {
  let from = Math.min(at, t.length);
  while (from > 0 && !isSentenceEnd(t.charCodeAt(from - 1))) from--;
  let to = at;
  while (to < t.length && !isSentenceEnd(t.charCodeAt(to))) to++;
  return DAMPERS.test(t.slice(from, to + 1));
}

const REPORTING =
  /(?:^|[^\p{L}])(?<!(?:^|[^\p{L}])(?:i|we) )(?:said|says|say|wrote|writes|tweeted|posted|claimed|claims|described|describes|portrayed|portrays|depicted|depicts|labell?ed|branded|shouted|yelled|chanted|screamed|argued|insisted|told (?:me|us|them|him|her)|called)(?![\p{L}])/u;
/** Whether the text at `at` lies inside quotation marks or after a reporting verb of someone else, in its sentence. */
/** The text of at's sentence before at. */
function sentenceLead(t: string, at: number): string {
  let from = at;
  while (from > 0 && !'.!?\n'.includes(t[from - 1])) from--;
  return t.slice(from, at);
}
function reportedAt(t: string, at: number): boolean {
  const lead = sentenceLead(t, at);
  let quotes = 0;
  for (const ch of lead) if (ch === '"' || ch === '\u201c' || ch === '\u201d' || ch === '\u00ab' || ch === '\u00bb') quotes++;
  if (quotes % 2 === 1) return true;
  if (/(?:^|\s)'$|(?:^|\s)'\S/.test(lead) && (lead.match(/(?:^|\s)'/g) ?? []).length % 2 === 1) return true;
  return REPORTING.test(lead);
}

// ---- scoring ----------------------------------------------------------------------------------

export interface ToxicityResult {
  /** Highest category score. */
  score: number;
  categories: Record<ToxicityCategory, number>;
  spans: Array<{ kind: string; category: ToxicityCategory; start: number; end: number; weight: number }>;
  damped: boolean;
}

/**
 * A head's probability as a score: its calibration point (the probability with the validation
 * split's target false-positive rate, train.ts) scores 0.5, 1 scores 1, and below the point the
 * score falls off steeply (class balancing makes raw probabilities of the rare classes high on any
 * mention of a group; what separates hate is the top of the range). Rude is not hateful: the
 * insult head alone stays under the insult threshold (an insult aimed at the reader, "you are an
 * idiot", comes from the rules).
 */
const CAP: Record<ToxicityCategory, number> = {
  insult: 0.5,
  identity_attack: 1,
  dehumanisation: 1,
  threat: 1,
  sexual: 1,
  self_harm: 1,
};
export function calibratedScore(c: ToxicityCategory, p: number, t: number): number {
  const s = p >= t ? 0.5 + (0.5 * (p - t)) / Math.max(1e-6, 1 - t) : 0.5 * (p / t) ** 4;
  return Math.min(CAP[c], s);
}

/** A score of 0 per category (a literal: the same hidden class for every result). */
function zeroScores(): Record<ToxicityCategory, number> {
  return { insult: 0, identity_attack: 0, dehumanisation: 0, threat: 0, sexual: 0, self_harm: 0 };
}

export function scoreToxicity(text: string, model: ToxicityModel | null = null): ToxicityResult {
  const n = normalizeForMatching(text);
  const spans: ToxicityResult['spans'] = [];
  const ruleScore = zeroScores();
  const matched: Array<[number, number]> = [];
  // Group mentions are found once per message (on the repaired text if a repair changed it).
  let mentions = findMentions(n.text);
  const groupMention = mentions > 0;
  // Typos are repaired only where a group is named: that is where a hostile word decides.
  const repaired = groupMention ? repairSpelling(n.text) : null;
  const rt = repaired ?? n.text;
  if (repaired) mentions = findMentions(rt);
  // Group rules run only on the sentences that name a group and the sentence after each ("...
  // they are vile"), with each group phrase replaced by its placeholder (findMentions).
  const windows: Array<[number, string]> = [];
  if (mentions) {
    let wa = -1;
    let wz = -1;
    for (let k = 0; k < mentions; k++) {
      let a = mentionAt[k];
      while (a > 0 && !isSentenceEnd(rt.charCodeAt(a - 1))) a--;
      let z = mentionEnd[k];
      for (let sentences = 0; z < rt.length && sentences < 2; z++) if (isSentenceEnd(rt.charCodeAt(z)) && ++sentences === 2) break;
      if (wa >= 0 && a <= wz) wz = Math.max(wz, z);
      else {
        if (wa >= 0) windows.push([wa, placedWindow(rt, wa, wz, mentions)]);
        wa = a;
        wz = z;
      }
    }
    windows.push([wa, placedWindow(rt, wa, wz, mentions)]);
  }
  const whole: Array<[number, string]> = [[0, rt]];
  let needOf: RegExp | undefined;
  let needWin = -1;
  let needOk = false;
  for (const r of RULES) {
    if (r.group && !groupMention) continue;
    // Indexed: a for-of with destructuring here allocated an iterator per rule (~9 KB per message).
    const ws = r.group ? windows : whole;
    for (let wi = 0; wi < ws.length; wi++) {
      const off = ws[wi][0];
      const sub = ws[wi][1];
      if (r.need) {
        // The alternatives of one rule share its list and follow each other: one check per window.
        if (r.need !== needOf || wi !== needWin) {
          needOf = r.need;
          needWin = wi;
          needOk = r.need.test(sub);
        }
        if (!needOk) continue;
      }
      r.re.re.lastIndex = 0;
      let m: RegExpExecArray | null;
      let c = 0;
      while ((m = execWord(r.re, sub)) && c++ < 20) {
        const at = off + m.index;
        const [s, en] = mapSpan(n, at, at + m[0].length, text);
        matched.push([at, at + m[0].length]);
        for (const [cat, w] of Object.entries(r.cats) as Array<[ToxicityCategory, number]>) {
          spans.push({ kind: r.id, category: cat, start: s, end: en, weight: w });
          ruleScore[cat] = noisyOr([ruleScore[cat], w]);
        }
        if (m[0].length === 0) r.re.re.lastIndex++;
      }
    }
  }
  if (groupMention && ruleScore.identity_attack < 0.5)
    for (const [off, sub] of windows)
      for (const [a0, z0] of groupHostility(sub)) {
        const [s, en] = mapSpan(n, off + a0, off + z0, text);
        matched.push([off + a0, off + z0]);
        spans.push({ kind: 'group_hostile', category: 'identity_attack', start: s, end: en, weight: 0.6 });
        ruleScore.identity_attack = noisyOr([ruleScore.identity_attack, 0.6]);
      }
  // Threats through an object or an outcome: in the group windows, and anywhere a place of worship is named.
  const threats: Array<[number, number]> = [];
  for (const [off, sub] of windows) {
    const k = threats.length;
    objectThreats(sub, threats);
    for (let j = k; j < threats.length; j++) threats[j] = [threats[j][0] + off, threats[j][1] + off];
  }
  if (!threats.length && namesWorshipPlace(rt)) objectThreats(rt, threats);
  for (const [a0, z0] of threats) {
    const [s, en] = mapSpan(n, a0, z0, text);
    matched.push([a0, z0]);
    spans.push({ kind: 'object_threat', category: 'threat', start: s, end: en, weight: 0.85 });
    ruleScore.threat = noisyOr([ruleScore.threat, 0.85]);
    ruleScore.identity_attack = noisyOr([ruleScore.identity_attack, 0.8]);
  }
  // Slurs and profanity from obscenity's lexicon (on the original: it has its own de-obfuscation).
  // Lexicon evidence: the strongest slur counts (a repeated word is not more hateful); sexual terms
  // and profanity only add to weak insult/sexual scores, capped so that they never block alone.
  let profanity = 0;
  let slurMax = 0;
  let slurHostile = false;
  let sexualTerms = 0;
  for (const x of lexiconMatches(text, n)) {
    // obscenity files "nigga" under its root word; the AAVE form is mostly in-group use.
    const word = x.word === 'nigger' && /a+[sz]?$/i.test(text.slice(x.start, x.end)) ? 'nigga' : x.word;
    const sense = slurSense(word, text, x.start, x.end);
    if (sense === 'other') continue;
    const slur = SLURS.get(word);
    if (slur !== undefined) {
      // A slur the speaker claims for their own group ("as a dyke", "we queers") is reclaimed.
      const w = sense === 'in_group' ? slur * 0.2 : slur;
      spans.push({
        kind: sense === 'in_group' ? 'reclaimed_slur' : 'slur',
        category: 'identity_attack',
        start: x.start,
        end: x.end,
        weight: w,
      });
      slurMax = Math.max(slurMax, w);
      if (sense !== 'in_group') slurHostile = true;
    } else if (SEXUAL.has(x.word)) {
      spans.push({ kind: 'sexual_term', category: 'sexual', start: x.start, end: x.end, weight: 0.3 });
      sexualTerms++;
    } else profanity++;
  }
  EXTRA_SLURS.re.lastIndex = 0;
  for (let m = execWord(EXTRA_SLURS, n.text), k = 0; m && k < 20; m = execWord(EXTRA_SLURS, n.text), k++) {
    const [s0, e0] = mapSpan(n, m.index, m.index + m[0].length, text);
    // Claimed for the speaker's own group ("as a dyke", "we queers"): reclaimed, as for obscenity's slurs.
    const sense = slurSense(m[0], text, s0, e0);
    if (sense === 'other') continue;
    const w = sense === 'in_group' ? extraSlurWeight(n.text, m.index) * 0.2 : extraSlurWeight(n.text, m.index);
    spans.push({ kind: sense === 'in_group' ? 'reclaimed_slur' : 'slur', category: 'identity_attack', start: s0, end: e0, weight: w });
    slurMax = Math.max(slurMax, w);
    if (sense !== 'in_group') slurHostile = true;
  }
  EMBEDDED_SLURS.lastIndex = 0;
  for (let m = EMBEDDED_SLURS.exec(n.text), k = 0; m && k < 20; m = EMBEDDED_SLURS.exec(n.text), k++) {
    const article = m[0].startsWith('afag');
    if (article && !atWordStart(n.text, m.index)) continue;
    const [s0, e0] = mapSpan(n, m.index + (article ? 1 : 0), m.index + m[0].length, text);
    if (spans.some((sp) => sp.kind === 'slur' && sp.start < e0 && sp.end > s0)) continue;
    if (slurSense(m[0].startsWith('f') ? 'fag' : 'nigger', text, s0, e0) !== 'slur') continue;
    spans.push({ kind: 'slur', category: 'identity_attack', start: s0, end: e0, weight: 0.85 });
    slurMax = Math.max(slurMax, 0.85);
    slurHostile = true;
  }
  MASKED_WORD.lastIndex = 0;
  // A cheap test for a masking character between letters first: the full scan costs ~37 µs per KB.
  for (let m = MASK_INSIDE.test(n.text) ? MASKED_WORD.exec(n.text) : null, k = 0; m && k < 20; m = MASKED_WORD.exec(n.text), k++) {
    const word = unmaskSlur(n.text, m.index, m.index + m[0].length);
    if (!word) continue;
    const [s0, e0] = mapSpan(n, m.index, m.index + m[0].length, text);
    if (spans.some((sp) => sp.kind === 'slur' && sp.start < e0 && sp.end > s0)) continue;
    const sense = slurSense(word, text, s0, e0);
    if (sense === 'other') continue;
    const w0 = SLURS.get(word) ?? extraSlurWeight(word, 0);
    const w = sense === 'in_group' ? w0 * 0.2 : w0;
    spans.push({ kind: sense === 'in_group' ? 'reclaimed_slur' : 'slur', category: 'identity_attack', start: s0, end: e0, weight: w });
    slurMax = Math.max(slurMax, w);
    if (sense !== 'in_group') slurHostile = true;
  }
  // A slur is negated only by a negation right before it ("I'm not a <slur>"), not by one
  // elsewhere ("I will not serve a <slur>").
  let slurKept = 0;
  for (const sp of spans)
    if (sp.kind === 'slur')
      if (
        /(?:(?:^|[^\p{L}])(?:not|never|no|nor)|n't)\s+(?:(?:a|an|the|one|any|some)\s+)?$/u.test(
          text.slice(Math.max(0, sp.start - 20), sp.start).toLowerCase(),
        )
      )
        ruleScore.identity_attack = noisyOr([ruleScore.identity_attack, sp.weight]);
      else slurKept = Math.max(slurKept, sp.weight);
    else if (sp.kind === 'reclaimed_slur') ruleScore.identity_attack = noisyOr([ruleScore.identity_attack, sp.weight]);
  const lexInsult = slurMax || sexualTerms || profanity ? 0.3 + 0.05 * Math.min(3, slurMax ? 3 : sexualTerms + profanity - 1) : 0;
  const lexSexual = sexualTerms ? Math.min(0.4, 0.25 + 0.05 * sexualTerms) : 0;
  const modelScore = zeroScores();
  if (model) {
    // The mentions the windows above found (rt has n.text's offsets): no second scan for the mask.
    const ct = mentions ? maskSpans(n.text, mentions) : n.text;
    const tf = tokenFeatures(ct, model.insult.dims);
    // All heads in one pass over the features (the scores in TOXICITY_CATEGORIES order).
    let heads = packed.get(model);
    // A model not loaded from a file (built in code) is packed from its float heads once.
    if (!heads) packed.set(model, (heads = packHeads(TOXICITY_CATEGORIES.map((c) => model[c]))));
    if (windowScores(heads, tf, 0, ct.length, headOut))
      for (let h = 0; h < TOXICITY_CATEGORIES.length; h++) modelScore[TOXICITY_CATEGORIES[h]] = headOut[h];
  }
  // Hate that is reported or quoted ("he said '<group> are vermin'", "she wrote that ...") is
  // a mention, not the speaker's own claim.
  // A counter-speech word counts in the sentence of each hit ("saying <g> are vermin is
  // bigotry"), or anywhere when nothing was hit. Read over the whole text, one sentence
  // ("calling that racism would be unfair") softened hate in another, so a long text or a whole
  // answer passed what each of its sentences alone would not. (A one-sentence text scores as
  // before.) Slurs are hits too, at offsets of the original text; a slur that is mentioned, not
  // used (slurMentioned: "the court heard he called his neighbour a <slur>", "the word <slur> is
  // a slur"), is a hit that counts as reported.
  const slurHits = spans.filter((sp) => sp.kind === 'slur');
  const lower = slurHits.length ? text.toLowerCase() : '';
  const counterSpeech =
    (matched.length > 0 && matched.every(([a]) => reportedAt(n.text, a))) ||
    (matched.length || slurHits.length
      ? matched.every(([a]) => reportedAt(n.text, a) || damperInSentence(n.text, a)) &&
        slurHits.every((sp) => damperInSentence(text, sp.start) || slurMentioned(lower, sp.start, sp.end))
      : DAMPERS.test(n.text));
  let damped = counterSpeech;
  if (!damped) {
    // A negation counts in the clause of a hit ("<group> are vermin, no doubt" is not negated by a
    // "no" elsewhere: "don't talk to me about <group>; they are vile"), or anywhere without one.
    NEGATION.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = NEGATION.exec(n.text))) {
      const at = m.index;
      const end = at + m[0].length;
      // Part of a hit ("I would never let a <g> near ..."): the hit already reads it.
      // A rhetorical "is it not obvious that ..." affirms what follows.
      if (RHETORICAL_NOT.test(n.text.slice(Math.max(0, at - 12), end + 30))) continue;
      if (matched.some(([a, z]) => at < z && end > a)) continue;
      // A contrast after a hit ("<group> are sick and should be treated, not celebrated") keeps it.
      if (CONTRAST_NOT.test(n.text.slice(Math.max(0, at - 3), end + 20)) && matched.some(([a]) => a < at)) continue;
      if (!matched.length || matched.some(([a]) => sameClause(n.text, at, a))) {
        damped = true;
        break;
      }
    }
  }
  const categories = {} as Record<ToxicityCategory, number>;
  let score = 0;
  // An identity attack needs an identity: without a group mention or a slur the identity heads
  // cannot block ("I will kill you" is a threat, not hate). Very short texts give the classifier
  // too little to go on ("mail a@example.com").
  const groupRef = slurMax > 0 || groupMention;
  // Hostility matters only where there is an identity, and only when an identity head would score
  // above the cap: the HOSTILE scan (a word alternation tried along the whole text) runs then only.
  // A hostile word that is part of a neutral group phrase ("the mentally ill") is no hostility.
  let hostile: boolean | null = groupRef ? (slurHostile || matched.length > 0 ? true : null) : false;
  let words = 0;
  for (let i = 0, inWord = false; i < n.text.length && words < 8; i++) {
    const sp = n.text.charCodeAt(i) <= 32;
    if (!sp && !inWord) words++;
    inWord = !sp;
  }
  const shortScale = Math.min(1, words / 5);
  for (const c of TOXICITY_CATEGORIES) {
    let weak = model ? calibratedScore(c, modelScore[c], model[c].threshold) * shortScale : 0;
    if ((c === 'identity_attack' || c === 'dehumanisation') && weak > 0.4) {
      if (hostile === null) {
        hostile = false;
        HOSTILE.re.lastIndex = 0;
        for (let h = execWord(HOSTILE, n.text); h && !hostile; h = execWord(HOSTILE, n.text))
          hostile = !inNeutralMention(h.index, mentions);
        // A generalisation over a named group lets the head decide too ("why are <group> so obsessed
        // with money?", "<group> are only good for ..."): without a hostile word, the words that
        // make a statement about a whole group are the evidence that it is one.
        // Not where the group is the victim ("why is it always <group> who get blamed?").
        if (!hostile && mentions) hostile = GENERALISING.test(n.text) && !GROUP_VICTIM.test(n.text);
      }
      if (!hostile) weak = 0.4;
    }
    if (c === 'insult') weak = Math.min(0.75, noisyOr([weak, lexInsult]));
    if (c === 'sexual') weak = Math.min(0.45, noisyOr([weak, lexSexual]));
    let v = noisyOr([ruleScore[c], weak]);
    if (damped) v *= DAMP;
    if (c === 'identity_attack' && slurKept) v = noisyOr([v, counterSpeech ? slurKept * DAMP : slurKept]);
    categories[c] = Math.round(v * 1000) / 1000;
    score = Math.max(score, categories[c]);
  }
  return { score, categories, spans, damped };
}

export function createToxicityGuardrail(overrides: Record<string, unknown> = {}, model?: ToxicityModel | null) {
  return defineLayer<ToxicitySettings>(
    {
      name: 'toxicity',
      description:
        'Per-category toxicity 0..1 (insult, identity attack, dehumanisation, threat, sexual, self-harm): classifier + group-targeted rules + obscenity slur lexicon, counter-speech and negation damped',
      defaultMode: 'block',
      directions: ['input', 'output'],
      order: 15,
      defaults: toxicityDefaults,
      validate: (s) => {
        const ct = (s.category_thresholds ?? {}) as Record<string, unknown>;
        if (typeof ct !== 'object' || Array.isArray(ct)) throw new Error('toxicity.category_thresholds must be an object');
        const category_thresholds: ToxicitySettings['category_thresholds'] = {};
        for (const [k, v] of Object.entries(ct)) {
          if (!(TOXICITY_CATEGORIES as readonly string[]).includes(k))
            throw new Error(`toxicity.category_thresholds: unknown category ${k}; use ${TOXICITY_CATEGORIES.join(', ')}`);
          category_thresholds[k as ToxicityCategory] = num(v, `toxicity.category_thresholds.${k}`, 0, 1);
        }
        return {
          ...s,
          category_thresholds,
          use_classifier: s.use_classifier !== false,
        };
      },
      build(s) {
        const m = s.use_classifier ? (model === undefined ? sharedDefaultModel() : model) : null;
        return (text: string): GuardrailFinding[] => {
          const r = scoreToxicity(text, m);
          const over = TOXICITY_CATEGORIES.filter((c) => r.categories[c] >= (s.category_thresholds[c] ?? s.threshold));
          if (!over.length) return [];
          const findings: GuardrailFinding[] = [];
          for (const c of over) {
            const own = r.spans.filter((sp) => sp.category === c);
            const score = r.categories[c];
            if (own.length)
              for (const sp of own)
                findings.push({
                  layer: 'toxicity',
                  kind: c,
                  start: sp.start,
                  end: sp.end,
                  score,
                  replacement: '[REDACTED:toxicity]',
                  detail: sp.kind,
                });
            else
              findings.push({
                layer: 'toxicity',
                kind: c,
                start: 0,
                end: text.length,
                score,
                replacement: '[REDACTED:toxicity]',
                detail: 'classifier',
              });
          }
          return findings;
        };
      },
    },
    overrides,
  );
}
