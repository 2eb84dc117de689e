// A small symbolic EVM. It runs a contract's creation code (deployer = a fixed address, so the
// storage an attacker faces is the storage a real deployment leaves behind), then up to `maxTx`
// transactions from the attacker (symbolic value, calldata and block time) over the runtime
// code. Memory is a byte map at concrete offsets, storage an SMT array, calldata an SMT byte
// array; JUMPI forks when both sides are satisfiable under the path constraints.
//
// Properties checked (each proved with a model, or refuted when no feasible path reaches it):
//   selfdestruct    SELFDESTRUCT reachable by the attacker
//   delegatecall    DELEGATECALL whose target the attacker can choose
//   ether           CALL sending more ether than the attacker ever sent, to the attacker
//   assert          INVALID (solc < 0.8 assert) or Panic(0x01) (solc >= 0.8 assert) reached
//   overflow        ADD/MUL/SUB that wraps and whose result is written to storage
// Sinks that could still be reverted (calls, stores) are checked at the transaction's
// successful end, so a later `require` that undoes them is taken into account.
//
// The world is the fuzzer's chain (../evm/chain.ts), so every model is a
// transaction sequence that can be replayed there: the deployer is the fuzzer's owner, the
// attacker its attacker EOA (one fixed address, not a symbolic one: a symbolic caller let the
// solver "be" an address hard-coded in the contract, e.g. a honeypot's backdoor owner, and so
// pass its owner check), constructor arguments and value are the ones the fuzzer deploys with,
// the block values are the chain's (timestamp per transaction, moving forward).
//
// The contract's balance is tracked (start = what the replay world holds after its set-up, plus
// callvalues, minus what succeeded CALLs sent): a CALL cannot send more than the balance, and
// this.balance reads it (a fresh value per read let the solver pay out ether that is not there).
//
// Deliberately not modelled (false negatives, never false positives): reentrancy into the
// contract during a call, gas, precompiles, memory at symbolic offsets (reads are fresh values),
// sub-word arithmetic overflow (uint8 wrap inside a 256-bit ADD), more than `maxTx` transactions.
import { keccak_256 } from '@noble/hashes/sha3';
import { ADDR_MASK, MASK, MAX_TERM_DEPTH, SortError, TermTable, varsOf, type Term } from './terms.ts';
import type { TermSolver } from './solver.ts';
import { ACTORS, GENESIS_BLOCK, GENESIS_TIME } from '../evm/chain.ts';

/** The deployer: the fuzzer's owner account. */
export const CREATOR = BigInt(ACTORS.owner);
/** The attacker: the fuzzer's attacker EOA (the replay sends from it). */
export const ATTACKER = BigInt(ACTORS.attacker);
/** Block values of the fuzzer's chain (../evm/chain.ts blockOf). */
const COINBASE = 0xc0ffee00n;
const PREVRANDAO = BigInt('0x' + '07'.repeat(32));
const BLOCK_GAS_LIMIT = 30_000_000n;
const CHAIN_ID = 1n;
/** Most ether (wei) the attacker pays in over a sequence: its account holds 1000 ether. */
const MAX_ATTACKER_VALUE = 100n * 10n ** 18n;
export const THIS_ADDRESS = 0x0901d12ebe1b195e5aa8748e62bd7734ae19b51fn;
/** An arbitrary address the attacker would like a call to go to. */
export const ATTACKER_TARGET = 0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefn;

export type SinkKind = 'selfdestruct' | 'delegatecall' | 'ether' | 'assert' | 'overflow';

export interface Limits {
  maxTx: number;
  /** Times one JUMPI may run on a path (bounds loops). */
  loopBound: number;
  /** Instructions per transaction path. */
  maxSteps: number;
  /** Paths (states) explored per transaction. */
  maxPaths: number;
  /** Successful end states carried into the next transaction. */
  maxCarry: number;
  /** Epoch ms: exploration stops (results so far are kept). */
  deadline: number;
}

export interface TxEnv {
  index: number;
  caller: Term;
  callvalue: Term;
  cd: Term;
  cds: Term;
  /** Block timestamp (one per transaction: every TIMESTAMP read in it sees the same value). */
  timestamp: Term;
  number: Term;
}

interface Potential {
  kind: SinkKind;
  pc: number;
  conds: Term[];
  detail: Record<string, Term | string>;
}

interface State {
  pc: number;
  stack: Term[];
  mem: Map<number, Term>;
  msize: number;
  storage: Term;
  /** This contract's ether balance: CALLs with value can only pay out what it holds. */
  balance: Term;
  cons: Term[];
  tx: TxEnv;
  history: TxEnv[];
  sumValue: Term;
  jumpiCount: Map<number, number>;
  steps: number;
  potentials: Potential[];
  /** Last instruction mapped to the submitted file (for sinks inside compiler helpers). */
  lastMapped: number;
  approx: boolean;
  /** Storage at the start of the transaction (a path that changed nothing is not carried on). */
  startStorage: number;
  /** A delegatecall ran: storage is arbitrary from here on. Sinks past this point follow from the
   *  delegatecall finding itself, so they are not reported again, and the state is not carried on. */
  havoc: boolean;
}

export interface ProvenSink {
  kind: SinkKind;
  pc: number;
  /** pc of the instruction whose source location is reported. */
  locPc: number;
  txs: TxEnv[];
  model: any;
  detail: Record<string, Term | string>;
  approx: boolean;
}

export interface ExploreStats {
  paths: number;
  steps: number;
  queries: number;
  cache_hits: number;
  solver_ms: number;
  truncated: string[];
  deadline_hit: boolean;
  /** Terms the builders refused (should stay empty). */
  internal_errors: string[];
  /** Values deeper than MAX_TERM_DEPTH replaced by fresh ones. */
  depth_cuts: number;
}

export interface Code {
  bytes: Uint8Array;
  jumpdests: Set<number>;
  /** pc -> instruction index (for source maps). */
  index: Map<number, number>;
  /** pcs of opcodes (instruction starts). */
  ops: number[];
}

export function hexToBytes(hex: string): Uint8Array {
  // Unlinked library placeholders (__$...$__ / __Lib____) become zero addresses.
  const clean = hex.replace(/^0x/, '').replace(/__[^_].{36}__|__\$[0-9a-f]{34}\$__/g, '0'.repeat(40));
  const out = new Uint8Array(Math.floor(clean.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16) || 0;
  return out;
}

export function disassemble(bytes: Uint8Array): Code {
  const jumpdests = new Set<number>();
  const index = new Map<number, number>();
  const ops: number[] = [];
  let i = 0;
  let n = 0;
  while (i < bytes.length) {
    const op = bytes[i];
    index.set(i, n++);
    ops.push(i);
    if (op === 0x5b) jumpdests.add(i);
    i += op >= 0x60 && op <= 0x7f ? op - 0x5e : 1;
  }
  return { bytes, jumpdests, index, ops };
}

/** Ends one path (stack underflow/overflow): the EVM would fail the transaction. */
class Halt extends Error {}

/** Runs one code object over a set of start states. */
export class Explorer {
  readonly T = new TermTable();
  private fresh = 0;
  readonly proven: ProvenSink[] = [];
  private provenKeys = new Set<string>();
  /** Sinks reached on some path but never proven (for refutation reports). */
  readonly reachedUnproven = new Map<string, { kind: SinkKind; pc: number }>();
  /** pc of the arithmetic instruction that created a term. */
  private arithPc = new Map<number, { pc: number; op: 'add' | 'sub' | 'mul'; a: Term; b: Term }>();
  readonly stats: ExploreStats = {
    paths: 0,
    steps: 0,
    queries: 0,
    cache_hits: 0,
    solver_ms: 0,
    truncated: [],
    deadline_hit: false,
    internal_errors: [],
    depth_cuts: 0,
  };
  /** Constructor-argument words (the attacker is not handed ownership through them). */
  private ctorWords: Term[] = [];

  constructor(
    private solver: TermSolver,
    private limits: Limits,
    private isMapped: (code: 'runtime' | 'creation', pc: number) => boolean,
  ) {}

  private v(prefix: string): Term {
    return this.T.v(`${prefix}_${this.fresh++}`);
  }

  private note(msg: string) {
    if (!this.stats.truncated.includes(msg) && this.stats.truncated.length < 20) this.stats.truncated.push(msg);
  }

  timeUp(): boolean {
    if (Date.now() >= this.limits.deadline) {
      this.stats.deadline_hit = true;
      return true;
    }
    return false;
  }

  private async sat(conds: Term[]): Promise<boolean> {
    const r = await this.solver.check(conds);
    this.stats.queries = this.solver.queries;
    this.stats.cache_hits = this.solver.cacheHits;
    this.stats.solver_ms = this.solver.solverMs;
    // Unknown (solver timeout) keeps the path: exploration over-approximates, proofs need sat.
    return r.result !== 'unsat';
  }

  /**
   * Runs the creation code; returns the first successful end state and the runtime code it
   * returned. `ctor` gives the encoded constructor arguments and value the replay world deploys
   * with; without it the arguments are symbolic words (never the attacker's address).
   */
  async deploy(
    creation: Code,
    ctorArgWords: number,
    ctor?: { args: Uint8Array; value: bigint; balance?: bigint },
  ): Promise<{ state: State; runtime: Uint8Array | null } | null> {
    const T = this.T;
    const tx: TxEnv = {
      index: 0,
      caller: T.c(CREATOR),
      callvalue: T.c(ctor?.value ?? 0n),
      cd: T.v('cd_ctor', 'cd'),
      cds: T.c(0),
      timestamp: T.c(GENESIS_TIME),
      number: T.c(GENESIS_BLOCK),
    };
    if (ctor) {
      for (let k = 0; k < ctor.args.length; k += 32) {
        let w = 0n;
        for (let i = 0; i < 32; i++) w = (w << 8n) | BigInt(ctor.args[k + i] ?? 0);
        this.ctorWords.push(T.c(w));
      }
    } else for (let i = 0; i < ctorArgWords; i++) this.ctorWords.push(T.v(`ctor_arg_${i}`));
    const start = this.newState(tx, T.zeroStorage(), [], [], T.c(0), T.c(ctor?.value ?? 0n));
    let result: { state: State; runtime: Uint8Array | null } | null = null;
    await this.run(
      creation,
      'creation',
      [start],
      async (s, ret) => {
        if (result) return;
        let runtime: Uint8Array | null = null;
        if (ret && ret.len <= 0x6000) {
          const bytes = new Uint8Array(ret.len);
          let concrete = true;
          for (let i = 0; i < ret.len; i++) {
            const b = s.mem.get(ret.off + i) ?? T.c(0);
            if (b.kind !== 'const') {
              concrete = false;
              break;
            }
            bytes[i] = Number(b.value! & 0xffn);
          }
          if (concrete) runtime = bytes;
        }
        // The replay world's set-up (deposits by the owner and a user, or a forced balance) leaves
        // this much ether in the contract before the attacker's first transaction.
        if (ctor?.balance !== undefined) s.balance = T.c(ctor.balance);
        result = { state: s, runtime };
      },
      creation.bytes.length,
    );
    return result;
  }

  /** One attacker transaction from each start state; returns the successful end states that changed storage. */
  async transact(runtime: Code, starts: State[], txIndex: number): Promise<State[]> {
    const T = this.T;
    const ends: State[] = [];
    const seen = new Set<number>();
    const starting: State[] = [];
    for (const s0 of starts) {
      const caller = T.c(ATTACKER);
      const tx: TxEnv = {
        index: txIndex,
        caller,
        callvalue: T.v(`callvalue_${txIndex}`),
        cd: T.v(`calldata_${txIndex}`, 'cd'),
        cds: T.v(`calldatasize_${txIndex}`),
        timestamp: T.v(`timestamp_${txIndex}`),
        number: T.c(GENESIS_BLOCK + BigInt(txIndex)),
      };
      const cons = [...s0.cons];
      // The attacker is not an address given to the constructor (symbolic arguments only).
      for (const w of this.ctorWords) if (w.kind !== 'const') cons.push(T.op('iszero', T.op('eq', caller, T.op('and', w, T.c(ADDR_MASK)))));
      cons.push(T.op('lt', tx.cds, T.c(4 + 32 * 64)));
      // Time moves forward by at least a second per transaction (as in the replay), within ~136 years.
      cons.push(T.op('gt', tx.timestamp, s0.tx.timestamp));
      cons.push(T.op('lt', tx.timestamp, T.c(GENESIS_TIME + (1n << 32n))));
      const sumValue = T.op('add', s0.sumValue, tx.callvalue);
      cons.push(T.op('iszero', T.op('gt', sumValue, T.c(MAX_ATTACKER_VALUE))));
      cons.push(T.op('lt', tx.callvalue, T.c(MAX_ATTACKER_VALUE + 1n)));
      starting.push(
        this.newState(
          tx,
          s0.storage,
          cons,
          [...s0.history, s0.tx].filter((t) => t.index > 0),
          sumValue,
          T.op('add', s0.balance, tx.callvalue),
        ),
      );
    }
    await this.run(runtime, 'runtime', starting, async (s) => {
      if (s.storage.id === s.startStorage || s.havoc) return;
      if (seen.has(s.storage.id) || ends.length >= this.limits.maxCarry) return;
      seen.add(s.storage.id);
      ends.push(s);
    });
    return ends;
  }

  private newState(tx: TxEnv, storage: Term, cons: Term[], history: TxEnv[], sumValue: Term, balance: Term): State {
    return {
      pc: 0,
      stack: [],
      mem: new Map(),
      msize: 0,
      storage,
      balance,
      cons,
      tx,
      history,
      sumValue,
      jumpiCount: new Map(),
      steps: 0,
      potentials: [],
      lastMapped: -1,
      approx: false,
      startStorage: storage.id,
      havoc: false,
    };
  }

  private fork(s: State): State {
    return {
      ...s,
      stack: s.stack.slice(),
      mem: new Map(s.mem),
      cons: s.cons.slice(),
      jumpiCount: new Map(s.jumpiCount),
      potentials: s.potentials.slice(),
    };
  }

  private async prove(s: State, kind: SinkKind, pc: number, conds: Term[], detail: Record<string, Term | string>) {
    const key = `${kind}:${pc}`;
    if (this.provenKeys.has(key)) return;
    if (s.havoc && kind !== 'delegatecall') return;
    if (this.timeUp()) return;
    const r = await this.solver.check([...s.cons, ...conds], true);
    this.stats.queries = this.solver.queries;
    this.stats.solver_ms = this.solver.solverMs;
    if (r.result === 'sat') {
      this.provenKeys.add(key);
      this.reachedUnproven.delete(key);
      const locPc = this.isMapped('runtime', pc) ? pc : s.lastMapped;
      this.proven.push({ kind, pc, locPc, txs: [...s.history, s.tx], model: r.model, detail, approx: s.approx });
    } else if (!this.provenKeys.has(key)) this.reachedUnproven.set(key, { kind, pc });
  }

  /** Checks the sinks recorded on a path that ended successfully. */
  private async settle(s: State) {
    for (const p of s.potentials) await this.prove(s, p.kind, p.pc, p.conds, p.detail);
  }

  private async run(
    code: Code,
    which: 'runtime' | 'creation',
    starts: State[],
    onEnd: (s: State, ret: { off: number; len: number } | null) => Promise<void>,
    codeLen?: number,
  ) {
    const work = starts.slice().reverse();
    let paths = 0;
    while (work.length) {
      if (this.timeUp()) return;
      if (paths >= this.limits.maxPaths) {
        this.note(`path budget (${this.limits.maxPaths}) reached`);
        return;
      }
      const s = work.pop()!;
      paths++;
      this.stats.paths++;
      try {
        await this.step(code, which, s, work, onEnd, codeLen);
      } catch (e) {
        if (e instanceof SortError) {
          // An ill-formed term is a bug of this engine: that path is given up, said so, and the
          // rest of the exploration goes on (the property test keeps this list empty).
          if (this.stats.internal_errors.length < 5) this.stats.internal_errors.push(e.message);
          this.note(`path given up: ${e.message}`);
        } else if (!(e instanceof Halt)) throw e;
      }
      if (this.T.cuts > this.stats.depth_cuts) {
        this.stats.depth_cuts = this.T.cuts;
        this.note(`values deeper than ${MAX_TERM_DEPTH} operations replaced by fresh ones (approximated)`);
      }
    }
  }

  /** Executes one path until it ends or forks (the fork's other side goes on `work`). */
  private async step(
    code: Code,
    which: 'runtime' | 'creation',
    s: State,
    work: State[],
    onEnd: (s: State, ret: { off: number; len: number } | null) => Promise<void>,
    codeLen?: number,
  ): Promise<void> {
    const T = this.T;
    const b = code.bytes;
    const pop = (): Term => {
      const x = s.stack.pop();
      if (!x) throw new Halt('stack underflow');
      return x;
    };
    const push = (x: Term) => {
      if (s.stack.length >= 1024) throw new Halt('stack overflow');
      s.stack.push(x);
    };
    const concrete = (x: Term, what: string): number | null => {
      if (x.kind === 'const' && x.value! < 1n << 32n) return Number(x.value);
      if (x.kind !== 'const') {
        s.approx = true;
        this.note(`symbolic ${what} (approximated)`);
      }
      return null;
    };
    const memRead = (off: number, len: number): Term[] => {
      const out: Term[] = [];
      for (let i = 0; i < len; i++) out.push(s.mem.get(off + i) ?? T.c(0));
      return out;
    };
    const touch = (off: number, len: number) => {
      if (len > 0) s.msize = Math.max(s.msize, Math.ceil((off + len) / 32) * 32);
    };
    const mstore = (off: number, v: Term) => {
      for (let i = 0; i < 32; i++)
        s.mem.set(off + i, v.kind === 'const' ? T.c((v.value! >> BigInt(8 * (31 - i))) & 0xffn) : T.op('getbyte', v, T.c(i)));
      touch(off, 32);
    };
    const freshBytes = (off: number | null, len: number | null, prefix: string) => {
      if (off === null || len === null || len > 4096) return;
      for (let k = 0; k < len; k += 32) {
        const w = this.v(prefix);
        for (let i = 0; i < 32 && k + i < len; i++) s.mem.set(off + k + i, T.op('getbyte', w, T.c(i)));
      }
      touch(off, len);
    };

    for (;;) {
      if (++s.steps > this.limits.maxSteps) {
        this.note(`instruction budget per path (${this.limits.maxSteps}) reached`);
        return;
      }
      this.stats.steps++;
      if ((this.stats.steps & 1023) === 0 && this.timeUp()) return;
      const pc = s.pc;
      if (pc >= b.length) {
        // Running off the end is STOP.
        await this.settle(s);
        return onEnd(s, null);
      }
      const op = b[pc];
      if (which === 'runtime' && this.isMapped('runtime', pc)) s.lastMapped = pc;
      s.pc = pc + 1;
      if (op >= 0x60 && op <= 0x7f) {
        const n = op - 0x5f;
        let v = 0n;
        for (let i = 1; i <= n; i++) v = (v << 8n) | BigInt(b[pc + i] ?? 0);
        push(T.c(v));
        s.pc = pc + 1 + n;
        continue;
      }
      if (op >= 0x80 && op <= 0x8f) {
        const d = op - 0x7f;
        if (s.stack.length < d) return;
        push(s.stack[s.stack.length - d]);
        continue;
      }
      if (op >= 0x90 && op <= 0x9f) {
        const d = op - 0x8f;
        const st = s.stack;
        if (st.length < d + 1) return;
        const top = st.length - 1;
        [st[top], st[top - d]] = [st[top - d], st[top]];
        continue;
      }
      if (op >= 0xa0 && op <= 0xa4) {
        pop();
        pop();
        for (let i = 0; i < op - 0xa0; i++) pop();
        continue;
      }
      switch (op) {
        case 0x00: // STOP
          await this.settle(s);
          return onEnd(s, null);
        case 0x01:
        case 0x02:
        case 0x03: {
          const a = pop();
          const c = pop();
          const name = op === 0x01 ? 'add' : op === 0x02 ? 'mul' : 'sub';
          const r = T.op(name, a, c);
          if (r.kind === 'op' && r.op === name && !this.arithPc.has(r.id)) this.arithPc.set(r.id, { pc, op: name, a, b: c });
          push(r);
          continue;
        }
        case 0x04:
          push(T.op('div', pop(), pop()));
          continue;
        case 0x05:
          push(T.op('sdiv', pop(), pop()));
          continue;
        case 0x06:
          push(T.op('mod', pop(), pop()));
          continue;
        case 0x07:
          push(T.op('smod', pop(), pop()));
          continue;
        case 0x08:
          push(T.op('addmod', pop(), pop(), pop()));
          continue;
        case 0x09:
          push(T.op('mulmod', pop(), pop(), pop()));
          continue;
        case 0x0a:
          push(T.op('exp', pop(), pop()));
          continue;
        case 0x0b:
          push(T.op('signextend', pop(), pop()));
          continue;
        case 0x10:
          push(T.op('lt', pop(), pop()));
          continue;
        case 0x11:
          push(T.op('gt', pop(), pop()));
          continue;
        case 0x12:
          push(T.op('slt', pop(), pop()));
          continue;
        case 0x13:
          push(T.op('sgt', pop(), pop()));
          continue;
        case 0x14:
          push(T.op('eq', pop(), pop()));
          continue;
        case 0x15:
          push(T.op('iszero', pop()));
          continue;
        case 0x16:
          push(T.op('and', pop(), pop()));
          continue;
        case 0x17:
          push(T.op('or', pop(), pop()));
          continue;
        case 0x18:
          push(T.op('xor', pop(), pop()));
          continue;
        case 0x19:
          push(T.op('not', pop()));
          continue;
        case 0x1a:
          push(T.op('byte', pop(), pop()));
          continue;
        case 0x1b:
          push(T.op('shl', pop(), pop()));
          continue;
        case 0x1c:
          push(T.op('shr', pop(), pop()));
          continue;
        case 0x1d:
          push(T.op('sar', pop(), pop()));
          continue;
        case 0x20: {
          // SHA3
          const o = concrete(pop(), 'hash offset');
          const l = concrete(pop(), 'hash length');
          if (o === null || l === null || l > 2048) {
            push(this.v('hash'));
            continue;
          }
          touch(o, l);
          const bytes = memRead(o, l);
          if (bytes.every((x) => x.kind === 'const')) {
            const buf = Uint8Array.from(bytes.map((x) => Number(x.value! & 0xffn)));
            const hex = Buffer.from(buf).toString('hex');
            const value = BigInt('0x' + Buffer.from(keccak_256(buf)).toString('hex'));
            if (l > 0) this.solver.knownHash(l, BigInt('0x' + hex), value);
            push(T.c(value));
          } else if (l % 32 === 0) {
            const words: Term[] = [];
            for (let k = 0; k < l; k += 32) words.push(T.op('join', ...bytes.slice(k, k + 32)));
            push(T.sha3(l, words));
          } else push(T.sha3(l, bytes));
          continue;
        }
        case 0x30:
          push(T.c(THIS_ADDRESS));
          continue;
        case 0x31: {
          // BALANCE: this contract's is tracked, others' are unknown
          const a = T.op('and', pop(), T.c(ADDR_MASK));
          if (a.kind === 'const' && a.value === THIS_ADDRESS) {
            push(s.balance);
            continue;
          }
          const v = this.v('balance');
          s.cons.push(T.op('lt', v, T.c(1n << 100n)));
          push(v);
          continue;
        }
        case 0x32:
          push(which === 'creation' ? T.c(CREATOR) : s.tx.caller);
          continue; // ORIGIN: the attacker sends from an EOA
        case 0x33:
          push(s.tx.caller);
          continue;
        case 0x34:
          push(s.tx.callvalue);
          continue;
        case 0x35: {
          // CALLDATALOAD
          const off = pop();
          push(s.tx.cds.kind === 'const' && s.tx.cds.value === 0n ? T.c(0) : T.op('cdload', s.tx.cd, off));
          continue;
        }
        case 0x36:
          push(s.tx.cds);
          continue;
        case 0x37: {
          // CALLDATACOPY
          const d = concrete(pop(), 'calldatacopy destination');
          const src = pop();
          const l = concrete(pop(), 'calldatacopy length');
          if (d === null || l === null || l > 4096) continue;
          for (let i = 0; i < l; i++) s.mem.set(d + i, T.op('cdbyte', s.tx.cd, T.op('add', src, T.c(i))));
          touch(d, l);
          continue;
        }
        case 0x38:
          push(T.c(which === 'creation' ? codeLen! + 32 * this.ctorWords.length : b.length));
          continue;
        case 0x39: {
          // CODECOPY
          const d = concrete(pop(), 'codecopy destination');
          const src = concrete(pop(), 'codecopy source');
          const l = concrete(pop(), 'codecopy length');
          if (d === null || l === null || l > 0x8000) continue;
          if (src === null) {
            freshBytes(d, l, 'code');
            continue;
          }
          for (let i = 0; i < l; i++) {
            const at = src + i;
            if (at < b.length) s.mem.set(d + i, T.c(b[at]));
            else if (which === 'creation' && at - b.length < 32 * this.ctorWords.length) {
              const k = Math.floor((at - b.length) / 32);
              s.mem.set(d + i, T.op('getbyte', this.ctorWords[k], T.c((at - b.length) % 32)));
            } else s.mem.set(d + i, T.c(0));
          }
          touch(d, l);
          continue;
        }
        case 0x3a: {
          const v = this.v('gasprice');
          s.cons.push(T.op('lt', v, T.c(1n << 80n)));
          push(v);
          continue;
        }
        case 0x3b: {
          pop();
          const v = this.v('extcodesize');
          s.cons.push(T.op('lt', v, T.c(1n << 32n)));
          push(v);
          continue;
        }
        case 0x3c: {
          pop();
          const d = concrete(pop(), 'extcodecopy destination');
          pop();
          const l = concrete(pop(), 'extcodecopy length');
          freshBytes(d, l, 'extcode');
          continue;
        }
        case 0x3d: {
          const v = this.v('retsize');
          s.cons.push(T.op('lt', v, T.c(1n << 32n)));
          push(v);
          continue;
        }
        case 0x3e: {
          const d = concrete(pop(), 'returndatacopy destination');
          pop();
          const l = concrete(pop(), 'returndatacopy length');
          freshBytes(d, l, 'ret');
          continue;
        }
        case 0x3f:
          pop();
          push(this.v('extcodehash'));
          continue;
        case 0x40:
          pop();
          push(this.v('blockhash'));
          continue;
        case 0x41:
          push(T.c(COINBASE));
          continue;
        case 0x42:
          push(s.tx.timestamp);
          continue;
        case 0x43:
          push(s.tx.number);
          continue;
        case 0x44:
          push(T.c(PREVRANDAO));
          continue;
        case 0x45:
          push(T.c(BLOCK_GAS_LIMIT));
          continue;
        case 0x46:
          push(T.c(CHAIN_ID));
          continue;
        case 0x48:
          push(T.c(0));
          continue; // basefee
        case 0x4a:
          push(T.c(1));
          continue; // blob base fee
        case 0x47:
          push(s.balance);
          continue;
        case 0x49:
          pop();
          push(this.v('blobhash'));
          continue;
        case 0x50:
          pop();
          continue;
        case 0x51: {
          // MLOAD
          const o = concrete(pop(), 'memory offset');
          if (o === null) {
            push(this.v('mload'));
            continue;
          }
          touch(o, 32);
          push(T.op('join', ...memRead(o, 32)));
          continue;
        }
        case 0x52: {
          // MSTORE
          const o = concrete(pop(), 'memory offset');
          const v = pop();
          if (o !== null) mstore(o, v);
          continue;
        }
        case 0x53: {
          // MSTORE8
          const o = concrete(pop(), 'memory offset');
          const v = pop();
          if (o !== null) {
            s.mem.set(o, T.op('and', v, T.c(0xff)));
            touch(o, 1);
          }
          continue;
        }
        case 0x54:
          push(T.op('sload', s.storage, pop()));
          continue;
        case 0x55: {
          // SSTORE
          const k = pop();
          const v = pop();
          s.storage = T.op('sstore', s.storage, k, v);
          if (which === 'runtime') this.overflowSinks(s, v);
          continue;
        }
        case 0x56: {
          // JUMP
          const d = pop();
          if (d.kind !== 'const') {
            this.note('jump to a computed (symbolic) target: path dropped');
            return;
          }
          const to = Number(d.value);
          if (!code.jumpdests.has(to)) return; // invalid jump: the transaction reverts (solc < 0.4.10 throw)
          s.pc = to;
          continue;
        }
        case 0x57: {
          // JUMPI
          const d = pop();
          const cond = pop();
          if (d.kind !== 'const') {
            this.note('conditional jump to a symbolic target: path dropped');
            return;
          }
          const to = Number(d.value);
          if (cond.kind === 'const') {
            if (cond.value !== 0n) {
              if (!code.jumpdests.has(to)) return;
              s.pc = to;
            }
            continue;
          }
          const n = (s.jumpiCount.get(pc) ?? 0) + 1;
          if (n > this.limits.loopBound) {
            this.note(`loop bound (${this.limits.loopBound} iterations) reached`);
            return;
          }
          s.jumpiCount.set(pc, n);
          const notCond = T.op('iszero', cond);
          const takeOk = code.jumpdests.has(to) && (await this.sat([...s.cons, cond]));
          const fallOk = takeOk ? await this.sat([...s.cons, notCond]) : true;
          if (takeOk && fallOk) {
            const other = this.fork(s);
            other.cons.push(notCond);
            work.push(other);
            s.cons.push(cond);
            s.pc = to;
          } else if (takeOk) {
            s.cons.push(cond);
            s.pc = to;
          } else {
            if (!code.jumpdests.has(to)) {
              // The jump side is invalid; only the fall-through can continue.
            }
            s.cons.push(notCond);
          }
          continue;
        }
        case 0x58:
          push(T.c(pc));
          continue;
        case 0x59:
          push(T.c(s.msize));
          continue;
        case 0x5a: {
          const v = this.v('gas');
          s.cons.push(T.op('lt', v, T.c(1n << 64n)));
          push(v);
          continue;
        }
        case 0x5b:
          continue;
        case 0x5c:
          pop();
          push(this.v('tload'));
          continue;
        case 0x5d:
          pop();
          pop();
          continue;
        case 0x5e: {
          // MCOPY
          const d = concrete(pop(), 'mcopy destination');
          const src = concrete(pop(), 'mcopy source');
          const l = concrete(pop(), 'mcopy length');
          if (d === null || src === null || l === null || l > 4096) continue;
          const bytes = memRead(src, l);
          bytes.forEach((x, i) => s.mem.set(d + i, x));
          touch(d, l);
          continue;
        }
        case 0x5f:
          push(T.c(0));
          continue;
        case 0xf0:
        case 0xf5: {
          // CREATE, CREATE2
          pop();
          pop();
          pop();
          if (op === 0xf5) pop();
          push(T.op('and', this.v('created'), T.c(ADDR_MASK)));
          continue;
        }
        case 0xf1:
        case 0xf2: {
          // CALL, CALLCODE
          pop();
          const to = pop();
          const value = pop();
          pop();
          pop();
          const oo = concrete(pop(), 'call output offset');
          const ol = concrete(pop(), 'call output length');
          const ok = T.op('lt', this.v('callok'), T.c(2));
          if (!(value.kind === 'const' && value.value === 0n)) {
            // A call sending more than the balance fails; one that succeeds takes the value out.
            s.cons.push(T.op('or', T.op('iszero', T.op('gt', value, s.balance)), T.op('iszero', ok)));
            if (op === 0xf1) s.balance = T.op('sub', s.balance, T.op('mul', value, ok));
          }
          if (which === 'runtime' && !(value.kind === 'const' && value.value === 0n)) {
            const toAddr = T.op('and', to, T.c(ADDR_MASK));
            s.potentials.push({
              kind: 'ether',
              pc,
              // A successful payment to the attacker (an address it passes in is its own) of
              // more than it ever paid in.
              conds: [T.op('gt', value, s.sumValue), T.op('eq', toAddr, s.tx.caller), ok],
              detail: { to: toAddr, value },
            });
          }
          freshBytes(oo, ol, 'ret');
          push(ok);
          continue;
        }
        case 0xf4:
        case 0xfa: {
          // DELEGATECALL, STATICCALL
          pop();
          const to = pop();
          pop();
          pop();
          const oo = concrete(pop(), 'call output offset');
          const ol = concrete(pop(), 'call output length');
          if (op === 0xf4 && which === 'runtime') {
            const toAddr = T.op('and', to, T.c(ADDR_MASK));
            s.potentials.push({ kind: 'delegatecall', pc, conds: [T.op('eq', toAddr, T.c(ATTACKER_TARGET))], detail: { to: toAddr } });
            // The callee can write any storage slot.
            s.storage = T.v(`storage_after_delegatecall_${this.fresh++}`, 'st');
            s.havoc = true;
          }
          freshBytes(oo, ol, 'ret');
          push(T.op('lt', this.v('callok'), T.c(2)));
          continue;
        }
        case 0xf3: {
          // RETURN
          const o = concrete(pop(), 'return offset');
          const l = concrete(pop(), 'return length');
          await this.settle(s);
          return onEnd(s, o !== null && l !== null ? { off: o, len: l } : null);
        }
        case 0xfd: {
          // REVERT: only Panic(0x01) (a failed assert in solc >= 0.8) matters
          const o = concrete(pop(), 'revert offset');
          const l = concrete(pop(), 'revert length');
          if (which === 'runtime' && o !== null && l === 36) {
            const sel = T.op('join', ...memRead(o, 4), ...Array(28).fill(T.c(0)));
            const code = T.op('join', ...memRead(o + 4, 32));
            if (sel.kind === 'const' && sel.value === 0x4e487b71n << 224n && code.kind === 'const' && code.value === 1n) {
              await this.prove(s, 'assert', pc, [], {});
            }
          }
          return;
        }
        case 0xfe: // INVALID: solc < 0.8 compiles assert (and out-of-bounds, division by zero) to it
          if (which === 'runtime') await this.prove(s, 'assert', pc, [], {});
          return;
        case 0xff: {
          // SELFDESTRUCT
          const to = pop();
          if (which === 'runtime') await this.prove(s, 'selfdestruct', pc, [], { beneficiary: T.op('and', to, T.c(ADDR_MASK)) });
          return;
        }
        default:
          return; // undefined opcode: the transaction fails
      }
    }
  }

  /** Wrapping arithmetic in a value written to storage becomes a sink checked at the end. */
  private overflowSinks(s: State, v: Term) {
    const T = this.T;
    const stack = [v];
    const seen = new Set<number>();
    while (stack.length && seen.size < 200) {
      const t = stack.pop()!;
      if (seen.has(t.id) || t.kind !== 'op' || t.op === 'sha3' || t.op === 'sload') continue;
      seen.add(t.id);
      const info = this.arithPc.get(t.id);
      if (info && (info.a.kind !== 'const' || info.b.kind !== 'const')) {
        // Values from external calls' return data are not the caller's to choose.
        const names = varsOf(t, 500);
        if (![...names].some((n) => /^(ret|retsize|callok|extcode|hash|mload|exp|balance|selfbalance|gas|deep)_/.test(n))) {
          const { a, b } = info;
          const conds =
            info.op === 'add'
              ? [T.op('lt', t, a)]
              : info.op === 'sub'
                ? [T.op('lt', a, b)]
                : [a, T.op('iszero', T.op('eq', T.op('div', t, a), b))];
          s.potentials.push({ kind: 'overflow', pc: info.pc, conds, detail: { op: info.op } });
        }
      }
      for (const x of t.args ?? []) stack.push(x);
    }
  }
}

export { MASK };
