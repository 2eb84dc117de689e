// The analysis engine: one place that turns (source, mode) into the response body every surface
// returns. It picks tools from the registry at call time (so a plugin dropped in is used without
// a restart of this code), runs them in parallel under one deadline, and answers when the
// deadline passes with whatever finished; a tool that crashes, hangs or is missing is a status
// in `results`, never a failed request.
import { setMaxListeners } from 'node:events';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import client, { type Registry as PromRegistry } from 'prom-client';
import { SpanStatusCode, type Span, type Tracer } from '@opentelemetry/api';
import { HttpError } from '../../kernel/index.ts';
import type {
  AnalysisEngine,
  AnalysisHealth,
  SelfTestResult,
  AnalysisInput,
  AnalysisResult,
  AnalysisTool,
  AnalyzeOptions,
  AnalyzeSource,
  ToolAvailability,
  ToolInfo,
  WorkerPool,
} from '../../kernel/index.ts';
import {
  CATEGORIES,
  LAYER_NAMES,
  SEVERITIES,
  type Finding,
  type Severity,
  type ToolResult,
  type ToolStatus,
} from '../../schemas/finding.ts';
import { compileSolidity, extractPragma, oneLine, type CompileRequest, type CompileResult } from '../../lib/analysis/compiler/index.ts';
import { acquireCompilerFor } from './acquire.ts';
import { collectClosure, loadProject } from '../../lib/analysis/compiler/project.ts';
import { pragmaRanges } from '../../lib/analysis/compiler/versions.ts';
import { applySuppressions } from './suppress.ts';
import { correlate } from './correlate.ts';
import { mainContract, OUTLINE_MODULE, outlineSource, primeOutline, textOutline, type Outline } from '../../lib/analysis/outline.ts';

/** Largest source accepted (decisions.md: contract_code above 1 MiB is 413). */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export interface EngineDeps {
  registry: { tools(): AnalysisTool[] };
  pool?: WorkerPool | null;
  metrics?: PromRegistry | null;
  tracer?: Tracer | null;
  log?: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void; error(o: unknown, m?: string): void } | null;
  version?: string;
  /** Directories contract imports may be read from. */
  contractRoots?: string[];
  maxSourceBytes?: number;
  /** Budget of each builtin tool's start-up self-test. */
  selfTestTimeoutMs?: number;
  /** Full mode's analysis budget, from the request's start, shared by every tool (ToolRunOptions.budgetDeadline). */
  fullBudgetMs?: number;
}

/**
 * Full mode's default analysis budget, counted from the request's start and shared by every tool:
 * the searching tools (fuzzing, symbolic execution, model checking) end their search when it runs
 * out, whenever they started, and report what they found as partial. 4 s leaves the request about
 * a second to replay, correlate and answer on an idle two-core machine; `plugins.analysis-engine.
 * full_budget_ms` buys deeper searches (the request's timeout stays the hard stop).
 */
export const DEFAULT_FULL_BUDGET_MS = 4000;

/**
 * The share of what is left of the shared budget, when the deep layers start, that a bounded
 * search (AnalysisTool.boundedSearch: the SMTChecker) is guaranteed. Two pool workers, three
 * searches: the fuzzer holds one worker for the whole window; the other runs the bounded search
 * first, for at most half of it, then symbolic execution for the rest (and whatever the bounded
 * one leaves unused). Without it the two open-ended searches took both workers until ~75% of the
 * budget and the SMTChecker was left less than the second one of its jobs needs.
 */
export const BOUNDED_SEARCH_SHARE = 0.5;

export type { SelfTestResult };
export type EngineHealth = AnalysisHealth;

export interface VigilAnalysisEngine extends AnalysisEngine {
  /** Runs every builtin tool's selfTest once (kept for health). */
  runSelfTests(): Promise<Record<string, SelfTestResult>>;
  /** Runs the self-tests after delayMs, but never while an analysis is in progress (a CLI run
   *  that analyses right after boot and exits never pays for them). */
  scheduleSelfTests(delayMs: number): void;
  /** Cancels a scheduled self-test run; results of one in flight are discarded. */
  close(): void;
  selfTests(): Record<string, SelfTestResult>;
  health(): Promise<EngineHealth>;
}

const EMPTY_SUMMARY = (): Record<Severity, number> => ({ CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 });
const round3 = (ms: number) => Math.round(ms) / 1000;

function runtimeOf(t: AnalysisTool): ToolInfo['runtime'] {
  if (t.runtime === 'wasm') return 'wasm';
  return t.builtin ? 'ts' : 'external';
}

function metricsFor(reg: PromRegistry | null | undefined) {
  if (!reg) return null;
  const get = <T>(name: string, make: () => T): T => (reg.getSingleMetric(name) as T | undefined) ?? make();
  return {
    duration: get(
      'vigil_analysis_duration_seconds',
      () =>
        new client.Histogram({
          name: 'vigil_analysis_duration_seconds',
          help: 'Duration of analysis requests by audit type',
          labelNames: ['audit_type'],
          buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900],
          registers: [reg],
        }),
    ),
    findings: get(
      'vigil_analysis_findings_total',
      () =>
        new client.Counter({
          name: 'vigil_analysis_findings_total',
          help: 'Findings reported (after correlation) by severity',
          labelNames: ['severity'],
          registers: [reg],
        }),
    ),
    toolRuns: get(
      'vigil_analysis_tool_runs_total',
      () =>
        new client.Counter({
          name: 'vigil_analysis_tool_runs_total',
          help: 'Analysis tool runs by tool and status',
          labelNames: ['tool', 'status'],
          registers: [reg],
        }),
    ),
    toolDuration: get(
      'vigil_analysis_tool_duration_seconds',
      () =>
        new client.Histogram({
          name: 'vigil_analysis_tool_duration_seconds',
          help: 'Duration of analysis tool runs',
          labelNames: ['tool'],
          buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
          registers: [reg],
        }),
    ),
  };
}

async function inSpan<T>(
  tracer: Tracer | null | undefined,
  name: string,
  attrs: Record<string, string | number | boolean>,
  fn: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!tracer) return fn(null);
  return tracer.startActiveSpan(name, { attributes: attrs }, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      span.recordException(e as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
      throw e;
    } finally {
      span.end();
    }
  });
}

/** What the engine compiles for an input: the CLI's warm-up starts the same compile early. */
export function compileRequestFor(input: AnalyzeSource, quick: boolean, contractRoots: string[] | undefined): CompileRequest {
  return {
    source: input.source,
    file: input.file || 'Contract.sol',
    absPath: input.absPath ?? null,
    roots: input.roots ?? contractRoots,
    // Full mode asks for what the fuzzer and the symbolic engine compile (bytecode, source maps,
    // AST): a worker that already compiled it answers them from its memo.
    ...(quick ? { outputs: 'check' as const } : { outputs: 'full' as const, ast: true }),
  };
}

/** Pragma ranges of a source and, when it comes from disk, of everything it imports. */
export function buildRanges(input: AnalyzeSource, roots: string[] | undefined): string[] {
  if (!input.absPath) return pragmaRanges([input.source]);
  try {
    const project = loadProject(input.absPath, input.roots ?? roots ?? []);
    const c = collectClosure(project, input.absPath, { entrySource: input.source });
    return pragmaRanges([...c.units.values()].map((u) => u.content));
  } catch {
    return pragmaRanges([input.source]);
  }
}

/** 400 invalid_solidity with the compiler's (else the parser's) messages and positions. */
function invalidSolidity(file: string, outline: Outline, c: CompileResult | null): HttpError {
  const fromSolc = (c?.errors ?? []).filter((e) => e.line !== null && (e.file === file || e.file === null));
  const errors = fromSolc.length
    ? fromSolc.slice(0, 20).map((e) => ({
        message: `${e.type}: ${e.message.split('\n')[0]}`,
        file: e.file ?? file,
        line: e.line,
        column: e.column !== null ? e.column + 1 : null,
      }))
    : [{ message: `ParserError: ${outline.parseError}`, file, line: outline.parseErrorLine, column: null }];
  const first = errors[0];
  return new HttpError(
    400,
    'invalid_solidity',
    `${file} is not valid Solidity: ${first.message}${first.line ? ` (line ${first.line}${first.column ? `, column ${first.column}` : ''})` : ''}`,
    { errors },
  );
}

/** Makes a tool's finding safe to return: required fields present, lines inside the file. */
function normalizeFinding(
  f: Partial<Finding> & Record<string, unknown>,
  tool: AnalysisTool,
  file: string,
  lineCount: number,
): Finding | null {
  if (!f || typeof f !== 'object') return null;
  const loc = (f.location ?? {}) as Partial<Finding['location']>;
  const line = Math.min(Math.max(1, Math.floor(Number(loc.line)) || 1), lineCount);
  const end = Math.min(Math.max(line, Math.floor(Number(loc.end_line)) || line), lineCount);
  const severity = (SEVERITIES as readonly string[]).includes(String(f.severity)) ? (f.severity as Severity) : 'MEDIUM';
  const category = (CATEGORIES as readonly string[]).includes(String(f.category)) ? (f.category as Finding['category']) : 'other';
  const tools = Array.isArray(f.tools) && f.tools.length ? [...new Set(f.tools.map(String))] : [tool.name];
  if (!tools.includes(tool.name)) tools.unshift(tool.name);
  const layers = Array.isArray(f.layers) && f.layers.length ? [...new Set(f.layers.map(Number).filter(Number.isInteger))] : [tool.layer];
  const out: Finding = {
    id: String(f.id ?? createHash('sha256').update(`${tool.name}:${f.title}:${line}`).digest('hex').slice(0, 16)),
    ...(f.detector ? { detector: String(f.detector) } : {}),
    title: String(f.title ?? 'Finding'),
    description: String(f.description ?? f.title ?? ''),
    severity,
    confidence: Math.max(0, Math.min(1, Number.isFinite(Number(f.confidence)) ? Number(f.confidence) : 0.5)),
    category,
    swc_id: f.swc_id ?? null,
    cwe_id: f.cwe_id ?? null,
    location: {
      file: loc.file && loc.file !== '' ? String(loc.file) : file,
      line,
      end_line: end,
      ...(loc.column != null && Number(loc.column) >= 0 ? { column: Math.floor(Number(loc.column)) } : {}),
      contract: loc.contract ?? null,
      function: loc.function ?? null,
    },
    tools,
    layers,
    recommendation: String(f.recommendation ?? ''),
    ...(f.evidence !== undefined ? { evidence: f.evidence } : {}),
    ...(f.llm_only ? { llm_only: true } : {}),
  };
  return out;
}

export function createAnalysisEngine(deps: EngineDeps): VigilAnalysisEngine {
  const metrics = metricsFor(deps.metrics);
  const maxBytes = deps.maxSourceBytes ?? MAX_SOURCE_BYTES;
  const selfTests: Record<string, SelfTestResult> = {};
  let selfTestsRun: Promise<Record<string, SelfTestResult>> | null = null;
  let selfTestsDone = false;
  let active = 0;
  let closed = false;
  let scheduled: NodeJS.Timeout | null = null;
  let pendingDelay: number | null = null;
  const trySelfTests = () => {
    scheduled = null;
    if (closed || selfTestsRun) return;
    if (active > 0) {
      pendingDelay ??= 1000;
      return;
    }
    pendingDelay = null;
    void runSelfTests();
  };

  async function availabilityOf(t: AnalysisTool): Promise<ToolAvailability> {
    try {
      return await Promise.race([
        t.availability(),
        new Promise<ToolAvailability>((resolve) =>
          setTimeout(() => resolve({ available: false, reason: 'availability check did not answer within 15 s' }), 15_000).unref(),
        ),
      ]);
    } catch (e) {
      return { available: false, reason: `availability check failed: ${(e as Error).message}` };
    }
  }

  function select(mode: AnalyzeOptions['mode'], all: AnalysisTool[], opts: AnalyzeOptions): AnalysisTool[] {
    switch (mode) {
      case 'quick':
        return all.filter((t) => t.modes.includes('quick'));
      case 'full':
        // Tools with no modes (single WASM rules also run inside the static analyzer) run only by name.
        return all.filter((t) => t.modes.length > 0);
      case 'layer':
        if (opts.layer === 9) return all.filter((t) => t.modes.length > 0);
        return all.filter((t) => t.layer === opts.layer && t.modes.length > 0);
      case 'tool':
        return all.filter((t) => t.name === opts.tool);
    }
  }

  function validate(input: AnalyzeSource, opts: AnalyzeOptions, all: AnalysisTool[]) {
    if (!input || typeof input.source !== 'string') throw new HttpError(400, 'invalid_request', 'contract source must be a string');
    const bytes = Buffer.byteLength(input.source, 'utf8');
    if (bytes > maxBytes) {
      throw new HttpError(413, 'payload_too_large', `contract source is ${bytes} bytes; the limit is ${maxBytes} bytes (1 MiB)`, {
        bytes,
        limit: maxBytes,
      });
    }
    if (input.source.trim() === '') throw new HttpError(400, 'invalid_request', 'contract source is empty: send Solidity source text');
    if (input.source.includes('\u0000'))
      throw new HttpError(400, 'invalid_request', 'contract source contains NUL bytes: it looks like a binary file, not Solidity source');
    if (!['quick', 'full', 'layer', 'tool'].includes(opts.mode))
      throw new HttpError(400, 'invalid_request', `unknown audit mode "${opts.mode}": use quick, full, layer or tool`);
    if (opts.mode === 'layer' && (!Number.isInteger(opts.layer) || opts.layer! < 1 || opts.layer! > 9)) {
      throw new HttpError(400, 'unknown_layer', `layer must be an integer from 1 to 9, got ${JSON.stringify(opts.layer)}`, {
        layers: LAYER_NAMES,
      });
    }
    if (opts.mode === 'tool' && !all.some((t) => t.name === opts.tool)) {
      throw new HttpError(
        404,
        'tool_not_found',
        `no analysis tool named "${opts.tool}"; available: ${all
          .map((t) => t.name)
          .sort()
          .join(', ')}`,
      );
    }
    if (!Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0)
      throw new HttpError(400, 'invalid_request', 'timeout must be a positive number of seconds');
  }

  async function analyze(input: AnalyzeSource, opts: AnalyzeOptions): Promise<AnalysisResult> {
    const all = deps.registry.tools();
    validate(input, opts, all);
    active++;
    try {
      const result = await analyzeValid(input, opts, all);
      return opts.suppress ? applySuppressions(result, { [input.file || 'Contract.sol']: input.source }) : result;
    } finally {
      active--;
      if (active === 0 && pendingDelay !== null && !closed && !scheduled) {
        scheduled = setTimeout(trySelfTests, pendingDelay);
        scheduled.unref();
      }
    }
  }

  async function analyzeValid(input: AnalyzeSource, opts: AnalyzeOptions, all: AnalysisTool[]): Promise<AnalysisResult> {
    const t0 = Date.now();
    const deadline = t0 + opts.timeoutMs;
    const file = input.file || 'Contract.sol';
    const auditType = opts.mode;
    return inSpan(deps.tracer, 'analysis.run', { 'analysis.audit_type': auditType, 'analysis.file': file }, async (span) => {
      const source = input.source;
      const sha256 = createHash('sha256').update(source, 'utf8').digest('hex');
      const pragma = extractPragma(source).text;
      const lineCount = source.split('\n').length;
      const notes: string[] = [];

      // Compile once (in the pool) while tools run; tools that need the compiler's choice share it.
      // A project build (the CLI's) hands its answer for this file in: no second compile.
      const compileAbort = new AbortController();
      const onReqAbort = () => compileAbort.abort();
      opts.signal?.addEventListener('abort', onReqAbort, { once: true });
      const precompiled = (input as AnalyzeSource & { precompiled?: CompileResult }).precompiled ?? null;
      if (!precompiled) {
        // The release this build needs (its pragmas and its imports') is installed first if missing.
        // Bounded by the request: a slow registry must not hold an API request past its deadline
        // (the download goes on, and the next request finds the release installed).
        const acquiring = acquireCompilerFor(buildRanges(input, deps.contractRoots));
        const acquired = await Promise.race([
          acquiring,
          new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, deadline - Date.now() - 1000)).unref()),
        ]);
        if (acquired === null)
          notes.push(
            'a solc release this source needs was still downloading when the time budget ran out; the compile used what is installed',
          );
        else if (acquired.note) notes.push(acquired.note);
      }
      const compiling: Promise<CompileResult | { timedOut: true; error: string }> = precompiled
        ? Promise.resolve(precompiled)
        : compileSolidity(compileRequestFor(input, auditType === 'quick', deps.contractRoots), {
            pool: deps.pool ?? null,
            signal: compileAbort.signal,
            deadline,
          }).catch((e: Error & { code?: string }) => ({
            timedOut: true as const,
            error:
              e.code === 'task_timeout'
                ? 'compilation did not finish within the time budget'
                : e.code === 'task_aborted'
                  ? 'compilation was cancelled with the request'
                  : `compiler crashed: ${e.message}`,
          }));
      const sharedCompilation = compiling.then((r) =>
        'timedOut' in r
          ? { ok: false, compiler: null, errors: [r.error], contracts: [] }
          : {
              ok: r.ok,
              compiler: r.compiler,
              errors: r.errors.map(oneLine),
              contracts: Object.entries(r.contracts)
                .filter(([, c]) => c.file === file)
                .map(([n]) => n),
            },
      );

      const outline = await outlineOffThread(source, deadline, opts.signal);
      if (outline.parseError) {
        // Neither the parser nor the compiler can read it: not Solidity (or broken), a 400 with
        // the compiler's own messages. A source only the parser rejects (newer syntax than it
        // knows) but solc compiles is analysed: solc is the reference.
        const c = await Promise.race([
          compiling,
          new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, deadline - Date.now())).unref()),
        ]);
        if (c === null || 'timedOut' in c || !c.ok) {
          compileAbort.abort();
          opts.signal?.removeEventListener('abort', onReqAbort);
          throw invalidSolidity(file, outline, c && !('timedOut' in c) ? c : null);
        }
        notes.push(`the source does not parse (${outline.parseError}); tools that need a syntax tree could not analyse it`);
      }

      const selected = select(auditType, all, opts);
      const toolInput: AnalysisInput = {
        source,
        file,
        absPath: input.absPath ?? null,
        sha256,
        contract: mainContract(outline),
        contracts: outline.contracts.map((c) => ({ name: c.name, kind: c.kind, abstract: c.abstract, line: c.line, end_line: c.end_line })),
        roots: input.roots ?? deps.contractRoots,
        compilation: sharedCompilation,
        // What the EVM tools compile is this very request (compileRequestFor, full outputs): they
        // take the result instead of compiling again on the worker that did not run it.
        compiled:
          auditType === 'quick' || precompiled ? Promise.resolve(null) : compiling.then((r) => ('timedOut' in r || !r.ok ? null : r)),
      };
      const mode: 'quick' | 'full' = auditType === 'quick' ? 'quick' : 'full';
      // Every layer at once (full mode): one analysis budget for the request, shared by its tools.
      const everyLayer = auditType === 'full' || (auditType === 'layer' && opts.layer === 9);
      const budgetDeadline = everyLayer ? Math.min(deadline, t0 + (deps.fullBudgetMs ?? DEFAULT_FULL_BUDGET_MS)) : undefined;
      const results = new Map<string, ToolResult>();
      const finished = new Map<string, Promise<void>>();
      const deadlineCtl = new AbortController();
      // Every tool listens on the one deadline signal (two listeners each): not a leak.
      setMaxListeners(0, deadlineCtl.signal);
      const deadlineTimer = setTimeout(() => deadlineCtl.abort(), Math.max(0, deadline - Date.now()));
      const onAbort = () => deadlineCtl.abort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });

      const runTool = async (t: AnalysisTool, prior?: Promise<Finding[] | undefined>) => {
        const started = Date.now();
        const record = (status: ToolStatus, findings: Finding[], error: string | null) => {
          if (results.has(t.name)) return;
          results.set(t.name, { tool: t.name, layer: t.layer, status, findings, execution_time: round3(Date.now() - started), error });
          metrics?.toolRuns.inc({ tool: t.name, status });
          metrics?.toolDuration.observe({ tool: t.name }, (Date.now() - started) / 1000);
          try {
            opts.onProgress?.({ tool: t.name, status, done: results.size, total: selected.length });
          } catch {
            /* a progress listener's failure is not the tool's */
          }
        };
        const recordTimeout = () =>
          record(
            'timeout',
            [],
            opts.signal?.aborted
              ? 'request was cancelled before the tool finished'
              : `did not finish within the ${round3(opts.timeoutMs)} s budget`,
          );
        await inSpan(deps.tracer, 'analysis.tool', { 'analysis.tool': t.name, 'analysis.layer': t.layer }, async (tspan) => {
          const av = await availabilityOf(t);
          if (!av.available) {
            record(
              'not_available',
              [],
              [av.reason ?? 'not available', av.install_hint ? `install: ${av.install_hint}` : null].filter(Boolean).join('; '),
            );
            tspan?.setAttribute('analysis.status', 'not_available');
            return;
          }
          const ctl = new AbortController();
          const stop = () => ctl.abort();
          deadlineCtl.signal.addEventListener('abort', stop, { once: true });
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<'deadline'>((resolve) => {
            if (deadlineCtl.signal.aborted) resolve('deadline');
            deadlineCtl.signal.addEventListener('abort', () => resolve('deadline'), { once: true });
            timer = setTimeout(() => resolve('deadline'), Math.max(0, deadline - Date.now()));
          });
          try {
            const priorFindings = prior ? await Promise.race([prior, timeout.then(() => undefined)]) : undefined;
            if (deadlineCtl.signal.aborted || Date.now() >= deadline) {
              recordTimeout();
              return;
            }
            // A bounded search's slice is counted from when it starts (after layer 1 and the
            // compile), so what the earlier work took is not charged to it.
            const sliceDeadline =
              budgetDeadline !== undefined && t.boundedSearch
                ? Math.round(Date.now() + Math.max(0, budgetDeadline - Date.now()) * BOUNDED_SEARCH_SHARE)
                : undefined;
            const running = Promise.resolve().then(() =>
              t.run(
                { ...toolInput, ...(priorFindings ? { prior: priorFindings } : {}) },
                {
                  signal: ctl.signal,
                  deadline,
                  mode,
                  ...(budgetDeadline !== undefined ? { budgetDeadline } : {}),
                  ...(sliceDeadline !== undefined ? { sliceDeadline } : {}),
                },
              ),
            );
            const out = await Promise.race([running, timeout]);
            if (out === 'deadline') {
              ctl.abort();
              running.catch(() => {}); // the tool stops on its own; its late answer is ignored
              recordTimeout();
              return;
            }
            if (!out || !Array.isArray(out.findings)) throw new Error('tool returned no findings array');
            const findings = out.findings
              .map((f) => normalizeFinding(f as any, t, file, lineCount))
              .filter((f): f is Finding => f !== null);
            const status: ToolStatus = out.status ?? (out.error ? 'error' : 'success');
            // A search its budget ended answers with what it found by then: said in the notes, so
            // a partial answer is never a silent one (tool results carry no meta).
            const partial = out.meta?.budget_exhausted;
            if (status === 'success' && typeof partial === 'string' && partial) notes.push(`${t.name}: partial result: ${partial}`);
            record(status, findings, out.error ?? null);
            tspan?.setAttribute('analysis.status', status);
            tspan?.setAttribute('analysis.findings', findings.length);
          } catch (e) {
            const err = e as Error & { code?: string };
            const timedOut = err.code === 'task_timeout' || err.code === 'task_aborted';
            record(
              timedOut ? 'timeout' : 'error',
              [],
              timedOut ? `did not finish within the time budget (${err.message})` : `${t.name} failed: ${err.message || String(e)}`,
            );
            tspan?.setAttribute('analysis.status', timedOut ? 'timeout' : 'error');
            if (!timedOut) deps.log?.warn({ tool: t.name, err: err.message }, 'analysis tool failed');
          } finally {
            if (timer) clearTimeout(timer);
            deadlineCtl.signal.removeEventListener('abort', stop);
          }
        });
      };

      // Layer-1 tools first in the dependency sense: tools that use prior findings wait for them.
      // Pool tasks run in arrival order: the fast pattern layers go first, so the tools waiting for
      // their findings (the fuzzer) are not queued behind seconds of symbolic or ML work.
      // With a shared analysis budget the deeper layers (2-6) start once layer 1 has answered and
      // the compile is in, one per turn of the event loop, so their pool tasks queue in that order:
      // bounded searches (model checking) first, with their reserved slice, then in layer order,
      // so fuzzing and symbolic execution share the workers with it and use what it leaves, and
      // AI review and ML come last, instead of the fuzzer (which waits for layer 1) queueing
      // behind them and finding the budget spent.
      const deferred = (t: AnalysisTool) => budgetDeadline !== undefined && startOrder(t) === 2;
      const direct = selected.filter((t) => !t.usesPrior && !deferred(t)).sort((a, b) => startOrder(a) - startOrder(b));
      for (const t of direct) finished.set(t.name, runTool(t));
      const layer1 = direct.filter((t) => t.layer === 1).map((t) => finished.get(t.name)!);
      const priorFindings = Promise.all(layer1).then(() => [...results.values()].filter((r) => r.layer === 1).flatMap((r) => r.findings));
      const later = selected.filter((t) => t.usesPrior || deferred(t));
      if (budgetDeadline !== undefined) later.sort((a, b) => Number(!a.boundedSearch) - Number(!b.boundedSearch) || a.layer - b.layer);
      let turn: Promise<unknown> = budgetDeadline !== undefined ? Promise.all([priorFindings, compiling]) : priorFindings;
      for (const t of later) {
        const gate = turn;
        finished.set(t.name, runTool(t, t.usesPrior ? gate.then(() => priorFindings) : gate.then(() => undefined)));
        if (budgetDeadline !== undefined) turn = gate.then(() => new Promise((r) => setImmediate(r)));
      }
      await Promise.all(finished.values());
      clearTimeout(deadlineTimer);
      opts.signal?.removeEventListener('abort', onAbort);

      // Compilation is reported even if it is still running at the deadline.
      const compiled = await Promise.race([
        compiling,
        new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, deadline - Date.now())).unref()),
      ]);
      if (compiled === null) compileAbort.abort();
      opts.signal?.removeEventListener('abort', onReqAbort);
      const compilation = describeCompilation(compiled, outline.parseError);
      if (!compilation.ok) notes.push(compilation.note);

      const ordered = selected.map((t) => results.get(t.name)!).filter(Boolean);
      // One tool asked for by name: its lint and prediction hits are what the user asked to see
      // (in a multi-tool run they only back other tools' claims).
      const findings = correlate(
        ordered.flatMap((r) => r.findings),
        source,
        auditType === 'tool' ? { keepUnsupported: true } : {},
      );
      const summary = EMPTY_SUMMARY();
      for (const f of findings) summary[f.severity]++;
      const layers = [...new Set(selected.map((t) => t.layer))].sort((a, b) => a - b);
      if (auditType === 'full' || (auditType === 'layer' && opts.layer === 9)) layers.push(9);
      const executionMs = Date.now() - t0;
      const result: AnalysisResult = {
        audit_id: randomUUID(),
        audit_type: auditType,
        contract: {
          name: mainContract(outline) ?? path.basename(file, '.sol'),
          sha256,
          pragma,
          compiler: compilation.compiler,
        },
        layers: [...new Set(layers)],
        tools: selected.map((t) => t.name),
        results: ordered,
        findings,
        summary,
        total_findings: findings.length,
        execution_time: round3(executionMs),
        timestamp: new Date().toISOString(),
        version: deps.version ?? '0.0.0',
        compilation: {
          ok: compilation.ok,
          compiler: compilation.compiler,
          errors: compilation.errors,
          warnings: compilation.warnings,
          reason: compilation.reason,
          ...(compilation.ok ? {} : { note: compilation.note }),
        },
        ...(notes.length ? { notes } : {}),
      };
      metrics?.duration.observe({ audit_type: auditType }, executionMs / 1000);
      for (const s of SEVERITIES) if (summary[s]) metrics?.findings.inc({ severity: s }, summary[s]);
      span?.setAttribute('analysis.findings', findings.length);
      span?.setAttribute('analysis.tools', selected.length);
      return result;
    });
  }

  /** Layer 1 and the rule layers (7, 8) first, then the formal and deep layers. Stable for ties. */
  function startOrder(t: AnalysisTool): number {
    return t.layer === 1 ? 0 : t.layer === 7 || t.layer === 8 ? 1 : 2;
  }

  /** The outline, parsed in a worker: a 1 MiB source takes seconds to parse, and the main thread
   *  serves both HTTP surfaces. Primed into this thread's memo so the tools' locators reuse it. */
  async function outlineOffThread(source: string, deadline: number, signal?: AbortSignal): Promise<Outline> {
    if (!deps.pool) return outlineSource(source);
    try {
      return primeOutline(source, await deps.pool.run<Outline>(OUTLINE_MODULE, 'outlineTask', { source }, { signal, deadline }));
    } catch (e) {
      // Out of time or cancelled: contract names from a text scan; the tools report their own fate.
      deps.log?.info({ err: (e as Error).message }, 'outline task did not finish; using a text scan');
      return textOutline(source);
    }
  }

  function describeCompilation(c: CompileResult | { timedOut: true; error: string } | null, parseError: string | null) {
    const parserOnly = parseError ? 'no tool could build a syntax tree either' : 'analysis ran on the parser AST only';
    if (c === null) {
      return {
        ok: false,
        compiler: null,
        errors: ['compilation did not finish within the time budget'],
        warnings: [] as string[],
        reason: null as string | null,
        note: `compilation did not finish in time; ${parserOnly}`,
      };
    }
    if ('timedOut' in c)
      return { ok: false, compiler: null, errors: [c.error], warnings: [], reason: null, note: `${c.error}; ${parserOnly}` };
    const errors = c.errors.map(oneLine);
    const warnings = c.warnings.slice(0, 50).map(oneLine);
    const why = c.missingImports.length
      ? `missing import${c.missingImports.length > 1 ? 's' : ''} ${c.missingImports.map((m) => `"${m}"`).join(', ')}`
      : (errors[0] ?? 'compilation failed');
    return {
      ok: c.ok,
      compiler: c.compiler,
      errors,
      warnings,
      reason: c.reason,
      note: c.ok ? '' : `compilation failed (${why}); ${parserOnly}`,
    };
  }

  async function info(t: AnalysisTool): Promise<ToolInfo> {
    const av = await availabilityOf(t);
    const st = selfTests[t.name] ?? null;
    return {
      name: t.name,
      layer: t.layer,
      layer_name: LAYER_NAMES[t.layer] ?? `Layer ${t.layer}`,
      description: t.description,
      builtin: t.builtin,
      runtime: runtimeOf(t),
      plugin: t.plugin ?? null,
      modes: t.modes,
      available: av.available,
      version: av.version ?? null,
      reason: av.reason ?? null,
      install_hint: av.install_hint ?? null,
      status: !av.available ? 'not_available' : st && !st.ok ? 'error' : 'ok',
      self_test: st ? { ok: st.ok, error: st.error } : null,
    };
  }

  async function runSelfTests(): Promise<Record<string, SelfTestResult>> {
    if (selfTestsRun) return selfTestsRun;
    selfTestsRun = (async () => {
      const budget = deps.selfTestTimeoutMs ?? 120_000;
      const tools = deps.registry.tools().filter((t) => t.builtin && typeof t.selfTest === 'function');
      await Promise.all(
        tools.map(async (t) => {
          const started = Date.now();
          let timer: NodeJS.Timeout | undefined;
          try {
            await Promise.race([
              t.selfTest!(),
              new Promise((_, reject) => {
                timer = setTimeout(() => reject(new Error(`self-test did not finish within ${budget / 1000} s`)), budget);
                timer.unref();
              }),
            ]);
            selfTests[t.name] = { ok: true, error: null, duration_ms: Date.now() - started, at: new Date().toISOString() };
          } catch (e) {
            if (closed) return; // the pool is going away; this says nothing about the tool
            selfTests[t.name] = {
              ok: false,
              error: (e as Error).message || String(e),
              duration_ms: Date.now() - started,
              at: new Date().toISOString(),
            };
            deps.log?.error({ tool: t.name, err: (e as Error).message }, 'analysis tool self-test failed');
          } finally {
            if (timer) clearTimeout(timer);
          }
        }),
      );
      selfTestsDone = true;
      return { ...selfTests };
    })();
    return selfTestsRun;
  }

  return {
    analyze,
    async formatter(kind) {
      // Loaded on first use: a JSON-only server never imports them.
      if (kind === 'sarif') return (await import('./format/sarif.ts')).toSarif;
      if (kind === 'markdown') return (await import('./format/markdown.ts')).toMarkdown;
      return (await import('./format/html.ts')).toHtml;
    },
    async listTools() {
      const tools = deps.registry.tools();
      return Promise.all(tools.map(info)).then((l) => l.sort((a, b) => a.layer - b.layer || a.name.localeCompare(b.name)));
    },
    async getTool(name) {
      const t = deps.registry.tools().find((x) => x.name === name);
      return t ? info(t) : null;
    },
    async layers() {
      const infos = await this.listTools();
      return Object.entries(LAYER_NAMES).map(([k, name]) => {
        const layer = Number(k);
        if (layer === 9) return { layer, name, tools: ['correlation'], available: true };
        const tools = infos.filter((t) => t.layer === layer);
        return { layer, name, tools: tools.map((t) => t.name), available: tools.some((t) => t.available) };
      });
    },
    runSelfTests,
    scheduleSelfTests(delayMs: number) {
      if (closed || selfTestsRun || scheduled) return;
      scheduled = setTimeout(trySelfTests, Math.max(0, delayMs));
      scheduled.unref();
    },
    close() {
      closed = true;
      if (scheduled) clearTimeout(scheduled);
      scheduled = null;
    },
    selfTests: () => ({ ...selfTests }),
    async health(): Promise<EngineHealth> {
      const infos = await this.listTools();
      const tools: EngineHealth['tools'] = {};
      const reasons: string[] = [];
      for (const t of infos) {
        tools[t.name] = {
          available: t.available,
          builtin: t.builtin,
          layer: t.layer,
          status: t.status,
          reason: t.reason ?? null,
          self_test: selfTests[t.name] ?? null,
        };
        if (t.builtin && !t.available) reasons.push(`builtin tool ${t.name} is not available: ${t.reason}`);
        if (t.builtin && selfTests[t.name] && !selfTests[t.name].ok)
          reasons.push(`builtin tool ${t.name} failed its self-test: ${selfTests[t.name].error}`);
      }
      const builtins = infos.filter((t) => t.builtin);
      const working = builtins.filter((t) => t.available && (selfTests[t.name]?.ok ?? true));
      const status: EngineHealth['status'] = working.length === 0 ? 'unhealthy' : reasons.length ? 'degraded' : 'healthy';
      if (working.length === 0)
        reasons.unshift(builtins.length ? 'no builtin analysis tool works' : 'no builtin analysis tool is registered');
      return { status, reasons, tools, self_tests_done: selfTestsDone };
    },
  };
}
