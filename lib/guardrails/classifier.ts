// A small text classifier: hashed word 1-2-grams + character 3-5-grams (within word boundaries)
// fed to an L2-regularised logistic regression trained with AdaGrad. Chosen over a neural model
// because it runs in well under a millisecond per message, has no weights to download, and the
// whole model is a JSON file that a reviewer can diff. Features are computed on text that
// normalizeForMatching() already de-obfuscated.
import { mulberry32 } from '../random.ts';

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
    scratch[i] += 1;
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
    const i = touched[j];
    const v = 1 + Math.log(scratch[i]);
    scratch[i] = 0;
    idx[j] = i;
    val[j] = v;
    norm += v * v;
  }
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < val.length; k++) val[k] = val[k] / norm;
  return { idx, val };
}

/**
 * Per-token features of a whole text, hashed once, so that the many windows the injection layer
 * scores over one text (a 1 KB message has ~13, covering it about twice) need no re-tokenising,
 * re-hashing or feature vector each. A window's sublinear, L2-normalised dot product is built
 * from running counts instead: every feature occurrence links to the previous occurrence of the
 * same feature, so the k-th occurrence of a feature inside the window adds w * (g(k) - g(k-1)) to
 * the dot product and g(k)^2 - g(k-1)^2 to the squared norm (g(c) = 1 + ln c); the sums telescope
 * to featurize()'s w * g(count) and g(count)^2. Per window that is one pass over a contiguous
 * range of small arrays: no hash table, no 1 MB scratch vector, no allocation. The arrays are
 * shared buffers (two fills, the least recently used one overwritten next); windowScore() on a
 * TokenFeatures whose buffers were overwritten returns null (and the caller featurizes the slice
 * instead).
 */
export interface TokenFeatures {
  text: string;
  dims: number;
  /** Number of tokens; token i spans [start[i], end[i]) of text. */
  count: number;
  start: Int32Array;
  end: Int32Array;
  /** Occurrences of token i: occ[featFrom[i] .. featFrom[i + 1]) = word unigram, bigram with the previous token, character n-grams. */
  featFrom: Int32Array;
  occ: Int32Array;
  /** Previous occurrence of the same feature index, or -1. */
  prev: Int32Array;
  /** Which fill of the shared buffers this is. */
  generation: number;
}

// Allocation-free tokenising: skip to the next token, then match it (same tokens as TOKEN).
const SKIP_STICKY = /[^\p{L}\p{N}]*/uy;
const TOKEN_STICKY = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/uy;
const FNV_PRIME = 0x01000193;
const fnvFeed = (h: number, s: string, from: number, to: number) => {
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME) >>> 0;
  return h;
};
/** fnv1a(a + ' ' + b, 2) over text ranges, without building the string. */
function bigramHash(sa: string, a0: number, a1: number, sb: string, b0: number, b1: number): number {
  let h = fnvFeed((0x811c9dc5 ^ 2) >>> 0, sa, a0, a1);
  h = Math.imul(h ^ 32, FNV_PRIME) >>> 0;
  return fnvFeed(h, sb, b0, b1);
}
/** charNgrams(text.slice(s, e)) written into out from n on; returns the new n. */
function charNgramsAt(text: string, s: number, e: number, dims: number, out: Int32Array, n: number): number {
  const len = e - s + 2; // the word padded with a space on each side
  for (let a = 0; a < len - 2; a++) {
    let h = (0x811c9dc5 ^ 3) >>> 0;
    const lim = Math.min(a + 5, len);
    for (let k = a; k < lim; k++) {
      h = Math.imul(h ^ (k === 0 || k === len - 1 ? 32 : text.charCodeAt(s + k - 1)), FNV_PRIME) >>> 0;
      if (k - a >= 2) out[n++] = h % dims;
    }
  }
  return n;
}

let generation = 0;
/**
 * The buffers of one fill: the tokens, their feature occurrences and the table feature -> last
 * occurrence. Two fills are kept: the toxicity layer featurises its group-masked text and the
 * injection layer the plain one right after it, so with one set of buffers a message naming a
 * group was tokenised and hashed twice by the injection layer's refill (41% of the bench's
 * messages); with two, each finds its own fill. The buffers grow and are reused, never per call.
 */
interface Fill {
  start: Int32Array;
  end: Int32Array;
  from: Int32Array;
  occ: Int32Array;
  prev: Int32Array;
  /** Open-addressing table feature index -> last occurrence in the text. */
  keys: Int32Array;
  vals: Int32Array;
  mask: number;
  /** What the buffers hold now: generation -1 = nothing. */
  generation: number;
  text: string;
  dims: number;
  upTo: number;
  tf: TokenFeatures | null;
}
const newFill = (): Fill => ({
  start: new Int32Array(256),
  end: new Int32Array(256),
  from: new Int32Array(257),
  occ: new Int32Array(8192),
  prev: new Int32Array(8192),
  keys: new Int32Array(16384),
  vals: new Int32Array(16384),
  mask: 0,
  generation: -1,
  text: '',
  dims: 0,
  upTo: 0,
  tf: null,
});
const fills: [Fill, Fill] = [newFill(), newFill()];
/** The fill the next tokenFeatures() miss overwrites (the least recently used one). */
let spare = 0;
/** Scratch of the window being scored, indexed like a fill's occurrences. */
/** Count of the occurrence's feature so far inside the window being scored. */
let bufRun = new Int32Array(8192);
/** model.weights[occ[k]], filled once per (text, model). */
let bufW = new Float64Array(8192);
/** Step of g the occurrence adds inside the window being scored (0: not counted). */
let bufStep = new Float64Array(8192);
let weightsFor: { generation: number; model: LoadedModel | null } = { generation: -1, model: null };

function grow<T extends Int32Array | Float64Array>(a: T, need: number): T {
  if (a.length >= need) return a;
  const b = new (a.constructor as { new (n: number): T })(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
const slotOf = (f: number, mask: number) => (Math.imul(f, 0x9e3779b1) >>> 0) & mask;
function lastOccurrence(fl: Fill, f: number): number {
  for (let i = slotOf(f, fl.mask); ; i = (i + 1) & fl.mask) {
    const k = fl.keys[i];
    if (k === -1) return -1;
    if (k === f) return fl.vals[i];
  }
}
/** The fill tf was built in, or null when its buffers were reused since. */
function fillOf(tf: TokenFeatures): Fill | null {
  return fills[0].generation === tf.generation ? fills[0] : fills[1].generation === tf.generation ? fills[1] : null;
}

/** A fill is reused when the next call asks for the same text and dims (the toxicity and
 * injection layers featurise the same normalised message one after the other). */
export function tokenFeatures(text: string, dims = DEFAULT_DIMS, upTo = text.length): TokenFeatures {
  for (let i = 0; i < 2; i++) {
    const fl = fills[i];
    if (fl.tf && fl.text === text && fl.dims === dims && upTo <= fl.upTo) {
      spare = 1 - i;
      return fl.tf;
    }
  }
  const fl = fills[spare];
  spare = 1 - spare;
  const tf = fillTokenFeatures(fl, text, dims, upTo);
  fl.text = text;
  fl.dims = dims;
  fl.upTo = upTo;
  fl.tf = tf;
  return tf;
}

function fillTokenFeatures(fl: Fill, text: string, dims: number, upTo: number): TokenFeatures {
  fl.generation = ++generation;
  fl.tf = null;
  let count = 0;
  let n = 0;
  let pos = 0;
  while (pos < text.length) {
    SKIP_STICKY.lastIndex = pos;
    SKIP_STICKY.test(text);
    const s = SKIP_STICKY.lastIndex;
    if (s >= upTo || s >= text.length) break;
    TOKEN_STICKY.lastIndex = s;
    if (!TOKEN_STICKY.test(text)) break;
    const e = TOKEN_STICKY.lastIndex;
    pos = e;
    const we = Math.min(e, s + MAX_WORD);
    if (count + 2 > fl.start.length) {
      fl.start = grow(fl.start, count + 2);
      fl.end = grow(fl.end, count + 2);
      fl.from = grow(fl.from, fl.start.length + 1);
    }
    const need = n + 2 + 3 * (we - s + 2);
    if (need > fl.occ.length) fl.occ = grow(fl.occ, need);
    const { start, end, occ } = fl;
    start[count] = s;
    end[count] = e;
    fl.from[count] = n;
    occ[n++] = fnv1a(text, 1, s, we) % dims;
    occ[n++] =
      (count
        ? bigramHash(text, start[count - 1], Math.min(end[count - 1], start[count - 1] + MAX_WORD), text, s, we)
        : bigramHash('<s>', 0, 3, text, s, we)) % dims;
    n = charNgramsAt(text, s, we, dims, occ, n);
    count++;
  }
  fl.from[count] = n;
  // Previous occurrence of each feature, through a table about 4x the number of occurrences.
  let size = 1024;
  while (size < n * 4) size *= 2;
  if (fl.keys.length < size) {
    fl.keys = new Int32Array(size);
    fl.vals = new Int32Array(size);
  }
  const mask = (fl.mask = size - 1);
  const { keys, vals, occ } = fl;
  keys.fill(-1, 0, size);
  if (fl.prev.length < n) fl.prev = grow(fl.prev, n);
  if (bufRun.length < fl.prev.length) {
    bufRun = new Int32Array(fl.prev.length);
    bufW = new Float64Array(fl.prev.length);
    bufStep = new Float64Array(fl.prev.length);
  }
  const prev = fl.prev;
  for (let k = 0; k < n; k++) {
    const f = occ[k];
    let i = slotOf(f, mask);
    for (;;) {
      const key = keys[i];
      if (key === -1) {
        keys[i] = f;
        prev[k] = -1;
        break;
      }
      if (key === f) {
        prev[k] = vals[i]!;
        break;
      }
      i = (i + 1) & mask;
    }
    vals[i] = k;
  }
  return { text, dims, count, start: fl.start, end: fl.end, featFrom: fl.from, occ, prev, generation: fl.generation };
}

/** First token starting at or after `pos` (binary search). */
function tokenAt(tf: TokenFeatures, pos: number): number {
  let lo = 0;
  let hi = tf.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tf.start[mid] < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// g(c) = 1 + ln c (sublinear term frequency), g(0) = 0: the per-occurrence steps of g and g^2.
const STEPS = 4096;
const G = (c: number) => (c === 0 ? 0 : 1 + Math.log(c));
const STEP_G = Float64Array.from({ length: STEPS }, (_, c) => (c ? G(c) - G(c - 1) : 0));
const STEP_G2 = Float64Array.from({ length: STEPS }, (_, c) => (c ? G(c) ** 2 - G(c - 1) ** 2 : 0));
const stepG = (c: number) => (c < STEPS ? STEP_G[c] : G(c) - G(c - 1));
const stepG2 = (c: number) => (c < STEPS ? STEP_G2[c] : G(c) ** 2 - G(c - 1) ** 2);
/** Features a window has beyond the cached ones: its own <s>/</s> bigrams and a cut last word. */
let extras = new Int32Array(512);
/** Step of g each extra feature adds. */
let extraStep = new Float64Array(512);
/** The window prepareWindow() last laid out: occurrences [winA, winB), winNx extras, squared norm. */
let winA = 0;
let winB = 0;
let winNx = 0;
let winSq = 0;

/**
 * Lays out the window [from, to) of tf for scoring, shared by windowScore() and windowScores():
 * bufStep[k] for the cached occurrences, extras/extraStep for the features the window adds, and
 * the squared norm. False when the window starts inside a token.
 */
function prepareWindow(tf: TokenFeatures, fl: Fill, from: number, to: number): boolean {
  const a = tokenAt(tf, from);
  if (a > 0 && tf.end[a - 1] > from) return false;
  let b = tokenAt(tf, to);
  // A window cut inside a word (the 600-character cap) sees only the word's head: that partial
  // word is hashed here, the whole words before it come from the cache.
  let piece: string | null = null;
  if (b > a && tf.end[b - 1] > to) {
    b--;
    piece = tf.text.slice(tf.start[b], to);
  }
  if (b - a > MAX_WORDS) {
    b = a + MAX_WORDS;
    piece = null;
  }
  const { prev, text } = tf;
  const A = tf.featFrom[a];
  const B = tf.featFrom[b];
  // The first token's bigram is with the window start "<s>", not with the token before it.
  const skip = b > a ? A + 1 : -1;
  let sq = 0;
  for (let k = A; k < B; k++) {
    if (k === skip) {
      // Not counted, but the count so far passes through it to later occurrences.
      bufRun[k] = prev[k] >= A ? bufRun[prev[k]] : 0;
      bufStep[k] = 0;
      continue;
    }
    const p = prev[k];
    const j = p >= A ? bufRun[p] + 1 : 1;
    bufRun[k] = j;
    bufStep[k] = stepG(j);
    sq += stepG2(j);
  }
  // Extra features in featurize() order: <s> bigram, the cut word's features, </s> bigram.
  let nx = 0;
  let lastS = -1;
  let lastE = -1;
  let lastText = text;
  if (b > a) {
    extras[nx++] = bigramHash('<s>', 0, 3, text, tf.start[a], Math.min(tf.end[a], tf.start[a] + MAX_WORD)) % tf.dims;
    lastS = tf.start[b - 1]!;
    lastE = Math.min(tf.end[b - 1], lastS + MAX_WORD);
  }
  if (piece) {
    let pos = 0;
    let words = b - a;
    while (pos < piece.length && words < MAX_WORDS) {
      SKIP_STICKY.lastIndex = pos;
      SKIP_STICKY.test(piece);
      const s = SKIP_STICKY.lastIndex;
      if (s >= piece.length) break;
      TOKEN_STICKY.lastIndex = s;
      if (!TOKEN_STICKY.test(piece)) break;
      const e = TOKEN_STICKY.lastIndex;
      pos = e;
      const we = Math.min(e, s + MAX_WORD);
      if (nx + 4 + 3 * (we - s + 2) > extras.length) extras = grow(extras, (nx + 4 + 3 * (we - s + 2)) * 2);
      extras[nx++] = fnv1a(piece, 1, s, we) % tf.dims;
      extras[nx++] = (lastS >= 0 ? bigramHash(lastText, lastS, lastE, piece, s, we) : bigramHash('<s>', 0, 3, piece, s, we)) % tf.dims;
      nx = charNgramsAt(piece, s, we, tf.dims, extras, nx);
      [lastText, lastS, lastE] = [piece, s, we];
      words++;
    }
  }
  if (lastS >= 0) {
    extras[nx++] = fnvFeed(fnvFeed((0x811c9dc5 ^ 2) >>> 0, lastText, lastS, lastE), ' </s>', 0, 5) % tf.dims;
  }
  if (extraStep.length < nx) extraStep = new Float64Array(extras.length);
  for (let x = 0; x < nx; x++) {
    const f = extras[x];
    // How many times f already occurs in the window: cached occurrences, then earlier extras.
    let c = 0;
    let k = lastOccurrence(fl, f);
    while (k >= B) k = prev[k]!;
    if (k >= A) c = bufRun[k]!;
    for (let y = 0; y < x; y++) if (extras[y] === f) c++;
    extraStep[x] = stepG(c + 1);
    sq += stepG2(c + 1);
  }
  winA = A;
  winB = B;
  winNx = nx;
  winSq = sq;
  return true;
}

/**
 * predict(model, featurize(tf.text.slice(from, to))) from the token features (equal up to
 * floating-point rounding, ~1e-7), or null when the window starts inside a token or tf is stale.
 */
export function windowScore(model: LoadedModel, tf: TokenFeatures, from: number, to: number): number | null {
  const fl = fillOf(tf);
  if (tf.dims !== model.dims || !fl) return null;
  if (!prepareWindow(tf, fl, from, to)) return null;
  if (weightsFor.generation !== tf.generation || weightsFor.model !== model) {
    const { occ } = tf;
    const total = tf.featFrom[tf.count];
    for (let k = 0; k < total; k++) bufW[k] = model.weights[occ[k]]!;
    weightsFor = { generation: tf.generation, model };
  }
  let dot = 0;
  for (let k = winA; k < winB; k++) dot += bufW[k] * bufStep[k];
  for (let x = 0; x < winNx; x++) dot += model.weights[extras[x]] * extraStep[x];
  return sigmoid(model.bias + dot / (Math.sqrt(winSq) || 1));
}

/**
 * Several logistic-regression heads over the same features, their weights interleaved
 * (packed[f * heads + h] * scale[h]): scoring all heads reads one cache line per feature instead of
 * one line in each head's own table. Int8 weights (a model stored quantised) keep the table at a
 * quarter of the size, which is what decides its speed: the lookups are random.
 */
export interface MultiHeadModel {
  dims: number;
  heads: number;
  bias: Float64Array;
  scale: Float64Array;
  packed: Float32Array | Int8Array;
}

/** Float heads, packed as they are (scale 1). */
export function packHeads(models: LoadedModel[]): MultiHeadModel {
  const dims = models[0]?.dims ?? 0;
  const heads = models.length;
  const packed = new Float32Array(dims * heads);
  models.forEach((m, h) => {
    if (m.dims !== dims) throw new Error('packHeads: heads of different dimensions');
    for (let f = 0; f < dims; f++) if (m.weights[f] !== 0) packed[f * heads + h] = m.weights[f];
  });
  return { dims, heads, bias: Float64Array.from(models, (m) => m.bias), scale: new Float64Array(heads).fill(1), packed };
}

/** Quantised sparse heads (feature indices, Int8 weights, a scale each), packed without dequantising. */
export function packQuantizedHeads(
  dims: number,
  heads: Array<{ bias: number; scale: number; idx: Int32Array; w: Int8Array }>,
): MultiHeadModel {
  const n = heads.length;
  const packed = new Int8Array(dims * n);
  heads.forEach((hd, h) => {
    if (hd.idx.length !== hd.w.length) throw new Error('packQuantizedHeads: indices and weights differ in length');
    for (let i = 0; i < hd.idx.length; i++) {
      const f = hd.idx[i];
      if (f < 0 || f >= dims) throw new Error(`packQuantizedHeads: feature index ${f} outside 0..${dims - 1}`);
      packed[f * n + h] = hd.w[i];
    }
  });
  return { dims, heads: n, bias: Float64Array.from(heads, (hd) => hd.bias), scale: Float64Array.from(heads, (hd) => hd.scale), packed };
}

/** windowScore() for every head of `m` at once, into out[0..heads); false when it cannot score (as null there). */
export function windowScores(m: MultiHeadModel, tf: TokenFeatures, from: number, to: number, out: Float64Array): boolean {
  const fl = fillOf(tf);
  if (tf.dims !== m.dims || !fl) return false;
  if (!prepareWindow(tf, fl, from, to)) return false;
  const { occ } = tf;
  const { heads, packed } = m;
  out.fill(0, 0, heads);
  for (let k = winA; k < winB; k++) {
    const st = bufStep[k];
    if (st === 0) continue;
    const base = occ[k] * heads;
    for (let h = 0; h < heads; h++) out[h] += packed[base + h] * st;
  }
  for (let x = 0; x < winNx; x++) {
    const base = extras[x] * heads;
    for (let h = 0; h < heads; h++) out[h] += packed[base + h] * extraStep[x];
  }
  const norm = Math.sqrt(winSq) || 1;
  for (let h = 0; h < heads; h++) out[h] = sigmoid(m.bias[h] + (out[h] * m.scale[h]) / norm);
  return true;
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
  for (let i = 0; i < m.idx.length; i++) weights[m.idx[i]] = m.w[i]!;
  return { dims: m.dims, bias: m.bias, weights, threshold: m.threshold };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-Math.max(-30, Math.min(30, z))));

export function predict(model: LoadedModel, x: SparseVector): number {
  let z = model.bias;
  for (let k = 0; k < x.idx.length; k++) z += model.weights[x.idx[k]] * x.val[k];
  return sigmoid(z);
}

export interface TrainOptions {
  dims?: number;
  epochs?: number;
  l2?: number;
  learningRate?: number;
  seed?: number;
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
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const n of order) {
      const x = xs[n];
      let z = bias;
      for (let k = 0; k < x.idx.length; k++) z += weights[x.idx[k]] * x.val[k];
      const p = sigmoid(z);
      const y = ys[n];
      const g = (p - y) * (y === 1 ? wPos : wNeg);
      for (let k = 0; k < x.idx.length; k++) {
        const i = x.idx[k];
        const gi = g * x.val[k] + l2 * weights[i];
        g2[i] = g2[i] + gi * gi;
        weights[i] = weights[i] - (lr * gi) / (Math.sqrt(g2[i]) + 1e-8);
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
    const v = m.weights[i];
    if (Math.abs(v) >= 1e-3) {
      idx.push(i);
      w.push(Math.round(v * 1e4) / 1e4);
    }
  }
  return { format: 'vigil-logreg-v1', dims: m.dims, bias: Math.round(m.bias * 1e4) / 1e4, idx, w, threshold: m.threshold, meta };
}

/** Combines independent evidence: 1 - Π(1 - p). */
export function noisyOr(ps: number[]): number {
  let q = 1;
  for (const p of ps) q *= 1 - Math.max(0, Math.min(1, p));
  return 1 - q;
}
