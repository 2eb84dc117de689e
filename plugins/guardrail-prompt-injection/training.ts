// Training and data loading for the prompt-injection classifier, shared by train.ts (which
// writes the shipped model) and bench/guardrails.ts (which retrains per cross-validation fold).
// The data, relabel list and held-out sets are this plugin's own files, found next to this one.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { windows } from './injection.ts';
import {
  exportModel,
  featurize,
  predict,
  trainLogReg,
  type HashedModel,
  type LoadedModel,
  type TrainOptions,
} from '../../lib/guardrails/classifier.ts';
import { normalizeForMatching } from '../../lib/guardrails/normalize.ts';

export const here = path.dirname(fileURLToPath(import.meta.url));

export interface LabelledText {
  text: string;
  /** 1 = injection/jailbreak, 0 = benign. */
  label: 0 | 1;
  /** Where the text reaches the layer; absent = the user's input. Tool results are scored as data. */
  direction?: 'input' | 'tool_result';
  /** Eval sets only: what kind of text this is (persona, agent_task, ...), for per-kind figures. */
  kind?: string;
}

export const TRAIN_OPTIONS: Required<TrainOptions> & { miRounds: number } = {
  dims: 1 << 18,
  epochs: 10,
  l2: 1e-4,
  learningRate: 0.4,
  seed: 7,
  miRounds: 2,
};

/** Reads a JSON array of {text, label} and checks its shape. */
export function readLabelled(file: string): LabelledText[] {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of {text, label}`);
  return raw.map((r, i) => {
    const o = r as { text?: unknown; label?: unknown; direction?: unknown; kind?: unknown };
    if (typeof o?.text !== 'string' || (o.label !== 0 && o.label !== 1))
      throw new Error(`${file}[${i}]: expected {text: string, label: 0|1}`);
    const kind = typeof o.kind === 'string' ? { kind: o.kind } : {};
    if (o.direction === undefined) return { text: o.text, label: o.label, ...kind };
    if (o.direction !== 'input' && o.direction !== 'tool_result')
      throw new Error(`${file}[${i}]: direction must be "input" or "tool_result"`);
    return { text: o.text, label: o.label, direction: o.direction, ...kind };
  });
}

/** The repository's own data: data/*.json in this plugin. */
export function readExtraData(): LabelledText[] {
  const dir = path.join(here, 'data');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => readLabelled(path.join(dir, f)));
}

/** deepset/prompt-injections train split, found next to the repo as ../shared/datasets. */
export function deepsetPath(repoRoot = path.resolve(here, '..', '..')): string {
  const env = process.env.VIGIL_DATASETS;
  const base = env ? path.resolve(env) : path.resolve(repoRoot, '..', 'shared', 'datasets');
  return path.join(base, 'prompt-injection', 'deepset-train.json');
}

/**
 * deepset labels a few plain task personas ("I want you to act as a Linux terminal", "... as a
 * debater", "... as an English translator") as injections. The layer's policy is that role-play
 * which does not override instructions, disable safety or extract the system prompt is benign,
 * so those texts are relabelled (listed by sha256 in deepset-relabel.json, each with its reason).
 * Returns the data with policy labels and how many were changed.
 */
export function applyRelabel(data: LabelledText[]): { data: LabelledText[]; changed: number } {
  const file = path.join(here, 'deepset-relabel.json');
  if (!fs.existsSync(file)) return { data, changed: 0 };
  const list = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ sha256: string; label: 0 | 1 }>;
  const by = new Map(list.map((r) => [r.sha256, r.label]));
  let changed = 0;
  const out = data.map((d) => {
    const l = by.get(createHash('sha256').update(d.text).digest('hex'));
    if (l === undefined || l === d.label) return d;
    changed++;
    return { text: d.text, label: l };
  });
  return { data: out, changed };
}

/** The held-out sets of eval/*.json in this plugin (never trained on). */
export function readEvalData(): Array<{ file: string; data: LabelledText[] }> {
  const dir = path.join(here, 'eval');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: f, data: readLabelled(path.join(dir, f)) }));
}

/**
 * Attacks are often a benign question with an injection appended. Training on the whole text
 * would teach the model that the benign question is a sign of attack, so from each positive we
 * cut any benign training text it contains (multiple-instance style: the positive evidence is
 * what is left). Only the training data itself is used for this.
 */
export function stripBenignContext(data: LabelledText[]): LabelledText[] {
  const benign = [...new Set(data.filter((d) => d.label === 0).map((d) => normalizeForMatching(d.text).text.trim()))]
    .filter((b) => b.length >= 12)
    .sort((a, b) => b.length - a.length);
  return data.map((d) => {
    if (d.label === 0) return d;
    let t = normalizeForMatching(d.text).text;
    for (const b of benign) {
      if (t.length - b.length < 8) continue;
      const i = t.indexOf(b);
      if (i >= 0) t = (t.slice(0, i) + ' ' + t.slice(i + b.length)).trim();
    }
    return { text: t, label: 1 };
  });
}

export function trainInjectionModel(data: LabelledText[], opts: Partial<TrainOptions> & { miRounds?: number } = {}): LoadedModel {
  const o = { ...TRAIN_OPTIONS, ...opts };
  const cleaned = stripBenignContext(data);
  const texts = cleaned.map((d) => normalizeForMatching(d.text).text);
  const ys = cleaned.map((d) => d.label);
  let model = trainLogReg(
    texts.map((t) => featurize(t, o.dims)),
    ys,
    o,
  );
  // Multiple-instance refinement: a positive counts by its most suspicious window (that is how
  // the layer scores at run time), so benign sentences riding along with an attack stop
  // pulling their words toward "injection".
  for (let round = 0; round < o.miRounds; round++) {
    const xs = texts.map((t, i) => {
      if (ys[i] === 0) return featurize(t, o.dims);
      let best = featurize(t, o.dims);
      let bestP = predict(model, best);
      for (const [s, e] of windows(t)) {
        const x = featurize(t.slice(s, e), o.dims);
        const p = predict(model, x);
        if (p > bestP) [best, bestP] = [x, p];
      }
      return best;
    });
    model = trainLogReg(xs, ys, o);
  }
  return model;
}

export function toModelFile(m: LoadedModel, meta: Record<string, unknown>): HashedModel {
  return exportModel(m, meta);
}
