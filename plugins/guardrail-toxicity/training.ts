// Data loading and training for the toxicity classifier (one logistic-regression head per
// category over the same hashed word/character n-grams as the injection classifier), shared by
// train.ts (which writes model.json) and bench/guardrails.ts (which retrains per fold).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportModel, featurize, trainLogReg, type HashedModel, type SparseVector } from '../../lib/guardrails/classifier.ts';
import { normalizeForMatching } from '../../lib/guardrails/normalize.ts';
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

export function trainToxModel(data: ToxExample[], meta?: Record<string, unknown>): ToxModelFile {
  const feats: SparseVector[] = data.map((d) => featurize(normalizeForMatching(d.text).text, TOX_DIMS));
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
