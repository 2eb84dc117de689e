// Bridge from symbolic terms to Z3 (z3-solver, the WASM build). Z3's initialisation is async
// and costs ~1 s, so it happens once per thread (a pool worker keeps it for later requests).
// Measured here: init 0.7-1.1 s and a first 256-bit query ~0.5 s in the main thread and in a
// worker thread alike, so the explorer runs in a kernel pool worker, where a run that outlives
// its deadline is killed with the worker.
import { init } from 'z3-solver';
import { SortError, type Term } from './terms.ts';
import { TypedZ3, type Arr, type BV, type Bool, type Fn } from './z3-typed.ts';

type Z3Api = Awaited<ReturnType<typeof init>>;
// z3 Context<"vigil">: its generated typings are too narrow for the dynamic use below, so it is `any`.
type Ctx = any;

let z3Promise: Promise<Z3Api> | null = null;
let ctxSingleton: Ctx = null;

/** Native async calls (a solver check runs on a Z3 thread) in flight in this thread. */
let nativeBusy = 0;
/** Reference releases that arrived while a check ran: applied when it returns. */
const deferredReleases: Array<() => void> = [];

/**
 * z3-solver releases Z3 objects from a FinalizationRegistry, i.e. whenever the JS garbage
 * collector runs — also while an async check is running on a Z3 thread. Z3's AST manager is not
 * thread-safe, so such a release races the solver and corrupts its memory; it surfaced as
 * "ASSERTION VIOLATION shared_occs.cpp", applications with the wrong number or sort of
 * arguments, and crashes many runs later. The high-level API calls the low-level functions
 * through the `Z3` object at call time, so wrapping its release functions lets the releases
 * that arrive during a check wait until it has returned.
 */
function deferReleasesDuringChecks(lowLevel: object): void {
  const fns = lowLevel as Record<string, unknown>;
  for (const name of Object.keys(fns)) {
    if (!(name === 'dec_ref' || name === 'del_context' || (/_dec_ref$/.test(name) && !name.startsWith('enable_')))) continue;
    const release = fns[name];
    if (typeof release !== 'function') continue;
    fns[name] = (...args: unknown[]) => {
      if (nativeBusy > 0) deferredReleases.push(() => release(...args));
      else return release(...args);
    };
  }
}

/** Runs a native async call with releases held back until it settles. */
async function whileNative<T>(call: () => Promise<T>): Promise<T> {
  nativeBusy++;
  try {
    return await call();
  } finally {
    if (--nativeBusy === 0)
      for (const release of deferredReleases.splice(0)) {
        try {
          release();
        } catch {
          // A failed release leaks one object; it must not fail the query that just finished.
        }
      }
  }
}

/** Loads Z3 once per thread. */
export async function loadZ3(): Promise<Ctx> {
  if (ctxSingleton) return ctxSingleton;
  z3Promise ??= init().then((api) => {
    deferReleasesDuringChecks(api.Z3);
    return api;
  });
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

type DivOp = 'div' | 'sdiv' | 'mod' | 'smod';

/** Lemma rounds one query may spend making its abstract divisions exact. */
const MAX_REFINEMENTS = 4;

const WORD = (1n << 256n) - 1n;
const SIGN = 1n << 255n;
const signed = (v: bigint) => (v & SIGN ? v - (1n << 256n) : v);

/** The EVM's DIV, SDIV, MOD and SMOD on words (division by zero is zero). */
export function evmDivision(op: DivOp, x: bigint, y: bigint): bigint {
  if (y === 0n) return 0n;
  if (op === 'div') return x / y;
  if (op === 'mod') return x % y;
  const sx = signed(x);
  const sy = signed(y);
  // BigInt division truncates toward zero and its remainder takes the dividend's sign, as SDIV/SMOD.
  return (op === 'sdiv' ? sx / sy : sx % sy) & WORD;
}

/** A bit-vector's value in a model (completed), or null when Z3 gives none. */
function evalWord(model: any, e: any): bigint | null {
  try {
    const v = model.eval(e, true);
    return BigInt(typeof v.value === 'function' ? v.value() : v.toString());
  } catch {
    return null;
  }
}

/** Translates terms (memoised per term id) and answers satisfiability queries. */
export class TermSolver {
  private cache = new Map<number, BV | Arr>();
  private boolCache = new Map<number, Bool>();
  private fns = new Map<string, Fn>();
  /** keccak applications seen, for the injectivity axioms. */
  private hashes = new Map<number, { len: number; z: BV; input: BV }>();
  /** Divisions by a symbolic divisor, translated as uninterpreted functions (abstractDivision). */
  private divisions = new Map<number, { op: DivOp; x: BV; y: BV; out: BV; facts: Bool[] }>();
  /** Lemma rounds spent making models' divisions exact, and queries they could not settle. */
  refinements = 0;
  unsettled = 0;
  /** Queries answered `unknown` (time limit, unsettled divisions): nothing they cut is refuted. */
  unknowns = 0;
  private readonly B: TypedZ3;
  queries = 0;
  solverMs = 0;

  constructor(
    readonly z: Ctx,
    private timeoutMs: number,
    /** Epoch ms no query may run past (the caller's answer must leave before it). */
    private hardStop = Infinity,
  ) {
    this.B = new TypedZ3(z);
  }

  /** Translates `root` and every sub-term not yet translated, children first, with an explicit
   *  stack: a term thousands of levels deep cannot overflow the JS stack. */
  private translate(root: Term): BV | Arr {
    const hit = this.cache.get(root.id);
    if (hit) return hit;
    const stack: Array<{ t: Term; ready: boolean }> = [{ t: root, ready: false }];
    while (stack.length) {
      const top = stack.pop()!;
      if (this.cache.has(top.t.id)) continue;
      const args = top.t.args ?? [];
      if (!top.ready && args.some((a) => !this.cache.has(a.id))) {
        stack.push({ t: top.t, ready: true });
        for (const a of args) if (!this.cache.has(a.id)) stack.push({ t: a, ready: false });
        continue;
      }
      this.cache.set(top.t.id, this.node(top.t));
    }
    return this.cache.get(root.id)!;
  }

  /** A translated word (256-bit) argument. */
  private w(t: Term): BV {
    const x = this.cache.get(t.id) ?? this.translate(t);
    if (x.kind !== 'bv' || x.width !== 256) throw new SortError(`expected a 256-bit word, got term ${t.id} of sort ${t.sort}`);
    return x;
  }

  private arr(t: Term, value: number): Arr {
    const x = this.cache.get(t.id) ?? this.translate(t);
    if (x.kind !== 'array' || x.index !== 256 || x.value !== value)
      throw new SortError(`expected an array of ${value}-bit values, got term ${t.id} of sort ${t.sort}`);
    return x;
  }

  /** One term whose arguments are already translated. */
  private node(t: Term): BV | Arr {
    const B = this.B;
    if (t.kind === 'const') return B.val(t.value!, 256);
    if (t.kind === 'var') {
      if (t.sort === 'cd') return B.arrVar(t.name!, 256, 8);
      if (t.sort === 'st') return t.zeroBase ? B.arrConst(256, B.val(0n, 256)) : B.arrVar(t.name!, 256, 256);
      return B.bvVar(t.name!, 256);
    }
    const a = t.args!;
    const x = () => this.w(a[0]);
    const y = () => this.w(a[1]);
    const zero = B.val(0n, 256);
    const isZero = (v: BV) => B.cmp('eq', v, zero);
    const b2w = (b: Bool) => B.ite(b, B.val(1n, 256), zero);
    const big = (n: bigint) => B.val(n, 256);
    switch (t.op) {
      case 'add':
        return B.bin('add', x(), y());
      case 'sub':
        return B.bin('sub', x(), y());
      case 'mul':
        return B.bin('mul', x(), y());
      // EVM division by zero yields 0; SMT-LIB's bvudiv yields all-ones. A divisor the solver
      // chooses makes the division abstract (see `abstractDivision`).
      case 'div':
      case 'sdiv':
      case 'mod':
      case 'smod': {
        if (this.abstractable(t)) return this.abstractDivision(t, x(), y());
        const smt = t.op === 'div' ? 'udiv' : t.op === 'mod' ? 'urem' : t.op === 'sdiv' ? 'sdiv' : 'srem';
        return B.ite(isZero(y()), zero, B.bin(smt, x(), y()));
      }
      case 'addmod': {
        const m = this.w(a[2]);
        const wide = B.bin('add', B.zext(1, x()), B.zext(1, y()));
        return B.ite(isZero(m), zero, B.extract(255, 0, B.bin('urem', wide, B.zext(1, m))));
      }
      case 'mulmod': {
        const m = this.w(a[2]);
        const wide = B.bin('mul', B.zext(256, x()), B.zext(256, y()));
        return B.ite(isZero(m), zero, B.extract(255, 0, B.bin('urem', wide, B.zext(256, m))));
      }
      case 'exp':
        // Only constant bases are modelled exactly (2**n, 10**n); anything else is a fresh value.
        if (a[0].kind === 'const' && a[0].value === 2n) return B.ite(B.cmp('ult', y(), big(256n)), B.bin('shl', big(1n), y()), zero);
        return B.bvVar(`exp_${t.id}`, 256);
      case 'signextend': {
        if (a[0].kind === 'const' && a[0].value! < 31n) {
          const bits = BigInt(Number(a[0].value!) * 8 + 8);
          return B.bin('shr', B.bin('shl', y(), big(256n - bits)), big(256n - bits));
        }
        return a[0].kind === 'const' ? y() : B.bvVar(`signext_${t.id}`, 256);
      }
      case 'lt':
        return b2w(this.setBool(t, B.cmp('ult', x(), y())));
      case 'gt':
        return b2w(this.setBool(t, B.cmp('ugt', x(), y())));
      case 'slt':
        return b2w(this.setBool(t, B.cmp('slt', x(), y())));
      case 'sgt':
        return b2w(this.setBool(t, B.cmp('sgt', x(), y())));
      case 'eq':
        return b2w(this.setBool(t, B.cmp('eq', x(), y())));
      case 'iszero':
        // The argument was translated first, so its condition is one level away (no recursion).
        return b2w(this.setBool(t, B.boolNot(this.condOf(a[0]))));
      case 'and':
        return B.bin('and', x(), y());
      case 'or':
        return B.bin('or', x(), y());
      case 'xor':
        return B.bin('xor', x(), y());
      case 'not':
        return B.not(x());
      case 'byte': {
        // byte(i, w): i-th most significant byte, 0 when i >= 32.
        const i = x();
        const shift = B.bin('sub', big(248n), B.bin('mul', i, big(8n)));
        return B.ite(B.cmp('uge', i, big(32n)), zero, B.bin('and', B.bin('lshr', y(), shift), big(0xffn)));
      }
      case 'getbyte': {
        const i = Number(a[1].value!);
        return B.zext(248, B.extract(255 - 8 * i, 248 - 8 * i, x()));
      }
      case 'shl':
        return B.ite(B.cmp('uge', x(), big(256n)), zero, B.bin('shl', y(), x()));
      case 'shr':
        return B.ite(B.cmp('uge', x(), big(256n)), zero, B.bin('lshr', y(), x()));
      case 'sar':
        return B.bin('shr', y(), B.ite(B.cmp('uge', x(), big(256n)), big(255n), x()));
      case 'join':
        return B.concatAll(a.map((b) => B.extract(7, 0, this.w(b))));
      case 'cdload': {
        const cd = this.arr(a[0], 8);
        const off = this.w(a[1]);
        const bytes: BV[] = [];
        for (let i = 0; i < 32; i++) bytes.push(B.select(cd, i === 0 ? off : B.bin('add', off, big(BigInt(i)))));
        return B.concatAll(bytes);
      }
      case 'cdbyte':
        return B.zext(248, B.select(this.arr(a[0], 8), this.w(a[1])));
      case 'sload':
        return B.select(this.arr(a[0], 256), this.w(a[1]));
      case 'sstore':
        return B.store(this.arr(a[0], 256), this.w(a[1]), this.w(a[2]));
      case 'sha3': {
        const len = t.len!;
        const words = a.length * 32 === len;
        if (!words && a.length !== len) throw new SortError(`sha3 over ${len} bytes with ${a.length} parts`);
        const input = B.concatAll(a.map((p) => (words ? this.w(p) : B.extract(7, 0, this.w(p)))));
        const out = B.apply(this.fn(`keccak_${len}`, len * 8), input);
        this.hashes.set(t.id, { len, z: out, input });
        return out;
      }
    }
    throw new SortError(`solver: unsupported op ${String(t.op)}`);
  }

  /**
   * A 256-bit division or remainder by a symbolic divisor is bit-blasted into a divider circuit
   * of hundreds of thousands of clauses, and Z3 (WASM build) neither honours its timeout nor an
   * interrupt while it builds it: one such query in a vault's share computation ran 10 s past a
   * 200 ms limit. Those divisions are therefore an uninterpreted function of (dividend, divisor)
   * with cheap sound facts (EVM: x / 0 = x % 0 = 0; x / y <= x; x % y < y for y != 0), refined
   * lazily (counterexample-guided): a model whose function values differ from the real quotients
   * gets "at these operands the value is the real one" lemmas and is re-checked, a few rounds at
   * most (`check`). An answer is `sat` only once every division it uses agrees with the EVM, so
   * models stay exact; unsat of the abstraction is unsat of the real query. The checked-multiply
   * idiom `(a * b) / a == b` (solc 0.8's overflow check, SafeMath's) is exact without a divider:
   * when `a * b` does not overflow the quotient is `b` (Z3's no-overflow predicate, or a comparison
   * with MAX / b for a constant `b`), and otherwise it is not `b`.
   */
  private abstractable(t: Term): boolean {
    return t.args![1].kind !== 'const';
  }

  private abstractDivision(t: Term, x: BV, y: BV): BV {
    const B = this.B;
    const Z = this.z;
    const zero = B.val(0n, 256);
    const op = t.op as DivOp;
    const app = B.apply(this.uf(`evm_${op}`), B.concat(x, y));
    let out = B.ite(B.cmp('eq', y, zero), zero, app);
    const facts: Bool[] = [];
    if (op === 'div') facts.push(B.boolNot(B.cmp('ugt', app, x)));
    if (op === 'mod') facts.push(B.boolNot(B.cmp('ugt', app, x)), { kind: 'bool', e: Z.Implies(Z.Not(y.e.eq(zero.e)), app.e.ult(y.e)) });
    const [num, den] = t.args!;
    if (op === 'div' && num.kind === 'op' && num.op === 'mul' && num.args!.some((m) => m.id === den.id)) {
      const other = num.args![0].id === den.id ? num.args![1] : num.args![0];
      const o = this.w(other);
      const noOverflow: Bool =
        other.kind === 'const'
          ? other.value === 0n
            ? B.bool(true)
            : B.boolNot(B.cmp('ugt', y, B.val(WORD / other.value!, 256)))
          : { kind: 'bool', e: y.e.mulNoOverflow(o.e, false) };
      out = B.ite(B.cmp('eq', y, zero), zero, B.ite(noOverflow, o, app));
      facts.push({ kind: 'bool', e: Z.Implies(Z.Not(noOverflow.e), Z.Not(app.e.eq(o.e))) });
    }
    this.divisions.set(t.id, { op, x, y, out, facts });
    return out;
  }

  /** An uninterpreted function of two words (one 512-bit argument: dividend, divisor). */
  private uf(name: string): Fn {
    let f = this.fns.get(name);
    if (!f) this.fns.set(name, (f = this.B.fn(name, 512, 256)));
    return f;
  }

  /** Abstract divisions among `conds`' sub-terms whose model value differs from the EVM's, as
   *  lemmas pinning the value at the model's operands (empty when the model is exact; null when
   *  the model gives no operand values, i.e. it cannot be shown exact). */
  private divisionLemmas(model: any, conds: Term[]): any[] | null {
    if (!this.divisions.size) return [];
    const Z = this.z;
    const lemmas: any[] = [];
    const seen = new Set<number>();
    const stack = [...conds];
    while (stack.length) {
      const t = stack.pop()!;
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      for (const a of t.args ?? []) stack.push(a);
      const d = this.divisions.get(t.id);
      if (!d) continue;
      const vx = evalWord(model, d.x.e);
      const vy = evalWord(model, d.y.e);
      const got = evalWord(model, d.out.e);
      if (vx === null || vy === null) return null; // cannot tell: not an exact model
      const real = evmDivision(d.op, vx, vy);
      if (got === real) continue;
      lemmas.push(Z.Implies(Z.And(d.x.e.eq(this.B.val(vx, 256).e), d.y.e.eq(this.B.val(vy, 256).e)), d.out.e.eq(this.B.val(real, 256).e)));
    }
    return lemmas;
  }

  private setBool(t: Term, b: Bool): Bool {
    this.boolCache.set(t.id, b);
    return b;
  }

  /** The condition of an already translated word: its comparison, or "non-zero". */
  private condOf(t: Term): Bool {
    const hit = this.boolCache.get(t.id);
    if (hit) return hit;
    const b = t.kind === 'const' ? this.B.bool(t.value !== 0n) : this.B.boolNot(this.B.cmp('eq', this.w(t), this.B.val(0n, 256)));
    this.boolCache.set(t.id, b);
    return b;
  }

  private fn(name: string, bits: number): Fn {
    let f = this.fns.get(name);
    if (!f) {
      f = this.B.fn(name, bits, 256);
      this.fns.set(name, f);
      // The inverse makes keccak injective for the solver: equal hashes mean equal inputs.
      this.fns.set(`${name}_inv`, this.B.fn(`${name}_inv`, 256, bits));
    }
    return f;
  }

  /** A word used as a condition: true when non-zero (comparisons map straight to booleans). */
  bool(t: Term): any {
    this.translate(t);
    return this.condOf(t).e;
  }

  /** Z3 expression of a term (for model evaluation). */
  expr(t: Term): any {
    return this.translate(t).e;
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
      if (this.satisfiedBy(m, conds) && this.divisionLemmas(m.model, conds)?.length === 0) {
        this.cacheHits++;
        return { result: 'sat', model: m.model };
      }
    }
    // A query never runs past the hard stop: the caller must still answer with what it found.
    let budget = Math.floor(Math.min(this.timeoutMs, this.hardStop - Date.now()));
    if (budget < 20) {
      this.unknowns++;
      return { result: 'unknown', model: null };
    }
    if (!this.solver) this.solver = new Z.Solver();
    const s = this.solver;
    s.set('timeout', budget);
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
        const inv = this.fns.get(`keccak_${h.len}_inv`)!;
        s.add(this.B.cmp('eq', this.B.apply(inv, h.z), h.input).e);
        s.add(this.B.cmp('uge', h.z, this.B.val(1n << 128n, 256)).e);
        this.axiomed.add(id);
        added.push(id);
      }
      for (const [id, d] of this.divisions) {
        if (this.axiomed.has(-id)) continue;
        for (const f of d.facts) s.add(f.e);
        this.axiomed.add(-id);
        added.push(-id);
      }
      const addedKnown: string[] = [];
      for (const [key, k] of this.known) {
        if (this.axiomedKnown.has(key)) continue;
        // Only hashes of a length the query uses matter.
        if (!this.fns.has(`keccak_${k.len}`)) continue;
        const f = this.fns.get(`keccak_${k.len}`)!;
        const inv = this.fns.get(`keccak_${k.len}_inv`)!;
        const input = this.B.val(k.input, k.len * 8);
        const value = this.B.val(k.value, 256);
        s.add(this.B.cmp('eq', this.B.apply(f, input), value).e);
        s.add(this.B.cmp('eq', this.B.apply(inv, value), input).e);
        this.axiomedKnown.add(key);
        addedKnown.push(key);
      }
      this.asserted.push({ id: conds[i].id, hashes: added, known: addedKnown });
    }
    // Again now: a push makes Z3 internalize (bit-blast) what was added before it, synchronously on
    // this thread, where no timer runs and so nothing can interrupt it (1.3-2.5 s for one 256-bit
    // multiplication of two unknowns, measured at load ~2): the check gets only what is left.
    budget = Math.floor(Math.min(budget, this.hardStop - Date.now()));
    if (budget < 20) {
      this.unknowns++;
      return { result: 'unknown', model: null };
    }
    s.set('timeout', budget);
    const t0 = Date.now();
    this.queries++;
    let result: SatResult;
    // Z3's own `timeout` parameter is not always honoured by the WASM build (a query stuck in
    // conflict resolution ran 30 s past a 3 s limit): interrupt the context from here as well —
    // 250 ms after the query's own limit (a query a little late still answers), never after the
    // hard stop — and again every 50 ms until the check returns: one interrupt can be lost
    // (measured: a query interrupted 300 ms into its check ran on to its 60 s timeout). The
    // interrupted check answers `unknown`, like a timed-out one.
    let interrupted = false;
    let watchdog: NodeJS.Timeout | undefined;
    const interrupt = () => {
      interrupted = true;
      try {
        Z.interrupt();
      } catch {
        /* the check finished meanwhile */
      }
      watchdog = setTimeout(interrupt, 50);
    };
    watchdog = setTimeout(interrupt, Math.max(0, Math.min(budget + 250, this.hardStop - Date.now())));
    let model: any = null;
    try {
      for (let round = 0; ; round++) {
        result = await whileNative<SatResult>(() => s.check());
        if (interrupted || result !== 'sat') break;
        try {
          model = s.model();
        } catch {
          model = null;
          result = 'unknown';
          break;
        }
        const lemmas = this.divisionLemmas(model, conds);
        if (lemmas?.length === 0) break;
        // The model used division values the EVM would not compute: pin them and ask again
        // (within the same time limit); a query still unsettled after a few rounds is unknown.
        model = null;
        if (!lemmas || round >= MAX_REFINEMENTS || Date.now() - t0 >= budget) {
          this.unsettled++;
          result = 'unknown';
          break;
        }
        this.refinements++;
        for (const l of lemmas) s.add(l);
        s.set('timeout', Math.max(20, budget - (Date.now() - t0)));
      }
    } finally {
      clearTimeout(watchdog);
      this.solverMs += Date.now() - t0;
    }
    // An answer that raced the interrupt is not trusted (its model may already be gone).
    if (interrupted) result = 'unknown';
    if (result === 'unknown') this.unknowns++;
    if (result === 'sat') {
      this.models.unshift({ model, memo: new Map() });
      if (this.models.length > 6) this.models.pop();
    }
    return { result, model: wantModel && result === 'sat' ? model : null };
  }
}
