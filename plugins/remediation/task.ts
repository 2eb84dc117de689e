// Remediation as a pool task. A fix run parses the source again after every candidate edit and
// compiles each kept one; on a large contract with many findings that is seconds of CPU, which
// must not run on the thread serving both HTTP surfaces. In the worker the compiler runs
// in-process (the task itself is already killable at the request's deadline).
import { fileURLToPath } from 'node:url';
import { compileTask, oneLine } from '../../lib/analysis/compiler/index.ts';
import type { Finding, RemediationResult, WorkerPool } from '../../kernel/index.ts';
import { remediate, unchangedResult } from './remediate.ts';

export const REMEDIATE_MODULE = fileURLToPath(import.meta.url);

export interface RemediateTaskArgs {
  source: string;
  findings: Finding[];
  file: string;
  /** Compile every kept fix (imports resolved next to absPath, inside roots); null: parse checks only. */
  compile: { absPath: string | null; roots: string[] } | null;
}

export async function remediateTask(args: RemediateTaskArgs): Promise<RemediationResult> {
  if (!args || typeof args.source !== 'string' || !Array.isArray(args.findings))
    throw new TypeError('remediateTask needs {source, findings, file, compile}');
  const c = args.compile;
  return remediate(args.source, args.findings, {
    file: args.file,
    compile: c
      ? async (source) => {
          const r = compileTask({ source, file: args.file, absPath: c.absPath, roots: c.roots, outputs: 'check' });
          return { ok: r.ok, compiler: r.compiler, errors: r.errors.map(oneLine) };
        }
      : undefined,
  });
}

/** Runs the fix engine in the pool under the deadline (in process when there is no pool). */
export async function remediateOffThread(
  args: RemediateTaskArgs,
  opts: { pool: WorkerPool | null; signal?: AbortSignal; deadline?: number },
): Promise<RemediationResult> {
  if (!opts.pool) return remediateTask(args);
  try {
    // At least a second, even when the analysis before it used the whole budget.
    const deadline = opts.deadline === undefined ? undefined : Math.max(opts.deadline, Date.now() + 1000);
    return await opts.pool.run<RemediationResult>(REMEDIATE_MODULE, 'remediateTask', args, { signal: opts.signal, deadline });
  } catch (e) {
    const code = (e as { code?: string }).code;
    // Out of time answers like an analysis does: 200 with what is known, the reason on each finding.
    if (code === 'task_timeout')
      return unchangedResult(
        args.source,
        args.findings,
        args.file,
        'remediation did not finish within the request timeout; raise "timeout" to let it run longer',
      );
    throw e;
  }
}
