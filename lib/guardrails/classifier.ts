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

/** Character 3..5-grams inside the space-padded word, hashed incrementally (FNV-1a, seed 3). */
function charNgrams(w: string, emit: (h: number) => void): void {
  const padded = ' ' + w + ' ';
  for (let s = 0; s < padded.length - 2; s++) {
    let h = (0x811c9dc5 ^ 3) >>> 0;
    for (let e = s; e < Math.min(s + 5, padded.length); e++) {
      h ^= padded.charCodeAt(e);
      h = Math.imul(h, 0x01000193) >>> 0;
      if (e - s >= 2) emit(h);
    }
  }
}

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
    charNgrams(w, add);
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

/**
 * Per-token features of a whole text, hashed once, so that many windows over the same text are
 * scored without re-tokenising and re-hashing each of them (a 1 KB message has ~13 windows that
 * together cover it about twice). windowScore() over a token-aligned range gives exactly the
 * score predict(featurize(text.slice(from, to))) would.
 */
export interface TokenFeatures {
  text: string;
  dims: number;
  /** Token i spans [start[i], end[i]) of text. */
  start: Int32Array;
  end: Int32Array;
  /** Word unigram and character n-gram indices of token i: feats[featFrom[i] .. featFrom[i + 1]). */
  featFrom: Int32Array;
  feats: Int32Array;
  /** Index of the bigram (previous token, token i) in the whole text. */
  bigram: Int32Array;
  words: string[];
}

export function tokenFeatures(text: string, dims = DEFAULT_DIMS, upTo = text.length): TokenFeatures {
  const starts: number[] = [];
  const ends: number[] = [];
  const words: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(text)) && m.index < upTo) {
    starts.push(m.index);
    ends.push(m.index + m[0].length);
    words.push(m[0].slice(0, MAX_WORD));
  }
  const featFrom = new Int32Array(words.length + 1);
  const bigram = new Int32Array(words.length);
  let cap = 64;
  for (const w of words) cap += 1 + 3 * (w.length + 2);
  const feats = new Int32Array(cap);
  let n = 0;
  let prev = '<s>';
  for (let t = 0; t < words.length; t++) {
    const w = words[t]!;
    featFrom[t] = n;
    feats[n++] = fnv1a(w, 1) % dims;
    bigram[t] = fnv1a(prev + ' ' + w, 2) % dims;
    prev = w;
    charNgrams(w, (h) => (feats[n++] = h % dims));
  }
  featFrom[words.length] = n;
  return { text, dims, start: Int32Array.from(starts), end: Int32Array.from(ends), featFrom, feats, bigram, words };
}

/** First token starting at or after `pos` (binary search). */
function tokenAt(tf: TokenFeatures, pos: number): number {
  let lo = 0;
  let hi = tf.start.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tf.start[mid]! < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * predict(model, featurize(tf.text.slice(from, to))) from the precomputed token features, or
 * null when a token straddles a window edge (the slice would tokenise differently there).
 */
/** 1 + log(count) for small counts, the sublinear term frequency without a log call per feature. */
const LOG_TF = Float64Array.from({ length: 256 }, (_, c) => 1 + Math.log(c));
/** Scratch values for windowScore (grown on demand, reused: no allocation per window). */
let vals = new Float64Array(4096);

export function windowScore(model: LoadedModel, tf: TokenFeatures, from: number, to: number): number | null {
  if (tf.dims !== model.dims) return null;
  const a = tokenAt(tf, from);
  if (a > 0 && tf.end[a - 1]! > from) return null;
  let b = tokenAt(tf, to);
  // A window cut inside a word (the 600-character cap) sees only the word's head: those
  // partial words are featurised here, the whole words before them come from the cache.
  let tail: string[] | null = null;
  if (b > a && tf.end[b - 1]! > to) {
    b--;
    tail = [];
    const piece = tf.text.slice(tf.start[b]!, to);
    TOKEN.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = TOKEN.exec(piece))) tail.push(m[0].slice(0, MAX_WORD));
  }
  if (b - a > MAX_WORDS) {
    b = a + MAX_WORDS;
    tail = null;
  } else if (tail && b - a + tail.length > MAX_WORDS) tail.length = MAX_WORDS - (b - a);
  if (scratch.length !== tf.dims) scratch = new Float32Array(tf.dims);
  touched.length = 0;
  const add = (i: number) => {
    if (scratch[i] === 0) touched.push(i);
    scratch[i]! += 1;
  };
  // Same feature order as featurize(), so the floating-point sum below is the same too.
  for (let t = a; t < b; t++) {
    const f0 = tf.featFrom[t]!;
    add(tf.feats[f0]!);
    add(t === a ? fnv1a('<s> ' + tf.words[t]!, 2) % tf.dims : tf.bigram[t]!);
    for (let k = f0 + 1; k < tf.featFrom[t + 1]!; k++) add(tf.feats[k]!);
  }
  let last = b > a ? tf.words[b - 1]! : '<s>';
  if (tail) {
    for (const w of tail) {
      add(fnv1a(w, 1) % tf.dims);
      add(fnv1a(last + ' ' + w, 2) % tf.dims);
      last = w;
      const padded = ' ' + w + ' ';
      for (let s = 0; s < padded.length - 2; s++) {
        let h = (0x811c9dc5 ^ 3) >>> 0;
        for (let e = s; e < Math.min(s + 5, padded.length); e++) {
          h ^= padded.charCodeAt(e);
          h = Math.imul(h, 0x01000193) >>> 0;
          if (e - s >= 2) add(h % tf.dims);
        }
      }
    }
  }
  if (b > a || (tail && tail.length)) add(fnv1a(last + ' </s>', 2) % tf.dims);
  let norm = 0;
  if (vals.length < touched.length) vals = new Float64Array(touched.length * 2);
  for (let j = 0; j < touched.length; j++) {
    const i = touched[j]!;
    const c = scratch[i]!;
    const v = c < LOG_TF.length ? LOG_TF[c]! : 1 + Math.log(c);
    scratch[i] = 0;
    vals[j] = Math.fround(v);
    norm += v * v;
  }
  norm = Math.sqrt(norm) || 1;
  let z = model.bias;
  for (let j = 0; j < touched.length; j++) z += model.weights[touched[j]!]! * Math.fround(vals[j]! / norm);
  return sigmoid(z);
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
