// Toxicity layer: threats of violence, dehumanising or exterminationist statements about groups,
// slurs, insults aimed at a person, and (weakly) profanity, scored 0..1 and compared with a
// configurable threshold. A weighted multilingual lexicon plus a few structural patterns
// ("I will kill you", "<group> are vermin", "you are an idiot"), matched on de-obfuscated text so
// "1d10t", "k i l l" and homoglyphs do not slip through. Profanity alone stays below the default
// threshold: "this fucking build is broken again" is rude, not harmful.
// What it cannot do: sarcasm, coded language and dog whistles, context ("kill the process",
// "shoot a photo" are fine; a threat phrased without these words is missed), and languages
// outside en/es/fr/de/it/pt. It is a fast first line, not a moderation model.
import type { GuardrailFinding } from '../../kernel/index.ts';
import { defineLayer, num } from './layer.ts';
import { mapSpan, normalizeForMatching } from './normalize.ts';
import { noisyOr } from './injection.ts';
import { execWord, WORD_START, wordRegex, type WordRegex } from './word-start.ts';

export interface ToxicitySettings extends Record<string, unknown> {
  threshold: number;
}
export const toxicityDefaults: ToxicitySettings = { threshold: 0.7 };

interface Pattern {
  kind: string;
  weight: number;
  re: WordRegex;
}

const b = WORD_START;
const e = '(?![\\p{L}\\p{N}])';
const alt = (xs: string[]) => `(?:${xs.join('|')})`;

const GROUPS = alt([
  'jews?', 'jewish people', 'muslims?', 'christians?', 'hindus?', 'sikhs?', 'atheists?', 'blacks?', 'black people', 'whites?', 'white people',
  'asians?', 'chinese', 'mexicans?', 'arabs?', 'africans?', 'immigrants?', 'refugees?', 'migrants?', 'foreigners?', 'gays?', 'gay people',
  'lesbians?', 'homosexuals?', 'trans(?:gender)? people', 'trans(?:gender)? women', 'transgenders?', 'women', 'men', 'girls', 'disabled people',
  'gypsies', 'roma', 'indians?', 'latinos?', 'hispanics?', 'palestinians?', 'israelis?', 'russians?', 'ukrainians?',
  'juden', 'muslime', 'auslander', 'fluchtlinge', 'schwule', 'frauen', 'judios', 'musulmanes', 'inmigrantes', 'negros', 'mujeres',
  'juifs', 'musulmans', 'immigres', 'noirs', 'femmes', 'ebrei', 'musulmani', 'immigrati', 'donne', 'judeus', 'imigrantes', 'mulheres',
]);

const DEHUMANISING = alt([
  'animals', 'vermin', 'parasites', 'cockroaches', 'rats', 'subhuman', 'sub-human', 'scum', 'a disease', 'a plague', 'filth', 'savages',
  'inferior', 'not human', 'less than human', 'a cancer', 'trash', 'garbage', 'untermenschen', 'ungeziefer', 'tiere', 'ratten', 'alimanas',
  'ratas', 'animales', 'cucarachas', 'vermine', 'rats', 'sous-hommes', 'parassiti', 'bestie', 'vermes', 'ratos',
]);

const KILL_VERBS = alt(['kill', 'murder', 'exterminate', 'eradicate', 'gas', 'shoot', 'hang', 'lynch', 'slaughter', 'wipe out', 'get rid of', 'burn', 'behead', 'rape', 'genocide']);

const THREAT_VERBS = alt(['kill', 'murder', 'shoot', 'stab', 'strangle', 'hurt', 'beat', 'rape', 'slit', 'behead', 'torture', 'find and kill', 'hunt (?:you|him|her|them) down', 'break your', 'smash your', 'burn down your', 'bomb']);

const INSULTS = alt([
  'idiot', 'moron', 'imbecile', 'stupid', 'dumb', 'retard(?:ed)?', 'loser', 'bitch', 'bastard', 'asshole', 'arsehole', 'dickhead', 'dick', 'prick',
  'cunt', 'whore', 'slut', 'scumbag', 'scum', 'piece of shit', 'worthless', 'pathetic', 'ugly', 'fat pig', 'pig', 'waste of space', 'clown', 'twat', 'wanker',
  'idiota', 'estupid[oa]', 'imbecil', 'gilipollas', 'pendej[oa]', 'cabr[oó]n', 'puta', 'connard', 'connasse', 'salope', 'abruti', 'debile', 'arschloch',
  'vollidiot', 'depp', 'schlampe', 'hurensohn', 'wichser', 'stronz[oa]', 'coglione', 'cretino', 'puttana', 'imbecille', 'otario', 'babaca', 'vagabund[oa]', 'filho da puta',
]);

const SLURS = alt([
  'n[i1]gg(?:er|a)s?', 'f[a4]gg?ots?', 'k[i1]kes?', 'sp[i1]cs?', 'ch[i1]nks?', 'wetbacks?', 'tr[a4]nn(?:y|ies)', 'raghead', 'towelhead', 'sandn[i1]gg(?:er|a)s?',
  'g[o0]oks?', 'p[a4]kis?', 'dykes?', 'retards', 'kanaken?', 'schwuchteln?', 'maricones?', 'sudacas?', 'bougnoules?', 'negr[oa]s? de mierda',
]);

const PROFANITY = alt([
  'fuck(?:ing|ed|er|s)?', 'f\\*+k', 'f\\*+ck', 'shit(?:ty)?', 'sh\\*+t', 'damn', 'crap', 'bullshit', 'piss(?:ed)?', 'bloody hell', 'mierda', 'joder', 'carajo', 'putain', 'merde',
  'scheiss(?:e)?', 'verdammt', 'cazzo', 'merda', 'porra', 'caralho', 'vaffanculo',
]);

const PATTERNS: Pattern[] = [
  // Threats against a person.
  { kind: 'threat', weight: 0.95, re: wordRegex(`${b}(?:i|we)(?:'ll| will| am going to| are going to| gonna|'m going to|'re going to| want to| wanna| shall)\\s+(?:\\p{L}+\\s+)?${THREAT_VERBS}\\s+(?:you|u|him|her|them|your|his|their|everyone|all)${e}`, 'gu') },
  { kind: 'threat', weight: 0.9, re: wordRegex(`${b}(?:you(?:'re| are) (?:going to|gonna) die|you (?:will|'ll|should) die|i know where you live|watch your back|you(?:'re| are) dead|kill yourself|kys|go die)${e}`, 'gu') },
  { kind: 'threat', weight: 0.9, re: wordRegex(`${b}(?:te (?:voy a|vamos a) (?:matar|romper)|je vais te (?:tuer|buter|crever)|ich (?:werde|will) dich (?:umbringen|toten|abstechen)|ti (?:ammazzo|uccido)|vou te matar|te mato|ich bring dich um)${e}`, 'gu') },
  // Violence or extermination against groups.
  { kind: 'hate_violence', weight: 0.95, re: wordRegex(`${b}${KILL_VERBS}\\s+(?:all\\s+(?:the\\s+)?|every\\s+|the\\s+)?${GROUPS}${e}`, 'gu') },
  { kind: 'hate_violence', weight: 0.95, re: wordRegex(`${b}${GROUPS}\\s+(?:should|must|deserve to|need to|ought to)\\s+(?:all\\s+)?(?:die|be killed|be exterminated|be gassed|be shot|be hanged|burn|hang|be wiped out|be deported)${e}`, 'gu') },
  { kind: 'hate_violence', weight: 0.9, re: wordRegex(`${b}(?:death to|gas the|exterminate the|tod den|muerte a los|mort aux|morte agli?)\\s+\\p{L}+`, 'gu') },
  // Dehumanising statements about groups.
  { kind: 'hate_dehumanising', weight: 0.9, re: wordRegex(`${b}(?:all\\s+)?${GROUPS}\\s+(?:are|is|were|sind|son|sont|sono|sao)\\s+(?:all\\s+|just\\s+|nothing but\\s+|like\\s+|alle\\s+|todos\\s+|tous\\s+|tutti\\s+)?${DEHUMANISING}${e}`, 'gu') },
  { kind: 'hate', weight: 0.8, re: wordRegex(`${b}i\\s+(?:hate|despise|detest)\\s+(?:all\\s+)?${GROUPS}${e}|${b}(?:ich hasse|odio a los|je deteste les|odio gli|odeio os)\\s+(?:alle\\s+)?${GROUPS}${e}`, 'gu') },
  { kind: 'slur', weight: 0.8, re: wordRegex(`${b}${SLURS}${e}`, 'gu') },
  // Insults aimed at the reader.
  { kind: 'insult', weight: 0.8, re: wordRegex(`${b}(?:you(?:'re| are| r)?|u r|ur|du bist|eres|tu es|t'es|sei|voce e|you stupid|you fucking|you little|you absolute)\\s+(?:such\\s+)?(?:an?\\s+|a\\s+fucking\\s+|ein(?:e)?\\s+|un(?:a|e)?\\s+|um(?:a)?\\s+)?(?:\\p{L}+\\s+)?${INSULTS}${e}`, 'gu') },
  { kind: 'insult', weight: 0.85, re: wordRegex(`${b}(?:fuck you|fuck off|screw you|go to hell|shut (?:the fuck )?up,? (?:you|bitch)|jebi mater|vete a la mierda|va te faire foutre|fick dich|vaffanculo|vai (?:se|te) foder)${e}`, 'gu') },
  { kind: 'insult_word', weight: 0.35, re: wordRegex(`${b}${INSULTS}${e}`, 'gu') },
  // Self-harm instructions are harmful content too, but weighted so one mention does not block a person asking for help.
  { kind: 'self_harm', weight: 0.6, re: wordRegex(`${b}(?:how (?:do i|to|can i) (?:kill myself|commit suicide|end my life|cut myself)|best way to (?:kill myself|commit suicide|die))${e}`, 'gu') },
  { kind: 'profanity', weight: 0.3, re: wordRegex(`${b}${PROFANITY}${e}`, 'gu') },
];

export interface ToxicityResult {
  score: number;
  spans: Array<{ kind: string; start: number; end: number; weight: number }>;
}

export function scoreToxicity(text: string): ToxicityResult {
  const n = normalizeForMatching(text);
  const spans: ToxicityResult['spans'] = [];
  const best = new Map<string, number[]>();
  for (const p of PATTERNS) {
    p.re.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let c = 0;
    while ((m = execWord(p.re, n.text)) && c++ < 50) {
      const [s, en] = mapSpan(n, m.index, m.index + m[0].length, text);
      spans.push({ kind: p.kind, start: s, end: en, weight: p.weight });
      const arr = best.get(p.kind) ?? [];
      arr.push(p.weight);
      best.set(p.kind, arr);
    }
  }
  // Repeated weak signals add up slowly: each kind contributes its strongest hit plus a little per repeat.
  const parts: number[] = [];
  for (const ws of best.values()) {
    ws.sort((a, c) => c - a);
    parts.push(ws[0]!);
    for (const w of ws.slice(1, 4)) parts.push(w * 0.3);
  }
  return { score: noisyOr(parts), spans };
}

export function createToxicityGuardrail(overrides: Record<string, unknown> = {}) {
  return defineLayer<ToxicitySettings>(
    {
      name: 'toxicity',
      description: 'Threats, hate and dehumanising speech, slurs, targeted insults (lexicon + patterns, de-obfuscated), scored 0..1 against a threshold',
      defaultMode: 'block',
      directions: ['input', 'output'],
      order: 15,
      defaults: toxicityDefaults,
      validate: (s) => ({ ...s, threshold: num(s.threshold, 'toxicity.threshold', 0, 1) }),
      build(s) {
        return (text: string): GuardrailFinding[] => {
          const r = scoreToxicity(text);
          if (r.score < s.threshold) return [];
          const score = Math.round(r.score * 1000) / 1000;
          return r.spans
            .filter((sp) => sp.kind !== 'profanity' || r.spans.length === 1)
            .map((sp) => ({ layer: 'toxicity', kind: sp.kind, start: sp.start, end: sp.end, score, replacement: '[REDACTED:toxicity]' }));
        };
      },
    },
    overrides,
  );
}
