// Layer 3 driver: compile (full outputs: bytecode, deployed source map, AST for the file id),
// run the symbolic EVM per deployable contract of the submitted file under a share of the
// deadline, and replay each proven sink's counterexample on the fuzzer's EVM (validate.ts):
// only a sequence that breaks the property there becomes a finding, with the fuzzer's
// replayable `transaction_sequence` evidence and confidence 1.0. A model the concrete EVM does
// not confirm (an external call returning what the solver liked, a keccak preimage it invented)
// is dropped and listed in `sinks` with why. `symbolicTask` is the kernel pool task (Z3 stays
// loaded per worker).
import { LineIndex, stripCommentsAndStrings, type CompileResult } from '../../../lib/analysis/compiler/index.ts';
import { compileForEvm } from '../evm/program.ts';
import { outlineSource, locate, functionLine, type Outline } from '../../../lib/analysis/outline.ts';
import { findingId, sliceLines } from '../../../lib/analysis/ids.ts';
import type { Finding, Severity, Category } from '../../../schemas/finding.ts';
import { isZ3Fatal, loadZ3, resetZ3, TermSolver } from './solver.ts';
import { Explorer, disassemble, hexToBytes, type Limits, type ProvenSink, type SinkKind, type Code } from './evm.ts';
import { constructorWords, decodeCalldata, type DecodedCall } from './abi.ts';
import { budgetExhausted, ensureMinimum, planSearch } from '../outcome.ts';
import { prepareReplay, validateCandidate, confirmDelegatecall, type ConcreteTx, type ReplayBase } from './validate.ts';

export const SYMBOLIC_TOOL = 'vigil-symbolic';

export interface SymbolicRequest {
  source: string;
  file: string;
  absPath?: string | null;
  roots?: string[];
  /** Epoch ms by which the task must answer (it stops exploring a little before). */
  deadline: number;
  limits?: Partial<Omit<Limits, 'deadline'>>;
  solverTimeoutMs?: number;
  /** Time the run may take from the moment a worker starts it (queueing in the pool not counted). */
  budgetMs?: number;
  /** Epoch ms at which the request's analysis budget, shared with the other layers, ends: the
   *  exploration stops there however late it started (after at least outcome.ts's MIN_SHARED_SLICE_MS). */
  budgetDeadline?: number;
  /** The engine's compile of this source (full outputs and AST), when it made one. */
  compiled?: CompileResult | null;
}

export interface SinkReport {
  kind: SinkKind;
  contract: string;
  line: number | null;
  /** proven = the counterexample broke the property on the EVM; not_replayed = the solver's
   *  model did not hold there (dropped); refuted = no feasible path reaches it. */
  status: 'proven' | 'refuted' | 'unresolved' | 'not_replayed';
  why?: string;
}

export interface SymbolicResult {
  status: 'success' | 'skipped' | 'timeout' | 'error';
  reason: string | null;
  compiler: string | null;
  findings: Finding[];
  sinks: SinkReport[];
  contracts: Array<{
    name: string;
    paths: number;
    steps: number;
    queries: number;
    cache_hits?: number;
    solver_ms: number;
    complete: boolean;
    notes: string[];
    internal_errors?: string[];
    depth_cuts?: number;
  }>;
  z3_init_ms: number;
  /** Where the run's time went (ms): compile, Z3 start, replay world, deploy and explore per contract. */
  phases_ms?: Record<string, number>;
  /** Set when the tool's own budget (not the request's deadline) cut the exploration short. */
  budget_exhausted?: string;
  /** Counterexamples replayed on the EVM, and how many broke the property there. */
  replay?: { candidates: number; confirmed: number; dropped: number; ms: number };
  elapsed_ms: number;
}

export const DEFAULT_LIMITS: Omit<Limits, 'deadline'> = { maxTx: 2, loopBound: 3, maxSteps: 6000, maxPaths: 400, maxCarry: 8 };

interface SrcEntry {
  s: number;
  l: number;
  f: number;
}

export function parseSourceMap(map: string): SrcEntry[] {
  const out: SrcEntry[] = [];
  let prev: SrcEntry = { s: -1, l: 0, f: -1 };
  for (const item of map ? map.split(';') : []) {
    const [s, l, f] = item.split(':');
    const cur = {
      s: s !== undefined && s !== '' ? Number(s) : prev.s,
      l: l !== undefined && l !== '' ? Number(l) : prev.l,
      f: f !== undefined && f !== '' ? Number(f) : prev.f,
    };
    out.push(cur);
    prev = cur;
  }
  return out;
}

/** File index of the submitted source in solc's source maps (the AST root's `src`). */
function mainFileId(c: CompileResult): number {
  const src = (c.ast as { src?: string } | undefined)?.src;
  const id = src ? Number(src.split(':')[2]) : NaN;
  return Number.isInteger(id) ? id : 0;
}

const KINDS: Record<
  SinkKind,
  {
    title: string;
    severity: Severity;
    category: Category;
    swc: string;
    cwe: string;
    recommendation: string;
    describe: (d: string) => string;
  }
> = {
  selfdestruct: {
    title: 'Selfdestruct reachable by any caller',
    severity: 'CRITICAL',
    category: 'access_control',
    swc: 'SWC-106',
    cwe: 'CWE-284',
    recommendation: 'Guard the function with an owner check (require(msg.sender == owner) / onlyOwner) or remove selfdestruct.',
    describe: (d) =>
      `Symbolic execution found a transaction sequence from the attacker (an account that is not the deployer) that executes SELFDESTRUCT${d}.`,
  },
  delegatecall: {
    title: 'Delegatecall to an address the caller chooses',
    severity: 'CRITICAL',
    category: 'access_control',
    swc: 'SWC-112',
    cwe: 'CWE-829',
    recommendation: 'Only delegatecall to trusted, fixed implementation addresses, and restrict who can change them.',
    describe: (d) =>
      `Symbolic execution found inputs for which DELEGATECALL runs code at an address the attacker picks (here 0xdeadbeef…), which then controls this contract's storage and balance${d}.`,
  },
  ether: {
    title: 'Any caller can withdraw ether',
    severity: 'HIGH',
    category: 'access_control',
    swc: 'SWC-105',
    cwe: 'CWE-284',
    recommendation: 'Check that the caller is entitled to the amount (balance bookkeeping or an owner check) before sending ether.',
    describe: (d) =>
      `Symbolic execution found a transaction sequence in which the attacker (an account that is not the deployer) receives more ether than it ever sent to the contract${d}.`,
  },
  assert: {
    title: 'Assertion failure reachable',
    severity: 'MEDIUM',
    category: 'other',
    swc: 'SWC-110',
    cwe: 'CWE-617',
    recommendation:
      'An assert must hold for every input: validate inputs with require, or fix the invariant (an out-of-range index or a division by zero also ends here in solc < 0.8).',
    describe: (d) => `Symbolic execution reached a failing assertion (invalid opcode or Panic(0x01)) with the inputs below${d}.`,
  },
  overflow: {
    title: 'Integer overflow written to storage',
    severity: 'HIGH',
    category: 'arithmetic',
    swc: 'SWC-101',
    cwe: 'CWE-190',
    recommendation: 'Bound the operands with require before the operation, or use checked arithmetic (Solidity >= 0.8 or SafeMath).',
    describe: (d) => `Symbolic execution found inputs for which this arithmetic wraps around and the wrapped value is stored${d}.`,
  },
};

function evalBig(model: any, solver: TermSolver, e: any): bigint {
  try {
    const v = model.eval(e, true);
    const x = typeof v.value === 'function' ? v.value() : BigInt(v.toString());
    return BigInt(x);
  } catch {
    return 0n;
  }
}

const hexAddr = (v: bigint) => '0x' + v.toString(16).padStart(40, '0');

function evidenceOf(
  p: ProvenSink,
  ex: Explorer,
  solver: TermSolver,
  abi: unknown[],
): {
  transactions: Array<DecodedCall & { caller: string; callvalue: string; timestamp: string }>;
  concrete: ConcreteTx[];
  detail: Record<string, string>;
} {
  const concrete: ConcreteTx[] = [];
  const transactions = p.txs.map((tx) => {
    const size = Math.min(Number(evalBig(p.model, solver, solver.expr(tx.cds))), 4 + 32 * 40);
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = Number(evalBig(p.model, solver, solver.expr(ex.T.op('cdbyte', tx.cd, ex.T.c(i)))) & 0xffn);
    const value = evalBig(p.model, solver, solver.expr(tx.callvalue));
    const timestamp = evalBig(p.model, solver, solver.expr(tx.timestamp));
    concrete.push({ calldata: bytes, value, timestamp });
    return {
      ...decodeCalldata(abi, bytes),
      caller: hexAddr(evalBig(p.model, solver, solver.expr(tx.caller))),
      callvalue: value.toString(),
      timestamp: timestamp.toString(),
    };
  });
  const detail: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.detail)) {
    if (typeof v === 'string') detail[k] = v;
    else {
      const n = evalBig(p.model, solver, solver.expr(v));
      detail[k] = k === 'to' || k === 'beneficiary' ? hexAddr(n) : n.toString();
    }
  }
  return { transactions, concrete, detail };
}

export async function symbolicTask(req: SymbolicRequest): Promise<SymbolicResult> {
  const t0 = Date.now();
  try {
    return await explore(req, t0);
  } catch (e) {
    if (!isZ3Fatal(e)) throw e;
    await resetZ3();
    return {
      status: 'error',
      reason: `the SMT solver (Z3, WASM build) crashed on this contract (${String((e as Error)?.message ?? e).split('\n')[0]}); it was restarted for the next run`,
      compiler: null,
      findings: [],
      sinks: [],
      contracts: [],
      z3_init_ms: 0,
      elapsed_ms: Date.now() - t0,
    };
  }
}

async function explore(req: SymbolicRequest, t0: number): Promise<SymbolicResult> {
  // The tool's own budget and the request's shared analysis budget bound the search like its path
  // and loop bounds do (the result says the exploration is incomplete); only the request's
  // deadline ending it is a timeout.
  const requestDeadline = req.deadline;
  let plan = planSearch(t0, requestDeadline, req.budgetMs, req.budgetDeadline);
  req = { ...req, deadline: plan.deadline };
  const base: SymbolicResult = {
    status: 'success',
    reason: null,
    compiler: null,
    findings: [],
    sinks: [],
    contracts: [],
    z3_init_ms: 0,
    elapsed_ms: 0,
  };
  const done = (r: Partial<SymbolicResult>): SymbolicResult => ({ ...base, ...r, elapsed_ms: Date.now() - t0 });
  const phases: Record<string, number> = {};
  base.phases_ms = phases;
  let tp = Date.now();
  const phase = (name: string) => {
    const now = Date.now();
    phases[name] = (phases[name] ?? 0) + now - tp;
    tp = now;
  };
  const compiled = compileForEvm(req);
  phase('compile');
  if (!compiled.ok)
    return done({
      status: 'skipped',
      reason: `symbolic execution needs a compiling contract: ${compiled.errors[0]?.message.split('\n')[0] ?? 'compilation failed'}`,
      compiler: compiled.compiler,
    });
  base.compiler = compiled.compiler;
  const targets = Object.entries(compiled.contracts).filter(
    ([, c]) => c.file === req.file && c.deployedBytecode && c.deployedBytecode.length > 2,
  );
  if (!targets.length)
    return done({
      status: 'skipped',
      reason: 'the file defines no deployable contract (only interfaces, libraries without code or abstract contracts)',
    });
  const tz = Date.now();
  const z = await loadZ3();
  base.z3_init_ms = Date.now() - tz;
  phase('z3_init');
  // A slow compile or Z3 start (a loaded machine) must not leave the search no time at all: it
  // still gets half its budget (at most 2 s) when the request allows it; a search that starts when
  // the shared budget is (nearly) spent still gets MIN_SHARED_SLICE_MS.
  plan = ensureMinimum(plan, requestDeadline, Math.min(2000, (req.budgetMs ?? 0) / 2));
  req = { ...req, deadline: plan.deadline };
  const outline = outlineSource(req.source);
  const lines = new LineIndex(req.source);
  const fileId = mainFileId(compiled);
  const limits = { ...DEFAULT_LIMITS, ...(req.limits ?? {}) };
  // The replay world: which contracts deploy, with which constructor inputs (the symbolic
  // deploy uses the same, so its models are sequences the replay can run).
  let replayBase: ReplayBase | null = null;
  let replayError: string | null = null;
  try {
    replayBase = await prepareReplay(compiled, req.source, req.file, req.deadline);
  } catch (e) {
    replayError = `the replay world could not be built: ${(e as Error).message}`;
  }
  phase('replay_world');
  const replay = { candidates: 0, confirmed: 0, dropped: 0, ms: 0 };
  // Stop exploring early enough to replay the candidates and get the answer out in time.
  // (A solver query in flight when exploration stops may still run for its own timeout.)
  const stopAt = req.deadline - Math.min(1500, Math.max(600, (req.deadline - Date.now()) * 0.25));
  const seen = new Set<string>();
  let anyTimeout = false;
  const codeOnly = stripCommentsAndStrings(req.source);

  for (let i = 0; i < targets.length; i++) {
    const [name, c] = targets[i];
    // Only what the replay world deploys can be attacked there (libraries are called through it).
    const ctor = replayBase?.deployed.get(name);
    if (!ctor) {
      const why =
        replayError ??
        (replayBase?.failed.get(name)
          ? `the replay world could not deploy it: ${replayBase.failed.get(name)}`
          : 'not a contract the replay world deploys (a library or abstract contract)');
      base.contracts.push({ name, paths: 0, steps: 0, queries: 0, solver_ms: 0, complete: false, notes: [`not explored: ${why}`] });
      continue;
    }
    const remaining = stopAt - Date.now();
    if (remaining < 100) {
      anyTimeout = true;
      base.contracts.push({
        name,
        paths: 0,
        steps: 0,
        queries: 0,
        solver_ms: 0,
        complete: false,
        notes: ['not explored: time budget used up'],
      });
      continue;
    }
    const share = Math.floor(remaining / targets.slice(i).filter(([n]) => replayBase?.deployed.has(n)).length);
    // No query runs past stopAt: the candidates still have to be replayed and the answer sent.
    const solver = new TermSolver(z, Math.max(200, Math.min(req.solverTimeoutMs ?? 3000, share / 6)), stopAt);
    const srcmap = parseSourceMap(c.deployedSourceMap);
    let runtime: Code = disassemble(hexToBytes(c.deployedBytecode));
    const mappedLine = (pc: number): { line: number; end: number } | null => {
      const e = srcmap[runtime.index.get(pc) ?? -1];
      if (!e || e.f !== fileId || e.s < 0) return null;
      const line = lines.lineOf(e.s);
      const end = lines.lineOf(Math.max(e.s, e.s + e.l - 1));
      // Spans wider than one function (the contract, the dispatcher) say nothing about where.
      const fn = locate(outline, line).function;
      if (!fn || locate(outline, end).function !== fn) return null;
      return { line, end };
    };
    const ex = new Explorer(solver, { ...limits, deadline: Date.now() + share }, (_code, pc) => mappedLine(pc) !== null);
    phase('other');
    const dep = await ex.deploy(disassemble(hexToBytes(c.bytecode)), constructorWords(c.abi), ctor);
    phase(`deploy:${name}`);
    if (!dep) {
      base.contracts.push({
        name,
        paths: ex.stats.paths,
        steps: ex.stats.steps,
        queries: ex.stats.queries,
        solver_ms: ex.stats.solver_ms,
        complete: false,
        notes: ['the constructor reverts on every explored path; nothing to attack'],
      });
      continue;
    }
    // The code the constructor returned carries immutables; same layout as deployedBytecode.
    if (dep.runtime && dep.runtime.length === runtime.bytes.length) runtime = disassemble(dep.runtime);
    let states = [dep.state];
    for (let t = 1; t <= limits.maxTx && states.length && !ex.timeUp(); t++) states = await ex.transact(runtime, states, t);
    phase(`explore:${name}`);
    // A query the solver left unanswered kept its path as feasible (over-approximation), so a
    // sink no proof reached is not refuted then.
    if (solver.unknowns)
      ex.stats.truncated.push(
        `${solver.unknowns} solver quer${solver.unknowns === 1 ? 'y' : 'ies'} unanswered (time limit or divisions not settled); nothing is refuted`,
      );
    const complete = !ex.stats.deadline_hit && ex.stats.truncated.length === 0;
    if (ex.stats.deadline_hit) anyTimeout = true;
    base.contracts.push({
      name,
      paths: ex.stats.paths,
      steps: ex.stats.steps,
      queries: ex.stats.queries,
      cache_hits: ex.stats.cache_hits,
      solver_ms: ex.stats.solver_ms,
      complete,
      notes: ex.stats.truncated,
      ...(ex.stats.internal_errors.length ? { internal_errors: ex.stats.internal_errors } : {}),
      ...(ex.stats.depth_cuts ? { depth_cuts: ex.stats.depth_cuts } : {}),
    });

    for (const p of ex.proven) {
      const loc = mappedLine(p.locPc) ?? mappedLine(p.pc);
      const ev = evidenceOf(p, ex, solver, c.abi);
      const last = ev.transactions[ev.transactions.length - 1];
      let line = loc?.line ?? null;
      let end = loc?.end ?? null;
      if (line === null) {
        const f = last ? functionLine(outline, name, last.function) : null;
        line = f?.line ?? outline.contracts.find((x) => x.name === name)?.line ?? 1;
        end = line;
      }
      const key = `${p.kind}:${line}`;
      // (Marked seen only once confirmed: another model for the same line may still replay.)
      if (seen.has(key)) continue;
      // A path that read memory at a symbolic offset (a fresh value) may rest on values the
      // solver invented: the replay below settles it like any other model.
      // solc < 0.8 compiles assert, but also an out-of-range index (public array getters
      // included) and a division by zero, to INVALID. Those are reverts by design, not broken
      // invariants: only an INVALID on an assert statement is reported (Panic(0x01) is assert).
      if (p.kind === 'assert' && !(loc && /\bassert\s*\(/.test(sliceLines(codeOnly, loc.line, loc.end)))) {
        base.sinks.push({
          kind: p.kind,
          contract: name,
          line,
          status: 'unresolved',
          why: 'the invalid opcode is a compiler check (index range, division by zero), not an assert',
        });
        continue;
      }
      // The model holds in the symbolic EVM; it is a finding only if it holds on the real one.
      replay.candidates++;
      const tr = Date.now();
      if (Date.now() > req.deadline - 150) {
        replay.dropped++;
        base.sinks.push({
          kind: p.kind,
          contract: name,
          line,
          status: 'unresolved',
          why: 'no time left to replay the counterexample on the EVM',
        });
        continue;
      }
      const chosen = typeof ev.detail.to === 'string' ? ev.detail.to : '';
      const v =
        p.kind === 'delegatecall'
          ? await confirmDelegatecall(replayBase!, name, ev.concrete, chosen, req.deadline)
          : await validateCandidate(replayBase!, p.kind, name, ev.concrete, req.deadline);
      replay.ms += Date.now() - tr;
      if (!v.ok) {
        replay.dropped++;
        base.sinks.push({ kind: p.kind, contract: name, line, status: 'not_replayed', why: v.why });
        continue;
      }
      replay.confirmed++;
      // Where the EVM saw the property break (the fuzzer's site), else where the solver did.
      const site = 'site' in v && v.site && v.site.function ? v.site : null;
      if (site) {
        line = site.line;
        end = site.end_line - site.line > 3 ? site.line : site.end_line;
      }
      const at = locate(outline, line);
      // As the fuzzer classifies its drains: a payout on a path that read block values is won by
      // predicting or choosing them (the replay records which ones the target read).
      let k = KINDS[p.kind];
      if (p.kind === 'ether' && 'evidence' in v) {
        const env = String(v.evidence.details?.env_reads ?? '');
        if (/BLOCKHASH|NUMBER|PREVRANDAO|COINBASE/.test(env))
          k = {
            ...k,
            title: 'Attacker wins ether by predicting on-chain randomness',
            category: 'bad_randomness',
            swc: 'SWC-120',
            cwe: 'CWE-330',
            recommendation:
              'Do not derive outcomes from block values (blockhash, number, coinbase, prevrandao); use a commit-reveal scheme or a verifiable random function.',
          };
        else if (/TIMESTAMP/.test(env))
          k = {
            ...k,
            title: 'Attacker wins ether through a timestamp-dependent payout',
            category: 'time_manipulation',
            swc: 'SWC-116',
            cwe: 'CWE-829',
            recommendation: 'Do not decide payouts on block.timestamp, which the block producer chooses within a window.',
          };
      }
      const key2 = `${p.kind}:${line}`;
      if (site && key2 !== key && seen.has(key2)) continue;
      seen.add(key);
      seen.add(key2);
      base.sinks.push({ kind: p.kind, contract: name, line, status: 'proven' });
      const seq = ev.transactions
        .map(
          (t) =>
            `${t.function}(${Object.entries(t.args)
              .map(([a, x]) => `${a}=${x}`)
              .join(', ')})${t.callvalue !== '0' ? ` with ${t.callvalue} wei` : ''}`,
        )
        .join(' -> ');
      const extra =
        p.kind === 'selfdestruct' && ev.detail.beneficiary
          ? `; the ether goes to ${ev.detail.beneficiary}`
          : p.kind === 'ether' && ev.detail.value
            ? `; ${ev.detail.value} wei sent to ${ev.detail.to}`
            : '';
      const common = {
        id: findingId({
          detector: `symbolic-${p.kind}`,
          contract: at.contract ?? name,
          function: at.function,
          code: sliceLines(req.source, line, end!),
        }),
        detector: `symbolic-${p.kind}`,
        title: k.title,
        severity: k.severity,
        category: k.category,
        swc_id: k.swc,
        cwe_id: k.cwe,
        location: { file: req.file, line, end_line: Math.max(line, end!), contract: at.contract ?? name, function: at.function },
        tools: [SYMBOLIC_TOOL],
        layers: [3],
        recommendation: k.recommendation,
      };
      if ('evidence' in v) {
        base.findings.push({
          ...common,
          description: `${k.describe(extra)} Transactions from the attacker: ${seq}. Replayed on the in-process EVM: ${v.evidence.observed}.`,
          confidence: 1,
          evidence: {
            ...v.evidence,
            found_by: 'vigil-symbolic (z3 counterexample)',
            counterexample: { contract: name, transactions: ev.transactions, ...ev.detail },
          },
        });
      } else {
        // No property of the fuzzer's monitor covers a hijacked DELEGATECALL, so this is not a
        // replayable proof; it was still confirmed by running the sequence on the EVM.
        base.findings.push({
          ...common,
          description: `${k.describe(extra)} Transactions from the attacker: ${seq}. Running them on the in-process EVM executed DELEGATECALL to ${chosen}.`,
          confidence: 0.9,
          evidence: {
            kind: 'counterexample',
            engine: 'vigil-symbolic (z3)',
            contract: name,
            transactions: ev.transactions,
            ...ev.detail,
            confirmed_on_evm: true,
            sequence: v.steps,
          },
        });
      }
    }
    // Dangerous instructions no feasible path reached: refuted when exploration was exhaustive.
    for (const pc of runtime.ops) {
      const op = runtime.bytes[pc];
      if (op !== 0xff && op !== 0xf4) continue;
      const loc = mappedLine(pc);
      if (!loc) continue;
      const kind: SinkKind = op === 0xff ? 'selfdestruct' : 'delegatecall';
      if (base.sinks.some((s) => s.kind === kind && s.line === loc.line && s.contract === name)) continue;
      base.sinks.push({
        kind,
        contract: name,
        line: loc.line,
        status: complete ? 'refuted' : 'unresolved',
        why: complete
          ? `no ${kind === 'selfdestruct' ? 'path from an arbitrary caller reaches it' : 'path lets the caller choose the target'} within ${limits.maxTx} transaction(s)`
          : `exploration was cut short (${ex.stats.truncated.join('; ') || 'deadline'})`,
      });
    }
  }
  base.replay = replay;
  if (!anyTimeout) return done({ status: 'success', reason: null });
  const sofar = `before every path was explored (see contracts[].complete); the ${base.findings.length} finding(s) proven by then are reported`;
  if (plan.bound === 'request') return done({ status: 'timeout', reason: `the request's deadline ended the exploration ${sofar}` });
  return done({ status: 'success', reason: null, budget_exhausted: budgetExhausted(plan, 'exploration', req.budgetMs, sofar) });
}

export type { Outline };
