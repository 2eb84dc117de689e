// Running one transaction of a sequence, and the property monitor that watches a sequence.
// The fuzzer and the replay share both, so a replay judges a sequence exactly as the fuzzer did.
import { ACTORS, ATTACKER_ROLES, type BlockEnv, type CallOutcome, type Chain, type Role } from './chain.ts';
import { ATTACKER_FORWARD_ABI, REFUSER_FORWARD_ABI } from './actors.ts';
import { decodeWord, encodeCall, toHex, type AbiValue } from './abi.ts';
import { StepTracer, type CallTrace, type Site } from './trace.ts';
import { calldataFor, CALL_GAS, type World } from './world.ts';

export type Property =
  'ether_drained' | 'owner_changed' | 'selfdestruct' | 'assertion_failure' | 'arithmetic_wrap' | 'denial_of_service' | 'invariant_broken';

export interface TxSpec {
  role: Role;
  /** Index into world.targets. */
  target: number;
  /** Index into the target's fns. */
  fn: number;
  args: AbiValue[];
  /** Wei, decimal. */
  value: string;
  /** Seconds the clock moves forward before this transaction. */
  dt: number;
  /** Times the attacker contract re-enters the target when paid (attacker_contract only). */
  reenter: number;
  /** A probe that must revert (denial of service): only in findings' sequences. */
  expectRevert?: boolean;
}

export interface TxRun {
  spec: TxSpec;
  from: string;
  /** The account the target sees as msg.sender. */
  sender: string;
  to: string;
  data: Uint8Array;
  block: BlockEnv;
  outcome: CallOutcome;
  trace: CallTrace;
}

export function senderOf(world: World, role: Role): string {
  if (role === 'attacker_contract') return world.attackerContract;
  if (role === 'refuser_contract') return world.refuser;
  return ACTORS[role];
}

export function tracerConfig(world: World) {
  const targets = new Set(world.targets.map((t) => t.address));
  return {
    targets,
    knownCode: new Set([...targets, ...Object.values(world.libraries)]),
    attackers: new Set([ACTORS.attacker, world.attackerContract, world.refuser]),
    attackerContract: world.attackerContract,
    refuser: world.refuser,
  };
}

export async function runTx(chain: Chain, world: World, spec: TxSpec, block: BlockEnv, cfg = tracerConfig(world)): Promise<TxRun> {
  const t = world.targets[spec.target];
  const fn = t.contract.fns[spec.fn];
  const inner = calldataFor(fn, spec.args);
  const value = BigInt(spec.value);
  let from: string;
  let to: string;
  let data: Uint8Array;
  if (spec.role === 'attacker_contract') {
    from = ACTORS.attacker;
    to = world.attackerContract;
    data = encodeCall(ATTACKER_FORWARD_ABI, [t.address, toHex(inner), String(spec.reenter)]);
  } else if (spec.role === 'refuser_contract') {
    from = ACTORS.attacker;
    to = world.refuser;
    data = encodeCall(REFUSER_FORWARD_ABI, [t.address, toHex(inner)]);
  } else {
    from = ACTORS[spec.role];
    to = t.address;
    data = inner;
  }
  const tracer = new StepTracer(cfg);
  const outcome = await chain.call({ from, to, data, value, gasLimit: CALL_GAS, block }, tracer);
  return { spec, from, sender: senderOf(world, spec.role), to: t.address, data: inner, block, outcome, trace: outcome.trace! };
}

export interface Violation {
  property: Property;
  /** Index of the transaction that broke the property. */
  index: number;
  site: Site | null;
  observed: string;
  /** Property-specific facts the replay checks again. */
  details: Record<string, string | number | boolean>;
}

/** A write of msg.sender into storage by a stranger; an owner change once the slot is shown to guard access. */
export interface OwnerCandidate {
  index: number;
  address: string;
  slot: bigint;
  caller: string;
  site: Site;
  /** Account whose address an earlier transaction of the sequence wrote to this slot (null: none did). */
  prev: string | null;
}

const fmtEther = (wei: bigint) => {
  const neg = wei < 0n;
  const w = neg ? -wei : wei;
  const s = `${w / 10n ** 18n}.${(w % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '') || '0'}`;
  return `${neg ? '-' : ''}${s} ether`;
};

/**
 * Watches one sequence from the deployed state: ether the attacker roles take out, storage
 * writes of a stranger's address, selfdestruct, assertion failures, wraps into storage and the
 * user's echidna_/invariant_ functions. Checks that need the owner's innocence stop counting once
 * the owner acted in the sequence (the owner may legitimately pay or appoint anyone).
 */
export class SequenceMonitor {
  private ownerActed = false;
  /** Last account whose address a transaction of this sequence wrote into each slot. */
  private lastWriter = new Map<string, string>();
  private attackerNet = 0n;
  readonly candidates: OwnerCandidate[] = [];
  readonly authFailures: Array<{ address: string; slot: bigint }> = [];
  private wealthOf: () => Promise<bigint>;

  constructor(
    private chain: Chain,
    private world: World,
  ) {
    const who = [ACTORS.attacker, world.attackerContract, world.refuser];
    this.wealthOf = async () => {
      let s = 0n;
      for (const a of who) s += await chain.balance(a);
      return s;
    };
  }

  async wealth(): Promise<bigint> {
    return this.wealthOf();
  }

  /** Runs the transaction and returns the properties it broke. */
  async step(
    spec: TxSpec,
    index: number,
    block: BlockEnv,
    cfg: ReturnType<typeof tracerConfig>,
  ): Promise<{ run: TxRun; violations: Violation[] }> {
    const attackerTx = ATTACKER_ROLES.includes(spec.role);
    const before = attackerTx ? await this.wealthOf() : 0n;
    const run = await runTx(this.chain, this.world, spec, block, cfg);
    const { trace, outcome } = run;
    const v: Violation[] = [];
    if (spec.role === 'owner') this.ownerActed = true;
    const stranger = spec.role !== 'owner' && !this.ownerActed;

    if (attackerTx) {
      const after = await this.wealthOf();
      this.attackerNet += after - before;
      if (this.attackerNet > 0n && after > before && stranger) {
        const pay = trace.payouts[0] ?? null;
        const sd = trace.selfdestructs.find((s) => s.beneficiary === run.sender || s.beneficiary === ACTORS.attacker) ?? null;
        v.push({
          property: 'ether_drained',
          index,
          site: pay ? { code: pay.code, pc: pay.pc } : sd ? { code: sd.code, pc: sd.pc } : trace.lastTargetSite,
          observed: `the attacker's accounts ended ${fmtEther(this.attackerNet)} richer than they started (ether sent by the attacker counted against it); this transaction paid them ${fmtEther(after - before)} net`,
          details: { gain_wei: this.attackerNet.toString(), reentered: trace.reentered, env_reads: [...trace.envReads].join(',') },
        });
      }
    }
    if (!outcome.ok) {
      for (const a of trace.authChecks) if (!a.equal) this.authFailures.push({ address: a.address, slot: a.slot });
    }
    if (outcome.ok && stranger) {
      for (const w of trace.callerWrites)
        this.candidates.push({
          index,
          address: w.address,
          slot: w.slot,
          caller: w.caller,
          site: { code: w.code, pc: w.pc },
          prev: this.lastWriter.get(`${w.address}:${w.slot}`) ?? null,
        });
      for (const s of trace.selfdestructs) {
        v.push({
          property: 'selfdestruct',
          index,
          site: { code: s.code, pc: s.pc },
          observed: `${ROLE_NAMES[spec.role]} (not the owner) made ${this.world.mapper.contractAt(s.code)?.name ?? 'the contract'} at ${s.address} execute SELFDESTRUCT, sending its ether to ${s.beneficiary}`,
          details: { address: s.address },
        });
      }
    }
    if (outcome.ok) for (const w of trace.callerWrites) this.lastWriter.set(`${w.address}:${w.slot}`, w.caller);
    if (outcome.ok && this.world.program.uncheckedArithmetic) {
      const seen = new Set<string>();
      for (const w of trace.wraps) {
        const k = `${w.code}:${w.pc}`;
        if (seen.has(k)) continue;
        seen.add(k);
        const site = this.world.mapper.resolve(w.code, w.pc);
        if (!site || !/[-+*]/.test(site.snippet)) continue; // compiler-generated arithmetic, not the user's
        v.push({
          property: 'arithmetic_wrap',
          index,
          site: { code: w.code, pc: w.pc },
          observed: `\`${oneLineSnippet(site.snippet)}\` wrapped around modulo 2^256 (or its integer type's width) and the wrapped value was written to storage slot ${hexSlot(w.slot)} of ${w.address}; the call succeeded`,
          details: { slot: hexSlot(w.slot), address: w.address },
        });
      }
    }
    for (const inv of trace.invalids) {
      const site = this.world.mapper.resolve(inv.code, inv.pc);
      if (!site || !/\bassert\s*\(/.test(site.snippet) || isGuardAssert(this.world, site)) continue;
      v.push({
        property: 'assertion_failure',
        index,
        site: inv,
        observed: `\`${oneLineSnippet(site.snippet)}\` failed (INVALID opcode)`,
        details: {},
      });
    }
    for (const p of trace.panics) {
      if (p.panic !== 1) continue;
      const site = this.world.mapper.resolve(p.code, p.pc);
      v.push({
        property: 'assertion_failure',
        index,
        site: trace.lastTargetSite ?? p,
        observed: `the call reverted with Panic(0x01): an assert failed${site ? ` near \`${oneLineSnippet(site.snippet)}\`` : ''}`,
        details: {},
      });
    }
    if (this.world.targets.some((t) => t.contract.invariants.length)) v.push(...(await this.checkInvariants(index, block)));
    return { run, violations: v };
  }

  /** Calls every echidna_/invariant_ function (state rolled back afterwards). */
  async checkInvariants(index: number, block: BlockEnv): Promise<Violation[]> {
    const out: Violation[] = [];
    for (const t of this.world.targets) {
      for (const inv of t.contract.invariants) {
        await this.chain.checkpoint();
        const r = await this.chain.call(
          { from: ACTORS.owner, to: t.address, data: calldataFor(inv, []), value: 0n, gasLimit: CALL_GAS, block },
          null,
        );
        await this.chain.revert();
        const returnsBool = (inv.entry.outputs ?? []).length === 1 && inv.entry.outputs![0].type === 'bool';
        const w = r.ok && returnsBool ? decodeWord(r.returnValue) : null;
        const broken = !r.ok || (returnsBool && w === 0n);
        if (broken) {
          out.push({
            property: 'invariant_broken',
            index,
            site: null,
            observed: r.ok ? `${t.name}.${inv.name}() returned false` : `${t.name}.${inv.name}() reverted (${r.error})`,
            details: { invariant: `${t.name}.${inv.name}` },
          });
        }
      }
    }
    return out;
  }
}

/** Asserts that guard arithmetic (SafeMath-style `assert(c >= a)`) fire by design on overflow. */
function isGuardAssert(world: World, site: { contract: string | null; snippet: string }): boolean {
  const kind = world.program.outline.contracts.find((c) => c.name === site.contract)?.kind;
  if (kind === 'library') return true;
  return /assert\s*\(\s*\w+\s*(>=|<=)\s*\w+\s*\)|assert\s*\(\s*\w+\s*==\s*0\s*\|\|\s*\w+\s*\/\s*\w+\s*==\s*\w+\s*\)/.test(site.snippet);
}

const ROLE_NAMES: Record<string, string> = {
  owner: 'the owner',
  user: 'a user',
  attacker: 'the attacker',
  attacker_contract: "the attacker's contract",
  refuser_contract: "the attacker's ether-rejecting contract",
};

export function oneLineSnippet(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 120 ? t.slice(0, 117) + '...' : t;
}

export function hexSlot(s: bigint): string {
  return '0x' + s.toString(16);
}

export { fmtEther };
