// What both EVM tools do with a run's outcome before handing it to the engine: an error or a
// timeout is logged with its cause (the result's `error` carries the same text), so a failed
// run in a long benchmark or a busy server can be explained from the log alone.
import type { ToolRunOutput } from '../../kernel/index.ts';

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
