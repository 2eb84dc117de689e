// Input generation for the fuzzer: typed ABI arguments biased towards values that break code
// (0, 1, type bounds, ether amounts, the actors' and contracts' addresses, constants pushed by
// the bytecode), senders among the owner, a user and three attacker identities, msg.value and
// clock jumps; plus the mutations applied to sequences kept for new coverage.
import { ACTORS, ETHER, type Role } from '../evm/chain.ts';
import type { AbiParam, AbiValue } from '../evm/abi.ts';
import type { TxSpec } from '../evm/exec.ts';
import type { World } from '../evm/world.ts';

/** Small deterministic PRNG (mulberry32), seeded per source so runs are reproducible. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    let t = (this.s += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  bigBits(bits: number): bigint {
    let v = 0n;
    for (let i = 0; i < bits; i += 32) v = (v << 32n) | BigInt((this.next() * 4294967296) >>> 0);
    return v & ((1n << BigInt(bits)) - 1n);
  }
}

const ROLES: Role[] = ['attacker', 'attacker_contract', 'attacker_contract', 'refuser_contract', 'user', 'owner'];
const ATTACKERS: Role[] = ['attacker', 'attacker_contract', 'refuser_contract'];
const TIME_JUMPS = [0, 1, 12, 15, 60, 3600, 86_400, 7 * 86_400, 31 * 86_400, 366 * 86_400];

export class Generator {
  /** Weight per [target][fn]: functions named by earlier layers' findings come up more often. */
  private weights: number[][];
  private total: number;

  /** Constants of the bytecode plus operands seen in comparisons while fuzzing. */
  readonly dictionary: bigint[];

  constructor(
    private world: World,
    private rng: Rng,
    priorFunctions: Set<string>,
  ) {
    this.dictionary = [...world.program.dictionary];
    // Read-only functions only matter for asserts: called, but rarely.
    this.weights = world.targets.map((t) => t.contract.fns.map((f) => (priorFunctions.has(f.name) ? 4 : 1) * (f.readOnly ? 0.5 : 1)));
    this.total = this.weights.flat().reduce((a, b) => a + b, 0);
  }

  learn(values: Iterable<bigint>): void {
    for (const v of values) {
      if (v <= 2n || this.dictionary.includes(v)) continue;
      if (this.dictionary.length >= 256) this.dictionary.splice(this.rng.int(this.dictionary.length), 1);
      this.dictionary.push(v);
    }
  }

  get empty(): boolean {
    return this.total === 0;
  }

  pickFn(): { target: number; fn: number } {
    let r = this.rng.next() * this.total;
    for (let t = 0; t < this.weights.length; t++) {
      for (let f = 0; f < this.weights[t].length; f++) {
        r -= this.weights[t][f];
        if (r < 0) return { target: t, fn: f };
      }
    }
    return { target: 0, fn: 0 };
  }

  addressesFor(role: Role): string[] {
    const base = [ACTORS.owner, ACTORS.user, ...this.world.targets.map((t) => t.address), '0x0000000000000000000000000000000000000000'];
    // Only the attacker names the attacker's accounts: a user paying the attacker is not theft.
    return ATTACKERS.includes(role)
      ? [ACTORS.attacker, this.world.attackerContract, this.world.attackerContract, this.world.refuser, ...base]
      : base;
  }

  value(p: AbiParam, role: Role, depth = 0): AbiValue {
    const rng = this.rng;
    const t = p.type;
    const arr = /^(.*)\[(\d*)\]$/.exec(t);
    if (arr) {
      const n = arr[2] === '' ? rng.pick([0, 1, 1, 2, 3]) : Number(arr[2]);
      return Array.from({ length: Math.min(n, 8) }, () => this.value({ ...p, type: arr[1] }, role, depth + 1));
    }
    if (t === 'tuple') return (p.components ?? []).map((c) => this.value(c, role, depth + 1));
    if (t === 'address') return rng.pick(this.addressesFor(role));
    if (t === 'bool') return rng.chance(0.5);
    if (t === 'string') return rng.pick(['', 'a', 'vigil', 'x'.repeat(40)]);
    if (t === 'bytes')
      return '0x' + Array.from({ length: rng.pick([0, 1, 4, 32, 33]) }, () => rng.int(256).toString(16).padStart(2, '0')).join('');
    const bn = /^bytes(\d+)$/.exec(t);
    if (bn) {
      const n = Number(bn[1]);
      if (rng.chance(0.3)) return '0x' + '00'.repeat(n);
      if (rng.chance(0.2) && this.dictionary.length)
        return '0x' + (rng.pick(this.dictionary) & ((1n << BigInt(8 * n)) - 1n)).toString(16).padStart(n * 2, '0');
      return (
        '0x' +
        rng
          .bigBits(8 * n)
          .toString(16)
          .padStart(n * 2, '0')
      );
    }
    const m = /^(u?)int(\d*)$/.exec(t);
    if (m) {
      const bits = Number(m[2] || 256);
      const signed = m[1] === '';
      const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
      const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
      const choices: Array<() => bigint> = [
        () => 0n,
        () => 1n,
        () => 2n,
        () => BigInt(rng.int(100)),
        () => ETHER,
        () => ETHER / 10n,
        () => BigInt(rng.int(20) + 1) * ETHER,
        () => max,
        () => max - 1n,
        () => max / 2n + 1n,
        () => (signed ? min : 1n << BigInt(bits - 1)),
        () => (signed ? -1n : rng.bigBits(bits)),
        () => (this.dictionary.length ? rng.pick(this.dictionary) : 3n),
        () => (this.dictionary.length ? rng.pick(this.dictionary) : 3n),
        () => (this.dictionary.length ? rng.pick(this.dictionary) : 3n),
        () => (this.dictionary.length ? rng.pick(this.dictionary) + BigInt(rng.int(3)) - 1n : 3n),
        () => BigInt(Math.floor(Date.now() / 1000)) + BigInt(rng.int(1e6)),
      ];
      let v = rng.pick(choices)();
      if (v > max) v = v & max;
      if (v < min) v = min;
      return v.toString();
    }
    return '0';
  }

  valueFor(payable: boolean): string {
    if (!payable) return '0';
    return this.rng.pick([0n, 1n, ETHER / 10n, ETHER, ETHER, 2n * ETHER, 10n * ETHER, 30n * ETHER]).toString();
  }

  randomTx(role?: Role): TxSpec {
    const { target, fn } = this.pickFn();
    const r = role ?? this.rng.pick(ROLES);
    const f = this.world.targets[target].contract.fns[fn];
    return {
      role: r,
      target,
      fn,
      args: (f.entry.inputs ?? []).map((p) => this.value(p, r)),
      value: this.valueFor(f.payable),
      dt: this.rng.chance(0.7) ? this.rng.pick([1, 12, 15]) : this.rng.pick(TIME_JUMPS),
      reenter: this.rng.chance(0.75) ? 1 : 0,
    };
  }

  randomSequence(): TxSpec[] {
    const n = 1 + this.rng.int(4);
    return Array.from({ length: n }, () => this.randomTx());
  }

  /** Structured starting points: each function called by the attacker contract, and "pay in, then call" pairs. */
  seeds(): TxSpec[][] {
    const out: TxSpec[][] = [];
    this.world.targets.forEach((t, ti) => {
      const payables = t.contract.fns.map((f, i) => ({ f, i })).filter((x) => x.f.payable);
      t.contract.fns.forEach((f, fi) => {
        if (f.readOnly) return;
        const call = (role: Role): TxSpec => ({
          role,
          target: ti,
          fn: fi,
          args: (f.entry.inputs ?? []).map((p) => this.amountBiased(p, role)),
          value: f.payable ? ETHER.toString() : '0',
          dt: 12,
          reenter: 1,
        });
        out.push([call('attacker_contract')]);
        out.push([call('attacker')]);
        for (const p of payables) {
          if (p.i === fi) continue;
          const pay: TxSpec = {
            role: 'attacker_contract',
            target: ti,
            fn: p.i,
            args: (p.f.entry.inputs ?? []).map((q) => this.amountBiased(q, 'attacker_contract')),
            value: ETHER.toString(),
            dt: 12,
            reenter: 1,
          };
          out.push([pay, call('attacker_contract')]);
        }
        if (f.payable) out.push([{ ...call('refuser_contract'), value: ETHER.toString() }]);
      });
    });
    return out;
  }

  /** Like value(), but integers are one ether and addresses the sender's own, as a plain deposit/withdraw would use. */
  private amountBiased(p: AbiParam, role: Role): AbiValue {
    if (/^uint\d*$/.test(p.type)) return ETHER.toString();
    if (p.type === 'address') return role === 'attacker_contract' ? this.world.attackerContract : ACTORS.attacker;
    return this.value(p, role);
  }

  mutate(seq: TxSpec[], corpus: TxSpec[][]): TxSpec[] {
    const rng = this.rng;
    let out = seq.map((s) => ({ ...s, args: [...s.args] }));
    const rounds = 1 + rng.int(3);
    for (let k = 0; k < rounds; k++) {
      const i = rng.int(out.length);
      const tx = out[i];
      const f = this.world.targets[tx.target].contract.fns[tx.fn];
      switch (rng.int(9)) {
        case 0:
        case 1: {
          const inputs = f.entry.inputs ?? [];
          if (inputs.length) {
            const j = rng.int(inputs.length);
            tx.args[j] = this.value(inputs[j], tx.role);
          } else tx.value = this.valueFor(f.payable);
          break;
        }
        case 2:
          tx.role = rng.pick(ROLES);
          tx.args = (f.entry.inputs ?? []).map((p, j) => (p.type.includes('address') ? this.value(p, tx.role) : tx.args[j]));
          break;
        case 3:
          tx.value = this.valueFor(f.payable);
          break;
        case 4:
          tx.dt = rng.pick(TIME_JUMPS);
          break;
        case 5:
          if (out.length < 8) out.splice(rng.int(out.length + 1), 0, this.randomTx());
          break;
        case 6:
          if (out.length > 1) out.splice(i, 1);
          break;
        case 7:
          if (out.length < 8) out.splice(i, 0, { ...tx, args: [...tx.args] });
          break;
        case 8: {
          const other = corpus.length ? rng.pick(corpus) : null;
          if (other)
            out = [
              ...out.slice(0, 1 + rng.int(out.length)),
              ...other.slice(rng.int(other.length)).map((s) => ({ ...s, args: [...s.args] })),
            ].slice(0, 8);
          break;
        }
      }
      tx.reenter = rng.chance(0.75) ? 1 : 0;
    }
    return out;
  }
}
