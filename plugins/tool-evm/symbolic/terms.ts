// Symbolic terms for the EVM explorer: immutable, hash-consed expression nodes over 256-bit
// words with constant folding, so the concrete parts of a run (jump targets, memory offsets,
// the code's own constants) stay plain numbers and only caller-chosen data reaches the solver.
// Every value is a 256-bit word except calldata (an SMT array of bytes) and storage (an SMT
// array of words). Comparisons yield 0/1 words as the EVM does; the solver bridge turns them
// back into booleans where they are used as conditions.

export const WORD = 1n << 256n;
export const MASK = WORD - 1n;
export const ADDR_MASK = (1n << 160n) - 1n;

export type Op =
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'sdiv'
  | 'mod'
  | 'smod'
  | 'exp'
  | 'signextend'
  | 'lt'
  | 'gt'
  | 'slt'
  | 'sgt'
  | 'eq'
  | 'iszero'
  | 'and'
  | 'or'
  | 'xor'
  | 'not'
  | 'byte'
  | 'shl'
  | 'shr'
  | 'sar'
  | 'addmod'
  | 'mulmod'
  /** one byte of a word (args: word, index 0..31 as const), zero-extended */
  | 'getbyte'
  /** 32 byte-terms (each a zero-extended byte) joined big-endian into a word */
  | 'join'
  /** 32 bytes of a calldata array starting at an offset (args: array, offset) */
  | 'cdload'
  /** one calldata byte, zero-extended (args: array, offset) */
  | 'cdbyte'
  /** keccak256 over the concatenation of args (words when `bytes` is a multiple of 32, else bytes) */
  | 'sha3'
  /** storage read (args: storage array, key) */
  | 'sload'
  /** storage write (args: storage array, key, value) -> storage array */
  | 'sstore';

export type Sort = 'bv' | 'cd' | 'st';

/** A term built against its operator's signature (wrong arity or argument sort): a bug in the
 *  explorer, caught before it reaches Z3, where it would surface as a solver error. */
export class SortError extends Error {}

/** Deepest term the table builds: deeper values become fresh variables (an over-approximation
 *  the replay settles), so no traversal of a term, ours or Z3's, can run out of stack. */
export const MAX_TERM_DEPTH = 400;

/** Each operator's argument sorts (`n` = any number >= 1 of words) and result sort. */
const SIGNATURES: Record<Op, { args: Sort[] | 'n'; result: Sort }> = {
  add: { args: ['bv', 'bv'], result: 'bv' },
  sub: { args: ['bv', 'bv'], result: 'bv' },
  mul: { args: ['bv', 'bv'], result: 'bv' },
  div: { args: ['bv', 'bv'], result: 'bv' },
  sdiv: { args: ['bv', 'bv'], result: 'bv' },
  mod: { args: ['bv', 'bv'], result: 'bv' },
  smod: { args: ['bv', 'bv'], result: 'bv' },
  exp: { args: ['bv', 'bv'], result: 'bv' },
  signextend: { args: ['bv', 'bv'], result: 'bv' },
  lt: { args: ['bv', 'bv'], result: 'bv' },
  gt: { args: ['bv', 'bv'], result: 'bv' },
  slt: { args: ['bv', 'bv'], result: 'bv' },
  sgt: { args: ['bv', 'bv'], result: 'bv' },
  eq: { args: ['bv', 'bv'], result: 'bv' },
  iszero: { args: ['bv'], result: 'bv' },
  and: { args: ['bv', 'bv'], result: 'bv' },
  or: { args: ['bv', 'bv'], result: 'bv' },
  xor: { args: ['bv', 'bv'], result: 'bv' },
  not: { args: ['bv'], result: 'bv' },
  byte: { args: ['bv', 'bv'], result: 'bv' },
  shl: { args: ['bv', 'bv'], result: 'bv' },
  shr: { args: ['bv', 'bv'], result: 'bv' },
  sar: { args: ['bv', 'bv'], result: 'bv' },
  addmod: { args: ['bv', 'bv', 'bv'], result: 'bv' },
  mulmod: { args: ['bv', 'bv', 'bv'], result: 'bv' },
  getbyte: { args: ['bv', 'bv'], result: 'bv' },
  join: { args: Array<Sort>(32).fill('bv'), result: 'bv' },
  cdload: { args: ['cd', 'bv'], result: 'bv' },
  cdbyte: { args: ['cd', 'bv'], result: 'bv' },
  sha3: { args: 'n', result: 'bv' },
  sload: { args: ['st', 'bv'], result: 'bv' },
  sstore: { args: ['st', 'bv', 'bv'], result: 'st' },
};

/** Throws a SortError unless `args` fit `op`'s signature (and getbyte's index is a constant byte index). */
export function checkSignature(op: Op, args: readonly Term[]): void {
  const sig = SIGNATURES[op];
  if (!sig) throw new SortError(`unknown operator ${String(op)}`);
  if (sig.args === 'n') {
    if (args.length < 1) throw new SortError(`${op} needs at least one argument`);
    for (const a of args) if (a.sort !== 'bv') throw new SortError(`${op}: argument of sort ${a.sort}, expected bv`);
    return;
  }
  if (args.length !== sig.args.length) throw new SortError(`${op} takes ${sig.args.length} arguments, got ${args.length}`);
  sig.args.forEach((want, i) => {
    if (args[i]?.sort !== want) throw new SortError(`${op}: argument ${i + 1} has sort ${args[i]?.sort}, expected ${want}`);
  });
  if (op === 'getbyte' && !(args[1].kind === 'const' && args[1].value! < 32n))
    throw new SortError('getbyte: the byte index must be a constant below 32');
}

export interface Term {
  readonly id: number;
  readonly kind: 'const' | 'var' | 'op';
  readonly sort: Sort;
  /** Value of a constant. */
  readonly value?: bigint;
  /** Name of a variable (unique per exploration). */
  readonly name?: string;
  readonly op?: Op;
  readonly args?: Term[];
  /** sha3: input length in bytes. */
  readonly len?: number;
  /** Storage arrays: base is the all-zero array (a fresh deployment) or a free array. */
  readonly zeroBase?: boolean;
  /** Longest path to a leaf (a leaf is 1). */
  readonly depth: number;
}

/** Interning table: one per exploration (terms of two runs never mix). */
export class TermTable {
  private table = new Map<string, Term>();
  private next = 1;
  /** Terms that would have exceeded MAX_TERM_DEPTH and became fresh variables. */
  cuts = 0;

  private intern(key: string, make: (id: number) => Term): Term {
    const hit = this.table.get(key);
    if (hit) return hit;
    const t = make(this.next++);
    this.table.set(key, t);
    return t;
  }

  get size(): number {
    return this.table.size;
  }

  c(v: bigint | number): Term {
    const value = ((BigInt(v) % WORD) + WORD) % WORD;
    return this.intern(`c${value.toString(16)}`, (id) => ({ id, kind: 'const', sort: 'bv', value, depth: 1 }));
  }

  v(name: string, sort: Sort = 'bv'): Term {
    return this.intern(`v${sort}:${name}`, (id) => ({ id, kind: 'var', sort, name, depth: 1 }));
  }

  zeroStorage(): Term {
    return this.intern('st0', (id) => ({ id, kind: 'var', sort: 'st', name: 'storage_zero', zeroBase: true, depth: 1 }));
  }

  private raw(op: Op, args: Term[], extra: { len?: number } = {}): Term {
    checkSignature(op, args);
    let depth = 0;
    for (const a of args) if (a.depth > depth) depth = a.depth;
    const sort = SIGNATURES[op].result;
    if (depth + 1 > MAX_TERM_DEPTH) {
      this.cuts++;
      return this.v(`deep_${this.next}`, sort);
    }
    const key = `${op}${extra.len ?? ''}(${args.map((a) => a.id).join(',')})`;
    return this.intern(key, (id) => ({
      id,
      kind: 'op',
      sort,
      op,
      args,
      depth: depth + 1,
      ...(extra.len !== undefined ? { len: extra.len } : {}),
    }));
  }

  /** Builds an operation, folding it when the operands allow. */
  op(op: Op, ...args: Term[]): Term {
    // Checked first: the folds below index args by position.
    checkSignature(op, args);
    const k = args.map((a) => (a.kind === 'const' ? a.value! : null));
    const allConst = k.every((x) => x !== null);
    if (allConst && op !== 'join' && op !== 'cdload' && op !== 'cdbyte' && op !== 'sload' && op !== 'sstore' && op !== 'sha3') {
      const r = evalConst(op, k);
      if (r !== null) return this.c(r);
    }
    const [a, b] = args;
    const ka = k[0];
    const kb = k[1];
    switch (op) {
      case 'add':
        if (ka === 0n) return b;
        if (kb === 0n) return a;
        break;
      case 'sub':
        if (kb === 0n) return a;
        if (a.id === b.id) return this.c(0);
        break;
      case 'mul':
        if (ka === 0n || kb === 0n) return this.c(0);
        if (ka === 1n) return b;
        if (kb === 1n) return a;
        break;
      case 'div':
        if (kb === 1n) return a;
        if (kb === 0n || ka === 0n) return this.c(0);
        break;
      case 'and':
        if (ka === 0n || kb === 0n) return this.c(0);
        if (ka === MASK) return b;
        if (kb === MASK) return a;
        if (a.id === b.id) return a;
        // Masking a value already known to fit (an address, a byte) changes nothing.
        if (kb !== null && fitsIn(a, kb)) return a;
        if (ka !== null && fitsIn(b, ka)) return b;
        break;
      case 'or':
        if (ka === 0n) return b;
        if (kb === 0n) return a;
        if (a.id === b.id) return a;
        break;
      case 'xor':
        if (ka === 0n) return b;
        if (kb === 0n) return a;
        if (a.id === b.id) return this.c(0);
        break;
      case 'eq':
        if (a.id === b.id) return this.c(1);
        break;
      case 'iszero':
        // iszero(iszero(cmp)) == cmp for 0/1-valued comparisons.
        if (a.kind === 'op' && a.op === 'iszero' && isBoolish(a.args![0])) return a.args![0];
        break;
      case 'shr':
      case 'shl':
        // EVM order: shift amount first.
        if (ka === 0n) return b;
        if (kb === 0n) return this.c(0);
        break;
      case 'getbyte': {
        const i = Number(kb);
        if (a.kind === 'op' && a.op === 'join') return a.args![i];
        if (a.kind === 'op' && a.op === 'cdload') return this.raw('cdbyte', [a.args![0], this.op('add', a.args![1], this.c(i))]);
        break;
      }
      case 'join': {
        // join(getbyte(w,0..31)) is w itself.
        const w0 = args[0];
        if (w0.kind === 'op' && w0.op === 'getbyte') {
          const w = w0.args![0];
          if (args.every((x, i) => x.kind === 'op' && x.op === 'getbyte' && x.args![0].id === w.id && x.args![1].value === BigInt(i)))
            return w;
        }
        // join(cdbyte(cd, o..o+31)) is cdload(cd, o).
        if (w0.kind === 'op' && w0.op === 'cdbyte' && w0.args![1].kind === 'const') {
          const arr = w0.args![0];
          const o = w0.args![1].value!;
          if (args.every((x, i) => x.kind === 'op' && x.op === 'cdbyte' && x.args![0].id === arr.id && x.args![1].value === o + BigInt(i)))
            return this.raw('cdload', [arr, w0.args![1]]);
        }
        if (allConst) {
          let v = 0n;
          for (const x of k) v = (v << 8n) | (x & 0xffn);
          return this.c(v);
        }
        break;
      }
      case 'sload': {
        // Walk back through writes: an equal key answers, a provably different one is skipped.
        let st = a;
        for (let guard = 0; guard < 4096; guard++) {
          if (st.kind === 'op' && st.op === 'sstore') {
            const [prev, key, val] = st.args!;
            if (key.id === b.id) return val;
            if (provablyDifferent(key, b)) {
              st = prev;
              continue;
            }
            break;
          }
          if (st.zeroBase) return this.c(0);
          break;
        }
        return this.raw('sload', [st, b]);
      }
      case 'sstore':
        return this.raw('sstore', args);
    }
    return this.raw(op, args);
  }

  /** keccak256 of `len` bytes given as `len / 32` words or as `len` bytes (one term each). */
  sha3(len: number, parts: Term[]): Term {
    if (!(len > 0 && (parts.length === len || parts.length * 32 === len)))
      throw new SortError(`sha3 over ${len} bytes needs ${len} byte terms or ${len / 32} words, got ${parts.length}`);
    return this.raw('sha3', parts, { len });
  }
}

function isBoolish(t: Term): boolean {
  return t.kind === 'op' && (t.op === 'lt' || t.op === 'gt' || t.op === 'slt' || t.op === 'sgt' || t.op === 'eq' || t.op === 'iszero');
}

/** Whether a term is known to be below 2^bits(mask) when mask is 2^n-1. */
function fitsIn(t: Term, mask: bigint): boolean {
  if ((mask & (mask + 1n)) !== 0n) return false; // not of the form 2^n - 1
  if (isBoolish(t)) return mask >= 1n;
  if (t.kind === 'op' && (t.op === 'getbyte' || t.op === 'cdbyte')) return mask >= 0xffn;
  if (t.kind === 'var' && t.name && /^(caller|origin|address|coinbase)_/.test(t.name)) return mask >= ADDR_MASK;
  if (t.kind === 'op' && t.op === 'and') {
    const c = t.args!.find((x) => x.kind === 'const');
    if (c && c.value! <= mask) return true;
  }
  return false;
}

/** Keys that can never be equal: distinct constants, or a constant vs a keccak result of a small slot. */
function provablyDifferent(x: Term, y: Term, depth = 0): boolean {
  if (x.kind === 'const' && y.kind === 'const') return x.value !== y.value;
  // Keccak results are assumed (and asserted to the solver) to lie above 2^128: slot numbers don't.
  const small = (t: Term) => t.kind === 'const' && t.value! < 1n << 64n;
  const hashed = (t: Term) =>
    t.kind === 'op' &&
    (t.op === 'sha3' || (t.op === 'add' && t.args!.some((a) => a.kind === 'op' && a.op === 'sha3') && t.args!.some(small)));
  if ((small(x) && hashed(y)) || (small(y) && hashed(x))) return true;
  // keccak(a) vs keccak(b) of equal length with provably different inputs.
  // (Nested hashes are compared a few levels deep: mapping-of-mapping keys, not arbitrary depth.)
  if (
    depth < 8 &&
    x.kind === 'op' &&
    y.kind === 'op' &&
    x.op === 'sha3' &&
    y.op === 'sha3' &&
    x.len === y.len &&
    x.args!.length === y.args!.length
  ) {
    return x.args!.some((a, i) => provablyDifferent(a, y.args![i], depth + 1));
  }
  return false;
}

const toSigned = (x: bigint) => (x >= 1n << 255n ? x - WORD : x);
const toUnsigned = (x: bigint) => ((x % WORD) + WORD) % WORD;

export function evalConst(op: Op, a: bigint[]): bigint | null {
  const [x, y, z] = a;
  switch (op) {
    case 'add':
      return (x + y) & MASK;
    case 'sub':
      return toUnsigned(x - y);
    case 'mul':
      return (x * y) & MASK;
    case 'div':
      return y === 0n ? 0n : x / y;
    case 'sdiv': {
      if (y === 0n) return 0n;
      const q = toSigned(x) / toSigned(y);
      return toUnsigned(q);
    }
    case 'mod':
      return y === 0n ? 0n : x % y;
    case 'smod': {
      if (y === 0n) return 0n;
      const sx = toSigned(x);
      const sy = toSigned(y);
      const r = (sx < 0n ? -sx : sx) % (sy < 0n ? -sy : sy);
      return toUnsigned(sx < 0n ? -r : r);
    }
    case 'addmod':
      return z === 0n ? 0n : (x + y) % z;
    case 'mulmod':
      return z === 0n ? 0n : (x * y) % z;
    case 'exp': {
      let r = 1n;
      let b = x;
      let e = y;
      while (e > 0n) {
        if (e & 1n) r = (r * b) & MASK;
        b = (b * b) & MASK;
        e >>= 1n;
      }
      return r;
    }
    case 'signextend': {
      if (x >= 31n) return y;
      const bit = x * 8n + 7n;
      const m = (1n << bit) - 1n;
      return (y >> bit) & 1n ? (y | (MASK ^ m)) & MASK : y & m;
    }
    case 'lt':
      return x < y ? 1n : 0n;
    case 'gt':
      return x > y ? 1n : 0n;
    case 'slt':
      return toSigned(x) < toSigned(y) ? 1n : 0n;
    case 'sgt':
      return toSigned(x) > toSigned(y) ? 1n : 0n;
    case 'eq':
      return x === y ? 1n : 0n;
    case 'iszero':
      return x === 0n ? 1n : 0n;
    case 'and':
      return x & y;
    case 'or':
      return x | y;
    case 'xor':
      return x ^ y;
    case 'not':
      return MASK ^ x;
    case 'byte':
      return x >= 32n ? 0n : (y >> (8n * (31n - x))) & 0xffn;
    case 'getbyte':
      return (x >> (8n * (31n - y))) & 0xffn;
    case 'shl':
      return x >= 256n ? 0n : (y << x) & MASK;
    case 'shr':
      return x >= 256n ? 0n : y >> x;
    case 'sar': {
      const s = toSigned(y);
      if (x >= 256n) return s < 0n ? MASK : 0n;
      return toUnsigned(s >> x);
    }
    default:
      return null;
  }
}

/** Variables a term depends on (names), bounded so a huge DAG cannot stall the caller. */
export function varsOf(t: Term, limit = 20_000): Set<string> {
  const out = new Set<string>();
  const seen = new Set<number>();
  const stack = [t];
  while (stack.length && seen.size < limit) {
    const x = stack.pop()!;
    if (seen.has(x.id)) continue;
    seen.add(x.id);
    if (x.kind === 'var') out.add(x.name!);
    else if (x.args) for (const a of x.args) stack.push(a);
  }
  return out;
}
