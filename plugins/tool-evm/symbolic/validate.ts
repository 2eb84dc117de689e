// Concrete validation of the symbolic engine's counterexamples. A Z3 model is only as good as
// the symbolic EVM it came from (external calls return what the solver likes, hashes are
// uninterpreted functions, memory at symbolic offsets is fresh...), so a candidate becomes a
// finding only when its transaction sequence breaks the property on the fuzzer's in-process EVM
// (../evm): the same deterministic world, the same property monitor, and evidence
// in the fuzzer's `transaction_sequence` format, which replaySequence() (and the benchmark)
// re-runs on a fresh chain.
import type { CompileResult } from '../../../lib/analysis/compiler/index.ts';
import { buildProgram, type Program } from '../evm/program.ts';
import { evidenceOf, replaySequence, replaySpecs, type SequenceEvidence } from '../evm/replay.ts';
import { Chain, ACTORS, GENESIS_BLOCK, GENESIS_TIME, type BlockEnv } from '../evm/chain.ts';
import { buildWorld, calldataFor, CALL_GAS } from '../evm/world.ts';
import { defaultValue, encodeArgs, type AbiParam, type AbiValue } from '../evm/abi.ts';
import type { Property, TxSpec, Violation } from '../evm/exec.ts';
import type { FnInfo, SourceSite } from '../evm/program.ts';
import type { StepTracer } from '../evm/trace.ts';
import type { SinkKind } from './evm.ts';

/** One attacker transaction of a counterexample, with the model's values. */
export interface ConcreteTx {
  calldata: Uint8Array;
  value: bigint;
  timestamp: bigint;
}

/** The deterministic world the replay rebuilds, and what the symbolic deploy must match. */
export interface ReplayBase {
  program: Program;
  /** Constructor arguments (ABI-encoded) and value per contract the world deployed, and the
   *  balance its set-up left there. */
  deployed: Map<string, { args: Uint8Array; value: bigint; balance: bigint }>;
  /** Contracts the world could not deploy, with why (their candidates cannot be replayed). */
  failed: Map<string, string>;
  /** The world's targets in order (a spec's `target` indexes this). */
  targets: Array<{ name: string; fns: FnInfo[] }>;
}

export const PROPERTY_OF: Partial<Record<SinkKind, Property>> = {
  selfdestruct: 'selfdestruct',
  ether: 'ether_drained',
  assert: 'assertion_failure',
  overflow: 'arithmetic_wrap',
};

/** Builds the replay world once: which contracts deploy, and with which constructor inputs. */
export async function prepareReplay(compiled: CompileResult, source: string, file: string, deadline: number): Promise<ReplayBase> {
  const program = buildProgram(compiled, source, file);
  const chain = await Chain.create(program.fork);
  chain.hardStop = deadline;
  const world = await buildWorld(chain, program, { deadline });
  const deployed = new Map<string, { args: Uint8Array; value: bigint; balance: bigint }>();
  for (const t of world.targets)
    deployed.set(t.name, {
      args: encodeArgs(t.contract.constructor?.inputs ?? [], t.constructorArgs),
      value: BigInt(t.constructorValue),
      balance: await chain.balance(t.address),
    });
  return {
    program,
    deployed,
    failed: new Map(world.failed.map((f) => [f.name, f.reason])),
    targets: world.targets.map((t) => ({ name: t.name, fns: t.contract.fns })),
  };
}

const word = (b: Uint8Array, at: number): bigint => {
  let w = 0n;
  for (let i = 0; i < 32; i++) w = (w << 8n) | BigInt(b[at + i] ?? 0);
  return w;
};

/**
 * ABI-decodes arguments into the fuzzer's value format so that encodeCall() gives the same
 * words back: integers and dirty addresses as full decimal words, bytesN as 32 bytes.
 */
export function decodeArgs(params: AbiParam[], data: Uint8Array, base = 0, depth = 0): AbiValue[] {
  const out: AbiValue[] = [];
  let head = base;
  for (const p of params) {
    out.push(decodeOne(p, data, base, head, depth));
    head += headSize(p);
  }
  return out;
}

function isDyn(p: AbiParam): boolean {
  const m = /^(.*)\[(\d*)\]$/.exec(p.type);
  if (m) return m[2] === '' || isDyn({ ...p, type: m[1] });
  if (p.type === 'bytes' || p.type === 'string') return true;
  if (p.type === 'tuple') return (p.components ?? []).some(isDyn);
  return false;
}

function headSize(p: AbiParam): number {
  if (isDyn(p)) return 32;
  const m = /^(.*)\[(\d+)\]$/.exec(p.type);
  if (m) return Number(m[2]) * headSize({ ...p, type: m[1] });
  if (p.type === 'tuple') return (p.components ?? []).reduce((n, c) => n + headSize(c), 0);
  return 32;
}

const MAX_LEN = 64;

/** A dynamic argument whose offset or length the solver left meaningless replays as empty. */
function decodeOne(p: AbiParam, data: Uint8Array, base: number, at: number, depth: number): AbiValue {
  try {
    return decodeStrict(p, data, base, at, depth);
  } catch (e) {
    if (!isDyn(p) || depth > 4) throw e;
    return defaultValue(p);
  }
}

function decodeStrict(p: AbiParam, data: Uint8Array, base: number, at: number, depth: number): AbiValue {
  if (depth > 4) throw new Error('argument nesting too deep');
  const m = /^(.*)\[(\d*)\]$/.exec(p.type);
  let start = at;
  if (isDyn(p)) {
    const off = word(data, at);
    if (off > BigInt(data.length)) throw new Error('argument offset out of range');
    start = base + Number(off);
  }
  if (m) {
    const inner = { ...p, type: m[1] };
    let n = Number(m[2]);
    let body = start;
    if (m[2] === '') {
      const len = word(data, start);
      if (len > BigInt(MAX_LEN)) throw new Error('array too long to replay');
      n = Number(len);
      body = start + 32;
    }
    return decodeArgs(
      Array.from({ length: n }, () => inner),
      data,
      body,
      depth + 1,
    );
  }
  if (p.type === 'tuple') return decodeArgs(p.components ?? [], data, start, depth + 1);
  if (p.type === 'bytes' || p.type === 'string') {
    const len = word(data, start);
    if (len > BigInt(32 * MAX_LEN)) throw new Error('byte string too long to replay');
    const bytes = data.slice(start + 32, start + 32 + Number(len));
    if (p.type === 'bytes') return '0x' + Buffer.from(bytes).toString('hex');
    const text = new TextDecoder().decode(bytes);
    if (Buffer.compare(Buffer.from(new TextEncoder().encode(text)), Buffer.from(bytes)) !== 0)
      throw new Error('string argument is not UTF-8');
    return text;
  }
  const w = word(data, start);
  if (p.type === 'bool') return w !== 0n;
  if (/^bytes\d+$/.test(p.type)) return '0x' + w.toString(16).padStart(64, '0');
  if (p.type === 'address' && w < 1n << 160n) return '0x' + w.toString(16).padStart(40, '0');
  return w.toString();
}

/** Counterexample -> fuzzer transaction specs (all from the attacker EOA). */
export function specsOf(base: ReplayBase, contract: string, txs: ConcreteTx[]): TxSpec[] {
  const target = base.targets.findIndex((t) => t.name === contract);
  if (target < 0) throw new Error(`${contract} is not deployed in the replay world`);
  const fns = base.targets[target].fns;
  let prev = GENESIS_TIME;
  return txs.map((tx) => {
    const sel = tx.calldata.length >= 4 ? Buffer.from(tx.calldata.subarray(0, 4)).toString('hex') : null;
    let fn = sel ? fns.findIndex((f) => f.selector === sel) : -1;
    if (fn < 0) fn = fns.findIndex((f) => f.signature === '');
    if (fn < 0)
      throw new Error(sel ? `no callable function has selector 0x${sel}` : 'the contract has no payable fallback to receive a plain call');
    const f = fns[fn];
    const args = f.signature === '' ? [] : decodeArgs(f.entry.inputs ?? [], tx.calldata.subarray(4));
    const dt = Number(tx.timestamp - prev);
    prev = tx.timestamp;
    return { role: 'attacker', target, fn, args, value: tx.value.toString(), dt: Math.max(1, dt), reenter: 0 };
  });
}

export type Validation = { ok: true; evidence: SequenceEvidence; site: SourceSite | null } | { ok: false; why: string };

/**
 * Replays a candidate on a fresh world and, when the property breaks, checks the evidence the
 * way any holder of the finding would (replaySequence); `site` is where the replay saw it break.
 */
export async function validateCandidate(
  base: ReplayBase,
  kind: SinkKind,
  contract: string,
  txs: ConcreteTx[],
  deadline: number,
): Promise<Validation> {
  const property = PROPERTY_OF[kind];
  if (!property) return { ok: false, why: `no concrete property checks a ${kind}` };
  if (!base.program.uncheckedArithmetic && property === 'arithmetic_wrap')
    return { ok: false, why: 'checked arithmetic (Solidity >= 0.8) reverts on wrap' };
  if (base.failed.has(contract)) return { ok: false, why: `the replay world could not deploy ${contract}: ${base.failed.get(contract)}` };
  let specs: TxSpec[];
  try {
    specs = specsOf(base, contract, txs);
  } catch (e) {
    return { ok: false, why: `the counterexample does not map to a call: ${(e as Error).message}` };
  }
  const expected: Violation = { property, index: specs.length - 1, site: null, observed: '', details: {} };
  const out = await replaySpecs(base.program, specs, expected, { deadline });
  if (out.error) return { ok: false, why: out.error };
  if (!out.broken || !out.violation || !out.world)
    return { ok: false, why: `the property (${property}) holds when the sequence runs on the EVM` };
  const evidence = evidenceOf(out.world, { property, specs, violation: out.violation, how: null, replay: out });
  const again = await replaySequence(base.program, evidence, { deadline });
  if (!again.broken) return { ok: false, why: `the evidence does not replay (${again.error ?? 'property holds'})` };
  const site = out.violation.site ? out.world.mapper.resolve(out.violation.site.code, out.violation.site.pc) : null;
  return { ok: true, evidence, site };
}

/**
 * DELEGATECALL has no property in the fuzzer's monitor, so a candidate is run on the same world
 * with a tracer that watches the target's DELEGATECALLs: confirmed when one goes to the address
 * the counterexample chose.
 */
export async function confirmDelegatecall(
  base: ReplayBase,
  contract: string,
  txs: ConcreteTx[],
  chosen: string,
  deadline: number,
): Promise<
  | { ok: true; steps: Array<{ function: string; args: AbiValue[]; value: string; timestamp: number; data: string; ok: boolean }> }
  | { ok: false; why: string }
> {
  if (base.failed.has(contract)) return { ok: false, why: `the replay world could not deploy ${contract}: ${base.failed.get(contract)}` };
  const chain = await Chain.create(base.program.fork);
  chain.hardStop = deadline;
  const world = await buildWorld(chain, base.program, { deadline });
  let specs: TxSpec[];
  try {
    specs = specsOf(base, contract, txs);
  } catch (e) {
    return { ok: false, why: `the counterexample does not map to a call: ${(e as Error).message}` };
  }
  const target = world.targets[specs[0].target];
  if (target?.name !== contract) return { ok: false, why: 'the replay world differs from the one prepared' };
  let seen = false;
  const tracer = {
    op(rs: { stack: { _len: number; _store: bigint[] }; env: { address: { toString(): string } } }, code: number) {
      if (code !== 0xf4 || rs.env.address.toString().toLowerCase() !== target.address) return;
      const to = rs.stack._store[rs.stack._len - 2] & ((1n << 160n) - 1n);
      if ('0x' + to.toString(16).padStart(40, '0') === chosen.toLowerCase()) seen = true;
    },
    invalid() {},
    finish() {
      return null;
    },
  } as unknown as StepTracer;
  const steps = [];
  let block: BlockEnv = { timestamp: GENESIS_TIME, number: GENESIS_BLOCK };
  for (let i = 0; i < specs.length; i++) {
    const s = specs[i];
    const fn = target.contract.fns[s.fn];
    block = { timestamp: block.timestamp + BigInt(s.dt), number: block.number + 1n };
    const data = calldataFor(fn, s.args);
    const last = i === specs.length - 1;
    const r = await chain.call(
      { from: ACTORS.attacker, to: target.address, data, value: BigInt(s.value), gasLimit: CALL_GAS, block },
      last ? tracer : null,
    );
    if (r.timedOut) return { ok: false, why: 'the replay ran out of time' };
    steps.push({
      function: fn.signature || '(ether transfer)',
      args: s.args,
      value: s.value,
      timestamp: Number(block.timestamp),
      data: '0x' + Buffer.from(data).toString('hex'),
      ok: r.ok,
    });
    if (last && !(r.ok && seen))
      return {
        ok: false,
        why: seen ? 'the transaction with the delegatecall reverts on the EVM' : 'no DELEGATECALL to the chosen address ran on the EVM',
      };
  }
  return { ok: true, steps };
}
