// Dynamic testing (analysis layer 2): an in-process EVM fuzzer whose findings carry the exact
// transaction sequence that proves them. `fuzzTask` is what runs inside a kernel pool worker:
// it compiles, deploys, fuzzes until its deadline and returns replay-confirmed findings.
import { fileURLToPath } from 'node:url';
import type { Finding, ToolStatus } from '../../../schemas/finding.ts';
import { compileProgram } from '../evm/program.ts';
import type { CompileResult } from '../../../lib/analysis/compiler/index.ts';
import { fuzzProgram, type FuzzResult } from './fuzzer.ts';
import { proofsToFindings } from './findings.ts';
import { causeOf } from '../outcome.ts';

export const FUZZ_MODULE = fileURLToPath(import.meta.url);

export { fuzzProgram, type FuzzOptions, type FuzzResult } from './fuzzer.ts';
export { proofToFinding, proofsToFindings, TOOL_NAME } from './findings.ts';

export interface FuzzTaskArgs {
  source: string;
  file: string;
  absPath?: string | null;
  roots?: string[];
  /** Epoch ms by which the task must return. */
  deadline: number;
  /** Time the task may take from the moment a worker starts it (queueing not counted). */
  budgetMs?: number;
  priorFunctions?: string[];
  seed?: number;
  maxSequences?: number;
  /** The engine's compile of this source (full outputs and AST), when it made one. */
  compiled?: CompileResult | null;
}

export interface FuzzTaskResult {
  status: ToolStatus;
  findings: Finding[];
  error: string | null;
  meta: Record<string, unknown>;
}

/** Pool task: compile, fuzz, prove. Never throws for bad input: the status says what happened. */
export async function fuzzTask(args: FuzzTaskArgs): Promise<FuzzTaskResult> {
  const t0 = Date.now();
  // Which bound ends the run: the tool's own budget ends a campaign as planned; the request's
  // deadline ending it first is a timeout (what was proved by then is still reported).
  let requestBound = !args?.budgetMs || args.deadline < t0 + args.budgetMs;
  const requestDeadline = args?.deadline;
  if (args?.budgetMs) args = { ...args, deadline: Math.min(args.deadline, t0 + args.budgetMs) };
  if (typeof args?.source !== 'string' || !args.source.trim())
    return { status: 'error', findings: [], error: 'no source to fuzz', meta: {} };
  const { program, result, error } = compileProgram(args);
  if (!program) return { status: 'skipped', findings: [], error, meta: { compiler: result.compiler } };
  const meta: Record<string, unknown> = { compiler: program.compiler, hardfork: program.fork, compile_ms: Date.now() - t0 };
  // A slow compile (a loaded machine) must not leave the campaign no time at all: it still gets
  // half its budget (at most 2.5 s) when the request allows it.
  const minimum = args.budgetMs ? Math.min(2500, args.budgetMs / 2) : 0;
  if (args.deadline - Date.now() < minimum) {
    const extended = Math.min(requestDeadline, Date.now() + minimum);
    if (extended >= requestDeadline) requestBound = true;
    args = { ...args, deadline: Math.max(args.deadline, extended) };
  }
  if (Date.now() > args.deadline - 300)
    return { status: 'timeout', findings: [], error: 'compilation used the whole time budget; nothing was fuzzed', meta };
  let r: FuzzResult;
  try {
    r = await fuzzProgram(program, {
      deadline: args.deadline - 100,
      priorFunctions: args.priorFunctions,
      seed: args.seed,
      maxSequences: args.maxSequences,
    });
  } catch (e) {
    return { status: 'error', findings: [], error: `fuzzing failed: ${causeOf(e)}`, meta };
  }
  Object.assign(meta, r.stats, {
    deployed: r.world?.targets.map((t) => ({ contract: t.name, address: t.address })) ?? [],
    not_deployed: r.world?.failed ?? [],
  });
  if (r.skipped) {
    const failedAll = Boolean(r.world && r.world.failed.length && !r.world.targets.length);
    return {
      status: failedAll ? 'error' : 'skipped',
      findings: [],
      error: failedAll ? `no contract could be deployed: ${r.skipped}` : r.skipped,
      meta,
    };
  }
  const findings = proofsToFindings(r.world!, r.proofs);
  if (requestBound && r.stats.stopped === 'deadline')
    return {
      status: 'timeout',
      findings,
      error: `the request's deadline ended fuzzing after ${r.stats.sequences} sequences; the ${findings.length} finding(s) proved by then are reported`,
      meta,
    };
  return { status: 'success', findings, error: null, meta };
}
