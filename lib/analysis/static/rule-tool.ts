// An AnalysisTool around a set of AST rules that runs in the kernel worker pool (layers 7 and 8
// are built this way). The task module exports one function taking {source, file}; without a pool
// (tests, scripts) the same function runs in-process. A self-test source must yield the expected
// `detector@line` findings, or the tool reports itself broken in health.
import type { AnalysisInput, AnalysisTool, Finding, ToolRunOptions, ToolRunOutput, WorkerPool } from '../../../kernel/index.ts';
import { groupProjectNotes } from './dedup.ts';

type Task = (args: {
  source: string;
  file: string;
}) => Promise<{ findings: Finding[]; diagnostics: unknown[] }> | { findings: Finding[]; diagnostics: unknown[] };

export interface RuleToolSpec {
  name: string;
  layer: number;
  description: string;
  /** Absolute path of the worker module and the name of its task export. */
  worker: string;
  taskName: string;
  task: Task;
  selfTest: { source: string; expect: string[] };
  /** Rules whose findings are hygiene rather than vulnerabilities: reported in full mode only. */
  fullModeOnly?: string[];
}

export function createRuleTool(spec: RuleToolSpec, opts: { pool: WorkerPool | null }): AnalysisTool {
  async function analyze(input: Pick<AnalysisInput, 'source' | 'file'>, run: ToolRunOptions): Promise<ToolRunOutput> {
    const args = { source: input.source, file: input.file };
    const r = opts.pool
      ? await opts.pool.run<{ findings: Finding[]; diagnostics: unknown[] }>(spec.worker, spec.taskName, args, {
          signal: run.signal,
          deadline: run.deadline,
        })
      : await spec.task(args);
    const quick = (run as ToolRunOptions & { mode?: string }).mode === 'quick';
    const findings =
      quick && spec.fullModeOnly?.length ? r.findings.filter((f) => !spec.fullModeOnly!.includes(f.detector ?? '')) : r.findings;
    // INFO notes (missing-event in full mode) stay few: at most 3 per rule in a file.
    return { status: 'success', findings: groupProjectNotes(findings), error: null, meta: { diagnostics: r.diagnostics } };
  }
  return {
    name: spec.name,
    layer: spec.layer,
    description: spec.description,
    builtin: true,
    modes: ['quick', 'full'],
    async availability() {
      return { available: true, version: '1.0.0' };
    },
    async selfTest() {
      const out = await analyze(
        { source: spec.selfTest.source, file: 'SelfTest.sol' },
        { signal: new AbortController().signal, deadline: Date.now() + 60_000 },
      );
      const got = out.findings.map((f) => `${f.detector}@${f.location.line}`).sort();
      const missing = spec.selfTest.expect.filter((e) => !got.includes(e));
      if (missing.length)
        throw new Error(`${spec.name} self-test: expected ${spec.selfTest.expect.join(' and ')}, got ${got.join(', ') || 'none'}`);
    },
    run: analyze,
  };
}
