// The solc SMTChecker as an analysis tool: compiles the contract with the model checker enabled
// (in a pool task whose solc runs on a helper thread, so a solver that never returns is stopped
// at the budget without killing the pool worker) and turns each "happens here" warning into a
// finding whose evidence is the solver's counterexample.
//
// What each installed compiler can do (measured with the emscripten builds shipped on npm):
//   0.4.11, 0.4.18   no SMTChecker (0.4.18 aborts with an internal error on the pragma)
//   0.4.24, 0.4.26   `pragma experimental SMTChecker` accepted, but the build has no solver
//   0.5.17           same: "no integrated SMT solver (Z3 or CVC4) was found"
//   0.6.12           pragma enables BMC with the built-in Z3 (no settings.modelChecker)
//   0.7.6            pragma + settings.modelChecker.engine (bmc | chc | all)
//   0.8.30           settings.modelChecker {engine, targets, contracts}; no pragma needed
// settings.modelChecker.timeout crashes the emscripten builds, so time is enforced from outside solc.
//
// False positives avoided: "might happen" (unproved) results are kept only in full mode and at
// low confidence; overflow in checked 0.8 arithmetic is not a finding: it can only revert the
// transaction that chose the operands (`balances[msg.sender] += msg.value` "overflows" only for
// impossible amounts), so it is counted in the run's notes instead of claimed as a weakness; the
// same warning reached through several contracts is reported once.
import semver from 'semver';
import type {
  AnalysisInput,
  AnalysisTool,
  Category,
  Finding,
  Severity,
  ToolRunOptions,
  ToolRunOutput,
  WorkerPool,
} from '../../kernel/index.ts';
import {
  compileSolidity,
  sourceKeyFor,
  stripCommentsAndStrings,
  installedCompilers,
  type CompileRequest,
  type CompileResult,
  type CompilerDiagnostic,
} from '../../lib/analysis/compiler/index.ts';
import { outlineSource, locate, type Outline } from '../../lib/analysis/outline.ts';
import { findingId, sliceLines } from '../../lib/analysis/ids.ts';
import { collectClosure, loadProject } from '../../lib/analysis/compiler/project.ts';
import { SMT_COMPILE_MODULE, smtCompileTask } from './solc-sidecar.ts';

/** A model-checking compile, on the pool through this plugin's task (solc-sidecar.ts): a run past
 *  its budget stops a helper thread of the worker, not the worker with what it has loaded. */
function compileModelCheck(
  req: CompileRequest,
  opts: { pool?: WorkerPool | null; signal?: AbortSignal; deadline?: number },
): Promise<CompileResult> {
  if (!opts.pool) return Promise.resolve(smtCompileTask(req));
  return opts.pool.run<CompileResult>(SMT_COMPILE_MODULE, 'smtCompileTask', req, { signal: opts.signal, deadline: opts.deadline });
}

export const SMT_TARGETS = ['assert', 'overflow', 'underflow', 'divByZero', 'outOfBounds', 'balance'];
const ARITHMETIC = new Set(['overflow', 'underflow']);

/** Model-checking engines of solc: bounded (per function, fast) and CHC (Spacer: whole
 *  transaction sequences, unbounded time; settings.modelChecker.timeout crashes solc-js). */
export type SmtEngine = 'bmc' | 'chc' | 'all';

/** Full mode never gives a model-checking job less CPU time than this (a job past what the
 *  budget buys is listed as not checked instead). */
const FULL_MIN_JOB_MS = 1000;

/**
 * The 0.8 targets worth a solver's time on this code (comments and strings stripped, imports
 * included): a target whose construct does not occur can never be violated, and overflow or
 * underflow outside an `unchecked` block only reverts (smtFindings drops those answers), so they
 * are asked for only where an unchecked block exists.
 */
export function targetsFor(code: string): string[] {
  const has: Record<string, boolean> = {
    assert: /\bassert\s*\(/.test(code),
    overflow: /\bunchecked\s*\{/.test(code),
    underflow: /\bunchecked\s*\{/.test(code),
    divByZero: /[/%]/.test(code),
    outOfBounds: code.includes('['),
    balance: /\.\s*(?:transfer|send)\s*\(/.test(code),
  };
  return SMT_TARGETS.filter((t) => has[t]);
}

/** The code the model checker encodes: the file and what it imports, comments and strings stripped. */
function unitCode(input: Pick<AnalysisInput, 'source' | 'absPath' | 'roots'>): string {
  if (!input.absPath) return stripCommentsAndStrings(input.source);
  try {
    const c = collectClosure(loadProject(input.absPath, input.roots ?? []), input.absPath, { entrySource: input.source });
    return [...c.units.values()].map((u) => stripCommentsAndStrings(u.content)).join('\n');
  } catch {
    return stripCommentsAndStrings(input.source);
  }
}

export interface SmtCheckerOptions {
  pool: WorkerPool | null;
  /** Per-contract solver budget in quick mode (ms). */
  quickBudgetMs?: number;
  /** Full mode: CPU time (ms) of model checking per file, shared by its jobs. */
  fullBudgetMs?: number;
  /** Full mode's engine (quick mode is always BMC). */
  fullEngine?: SmtEngine;
  /** Quick mode model-checks compilation units (a file and its imports) up to this many lines. */
  quickMaxUnitLines?: number;
}

/** Lines of a file and everything it imports (what the SMTChecker has to encode). */
function unitLines(input: Pick<AnalysisInput, 'source' | 'absPath' | 'roots'>): number {
  const own = input.source.split('\n').length;
  if (!input.absPath) return own;
  try {
    const c = collectClosure(loadProject(input.absPath, input.roots ?? []), input.absPath, { entrySource: input.source });
    let n = 0;
    for (const u of c.units.values()) n += u.content.split('\n').length;
    return n;
  } catch {
    return own;
  }
}

/** Why a compiler release cannot run the SMTChecker here, or null when it can. */
export function smtUnsupportedReason(version: string): string | null {
  if (semver.lt(version, '0.4.19')) return `solc ${version} has no SMTChecker (it arrived in 0.4.19)`;
  if (semver.lt(version, '0.6.0')) {
    return `solc ${version}'s SMTChecker needs an SMT solver its emscripten build does not include (the built-in Z3 arrived in 0.6.x); formal verification needs a contract that compiles with 0.6 or newer`;
  }
  return null;
}

interface SmtKind {
  key: string;
  category: Category;
  title: string;
  swc: string | null;
  cwe: string | null;
  severity: Severity;
  recommendation: string;
}

const KINDS: Array<{ re: RegExp; kind: SmtKind }> = [
  {
    re: /^Overflow\b/i,
    kind: {
      key: 'overflow',
      category: 'arithmetic',
      title: 'Integer overflow',
      swc: 'SWC-101',
      cwe: 'CWE-190',
      severity: 'HIGH',
      recommendation: 'Bound the operands (require) before the operation, or use checked arithmetic (Solidity >= 0.8 or SafeMath).',
    },
  },
  {
    re: /^Underflow\b/i,
    kind: {
      key: 'underflow',
      category: 'arithmetic',
      title: 'Integer underflow',
      swc: 'SWC-101',
      cwe: 'CWE-191',
      severity: 'HIGH',
      recommendation: 'Check that the subtrahend is not larger than the minuend before subtracting, or use checked arithmetic.',
    },
  },
  {
    re: /^Division by zero\b/i,
    kind: {
      key: 'div-by-zero',
      category: 'other',
      title: 'Division by zero',
      swc: null,
      cwe: 'CWE-369',
      severity: 'MEDIUM',
      recommendation: 'Require a non-zero divisor before dividing (the call otherwise reverts).',
    },
  },
  {
    re: /^Assertion violation\b/i,
    kind: {
      key: 'assert',
      category: 'other',
      title: 'Assertion violation',
      swc: 'SWC-110',
      cwe: 'CWE-617',
      severity: 'MEDIUM',
      recommendation: 'An assert must hold for every input; validate inputs with require, or fix the invariant the assert expresses.',
    },
  },
  {
    re: /^Out of bounds access\b/i,
    kind: {
      key: 'out-of-bounds',
      category: 'other',
      title: 'Out-of-bounds array access',
      swc: null,
      cwe: 'CWE-129',
      severity: 'MEDIUM',
      recommendation: 'Check the index against the array length before accessing it.',
    },
  },
  {
    re: /^Insufficient funds\b/i,
    kind: {
      key: 'balance',
      category: 'other',
      title: 'Transfer with insufficient balance',
      swc: null,
      cwe: 'CWE-754',
      severity: 'LOW',
      recommendation: 'Check address(this).balance before transferring Ether.',
    },
  },
  {
    re: /^Empty array "pop"/i,
    kind: {
      key: 'empty-pop',
      category: 'other',
      title: 'pop() on an empty array',
      swc: null,
      cwe: 'CWE-129',
      severity: 'LOW',
      recommendation: 'Check the array length before calling pop().',
    },
  },
];

export interface ParsedSmtWarning {
  kind: SmtKind;
  engine: 'BMC' | 'CHC' | null;
  proven: boolean;
  counterexample: Record<string, string>;
  trace: string[];
  callstack: string[];
  raw: string;
}

/** Parses one SMTChecker diagnostic; null when it is not a property violation. */
export function parseSmtWarning(d: Pick<CompilerDiagnostic, 'message' | 'secondary'>): ParsedSmtWarning | null {
  const text = [d.message, ...(d.secondary ?? [])].join('\n');
  const firstLine = d.message.split('\n')[0].trim();
  const m = /^(?:(BMC|CHC):\s*)?(.*?)\s+(happens|might happen)\s+here/i.exec(firstLine);
  if (!m) return null;
  const k = KINDS.find((x) => x.re.test(m[2]));
  if (!k) return null;
  const counterexample: Record<string, string> = {};
  const trace: string[] = [];
  const callstack: string[] = [];
  let section: 'none' | 'cex' | 'trace' | 'stack' = 'none';
  for (const rawLine of text.split('\n').slice(1)) {
    const line = rawLine.trim();
    if (/^Counterexample:/i.test(line)) {
      section = 'cex';
      continue;
    }
    if (/^Transaction trace:/i.test(line)) {
      section = 'trace';
      continue;
    }
    if (/^Callstack:/i.test(line)) {
      section = 'stack';
      continue;
    }
    if (line === '') {
      if (section === 'trace' || section === 'stack') section = 'none';
      continue;
    }
    if (section === 'cex') {
      // CHC joins state variables with ", "; values may themselves hold commas ([1, 2]).
      for (const part of line.split(/,\s+(?=[\w.$<>[\]]*\s*=\s)/)) {
        const eq = part.indexOf(' = ');
        if (eq < 0) continue;
        const name = part.slice(0, eq).trim() || '<expr>';
        counterexample[name] = part.slice(eq + 3).trim();
      }
    } else if (section === 'trace') trace.push(line);
    else if (section === 'stack') callstack.push(line);
  }
  return {
    kind: k.kind,
    engine: (m[1]?.toUpperCase() as 'BMC' | 'CHC' | undefined) ?? null,
    proven: m[3].toLowerCase() === 'happens',
    counterexample,
    trace,
    callstack,
    raw: text.trim(),
  };
}

/** True when a character offset lies inside an `unchecked { ... }` block. */
export function insideUnchecked(cleanSource: string, offset: number): boolean {
  const re = /\bunchecked\s*\{/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(cleanSource))) {
    const open = m.index + m[0].length - 1;
    if (open > offset) break;
    let depth = 0;
    for (let i = open; i < cleanSource.length; i++) {
      if (cleanSource[i] === '{') depth++;
      else if (cleanSource[i] === '}' && --depth === 0) {
        if (offset > open && offset < i) return true;
        break;
      }
    }
  }
  return false;
}

function charOffset(source: string, line: number, column: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', off);
    if (nl < 0) return source.length;
    off = nl + 1;
  }
  return off + column;
}

/** Maps SMTChecker diagnostics of one compilation to findings on the submitted file. */
export function smtFindings(
  diags: CompilerDiagnostic[],
  input: Pick<AnalysisInput, 'source' | 'file'>,
  ctx: { compiler: string; mode: 'quick' | 'full'; outline?: Outline; reverts?: Array<{ kind: string; line: number }> },
): Finding[] {
  const outline = ctx.outline ?? outlineSource(input.source);
  const clean = stripCommentsAndStrings(input.source);
  const checked = semver.gte(ctx.compiler, '0.8.0');
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const d of diags) {
    if (d.file !== input.file || !d.line) continue;
    const p = parseSmtWarning(d);
    if (!p) continue;
    if (!p.proven && ctx.mode === 'quick') continue;
    const line = d.line;
    const endLine = Math.max(line, d.end_line ?? line);
    const key = `${p.kind.key}:${line}:${d.column ?? 0}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const where = locate(outline, line);
    let severity: Severity = p.kind.severity;
    let title = p.kind.title;
    let description: string;
    const arithmetic = p.kind.key === 'overflow' || p.kind.key === 'underflow';
    const wraps = arithmetic && (!checked || insideUnchecked(clean, charOffset(input.source, line, d.column ?? 0)));
    if (arithmetic && !wraps) {
      // Checked arithmetic (0.8+) reverts instead of wrapping: the caller's own transaction
      // fails, nothing is corrupted. Counted in the run's notes, not reported as a finding.
      ctx.reverts?.push({ kind: p.kind.key, line });
      continue;
    }
    if (arithmetic) {
      description = `The SMTChecker (${p.engine ?? 'solc'}) found inputs for which this arithmetic ${p.kind.key}s and silently wraps around${checked ? ' (inside an unchecked block)' : ` (solc ${ctx.compiler} does not check arithmetic)`}.`;
    } else {
      description = `The SMTChecker (${p.engine ?? 'solc'}) ${p.proven ? 'found a counterexample' : 'could not rule out'}: ${p.kind.title.toLowerCase()} at this expression.`;
    }
    // BMC checks each function from any state: without a transaction sequence (CHC's proof that
    // the state is reachable) the counterexample may need a state the contract never gets into,
    // so such an answer is one step less severe and less certain, and says why.
    const anyState = p.proven && p.engine === 'BMC' && !p.trace.length && !arithmetic;
    if (anyState) description += ' BMC checks each function from any state: the values may need a state the contract never reaches.';
    if (!p.proven || anyState) severity = severity === 'HIGH' ? 'MEDIUM' : severity === 'MEDIUM' ? 'LOW' : severity;
    if (!p.proven) title = `Possible ${title.charAt(0).toLowerCase()}${title.slice(1)}`;
    const cex = Object.keys(p.counterexample).length;
    if (cex)
      description += ` Counterexample: ${Object.entries(p.counterexample)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ')}.`;
    if (p.trace.length) description += ` Transaction sequence: ${p.trace.filter((t) => !t.startsWith('State:')).join(' -> ')}.`;
    out.push({
      id: findingId({
        detector: `smtchecker:${p.kind.key}`,
        contract: where.contract,
        function: where.function,
        code: sliceLines(input.source, line, endLine),
      }),
      detector: `smtchecker-${p.kind.key}`,
      title,
      description,
      severity,
      confidence: !p.proven ? 0.4 : anyState ? 0.7 : cex ? 0.95 : 0.85,
      category: p.kind.category,
      swc_id: p.kind.swc,
      cwe_id: p.kind.cwe,
      location: {
        file: input.file,
        line,
        end_line: endLine,
        ...(d.column != null ? { column: d.column } : {}),
        contract: where.contract,
        function: where.function,
      },
      tools: ['smtchecker'],
      layers: [4],
      recommendation: p.kind.recommendation,
      evidence: {
        kind: p.proven ? 'counterexample' : 'unproved',
        engine: p.engine,
        compiler: ctx.compiler,
        counterexample: p.counterexample,
        transaction_trace: p.trace,
        callstack: p.callstack,
        solver_message: p.raw,
      },
    });
  }
  return out;
}

function isTimeout(e: unknown): boolean {
  return (e as { code?: string })?.code === 'task_timeout';
}

export function createSmtCheckerTool(opts: SmtCheckerOptions): AnalysisTool {
  const quickBudget = opts.quickBudgetMs ?? 6000;
  // Full mode runs every layer at once on two pool workers: model checking gets a few seconds
  // of CPU per file, shared by its jobs (per contract: the targets that can become findings,
  // then overflow/underflow where they can wrap). BMC answers those within that on 200-300-line
  // contracts; CHC needs minutes there and cannot be given a per-query timeout in solc-js, so
  // it is `full_engine: "all"` (with a larger `full_budget_ms`) or the tool alone.
  const fullBudget = opts.fullBudgetMs ?? 3000;
  const fullEngine: SmtEngine = opts.fullEngine ?? 'bmc';
  // The model checker encodes every function reachable from the contract, libraries included:
  // on a unit of a few thousand lines one contract takes tens of seconds even for BMC, which is
  // not what quick mode promises. Quick mode says so (status skipped, with the size) and full
  // mode or --tool smtchecker checks it.
  const quickMaxLines = opts.quickMaxUnitLines ?? 1500;
  const tool: AnalysisTool = {
    name: 'smtchecker',
    layer: 4,
    description:
      'solc SMTChecker (bounded model checking and CHC/Spacer) proving overflow, underflow, assertion, division-by-zero and out-of-bounds properties, with counterexamples',
    builtin: true,
    modes: ['full'],
    // Its jobs each have their own bound: under full mode's shared budget the engine starts it
    // before the fuzzer and the symbolic engine, with a reserved slice (run.sliceDeadline).
    boundedSearch: true,
    async availability() {
      const usable = installedCompilers().filter((c) => !smtUnsupportedReason(c.version));
      if (!usable.length)
        return {
          available: false,
          reason: 'no installed solc release (0.6 or newer) has an SMT solver',
          install_hint: 'npm install (solc 0.8.x ships with the package)',
        };
      return { available: true, version: usable.map((c) => c.version).join(', ') };
    },
    async selfTest() {
      const source =
        '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract SelfTest {\n  function f(uint a) public pure {\n    assert(a != 7);\n  }\n}\n';
      // Quick (BMC) engine, but a budget that tolerates a cold worker loading the compiler.
      const r = await runSmt(
        { source, file: 'SelfTest.sol', sha256: '' },
        { signal: new AbortController().signal, deadline: Date.now() + 60_000, mode: 'quick' },
        60_000,
      );
      const f = r.findings.find((x) => x.detector === 'smtchecker-assert');
      if (r.status !== 'success' || !f)
        throw new Error(`SMTChecker self-test expected an assertion violation, got status ${r.status}${r.error ? ': ' + r.error : ''}`);
      if ((f.evidence as any)?.counterexample?.a !== '7') throw new Error('SMTChecker self-test: counterexample did not give a = 7');
    },
    run: (input, run) => runSmt(input, run),
  };

  async function runSmt(input: AnalysisInput, run: ToolRunOptions, budgetOverride?: number): Promise<ToolRunOutput> {
    const mode = run.mode ?? 'full';
    const t0 = Date.now();
    // Which compiler compiles this source (shared with the engine when it already compiled).
    let base: { ok: boolean; compiler: string | null; errors: string[]; contracts: string[] };
    if (input.compilation) base = await input.compilation;
    else {
      const r = await compileSolidity(
        { source: input.source, file: input.file, absPath: input.absPath, roots: input.roots, outputs: 'check' },
        { pool: opts.pool, signal: run.signal, deadline: run.deadline },
      );
      base = {
        ok: r.ok,
        compiler: r.compiler,
        errors: r.errors.map((e) => e.message),
        contracts: Object.entries(r.contracts)
          .filter(([, c]) => c.file === input.file)
          .map(([n]) => n),
      };
    }
    if (!base.ok || !base.compiler) {
      return {
        status: 'skipped',
        findings: [],
        error: `the SMTChecker needs a compiling contract: ${base.errors[0] ?? 'compilation failed'}`,
      };
    }
    const version = base.compiler;
    const unsupported = smtUnsupportedReason(version);
    if (unsupported) return { status: 'skipped', findings: [], error: unsupported, meta: { compiler: version } };

    if (mode === 'quick' && !budgetOverride) {
      const lines = unitLines(input);
      if (lines > quickMaxLines) {
        return {
          status: 'skipped',
          findings: [],
          error: `quick mode model-checks units of up to ${quickMaxLines} lines; ${input.file} with its imports has ${lines} (run --mode full, or --tool smtchecker, to check it)`,
          meta: { compiler: version, unit_lines: lines },
        };
      }
    }
    const engine: SmtEngine = mode === 'quick' ? 'bmc' : fullEngine;
    const deployable = input.contracts
      ? new Set(input.contracts.filter((c) => c.kind === 'contract' && !c.abstract).map((c) => c.name))
      : null;
    // 0.8 can target one contract at a time, so each gets its own budget; older releases check the whole file.
    // The main contract first: a budget that ends early answers for the contract the file is about
    // (the others are mostly its helpers: tokens, libraries).
    const units: Array<string | null> = semver.gte(version, '0.8.0')
      ? base.contracts
          .filter((n) => !deployable || deployable.has(n))
          .sort((a, b) => Number(b === input.contract) - Number(a === input.contract))
      : [null];
    const code = unitCode(input);
    const targets = semver.gte(version, '0.8.0') ? targetsFor(code) : SMT_TARGETS;
    // The jobs: per unit, the targets that can become findings first, and the arithmetic ones
    // (many more verification conditions, each a solver query) as a job of their own in full
    // mode, so running out of time on them keeps the other answers. Quick mode: one job per unit.
    const groups: Array<string[] | null> = !semver.gte(version, '0.8.0')
      ? [null]
      : mode === 'quick'
        ? [targets]
        : [targets.filter((t) => !ARITHMETIC.has(t)), targets.filter((t) => ARITHMETIC.has(t))].filter((g) => g.length);
    const jobs = units.flatMap((unit) => groups.map((g) => ({ unit, targets: g })));
    // Quick mode: `quickBudget` per job. Full mode: `fullBudget` is the file's, shared out evenly
    // (never under FULL_MIN_JOB_MS a job; jobs past what the budget buys are listed, not run).
    const perJob =
      budgetOverride ?? (mode === 'quick' ? quickBudget : Math.max(FULL_MIN_JOB_MS, Math.floor(fullBudget / Math.max(1, jobs.length))));
    const affordable = budgetOverride || mode === 'quick' ? jobs.length : Math.max(1, Math.floor(fullBudget / perJob));
    const key = sourceKeyFor({ absPath: input.absPath, file: input.file, roots: input.roots });
    let provedSafe = 0;
    const diags: CompilerDiagnostic[] = [];
    const timedOut: string[] = [];
    const overBudget: string[] = [];
    const checked: string[] = [];
    const notes = new Set<string>();
    // Full mode: the request's analysis budget, shared with the other layers, also ends the
    // model checking (a job it stops, and the jobs it leaves no FULL_MIN_JOB_MS for, are listed
    // as not checked, like those past the tool's own budget).
    const shared = mode === 'full' ? run.budgetDeadline : undefined;
    // Its reserved share of that budget (the engine starts it before the open-ended searches):
    // jobs start while a job's minimum fits in the slice, the first one in any case as long as the
    // shared budget has that minimum left, and a job still running at the slice's end is stopped.
    const slice = mode === 'full' && shared !== undefined ? run.sliceDeadline : undefined;
    let sharedSpent = false;
    let sliceSpent = false;
    let started = 0;
    const jobName = (j: (typeof jobs)[number]) =>
      `${j.unit ?? input.file}${j.targets && groups.length > 1 ? ` [${j.targets.join(', ')}]` : ''}`;
    for (const [i, job] of jobs.entries()) {
      // A job its budget ended used its share and cost a solc reload (its helper thread is
      // stopped): in full mode one is enough, the rest of the file's jobs are listed instead.
      if (i >= affordable || overBudget.length) {
        overBudget.push(jobName(job));
        continue;
      }
      const remaining = run.deadline - Date.now();
      if (remaining < 250) {
        timedOut.push(jobName(job));
        continue;
      }
      if (shared !== undefined && shared - Date.now() < FULL_MIN_JOB_MS) {
        sharedSpent = true;
        overBudget.push(jobName(job));
        continue;
      }
      if (slice !== undefined && started > 0 && slice - Date.now() < FULL_MIN_JOB_MS) {
        sliceSpent = true;
        overBudget.push(jobName(job));
        continue;
      }
      // Where this job must end by plan: the slice (the first job gets at least the minimum),
      // never past the shared budget.
      const planEnd =
        shared === undefined ? Infinity : slice === undefined ? shared : Math.min(shared, Math.max(slice, Date.now() + FULL_MIN_JOB_MS));
      started++;
      const stopBy = run.deadline - Math.min(500, Math.max(100, (run.deadline - Date.now()) * 0.05));
      const modelChecker = semver.gte(version, '0.8.0')
        ? {
            engine,
            targets: job.targets,
            contracts: { [key]: [job.unit] },
            ...(mode === 'full' ? { showUnproved: true } : {}),
            // Counted for the run's answer (how many conditions held); the key arrived in 0.8.18.
            ...(mode === 'full' && semver.gte(version, '0.8.18') ? { showProvedSafe: true } : {}),
          }
        : semver.gte(version, '0.7.0')
          ? { engine }
          : undefined;
      let r: CompileResult;
      try {
        r = await compileModelCheck(
          {
            source: input.source,
            file: input.file,
            absPath: input.absPath,
            roots: input.roots,
            compiler: version,
            outputs: 'check',
            smtPragma: semver.lt(version, '0.8.0'),
            modelChecker,
            // The budget is solver time, counted on a helper thread of the worker that runs the
            // compile (waiting behind other tools in the queue does not count): a job past it
            // stops that helper only, so the pool worker keeps solc, Z3 and the parser loaded.
            // It answers a little before the request's deadline, when the pool would kill it.
            isolate: { budgetMs: perJob, deadline: Math.min(stopBy, planEnd) },
          },
          { pool: opts.pool, signal: run.signal, deadline: run.deadline },
        );
      } catch (e) {
        if (isTimeout(e)) {
          timedOut.push(jobName(job));
          continue;
        }
        throw e;
      }
      if (r.stopped) {
        // Full mode: the tool's own budget ending a job is part of the plan (status success,
        // what was not answered is listed); the request's deadline ending it is a timeout.
        const byPlan = planEnd < stopBy && r.stopped.why === 'deadline' && Date.now() < stopBy;
        if (byPlan && planEnd === shared) sharedSpent = true;
        else if (byPlan) sliceSpent = true;
        (mode === 'full' && (r.stopped.why === 'budget' || byPlan) ? overBudget : timedOut).push(jobName(job));
        continue;
      }
      if (!r.ok)
        return {
          status: 'error',
          findings: [],
          error: `compiling with the SMTChecker failed: ${r.errors[0]?.message ?? 'unknown error'}`,
          meta: { compiler: version },
        };
      checked.push(jobName(job));
      diags.push(...r.warnings);
      for (const w of r.warnings) {
        if (
          /verification condition\(s\) could not be proved|does not yet support|Error trying to invoke SMT solver|not possible since no integrated SMT solver/i.test(
            w.message,
          )
        )
          notes.add(w.message.split('\n')[0]);
        const safe = /^(BMC|CHC): (\d+) verification condition\(s\) proved safe/.exec(w.message);
        if (safe) provedSafe += Number(safe[2]);
        else if (/^(BMC|CHC): .* check is safe!/.test(w.message)) provedSafe++;
      }
    }
    if (semver.gte(version, '0.8.0') && !targets.some((t) => ARITHMETIC.has(t)))
      notes.add(
        'overflow and underflow were not asked for: this code has no unchecked block, and checked arithmetic (solc >= 0.8) only reverts the transaction that chose the operands',
      );
    const reverts: Array<{ kind: string; line: number }> = [];
    const findings = smtFindings(diags, input, { compiler: version, mode, reverts });
    if (reverts.length)
      notes.add(
        `${reverts.length} overflow/underflow counterexample(s) in checked arithmetic (lines ${[...new Set(reverts.map((r) => r.line))].join(', ')}) only revert the transaction; not reported as findings`,
      );
    const meta = {
      compiler: version,
      engine,
      targets,
      contracts_checked: checked,
      timed_out: timedOut,
      ...(mode === 'full' ? { proved_safe: provedSafe, not_checked: overBudget } : {}),
      notes: [...notes],
      budget_ms_per_contract: perJob,
      elapsed_ms: Date.now() - t0,
    };
    if (timedOut.length) {
      return {
        status: 'timeout',
        findings,
        error: `SMTChecker ${engine} ran out of ${mode === 'quick' ? `its quick-mode budget (${perJob} ms per contract)` : "the request's time"} on ${timedOut.join(', ')}${checked.length ? `; finished: ${checked.join(', ')}` : ''}`,
        meta,
      };
    }
    if (overBudget.length) {
      const which = sharedSpent
        ? "the request's analysis budget"
        : sliceSpent
          ? `its ${Math.max(0, Math.round((slice ?? t0) - t0))} ms share of the request's analysis budget (the rest is the other searches')`
          : `the ${fullBudget} ms full-mode budget`;
      return {
        status: 'success',
        findings,
        meta: {
          ...meta,
          budget_exhausted: `${checked.length} of ${jobs.length} model-checking job(s) answered: ${which} ended before ${overBudget.join(', ')} ${overBudget.length > 1 ? 'were' : 'was'} answered; the answers of ${checked.length ? checked.join(', ') : 'no job'} are reported${provedSafe ? ` (${provedSafe} condition(s) proved safe)` : ''}`,
        },
      };
    }
    return { status: 'success', findings, meta };
  }
  return tool;
}
