// The "analysis" service: the engine that the REST API, the CLI, the contract_audit skill and
// MCP all call, so every surface returns the same body for the same input.
import type { Finding, ToolResult, Severity } from '../../schemas/finding.ts';
import type { ToolAvailability } from './tool.ts';

export type AuditType = 'quick' | 'full' | 'layer' | 'tool';

export interface AnalyzeSource {
  source: string;
  /** Display name used in finding locations. */
  file: string;
  absPath?: string | null;
  /** Directories imports may be read from; defaults to the service's contract roots. */
  roots?: string[];
}

export interface AnalyzeOptions {
  mode: AuditType;
  layer?: number;
  tool?: string;
  /** Whole-request budget in milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called as each tool finishes (analysis jobs report it as progress). */
  onProgress?: (p: { tool: string; status: string; done: number; total: number }) => void;
  /** Apply the source's suppression comments: silenced findings move to `suppressed`. */
  suppress?: boolean;
}

export interface ContractInfo {
  name: string | null;
  sha256: string;
  pragma: string | null;
  compiler: string | null;
}

export interface AnalysisResult {
  audit_id: string;
  audit_type: AuditType;
  contract: ContractInfo;
  layers: number[];
  tools: string[];
  results: ToolResult[];
  findings: Finding[];
  summary: Record<Severity, number>;
  total_findings: number;
  execution_time: number;
  timestamp: string;
  version: string;
  /** Compilation outcome; when it failed, analysis ran on the parser AST and this says why. */
  compilation?: {
    ok: boolean;
    compiler: string | null;
    errors: string[];
    warnings?: string[];
    /** Why this compiler was chosen (pragma resolution), or why none could be. */
    reason?: string | null;
    /** When not ok: what that means for the analysis ("analysis ran on the parser AST only"). */
    note?: string;
  };
  /** Conditions the user should know about (unparsable source, failed compilation...). */
  notes?: string[];
  [extra: string]: unknown;
}

export interface ToolInfo extends ToolAvailability {
  name: string;
  layer: number;
  layer_name: string;
  description: string;
  builtin: boolean;
  runtime: 'ts' | 'wasm' | 'external';
  plugin: string | null;
  modes: Array<'quick' | 'full'>;
  status: 'ok' | 'error' | 'not_available';
  self_test?: { ok: boolean; error?: string | null } | null;
}

export interface SelfTestResult {
  ok: boolean;
  error: string | null;
  duration_ms: number;
  at: string;
}

export interface AnalysisHealth {
  /** healthy: every builtin tool available and its self-test passed (or has not finished yet);
   *  degraded: some builtin tool failed; unhealthy: no builtin tool works. */
  status: 'healthy' | 'degraded' | 'unhealthy';
  reasons: string[];
  tools: Record<
    string,
    {
      available: boolean;
      builtin: boolean;
      layer: number;
      status: ToolInfo['status'];
      reason: string | null;
      self_test: SelfTestResult | null;
    }
  >;
  self_tests_done: boolean;
}

export interface AnalysisEngine {
  /** Throws HttpError 400 (empty/binary source, bad layer), 404 tool_not_found, 413 (> 1 MiB). */
  analyze(input: AnalyzeSource, opts: AnalyzeOptions): Promise<AnalysisResult>;
  listTools(): Promise<ToolInfo[]>;
  getTool(name: string): Promise<ToolInfo | null>;
  layers(): Promise<Array<{ layer: number; name: string; tools: string[]; available: boolean }>>;
  /** Start-up self-test results of builtin tools, by tool name. */
  selfTests?(): Record<string, SelfTestResult>;
  /** Analysis part of the health report. */
  health?(): Promise<AnalysisHealth>;
  /** The renderer of one output format (SARIF 2.1.0 log, Markdown or HTML report), loaded on
   *  first use. */
  formatter(kind: OutputFormat): Promise<ResultFormatter>;
}

export type OutputFormat = 'sarif' | 'markdown' | 'html';
export type ResultFormatter = (r: AnalysisResult, opts?: Record<string, unknown>) => unknown;
