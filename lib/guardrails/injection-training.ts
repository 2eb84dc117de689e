// Training and data loading for the prompt-injection classifier, shared by
// scripts/train-injection.ts (which writes the shipped model) and bench/guardrails.ts
// (which retrains per cross-validation fold).
import fs from 'node:fs';
import path from 'node:path';
import { windows } from './injection.ts';
import { exportModel, featurize, predict, trainLogReg, type HashedModel, type LoadedModel, type TrainOptions } from './classifier.ts';
import { normalizeForMatching } from './normalize.ts';

export interface LabelledText {
  text: string;
  /** 1 = injection/jailbreak, 0 = benign. */
  label: 0 | 1;
}

export const TRAIN_OPTIONS: Required<TrainOptions> & { miRounds: number } = { dims: 1 << 18, epochs: 10, l2: 1e-4, learningRate: 0.4, seed: 7, miRounds: 2 };

/** Reads a JSON array of {text, label} and checks its shape. */
export function readLabelled(file: string): LabelledText[] {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of {text, label}`);
  return raw.map((r, i) => {
    const o = r as { text?: unknown; label?: unknown };
    if (typeof o?.text !== 'string' || (o.label !== 0 && o.label !== 1)) throw new Error(`${file}[${i}]: expected {text: string, label: 0|1}`);
    return { text: o.text, label: o.label };
  });
}

/** The repository's own data: plugins/guardrail-prompt-injection/data/*.json. */
export function readExtraData(repoRoot: string): LabelledText[] {
  const dir = path.join(repoRoot, 'plugins', 'guardrail-prompt-injection', 'data');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => readLabelled(path.join(dir, f)));
}

/** deepset/prompt-injections train split, found next to the repo as ../shared/datasets. */
export function deepsetPath(repoRoot: string): string {
  const env = process.env.VIGIL_DATASETS;
  const base = env ? path.resolve(env) : path.resolve(repoRoot, '..', 'shared', 'datasets');
  return path.join(base, 'prompt-injection', 'deepset-train.json');
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
  let model = trainLogReg(texts.map((t) => featurize(t, o.dims)), ys, o);
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
