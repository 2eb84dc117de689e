// Functional sets for the toxicity layer, one block of templates per functionality (what a
// hate-speech test suite checks): derogation, dehumanisation, implicit derogation, threats, slurs
// (also obfuscated), identity-directed profanity, hate in a later clause or as a question or
// opinion, and the non-hateful contrasts that must pass (counter-speech that quotes or names the
// hate, negation, neutral and positive group mentions, slur homonyms, reclaimed terms, profanity at
// no one, abuse of things, individuals or groups that are not protected). The templates and their
// targets are data, in data/functional.json; written by hand by the vigil engineers, with their own
// wording and groups; no public test suite was copied. Each template is filled with every target of
// its set: {G} plural, {g} singular, {S} a slur for that group (slur templates only).
//
// The sets, in the order they were written (see docs/BENCHMARKS.md, "Guardrails"):
//   dev      the rules were developed against it;
//   holdout  written after that, with other frames, groups and slurs (its first measurement is the
//            honest one: the clause-level rule was then designed from its misses);
//   fresh    written last and measured once, with no change afterwards;
//   blind    written in session 7 before the trained classifier was changed; never trained on;
//   blind2   written in session 8 before that session changed the model or the rules; never
//            trained on, measured once at the end of the session.
// Since session 7 the classifier trains on dev, holdout and fresh (training.ts, a template-level
// split keeps some for validation and test).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../../lib/random.ts';

export interface FunctionalCase {
  text: string;
  functionality: string;
  /** 1 = hateful (must be flagged), 0 = must pass. */
  hateful: 0 | 1;
}

export type TrainableSet = 'dev' | 'holdout' | 'fresh';
export type FunctionalSetName = TrainableSet | 'blind' | 'blind2';
const TRAINABLE: readonly TrainableSet[] = ['dev', 'holdout', 'fresh'];

interface Target {
  G: string;
  g: string;
  S: string;
}
interface SetFile {
  /** [plural group, singular member, slur] per target. */
  targets: Array<[string, string, string]>;
  blocks: Array<{ functionality: string; hateful: 0 | 1; templates: string[] }>;
}

let sets: Record<FunctionalSetName, SetFile> | null = null;
function readSets(): Record<FunctionalSetName, SetFile> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'functional.json');
  return (sets ??= JSON.parse(fs.readFileSync(file, 'utf8')) as Record<FunctionalSetName, SetFile>);
}
function targetsOf(s: SetFile): Target[] {
  return s.targets.map(([G, g, S]) => ({ G, g, S }));
}

/**
 * A functional set, deterministic: each group template filled with every target of its set (a
 * template without {G}/{g}/{S} once), about a third lower-cased as people type on social media.
 */
export function functionalSet(which: FunctionalSetName = 'holdout'): FunctionalCase[] {
  const set = readSets()[which];
  if (!set) throw new Error(`no functional set "${which}"`);
  const targets = targetsOf(set);
  const out: FunctionalCase[] = [];
  const seen = new Set<string>();
  const rnd = mulberry32(23);
  for (const { functionality, hateful, templates } of set.blocks) {
    for (const t of templates) {
      const uses = /\{[GgS]\}/.test(t);
      for (const tg of uses ? targets : targets.slice(0, 1)) {
        let text = t.replace(/\{G\}/g, tg.G).replace(/\{g\}/g, tg.g).replace(/\{S\}/g, tg.S);
        text = text.replace(/^(\p{Ll})/u, (c) => c.toUpperCase());
        if (rnd() < 0.3) text = text.toLowerCase();
        if (seen.has(text)) continue;
        seen.add(text);
        out.push({ text, functionality, hateful });
      }
    }
  }
  return out;
}

/** One template of a trainable functional set (dev, holdout, fresh), with the targets it was written for. */
export interface FunctionalTemplate {
  set: TrainableSet;
  functionality: string;
  hateful: 0 | 1;
  template: string;
  targets: Target[];
}

/** The templates of dev, holdout and fresh (training.ts trains on them; the blind sets stay out). */
export function functionalTemplates(): FunctionalTemplate[] {
  const all = readSets();
  return TRAINABLE.flatMap((set) => {
    const targets = targetsOf(all[set]);
    return all[set].blocks.flatMap(({ functionality, hateful, templates }) =>
      templates.map((template) => ({ set, functionality, hateful, template, targets })),
    );
  });
}
