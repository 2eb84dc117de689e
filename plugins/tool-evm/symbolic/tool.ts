// The vigil-symbolic AnalysisTool: sends the source to ./symbolic in a pool worker
// and maps its result to the tool contract (skipped when the source does not compile, timeout
// when the budget ran out before anything was proven).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisInput, AnalysisTool, ToolRunOptions, ToolRunOutput, WorkerPool } from '../../../kernel/index.ts';
import { installedCompilers } from '../../../lib/analysis/compiler/index.ts';
import { SYMBOLIC_TOOL, symbolicTask, type SymbolicRequest, type SymbolicResult } from './analyze.ts';
import { causeOf, reportOutcome, sharedCompile, skipUnlessDeployable, type ToolLog } from '../outcome.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SYMBOLIC_MODULE = path.resolve(here, './analyze.ts');

export const SELF_TEST_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract SelfTest {
    address owner;
    constructor() { owner = msg.sender; }
    function kill() external { selfdestruct(payable(msg.sender)); }
    function guarded() external { require(msg.sender == owner); selfdestruct(payable(msg.sender)); }
}
`;

export interface SymbolicToolOptions {
  /** Kernel pool; without one (tests, CLI helpers) the task runs in this thread. */
  pool: WorkerPool | null;
  maxTransactions?: number;
  loopBound?: number;
  maxPaths?: number;
  solverTimeoutMs?: number;
  /** Most time one run may take, compilation and Z3 start-up included (the request deadline still wins). */
  budgetMs?: number;
  /** The plugin's logger: every error and timeout is logged with its cause. */
  log?: ToolLog;
}

/**
 * Default run budget. Full mode runs every layer at once on a small worker pool, so symbolic
 * execution gets a per-contract share instead of running to the request deadline: on SmartBugs
 * the sinks it proves are found within the first seconds (deeper search mostly times out on
 * loops), and a cut-short exploration reports what it proved and marks the rest unresolved.
 */
export const DEFAULT_SYMBOLIC_BUDGET_MS = 4000;

/** Time the worker keeps back to return its answer before the request's deadline. */
const RETURN_MARGIN_MS = 1500;

export function createSymbolicTool(opts: SymbolicToolOptions): AnalysisTool {
  const limits = {
    ...(opts.maxTransactions ? { maxTx: opts.maxTransactions } : {}),
    ...(opts.loopBound ? { loopBound: opts.loopBound } : {}),
    ...(opts.maxPaths ? { maxPaths: opts.maxPaths } : {}),
  };

  const budget = opts.budgetMs ?? DEFAULT_SYMBOLIC_BUDGET_MS;

  async function runTask(req: SymbolicRequest, run: ToolRunOptions): Promise<SymbolicResult> {
    if (!opts.pool) return symbolicTask(req);
    // The budget runs from when a worker picks the task up (waiting behind other layers' tasks
    // does not eat it); the request deadline still bounds it, and the pool kills it there.
    return opts.pool.run<SymbolicResult>(SYMBOLIC_MODULE, 'symbolicTask', req, { signal: run.signal, deadline: run.deadline });
  }

  async function analyze(input: AnalysisInput, run: ToolRunOptions, budgetOverride?: number): Promise<ToolRunOutput> {
    const skip = await skipUnlessDeployable(input, 'symbolic execution');
    if (skip) return skip;
    let r: SymbolicResult;
    try {
      r = await runTask(
        {
          source: input.source,
          file: input.file,
          absPath: input.absPath ?? null,
          roots: input.roots,
          // The task aims to answer a little before the request's deadline (when the pool would
          // kill it and the engine stop waiting), so what it proved by then reaches the report.
          deadline: run.deadline - Math.min(RETURN_MARGIN_MS, Math.max(200, (run.deadline - Date.now()) * 0.1)),
          budgetMs: budgetOverride ?? budget,
          // The request's analysis budget (full mode), shared with the other layers.
          ...(run.budgetDeadline !== undefined ? { budgetDeadline: run.budgetDeadline } : {}),
          limits,
          solverTimeoutMs: opts.solverTimeoutMs,
          compiled: await sharedCompile(input),
        },
        run,
      );
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'task_timeout')
        return { status: 'timeout', findings: [], error: 'symbolic execution did not answer before the request deadline and was stopped' };
      if (code === 'task_aborted') return { status: 'timeout', findings: [], error: 'the request was cancelled during symbolic execution' };
      return { status: 'error', findings: [], error: `symbolic execution failed: ${causeOf(e)}` };
    }
    const meta = {
      compiler: r.compiler,
      sinks: r.sinks,
      contracts: r.contracts,
      replay: r.replay ?? null,
      z3_init_ms: r.z3_init_ms,
      elapsed_ms: r.elapsed_ms,
      ...(r.budget_exhausted ? { budget_exhausted: r.budget_exhausted } : {}),
    };
    if (r.status === 'skipped') return { status: 'skipped', findings: [], error: r.reason, meta };
    return { status: r.status, findings: r.findings, error: r.status === 'success' ? null : r.reason, meta };
  }

  return {
    name: SYMBOLIC_TOOL,
    layer: 3,
    description:
      'Symbolic execution of the deployed bytecode with Z3: finds attacker-reachable selfdestruct, delegatecall to a chosen address, ether withdrawal, assertion failures and stored integer overflows, and reports only counterexamples that break the property when replayed on the in-process EVM (replayable transaction sequences)',
    builtin: true,
    modes: ['full'],
    async availability() {
      try {
        createRequire(import.meta.url).resolve('z3-solver');
      } catch {
        return {
          available: false,
          reason: 'the z3-solver package is not installed',
          install_hint: 'npm install (z3-solver is a dependency)',
        };
      }
      if (!installedCompilers().length) return { available: false, reason: 'no solc compiler is installed', install_hint: 'npm install' };
      return { available: true, version: '1.0.0 (z3-solver wasm)' };
    },
    async selfTest() {
      const out = await analyze(
        { source: SELF_TEST_SOURCE, file: 'SelfTest.sol', sha256: '' },
        { signal: new AbortController().signal, deadline: Date.now() + 90_000, mode: 'full' },
        60_000,
      );
      const hit = out.findings.filter((f) => f.detector === 'symbolic-selfdestruct');
      const kill = hit.find((f) => f.location.function === 'kill');
      const ev = kill?.evidence as { kind?: string; sequence?: Array<{ function: string }> } | undefined;
      const tx = ev?.kind === 'transaction_sequence' ? ev.sequence?.at(-1) : undefined;
      if (!kill || tx?.function !== 'kill()')
        throw new Error(
          `vigil-symbolic self-test: expected a proven selfdestruct in kill() with a replayed kill() transaction, got ${hit.map((f) => f.location.function).join(', ') || 'none'} (${out.status}${out.error ? ': ' + out.error : ''})`,
        );
      if (hit.some((f) => f.location.function === 'guarded'))
        throw new Error('vigil-symbolic self-test: the owner-guarded selfdestruct was reported as reachable');
    },
    run: async (input, run) => reportOutcome(opts.log, SYMBOLIC_TOOL, input.file, await analyze(input, run)),
  };
}
