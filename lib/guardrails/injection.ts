// Prompt-injection layer: multilingual rules for instruction overrides, jailbreak personas,
// system-prompt extraction, fake chat delimiters and safety bypasses, plus a hashed-n-gram
// logistic regression (trained by scripts/train-injection.ts), combined by noisy-OR into one
// score. Everything runs on de-obfuscated text (see normalize.ts); base64/hex/percent payloads
// are decoded and scored too. False positives it avoids: rules need an instruction-like object
// ("ignore the previous instructions", not "ignore the whitespace"), role-play alone ("act as a
// tutor") is left to the classifier, and talking *about* prompt injection is not an injection.
import type { GuardrailDirection, GuardrailFinding } from '../../kernel/index.ts';
import { featurize, loadModel, predict, tokenFeatures, windowScore, type HashedModel, type LoadedModel } from './classifier.ts';
import { findEncodedBlobs } from './encoding.ts';
import { defineLayer, num } from './layer.ts';
import { mapSpan, normalizeForMatching, squash, type NormalizedText } from './normalize.ts';
import { execWord, WORD_START, wordRegex, type WordRegex } from './word-start.ts';

interface Rule {
  id: string;
  kind: string;
  weight: number;
  re: WordRegex;
}

const alt = (xs: string[]) => `(?:${xs.join('|')})`;
/** Up to n filler words between a verb and its object; lazy and bounded, so no runaway backtracking. */
const gap = (n: number) => `(?:[\\s,]+[\\p{L}\\p{N}'’-]+){0,${n}}?`;

const EN_VERBS = alt([
  'ignore', 'ignoring', 'disregard', 'forget', 'skip', 'override', 'overwrite', 'bypass', 'drop', 'abandon', 'discard',
  'delete', 'erase', 'neglect', 'dismiss', 'set aside', 'throw away', 'put aside', 'leave behind', 'remove',
  "do not follow", "don'?t follow", 'stop following', 'no longer follow', 'pay no attention to', 'clear',
]);
const EN_NOUNS = alt([
  'instructions?', 'prompts?', 'prompt texts?', 'rules', 'directions', 'directives?', 'guidelines', 'orders', 'commands',
  'assignments?', 'tasks', 'context', 'constraints', 'programming', 'guardrails', 'restrictions', 'polic(?:y|ies)',
  'training', 'system (?:message|prompt)', 'conversation', 'information', 'documents', 'articles', 'input', 'messages?',
  'thoughts', 'text', 'settings',
]);
const EN_QUAL = alt([
  'previous', 'prior', 'above', 'preceding', 'earlier', 'former', 'foregoing', 'initial', 'original', 'old', 'existing',
  'system', 'developer', 'given', 'provided', 'all', 'any', 'every', 'your', 'these', 'those', 'current', 'default',
]);

// Verb + object per language, accents already stripped by normalization.
const LANG_OVERRIDES: Array<[string, string[], string[]]> = [
  ['es',
    ['ignora', 'ignore', 'ignoren', 'ignorar', 'olvida', 'olvide', 'olvidate', 'olviden', 'olvidar', 'omite', 'omita', 'descarta', 'descarte',
      'desestima', 'no sigas', 'no sigan', 'haz caso omiso (?:de|a)', 'deja de lado', 'borra'],
    ['(?:todas? )?(?:las |los |tus |sus )?(?:instrucciones|indicaciones|ordenes|reglas|directrices|instruccion|tareas|restricciones)', 'todo(?: lo)?(?: anterior| que (?:te )?(?:dije|digo|han dicho|sabes))?']],
  ['fr',
    ['ignore', 'ignorez', 'ignorer', 'oublie', 'oubliez', 'oublier', 'ne tiens pas compte d?e?s?', 'ne tenez pas compte d?e?s?',
      'fais abstraction d?e?s?', 'faites abstraction d?e?s?', 'passe outre', 'passez outre', 'efface', 'effacez'],
    ['(?:toutes? )?(?:les |tes |vos |ces )?(?:instructions|consignes|regles|directives|ordres|indications|taches|restrictions)', 'tout(?: ce qui precede| ce que (?:je|tu|vous|on) )?']],
  ['de',
    ['ignoriere', 'ignorieren(?: sie)?', 'ignorier', 'vergiss', 'vergessen sie', 'vergesst', 'missachte', 'missachten sie', 'uberspringe',
      'verwirf', 'verwerfe', 'lass(?:en sie)?', 'streiche', 'losche'],
    ['(?:alle |die |deine |ihre |sammtliche )?(?:vorherigen |bisherigen |vorangehenden |vorangegangenen |obigen |vorigen |fruheren |ursprunglichen )?(?:anweisungen|anweisung|instruktionen|befehle|aufgaben|auftrage|regeln|vorgaben|informationen|angaben|ausfuhrungen)', 'alles(?: davor| zuvor| vorher| bisherige| gesagte| was)?']],
  ['it',
    ['ignora', 'ignorate', 'ignori', 'dimentica', 'dimenticate', 'dimentichi', 'trascura', 'non seguire', 'scorda', 'scordati'],
    ['(?:tutte )?(?:le |tue |sue )?(?:istruzioni|regole|indicazioni|direttive|ordini|compiti|restrizioni)', 'tutto(?: quello| cio)?']],
  ['pt',
    ['ignore', 'ignora', 'ignorar', 'esqueca', 'esquece', 'esquecer', 'desconsidere', 'desconsidera', 'nao siga', 'despreze'],
    ['(?:todas )?(?:as |suas |tuas )?(?:instrucoes|regras|ordens|diretrizes|indicacoes|tarefas|restricoes)', 'tudo(?: o que)?']],
  ['nl',
    ['negeer', 'vergeet', 'negeren', 'vergeten'],
    ['(?:alle )?(?:vorige |eerdere |voorgaande |bovenstaande )?(?:instructies|regels|opdrachten|aanwijzingen)', 'alles']],
  ['pl',
    ['zignoruj', 'ignoruj', 'zapomnij', 'pomin'],
    ['(?:wszystkie )?(?:poprzednie )?(?:instrukcje|polecenia|zasady)', '(?:o )?wszystkim']],
  ['hbs',
    ['zaboravi', 'ignoriraj', 'ignorisi', 'zanemari'],
    ['(?:sve )?(?:prethodne )?(?:instrukcije|upute|naredbe|uputstva)', 'sve']],
  ['ru',
    ['игнорируи(?:те)?', 'проигнорируи(?:те)?', 'забудь(?:те)?', 'не обращаи(?:те)? внимания на', 'отбрось(?:те)?'],
    ['(?:все |всё )?(?:предыдущие |прошлые |прежние |вышеуказанные )?(?:инструкции|указания|правила|команды|ограничения)', 'вс[её](?: что)?']],
  ['tr',
    ['yok say', 'unut', 'gormezden gel'],
    []],
];

function buildRules(): Rule[] {
  const r: Rule[] = [];
  const add = (id: string, kind: string, weight: number, src: string) => r.push({ id, kind, weight, re: wordRegex(src, 'gu') });
  const b = WORD_START;
  const e = '(?![\\p{L}\\p{N}])';
  // English instruction overrides.
  add('override_qualified', 'instruction_override', 0.92, `${b}${EN_VERBS}${gap(2)}[\\s,]+(?:of )?(?:the |your |my |all |all of |any )?${EN_QUAL}${gap(2)}[\\s,]+${EN_NOUNS}${e}`);
  add('override_above', 'instruction_override', 0.85, `${b}(?:ignore|disregard|forget)(?: about)?(?: all)?(?: of)? (?:the |what(?:'s| is| was) )?(?:above|previous|preceding|prior|before)${e}`);
  add('override_everything', 'instruction_override', 0.8, `${b}(?:ignore|disregard|forget|drop|abandon)(?: about)? (?:everything|all (?:of )?(?:that|this|the above)|anything)(?: (?:before|above|previously|so far|you (?:know|were told|have been told)|we (?:discussed|talked about)|(?:i|we) (?:said|told you)|said|prior|earlier|up to now))?${e}`);
  add('new_task', 'instruction_override', 0.72, `${b}(?:(?:your|the) new (?:task|instructions?|assignment|role|mission|objective)|(?:here is |now )?your new job|new (?:instructions|tasks|rules) (?:follow|are|:)|(?:start|begin) (?:over|again|from (?:the front|scratch))(?: with a new task)?)${e}`);
  add('from_now_on', 'instruction_override', 0.55, `${b}(?:from now on|henceforth|from this (?:point|moment) on)[,\\s]+(?:you|act|respond|answer|reply|behave|pretend|always|only|ignore)${e}`);
  add('instead_output', 'output_hijack', 0.45, `${b}(?:instead|rather)[,\\s]+(?:just |only )?(?:output|print|say|write|respond with|reply with|answer with)${e}`);
  add('only_say', 'output_hijack', 0.4, `${b}(?:just|only|simply) (?:say|output|print|reply with|respond with|answer with)${e}`);
  add('ignore_sources', 'instruction_override', 0.65, `${b}(?:disregard(?:ing)?|ignor(?:e|ing)|without (?:using|looking at)|do not (?:use|look (?:in|at))|don'?t (?:use|look (?:in|at))|not (?:according to|based on|by))(?: all| any)? (?:the )?(?:provided |given |attached |retrieved )?(?:articles|documents|context|sources|search results)${e}`);
  add('despite_told', 'instruction_override', 0.75, `${b}(?:despite|regardless of|contrary to|notwithstanding|no matter) (?:what|anything|everything) (?:you(?:'ve| have)? been|you were|you are|you're) (?:told|instructed|programmed|trained)${e}`);
  add('change_instructions', 'instruction_override', 0.8, `${b}(?:change|update|replace|rewrite) your (?:instructions|rules|programming|system prompt|guidelines)${e}|${b}your (?:instructions|rules) are now${e}|${b}additional instruction${e}`);
  // Jailbreak personas and safety bypass.
  add('persona_dan', 'jailbreak', 0.88, `${b}(?:do anything now|dan mode|developer mode(?: enabled| output)?|jailbreak(?:ed)? mode|god mode|unrestricted mode|evil confidant|anti-?gpt|betterdan|stan mode|dude mode|aim mode)${e}`);
  add('persona_unfiltered', 'jailbreak', 0.85, `${b}(?:you are|you're|act as|pretend to be|become|roleplay as|play the role of) (?:now |going to be |an? |the )*(?:unfiltered|uncensored|unrestricted|unbound|jailbroken|amoral|immoral|unethical|rogue|evil|malicious|lawless)${e}`);
  add('persona_dan_name', 'jailbreak', 0.75, `${b}(?:you are|you're|act as|pretend to be) (?:now )?(?:dan|stan|dude|aim|mongo tom|kevin)${e}`);
  add('no_limits', 'jailbreak', 0.8, `${b}(?:without|free (?:of|from)|not bound by|no longer bound by|don'?t have|do not have|have no|with no|broken free of) (?:any |all |the |your )?(?:typical |usual |ethical |moral |content |safety )?(?:restrictions|filters|limits|limitations|rules|guidelines|ethics|morals|censorship|boundaries|confines|policies)${e}`);
  add('never_refuse', 'jailbreak', 0.6, `${b}(?:never|must not|cannot|can't|will not|won't|do not|don't) (?:ever )?(?:refuse|decline|say (?:no|that you can'?t))${e}`);
  add('stay_in_character', 'jailbreak', 0.55, `${b}(?:stay|remain|keep) in (?:character|role|your roles?)${e}|${b}(?:never|do not|don't|without) (?:break|breaking|falling out of) (?:character|the role|your role)${e}`);
  add('safety_bypass', 'safety_bypass', 0.85, `${b}(?:ignore|bypass|disable|turn off|override|circumvent|deactivate|remove|get around|evade)${gap(2)}[\\s,]+(?:your |the |all |any )?(?:safety|content|ethical|moral|openai|anthropic)? ?(?:filters?|guardrails|safeguards|censorship|moderation|alignment|ethics|safety (?:guidelines|rules|measures|policies)|content polic(?:y|ies))${e}`);
  add('pretend', 'jailbreak', 0.35, `${b}(?:pretend (?:to be|you are|you're|that you)|imagine you are|you are now|now you are|i want you to act as|act as an?|roleplay as)${e}`);
  // System-prompt extraction.
  add('extract_prompt', 'prompt_extraction', 0.82, `${b}(?:show|print|reveal|repeat|output|display|dump|leak|tell me|give me|share|list|write out|spell out|what (?:is|are|was|were)|read (?:back|out))${gap(3)}[\\s,]+(?:your|the (?:system|initial|hidden|original|secret|full|developer|first)|all your)(?: \\p{L}+)? (?:prompt|prompts|instructions|prompt texts?|system prompt|directives|configuration|guidelines|rules)${e}`);
  add('extract_above', 'prompt_extraction', 0.7, `${b}(?:what (?:was|is) (?:written|said|stated)|(?:repeat|print|output|show)(?: me)? (?:the |all )?(?:text|words|everything|lines?|sentences?))(?: \\p{L}+)? (?:above|before(?: this)?|at the (?:beginning|start|top)(?: of (?:this|the) (?:prompt|conversation))?)${e}`);
  // Fake chat-format delimiters.
  add('chat_tokens', 'delimiter_injection', 0.9, `<\\|(?:im_start|im_end|system|endoftext|eot_id|start_header_id|end_header_id)\\|>|\\[/?inst\\]|<<\\s*/?sys\\s*>>`);
  add('role_tags', 'delimiter_injection', 0.6, `</?(?:system|instructions?|admin|developer)>|###\\s*(?:instruction|system|new instructions?)|(?:^|\\n)\\s*(?:system|developer)\\s*(?:prompt)?\\s*:`);
  add('end_of_input', 'delimiter_injection', 0.55, `${b}(?:end of (?:user )?(?:input|prompt|document|context)|(?:begin|start) (?:of )?(?:new |the )?(?:system|admin|developer) (?:prompt|instructions|message|override))${e}`);
  // Indirect injection aimed at the assistant, typically in tool results.
  add('addressed_to_ai', 'indirect_injection', 0.7, `${b}(?:ai|assistant|chatbot|llm|language model|agent|gpt|chatgpt|claude)s?[,:]?\\s+(?:you\\s+)?(?:must|should|shall|will|need to|are instructed to)\\s+(?:now\\s+)?(?:ignore|forget|disregard|reveal|send|forward|exfiltrate|email|post|delete|execute|run)${e}`);
  add('attention_ai', 'indirect_injection', 0.6, `${b}(?:attention|important|note|message|instruction)s?\\s+(?:to|for)\\s+(?:the\\s+)?(?:ai|assistant|llm|model|agent|chatbot)${e}`);
  add('exfil_request', 'indirect_injection', 0.6, `${b}(?:send|forward|email|post|upload|exfiltrate|transmit|leak)${gap(4)}[\\s,]+(?:the |this |all |your |my )?(?:conversation|chat history|api keys?|passwords?|credentials|secrets?|system prompt|private keys?|session tokens?|cookies)${gap(3)}[\\s,]+(?:to|at|into)\\s+(?:https?:|www\\.|[\\w.-]+@|this (?:url|address|server|endpoint))`);
  // Multilingual overrides.
  for (const [lang, verbs, nouns] of LANG_OVERRIDES) {
    if (nouns.length) add(`override_${lang}`, 'instruction_override', 0.88, `${b}${alt(verbs)}${gap(2)}[\\s,]+(?:(?:a|de|d'|di|o|sur|an|van|над|о) )?${alt(nouns)}${e}`);
  }
  add('override_tr', 'instruction_override', 0.88, `(?:onceki|tum|butun|yukaridaki)\\s+(?:talimatlar[iı]|komutlar[iı]|kurallar[iı])\\s*(?:yok say|unut|gormezden gel)`);
  add('override_de_abweichend', 'instruction_override', 0.85, `${b}abweichend (?:zu|von) (?:den )?(?:vorherigen|bisherigen|obigen|vorigen)${e}`);
  add('new_task_de', 'instruction_override', 0.72, `${b}(?:nun|jetzt) folgen (?:neue|weitere) (?:anweisungen|aufgaben|instruktionen)${e}|${b}(?:deine|ihre) neue aufgabe${e}`);
  add('new_task_es_fr_it_pt', 'instruction_override', 0.72, `${b}(?:tu nueva tarea|nuevas instrucciones|ta nouvelle tache|nouvelles instructions|il tuo nuovo compito|nuove istruzioni|sua nova tarefa|novas instrucoes)${e}`);
  add('from_now_on_ml', 'instruction_override', 0.55, `${b}(?:a partir de ahora|de ahora en adelante|a partir de maintenant|desormais|ab jetzt|von nun an|ab sofort|d'ora in poi|da ora in poi|a partir de agora|daqui em diante|vanaf nu)[,\\s]+(?:eres|seras|actua|responde|tu es|tu vas|vous etes|agis|reponds|bist du|du bist|antwortest|agierst|sei|agisci|rispondi|voce e|voce sera|aja|responda|ben je|je bent)${e}`);
  add('extract_prompt_ml', 'prompt_extraction', 0.8, `${b}(?:muestra(?:me)?|revela(?:me)?|dime|imprime|repite|montre(?:-moi)?|affiche|revele|repete|donne-moi|zeige?(?: mir)?|gib mir|verrate|wiederhole|mostra(?:mi)?|rivela(?:mi)?|dimmi|ripeti|mostre|revele|repita|me diga)\\s+(?:tu|tus|el|las|ton|tes|votre|vos|le|les|deinen|deine|den|die|ihre|il tuo|le tue|il|seu|suas|o|as|alle deine)\\s+(?:\\p{L}+\\s+)?(?:prompt|prompts|instrucciones|instructions|consignes|anweisungen|prompt-texte?|systemprompt|istruzioni|instrucoes)${e}`);
  add('persona_unfiltered_ml', 'jailbreak', 0.8, `${b}(?:du bist|sei|ahora eres|eres|tu es|sois|sei|voce e|seja)(?: jetzt| nun| ahora| maintenant| ora| agora)? (?:eine? |una? |uma? )?(?:bose|unzensierte|uneingeschrankte|malvad[oa]|malvagi[oa]|malefique|malefica|malign[oa]|perversa|sin restricciones|sans restrictions|senza restrizioni|sem restricoes|sin filtros|sans filtres?|senza filtri|sem filtros)${e}|${b}(?:ki|ia|ai) (?:ohne|sin|sans|senza|sem) (?:einschrankungen|filter|restricciones|filtros|restrictions|filtres|restrizioni|filtri|restricoes)${e}`);
  add('persona_ml', 'jailbreak', 0.35, `${b}(?:stell dir vor,? du bist|jetzt bist du|nun bist du|du bist jetzt|ahora eres|finge que eres|imagina que eres|maintenant tu es|imagine que tu es|fais comme si tu etais|ora sei|fingi di essere|agora voce e|finja que voce e)${e}`);
  // CJK and other scripts (no word boundaries there).
  add('override_zh', 'instruction_override', 0.88, `(?:忽略|无视|忽视|忘记|忘掉|不要理会|跳过|無視|忽略掉)(?:之前|以上|上面|前面|所有|全部|先前|此前|以前)?(?:的)?(?:所有|全部)?(?:的)?(?:指令|指示|说明|說明|规则|規則|提示|要求|命令)`);
  add('extract_zh', 'prompt_extraction', 0.75, `(?:显示|顯示|输出|輸出|告诉我|告訴我|重复|重複|打印)(?:你的)?(?:系统|系統)?(?:提示词|提示詞|提示|指令)`);
  add('override_ja', 'instruction_override', 0.88, `(?:以前|前|上記|これまで|すべて|全て)の(?:指示|命令|ルール|指令)を(?:無視|忘れ)|指示を無視`);
  add('override_ko', 'instruction_override', 0.88, `(?:이전|위의|모든|앞의)\\s*(?:지시|명령|지침|규칙)(?:을|를|사항을|들을)?\\s*(?:무시|잊어)`);
  add('override_ar', 'instruction_override', 0.88, `(?:تجاهل|انس|انسى)\\s+(?:جميع\\s+|كل\\s+)?(?:التعليمات|الأوامر|الاوامر|التوجيهات)`);
  add('override_hi', 'instruction_override', 0.88, `(?:पिछले|सभी|पिछली|ऊपर\\s+के)\\s+(?:निर्देशों|निर्देश|आदेशों)\\s+(?:को\\s+)?(?:अनदेखा|भूल|नजरअंदाज)`);
  return r;
}

const RULES = buildRules();

// Phrases checked on letters-only text when letters were spaced out ("i-g-n-o-r-e a-l-l ...").
const SQUASHED = [
  'ignoreallpreviousinstructions', 'ignorepreviousinstructions', 'ignoreallinstructions', 'ignoreyourinstructions',
  'ignoretheaboveinstructions', 'disregardallprevious', 'disregardpreviousinstructions', 'forgetallpreviousinstructions',
  'forgeteverything', 'forgetyourinstructions', 'ignoretheabove', 'revealyoursystemprompt', 'showmeyoursystemprompt',
  'printyoursystemprompt', 'doanythingnow', 'developermode', 'ignoreyourrules', 'bypassyourfilters', 'jailbreak',
  'vergissalles', 'ignorierealle', 'olvidatodo', 'ignoratodas', 'oublieztout', 'oublietout', 'ignoratutte',
];

export interface RuleHit {
  rule: string;
  kind: string;
  weight: number;
  /** Span in the normalized text. */
  start: number;
  end: number;
}

export function matchRules(n: NormalizedText): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of RULES) {
    rule.re.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let count = 0;
    while ((m = execWord(rule.re, n.text)) && count < 8) {
      hits.push({ rule: rule.id, kind: rule.kind, weight: rule.weight, start: m.index, end: m.index + m[0].length });
      if (m[0].length === 0) rule.re.re.lastIndex++;
      count++;
    }
  }
  // Whole phrases typed letter by letter have no innocent use in a prompt.
  if (n.stats.spacedLetters >= 12) hits.push({ rule: 'spaced_letters', kind: 'obfuscation', weight: 0.6, start: 0, end: n.text.length });
  if (n.stats.spaced > 0 || /\p{L}([.\-_*|/])\p{L}\1\p{L}\1\p{L}/u.test(n.text)) {
    const sq = squash(n.text);
    for (const p of SQUASHED) {
      if (sq.includes(p)) hits.push({ rule: 'squashed_phrase', kind: 'obfuscated_override', weight: 0.88, start: 0, end: n.text.length });
    }
  }
  return hits;
}

/** Combines independent evidence: 1 - Π(1 - p). */
export function noisyOr(ps: number[]): number {
  let q = 1;
  for (const p of ps) q *= 1 - Math.max(0, Math.min(1, p));
  return 1 - q;
}

export interface InjectionScore {
  score: number;
  ruleScore: number;
  modelScore: number;
  hits: RuleHit[];
  /** Best-scoring window in normalized text when the classifier localised it. */
  window?: [number, number];
}

/**
 * Windows the classifier scores: the whole text (up to a size) and each run of sentences, so an
 * injection appended to a harmless question is not diluted by it. Bounded to MAX_WINDOWS.
 */
const MAX_WINDOWS = 64;
export function windows(text: string, size = 600): Array<[number, number]> {
  const out: Array<[number, number]> = [[0, Math.min(text.length, size)]];
  const SENT = /[^.!?\n。！？]+[.!?\n。！？]*/gu;
  const sents: Array<[number, number]> = [];
  let m: RegExpExecArray | null;
  while ((m = SENT.exec(text)) && sents.length < MAX_WINDOWS * 4) sents.push([m.index, m.index + m[0].length]);
  if (sents.length <= 1 && text.length <= size) return out;
  // Each sentence on its own; a short one ("Stop.", "Very good.") is joined with the next, which
  // keeps the little context that matters without scoring every sentence twice.
  for (let i = 0; i < sents.length && out.length < MAX_WINDOWS; i++) {
    const s = sents[i]![0];
    let e = sents[i]![1];
    while (i + 1 < sents.length && spaceSeparated(text, s, e, 6) < 6 && sents[i + 1]![1] - s <= size) e = sents[++i]![1];
    if (e - s > size) e = s + size;
    if (e - s < text.length && spaceSeparated(text, s, e, 3) >= 3) out.push([s, e]);
  }
  return out;
}

/** JavaScript's \s: white space and line terminators. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
/** text.slice(from, to).trim().split(/\s+/).length, counted up to `max`, without building strings. */
function spaceSeparated(text: string, from: number, to: number, max: number): number {
  let n = 0;
  let inRun = false;
  for (let i = from; i < to && n < max; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inRun) n++;
    inRun = !space;
  }
  return Math.max(n, 1);
}

/** Below this many words the classifier's score is scaled down proportionally. */
const SHORT_TEXT_WORDS = 5;

const WORD = /[\p{L}\p{N}]+/gu;
/** Letter/digit runs starting in text[from, to), counted up to `max` (no slice, no match array). */
function countWords(text: string, from: number, to: number, max: number): number {
  WORD.lastIndex = from;
  let n = 0;
  let m: RegExpExecArray | null;
  while (n < max && (m = WORD.exec(text)) && m.index < to) n++;
  return n;
}

export function scoreInjection(text: string, model: LoadedModel | null, opts: { decode?: boolean; obfuscationWeight?: number } = {}): InjectionScore {
  const n = normalizeForMatching(text);
  const hits = matchRules(n);
  let ruleScore = 0;
  const byKind = new Map<string, number>();
  for (const h of hits) byKind.set(h.kind, Math.max(byKind.get(h.kind) ?? 0, h.weight));
  ruleScore = noisyOr([...byKind.values()]);
  // Obfuscation on top of a rule hit is itself evidence of intent.
  const obf = n.stats.invisible + n.stats.confusable + n.stats.spaced + (n.stats.leet > 2 ? 1 : 0);
  if (hits.length && obf > 0) ruleScore = noisyOr([ruleScore, opts.obfuscationWeight ?? 0.3]);
  let modelScore = 0;
  let window: [number, number] | undefined;
  if (model) {
    const ws = windows(n.text);
    let upTo = 0;
    for (const [, e] of ws) upTo = Math.max(upTo, e);
    // Tokens and their hashed features once for the whole text; each window sums its own.
    const tf = tokenFeatures(n.text, model.dims, upTo);
    for (const [s, e] of ws) {
      // A one- or two-word message gives the model almost no evidence and its bias dominates
      // ("hello" would score like an attack); short attacks are what the rules are for.
      const words = countWords(n.text, s, e, SHORT_TEXT_WORDS);
      const raw = windowScore(model, tf, s, e) ?? predict(model, featurize(n.text.slice(s, e), model.dims));
      const p = raw * Math.min(1, words / SHORT_TEXT_WORDS);
      if (p > modelScore) {
        modelScore = p;
        window = [s, e];
      }
    }
  }
  let score = noisyOr([ruleScore, modelScore]);
  if (opts.decode !== false) {
    for (const blob of findEncodedBlobs(text)) {
      if (blob.printable < 0.85 || blob.decoded.length < 8) continue;
      const inner = scoreInjection(blob.decoded, model, { decode: false });
      if (inner.score > 0.3) {
        const boosted = noisyOr([inner.score, 0.2]);
        hits.push({ rule: `encoded_${blob.encoding}`, kind: 'encoded_injection', weight: boosted, start: -blob.start - 1, end: -blob.end - 1 });
        score = Math.max(score, boosted);
      }
    }
  }
  return { score, ruleScore, modelScore, hits, window: window ? [window[0], window[1]] : undefined };
}

export interface PromptInjectionSettings extends Record<string, unknown> {
  /** Combined score at or above which a message is an injection. */
  threshold: number;
  /** Use the trained classifier (rules alone when false or when no model is loaded). */
  use_classifier: boolean;
  /** Decode base64/hex/percent payloads and score what they hide. */
  decode_payloads: boolean;
}

export const promptInjectionDefaults: PromptInjectionSettings = { threshold: 0.5, use_classifier: true, decode_payloads: true };

export function createPromptInjectionGuardrail(model: HashedModel | LoadedModel | null, overrides: Record<string, unknown> = {}) {
  const loaded: LoadedModel | null = model ? ('weights' in model ? model : loadModel(model)) : null;
  return defineLayer<PromptInjectionSettings>(
    {
      name: 'prompt_injection',
      description: 'Jailbreaks, instruction overrides, prompt extraction and fake chat delimiters in 15+ languages, de-obfuscated, rules + classifier',
      defaultMode: 'block',
      directions: ['input', 'tool_result'],
      order: 20,
      defaults: promptInjectionDefaults,
      validate(s) {
        return { ...s, threshold: num(s.threshold, 'prompt_injection.threshold', 0, 1), use_classifier: s.use_classifier !== false, decode_payloads: s.decode_payloads !== false };
      },
      build(s) {
        const m = s.use_classifier ? loaded : null;
        return (text: string, _direction: GuardrailDirection): GuardrailFinding[] => {
          const r = scoreInjection(text, m, { decode: s.decode_payloads });
          if (r.score < s.threshold) return [];
          const n = r.hits.length || r.window ? normalizeForMatching(text) : null;
          const score = Math.round(r.score * 1000) / 1000;
          const findings: GuardrailFinding[] = [];
          const seen = new Set<string>();
          for (const h of r.hits) {
            let start: number;
            let end: number;
            if (h.start < 0) {
              start = -h.start - 1;
              end = -h.end - 1;
            } else [start, end] = mapSpan(n!, h.start, h.end, text);
            const key = `${start}:${end}`;
            if (seen.has(key)) continue;
            seen.add(key);
            findings.push({ layer: 'prompt_injection', kind: h.kind, start, end, score, replacement: '[REDACTED:prompt_injection]', detail: h.rule });
          }
          if (!findings.length) {
            const [ws, we] = r.window && n ? mapSpan(n, r.window[0], r.window[1], text) : [0, text.length];
            findings.push({ layer: 'prompt_injection', kind: 'classifier', start: ws, end: we, score, replacement: '[REDACTED:prompt_injection]', detail: `model ${r.modelScore.toFixed(3)}` });
          }
          return findings;
        };
      },
    },
    overrides,
  );
}
