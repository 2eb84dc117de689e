// Replay: re-runs a transaction sequence on a fresh EVM (new chain, same deterministic set-up)
// and says whether the property still breaks. The fuzzer confirms every finding this way before
// reporting it, and anyone holding a finding's evidence can do the same with replaySequence().
import { ACTORS, Chain, GENESIS_BLOCK, GENESIS_TIME, type BlockEnv, type Role } from './chain.ts';
import { SequenceMonitor, tracerConfig, type Property, type TxRun, type TxSpec, type Violation } from './exec.ts';
import { toHex, type AbiValue } from './abi.ts';
import type { Program } from './program.ts';
import { buildWorld, type World } from './world.ts';

export interface ReplayOutcome {
  broken: boolean;
  /** siteKey of the violation seen at the last transaction (null when none). */
  key: string | null;
  violation: Violation | null;
  world: World | null;
  runs: TxRun[];
  error?: string;
}

/** Identity of a violation: property plus the code site (or the invariant) that broke. */
export function keyOf(v: Violation): string {
  if (v.property === 'invariant_broken') return `${v.property}:${v.details.invariant}`;
  return `${v.property}:${v.site ? `${v.site.code}:${v.site.pc}` : ''}`;
}

/** Runs specs from the deployed state and checks `expected.property` at the last transaction. */
export async function replaySpecs(
  program: Program,
  specs: TxSpec[],
  expected: Violation,
  opts: { deadline?: number } = {},
): Promise<ReplayOutcome> {
  const chain = await Chain.create(program.fork);
  if (opts.deadline) chain.hardStop = opts.deadline;
  const world = await buildWorld(chain, program, { deadline: opts.deadline ?? Date.now() + 60_000 });
  return replayIn(chain, world, specs, expected);
}

async function replayIn(chain: Chain, world: World, specs: TxSpec[], expected: Violation): Promise<ReplayOutcome> {
  const none: ReplayOutcome = { broken: false, key: null, violation: null, world, runs: [] };
  if (!specs.length || specs.some((s) => !world.targets[s.target]?.contract.fns[s.fn]))
    return { ...none, error: 'the sequence names a contract or function this program does not have' };
  const cfg = tracerConfig(world);
  const monitor = new SequenceMonitor(chain, world);
  const d = expected.details;
  // owner_changed: what the slot held just before the last transaction (another account's address
  // must be replaced; filling an empty slot is first-come registration, not a takeover).
  let held = 0n;
  let block: BlockEnv = { timestamp: GENESIS_TIME, number: GENESIS_BLOCK };
  const runs: TxRun[] = [];
  let last: Violation[] = [];
  for (let i = 0; i < specs.length; i++) {
    if (i === specs.length - 1 && expected.property === 'owner_changed')
      held = await chain.storage(String(d.address), BigInt(String(d.slot)));
    block = { timestamp: block.timestamp + BigInt(Math.max(1, specs[i].dt)), number: block.number + 1n };
    const { run, violations } = await monitor.step(specs[i], i, block, cfg);
    if (run.outcome.timedOut) return { ...none, runs, error: 'the replay ran out of time' };
    runs.push(run);
    if (i === specs.length - 1) last = violations;
  }
  const final = runs[runs.length - 1];
  const prop: Property = expected.property;
  if (prop === 'owner_changed') {
    const slot = BigInt(String(d.slot));
    const caller = final.sender;
    const wrote = final.outcome.ok && final.trace.callerWrites.some((w) => w.address === d.address && w.slot === slot);
    const now = await chain.storage(String(d.address), slot);
    const ownerActed = specs.some((s) => s.role === 'owner');
    const previous = held & ((1n << 160n) - 1n);
    const broken = wrote && !ownerActed && now === BigInt(caller) && previous !== 0n && previous !== BigInt(caller);
    const site = final.trace.callerWrites.find((w) => w.address === d.address && w.slot === slot);
    const v: Violation | null = broken
      ? { ...expected, index: specs.length - 1, site: site ? { code: site.code, pc: site.pc } : expected.site }
      : null;
    return { ...none, broken, key: v ? keyOf(v) : null, violation: v, runs };
  }
  if (prop === 'denial_of_service') {
    const prev = runs[runs.length - 2];
    const broken = Boolean(
      specs[specs.length - 1].expectRevert &&
      !final.outcome.ok &&
      final.trace.refuserCalls.length &&
      prev?.outcome.ok &&
      prev.spec.role === 'refuser_contract',
    );
    const v: Violation | null = broken ? { ...expected, index: specs.length - 1, site: final.trace.refuserCalls[0] } : null;
    return { ...none, broken, key: v ? keyOf(v) : null, violation: v, runs };
  }
  const match =
    last.find((v) => v.property === prop && keyOf(v) === keyOf(expected)) ??
    last.find((v) => v.property === prop && (prop !== 'invariant_broken' || v.details.invariant === d.invariant));
  return { ...none, broken: Boolean(match), key: match ? keyOf(match) : null, violation: match ?? null, runs };
}

/** One transaction of a finding's evidence (what users read and what replaySequence takes). */
export interface EvidenceStep {
  /** Externally owned account that signed the transaction. */
  from: string;
  /** Contract under test that was called (through the attacker contract when role says so). */
  to: string;
  contract: string;
  /** Canonical signature, or "(ether transfer)" for a call with no data. */
  function: string;
  args: AbiValue[];
  value: string;
  timestamp: number;
  block_number: number;
  role: Role;
  /** What the contract under test saw as msg.sender. */
  msg_sender: string;
  /** Calldata the contract under test received. */
  data: string;
  reenter?: number;
  expect_revert?: boolean;
  /** Whether the transaction succeeded when the finding was replayed. */
  ok?: boolean;
}

export interface SequenceEvidence {
  kind: 'transaction_sequence';
  property: Property;
  observed: string;
  sequence: EvidenceStep[];
  setup?: unknown;
  details?: Record<string, string | number | boolean>;
  site?: { code: string; pc: number } | null;
}

/** Evidence steps -> fuzzer specs against a world built from the same program. */
export function specsFromEvidence(world: World, steps: EvidenceStep[]): TxSpec[] {
  let prevTs = Number(GENESIS_TIME);
  return steps.map((s) => {
    const target = world.targets.findIndex((t) => t.address === s.to.toLowerCase() || t.name === s.contract);
    if (target < 0) throw new Error(`the sequence calls ${s.contract} at ${s.to}, which this program does not deploy`);
    const sig = s.function === '(ether transfer)' ? '' : s.function;
    const fn = world.targets[target].contract.fns.findIndex((f) => f.signature === sig);
    if (fn < 0) throw new Error(`${s.contract} has no callable function ${s.function}`);
    const dt = s.timestamp - prevTs;
    prevTs = s.timestamp;
    return {
      role: s.role,
      target,
      fn,
      args: s.args,
      value: String(s.value),
      dt,
      reenter: s.reenter ?? 0,
      ...(s.expect_revert ? { expectRevert: true } : {}),
    };
  });
}

/**
 * Re-runs a finding's transaction sequence on a fresh EVM: `broken` says whether the property
 * the evidence names still breaks at the sequence's last transaction.
 */
export async function replaySequence(
  program: Program,
  evidence: SequenceEvidence,
  opts: { deadline?: number } = {},
): Promise<{ broken: boolean; observed: string | null; error?: string }> {
  if (!evidence || evidence.kind !== 'transaction_sequence' || !Array.isArray(evidence.sequence) || !evidence.sequence.length) {
    return { broken: false, observed: null, error: 'evidence is not a non-empty transaction_sequence' };
  }
  const chain = await Chain.create(program.fork);
  if (opts.deadline) chain.hardStop = opts.deadline;
  const world = await buildWorld(chain, program, { deadline: opts.deadline ?? Date.now() + 60_000 });
  let specs: TxSpec[];
  try {
    specs = specsFromEvidence(world, evidence.sequence);
  } catch (e) {
    return { broken: false, observed: null, error: (e as Error).message };
  }
  const expected: Violation = {
    property: evidence.property,
    index: specs.length - 1,
    site: evidence.site ?? null,
    observed: evidence.observed,
    details: evidence.details ?? {},
  };
  const r = await replayIn(chain, world, specs, expected);
  return { broken: r.broken, observed: r.violation?.observed ?? null, ...(r.error ? { error: r.error } : {}) };
}

/** A property broken by a sequence and confirmed on replay (found by the fuzzer, or by the symbolic
 *  engine and replayed here). */
export interface Proof {
  property: Property;
  specs: TxSpec[];
  violation: Violation;
  /** Root cause: reentrancy | access_control | bad_randomness | time_manipulation for ether_drained; reentrancy for an arithmetic_wrap that only happens when the attacker re-enters. */
  how: string | null;
  replay: ReplayOutcome;
}

export function evidenceOf(world: World, p: Proof): SequenceEvidence {
  const runs = p.replay.runs;
  const sequence: EvidenceStep[] = p.specs.map((s, i) => {
    const t = world.targets[s.target];
    const fn = t.contract.fns[s.fn];
    const run = runs[i];
    return {
      from: run.from,
      to: t.address,
      contract: t.name,
      function: fn.signature || '(ether transfer)',
      args: s.args,
      value: s.value,
      timestamp: Number(run.block.timestamp),
      block_number: Number(run.block.number),
      role: s.role,
      msg_sender: run.sender,
      data: toHex(run.data),
      ...(s.role === 'attacker_contract' ? { reenter: s.reenter } : {}),
      ...(s.expectRevert ? { expect_revert: true } : {}),
      ok: run.outcome.ok,
    };
  });
  return {
    kind: 'transaction_sequence',
    property: p.property,
    observed: p.violation.observed,
    sequence,
    details: p.violation.details,
    site: p.violation.site,
    setup: {
      fork: world.program.fork,
      compiler: world.program.compiler,
      actors: {
        owner: '0x00000000000000000000000000000000000a11ce',
        user: '0x00000000000000000000000000000000000b0b00',
        attacker: '0x0000000000000000000000000000000000bad000',
        attacker_contract: world.attackerContract,
        refusing_contract: world.refuser,
      },
      deployed: world.targets.map((t) => ({
        contract: t.name,
        address: t.address,
        constructor_args: t.constructorArgs,
        value: t.constructorValue,
      })),
      funding: world.funding.filter((f) => f.ok).map(({ ok: _ok, ...f }) => f),
      forced_balance: world.forcedBalance,
    },
    replayed: true,
  } as SequenceEvidence;
}

export { ACTORS };
