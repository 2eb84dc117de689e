// Dynamic testing (analysis layer 2): an in-process EVM fuzzer whose findings carry the exact
// transaction sequence that proves them. `fuzzTask` is what runs inside a kernel pool worker:
// it compiles, deploys, fuzzes until its deadline and returns replay-confirmed findings.
import { fileURLToPath } from 'node:url';
import type { Finding, ToolStatus } from '../../../schemas/finding.ts';
import { compileProgram } from '../evm/program.ts';
import type { CompileResult } from '../../../lib/analysis/compiler/index.ts';
import { fuzzProgram, type FuzzResult } from './fuzzer.ts';
import { proofsToFindings } from './findings.ts';
import { budgetExhausted, causeOf, ensureMinimum, planSearch } from '../outcome.ts';

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
  /** Epoch ms at which the request's analysis budget, shared with the other layers, ends: the
   *  campaign stops there however late it started (after at least outcome.ts's MIN_SHARED_SLICE_MS). */
  budgetDeadline?: number;
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
  if (typeof args?.source !== 'string' || !args.source.trim())
    return { status: 'error', findings: [], error: 'no source to fuzz', meta: {} };
  // Which bound ends the run: the tool's own budget or the request's shared analysis budget ends a
  // campaign as planned (what it proved is reported as partial); the request's deadline ending it
  // first is a timeout (what was proved by then is still reported).
  const requestDeadline = args.deadline;
  let plan = planSearch(t0, requestDeadline, args.budgetMs, args.budgetDeadline);
  args = { ...args, deadline: plan.deadline };
  const { program, result, error } = compileProgram(args);
  if (!program) return { status: 'skipped', findings: [], error, meta: { compiler: result.compiler } };
  const meta: Record<string, unknown> = { compiler: program.compiler, hardfork: program.fork, compile_ms: Date.now() - t0 };
  // A slow compile (a loaded machine) must not leave the campaign no time at all: it still gets
  // half its budget (at most 2.5 s) when the request allows it; a campaign that starts when the
  // shared budget is (nearly) spent still runs its seeds for MIN_SHARED_SLICE_MS.
  plan = ensureMinimum(plan, requestDeadline, Math.min(2500, (args.budgetMs ?? 0) / 2));
  args = { ...args, deadline: plan.deadline };
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
  if (r.stats.stopped !== 'deadline') return { status: 'success', findings, error: null, meta };
  const sofar = `after ${r.stats.sequences} sequences (coverage last grew at sequence ${r.stats.last_new_sequence}); the ${findings.length} finding(s) proved by then are reported`;
  if (plan.bound === 'request') return { status: 'timeout', findings, error: `the request's deadline ended fuzzing ${sofar}`, meta };
  meta.budget_exhausted = budgetExhausted(plan, 'campaign', args.budgetMs, sofar);
  return { status: 'success', findings, error: null, meta };
}
