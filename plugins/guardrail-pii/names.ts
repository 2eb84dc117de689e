// Person-name detection for the PII layer. Running the full compromise NLP pipeline costs ~15 ms
// per KB, far over the chain's 2 ms budget, so we use compromise's own name lexicon (about 3,000
// first names and 900 surnames, loaded once) with context rules. compromise's tagger is called
// only where its verdict depends on context: first names its model lists as "switches", i.e.
// also a verb or a place (Mark, Grant, Chase, Jordan, Houston...). For every other lexicon name
// the tagger says "person" whatever the context (measured on ~3,500 names in ~80 frames), so
// calling it would only cost ~0.5-2 ms; those are decided here. Each tagger call has a fixed cost
// of about 0.35 ms whatever its length, so the switch words of a message (at most two by
// default) are settled in ONE call over their short windows (a few words of the sentence around
// each, joined as separate paragraphs), and the tagger is told to stop after the steps that tag
// people (no chunking). False positives avoided: ALL-CAPS words ("ALICE protocol"), code identifiers
// (CamelCase, snake_case, `x.Alice`, `Alice(`, `contract Alice`), text inside code spans and
// fences, organisations and places ("Alice Protocol", "Jordan Street"), sentence-initial words
// that are also everyday words ("Mark the task", "Hope this helps"), and the stock placeholder
// characters of protocol descriptions (Alice, Bob, Eve... alone), which name no one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

// compromise (the tagger and its English lexicon) costs ~1 CPU-second to import: loaded on the
// first name lookup, not when the plugin loads (a gateway that never scans text skips it). Its
// require build is the same release, bundled in one file.
const require = createRequire(import.meta.url);
let compromise: any = null;
const nlp = (): any => (compromise ??= require('compromise'));

/** The gazetteer built by gen-names.ts (this plugin) from faker's locale data (MIT). */
export function gazetteerPath(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'names.json');
}

/** Capitalised words that are names somewhere but far more often something else in a message. */
const NOT_NAMES = new Set(
  (
    'the this that these those what when where which who why how here there then than and but for not you your our their ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april june july august september october november december ' +
    'hello thanks thank please dear best kind regards cheers yes okay sure sorry good great new old first last next today tomorrow yesterday ' +
    'london paris berlin madrid rome tokyo boston sydney dallas denver phoenix austin houston chicago java python docker node react chrome linux windows ' +
    'apple google amazon microsoft ethereum bitcoin solidity token wallet contract github npm api http json yaml readme ' +
    'north south east west street road avenue city state country english french german spanish italian chinese russian arabic'
  ).split(' '),
);

interface NameLexicon {
  first: Set<string>;
  /** First names that are also ordinary words (mark, grant, chase): need context or the tagger. */
  ambiguous: Set<string>;
  last: Set<string>;
  /** Words the lexicon knows as something other than a name. */
  common: Set<string>;
  /** First names compromise may also read as a verb, place, adjective or date (its "switches"):
   * only for these does the tagger's verdict depend on the context. */
  contested: Set<string>;
  honorifics: Set<string>;
  /** Gazetteer names that are also everyday words: only in a pair or after an introduction. */
  weak: Set<string>;
}

let lexicon: NameLexicon | null = null;

function loadLexicon(): NameLexicon {
  if (lexicon) return lexicon;
  const raw = nlp().world().model.one.lexicon as Record<string, string | string[]>;
  const first = new Set<string>();
  const ambiguous = new Set<string>();
  const last = new Set<string>();
  const common = new Set<string>();
  const honorifics = new Set<string>([
    'herr',
    'frau',
    'señor',
    'senor',
    'señora',
    'senora',
    'sra',
    'srta',
    'don',
    'doña',
    'madame',
    'monsieur',
    'mademoiselle',
    'signor',
    'signora',
    'dott',
    'dottoressa',
    'senhor',
    'senhora',
    'dra',
    'dhr',
    'mevr',
  ]);
  for (const [word, tags] of Object.entries(raw)) {
    const t = Array.isArray(tags) ? tags : [tags];
    if (word.includes(' ')) continue;
    if (t.includes('MaleName') || t.includes('FemaleName') || t.includes('Person')) first.add(word);
    else if (t.includes('FirstName')) {
      first.add(word);
      ambiguous.add(word);
    } else if (t.includes('LastName')) last.add(word);
    else if (t.includes('Honorific')) honorifics.add(word);
    else common.add(word);
  }
  // Names that are everyday words the lexicon files under names.
  for (const w of [
    'amber',
    'chelsea',
    'jordan',
    'austin',
    'sydney',
    'victoria',
    'virginia',
    'georgia',
    'florence',
    'india',
    'china',
    'paris',
    'summer',
    'autumn',
    'crystal',
    'ruby',
    'may',
    'will',
    'dawn',
    'hope',
    'faith',
    'joy',
    'iris',
    'ivy',
    'rose',
    'lily',
    'olive',
    'pearl',
    'violet',
    'holly',
    'bill',
    'art',
    'frank',
    'rich',
    'don',
    'earl',
    'guy',
    'max',
    'ray',
    'sky',
    'star',
    'angel',
    'page',
    'penny',
    'sandy',
    'rusty',
    'dusty',
    'misty',
    'cliff',
    'glen',
    'miles',
    'brook',
    'reed',
    'wood',
    'gene',
    'carol',
    'eve',
    'tron',
    'ether',
    'token',
    'solidity',
    'vyper',
  ]) {
    if (first.has(w)) ambiguous.add(w);
  }
  const weak = new Set<string>();
  const contested = new Set<string>();
  const switches = (nlp().world().model.two?.switches ?? {}) as Record<string, string>;
  for (const [word, forms] of Object.entries(switches)) {
    if (first.has(word) && String(forms).includes('Person')) contested.add(word);
  }
  // Add the multi-locale gazetteer. A gazetteer name that the English lexicon knows as an ordinary
  // word ("rose", "young", "price") needs the same context as compromise's ambiguous names.
  try {
    const g = JSON.parse(fs.readFileSync(gazetteerPath(), 'utf8')) as { first: string; last: string; weak?: string };
    for (const w of (g.weak ?? '').split('|')) if (w) weak.add(w);
    for (const w of g.first.split('|')) {
      if (!w || NOT_NAMES.has(w) || first.has(w)) continue;
      first.add(w);
      if (common.has(w) || weak.has(w)) {
        ambiguous.add(w);
        weak.add(w);
      }
    }
    for (const w of g.last.split('|')) {
      if (w && !NOT_NAMES.has(w) && !common.has(w)) last.add(w);
    }
  } catch (e) {
    throw new Error(
      `PII name gazetteer missing or unreadable at ${gazetteerPath()} (run: node --import tsx plugins/guardrail-pii/gen-names.ts): ${(e as Error).message}`,
      { cause: e },
    );
  }
  lexicon = { first, ambiguous, last, common, honorifics, contested, weak };
  return lexicon;
}

/** Placeholder characters of protocol and crypto write-ups; alone they identify nobody. */
const PLACEHOLDERS = new Set([
  'alice',
  'bob',
  'carol',
  'charlie',
  'dave',
  'eve',
  'mallory',
  'trent',
  'peggy',
  'victor',
  'oscar',
  'trudy',
  'walter',
  'sybil',
]);

/** Second words that make a capitalised pair an organisation, product or place, not a person. */
const NON_PERSON_HEADS = new Set(
  (
    'protocol network token tokens coin finance labs lab inc ltd llc gmbh corp corporation company co dao swap chain bank street st road rd avenue ave ' +
    'boulevard lane university college school hospital foundation institute airport park river lake mountain city county ' +
    'hotel restaurant cafe club team group project contract contracts wallet vault pool router factory registry library ' +
    'exchange capital ventures partners systems technologies software studio studios media press games app api sdk ' +
    'station square bridge tower center centre hall church mall museum prize award act law bill ' +
    // places, products and releases named like people ("Lincoln Tunnel", "Claude Desktop")
    'tunnel building falls highway freeway port harbour harbor beach island islands valley canyon palace castle cathedral ' +
    'stadium arena theatre theater gallery zoo gardens mountains heights bay desktop mobile cloud pro plus mini edition ' +
    'update release version festival conference league cup memorial monument trail motors airlines airways railway ' +
    'express records pictures productions publishing health insurance energy solutions services consulting holdings industries'
  ).split(' '),
);

/** "my project is called Falcon", "a repo named Atlas", "our product Atlas", "our dog Max": things and pets, not people. */
const THING_BEFORE =
  /(?:^|[^\p{L}])(?:project|product|repo|repository|company|startup|app|application|service|tool|library|package|plugin|module|framework|bot|model|server|cluster|database|team|band|brand|game|book|novel|film|movie|show|song|album|ship|boat|car|dog|cat|horse|pet|puppy|kitten|city|town|village|street|branch|feature|codename|code name|project's|company's|proyecto|projet|projekt|empresa|entreprise|firma|hund|chien|perro)(?:\s+\p{L}+){0,3}?\s+(?:is\s+)?(?:called|named|titled|dubbed|codenamed|nommé|llamado|llamada|genannt|heißt|heisst|chiamato)\s*$|(?:^|[^\p{L}])(?:called|named)\s+(?:the\s+)?(?:project|product|repo|company|app|bot|model)\s*$|(?:^|[^\p{L}])(?:dog|cat|horse|pet|puppy|kitten|parrot|hamster|rabbit|pony|goldfish|tortoise|budgie)\s+$|(?:^|[^\p{L}])(?:our|my|the|their|your|its|a|an|new)\s+(?:new\s+)?(?:project|product|repo|repository|app|application|service|tool|library|package|plugin|module|framework|bot|server|database|brand|codename|startup|game|album|song|film|movie|book|novel)\s+$/iu;

const CODE_KEYWORDS =
  /(?:(?:^|[^\p{L}])(?:contract|function|struct|event|modifier|library|interface|emit|import|class|def|enum|using|extends|implements|const|let|var|mapping|abstract)|(?:^|[^\p{L}])(?:contract|interface|library)\s+\p{L}+\s+is(?:\s+\p{L}+,)*)\s+$/u;

const INTRO = new RegExp(
  "(?:^|[^\\p{L}])(?:my name is|my name's|name is|i am|i'm|this is|called|named|name\\s*:|signed|regards,?|cheers,?|thanks,?|thank you,?|sincerely,?|dear|hi|hello|hey|" +
    "contact|ask|tell|cc|from|attn|ping|meet|reach|remind|invite|introduce|congratulate|thank|say hi to|it's|it is|" +
    // kin and roles before a name ("my cousin Faith Hill", "our CTO Bjørn Haugen")
    'cousin|brother|sister|mother|father|mum|mom|dad|aunt|uncle|wife|husband|son|daughter|niece|nephew|grandma|grandpa|grandmother|grandfather|' +
    'friend|colleague|coworker|co-worker|boss|manager|neighbou?r|partner|girlfriend|boyfriend|fianc[ée]e?|roommate|flatmate|classmate|intern|' +
    'teacher|tutor|professor|student|doctor|nurse|dentist|lawyer|client|customer|landlord|landlady|tenant|cto|ceo|cfo|coo|founder|designer|engineer|recruiter|' +
    "(?:signed|approved|written|taken|reviewed|sent|submitted|authored|prepared|requested|created|posted|reported|filed|handled|presented|organi[sz]ed|hosted|chaired|signed for|countersigned) by|me llamo|mi nombre es|soy|je m'appelle|je suis|mon nom est|ich heiße|ich heisse|ich bin|mein name ist|mi chiamo|il mio nome è|sono|" +
    'meu nome é|meu nome e|chamo-me|eu sou|hola|bonjour|hallo|ciao|olá|ola|querido|querida|cher|chère|liebe|lieber|caro|cara)\\s*$',
  'iu',
);

/** Greetings that open a sentence before a name (part of INTRO; not "Ask"/"Tell", which as often precede an assistant or a product). */
const LEAD_INTRO = new Set(
  'dear hi hello hey thanks thank contact cc attn regards cheers sincerely hola bonjour hallo ciao olá ola querido querida cher chère liebe lieber caro cara'.split(
    ' ',
  ),
);

/** Requests that open a sentence before a full name ("Tell Chidi Okonkwo ...", "Ask Rose Baker ..."): two words after them at least. */
const LEAD_REQUEST = new Set('ask tell contact email call ping message invite remind reach meet thank text'.split(' '));
/** Irish and Scottish surname forms: a capital after O', Mc or Mac is a surname whatever the word. */
const CLAN_SURNAME = /^(?:O['’]|Mc|Mac)\p{Lu}\p{Ll}/u;
/** Greetings and requests to contact someone: a lone first name after them is that person. */
const ADDRESSING =
  /^(?:hi|hey|hello|dear|thanks|thank|cheers|meet|ask|tell|ping|call|email|text|message|remind|invite|contact|reach|cc|congratulate|love|xoxo|sincerely|regards)$/i;
const PLURAL = /[^s]s$/;
/** Before a capitalised pair, these make it a thing ("the Rose Bowl", "our Summer Sale"). */
const DETERMINER = /^(?:the|a|an|this|that|these|those|our|my|your|their|his|her|its)$/i;

/** A word no lexicon knows, right before a known surname, is kept as its given name ("Jürgen Müller"). */
function beforeSurname(lex: NameLexicon, lower: string[], words: string[], k: number): boolean {
  return (
    k + 1 < lower.length &&
    (lex.last.has(lower[k + 1]) || CLAN_SURNAME.test(words[k + 1])) &&
    !lex.common.has(lower[k]) &&
    !NOT_NAMES.has(lower[k])
  );
}
/** Whether a word from index `from` on is an O'/Mc/Mac surname (a loop: no closure per candidate). */
function clanSurnameFrom(words: string[], from: number): boolean {
  for (let k = from; k < words.length; k++) if (CLAN_SURNAME.test(words[k])) return true;
  return false;
}
/** Whether no word from index `from` on is an everyday word. */
function noEverydayWordFrom(lower: string[], from: number, lex: NameLexicon): boolean {
  for (let k = from; k < lower.length; k++) if (lex.common.has(lower[k]) || NOT_NAMES.has(lower[k])) return false;
  return true;
}
/** Whether "the" (lower case, a word of its own) and white space come right before `at`. */
function theBefore(text: string, at: number): boolean {
  let j = at;
  while (j > 0 && SPACE.test(text[j - 1])) j--;
  if (j === at || j < 3 || text.slice(j - 3, j) !== 'the') return false;
  return j === 3 || !LETTER.test(text[j - 4]);
}

// Capitalised word runs: a first letter in upper case, the rest lower case (hyphens and
// apostrophes allowed: O'Neil, Jean-Luc), optionally followed by an initial ("John F. Kennedy").
const CANDIDATE =
  /(?<![\p{L}\p{N}_.@#$/\\-])(\p{Lu}[\p{Ll}]+(?:['’-]\p{Lu}?[\p{Ll}]+)?)(?:[ \t]+(?:\p{Lu}\.[ \t]+)?((?:O['’]|Mc|Mac)?\p{Lu}[\p{Ll}]+(?:['’-]\p{Lu}?[\p{Ll}]+)?)){0,3}/gu;

export interface NameSpan {
  start: number;
  end: number;
  score: number;
  reason: string;
}

/** Code spans and fenced blocks, where capitalised words are identifiers, not people. */
function codeRanges(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = /```[\s\S]*?(?:```|$)|`[^`\n]{1,200}`/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out.push([m.index, m.index + m[0].length]);
  return out;
}

// Regular expressions used per candidate, compiled once (a literal in a loop is a new object each time).
const ARTICLE_BEFORE = /(?:^|[^\p{L}])an?\s+$/iu;
const NOTHING_AFTER = /^[\s"'”’)\]*,;:]*(?:[.!?\n]|$)/u;
const SENTENCE_BREAK = /[.!?\n:;¿¡]/;
/** Sticky, tried at the candidate's end (no slice of the text per candidate). */
const IDENTIFIER_AFTER = /(?:\(|\.\p{L}|_|\{|<|\[|::|\s*=[^=])/uy;
const BLANKS = /[ \t]+/;
const INITIAL = /^\p{Lu}\.$/u;
const POSSESSIVE = /[’']s$/;
const LETTER = /\p{L}/u;
const SPACE = /\s/;

/** The word that `before` ends with, followed by an optional "." and white space (what
 * /(\p{L}+)\.?\s+$/u captures), found by scanning back instead of trying every start. */
function wordBeforeSpace(before: string): string | null {
  let j = before.length;
  while (j > 0 && SPACE.test(before[j - 1])) j--;
  if (j === before.length) return null;
  if (j > 0 && before[j - 1] === '.') j--;
  const end = j;
  while (j > 0) {
    const c = before.charCodeAt(j - 1);
    const pair = c >= 0xdc00 && c <= 0xdfff && j >= 2 ? 2 : 1;
    if (!LETTER.test(before.slice(j - pair, j))) break;
    j -= pair;
  }
  return j < end ? before.slice(j, end) : null;
}

/** INTRO ending at `at`, tested in place: a look-behind over the 40 characters before it. */
const INTRO_AT = new RegExp(`(?<=${INTRO.source.replace(/\\s\*\$$/, '\\s*')})`, 'iuy');
function introAt(text: string, at: number): boolean {
  INTRO_AT.lastIndex = at;
  return INTRO_AT.test(text);
}

/** Whether a capitalised honorific ("Dr.", "Frau") is the word before `at` (wordBeforeSpace without slicing first). */
function honorificAt(text: string, at: number, honorifics: Set<string>): boolean {
  let j = at;
  while (j > 0 && SPACE.test(text[j - 1])) j--;
  if (j === at) return false;
  if (j > 0 && text[j - 1] === '.') j--;
  const end = j;
  while (j > 0 && end - j < 12 && LETTER.test(text[j - 1])) j--;
  if (j === end || (j > 0 && LETTER.test(text[j - 1]))) return false;
  // Capitalised only: checked on the first letter before the word is cut out.
  if (text[j] === text[j].toLowerCase()) return false;
  const w = text.slice(j, end);
  return /^\p{Lu}/u.test(w) && honorifics.has(w.toLowerCase());
}

/** "a X." / "an X" with nothing after it in the sentence. */
function articleBeforeAtEnd(text: string, s: number, e: number): boolean {
  if (!ARTICLE_BEFORE.test(text.slice(Math.max(0, s - 4), s))) return false;
  return NOTHING_AFTER.test(text.slice(e, e + 8));
}

function sentenceStart(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t' || text[j] === '"' || text[j] === '“' || text[j] === '(' || text[j] === '*')) j--;
  return j < 0 || SENTENCE_BREAK.test(text[j]);
}

/** Up to CONTEXT_WORDS words of the candidate's sentence on each side. The tagger's person rules
 * look at neighbouring words only, and its cost grows with every word it is given (about
 * 0.35 ms fixed plus 0.04 ms a word), so the whole sentence would mostly buy latency. */
const CONTEXT_WORDS = 4;
const SENTENCE_END = /[.!?\n]/;
function sentenceAround(text: string, s: number, e: number): { text: string; at: number } {
  let a = s;
  let words = 0;
  while (a > 0 && s - a < 200 && !SENTENCE_END.test(text[a - 1])) {
    if (/\s/.test(text[a - 1]) && a < s && !/\s/.test(text[a]) && ++words > CONTEXT_WORDS) break;
    a--;
  }
  let b = e;
  words = 0;
  while (b < text.length && b - e < 200 && !SENTENCE_END.test(text[b])) {
    if (/\s/.test(text[b]) && b > e && !/\s/.test(text[b - 1]) && ++words > CONTEXT_WORDS) break;
    b++;
  }
  if (b < text.length && text[b] !== '\n' && SENTENCE_END.test(text[b])) b++;
  return { text: text.slice(a, b), at: s - a };
}

// Hooks of compromise's pipeline that tagging people needs: everything up to the post-tagger.
// "chunks" (noun/verb phrase grouping) and anything after it is not used by #Person.
let personHooks: string[] | null = null;
function hooksForPeople(): string[] {
  if (personHooks) return personHooks;
  const all = nlp().world().hooks as string[];
  const cut = all.indexOf('postTagger');
  personHooks = cut >= 0 ? all.slice(0, cut + 1) : all;
  return personHooks;
}

/**
 * For each window, whether the tagger calls the word at offset `at` a person. One tagger call
 * for all windows: they are joined with blank lines, which compromise treats as paragraph (and
 * so sentence) breaks, and each term's text is mapped back through its exact pre/text/post.
 */
export function tagPersons(windows: Array<{ text: string; at: number }>): boolean[] {
  const result = windows.map(() => false);
  if (!windows.length) return result;
  const SEP = '\n\n';
  const starts: number[] = [];
  let joined = '';
  for (const w of windows) {
    if (joined) joined += SEP;
    starts.push(joined.length + w.at);
    joined += w.text.replace(/\n/g, ' ');
  }
  const doc = nlp().tokenize(joined);
  doc.compute(hooksForPeople());
  let pos = 0;
  let k = 0;
  for (const sentence of doc.docs as Array<Array<{ pre: string; text: string; post: string; tags: Set<string> }>>) {
    for (const term of sentence) {
      const from = pos + term.pre.length;
      const to = from + term.text.length;
      pos = to + term.post.length;
      while (k < starts.length && starts[k] < from) k++;
      if (k < starts.length && starts[k] >= from && starts[k] < to && term.tags.has('Person')) result[k] = true;
    }
  }
  return result;
}

/**
 * Names written in lower case ("hi jakub", "it's marguerite duval") or in capitals ("notes by
 * PRIYA NAIR"): the words that may be a name are given an initial capital in a copy of the text
 * of the same length, and the copy is read as above, so every context rule applies unchanged and
 * the offsets are those of the original. Lower case is recased only right after a greeting, an
 * introduction or a request to contact someone (INTRO), for a first name the lexicons know that
 * is no everyday word, and the surname after it; capitals only in runs of two or three words (a
 * lone capitalised word is mostly an acronym or a shout: "DAN", "ALICE protocol"), and the run
 * is kept only as a given name and a surname.
 */
export function findNames(text: string, opts: { taggerBudget?: number } = {}): NameSpan[] {
  const found = findCapitalisedNames(text, opts);
  const lowerRuns = LOWER_AFTER_INTRO.test(text);
  const capsRuns = CAPS_PAIR.test(text);
  if (!lowerRuns && !capsRuns) return found;
  const lex = loadLexicon();
  // Built on the first word recased: most texts that pass the two tests above have no name.
  let chars: string[] | null = null;
  const recased: Array<[number, number]> = [];
  const title = (a: number, b: number) => {
    chars ??= text.split('');
    chars[a] = text[a].toUpperCase();
    for (let k = a + 1; k < b; k++) chars[k] = text[k].toLowerCase();
    // O'Neill, McDonald: the letter after the clan prefix is a capital.
    const w = text.slice(a, b).toLowerCase();
    if (/^o['’]\p{L}/u.test(w)) chars[a + 2] = text[a + 2].toUpperCase();
    else if (/^mc\p{L}/u.test(w)) chars[a + 2] = text[a + 2].toUpperCase();
    recased.push([a, b]);
  };
  const sameLength = (a: number, b: number) =>
    text.slice(a, b).toUpperCase().length === b - a && text.slice(a, b).toLowerCase().length === b - a;
  if (lowerRuns) {
    LOWER_AFTER_INTRO.lastIndex = 0;
    LOWER_AFTER_INTRO_G.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = LOWER_AFTER_INTRO_G.exec(text))) {
      const a = m.index + m[0].length - m[1].length;
      const w = m[1];
      // The next match may start at this word ("hey, it's marguerite ...").
      LOWER_AFTER_INTRO_G.lastIndex = a;
      if (
        !lex.first.has(w) ||
        lex.common.has(w) ||
        lex.weak.has(w) ||
        NOT_NAMES.has(w) ||
        PLACEHOLDERS.has(w) ||
        !sameLength(a, a + w.length)
      )
        continue;
      title(a, a + w.length);
      LOWER_WORD.lastIndex = a + w.length;
      const n = LOWER_WORD.exec(text);
      if (
        n &&
        (lex.last.has(n[1].replace(POSSESSIVE, '')) || /^(?:o['’]|mc)\p{L}{3,}$/u.test(n[1])) &&
        sameLength(n.index + n[0].length - n[1].length, n.index + n[0].length)
      )
        title(n.index + n[0].length - n[1].length, n.index + n[0].length);
    }
  }
  if (capsRuns) {
    CAPS_RUN.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CAPS_RUN.exec(text))) {
      let words = m[0].split(BLANKS);
      let lw = words.map((w) => w.toLowerCase());
      // Leading words that are no name ("CALL JOHN SMITH").
      const k = lw.findIndex((w) => lex.first.has(w));
      if (k < 0) continue;
      words = words.slice(k);
      lw = lw.slice(k);
      if (words.length < 2 || words.length > 3) continue;
      // A given name, then surnames or words no lexicon knows as everyday ones.
      if (!lex.first.has(lw[0]) && !lex.last.has(lw[1])) continue;
      if (lw.some((w) => NOT_NAMES.has(w) || NON_PERSON_HEADS.has(w) || (lex.common.has(w) && !lex.first.has(w) && !lex.last.has(w))))
        continue;
      let at = m.index;
      for (const w of words) {
        // (indexOf from the run's start: the leading words cut above come first.)
        const a = text.indexOf(w, at);
        if (sameLength(a, a + w.length)) title(a, a + w.length);
        at = a + w.length;
      }
    }
  }
  if (!chars) return found;
  const shadow = (chars as string[]).join('');
  for (const span of findCapitalisedNames(shadow, opts)) {
    if (!recased.some(([a, b]) => a < span.end && b > span.start)) continue;
    if (found.some((f) => f.start < span.end && f.end > span.start)) continue;
    found.push(span);
  }
  return found.sort((a, b) => a.start - b.start);
}
/** A lower-case word right after an introduction, greeting or request to contact (lower case too, or any case). */
const LOWER_INTRO_WORDS =
  "hi|hey|hello|dear|thanks|thank you|cheers|regards|it's|it is|this is|my name is|i am|i'm|ping|ask|tell|contact|meet|reach|cc|email|call|text|message|remind|invite";
const LOWER_AFTER_INTRO = new RegExp(`(?<![\\p{L}])(?:${LOWER_INTRO_WORDS}),?[ \\t]+(\\p{Ll}[\\p{Ll}'’-]+)`, 'iu');
const LOWER_AFTER_INTRO_G = new RegExp(LOWER_AFTER_INTRO.source, 'giu');
const LOWER_WORD = /[ \t]+(\p{Ll}[\p{Ll}'’-]+)/uy;
/** Two words or more in capitals (letters only, an apostrophe inside: O'CONNOR). */
const CAPS_PAIR = /(?<![\p{L}\p{N}])\p{Lu}[\p{Lu}'’-]+[ \t]+\p{Lu}[\p{Lu}'’-]+(?![\p{L}\p{N}])/u;
const CAPS_RUN = /(?<![\p{L}\p{N}])\p{Lu}[\p{Lu}'’-]+(?:[ \t]+\p{Lu}[\p{Lu}'’-]+)+(?![\p{L}\p{N}])/gu;

function findCapitalisedNames(text: string, opts: { taggerBudget?: number } = {}): NameSpan[] {
  const lex = loadLexicon();
  const code = codeRanges(text);
  const inCode = (i: number) => code.length > 0 && code.some(([a, b]) => i >= a && i < b);
  let budget = opts.taggerBudget ?? 2;
  const out: NameSpan[] = [];
  /** Ambiguous single names waiting for the one batched tagger call. */
  const pending: Array<{ span: NameSpan; window: { text: string; at: number } }> = [];
  CANDIDATE.lastIndex = 0;
  let m: RegExpExecArray | null;
  let guard = 0;
  while ((m = CANDIDATE.exec(text)) && guard++ < 2000) {
    const start = m.index;
    const end = start + m[0].length;
    if (inCode(start)) continue;
    // Identifiers: member access, calls, generics, assignments, snake/camel continuations.
    IDENTIFIER_AFTER.lastIndex = end;
    if (IDENTIFIER_AFTER.test(text)) continue;
    // A single word that no lexicon knows and nothing introduces stops here, before any array.
    if (m[2] === undefined) {
      const lw = m[1].toLowerCase();
      const key = POSSESSIVE.test(lw) ? lw.replace(POSSESSIVE, '') : lw;
      if (!lex.first.has(key) && !lex.last.has(key) && !introAt(text, start) && !honorificAt(text, start, lex.honorifics)) continue;
      // A title alone ("written by Prof. Kenji Watanabe"): the name after it is the person.
      if (lex.honorifics.has(key) && !lex.first.has(key)) continue;
    }
    const words = m[2] === undefined ? [m[1]] : m[0].split(BLANKS).filter((w) => !INITIAL.test(w));
    const lower = words.map((w) => w.toLowerCase().replace(POSSESSIVE, ''));
    // "Dear Xiomara Castellanos", "Thanks Saoirse Gallagher": a capitalised greeting or request
    // opening the run introduces the words after it, as it would written before the run.
    // One unknown word after it is as often a thing ("Hello World", "Thanks Team"): two are needed.
    // "Tell Chidi Okonkwo", "Ask Rose Baker": a request opening the sentence, before two or more
    // words that are a known first name or surname, or no everyday words ("Contact Customer
    // Support" is a thing).
    const leadRequest =
      LEAD_REQUEST.has(lower[0]) &&
      words.length >= 3 &&
      (lex.first.has(lower[1]) ||
        lex.last.has(lower[words.length - 1]) ||
        CLAN_SURNAME.test(words[words.length - 1]) ||
        noEverydayWordFrom(lower, 1, lex));
    const leadIntro =
      leadRequest ||
      (LEAD_INTRO.has(lower[0]) && (words.length > 2 || (words.length === 2 && (lex.first.has(lower[1]) || lex.last.has(lower[1])))));
    // Nothing below can score a run with no known first or last name unless an introduction or
    // an honorific precedes it; most capitalised words (German nouns, headings) stop here,
    // before the per-candidate context is cut out of the text.
    if (
      !leadIntro &&
      !lower.some((w) => lex.first.has(w) || lex.last.has(w)) &&
      !clanSurnameFrom(words, 1) &&
      !introAt(text, start) &&
      !honorificAt(text, start, lex.honorifics)
    )
      continue;
    const before = text.slice(Math.max(0, start - 40), start);
    if (CODE_KEYWORDS.test(before)) continue;
    // "Alice Protocol", "Jordan Street", "Smith Foundation": organisations and places.
    if (lower.some((w) => NON_PERSON_HEADS.has(w))) continue;
    const personWords = lower;
    // Things named like people ("my project is called Falcon", "a startup named Jasper") are not people.
    if (THING_BEFORE.test(before)) continue;
    const intro = leadIntro || INTRO.test(before);
    const prevWord = wordBeforeSpace(before);
    // "Dr. Hernández", "Frau Müller": the title is capitalised ("0.3 ms. Per-message" is a unit).
    const honorific = prevWord !== null && lex.honorifics.has(prevWord.toLowerCase()) && /^\p{Lu}/u.test(prevWord);
    // Score the run as a whole, trimming leading words that are clearly not names ("Yesterday John Smith").
    let i0 = leadIntro ? 1 : 0;
    while (
      i0 < personWords.length - 1 &&
      !lex.first.has(personWords[i0]) &&
      !lex.last.has(personWords[i0]) &&
      !intro &&
      !honorific &&
      !beforeSurname(lex, personWords, words, i0)
    )
      i0++;
    const first = personWords[i0];
    // The word right before the name: inside the run when leading words were trimmed ("Meet Sunny").
    const wordBefore = i0 > 0 ? personWords[i0 - 1] : prevWord;
    const rest = personWords.slice(i0 + 1);
    const spanStart = start + m[0].indexOf(words[i0]);
    const spanEnd = end;
    const restLooksLikeSurname = rest.length > 0 && rest.every((w) => lex.last.has(w) || lex.first.has(w) || !lex.common.has(w));
    let score = 0;
    let reason = '';
    if (honorific) {
      score = 0.92;
      reason = 'honorific';
    } else if (
      lex.first.has(first) &&
      !lex.ambiguous.has(first) &&
      !lex.weak.has(first) &&
      rest.length > 0 &&
      rest.length <= 2 &&
      !sentenceStart(text, spanStart)
    ) {
      // A known first name followed by capitalised words mid-sentence: a surname even when it is
      // also a word ("Lara Kiss", "Lura Little", "Alex Gal").
      score = rest.every((w) => lex.last.has(w)) ? 0.95 : 0.8;
      reason = 'first_last';
    } else if (lex.first.has(first) && restLooksLikeSurname) {
      score = lex.last.has(rest[rest.length - 1]) ? 0.95 : 0.85;
      reason = 'first_last';
    } else if (rest.length === 1 && beforeSurname(lex, personWords, words, i0)) {
      // A given name the gazetteer lacks before a surname it knows ("Chidi Okonkwo", "Tadeusz
      // Wiśniewski") or before an O'/Mc/Mac surname ("Aoife O'Sullivan").
      score = 0.8;
      reason = 'known_surname';
    } else if (intro && lex.first.has(first) && rest.length >= 1 && rest.length <= 2) {
      // After an introduction, a first name and a capitalised word are a full name even when both
      // are everyday words ("ask Rose Baker", "taken by Summer Hill").
      score = 0.8;
      reason = 'introduced_pair';
    } else if (intro && !lex.common.has(first) && !(rest.length === 0 && NOT_NAMES.has(first))) {
      // ("from Austin to Denver": a place the name lexicon also lists.)
      score = 0.85;
      reason = 'introduced';
    } else if (
      rest.length === 0 &&
      lex.first.has(first) &&
      !PLACEHOLDERS.has(first) &&
      !NOT_NAMES.has(first) &&
      wordBefore !== null &&
      ADDRESSING.test(wordBefore) &&
      !articleBeforeAtEnd(text, spanStart, spanEnd)
    ) {
      // "Meet Sunny at the gate", "thanks Grace": a greeting or a request to contact someone
      // before a first name that is also a word.
      score = 0.75;
      reason = 'addressed';
    } else if (
      rest.length === 1 &&
      lex.first.has(first) &&
      (lex.ambiguous.has(first) || lex.weak.has(first)) &&
      !sentenceStart(text, spanStart) &&
      !(wordBefore !== null && DETERMINER.test(wordBefore)) &&
      !POSSESSIVE.test(words[i0]) &&
      !NOT_NAMES.has(rest[0]) &&
      !PLURAL.test(rest[0])
    ) {
      // "lunch with Will Baker": two capitalised words mid-sentence, the first a given name that
      // is also a word; the second is a surname even when it is a word too.
      score = 0.7;
      reason = 'weak_first_last';
    } else if (rest.length === 0 && lex.first.has(first)) {
      if (PLACEHOLDERS.has(first) || lex.weak.has(first)) continue;
      // "the Victoria line", "the Jordan valley": a lone name after "the" names a thing.
      if (theBefore(text, spanStart)) continue;
      const atStart = sentenceStart(text, spanStart);
      // Sentence-initial ambiguous words are mostly imperatives ("Mark the task", "Grant access").
      if (lex.ambiguous.has(first) && atStart) continue;
      if ((lex.ambiguous.has(first) || atStart) && !lex.contested.has(first)) {
        // Only a name to compromise: its tagger would call this a person here too, except for
        // "a/an X" closing a sentence ("she bought a Warhol"), which it reads as a thing. A
        // speaker label ("Ben: ...") counts as a person (the tagger's colon rule does not).
        if (articleBeforeAtEnd(text, spanStart, spanEnd)) continue;
        score = 0.7;
        reason = atStart ? 'sentence_start' : 'name_word';
      } else if (lex.ambiguous.has(first) || atStart) {
        // A name that is also a verb or place: let the tagger decide on this sentence.
        if (budget <= 0) continue;
        budget--;
        pending.push({
          span: { start: spanStart, end: spanEnd, score: 0.7, reason: 'tagger' },
          window: sentenceAround(text, spanStart, spanEnd),
        });
        continue;
      } else {
        score = 0.75;
        reason = 'first_name';
      }
    } else if (lex.last.has(first) && rest.length === 0 && intro) {
      score = 0.8;
      reason = 'introduced';
    }
    if (score > 0) out.push({ start: spanStart, end: spanEnd, score, reason });
  }
  if (!pending.length) return out;
  const persons = tagPersons(pending.map((p) => p.window));
  pending.forEach((p, i) => {
    if (persons[i]) out.push(p.span);
  });
  return out.sort((a, b) => a.start - b.start);
}
