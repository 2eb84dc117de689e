// Per-call step tracer. One pass over the EVM's step events records everything the property
// checks need, so a call is executed once:
// - coverage (program counters per code address);
// - arithmetic wrap-around that reaches storage: ADD/SUB/MUL whose 256-bit result wrapped, or a
//   fresh arithmetic result truncated by a narrow-type mask (uint8..uint248), tracked through the
//   stack by a shadow stack of taint marks until an SSTORE stores it. Wraps that are checked and
//   reverted (SafeMath, require) never count, because only successful calls are used;
// - access checks: an EQ between msg.sender and a value just loaded from storage (the slot that
//   `require(msg.sender == owner)` reads);
// - writes of msg.sender into storage, payouts (CALL with value) to attacker accounts,
//   SELFDESTRUCT, INVALID (0.4-0.7 assert), Panic(uint256) reverts (0.8), reads of block values,
//   and whether the attacker contract re-entered a target.

const MASK160 = (1n << 160n) - 1n;
const TWO256 = 1n << 256n;
const PANIC_SELECTOR = '4e487b71';

/** [inputs, outputs] of the legacy opcodes that are not DUP/SWAP/PUSH. */
const IO: Record<number, [number, number]> = {
  0x00: [0, 0],
  0x01: [2, 1],
  0x02: [2, 1],
  0x03: [2, 1],
  0x04: [2, 1],
  0x05: [2, 1],
  0x06: [2, 1],
  0x07: [2, 1],
  0x08: [3, 1],
  0x09: [3, 1],
  0x0a: [2, 1],
  0x0b: [2, 1],
  0x10: [2, 1],
  0x11: [2, 1],
  0x12: [2, 1],
  0x13: [2, 1],
  0x14: [2, 1],
  0x15: [1, 1],
  0x16: [2, 1],
  0x17: [2, 1],
  0x18: [2, 1],
  0x19: [1, 1],
  0x1a: [2, 1],
  0x1b: [2, 1],
  0x1c: [2, 1],
  0x1d: [2, 1],
  0x20: [2, 1],
  0x30: [0, 1],
  0x31: [1, 1],
  0x32: [0, 1],
  0x33: [0, 1],
  0x34: [0, 1],
  0x35: [1, 1],
  0x36: [0, 1],
  0x37: [3, 0],
  0x38: [0, 1],
  0x39: [3, 0],
  0x3a: [0, 1],
  0x3b: [1, 1],
  0x3c: [4, 0],
  0x3d: [0, 1],
  0x3e: [3, 0],
  0x3f: [1, 1],
  0x40: [1, 1],
  0x41: [0, 1],
  0x42: [0, 1],
  0x43: [0, 1],
  0x44: [0, 1],
  0x45: [0, 1],
  0x46: [0, 1],
  0x47: [0, 1],
  0x48: [0, 1],
  0x49: [1, 1],
  0x4a: [0, 1],
  0x50: [1, 0],
  0x51: [1, 1],
  0x52: [2, 0],
  0x53: [2, 0],
  0x54: [1, 1],
  0x55: [2, 0],
  0x56: [1, 0],
  0x57: [2, 0],
  0x58: [0, 1],
  0x59: [0, 1],
  0x5a: [0, 1],
  0x5b: [0, 0],
  0x5c: [1, 1],
  0x5d: [2, 0],
  0x5e: [3, 0],
  0x5f: [0, 1],
  0xa0: [2, 0],
  0xa1: [3, 0],
  0xa2: [4, 0],
  0xa3: [5, 0],
  0xa4: [6, 0],
  0xf0: [3, 1],
  0xf1: [7, 1],
  0xf2: [7, 1],
  0xf3: [2, 0],
  0xf4: [6, 1],
  0xf5: [4, 1],
  0xfa: [6, 1],
  0xfd: [2, 0],
  0xfe: [0, 0],
  0xff: [1, 0],
};

/** Ops whose result is derived from their operands' values (a wrapped operand gives a wrapped result). */
const PROPAGATES = new Set([
  0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d,
]);

const ENV_OPS: Record<number, string> = { 0x40: 'BLOCKHASH', 0x41: 'COINBASE', 0x42: 'TIMESTAMP', 0x43: 'NUMBER', 0x44: 'PREVRANDAO' };

const NARROW_MASKS = new Set<bigint>();
for (let k = 8; k < 256; k += 8) NARROW_MASKS.add((1n << BigInt(k)) - 1n);

export interface Site {
  /** Address whose code ran (source maps are per code). */
  code: string;
  pc: number;
}

export interface CallTrace {
  success: boolean;
  /** Program counters executed (and branch directions, as negative keys), per code address. */
  coverage: Map<string, Set<number>>;
  wraps: Array<Site & { address: string; slot: bigint }>;
  authChecks: Array<{ address: string; slot: bigint; equal: boolean }>;
  callerWrites: Array<Site & { address: string; slot: bigint; caller: string }>;
  selfdestructs: Array<Site & { address: string; beneficiary: string }>;
  invalids: Site[];
  panics: Array<Site & { panic: number }>;
  payouts: Array<Site & { address: string; to: string; value: bigint }>;
  refuserCalls: Site[];
  reentered: boolean;
  envReads: Set<string>;
  /** Operands of comparisons in target code (inputs that flip a branch are often among them). */
  cmpValues: Set<bigint>;
  /** Deepest site in target code executed last before the call ended (for attributing a revert). */
  lastTargetSite: Site | null;
}

const FRAME = Symbol('vigil.frame');

/** The interpreter's per-frame run state (only the fields the tracer reads). */
export interface RunStateLike {
  programCounter: number;
  stack: { _len: number; _store: bigint[] };
  memory: { read(offset: number, size: number): Uint8Array };
  env: { address: object; codeAddress?: object; caller?: object; depth: number };
  [FRAME]?: Frame;
}

interface Frame {
  depth: number;
  address: string;
  code: string;
  caller: string;
  callerBig: bigint;
  target: boolean;
  known: boolean;
  shadow: number[];
  fresh: number[];
  sloads: Map<bigint, bigint>;
  pendingSload: bigint | null;
  cov: Set<number> | null;
}

export interface TracerConfig {
  /** Deployed contracts under test (storage addresses), lower-case. */
  targets: Set<string>;
  /** Addresses whose code has a source map (targets and linked libraries). */
  knownCode: Set<string>;
  attackers: Set<string>;
  attackerContract: string;
  refuser: string;
}

const hexCache = new WeakMap<object, string>();
function hexOf(a: { toString(): string }): string {
  let h = hexCache.get(a);
  if (!h) {
    h = a.toString().toLowerCase();
    hexCache.set(a, h);
  }
  return h;
}
const big2addr = (v: bigint) => '0x' + (v & MASK160).toString(16).padStart(40, '0');

export class StepTracer {
  private t: CallTrace;

  constructor(private cfg: TracerConfig) {
    this.t = {
      success: false,
      coverage: new Map(),
      wraps: [],
      authChecks: [],
      callerWrites: [],
      selfdestructs: [],
      invalids: [],
      panics: [],
      payouts: [],
      refuserCalls: [],
      reentered: false,
      envReads: new Set(),
      cmpValues: new Set(),
      lastTargetSite: null,
    };
  }

  private frameFor(rs: RunStateLike): Frame {
    let f = rs[FRAME];
    if (f) return f;
    const env = rs.env;
    const address = hexOf(env.address);
    // Init code run by CREATE has no code address of its own.
    const code = env.codeAddress ? hexOf(env.codeAddress) : address;
    const caller = env.caller ? hexOf(env.caller) : '0x0000000000000000000000000000000000000000';
    const known = this.cfg.knownCode.has(code);
    let cov: Set<number> | null = null;
    if (known) {
      cov = this.t.coverage.get(code) ?? new Set();
      this.t.coverage.set(code, cov);
    }
    f = {
      address,
      code,
      caller,
      callerBig: BigInt(caller),
      depth: env.depth,
      target: this.cfg.targets.has(address),
      known,
      shadow: [],
      fresh: [],
      sloads: new Map(),
      pendingSload: null,
      cov,
    };
    rs[FRAME] = f;
    return f;
  }

  /** Called by the interpreter before each opcode handler runs (stack not yet popped). */
  op(rs: RunStateLike, op: number): void {
    const f = this.frameFor(rs);
    const stack = rs.stack;
    const n: number = stack._len;
    const st: bigint[] = stack._store;
    const pc = rs.programCounter - 1;
    if (f.cov) {
      f.cov.add(pc);
      this.t.lastTargetSite = { code: f.code, pc };
    }
    // Keep the shadow stack aligned with the real one.
    const sh = f.shadow;
    const fr = f.fresh;
    if (sh.length !== n) {
      while (sh.length < n) {
        sh.unshift(0);
        fr.unshift(0);
      }
      if (sh.length > n) {
        sh.splice(0, sh.length - n);
        fr.splice(0, fr.length - n);
      }
    }
    if (f.pendingSload !== null) {
      if (n > 0) {
        if (f.sloads.size > 256) f.sloads.clear();
        f.sloads.set(st[n - 1] & MASK160, f.pendingSload);
      }
      f.pendingSload = null;
    }

    if (op >= 0x60 && op <= 0x7f) {
      sh.push(0);
      fr.push(0);
      return;
    }
    if (op >= 0x80 && op <= 0x8f) {
      const k = op - 0x7f;
      sh.push(sh[n - k] ?? 0);
      fr.push(fr[n - k] ?? 0);
      return;
    }
    if (op >= 0x90 && op <= 0x9f) {
      const k = op - 0x8f;
      const i = n - 1;
      const j = n - 1 - k;
      if (j >= 0) {
        [sh[i], sh[j]] = [sh[j], sh[i]];
        [fr[i], fr[j]] = [fr[j], fr[i]];
      }
      return;
    }
    let outTaint = 0;
    let outFresh = 0;
    switch (op) {
      case 0x01:
      case 0x02:
      case 0x03: {
        const a = st[n - 1];
        const b = st[n - 2];
        const wrapped = op === 0x01 ? a + b >= TWO256 : op === 0x02 ? a * b >= TWO256 : a < b;
        outTaint = wrapped && f.known ? pc + 1 : sh[n - 1] || sh[n - 2] || 0;
        outFresh = wrapped ? 0 : pc + 1;
        break;
      }
      case 0x16: {
        const a = st[n - 1];
        const b = st[n - 2];
        outTaint = sh[n - 1] || sh[n - 2] || 0;
        // A narrow integer (uintN, N < 256) wraps when a fresh arithmetic result is masked down.
        if (!outTaint && f.known) {
          if (NARROW_MASKS.has(a) && fr[n - 2] && b > a) outTaint = fr[n - 2];
          else if (NARROW_MASKS.has(b) && fr[n - 1] && a > b) outTaint = fr[n - 1];
        }
        break;
      }
      case 0x10:
      case 0x11:
      case 0x12:
      case 0x13:
        if (f.known && this.t.cmpValues.size < 64) {
          this.t.cmpValues.add(st[n - 1]);
          this.t.cmpValues.add(st[n - 2]);
        }
        break;
      case 0x57:
        // Branch direction counts as coverage too (negative keys: -(2*pc + taken) - 1).
        if (f.cov) f.cov.add(-(2 * pc + (st[n - 2] !== 0n ? 1 : 0)) - 1);
        break;
      case 0x14: {
        if (f.known && this.t.cmpValues.size < 64) {
          this.t.cmpValues.add(st[n - 1]);
          this.t.cmpValues.add(st[n - 2]);
        }
        if (f.target) {
          const a = st[n - 1];
          const b = st[n - 2];
          const other = a === f.callerBig ? b : b === f.callerBig ? a : null;
          if (other !== null) {
            const slot = f.sloads.get(other & MASK160);
            if (slot !== undefined) this.t.authChecks.push({ address: f.address, slot, equal: a === b });
          }
        }
        break;
      }
      case 0x54:
        f.pendingSload = st[n - 1];
        break;
      case 0x55: {
        if (f.target) {
          const slot = st[n - 1];
          const value = st[n - 2];
          if (sh[n - 2] && f.known) this.t.wraps.push({ code: f.code, pc: sh[n - 2] - 1, address: f.address, slot });
          if ((value & MASK160) === f.callerBig && f.callerBig !== 0n)
            this.t.callerWrites.push({ code: f.code, pc, address: f.address, slot, caller: f.caller });
        }
        break;
      }
      case 0xf1:
      case 0xf2: {
        const to = big2addr(st[n - 2]);
        const value = st[n - 3];
        if (f.target) {
          if (value > 0n && this.cfg.attackers.has(to)) this.t.payouts.push({ code: f.code, pc, address: f.address, to, value });
          if (to === this.cfg.refuser) this.t.refuserCalls.push({ code: f.code, pc });
        }
        if (f.address === this.cfg.attackerContract && f.depth >= 1 && this.cfg.targets.has(to)) this.t.reentered = true;
        break;
      }
      case 0xff:
        if (f.target) this.t.selfdestructs.push({ code: f.code, pc, address: f.address, beneficiary: big2addr(st[n - 1]) });
        break;
      case 0xfd: {
        const off = st[n - 1];
        const len = st[n - 2];
        const err = f.known && len >= 36n && len <= 1024n && off < 1n << 32n ? rs.memory.read(Number(off), Number(len)) : null;
        if (err && Buffer.from(err.subarray(0, 4)).toString('hex') === PANIC_SELECTOR) {
          this.t.panics.push({ code: f.code, pc, panic: err[35] });
        }
        break;
      }
      default:
        if (f.target && ENV_OPS[op]) this.t.envReads.add(ENV_OPS[op]);
    }
    const io = IO[op];
    if (!io) return;
    const [ins, outs] = io;
    if (outs === 1 && !outTaint && PROPAGATES.has(op) && op !== 0x01 && op !== 0x02 && op !== 0x03) {
      for (let i = 1; i <= ins; i++) if (sh[n - i]) outTaint = sh[n - i];
    }
    sh.length = Math.max(0, n - ins);
    fr.length = sh.length;
    if (outs === 1) {
      sh.push(outTaint);
      fr.push(outFresh);
    }
  }

  /** A frame ended on an INVALID opcode (the interpreter throws before any handler runs). */
  invalid(codeAddress: { toString(): string }, pc: number): void {
    const code = hexOf(codeAddress);
    if (this.cfg.knownCode.has(code)) this.t.invalids.push({ code, pc });
  }

  finish(success: boolean): CallTrace {
    this.t.success = success;
    return this.t;
  }
}
