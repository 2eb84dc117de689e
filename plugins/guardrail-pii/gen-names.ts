// Builds names.json, the PII layer's gazetteer of first and last names across locales, from the
// person data of @faker-js/faker (MIT; a dev dependency, used only here). Only single capitalised
// words in cased scripts are kept (the layer finds names by capitalisation), lower-cased, deduplicated
// and sorted; each list is one "|"-joined string to keep the file small.
//   node --import tsx plugins/guardrail-pii/gen-names.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allLocales } from '@faker-js/faker';
import nlp from 'compromise';

const here = path.dirname(fileURLToPath(import.meta.url));
const WORD = /^\p{Lu}[\p{Ll}\p{M}]+(?:['’-]\p{Lu}?[\p{Ll}\p{M}]+)?$/u;
const first = new Set<string>();
const last = new Set<string>();
const locales: string[] = [];

function collect(v: unknown, into: Set<string>): number {
  let n = 0;
  if (typeof v === 'string') {
    for (const w of v.split(/\s+/))
      if (WORD.test(w) && w.length >= 2 && w.length <= 24) {
        into.add(w.toLowerCase());
        n++;
      }
  } else if (Array.isArray(v)) for (const x of v) n += collect(x, into);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) n += collect(x, into);
  return n;
}

for (const [code, loc] of Object.entries(allLocales as Record<string, { person?: Record<string, unknown> }>)) {
  const p = loc.person;
  if (!p) continue;
  const a = collect(p.first_name, first) + collect(p.middle_name, first);
  // last_name may be {generic, female, male} or a list; patterns like "{{person.last_name}}-..." are skipped by WORD.
  const b = collect(p.last_name, last);
  if (a || b) locales.push(code);
}

// Names that are also everyday words ("Memory", "Per", "Job", "Before", "France") are "weak": they
// count in a first + last pair or after "my name is", never alone. A word is weak when compromise
// tags it as something other than a noun (preposition, verb, adjective, place...) or when it is
// used in lower case in English text (the Davidson tweets, MIT, and this repository's docs).
const lowerCounts = new Map<string, number>();
const corpora = [
  path.resolve(here, '..', '..', '..', 'shared', 'datasets', 'toxicity', 'davidson-hate-offensive', 'labeled_data.csv'),
  path.resolve(here, '..', '..', 'README.md'),
];
for (const f of [
  ...corpora,
  ...fs
    .readdirSync(path.resolve(here, '..', '..', 'docs'))
    .filter((x) => x.endsWith('.md'))
    .map((x) => path.resolve(here, '..', '..', 'docs', x)),
]) {
  if (!fs.existsSync(f)) continue;
  for (const m of fs.readFileSync(f, 'utf8').matchAll(/(?<![\p{L}@#])\p{Ll}+(?![\p{L}])/gu))
    lowerCounts.set(m[0], (lowerCounts.get(m[0]) ?? 0) + 1);
}
const NON_NAME_TAGS = [
  'Conjunction',
  'Preposition',
  'Determiner',
  'Verb',
  'Adjective',
  'Adverb',
  'Place',
  'Country',
  'Pronoun',
  'Value',
  'Date',
  'Organization',
  'QuestionWord',
  'Expression',
];
const weak = new Set<string>();
for (const w of new Set([...first, ...last])) {
  const cap = w[0].toUpperCase() + w.slice(1);
  const tags: string[] = (nlp as any)(cap).json()[0]?.terms[0]?.tags ?? [];
  const knownName = tags.includes('Person') || tags.includes('FirstName') || tags.includes('LastName');
  if (w.length < 3 || (!knownName && (tags.some((t) => NON_NAME_TAGS.includes(t)) || (lowerCounts.get(w) ?? 0) >= 3))) weak.add(w);
}

const out = {
  source: '@faker-js/faker person.first_name, person.middle_name and person.last_name of every locale',
  licence: 'MIT (faker-js contributors); see node_modules/@faker-js/faker/LICENSE',
  locales: locales.sort(),
  first: [...first].sort().join('|'),
  last: [...last].sort().join('|'),
  weak: [...weak].sort().join('|'),
};
fs.writeFileSync(path.join(here, 'names.json'), JSON.stringify(out) + '\n');
console.log(
  `names.json: ${first.size} first names, ${last.size} last names (${weak.size} also everyday words) from ${locales.length} locales`,
);
