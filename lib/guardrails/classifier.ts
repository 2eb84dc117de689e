// A small text classifier: hashed word 1-2-grams + character 3-5-grams (within word boundaries)
// fed to an L2-regularised logistic regression trained with AdaGrad. Chosen over a neural model
// because it runs in well under a millisecond per message, has no weights to download, and the
// whole model is a JSON file that a reviewer can diff. Features are computed on text that
// normalizeForMatching() already de-obfuscated.

export const DEFAULT_DIMS = 1 << 18;

export interface HashedModel {
  format: 'vigil-logreg-v1';
  dims: number;
  bias: number;
  /** Sparse weights: idx[i] has weight w[i]. */
  idx: number[];
  w: number[];
  /** Probability at which the layer calls a text an injection on the classifier alone. */
  threshold: number;
  meta?: Record<string, unknown>;
}

export interface SparseVector {
  idx: Int32Array;
  val: Float32Array;
}

function fnv1a(str: string, seed: number, from = 0, to = str.length): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = from; i < to; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const TOKEN = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;
/** Words longer than this are cut: hashes and base64 blobs would only add noise. */
const MAX_WORD = 24;
/** Feature extraction stops after this many words (long texts are scored in windows instead). */
const MAX_WORDS = 600;

/** Hashed, L2-normalised feature vector of already-normalised text. */
// Scratch counts shared by all calls (featurize is synchronous), reset through the touched list.
let scratch = new Float32Array(DEFAULT_DIMS);
const touched: number[] = [];

export function featurize(text: string, dims = DEFAULT_DIMS): SparseVector {
  if (scratch.length !== dims) scratch = new Float32Array(dims);
  touched.length = 0;
  const add = (h: number) => {
    const i = h % dims;
    if (scratch[i] === 0) touched.push(i);
    scratch[i]! += 1;
  };
  const words: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(text)) && words.length < MAX_WORDS) words.push(m[0].slice(0, MAX_WORD));
  let prev = '<s>';
  for (const w of words) {
    add(fnv1a(w, 1));
    add(fnv1a(prev + ' ' + w, 2));
    prev = w;
    const padded = ' ' + w + ' ';
    // Character n-grams 3..5 inside the padded word, hashed incrementally.
    for (let s = 0; s < padded.length - 2; s++) {
      let h = (0x811c9dc5 ^ 3) >>> 0;
      for (let e = s; e < Math.min(s + 5, padded.length); e++) {
        h ^= padded.charCodeAt(e);
        h = Math.imul(h, 0x01000193) >>> 0;
        if (e - s >= 2) add(h);
      }
    }
  }
  if (words.length) add(fnv1a(prev + ' </s>', 2));
  // Sublinear term frequency, then unit length so short and long texts compare.
  const idx = new Int32Array(touched.length);
  const val = new Float32Array(touched.length);
  let norm = 0;
  for (let j = 0; j < touched.length; j++) {
    const i = touched[j]!;
    const v = 1 + Math.log(scratch[i]!);
    scratch[i] = 0;
    idx[j] = i;
    val[j] = v;
    norm += v * v;
  }
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < val.length; k++) val[k] = val[k]! / norm;
  return { idx, val };
}

export interface LoadedModel {
  dims: number;
  bias: number;
  weights: Float32Array;
  threshold: number;
}

export function loadModel(m: HashedModel): LoadedModel {
  if (!m || m.format !== 'vigil-logreg-v1' || !Array.isArray(m.idx) || !Array.isArray(m.w) || m.idx.length !== m.w.length) {
    throw new Error('injection model file is not a vigil-logreg-v1 model');
  }
  const weights = new Float32Array(m.dims);
  for (let i = 0; i < m.idx.length; i++) weights[m.idx[i]!] = m.w[i]!;
  return { dims: m.dims, bias: m.bias, weights, threshold: m.threshold };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-Math.max(-30, Math.min(30, z))));

export function predict(model: LoadedModel, x: SparseVector): number {
  let z = model.bias;
  for (let k = 0; k < x.idx.length; k++) z += model.weights[x.idx[k]!]! * x.val[k]!;
  return sigmoid(z);
}

export interface TrainOptions {
  dims?: number;
  epochs?: number;
  l2?: number;
  learningRate?: number;
  seed?: number;
}

/** Deterministic PRNG so training is reproducible. */
export function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Trains logistic regression on already-featurized examples (labels 0/1), class-balanced. */
export function trainLogReg(xs: SparseVector[], ys: number[], opts: TrainOptions = {}): LoadedModel {
  const dims = opts.dims ?? DEFAULT_DIMS;
  const epochs = opts.epochs ?? 40;
  const l2 = opts.l2 ?? 1e-5;
  const lr = opts.learningRate ?? 0.5;
  const rnd = mulberry32(opts.seed ?? 7);
  const weights = new Float32Array(dims);
  const g2 = new Float32Array(dims);
  let bias = 0;
  let bg2 = 0;
  const pos = ys.filter((y) => y === 1).length;
  const neg = ys.length - pos;
  const wPos = pos ? ys.length / (2 * pos) : 1;
  const wNeg = neg ? ys.length / (2 * neg) : 1;
  const order = ys.map((_, i) => i);
  for (let ep = 0; ep < epochs; ep++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const n of order) {
      const x = xs[n]!;
      let z = bias;
      for (let k = 0; k < x.idx.length; k++) z += weights[x.idx[k]!]! * x.val[k]!;
      const p = sigmoid(z);
      const y = ys[n]!;
      const g = (p - y) * (y === 1 ? wPos : wNeg);
      for (let k = 0; k < x.idx.length; k++) {
        const i = x.idx[k]!;
        const gi = g * x.val[k]! + l2 * weights[i]!;
        g2[i] = g2[i]! + gi * gi;
        weights[i] = weights[i]! - (lr * gi) / (Math.sqrt(g2[i]!) + 1e-8);
      }
      bg2 += g * g;
      bias -= (lr * g) / (Math.sqrt(bg2) + 1e-8);
    }
  }
  return { dims, bias, weights, threshold: 0.5 };
}

/** Serialises to the sparse JSON form, dropping weights too small to matter. */
export function exportModel(m: LoadedModel, meta?: Record<string, unknown>): HashedModel {
  const idx: number[] = [];
  const w: number[] = [];
  for (let i = 0; i < m.weights.length; i++) {
    const v = m.weights[i]!;
    if (Math.abs(v) >= 1e-3) {
      idx.push(i);
      w.push(Math.round(v * 1e4) / 1e4);
    }
  }
  return { format: 'vigil-logreg-v1', dims: m.dims, bias: Math.round(m.bias * 1e4) / 1e4, idx, w, threshold: m.threshold, meta };
}
