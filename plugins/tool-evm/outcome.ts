// What both EVM tools do with a run's outcome before handing it to the engine: an error or a
// timeout is logged with its cause (the result's `error` carries the same text), so a failed
// run in a long benchmark or a busy server can be explained from the log alone.
import type { AnalysisInput, ToolRunOutput } from '../../kernel/index.ts';
import type { CompileResult } from '../../lib/analysis/compiler/index.ts';

/** The part of the plugin logger (pino) the tools use. */
export interface ToolLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** First line of an error's message plus where it was thrown, for logs and `error` fields. */
export function causeOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const at = e.stack
    ?.split('\n')
    .slice(1)
    .find((l) => /^\s+at /.test(l))
    ?.trim();
  return `${e.message.split('\n')[0]}${at ? ` (${at})` : ''}`;
}

export function reportOutcome(log: ToolLog | undefined, tool: string, file: string, out: ToolRunOutput): ToolRunOutput {
  if (log && out.status === 'error') log.error({ tool, file, error: out.error }, `${tool} failed on ${file}: ${out.error}`);
  else if (log && out.status === 'timeout') log.warn({ tool, file, error: out.error }, `${tool} timed out on ${file}: ${out.error}`);
  return out;
}

/** The engine's full compile (AnalysisInput.compiled) for a pool task, or null. */
export async function sharedCompile(input: AnalysisInput): Promise<CompileResult | null> {
  const c = input.compiled ? ((await input.compiled) as CompileResult | null) : null;
  return c && c.ok ? c : null;
}

/**
 * Both tools deploy what the file compiles to: when the engine's shared compile says the source
 * does not compile, or defines no contract at all, the run is `skipped` with that cause before a
 * pool task is queued. null: go ahead (also when no shared compile was handed in).
 */
export async function skipUnlessDeployable(input: AnalysisInput, what: string): Promise<ToolRunOutput | null> {
  if (!input.compilation) return null;
  const c = await input.compilation;
  if (!c.ok)
    return { status: 'skipped', findings: [], error: `${what} needs a compiling contract: ${c.errors[0] ?? 'compilation failed'}` };
  if (!c.contracts.length) return { status: 'skipped', findings: [], error: 'the file defines no contract to deploy' };
  return null;
}

/** What ends a search: the request's deadline (a timeout), the request's analysis budget shared
 *  with the other layers, or the tool's own budget (both part of the plan: a partial result). */
export type RunBound = 'request' | 'shared' | 'own';

/** Search time a run gets when the request's shared analysis budget is already spent when it
 *  could start (its seeds, a first exploration): a late tool still says something. */
export const MIN_SHARED_SLICE_MS = 1000;

export interface SearchPlan {
  /** Epoch ms at which the search must have answered. */
  deadline: number;
  bound: RunBound;
  /** The plan was extended to a minimum because little or nothing was left when the search began. */
  late: boolean;
}

/** The run's end from its start (t0), the request's deadline, its own budget and the shared one. */
export function planSearch(t0: number, requestDeadline: number, budgetMs?: number, budgetDeadline?: number): SearchPlan {
  const own = budgetMs ? t0 + budgetMs : Infinity;
  const shared = budgetDeadline ?? Infinity;
  const bound: RunBound = requestDeadline <= Math.min(own, shared) ? 'request' : shared < own ? 'shared' : 'own';
  return { deadline: Math.min(requestDeadline, own, shared), bound, late: false };
}

/** Once the search can begin (compiled, solver loaded): at least `ownMinimum` ms under the tool's
 *  own budget, MIN_SHARED_SLICE_MS under the shared one, as far as the request's deadline allows. */
export function ensureMinimum(plan: SearchPlan, requestDeadline: number, ownMinimum: number): SearchPlan {
  const minimum = plan.bound === 'shared' ? MIN_SHARED_SLICE_MS : plan.bound === 'own' ? ownMinimum : 0;
  if (plan.deadline - Date.now() >= minimum) return plan;
  const extended = Math.min(requestDeadline, Date.now() + minimum);
  return { deadline: Math.max(plan.deadline, extended), bound: extended >= requestDeadline ? 'request' : plan.bound, late: true };
}

/** `meta.budget_exhausted` of a search a planned budget ended: which budget, and what was kept. */
export function budgetExhausted(plan: SearchPlan, what: string, budgetMs: number | undefined, sofar: string): string {
  if (plan.bound === 'shared')
    return plan.late
      ? `the request's analysis budget was spent when the ${what} could start; it was given its ${MIN_SHARED_SLICE_MS} ms minimum and ended ${sofar}`
      : `the request's analysis budget ended the ${what} ${sofar}`;
  return `the ${budgetMs} ms budget ended the ${what} ${sofar}`;
}
