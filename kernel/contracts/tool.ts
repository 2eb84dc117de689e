// Contract for analysis tools (plugin kind "tool"): a built-in analyzer, a formal/dynamic layer,
// or an adapter around an external binary. The analysis engine looks tools up by name and runs
// the ones a mode or layer selects in parallel, each under the request's deadline.
import type { Finding, ToolStatus } from '../../schemas/finding.ts';

export interface ToolAvailability {
  available: boolean;
  version?: string | null;
  reason?: string | null;
  install_hint?: string | null;
}

export interface AnalysisInput {
  /** Solidity source text exactly as submitted. */
  source: string;
  /** Display/file name used in finding locations (relative path or "Contract.sol"). */
  file: string;
  /** Absolute path when the contract came from disk (imports resolve relative to it). */
  absPath?: string | null;
  /** sha256 of the source. */
  sha256: string;
  /** Findings already produced by earlier layers in this request (static results feed later ones). */
  prior?: Finding[];
  /** Main contract (the last deployable contract in the file), when the source parses. */
  contract?: string | null;
  /** Every contract/library/interface defined in the source, in order, with its kind. */
  contracts?: Array<{ name: string; kind: string; abstract?: boolean; line: number; end_line: number }>;
  /** Directories the contract's imports may be read from (the allowed contract roots). */
  roots?: string[];
  /** The engine's compilation of this source (tools that need the compiler choice reuse it
   *  instead of compiling again); `contracts` are those defined in the submitted file. */
  compilation?: Promise<{ ok: boolean; compiler: string | null; errors: string[]; contracts: string[] }>;
  /** The engine's full compile of this source when it made one (full mode: ABI, bytecode, source
   *  maps, AST — a CompileResult of lib/analysis/compiler), so tools that need exactly that (the
   *  EVM tools) hand it to their pool task instead of compiling again on another worker; null
   *  when there is none (quick mode, a failed or unfinished compile, a project build). */
  compiled?: Promise<unknown>;
}

export interface ToolRunOptions {
  signal: AbortSignal;
  /** Epoch ms by which the tool must have answered. */
  deadline: number;
  /** Audit depth requested: quick keeps per-tool budgets tight. */
  mode?: 'quick' | 'full';
  /** Epoch ms at which the request's analysis budget ends (full mode): one budget shared by every
   *  tool of the request, so a tool that searches until told to stop (fuzzing, symbolic execution,
   *  model checking) ends its search there, however late it started, and reports what it found as
   *  a partial result (`meta.budget_exhausted`). `deadline` stays the hard stop. */
  budgetDeadline?: number;
  /** Epoch ms at which a bounded search's reserved share of that budget ends (full mode, tools
   *  with `boundedSearch`): it starts no job past it (its first job excepted) and stops one still
   *  running there, so the open-ended searches queued behind it get the rest of the budget. */
  sliceDeadline?: number;
}

export interface ToolRunOutput {
  status?: ToolStatus;
  findings: Finding[];
  error?: string | null;
  /** Free-form extra output (compiler version used, counterexamples, coverage...). */
  meta?: Record<string, unknown>;
}

export interface AnalysisTool {
  name: string;
  layer: number;
  description: string;
  /** Built-in tools run offline after npm install; their self-test decides health. */
  builtin: boolean;
  /** Audit modes that include this tool. Quick mode must finish in seconds. */
  modes: Array<'quick' | 'full'>;
  /** Plugin runtime (ts or wasm) and id, filled in by the kernel. */
  plugin?: string;
  runtime?: 'ts' | 'wasm';
  /** When true the engine starts this tool after the layer-1 tools finished and passes their
   *  findings as input.prior (bounded by the request deadline). */
  usesPrior?: boolean;
  /** The tool's search is a fixed set of jobs, each under its own bound (model checking), rather
   *  than one that improves until told to stop (fuzzing, symbolic execution). Under a shared
   *  budget the engine starts such a tool before the open-ended searches with a reserved slice
   *  (ToolRunOptions.sliceDeadline): otherwise those take every worker first and it never runs. */
  boundedSearch?: boolean;
  availability(): Promise<ToolAvailability>;
  selfTest?(): Promise<void>;
  run(input: AnalysisInput, opts: ToolRunOptions): Promise<ToolRunOutput>;
}
