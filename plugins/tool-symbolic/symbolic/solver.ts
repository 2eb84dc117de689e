// Bridge from symbolic terms to Z3 (z3-solver, the WASM build). Z3's initialisation is async
// and costs ~1 s, so it happens once per thread (a pool worker keeps it for later requests).
// Measured here: init 0.7-1.1 s and a first 256-bit query ~0.5 s in the main thread and in a
// worker thread alike, so the explorer runs in a kernel pool worker, where a run that outlives
// its deadline is killed with the worker.
import { init } from 'z3-solver';
import { type Term } from './terms.ts';

type Z3Api = Awaited<ReturnType<typeof init>>;
// z3 Context<"vigil">: its generated typings are too narrow for the dynamic use below, so it is `any`.
type Ctx = any;

let z3Promise: Promise<Z3Api> | null = null;
let ctxSingleton: Ctx = null;

/** Loads Z3 once per thread. */
export async function loadZ3(): Promise<Ctx> {
  if (ctxSingleton) return ctxSingleton;
  z3Promise ??= init();
  const api = await z3Promise;
  ctxSingleton ??= api.Context('vigil') as Ctx;
  return ctxSingleton;
}

/** A failure inside Z3's WASM build (memory corruption, abort): that instance cannot be used again. */
export function isZ3Fatal(e: unknown): boolean {
  if (e instanceof WebAssembly.RuntimeError) return true;
  return /memory access out of bounds|unreachable|Aborted\(|RuntimeError/i.test(String((e as Error)?.message ?? e));
}

/** Drops this thread's Z3 (and stops its helper threads) so the next loadZ3() starts a fresh one.
 *  Without this, one crash (seen after some dozens of contracts in a long-lived pool worker) made
 *  every later symbolic run in that worker fail the same way. */
export async function resetZ3(): Promise<void> {
  const pending = z3Promise;
  z3Promise = null;
  ctxSingleton = null;
  try {
    const api = (await pending) as unknown as { em?: { PThread?: { terminateAllThreads?: () => void } } } | null;
    api?.em?.PThread?.terminateAllThreads?.();
  } catch {
    // The old instance is unusable anyway; the new one does not depend on it.
  }
}

export type SatResult = 'sat' | 'unsat' | 'unknown';

/** Translates terms (memoised per term id) and answers satisfiability queries. */
export class TermSolver {
  private cache = new Map<number, any>();
  private boolCache = new Map<number, any>();
  private fns = new Map<string, any>();
  /** keccak applications seen, for the injectivity axioms. */
  private hashes = new Map<number, { len: number; z: any; input: any }>();
  queries = 0;
  solverMs = 0;

  constructor(
    readonly z: Ctx,
    private timeoutMs: number,
  ) {}

  private bv(t: Term): any {
    const hit = this.cache.get(t.id);
    if (hit) return hit;
    const Z = this.z;
    let out: any;
    if (t.kind === 'const') out = Z.BitVec.val(t.value!, 256);
    else if (t.kind === 'var') {
      if (t.sort === 'cd') out = Z.Array.const(t.name!, Z.BitVec.sort(256), Z.BitVec.sort(8));
      else if (t.sort === 'st')
        out = t.zeroBase
          ? Z.Array.K(Z.BitVec.sort(256), Z.BitVec.val(0n, 256))
          : Z.Array.const(t.name!, Z.BitVec.sort(256), Z.BitVec.sort(256));
      else out = Z.BitVec.const(t.name!, 256);
    } else out = this.opExpr(t);
    this.cache.set(t.id, out);
    return out;
  }

  private opExpr(t: Term): any {
    const Z = this.z;
    const a = t.args!;
    const x = () => this.bv(a[0]);
    const y = () => this.bv(a[1]);
    const one = Z.BitVec.val(1n, 256);
    const zero = Z.BitVec.val(0n, 256);
    const b2w = (b: any) => Z.If(b, one, zero);
    switch (t.op) {
      case 'add':
        return x().add(y());
      case 'sub':
        return x().sub(y());
      case 'mul':
        return x().mul(y());
      // EVM division by zero yields 0; SMT-LIB's bvudiv yields all-ones.
      case 'div':
        return Z.If(y().eq(zero), zero, x().udiv(y()));
      case 'sdiv':
        return Z.If(y().eq(zero), zero, x().sdiv(y()));
      case 'mod':
        return Z.If(y().eq(zero), zero, x().urem(y()));
      case 'smod':
        return Z.If(y().eq(zero), zero, x().srem(y()));
      case 'addmod': {
        const m = this.bv(a[2]);
        const wide = this.zext(1, x()).add(this.zext(1, y()));
        return Z.If(m.eq(zero), zero, Z.Extract(255, 0, wide.urem(this.zext(1, m))));
      }
      case 'mulmod': {
        const m = this.bv(a[2]);
        const wide = this.zext(256, x()).mul(this.zext(256, y()));
        return Z.If(m.eq(zero), zero, Z.Extract(255, 0, wide.urem(this.zext(256, m))));
      }
      case 'exp': {
        // Only constant bases are modelled exactly (2**n, 10**n); anything else is a fresh value.
        if (a[0].kind === 'const' && a[0].value === 2n) return Z.If(y().ult(256), one.shl(y()), zero);
        return this.fresh(`exp_${t.id}`);
      }
      case 'signextend': {
        if (a[0].kind === 'const' && a[0].value! < 31n) {
          const bits = Number(a[0].value!) * 8 + 8;
          return y()
            .shl(256 - bits)
            .shr(256 - bits);
        }
        return a[0].kind === 'const' ? y() : this.fresh(`signext_${t.id}`);
      }
      case 'lt':
      case 'gt':
      case 'slt':
      case 'sgt':
      case 'eq':
      case 'iszero':
        return b2w(this.bool(t));
      case 'and':
        return x().and(y());
      case 'or':
        return x().or(y());
      case 'xor':
        return x().xor(y());
      case 'not':
        return x().not();
      case 'byte': {
        // byte(i, w): i-th most significant byte, 0 when i >= 32.
        const i = x();
        const w = y();
        return Z.If(i.uge(32), zero, w.lshr(Z.BitVec.val(248n, 256).sub(i.mul(8))).and(0xff));
      }
      case 'getbyte': {
        const i = Number(a[1].value!);
        return this.zext(248, Z.Extract(255 - 8 * i, 248 - 8 * i, x()));
      }
      case 'shl':
        return Z.If(x().uge(256), zero, y().shl(x()));
      case 'shr':
        return Z.If(x().uge(256), zero, y().lshr(x()));
      case 'sar':
        return y().shr(Z.If(x().uge(256), Z.BitVec.val(255n, 256), x()));
      case 'join':
        return Z.Concat(...a.map((b) => Z.Extract(7, 0, this.bv(b))));
      case 'cdload': {
        const arr = this.bv(a[0]);
        const off = this.bv(a[1]);
        const bytes = [];
        for (let i = 0; i < 32; i++) bytes.push(arr.select(i === 0 ? off : off.add(i)));
        return Z.Concat(...bytes);
      }
      case 'cdbyte':
        return this.zext(248, this.bv(a[0]).select(this.bv(a[1])));
      case 'sload':
        return this.bv(a[0]).select(this.bv(a[1]));
      case 'sstore':
        return this.bv(a[0]).store(this.bv(a[1]), this.bv(a[2]));
      case 'sha3': {
        const len = t.len!;
        if (len === 0) return Z.BitVec.val(0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470n, 256);
        const words = len % 32 === 0 && a.length === len / 32;
        const input =
          a.length === 1
            ? words
              ? this.bv(a[0])
              : Z.Extract(7, 0, this.bv(a[0]))
            : Z.Concat(...a.map((p) => (words ? this.bv(p) : Z.Extract(7, 0, this.bv(p)))));
        const f = this.fn(`keccak_${len}`, len * 8);
        const out = f.call(input);
        this.hashes.set(t.id, { len, z: out, input });
        return out;
      }
    }
    throw new Error(`solver: unsupported op ${t.op}`);
  }

  private zext(bits: number, e: any): any {
    return this.z.Concat(this.z.BitVec.val(0n, bits), e);
  }

  private fresh(name: string): any {
    return this.z.BitVec.const(name, 256);
  }

  private fn(name: string, bits: number): any {
    let f = this.fns.get(name);
    if (!f) {
      f = this.z.Function.declare(name, this.z.BitVec.sort(bits), this.z.BitVec.sort(256));
      this.fns.set(name, f);
      // The inverse makes keccak injective for the solver: equal hashes mean equal inputs.
      this.fns.set(`${name}_inv`, this.z.Function.declare(`${name}_inv`, this.z.BitVec.sort(256), this.z.BitVec.sort(bits)));
    }
    return f;
  }

  /** A word used as a condition: true when non-zero (comparisons map straight to booleans). */
  bool(t: Term): any {
    const hit = this.boolCache.get(t.id);
    if (hit) return hit;
    const Z = this.z;
    let out: any;
    if (t.kind === 'op') {
      const a = t.args!;
      switch (t.op) {
        case 'lt':
          out = this.bv(a[0]).ult(this.bv(a[1]));
          break;
        case 'gt':
          out = this.bv(a[0]).ugt(this.bv(a[1]));
          break;
        case 'slt':
          out = this.bv(a[0]).slt(this.bv(a[1]));
          break;
        case 'sgt':
          out = this.bv(a[0]).sgt(this.bv(a[1]));
          break;
        case 'eq':
          out = this.bv(a[0]).eq(this.bv(a[1]));
          break;
        case 'iszero':
          out = Z.Not(this.bool(a[0]));
          break;
      }
    }
    if (t.kind === 'const') out = Z.Bool.val(t.value !== 0n);
    out ??= Z.Not(this.bv(t).eq(Z.BitVec.val(0n, 256)));
    this.boolCache.set(t.id, out);
    return out;
  }

  /** Z3 expression of a term (for model evaluation). */
  expr(t: Term): any {
    return this.bv(t);
  }

  /** Raw z3 boolean builders callers combine with terms. */
  get api(): Ctx {
    return this.z;
  }

  /** keccak values the explorer computed from concrete input: the solver must agree with them,
   *  or a symbolic key could "collide" with a concrete slot (owners[caller] aliasing owners[root]). */
  private known = new Map<string, { len: number; input: bigint; value: bigint }>();

  knownHash(len: number, input: bigint, value: bigint): void {
    if (len === 0 || len > 256) return;
    const key = `${len}:${input.toString(16)}`;
    if (!this.known.has(key)) this.known.set(key, { len, input, value });
  }

  private solver: any = null;
  /** Conditions asserted on the incremental solver, one scope each, in order. */
  private asserted: Array<{ id: number; hashes: number[]; known: string[] }> = [];
  private axiomed = new Set<number>();
  private axiomedKnown = new Set<string>();
  /** Recent models: a query one of them satisfies needs no solver call (KLEE's counterexample cache). */
  private models: Array<{ model: any; memo: Map<number, boolean> }> = [];
  cacheHits = 0;

  private satisfiedBy(m: { model: any; memo: Map<number, boolean> }, conds: Term[]): boolean {
    for (const c of conds) {
      let v = m.memo.get(c.id);
      if (v === undefined) {
        try {
          v = !!this.z.isTrue(m.model.eval(this.bool(c), true));
        } catch {
          v = false;
        }
        m.memo.set(c.id, v);
      }
      if (!v) return false;
    }
    return true;
  }

  /**
   * Checks that every term in `conds` can be non-zero at once. Consecutive queries of a
   * depth-first search share prefixes, so one incremental solver keeps the common prefix
   * asserted (push/pop) and only the new suffix is added.
   */
  async check(conds: Term[], wantModel = false): Promise<{ result: SatResult; model: any }> {
    const Z = this.z;
    for (const m of this.models) {
      if (this.satisfiedBy(m, conds)) {
        this.cacheHits++;
        return { result: 'sat', model: m.model };
      }
    }
    if (!this.solver) {
      this.solver = new Z.Solver();
      this.solver.set('timeout', this.timeoutMs);
    }
    const s = this.solver;
    let common = 0;
    while (common < this.asserted.length && common < conds.length && this.asserted[common].id === conds[common].id) common++;
    if (this.asserted.length > common) {
      const dropped = this.asserted.splice(common);
      for (const d of dropped) {
        for (const h of d.hashes) this.axiomed.delete(h);
        for (const k of d.known) this.axiomedKnown.delete(k);
      }
      s.pop(dropped.length);
    }
    for (let i = common; i < conds.length; i++) {
      const b = this.bool(conds[i]);
      s.push();
      s.add(b);
      // Axioms for keccak applications this condition introduced: injective, far above slot numbers.
      const added: number[] = [];
      for (const [id, h] of this.hashes) {
        if (this.axiomed.has(id)) continue;
        const inv = this.fns.get(`keccak_${h.len}_inv`);
        s.add(inv.call(h.z).eq(h.input));
        s.add(h.z.uge(Z.BitVec.val(1n << 128n, 256)));
        this.axiomed.add(id);
        added.push(id);
      }
      const addedKnown: string[] = [];
      for (const [key, k] of this.known) {
        if (this.axiomedKnown.has(key)) continue;
        // Only hashes of a length the query uses matter.
        if (!this.fns.has(`keccak_${k.len}`)) continue;
        const f = this.fns.get(`keccak_${k.len}`);
        const inv = this.fns.get(`keccak_${k.len}_inv`);
        const input = Z.BitVec.val(k.input, k.len * 8);
        const value = Z.BitVec.val(k.value, 256);
        s.add(f.call(input).eq(value));
        s.add(inv.call(value).eq(input));
        this.axiomedKnown.add(key);
        addedKnown.push(key);
      }
      this.asserted.push({ id: conds[i].id, hashes: added, known: addedKnown });
    }
    const t0 = Date.now();
    this.queries++;
    let result: SatResult;
    // Z3's own `timeout` parameter is not always honoured by the WASM build (a query stuck in
    // conflict resolution ran 30 s past a 3 s limit): interrupt the context from here as well;
    // the interrupted check answers `unknown`, like a timed-out one.
    let interrupted = false;
    const watchdog = setTimeout(() => {
      interrupted = true;
      try {
        Z.interrupt();
      } catch {
        /* the check finished meanwhile */
      }
    }, this.timeoutMs + 250);
    try {
      result = (await s.check()) as SatResult;
    } finally {
      clearTimeout(watchdog);
      this.solverMs += Date.now() - t0;
    }
    // An answer that raced the interrupt is not trusted (its model may already be gone).
    if (interrupted) result = 'unknown';
    let model: any = null;
    if (result === 'sat') {
      try {
        model = s.model();
      } catch {
        return { result: 'unknown', model: null };
      }
      this.models.unshift({ model, memo: new Map() });
      if (this.models.length > 6) this.models.pop();
    }
    return { result, model: wantModel ? model : null };
  }
}
