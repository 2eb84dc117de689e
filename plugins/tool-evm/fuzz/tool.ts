// vigil-fuzz: dynamic testing with proofs. Compiles the file, deploys every deployable contract
// from an owner account, funds them, and fuzzes ABI call sequences (owner, user, attacker EOA,
// a re-entering attacker contract, a contract that rejects ether) guided by coverage and by the
// functions earlier layers flagged. Each finding is a property that a concrete sequence broke
// and that broke again when the sequence was replayed on a fresh EVM, so it is reported at
// confidence 1.0 with the sequence as evidence.
//
// False positives it avoids by construction: ether the attacker gets back from its own deposit
// is not theft (its spending counts against it), payments made by the owner or a user to the
// attacker do not count (only the attacker's own transactions, and only while the owner has not
// acted), an address write counts as an owner change only for a slot the contract compares with
// msg.sender to refuse callers, SafeMath-style guard asserts and wraps that a check reverts are
// not reported, and nothing is reported that did not replay.
import type { AnalysisInput, AnalysisTool, ToolRunOptions, ToolRunOutput, WorkerPool } from '../../../kernel/index.ts';
import { installedCompilers } from '../../../lib/analysis/compiler/index.ts';
import { FUZZ_MODULE, fuzzTask, type FuzzTaskArgs, type FuzzTaskResult } from './task.ts';
import { causeOf, reportOutcome, sharedCompile, skipUnlessDeployable, type ToolLog } from '../outcome.ts';

export interface FuzzToolOptions {
  pool: WorkerPool | null;
  /** Most time one run may take, compilation included (the request deadline still wins). */
  budgetMs?: number;
  /** The plugin's logger: every error and timeout is logged with its cause. */
  log?: ToolLog;
}

/**
 * Default run budget, counted from when a pool worker starts the task. Full mode runs every
 * layer at once on a small worker pool, so the fuzzer gets a per-contract share, not the
 * request deadline: 5 s is the setting of the dynamic benchmark (bench/dynamic.ts, every proof
 * replayed), about 3.5 s of fuzzing after compilation and the rest for shrinking and replaying,
 * and a coverage plateau ends it earlier. Deeper campaigns set `budget_ms` or run the tool alone.
 */
export const DEFAULT_FUZZ_BUDGET_MS = 5000;

/** Time the worker keeps back to return its answer before the pool would kill it. */
const RETURN_MARGIN_MS = 1500;

export function createFuzzTool(opts: FuzzToolOptions): AnalysisTool {
  const budget = opts.budgetMs ?? DEFAULT_FUZZ_BUDGET_MS;

  async function execute(args: FuzzTaskArgs, run: { signal: AbortSignal; killAt: number }): Promise<FuzzTaskResult> {
    if (!opts.pool) return fuzzTask(args);
    return opts.pool.run<FuzzTaskResult>(FUZZ_MODULE, 'fuzzTask', args, { signal: run.signal, deadline: run.killAt });
  }

  const tool: AnalysisTool = {
    name: 'vigil-fuzz',
    layer: 2,
    description:
      'In-process EVM fuzzer: coverage-guided transaction sequences against the deployed contracts; findings carry the sequence that proves them (ether drained, reentrancy, owner takeover, selfdestruct, assertion failures, wrap-around, denial of service, echidna_/invariant_ properties)',
    builtin: true,
    modes: ['full'],
    usesPrior: true,
    async availability() {
      if (!installedCompilers().length)
        return { available: false, reason: 'no solc release is installed', install_hint: 'npm install (solc ships with the package)' };
      return { available: true, version: '0.1.0' };
    },
    async selfTest() {
      const source =
        'pragma solidity 0.4.24;\ncontract SelfTest {\n  function () public payable {}\n  function kill() public {\n    selfdestruct(msg.sender);\n  }\n}\n';
      const r = await runFuzz(
        { source, file: 'SelfTest.sol', sha256: '' },
        { signal: new AbortController().signal, deadline: Date.now() + 90_000, mode: 'full' },
        60_000,
      );
      if (r.status !== 'success') throw new Error(`fuzzer self-test: status ${r.status}${r.error ? `: ${r.error}` : ''}`);
      if (!r.findings.some((f) => (f.evidence as { property?: string })?.property === 'selfdestruct'))
        throw new Error('fuzzer self-test: the unprotected selfdestruct was not proved');
    },
    run: async (input, run) => reportOutcome(opts.log, 'vigil-fuzz', input.file, await runFuzz(input, run)),
  };

  async function runFuzz(input: AnalysisInput, run: ToolRunOptions, budgetOverride?: number): Promise<ToolRunOutput> {
    const t0 = Date.now();
    const skip = await skipUnlessDeployable(input, 'dynamic testing');
    if (skip) return skip;
    // The budget runs from when a worker starts the task (waiting in the pool behind other
    // layers does not eat it); the request deadline bounds it, and the pool kills it there.
    const killAt = run.deadline;
    const taskDeadline = killAt - Math.min(RETURN_MARGIN_MS, Math.max(200, (killAt - Date.now()) * 0.1));
    if (taskDeadline - Date.now() < 1000)
      return { status: 'timeout', findings: [], error: 'less than a second was left for dynamic testing' };
    const budgetMs = budgetOverride ?? budget;
    const priorFunctions = [
      ...new Set((input.prior ?? []).map((f) => f.location?.function).filter((f): f is string => typeof f === 'string' && f !== '')),
    ];
    try {
      const r = await execute(
        {
          source: input.source,
          file: input.file,
          absPath: input.absPath ?? null,
          roots: input.roots,
          deadline: taskDeadline,
          budgetMs,
          // The request's analysis budget (full mode), shared with the other layers.
          ...(run.budgetDeadline !== undefined ? { budgetDeadline: Math.min(run.budgetDeadline, taskDeadline) } : {}),
          priorFunctions,
          compiled: await sharedCompile(input),
        },
        { signal: run.signal, killAt },
      );
      return {
        status: r.status,
        findings: r.findings,
        error: r.error,
        meta: { ...r.meta, prior_functions: priorFunctions, elapsed_ms: Date.now() - t0 },
      };
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'task_timeout')
        return { status: 'timeout', findings: [], error: 'the fuzzing task did not return before its deadline and was stopped' };
      if (code === 'task_aborted') return { status: 'timeout', findings: [], error: 'the request was cancelled while fuzzing' };
      return { status: 'error', findings: [], error: `fuzzing failed: ${causeOf(e)}` };
    }
  }
  return tool;
}
