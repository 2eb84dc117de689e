// The layer-6 model: multinomial logistic regression (softmax) over standardized function
// features, trained by full-batch gradient descent with L2. Small, deterministic (fixed seed,
// fixed order), and shipped as plain JSON so it can be read, diffed and re-trained.
import { mulberry32 } from '../../../lib/random.ts';
export interface MlModel {
  version: 1;
  classes: string[];
  features: string[];
  mean: number[];
  std: number[];
  /** weights[class][feature] and bias[class]. */
  weights: number[][];
  bias: number[];
  /** Probability above which a function-level finding is reported. */
  threshold: number;
  trained: {
    at: string;
    seed: number;
    samples: number;
    contracts: number;
    test_contracts: string[];
    data: Array<{ name: string; license: string; path: string }>;
    metrics: unknown;
  };
}

/** Splits contract keys into train/test by a seeded shuffle (by contract, never by function). */
export function splitByContract(keys: string[], seed: number, testFraction = 0.25): { train: string[]; test: string[] } {
  const sorted = [...new Set(keys)].sort();
  const r = mulberry32(seed);
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j], sorted[i]];
  }
  const n = Math.round(sorted.length * testFraction);
  return { test: sorted.slice(0, n).sort(), train: sorted.slice(n).sort() };
}

function softmax(z: number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

export function train(
  X: number[][],
  y: number[],
  classes: string[],
  features: string[],
  opts: { epochs?: number; lr?: number; l2?: number; classWeights?: number[] } = {},
): Pick<MlModel, 'classes' | 'features' | 'mean' | 'std' | 'weights' | 'bias'> {
  const d = features.length;
  const k = classes.length;
  const n = X.length;
  const mean = new Array(d).fill(0);
  const std = new Array(d).fill(0);
  for (const x of X) for (let j = 0; j < d; j++) mean[j] += x[j] / n;
  for (const x of X) for (let j = 0; j < d; j++) std[j] += (x[j] - mean[j]) ** 2 / n;
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j]) || 1;
  const Z = X.map((x) => x.map((v, j) => (v - mean[j]) / std[j]));
  const W = Array.from({ length: k }, () => new Array(d).fill(0));
  const b = new Array(k).fill(0);
  const epochs = opts.epochs ?? 600;
  const lr = opts.lr ?? 0.2;
  const l2 = opts.l2 ?? 0.01;
  // Balanced class weights: rare vulnerability classes are not drowned by safe functions.
  const counts = new Array(k).fill(0);
  for (const c of y) counts[c]++;
  const cw = opts.classWeights ?? counts.map((c) => (c ? n / (k * c) : 0));
  for (let ep = 0; ep < epochs; ep++) {
    const gW = Array.from({ length: k }, () => new Array(d).fill(0));
    const gb = new Array(k).fill(0);
    let wsum = 0;
    for (let i = 0; i < n; i++) {
      const z = W.map((w, c) => b[c] + w.reduce((s, wj, j) => s + wj * Z[i][j], 0));
      const p = softmax(z);
      const w = cw[y[i]];
      wsum += w;
      for (let c = 0; c < k; c++) {
        const g = (p[c] - (c === y[i] ? 1 : 0)) * w;
        gb[c] += g;
        for (let j = 0; j < d; j++) gW[c][j] += g * Z[i][j];
      }
    }
    for (let c = 0; c < k; c++) {
      b[c] -= (lr * gb[c]) / wsum;
      for (let j = 0; j < d; j++) W[c][j] -= lr * (gW[c][j] / wsum + l2 * W[c][j]);
    }
  }
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return { classes, features, mean: mean.map(round), std: std.map(round), weights: W.map((r) => r.map(round)), bias: b.map(round) };
}

export function predict(
  model: Pick<MlModel, 'mean' | 'std' | 'weights' | 'bias' | 'classes'>,
  x: number[],
): Array<{ class: string; p: number }> {
  const z = model.weights.map((w, c) => model.bias[c] + w.reduce((s, wj, j) => s + wj * ((x[j] - model.mean[j]) / model.std[j]), 0));
  return softmax(z)
    .map((p, c) => ({ class: model.classes[c], p }))
    .sort((a, b) => b.p - a.p);
}

export interface ClassMetrics {
  precision: number;
  recall: number;
  f1: number;
  support: number;
  predicted: number;
}

/** Per-class precision/recall at the reporting threshold (a prediction below it counts as "none"). */
export function evaluate(
  model: MlModel,
  X: number[][],
  y: string[],
  threshold = model.threshold,
): { perClass: Record<string, ClassMetrics>; macroF1: number; accuracy: number } {
  const perClass: Record<string, ClassMetrics> = {};
  const pos = model.classes.filter((c) => c !== 'none');
  const pred = X.map((x) => {
    const top = predict(model, x)[0];
    return top.class !== 'none' && top.p >= threshold ? top.class : 'none';
  });
  for (const c of pos) {
    const tp = pred.filter((p, i) => p === c && y[i] === c).length;
    const predicted = pred.filter((p) => p === c).length;
    const support = y.filter((t) => t === c).length;
    const precision = predicted ? tp / predicted : 0;
    const recall = support ? tp / support : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    perClass[c] = { precision: r3(precision), recall: r3(recall), f1: r3(f1), support, predicted };
  }
  const withSupport = pos.filter((c) => perClass[c].support > 0);
  const macroF1 = withSupport.length ? withSupport.reduce((s, c) => s + perClass[c].f1, 0) / withSupport.length : 0;
  const accuracy = pred.filter((p, i) => p === y[i]).length / Math.max(1, y.length);
  return { perClass, macroF1: r3(macroF1), accuracy: r3(accuracy) };
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
