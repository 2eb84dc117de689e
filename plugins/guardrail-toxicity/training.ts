// Data loading and training for the toxicity classifier (one logistic-regression head per
// category over the same hashed word/character n-grams as the injection classifier), shared by
// train.ts (which writes model.json) and bench/guardrails.ts (which retrains per fold).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportModel, featurize, trainLogReg, type HashedModel, type SparseVector } from '../../lib/guardrails/classifier.ts';
import { mulberry32 } from '../../lib/random.ts';
import { normalizeForMatching } from '../../lib/guardrails/normalize.ts';
import { functionalTemplates } from './functional.ts';
import { maskGroups } from './toxicity.ts';
import { CATEGORIES, type Category, type ToxExample } from './gen-sets.ts';

export const here = path.dirname(fileURLToPath(import.meta.url));
// The injection classifier's dimension too, so both layers share one featurisation of a message.
export const TOX_DIMS = 1 << 18;
export const TOX_TRAIN = { dims: TOX_DIMS, epochs: 6, l2: 2e-4, learningRate: 0.3, seed: 5 };

/** One head, compact: the strongest weights only, indices as base64 Int32, weights as base64 Int8 times `scale`. */
export interface ToxHead {
  bias: number;
  scale: number;
  idx: string;
  w: string;
}
export interface ToxModelFile {
  format: 'vigil-tox-v1';
  dims: number;
  heads: Record<Category, ToxHead>;
  /** Per head, the probability that maps to a score of 0.5 (chosen on the validation split). */
  calibration?: Record<Category, number>;
  meta?: Record<string, unknown>;
}
/** Weights kept per head (by magnitude). */
export const TOX_KEEP = 20000;

function compactHead(m: HashedModel): ToxHead {
  const order = m.w
    .map((_, i) => i)
    .sort((a, b) => Math.abs(m.w[b]) - Math.abs(m.w[a]))
    .slice(0, TOX_KEEP)
    .sort((a, b) => m.idx[a] - m.idx[b]);
  const max = order.reduce((x, i) => Math.max(x, Math.abs(m.w[i])), 1e-9);
  const scale = max / 127;
  const idx = Int32Array.from(order.map((i) => m.idx[i]));
  const w = Int8Array.from(order.map((i) => Math.round(m.w[i] / scale)));
  return { bias: m.bias, scale, idx: Buffer.from(idx.buffer).toString('base64'), w: Buffer.from(w.buffer).toString('base64') };
}

/** Davidson et al. (2017), MIT: class 0 hate speech, 1 offensive, 2 neither. */
export function davidsonPath(repoRoot = path.resolve(here, '..', '..')): string {
  const base = process.env.VIGIL_DATASETS ? path.resolve(process.env.VIGIL_DATASETS) : path.resolve(repoRoot, '..', 'shared', 'datasets');
  return path.join(base, 'toxicity', 'davidson-hate-offensive', 'labeled_data.csv');
}

/** A small RFC 4180 reader (quoted fields with commas, quotes and newlines). */
export function parseCsv(src: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#\d+;/g, ' ');

/** Davidson tweets as examples: hate -> identity_attack (harmful), offensive -> insult (not hate), neither -> nothing. */
export function readDavidson(file = davidsonPath()): ToxExample[] {
  const rows = parseCsv(fs.readFileSync(file, 'utf8'));
  const head = rows[0];
  const ci = head.indexOf('class');
  const ti = head.indexOf('tweet');
  if (ci < 0 || ti < 0) throw new Error(`${file}: expected columns "class" and "tweet"`);
  const out: ToxExample[] = [];
  for (const r of rows.slice(1)) {
    if (r.length <= ti) continue;
    const cls = Number(r[ci]);
    // Retweet headers and @handles say nothing about toxicity.
    const text = decodeEntities(r[ti])
      .replace(/\bRT\b/g, ' ')
      .replace(/@\w+:?/g, ' ')
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!text) continue;
    if (cls === 0) out.push({ text, harmful: 1, cats: ['identity_attack', 'insult'], kind: 'davidson_hate' });
    else if (cls === 1) out.push({ text, harmful: 0, cats: ['insult'], kind: 'davidson_offensive' });
    else out.push({ text, harmful: 0, cats: [], kind: 'davidson_neither' });
  }
  return out;
}

export function readOwn(file: string): ToxExample[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ToxExample[];
}

/**
 * Which examples teach each head. Davidson labels only hate vs offensive vs neither, so the heads
 * it says nothing about (dehumanisation, threat, sexual, self-harm) learn from the own sets, with
 * Davidson's "neither" tweets as extra negatives; its hate tweets are not negatives there.
 */
function usableFor(cat: Category, x: ToxExample): boolean {
  if (!x.kind.startsWith('davidson')) return true;
  if (cat === 'identity_attack' || cat === 'insult') return true;
  return x.kind === 'davidson_neither';
}

/** What the classifier reads of a text, in training and calibration as when scoring: normalised, groups masked. */
export function classifierInput(text: string): string {
  return maskGroups(normalizeForMatching(text).text);
}

export function trainToxModel(data: ToxExample[], meta?: Record<string, unknown>): ToxModelFile {
  const feats: SparseVector[] = data.map((d) => featurize(classifierInput(d.text), TOX_DIMS));
  const heads = {} as Record<Category, ToxHead>;
  for (const cat of CATEGORIES) {
    const xs: SparseVector[] = [];
    const ys: number[] = [];
    data.forEach((d, i) => {
      if (!usableFor(cat, d)) return;
      xs.push(feats[i]);
      ys.push(d.cats.includes(cat) ? 1 : 0);
    });
    const m = trainLogReg(xs, ys, TOX_TRAIN);
    heads[cat] = compactHead(exportModel(m));
  }
  return { format: 'vigil-tox-v1', dims: TOX_DIMS, heads, meta };
}

export const CATEGORIES_LIST = CATEGORIES;

// ---- splits and the functional training data ----------------------------------------------------

export type Split = 'train' | 'val' | 'test';
export type SplitExample = ToxExample & { split: Split };

/** A fixed split by a key's hash: 70% train, 10% validation (calibration), 20% held-out test. */
export function splitOf(key: string): Split {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  const r = (h >>> 0) % 10;
  return r === 0 ? 'val' : r <= 2 ? 'test' : 'train';
}

/** Davidson tweets with their split (by text, so duplicate tweets share one split). */
export function splitDavidson(d: ToxExample[]): SplitExample[] {
  return d.map((x) => ({ ...x, split: splitOf(`davidson:${x.text}`) }));
}

/**
 * Protected groups the functional templates are filled with besides their own targets, so that
 * every hateful and every must-pass template sees the same groups and the heads learn the
 * predicate, not the group ("<group> are vermin" vs "<group> opened a cafe").
 */
const FILL_GROUPS: Array<{ G: string; g: string }> = [
  { G: 'Muslims', g: 'Muslim' },
  { G: 'Jews', g: 'Jew' },
  { G: 'Black people', g: 'Black man' },
  { G: 'immigrants', g: 'immigrant' },
  { G: 'gay people', g: 'gay man' },
  { G: 'women', g: 'woman' },
  { G: 'trans people', g: 'trans woman' },
  { G: 'disabled people', g: 'disabled person' },
  { G: 'Asians', g: 'Asian' },
  { G: 'refugees', g: 'refugee' },
  { G: 'Christians', g: 'Christian' },
  { G: 'Arabs', g: 'Arab' },
  { G: 'Hispanics', g: 'Hispanic' },
  { G: 'Indians', g: 'Indian' },
  { G: 'Africans', g: 'African' },
  { G: 'Sikhs', g: 'Sikh' },
  { G: 'bisexual people', g: 'bisexual woman' },
  { G: 'autistic people', g: 'autistic kid' },
  { G: 'Somalis', g: 'Somali' },
  { G: 'Latinas', g: 'Latina' },
];

/** Categories a functional-set functionality teaches (hateful ones always identity_attack). */
function functionalityCats(f: string, hateful: 0 | 1): Category[] {
  if (!hateful) return /abuse_individual|profanity|not_hate/.test(f) ? ['insult'] : [];
  const cats: Category[] = ['identity_attack'];
  if (/dehuman/.test(f)) cats.push('dehumanisation');
  if (/threat/.test(f)) cats.push('threat');
  if (/profanity|slur/.test(f)) cats.push('insult');
  return cats;
}

/**
 * The dev, holdout and fresh functional templates as examples, split by template (a test
 * template is never seen in training, with any group). Group templates are filled with their own
 * targets and 6 of FILL_GROUPS; slur templates with their own targets; others once.
 */
export function functionalExamples(): SplitExample[] {
  const out: SplitExample[] = [];
  const seen = new Set<string>();
  const rnd = mulberry32(29);
  for (const t of functionalTemplates()) {
    const split = splitOf(`functional:${t.template}`);
    const cats = functionalityCats(t.functionality, t.hateful);
    const fills: Array<{ G: string; g: string; S: string }> = [];
    if (/\{S\}/.test(t.template)) fills.push(...t.targets);
    else if (/\{[Gg]\}/.test(t.template)) {
      fills.push(...t.targets);
      for (let k = 0; k < 6; k++) fills.push({ ...FILL_GROUPS[Math.floor(rnd() * FILL_GROUPS.length)], S: '' });
    } else fills.push({ G: '', g: '', S: '' });
    for (const tg of fills) {
      let text = t.template.replace(/\{G\}/g, tg.G).replace(/\{g\}/g, tg.g).replace(/\{S\}/g, tg.S);
      text = text.replace(/^(\p{Ll})/u, (c) => c.toUpperCase());
      if (rnd() < 0.3) text = text.toLowerCase();
      if (seen.has(text)) continue;
      seen.add(text);
      out.push({ text, harmful: t.hateful, cats, kind: `functional_${t.functionality}`, split });
    }
  }
  return out;
}

/** Every training source with its split: Davidson, the functional templates, the own set (train only). */
export function allExamples(davidson: ToxExample[], own: ToxExample[]): SplitExample[] {
  const ownTrain = own.map((x): SplitExample => ({ ...x, split: 'train' }));
  return [...splitDavidson(davidson), ...functionalExamples(), ...ownTrain];
}

/** Validation false-positive rate each head is calibrated to (its probability at this rate maps to 0.5). */
export const CALIBRATION_FPR: Record<Category, number> = {
  insult: 0.1,
  identity_attack: 0.02,
  dehumanisation: 0.01,
  threat: 0.01,
  sexual: 0.01,
  self_harm: 0.01,
};

/**
 * The lowest calibration point per head. The heads are trained class-balanced, so their raw
 * probabilities of rare classes run high; where the validation split has too few must-pass texts
 * near the top of the range to set a point above 0.5, the floor does. Threat's floor is 0.7:
 * neutral group statements ("<group> make up ten percent of the city") reach 0.5-0.6 on it.
 */
export const CALIBRATION_FLOOR: Record<Category, number> = {
  insult: 0.5,
  identity_attack: 0.5,
  dehumanisation: 0.5,
  threat: 0.7,
  sexual: 0.5,
  self_harm: 0.5,
};

/**
 * Per head, the probability whose false-positive rate on the validation texts that must pass
 * (harmful 0, without the category) is CALIBRATION_FPR, at least CALIBRATION_FLOOR.
 */
export function calibrate(val: ToxExample[], score: (text: string) => Record<Category, number>): Record<Category, number> {
  const probs = val.map((x) => score(x.text));
  const cal = {} as Record<Category, number>;
  for (const c of CATEGORIES) {
    const neg = val
      .map((x, i) => (x.harmful === 0 && !x.cats.includes(c) ? probs[i][c] : -1))
      .filter((p) => p >= 0)
      .sort((a, b) => b - a);
    const k = Math.floor(neg.length * CALIBRATION_FPR[c]);
    cal[c] = Math.round(Math.max(CALIBRATION_FLOOR[c], Math.min(0.999, neg[k] ?? 0.5)) * 1e4) / 1e4;
  }
  return cal;
}
