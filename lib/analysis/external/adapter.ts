// Shared shape of an external-analyzer adapter: availability from PATH (with the install hint a
// user needs), a fixed argv built from the request, a run bounded by the deadline, and a parser
// from the tool's JSON to our findings. Each adapter plugin only supplies argv and the mapping.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AnalysisInput, AnalysisTool, ToolAvailability, ToolRunOptions, ToolRunOutput } from '../../../kernel/contracts/tool.ts';
import type { Category, Finding, Severity } from '../../../schemas/finding.ts';
import { findingId, sliceLines } from '../ids.ts';
import { CATEGORY_RECOMMENDATION } from '../taxonomy.ts';
import { findBinary, prepareWorkspace, runBinary, tail, type RunResult, type Workspace } from './process.ts';
import { locate, outlineSource, type Outline } from '../outline.ts';

export interface AdapterRunContext {
  input: AnalysisInput;
  opts: ToolRunOptions;
  /** Absolute paths of the binaries, by name. */
  bins: Record<string, string>;
  ws: Workspace;
  /** Seconds left before the deadline (minus a margin for parsing), at least 1. */
  secondsLeft: number;
  /** A private temp file path for tools that write their report to a file. */
  outFile: string;
}

export interface AdapterCommand {
  bin?: string;
  args: string[];
  cwd?: string;
  /** Read this file as the report instead of stdout. */
  reportFile?: string;
}

export interface AdapterOutput {
  stdout: string;
  stderr: string;
  code: number | null;
  /** Content of reportFile when one was named and written. */
  report: string | null;
}

export interface ExternalToolSpec {
  name: string;
  layer: number;
  description: string;
  modes: Array<'quick' | 'full'>;
  binary: string;
  /** Other binaries the tool needs (halmos drives forge). */
  requires?: string[];
  installHint: string;
  versionArgs?: string[];
  /** Extra files to create next to the contract (forces a temp workspace), e.g. foundry.toml. */
  workspaceFiles?(input: AnalysisInput): Record<string, string> | null;
  /** Returns a ToolRunOutput instead of a command when the input cannot be run (skipped). */
  command(ctx: AdapterRunContext): AdapterCommand | ToolRunOutput;
  parse(out: AdapterOutput, ctx: AdapterRunContext, helpers: FindingHelpers): ToolRunOutput;
}

export interface FindingDraft {
  rule: string;
  title: string;
  description: string;
  severity: Severity;
  confidence: number;
  category: Category;
  swc_id?: string | null;
  cwe_id?: string | null;
  line: number;
  end_line?: number;
  column?: number;
  contract?: string | null;
  function?: string | null;
  recommendation?: string | null;
  evidence?: unknown;
}

export interface FindingHelpers {
  outline: Outline;
  finding(d: FindingDraft): Finding;
  /** True when a path a tool reports is the analysed file. */
  isTarget(p: string | null | undefined): boolean;
}

export function makeFindingHelpers(
  tool: string,
  layer: number,
  input: Pick<AnalysisInput, 'source' | 'file' | 'absPath'>,
  wsFile?: string,
): FindingHelpers {
  const outline = outlineSource(input.source);
  const lineCount = input.source.split('\n').length;
  const targets = new Set(
    [path.basename(input.file), input.absPath ? path.basename(input.absPath) : null, wsFile ? path.basename(wsFile) : null].filter(
      Boolean,
    ) as string[],
  );
  const fulls = new Set([input.absPath, wsFile].filter(Boolean) as string[]);
  return {
    outline,
    isTarget(p) {
      if (!p) return false;
      if (fulls.has(p)) return true;
      return targets.has(path.basename(p));
    },
    finding(d) {
      const line = Math.min(Math.max(1, Math.floor(d.line) || 1), lineCount);
      const end = Math.min(Math.max(line, Math.floor(d.end_line ?? line) || line), lineCount);
      const where = locate(outline, line);
      const contract = d.contract ?? where.contract;
      const fn = d.function ?? where.function;
      return {
        id: findingId({ detector: `${tool}:${d.rule}`, contract, function: fn, code: sliceLines(input.source, line, end) }),
        detector: `${tool}-${d.rule}`,
        title: d.title,
        description: d.description,
        severity: d.severity,
        confidence: Math.max(0, Math.min(1, d.confidence)),
        category: d.category,
        swc_id: d.swc_id ?? null,
        cwe_id: d.cwe_id ?? null,
        location: {
          file: input.file,
          line,
          end_line: end,
          ...(d.column != null && d.column >= 0 ? { column: d.column } : {}),
          contract,
          function: fn,
        },
        tools: [tool],
        layers: [layer],
        recommendation: d.recommendation || CATEGORY_RECOMMENDATION[d.category],
        ...(d.evidence !== undefined ? { evidence: d.evidence } : {}),
      };
    },
  };
}

export interface ExternalToolOptions {
  /** PATH to search (tests point it at a folder of fake binaries); default process.env.PATH. */
  envPath?: string;
}

export function defineExternalTool(spec: ExternalToolSpec, options: ExternalToolOptions = {}): AnalysisTool {
  const versions = new Map<string, string | null>();
  const locateAll = (): { bins: Record<string, string>; missing: string[] } => {
    const envPath = options.envPath ?? process.env.PATH;
    const bins: Record<string, string> = {};
    const missing: string[] = [];
    for (const b of [spec.binary, ...(spec.requires ?? [])]) {
      const p = findBinary(b, envPath);
      if (p) bins[b] = p;
      else missing.push(b);
    }
    return { bins, missing };
  };
  const env = (): NodeJS.ProcessEnv => (options.envPath ? { ...process.env, PATH: options.envPath } : process.env);

  const tool: AnalysisTool = {
    name: spec.name,
    layer: spec.layer,
    description: spec.description,
    builtin: false,
    modes: spec.modes,
    async availability(): Promise<ToolAvailability> {
      const { bins, missing } = locateAll();
      if (missing.length) {
        return { available: false, version: null, reason: `${missing.join(' and ')} not found on PATH`, install_hint: spec.installHint };
      }
      const bin = bins[spec.binary];
      if (!versions.has(bin)) {
        const r = await runBinary(bin, spec.versionArgs ?? ['--version'], { deadline: Date.now() + 10_000, env: env() });
        const text = `${r.stdout}\n${r.stderr}`.trim();
        const m = /\d+\.\d+(?:\.\d+)?(?:[-+.\w]*)?/.exec(text);
        versions.set(bin, r.code === 0 || m ? (m?.[0] ?? text.split('\n')[0] ?? null) : null);
      }
      return { available: true, version: versions.get(bin) ?? null, reason: null, install_hint: null };
    },
    async run(input: AnalysisInput, opts: ToolRunOptions): Promise<ToolRunOutput> {
      const { bins, missing } = locateAll();
      if (missing.length) {
        return {
          status: 'not_available',
          findings: [],
          error: `${missing.join(' and ')} not found on PATH; install with: ${spec.installHint}`,
        };
      }
      const extra = spec.workspaceFiles?.(input) ?? undefined;
      const ws = await prepareWorkspace(input, extra ?? undefined);
      const outDir = await fsp.mkdtemp(path.join((await import('node:os')).tmpdir(), `vigil-${spec.name}-`));
      try {
        const ctx: AdapterRunContext = {
          input,
          opts,
          bins,
          ws,
          secondsLeft: Math.max(1, Math.floor((opts.deadline - Date.now() - 1500) / 1000)),
          outFile: path.join(outDir, 'report.json'),
        };
        const cmd = spec.command(ctx);
        if (!('args' in cmd)) return cmd;
        const r: RunResult = await runBinary(cmd.bin ?? bins[spec.binary], cmd.args, {
          cwd: cmd.cwd ?? ws.dir,
          signal: opts.signal,
          deadline: opts.deadline,
          env: env(),
        });
        if (r.timedOut)
          return {
            status: 'timeout',
            findings: [],
            error: `${spec.name} did not finish before the deadline (${Math.round(r.durationMs / 1000)} s) and was stopped`,
          };
        if (r.aborted) return { status: 'error', findings: [], error: `${spec.name} was cancelled with the request` };
        if (r.code === null && r.signal === null)
          return { status: 'error', findings: [], error: `${spec.name} could not be started: ${r.stderr}` };
        let report: string | null = null;
        if (cmd.reportFile) report = await fsp.readFile(cmd.reportFile, 'utf8').catch(() => null);
        const helpers = makeFindingHelpers(spec.name, spec.layer, input, ws.file);
        const parsed = spec.parse({ stdout: r.stdout, stderr: r.stderr, code: r.code, report }, ctx, helpers);
        return {
          ...parsed,
          meta: {
            exit_code: r.code,
            duration_ms: r.durationMs,
            ...(r.truncated ? { output_truncated: true } : {}),
            ...(parsed.meta ?? {}),
          },
        };
      } finally {
        await ws.cleanup().catch(() => {});
        await fsp.rm(outDir, { recursive: true, force: true }).catch(() => {});
      }
    },
  };
  return tool;
}

/** The error a parser returns when a tool printed no usable JSON. */
/** The tool said in its own report that it failed: its last lines of explanation, on one line. */
export function reportedFailure(tool: string, error: unknown, lastLines: number): ToolRunOutput {
  const why = (typeof error === 'string' && error ? error : 'unknown error').trim().split('\n').slice(-lastLines).join(' ');
  return { status: 'error', findings: [], error: `${tool} failed: ${why}` };
}

export function noJson(tool: string, out: AdapterOutput): ToolRunOutput {
  const why = tail(out.stderr) || tail(out.stdout) || `exit code ${out.code}`;
  return { status: 'error', findings: [], error: `${tool} produced no JSON report: ${why}` };
}
