// Typed builders over the z3-solver API. z3-solver's own typings are too loose for the dynamic
// use the term bridge makes of them (a bit-vector's width is not part of its type at run time),
// and a mistake there used to reach Z3 as an ill-sorted or mis-aritied application, reported
// later as a solver error. Every value here carries its sort (a bit-vector's width, an array's
// index and value widths), and each builder checks its operands before calling Z3, throwing a
// SortError that names the operation instead.
import { SortError } from './terms.ts';

// The z3 high-level Context<"vigil">: its generated typings cannot express the widths checked here.
type Ctx = any;
type Expr = any;

export interface BV {
  readonly kind: 'bv';
  readonly width: number;
  readonly e: Expr;
}
export interface Bool {
  readonly kind: 'bool';
  readonly e: Expr;
}
export interface Arr {
  readonly kind: 'array';
  readonly index: number;
  readonly value: number;
  readonly e: Expr;
}
export interface Fn {
  readonly name: string;
  readonly domain: number;
  readonly range: number;
  readonly f: Expr;
}
export type Sorted = BV | Bool | Arr;

const bvOf = (width: number, e: Expr): BV => ({ kind: 'bv', width, e });
const boolOf = (e: Expr): Bool => ({ kind: 'bool', e });

function sameWidth(what: string, a: BV, b: BV): void {
  if (a.kind !== 'bv' || b.kind !== 'bv') throw new SortError(`${what}: operands must be bit-vectors`);
  if (a.width !== b.width) throw new SortError(`${what}: operand widths differ (${a.width} and ${b.width})`);
}

type BinOp = 'add' | 'sub' | 'mul' | 'udiv' | 'sdiv' | 'urem' | 'srem' | 'and' | 'or' | 'xor' | 'shl' | 'lshr' | 'shr';
type CmpOp = 'ult' | 'ugt' | 'uge' | 'slt' | 'sgt' | 'eq';

export class TypedZ3 {
  constructor(readonly Z: Ctx) {}

  val(v: bigint, width: number): BV {
    if (!Number.isInteger(width) || width < 1) throw new SortError(`bit-vector width ${width}`);
    if (v < 0n || v >= 1n << BigInt(width)) throw new SortError(`constant ${v} does not fit in ${width} bits`);
    return bvOf(width, this.Z.BitVec.val(v, width));
  }

  bvVar(name: string, width: number): BV {
    return bvOf(width, this.Z.BitVec.const(name, width));
  }

  arrVar(name: string, index: number, value: number): Arr {
    return { kind: 'array', index, value, e: this.Z.Array.const(name, this.Z.BitVec.sort(index), this.Z.BitVec.sort(value)) };
  }

  /** The array mapping every index to `v`. */
  arrConst(index: number, v: BV): Arr {
    return { kind: 'array', index, value: v.width, e: this.Z.Array.K(this.Z.BitVec.sort(index), v.e) };
  }

  bin(op: BinOp, a: BV, b: BV): BV {
    sameWidth(op, a, b);
    return bvOf(a.width, a.e[op](b.e));
  }

  not(a: BV): BV {
    if (a.kind !== 'bv') throw new SortError('not: operand must be a bit-vector');
    return bvOf(a.width, a.e.not());
  }

  cmp(op: CmpOp, a: BV, b: BV): Bool {
    sameWidth(op, a, b);
    return boolOf(a.e[op](b.e));
  }

  bool(v: boolean): Bool {
    return boolOf(this.Z.Bool.val(v));
  }

  boolNot(b: Bool): Bool {
    if (b.kind !== 'bool') throw new SortError('Not: operand must be a boolean');
    return boolOf(this.Z.Not(b.e));
  }

  ite(c: Bool, a: BV, b: BV): BV {
    if (c.kind !== 'bool') throw new SortError('If: the condition must be a boolean');
    sameWidth('If', a, b);
    return bvOf(a.width, this.Z.If(c.e, a.e, b.e));
  }

  /** Exactly two operands: `a` supplies the high bits. */
  concat(a: BV, b: BV): BV {
    if (a.kind !== 'bv' || b.kind !== 'bv') throw new SortError('concat: operands must be bit-vectors');
    return bvOf(a.width + b.width, this.Z.Concat(a.e, b.e));
  }

  /** Big-endian join of one or more parts, built as a balanced tree of two-operand concats (shallow). */
  concatAll(parts: readonly BV[]): BV {
    if (!parts.length) throw new SortError('concat of nothing');
    let level = parts.slice();
    while (level.length > 1) {
      const next: BV[] = [];
      for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? this.concat(level[i], level[i + 1]) : level[i]);
      level = next;
    }
    return level[0];
  }

  extract(hi: number, lo: number, a: BV): BV {
    if (a.kind !== 'bv') throw new SortError('extract: operand must be a bit-vector');
    if (!(Number.isInteger(hi) && Number.isInteger(lo) && 0 <= lo && lo <= hi && hi < a.width))
      throw new SortError(`extract [${hi}:${lo}] of a ${a.width}-bit value`);
    return bvOf(hi - lo + 1, this.Z.Extract(hi, lo, a.e));
  }

  zext(bits: number, a: BV): BV {
    return bits === 0 ? a : this.concat(this.val(0n, bits), a);
  }

  select(arr: Arr, i: BV): BV {
    if (arr.kind !== 'array') throw new SortError('select: not an array');
    if (i.kind !== 'bv' || i.width !== arr.index)
      throw new SortError(`select: index of width ${i.width}, array indexed by ${arr.index} bits`);
    return bvOf(arr.value, arr.e.select(i.e));
  }

  store(arr: Arr, i: BV, v: BV): Arr {
    if (arr.kind !== 'array') throw new SortError('store: not an array');
    if (i.kind !== 'bv' || i.width !== arr.index)
      throw new SortError(`store: index of width ${i.width}, array indexed by ${arr.index} bits`);
    if (v.kind !== 'bv' || v.width !== arr.value) throw new SortError(`store: value of width ${v.width}, array holds ${arr.value} bits`);
    return { ...arr, e: arr.e.store(i.e, v.e) };
  }

  fn(name: string, domain: number, range: number): Fn {
    return { name, domain, range, f: this.Z.Function.declare(name, this.Z.BitVec.sort(domain), this.Z.BitVec.sort(range)) };
  }

  apply(fn: Fn, a: BV): BV {
    if (a.kind !== 'bv' || a.width !== fn.domain) throw new SortError(`${fn.name}: argument of width ${a.width}, expected ${fn.domain}`);
    return bvOf(fn.range, fn.f.call(a.e));
  }
}
