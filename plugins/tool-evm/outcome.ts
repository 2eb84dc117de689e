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
